// datapages: filter the All datasets list by text and tag.
// Progressive enhancement: without this script every dataset is listed; the form stays hidden.
// The filter searches one text per dataset, the same on every page: its title, slug, tags,
// headline, description and column names, from the split search index (data/search/:
// a manifest, then the few small files a query needs). While they load the list stays as
// it is ("Loading the search index"): there is no second way of matching meanwhile. Only
// when they cannot be loaded (a page opened from disk) does the filter fall back to the
// text of this page's entries, and says so when other pages exist.
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
  // The split index (data/search/, written by src/metadata/search_split.rs): a manifest,
  // then per query word the one shard that holds it, the tags file for the tag filter and
  // the docs files of the results shown. Files load once and are kept.
  var manifest = null;
  var files = {};
  var failed = false;
  var results = null;
  var generation = 0;
  var folder = (form.getAttribute("data-index") || "").replace(/[^\/]*$/, "");

  // The page language's words and number marks (words-<language>.js, from the build).
  var W = self.datapagesWords;

  function fetchJSON(name, done) {
    if (files[name] !== undefined) return done(files[name]);
    var request = new XMLHttpRequest();
    var fail = function () { failed = true; apply(); };
    try {
      request.open("GET", folder + name);
      request.responseType = "json";
      request.onerror = fail;
      request.onload = function () {
        if (request.status !== 200 || request.response === null || typeof request.response !== "object") return fail();
        files[name] = request.response;
        done(request.response);
      };
      request.send();
    } catch (e) {
      fail();
    }
  }

  // Loads every file of `names`, then calls `done` with them in order.
  function fetchAll(names, done) {
    var left = names.length;
    var got = [];
    if (!left) return done(got);
    names.forEach(function (name, i) {
      fetchJSON(name, function (value) {
        got[i] = value;
        left -= 1;
        if (!left) done(got);
      });
    });
  }

  // FNV-1a of the code points, as shard_of in search_split.rs.
  function shardOf(key) {
    var hash = 0x811c9dc5;
    Array.from(key).forEach(function (c) {
      hash = Math.imul((hash ^ c.codePointAt(0)) >>> 0, 0x01000193) >>> 0;
    });
    return hash % manifest.shards;
  }

  function lookupKey(word) { return Array.from(word).slice(0, 3).join(""); }

  // A set of dataset numbers: gaps in base 36 joined by ".", or "~" and a base64 bitmap.
  function decode(text, into) {
    if (text.charAt(0) === "~") {
      var bits = atob(text.slice(1));
      for (var i = 0; i < manifest.datasets; i++) {
        if (bits.charCodeAt(i >> 3) & (1 << (i & 7))) into[i] = true;
      }
      return into;
    }
    var at = 0;
    text.split(".").forEach(function (gap) {
      if (!gap) return;
      at += parseInt(gap, 36);
      into[at] = true;
    });
    return into;
  }

  // The datasets whose searched words contain `word`, from its shard.
  function matchesOf(word, shard) {
    var found = {};
    if (Array.from(word).length < 3) {
      if (Object.prototype.hasOwnProperty.call(shard.g, word)) decode(shard.g[word], found);
      return found;
    }
    Object.keys(shard.w).forEach(function (token) {
      if (token.indexOf(word) !== -1) decode(shard.w[token], found);
    });
    return found;
  }

  // Answers the query: `done` gets the matching dataset numbers, ascending.
  function search(words, wanted, done) {
    var names = words.map(function (word) { return "shard-" + shardOf(lookupKey(word)) + ".json"; });
    if (wanted) names.push("tags.json");
    fetchAll(names, function (got) {
      var ids = null;
      words.forEach(function (word, i) {
        var found = matchesOf(word, got[i]);
        if (ids === null) ids = found;
        else Object.keys(ids).forEach(function (id) { if (!found[id]) delete ids[id]; });
      });
      if (wanted) {
        var tags = got[got.length - 1];
        var tagged = Object.prototype.hasOwnProperty.call(tags, wanted) ? decode(tags[wanted], {}) : {};
        if (ids === null) ids = tagged;
        else Object.keys(ids).forEach(function (id) { if (!tagged[id]) delete ids[id]; });
      }
      done(Object.keys(ids || {}).map(Number).sort(function (a, b) { return a - b; }));
    });
  }

  // The shown entries of datasets `ids` (at most `limit` of them), from the docs files.
  function docsOf(ids, limit, done) {
    var shown = ids.slice(0, limit);
    var names = [];
    shown.forEach(function (id) {
      var name = "docs-" + Math.floor(id / manifest.docs_per_file) + ".json";
      if (names.indexOf(name) === -1) names.push(name);
    });
    fetchAll(names, function () {
      done(shown.map(function (id) {
        return files["docs-" + Math.floor(id / manifest.docs_per_file) + ".json"][id % manifest.docs_per_file];
      }));
    });
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
    var paginated = total > items.length;
    var current = ++generation;
    if (filtering && !failed) {
      // The one way of matching is the index's: until it answers nothing is filtered.
      status.textContent = W.t("loading_index");
      var answered = function (found, docs) {
        if (current !== generation) return;
        if (paginated) {
          showResults(docs);
          list.hidden = true;
          results.hidden = false;
          if (pagination) pagination.hidden = true;
        } else {
          var wantedSlugs = {};
          docs.forEach(function (d) { wantedSlugs[d.slug] = true; });
          items.forEach(function (item, i) { item.hidden = !wantedSlugs[slugs[i]]; });
        }
        status.textContent = W.t("datasets_found", { shown: found.length, n: total }) + (paginated && found.length > 200 ? " " + W.t("first_200") : "");
        if (empty) empty.hidden = found.length !== 0;
      };
      var withManifest = function () {
        search(words, wanted, function (found) {
          docsOf(found, paginated ? 200 : found.length, function (docs) { answered(found, docs); });
        });
      };
      if (manifest) return withManifest();
      var request = new XMLHttpRequest();
      var fail = function () { failed = true; if (current === generation) apply(); };
      try {
        request.open("GET", form.getAttribute("data-index"));
        request.responseType = "json";
        request.onerror = fail;
        request.onload = function () {
          if (request.status !== 200 || !request.response || !request.response.shards) return fail();
          manifest = request.response;
          if (current === generation) withManifest();
        };
        request.send();
      } catch (e) {
        fail();
      }
      return;
    }
    var shown = 0;
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
    if (empty) empty.hidden = shown !== 0;
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); });
  text.addEventListener("input", apply);
  tag.addEventListener("change", apply);
  form.hidden = false;
  apply();
})();
