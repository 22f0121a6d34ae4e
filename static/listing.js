// datapages: filter the All datasets list by text and tag.
// Progressive enhancement: without this script every dataset is listed; the form stays hidden.
// When the listing has more pages than this one, the first use of the filter loads the
// compact search index (data/search-index.json: slug, title, tag slugs, date) once and
// searches every dataset; until it arrives, or if it cannot be loaded, this page is filtered.
(function () {
  "use strict";

  var form = document.querySelector(".listing-filter");
  var list = document.querySelector(".dataset-list");
  var items = Array.prototype.slice.call(document.querySelectorAll(".dataset-list .dataset-item"));
  if (!form || !list || !items.length) return;
  var text = document.getElementById("listing-text");
  var tag = document.getElementById("listing-tag");
  var status = document.getElementById("listing-status");
  var empty = document.querySelector(".listing-empty");
  var pagination = document.querySelector(".pagination");
  var total = parseInt(form.getAttribute("data-total"), 10) || items.length;
  var root = form.getAttribute("data-root") || "";
  var haystacks = items.map(function (item) { return item.textContent.toLowerCase(); });
  var index = null;
  var loading = false;
  var results = null;

  function unit(n) { return n === 1 ? " dataset" : " datasets"; }

  function loadIndex() {
    if (index || loading || total <= items.length) return;
    loading = true;
    var request = new XMLHttpRequest();
    request.open("GET", form.getAttribute("data-index"));
    request.responseType = "json";
    request.onload = function () {
      if (request.status === 200 && Array.isArray(request.response)) {
        index = request.response.map(function (d) {
          return { d: d, text: (d.title + " " + d.slug + " " + d.tags.join(" ")).toLowerCase() };
        });
        apply();
      }
    };
    request.send();
  }

  function item(d) {
    var li = document.createElement("li");
    li.className = "dataset-item";
    li.setAttribute("data-tags", d.tags.join(" "));
    var h = document.createElement("h2");
    h.className = "item-title";
    var a = document.createElement("a");
    a.href = root + "datasets/" + d.slug + "/";
    a.textContent = d.title;
    h.appendChild(a);
    li.appendChild(h);
    if (d.updated) {
      var meta = document.createElement("p");
      meta.className = "item-meta";
      meta.textContent = "updated " + d.updated;
      li.appendChild(meta);
    }
    return li;
  }

  function showResults(matches) {
    if (!results) {
      results = document.createElement("ul");
      results.className = "dataset-list listing-results";
      list.parentNode.insertBefore(results, list.nextSibling);
    }
    while (results.firstChild) results.removeChild(results.firstChild);
    matches.slice(0, 200).forEach(function (d) { results.appendChild(item(d)); });
  }

  function apply() {
    var words = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var wanted = tag.value;
    var filtering = words.length || wanted;
    var matches = function (hay, tags) {
      return (!wanted || tags.indexOf(wanted) !== -1) &&
        words.every(function (word) { return hay.indexOf(word) !== -1; });
    };
    var shown = 0;
    if (filtering && index) {
      var found = index.filter(function (e) { return matches(e.text, e.d.tags); }).map(function (e) { return e.d; });
      shown = found.length;
      showResults(found);
      list.hidden = true;
      results.hidden = false;
      if (pagination) pagination.hidden = true;
      status.textContent = shown + " of " + total + unit(total) + (shown > 200 ? " (the first 200 listed)" : "");
    } else {
      if (filtering) loadIndex();
      if (results) results.hidden = true;
      list.hidden = false;
      if (pagination) pagination.hidden = !!filtering;
      items.forEach(function (item, i) {
        var match = matches(haystacks[i], (item.getAttribute("data-tags") || "").split(" "));
        item.hidden = !match;
        if (match) shown += 1;
      });
      var count = total > items.length && filtering ? " on this page" : "";
      status.textContent = filtering ? shown + " of " + items.length + unit(items.length) + count : "All " + total + unit(total);
    }
    if (empty) empty.hidden = shown !== 0;
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); });
  text.addEventListener("input", apply);
  tag.addEventListener("change", apply);
  form.hidden = false;
  apply();
})();
