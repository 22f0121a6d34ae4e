// datapages: filter the All datasets list by text and tag.
// Progressive enhancement: without this script every dataset is listed; the form stays hidden.
// The filter searches one text per dataset, the same on every page: its title, slug, tags,
// headline, description and column names, from the compact search index
// (data/search-index.json), loaded once at the first use. While it loads the list stays as
// it is ("Loading the search index"): there is no second way of matching meanwhile. Only
// when it cannot be loaded (a page opened from disk) does the filter fall back to the text
// of this page's entries, and says so when other pages exist.
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
  var slugs = items.map(function (item) {
    var link = item.querySelector(".item-title a");
    var found = link && /datasets\/([^\/]+)\/$/.exec(link.getAttribute("href") || "");
    return found ? found[1] : "";
  });
  var index = null;
  var loading = false;
  var failed = false;
  var results = null;

  // The page language's words and number marks (words-<language>.js, from the build).
  var W = self.datapagesWords;

  function loadIndex() {
    if (index || loading || failed) return;
    loading = true;
    var fail = function () { loading = false; failed = true; apply(); };
    var request = new XMLHttpRequest();
    try {
      request.open("GET", form.getAttribute("data-index"));
      request.responseType = "json";
      request.onerror = fail;
      request.onload = function () {
        if (request.status !== 200 || !Array.isArray(request.response)) return fail();
        loading = false;
        index = request.response.map(function (d) {
          var words = [d.title, d.slug, d.tags.join(" "), d.text || ""];
          return { d: d, text: words.join(" ").toLowerCase() };
        });
        apply();
      };
      request.send();
    } catch (e) {
      fail();
    }
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
      meta.textContent = W.t("updated", { date: W.date(d.updated) });
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
    if (filtering && !index && !failed) {
      // The one way of matching is the index's: until it arrives nothing is filtered.
      loadIndex();
      if (!index && !failed) {
        status.textContent = W.t("loading_index");
        return;
      }
    }
    var paginated = total > items.length;
    if (filtering && index) {
      var found = index.filter(function (e) { return matches(e.text, e.d.tags); }).map(function (e) { return e.d; });
      shown = found.length;
      if (paginated) {
        showResults(found);
        list.hidden = true;
        results.hidden = false;
        if (pagination) pagination.hidden = true;
      } else {
        var wantedSlugs = {};
        found.forEach(function (d) { wantedSlugs[d.slug] = true; });
        items.forEach(function (item, i) { item.hidden = !wantedSlugs[slugs[i]]; });
      }
      status.textContent = W.t("datasets_found", { shown: shown, n: total }) + (paginated && shown > 200 ? " " + W.t("first_200") : "");
    } else {
      if (results) results.hidden = true;
      list.hidden = false;
      if (pagination) pagination.hidden = !!filtering;
      items.forEach(function (item, i) {
        var match = matches(haystacks[i], (item.getAttribute("data-tags") || "").split(" "));
        item.hidden = !match;
        if (match) shown += 1;
      });
      var count = paginated && filtering ? " " + W.t("on_page") : "";
      status.textContent = filtering ? W.t("datasets_found", { shown: shown, n: items.length }) + count : W.t("all_datasets", { n: total });
    }
    if (empty) empty.hidden = shown !== 0;
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); });
  text.addEventListener("input", apply);
  tag.addEventListener("change", apply);
  form.hidden = false;
  apply();
})();
