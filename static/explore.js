// datapages: explore every row of a dataset from its published CSV, with no server.
// Progressive enhancement: without this script the page is unchanged. With it, "Explore all
// N rows" starts a worker (explore-worker.js) that streams the CSV into typed columns, with
// progress and Stop; then sort by any column (empty cells last, ties in CSV order), a text
// filter, facets with counts, number and date ranges, pages of rows formatted as the table
// formats them, and "Download these rows" (the published rows, byte for byte). The view
// lives in the URL's fragment (#explore?…), so a link or a reload reopens it.
(function () {
  "use strict";

  var box = document.getElementById("explore");
  var metaScript = box && box.querySelector("script.explore-meta");
  if (!box || !metaScript || !window.Worker || !window.fetch || !window.ReadableStream) return;
  var meta;
  try { meta = JSON.parse(metaScript.textContent); } catch (e) { return; }
  // The settings the build leaves out at their usual value (src/render/explore_view.rs).
  meta = Object.assign({ delimiter: ",", quote: "\"", skip_initial_space: false, row_pages: null, pointed: [] }, meta);
  meta.columns = meta.columns.map(function (column) {
    return Object.assign({ missing: [], decimal: ".", group: null, digits: null, year: false, ungrouped: false,
      format: null, source: false, wide: false, "enum": null, link: null }, column);
  });
  // The worker sends a cell's value as written where a link needs it: a foreign key's
  // cells, and the columns other datasets' rows name (`pointed`).
  meta.pointed.forEach(function (p) { meta.columns[p.column].raw = true; });
  meta.columns.forEach(function (column) { if (column.link) column.raw = true; });
  var root = box.getAttribute("data-root") || "";
  // The CSV's own base when it is published elsewhere (site.toml `data_url`).
  var dataRoot = box.getAttribute("data-data-root") || root;
  var W = self.datapagesWords;
  var PER = 50;
  var english = !W.marks || (W.marks.group === "," && W.marks.decimal === "." && W.marks.minus === "-");
  var FACET_SHOWN = 12;

  function group(n) { return W.num(n); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "class") node.className = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  // A link the build wrote site-relative (or within this page, `#…`), with a key's value
  // as written appended percent-encoded as the build encodes it (keys_view.rs).
  function keyHref(href, value) {
    var encoded = value === null ? "" : encodeURIComponent(value).replace(/[!'()*]/g, function (c) {
      return "%" + c.charCodeAt(0).toString(16).toUpperCase();
    });
    return (href.charAt(0) === "#" ? "" : root) + href + encoded;
  }
  function mb(bytes) { return W.t("explorer_megabytes", { size: W.num((bytes / 1e6).toFixed(1)) }); }
  // A message with one link (`[text](href)`) as nodes.
  function linked(message, href) {
    var at = /\[([^\]]*)\]\(csv\)/.exec(message);
    var out = document.createDocumentFragment();
    if (!at) { out.appendChild(document.createTextNode(message)); return out; }
    out.appendChild(document.createTextNode(message.slice(0, at.index)));
    out.appendChild(el("a", { href: href, download: "" }, at[1]));
    out.appendChild(document.createTextNode(message.slice(at.index + at[0].length)));
    return out;
  }

  box.hidden = false;
  var tooLarge = box.getAttribute("data-too-large");
  if (tooLarge) {
    var note = el("p", { class: "explore-note" });
    note.appendChild(linked(W.t("explorer_too_large", { size: mb(meta.bytes), limit: tooLarge }), dataRoot + meta.csv));
    box.appendChild(note);
    return;
  }

  var start = el("button", { type: "button", class: "explore-start" }, W.t("explore", { n: meta.rows }));
  box.appendChild(start);
  var panel = el("div", { class: "explore-panel", hidden: "" });
  box.appendChild(panel);
  var progress = el("p", { class: "explore-progress", role: "status" });
  var stop = el("button", { type: "button", class: "explore-stop" }, W.t("explorer_stop"));
  var progressLine = el("div", { class: "explore-loading" });
  progressLine.appendChild(progress);
  progressLine.appendChild(stop);
  panel.appendChild(progressLine);

  var worker = null;
  var loaded = null;   // the worker's column info once loaded
  var readRows = 0;    // rows read so far, as the worker last said
  var state = readHash() || blank();
  var queryId = 0;
  var ui = null;

  // Facets, ranges and exact keys (a foreign key's link: `k.<column>=<value>`) by column
  // name in Maps: a column may be named `constructor` or `__proto__`, which a plain object
  // would answer from its prototype.
  function blank() { return { sort: null, q: "", facets: new Map(), ranges: new Map(), keys: new Map(), page: 1 }; }

  // ---- The URL's fragment -------------------------------------------------------------
  function readHash() {
    var hash = location.hash;
    if (hash.indexOf("#explore") !== 0) return null;
    var params = new URLSearchParams(hash.slice(hash.indexOf("?") + 1 || hash.length));
    var s = blank();
    params.forEach(function (value, key) {
      if (key === "sort") {
        var at = value.lastIndexOf(".");
        s.sort = at > 0 ? [value.slice(0, at), value.slice(at + 1) === "desc" ? "desc" : "asc"] : null;
      } else if (key === "q") s.q = value;
      else if (key === "page") s.page = Math.max(1, parseInt(value, 10) || 1);
      else if (key.indexOf("f.") === 0) {
        var name = key.slice(2);
        if (!s.facets.has(name)) s.facets.set(name, []);
        s.facets.get(name).push(value);
      } else if (key.indexOf("r.") === 0) {
        var parts = value.split("~");
        s.ranges.set(key.slice(2), [parts[0] || "", parts[1] || ""]);
      } else if (key.indexOf("k.") === 0) s.keys.set(key.slice(2), value);
    });
    return s;
  }

  function writeHash() {
    var params = new URLSearchParams();
    if (state.sort) params.append("sort", state.sort[0] + "." + state.sort[1]);
    if (state.q) params.append("q", state.q);
    state.facets.forEach(function (values, name) {
      values.forEach(function (v) { params.append("f." + name, v); });
    });
    state.ranges.forEach(function (r, name) {
      if (r[0] || r[1]) params.append("r." + name, r[0] + "~" + r[1]);
    });
    state.keys.forEach(function (value, name) { params.append("k." + name, value); });
    if (state.page > 1) params.append("page", String(state.page));
    var text = params.toString();
    history.replaceState(null, "", "#explore" + (text ? "?" + text : ""));
  }

  // ---- Loading --------------------------------------------------------------------------
  function begin() {
    start.hidden = true;
    panel.hidden = false;
    progressLine.hidden = false;
    stop.hidden = false;
    progress.textContent = W.t("reading");
    readRows = 0;
    loaded = null;
    worker = new Worker(root + "explore-worker.js", { type: "module" });
    // The page language's number marks: the worker shows numbers and reads ranges in them.
    var full = Object.assign({}, meta, { url: new URL(dataRoot + meta.csv, document.baseURI).href, marks: W.marks });
    worker.onmessage = receive;
    worker.onerror = function (event) { fail(event.message || W.t("explorer_worker_stopped")); };
    worker.postMessage({ type: "load", meta: full });
  }

  function fail(message) {
    if (worker) worker.terminate();
    worker = null;
    progress.textContent = W.t("explorer_read_failed", { error: message });
    stop.hidden = true;
    start.hidden = false;
  }

  stop.addEventListener("click", function () {
    if (worker) worker.terminate();
    worker = null;
    stop.hidden = true;
    progress.textContent = W.t("explorer_stopped", { read: readRows, n: meta.rows });
    start.hidden = false;
    start.focus();
  });

  function receive(event) {
    if (event.target !== worker) return;  // a stopped worker's last words
    var m = event.data;
    if (m.type === "progress") {
      readRows = m.rows;
      progress.textContent = W.t("explorer_progress", { read: m.rows, n: meta.rows, bytes: mb(m.bytes), size: mb(meta.bytes) });
    } else if (m.type === "loaded") {
      loaded = m;
      progressLine.hidden = true;
      build();
      box.setAttribute("data-loaded-ms", String(m.ms));
      ask();
    } else if (m.type === "result") {
      if (m.id === queryId) show(m);
    } else if (m.type === "download") {
      save(m);
    } else if (m.type === "error") {
      fail(m.status ? W.t("explorer_http", { status: String(m.status) }) : m.message);
    }
  }

  // ---- The controls ---------------------------------------------------------------------
  function isTime(c) { return loaded.columns[c].kind === "time"; }

  function build() {
    var controls = el("div", { class: "explore-controls" });
    var search = el("div", { class: "explore-search" });
    search.appendChild(el("label", { for: "explore-q" }, W.t("search_rows")));
    var q = el("input", { id: "explore-q", type: "search", autocomplete: "off", spellcheck: "false" });
    q.value = state.q;
    search.appendChild(q);
    controls.appendChild(search);
    var pending = null;
    q.addEventListener("input", function () {
      if (pending) clearTimeout(pending);
      pending = setTimeout(function () { state.q = q.value.trim(); state.page = 1; ask(); }, 200);
    });

    var keys = el("div", { class: "explore-keys" });
    controls.appendChild(keys);
    var facets = el("div", { class: "explore-facets" });
    var ranges = el("div", { class: "explore-ranges" });
    meta.columns.forEach(function (spec, c) {
      var info = loaded.columns[c];
      if (info.facet) {
        var set = el("fieldset", { class: "explore-facet", "data-column": spec.name });
        set.appendChild(el("legend", {}, spec.title));
        set.appendChild(el("ul", { class: "explore-values" }));
        facets.appendChild(set);
      }
      if ((info.kind === "number" || info.kind === "time") && info.min !== null) {
        var fs = el("fieldset", { class: "explore-range", "data-column": spec.name });
        fs.appendChild(el("legend", {}, spec.title));
        var time = info.kind === "time";
        // A number in English marks in a number input; in other marks as text, which the
        // worker reads in the page's marks or plain (a number input takes the browser's).
        var type = time ? "date" : english ? "number" : "text";
        ["from", "to"].forEach(function (end, k) {
          var id = "explore-" + end + "-" + c;
          var word = W.t("explorer_" + end);
          var label = el("label", { for: id }, word);
          var input = el("input", { id: id, type: type, step: type === "number" ? "any" : null, class: "explore-" + end,
            inputmode: type === "text" ? "decimal" : null,
            "aria-label": spec.title + ", " + word,
            placeholder: time ? null : group(k ? info.max : info.min) });
          var r = state.ranges.get(spec.name);
          if (r) input.value = r[k];
          input.addEventListener("change", function () {
            var cur = state.ranges.get(spec.name) || ["", ""];
            cur[k] = input.value;
            if (cur[0] || cur[1]) state.ranges.set(spec.name, cur); else state.ranges.delete(spec.name);
            state.page = 1;
            ask();
          });
          fs.appendChild(label);
          fs.appendChild(input);
        });
        ranges.appendChild(fs);
      }
    });
    if (facets.childNodes.length) {
      // On a narrow screen the facets start closed (unless the view picks values), so the
      // first rows are on the first screen.
      var wide = !window.matchMedia || window.matchMedia("(min-width: 40em)").matches;
      var fd = el("details", { class: "explore-group", open: wide || state.facets.size ? "" : null });
      fd.appendChild(el("summary", {}, W.t("explorer_values")));
      fd.appendChild(facets);
      controls.appendChild(fd);
    }
    if (ranges.childNodes.length) {
      var rd = el("details", { class: "explore-group", open: state.ranges.size ? "" : null });
      rd.appendChild(el("summary", {}, W.t("explorer_ranges")));
      rd.appendChild(ranges);
      controls.appendChild(rd);
    }
    panel.appendChild(controls);

    var bar = el("div", { class: "explore-bar" });
    var count = el("p", { class: "explore-count", id: "explore-count", "aria-live": "polite" });
    bar.appendChild(count);
    var download = el("button", { type: "button", class: "explore-download" }, W.t("download_rows"));
    var reset = el("button", { type: "button", class: "explore-reset" }, W.t("clear"));
    var close = el("button", { type: "button", class: "explore-close" }, W.t("explorer_close"));
    bar.appendChild(download);
    bar.appendChild(reset);
    bar.appendChild(close);
    var saved = el("a", { class: "explore-saved", hidden: "" });
    bar.appendChild(saved);
    panel.appendChild(bar);

    var scroll = el("div", { class: "table-scroll explore-scroll", role: "region", "aria-labelledby": "explore-caption", tabindex: "0" });
    var table = el("table", { class: "explore-table" });
    var caption = el("caption", { id: "explore-caption" }, W.t("explorer_caption", { title: meta.title }));
    table.appendChild(caption);
    var head = el("thead");
    var tr = el("tr");
    tr.appendChild(el("th", { scope: "col", class: "num explore-row" }, W.t("explorer_row")));
    // The links to the rows naming a row come first, beside its number, in view.
    if (meta.pointed.length) tr.appendChild(el("th", { scope: "col", class: "text explore-pointed" }, W.t("explorer_named_by")));
    var headers = meta.columns.map(function (spec, c) {
      var info = loaded.columns[c];
      var th = el("th", { scope: "col", class: info.kind === "number" ? "num" : spec.wide ? "wide" : "text" });
      var button = el("button", { type: "button", class: "sort-button" }, spec.title);
      button.addEventListener("click", function () {
        var cur = state.sort && state.sort[0] === spec.name ? state.sort[1] : null;
        var first = info.kind === "number" ? "desc" : "asc";
        var next = cur === null ? first : cur === "asc" ? "desc" : "asc";
        state.sort = [spec.name, next];
        state.page = 1;
        ask();
      });
      th.appendChild(button);
      tr.appendChild(th);
      return th;
    });
    head.appendChild(tr);
    table.appendChild(head);
    var body = el("tbody");
    table.appendChild(body);
    scroll.appendChild(table);
    panel.appendChild(scroll);

    var pager = el("nav", { class: "explore-pager", "aria-label": W.t("explorer_pages") });
    var prev = el("button", { type: "button", class: "explore-prev" }, W.t("explorer_previous"));
    var where = el("span", { class: "explore-page" });
    var next = el("button", { type: "button", class: "explore-next" }, W.t("explorer_next"));
    pager.appendChild(prev);
    pager.appendChild(where);
    pager.appendChild(next);
    panel.appendChild(pager);
    prev.addEventListener("click", function () { state.page -= 1; ask(); });
    next.addEventListener("click", function () { state.page += 1; ask(); });

    download.addEventListener("click", function () {
      download.disabled = true;
      box.setAttribute("aria-busy", "true");
      worker.postMessage({ type: "download", state: workerState() });
    });
    reset.addEventListener("click", function () {
      var sort = state.sort;
      state = blank();
      state.sort = sort;
      q.value = "";
      Array.prototype.forEach.call(ranges.querySelectorAll("input"), function (i) { i.value = ""; });
      ask();
    });
    close.addEventListener("click", function () {
      if (worker) worker.terminate();
      worker = null;
      panel.textContent = "";
      panel.appendChild(progressLine);
      panel.hidden = true;
      start.hidden = false;
      setStatic(false);
      history.replaceState(null, "", location.pathname + location.search + "#table");
      start.focus();
    });
    ui = { q: q, keys: keys, ranges: ranges, facets: facets, count: count, body: body, headers: headers, prev: prev, next: next, where: where, download: download, saved: saved };
    setStatic(true);
  }

  // While the explorer is open, the page's own table (its first rows) steps aside.
  function setStatic(open) {
    var section = document.getElementById("table");
    if (!section) return;
    Array.prototype.forEach.call(section.querySelectorAll(":scope > .table-scroll, :scope > .table-tools, :scope > .table-truncated, :scope > .row-nav"), function (node) {
      if (open) { node.setAttribute("data-explore-hid", node.hidden ? "1" : "0"); node.hidden = true; }
      else if (node.hasAttribute("data-explore-hid")) { node.hidden = node.getAttribute("data-explore-hid") === "1"; node.removeAttribute("data-explore-hid"); }
    });
  }

  // The state as the worker takes it: ranges as numbers (dates as UTC milliseconds, the
  // "to" date through its whole day).
  function workerState() {
    var ranges = new Map();
    state.ranges.forEach(function (r, name) {
      var c = -1;
      meta.columns.forEach(function (spec, i) { if (spec.name === name) c = i; });
      if (c < 0) return;
      var time = isTime(c);
      var value = function (text, end) {
        if (!text) return null;
        if (time) {
          var t = Date.parse(text + "T00:00:00Z");
          return isNaN(t) ? null : end ? t + 86400000 - 1 : t;
        }
        return text;   // read by the worker, in the page's marks or plain
      };
      ranges.set(name, [value(r[0], false), value(r[1], true)]);
    });
    return { id: queryId, sort: state.sort, q: state.q, facets: state.facets, ranges: ranges, keys: state.keys, page: state.page, per: PER };
  }

  function ask() {
    queryId += 1;
    box.setAttribute("aria-busy", "true");
    writeHash();
    drawKeys();
    worker.postMessage({ type: "query", state: workerState() });
  }

  // The exact keys in force (a foreign key's link opened the explorer on them), each with
  // a button (×, named "Clear filters: <column> = <value>") that clears it; focus then goes
  // to the search box.
  function drawKeys() {
    ui.keys.textContent = "";
    state.keys.forEach(function (value, name) {
      var spec = meta.columns.filter(function (c) { return c.name === name; })[0];
      var said = (spec ? spec.title : name) + " = " + value;
      var line = el("p", { class: "explore-key" });
      line.appendChild(el("span", { class: "explore-key-value" }, said));
      var clear = el("button", { type: "button", class: "explore-key-clear", "aria-label": W.t("clear") + ": " + said }, "\u00d7");
      clear.addEventListener("click", function () {
        state.keys.delete(name);
        state.page = 1;
        ask();
        ui.q.focus();
      });
      line.appendChild(clear);
      ui.keys.appendChild(line);
    });
  }

  function rowLink(n) {
    if (meta.row_pages) {
      var page = Math.floor((n - 1) / meta.row_pages.per_page) + 1;
      return root + meta.row_pages.base + (page > 1 ? "rows/" + page + "/" : "") + "#row-" + n;
    }
    return n <= meta.shown_rows ? "#row-" + n : null;
  }

  function show(m) {
    box.removeAttribute("aria-busy");
    state.page = m.page;
    writeHash();
    ui.count.textContent = m.matched === m.total ? W.t("all_rows", { n: m.total }) : W.t("shown_rows", { shown: m.matched, n: m.total });
    var fragment = document.createDocumentFragment();
    var clamps = [];
    m.rows.forEach(function (row) {
      var tr = el("tr");
      var first = el("td", { class: "num explore-row" });
      var href = rowLink(row.n);
      if (href) first.appendChild(el("a", { href: href }, group(row.n)));
      else first.textContent = group(row.n);
      tr.appendChild(first);
      if (meta.pointed.length) tr.appendChild(namedBy(row));
      row.cells.forEach(function (cell, c) {
        var td = el("td", { class: cell.c || (meta.columns[c].wide ? "wide" : null) });
        var link = meta.columns[c].link;
        if (cell.s) td.appendChild(el("a", { href: "#source-" + cell.t }, cell.t));
        else if (link && cell.r !== undefined) td.appendChild(el("a", { href: keyHref(link.href, link.filtered ? cell.r : null) }, cell.t));
        else if (!cell.c && meta.columns[c].wide) clamps.push(clamped(td, cell.t));
        else td.textContent = cell.t;
        tr.appendChild(td);
      });
      fragment.appendChild(tr);
    });
    ui.body.textContent = "";
    ui.body.appendChild(fragment);
    clamps.filter(function (clamp) { return clamp.scrollHeight > clamp.clientHeight + 1; }).forEach(addMore);
    ui.headers.forEach(function (th, c) {
      var name = meta.columns[c].name;
      if (state.sort && state.sort[0] === name) th.setAttribute("aria-sort", state.sort[1] === "desc" ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
    ui.where.textContent = W.t("page_of", { page: m.page, pages: m.pages });
    ui.prev.disabled = m.page <= 1;
    ui.next.disabled = m.page >= m.pages;
    ui.download.disabled = m.matched === 0;
    Array.prototype.forEach.call(ui.facets.querySelectorAll("fieldset"), function (set) {
      var name = set.getAttribute("data-column");
      drawFacet(set, name, m.facets.get(name) || []);
    });
  }

  // The links from a row to the rows of other datasets that name it: each one's explorer
  // filtered on its key column, `Flights (tailnum)`.
  function namedBy(row) {
    var td = el("td", { class: "explore-pointed" });
    meta.pointed.forEach(function (p) {
      var value = row.cells[p.column].r;
      if (value === undefined) return;
      if (td.firstChild) td.appendChild(document.createTextNode(" · "));
      td.appendChild(el("a", { href: keyHref(p.href, value) }, W.t("explorer_named_link", { title: p.title, field: p.field })));
    });
    return td;
  }

  // Long text (the worker cuts a cell at 1,000 characters) shows two lines and a "more"
  // button, as the page's own table does (table.js, the same classes).
  function clamped(td, text) {
    var wrap = el("div", { class: "cell-wrap" });
    var clamp = el("div", { class: "cell-clamp" }, text);
    wrap.appendChild(clamp);
    td.appendChild(wrap);
    return clamp;
  }

  function addMore(clamp) {
    var button = el("button", { type: "button", class: "cell-more", "aria-label": W.t("whole_text"), "aria-expanded": "false" });
    button.addEventListener("click", function () {
      button.setAttribute("aria-expanded", clamp.classList.toggle("open") ? "true" : "false");
    });
    clamp.parentNode.appendChild(button);
  }

  function drawFacet(set, name, list) {
    var chosen = state.facets.get(name) || [];
    var ul = set.querySelector("ul");
    var focused = ul.contains(document.activeElement) ? document.activeElement.value : null;
    ul.textContent = "";
    var shown = list.filter(function (entry, k) { return k < FACET_SHOWN || chosen.indexOf(entry[0]) !== -1; });
    shown.forEach(function (entry, k) {
      var li = el("li");
      var id = "explore-f-" + set.getAttribute("data-column").replace(/[^A-Za-z0-9_-]/g, "_") + "-" + k;
      // A value too long to be chosen (entry[0] null) is listed with its count only.
      var box = el("input", { type: "checkbox", id: id, value: entry[0] });
      box.disabled = entry[0] === null;
      box.checked = chosen.indexOf(entry[0]) !== -1;
      box.addEventListener("change", function () {
        var cur = state.facets.get(name) || [];
        if (box.checked) cur.push(entry[0]); else cur = cur.filter(function (v) { return v !== entry[0]; });
        if (cur.length) state.facets.set(name, cur); else state.facets.delete(name);
        state.page = 1;
        ask();
      });
      var label = el("label", { for: id });
      label.appendChild(el("span", { class: "explore-value" }, entry[2]));
      label.appendChild(el("span", { class: "explore-n" }, group(entry[1])));
      li.appendChild(box);
      li.appendChild(label);
      ul.appendChild(li);
      if (focused !== null && focused === entry[0]) box.focus();
    });
    if (list.length > shown.length) ul.appendChild(el("li", { class: "explore-more" }, W.t("explorer_more_values", { n: list.length - shown.length })));
  }

  function save(m) {
    box.removeAttribute("aria-busy");
    ui.download.disabled = false;
    var blob = new Blob([m.bytes], { type: "text/csv" });
    if (ui.saved.href) URL.revokeObjectURL(ui.saved.href);
    ui.saved.href = URL.createObjectURL(blob);
    var name = meta.csv.split("/").pop().replace(/\.csv$/i, "");
    ui.saved.setAttribute("download", name + "-" + m.rows + "-rows.csv");
    ui.saved.click();
  }

  // A link to a view (#explore?…) opens the explorer in it and brings it into sight (no
  // element has that id, so the browser would stay at the top). Followed on this page,
  // only the fragment changes: the view is read again, and the open explorer shows it.
  function follow() {
    var next = readHash();
    if (!next) return;
    state = next;
    if (!worker) begin();
    else if (ui && loaded) {
      ui.q.value = state.q;
      Array.prototype.forEach.call(ui.ranges.querySelectorAll("fieldset"), function (set) {
        var r = state.ranges.get(set.getAttribute("data-column")) || ["", ""];
        Array.prototype.forEach.call(set.querySelectorAll("input"), function (input, k) { input.value = r[k]; });
      });
      ask();
    }
    box.scrollIntoView();
  }
  start.addEventListener("click", begin);
  window.addEventListener("hashchange", follow);
  follow();
})();
