// datapages: filter the All datasets list by text and tag.
// Progressive enhancement: without this script every dataset is listed; the form stays hidden.
(function () {
  "use strict";

  var form = document.querySelector(".listing-filter");
  var items = Array.prototype.slice.call(document.querySelectorAll(".dataset-list .dataset-item"));
  if (!form || !items.length) return;
  var text = document.getElementById("listing-text");
  var tag = document.getElementById("listing-tag");
  var status = document.getElementById("listing-status");
  var empty = document.querySelector(".listing-empty");
  var haystacks = items.map(function (item) { return item.textContent.toLowerCase(); });

  function apply() {
    var words = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var wanted = tag.value;
    var shown = 0;
    items.forEach(function (item, index) {
      var tags = (item.getAttribute("data-tags") || "").split(" ");
      var match = (!wanted || tags.indexOf(wanted) !== -1) &&
        words.every(function (word) { return haystacks[index].indexOf(word) !== -1; });
      item.hidden = !match;
      if (match) shown += 1;
    });
    var unit = items.length === 1 ? " dataset" : " datasets";
    status.textContent = words.length || wanted ? shown + " of " + items.length + unit : "All " + items.length + unit;
    if (empty) empty.hidden = shown !== 0;
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); });
  text.addEventListener("input", apply);
  tag.addEventListener("change", apply);
  form.hidden = false;
  apply();
})();
