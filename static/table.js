// datapages: sorting and filtering for the dataset table.
// Progressive enhancement: without this script the table is complete and readable; with
// it, each column header becomes a sort button and a filter box narrows the rows.
// No framework, no requests to other hosts.
(function () {
  "use strict";

  var table = document.querySelector("table.sortable");
  if (!table || !table.tBodies.length) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var headers = Array.prototype.slice.call(table.tHead ? table.tHead.rows[0].cells : []);
  var total = rows.length;
  var collator = new Intl.Collator(document.documentElement.lang || undefined, { numeric: true, sensitivity: "base" });

  // Group marks are shown, not part of the number; the page language's marks are read
  // back to the number as written (`2 693,5` -> 2693.5).
  function numberOf(cell) {
    var value = parseFloat(plainNumber(cell.textContent).replace(/[\s\u00a0]/g, ""));
    return isNaN(value) ? null : value;
  }

  function isEmpty(cell) {
    return !cell || cell.classList.contains("empty") || cell.textContent.trim() === "";
  }

  // Sort keys are read once: the rows do not change.
  var keys = rows.map(function (row, index) {
    return { row: row, index: index, text: null };
  });

  function sortBy(column, numeric, direction) {
    var sign = direction === "ascending" ? 1 : -1;
    keys.sort(function (a, b) {
      var ca = a.row.cells[column];
      var cb = b.row.cells[column];
      var ea = isEmpty(ca);
      var eb = isEmpty(cb);
      // Empty cells go last whichever way the column is sorted.
      if (ea || eb) return ea === eb ? a.index - b.index : ea ? 1 : -1;
      var order;
      if (numeric) {
        var na = numberOf(ca);
        var nb = numberOf(cb);
        order = na === null || nb === null ? collator.compare(ca.textContent, cb.textContent) : na - nb;
      } else {
        order = collator.compare(ca.textContent.trim(), cb.textContent.trim());
      }
      return order !== 0 ? sign * order : a.index - b.index;
    });
    var fragment = document.createDocumentFragment();
    keys.forEach(function (key) { fragment.appendChild(key.row); });
    body.appendChild(fragment);
  }

  headers.forEach(function (th, column) {
    var numeric = th.classList.contains("num");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort-button";
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    button.addEventListener("click", function () {
      var current = th.getAttribute("aria-sort");
      // Numbers sort largest first on the first click, text from A.
      var next = current === "descending" ? "ascending"
        : current === "ascending" ? "descending"
        : numeric ? "descending" : "ascending";
      headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", next);
      sortBy(column, numeric, next);
    });
  });

  // The filter box: every word typed must appear in some cell of the row, as shown or as
  // the CSV writes it (searchedText).
  var tools = document.querySelector(".table-tools");
  var input = document.getElementById("table-filter");
  var status = document.getElementById("table-status");
  if (!tools || !input || !status) return;
  var numeric = numberColumns(table);
  var texts = rows.map(function (tr) { return searchedText(tr, numeric); });
  // The CSV's rows: the page may show only the first of them.
  var csvRows = parseInt(tools.getAttribute("data-csv-rows"), 10) || total;
  // The page language's words and number marks (words-<language>.js, from the build).
  var W = self.datapagesWords;
  if (!W) return;
  var idle = csvRows > total
    ? W.t("first_rows", { shown: total, n: csvRows })
    : W.t("all_rows", { n: total });

  function applyFilter() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row, index) {
      var match = words.every(function (word) { return texts[index].indexOf(word) !== -1; });
      row.hidden = !match;
      if (match) shown += 1;
    });
    status.textContent = words.length
      ? (csvRows > total ? W.t("shown_first_rows", { found: shown, shown: total, n: csvRows }) : W.t("shown_rows", { shown: shown, n: total }))
      : idle;
  }

  var pending = null;
  input.addEventListener("input", function () {
    if (pending) clearTimeout(pending);
    pending = setTimeout(applyFilter, total > 2000 ? 150 : 0);
  });
  tools.hidden = false;
  applyFilter();
})();

// Long text cells show two lines and a "more" button at the end of the second (the whole text stays in the page,
// and shows whole without this script and in print). The button's words come from CSS,
// so sorting and filtering read only the cell's own text.
(function () {
  "use strict";

  var table = document.querySelector("table.sortable");
  if (!table || !table.tHead || !table.tBodies.length) return;
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var wide = [];
  headers.forEach(function (th, index) { if (th.classList.contains("wide")) wide.push(index); });
  var rows = table.tBodies[0].rows;
  var clamps = [];
  wide.forEach(function (column) {
    for (var r = 0; r < rows.length; r++) {
      var cell = rows[r].cells[column];
      if (!cell || cell.classList.contains("empty")) continue;
      var wrap = document.createElement("div");
      wrap.className = "cell-wrap";
      var clamp = document.createElement("div");
      clamp.className = "cell-clamp";
      while (cell.firstChild) clamp.appendChild(cell.firstChild);
      wrap.appendChild(clamp);
      cell.appendChild(wrap);
      clamps.push(clamp);
    }
  });
  // All writes first, then all reads: one layout for the whole table.
  var overflowing = clamps.filter(function (clamp) { return clamp.scrollHeight > clamp.clientHeight + 1; });
  // The button's words in the page's language (the stylesheet's are English; a words file
  // older than this script keeps them).
  if (overflowing.length && self.datapagesWords) {
    try {
      var words = document.createElement("style");
      words.textContent = ".cell-more::before { content: " + JSON.stringify(self.datapagesWords.t("cell_more")) + "; }\n" +
        ".cell-more[aria-expanded=\"true\"]::before { content: " + JSON.stringify(self.datapagesWords.t("cell_less")) + "; }";
      document.head.appendChild(words);
    } catch (e) { /* English words from the stylesheet */ }
  }
  overflowing.forEach(function (clamp) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "cell-more";
    button.setAttribute("aria-label", self.datapagesWords ? self.datapagesWords.t("whole_text") : "");
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", function () {
      var open = clamp.classList.toggle("open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
    clamp.parentNode.appendChild(button);
  });

  // A key of several columns: the first stays in view by the page's own rules; on a
  // screen wide enough, the others stick beside it, and the edge moves to the last one.
  var keys = [];
  headers.forEach(function (th, index) { if (th.classList.contains("key")) keys.push(index); });
  var scroller = table.closest(".table-scroll");
  if (keys.length < 2 || !scroller) return;
  var style = document.createElement("style");
  document.head.appendChild(style);
  function stick() {
    var rules = "";
    if (scroller.clientWidth >= 640) {
      var left = 0;
      keys.forEach(function (column, i) {
        var n = column + 1;
        var last = i === keys.length - 1;
        rules += "#table tr>:nth-child(" + n + "){position:sticky;left:" + left + "px;z-index:1;background:var(--paper);box-shadow:" + (last ? "var(--key-edge)" : "none") + "}" +
          "#table thead tr>:nth-child(" + n + "){z-index:3;background:var(--panel);box-shadow:" + (last ? "var(--key-edge)," : "") + "inset 0 -1px 0 var(--rule)}" +
          "#table tbody tr:hover>:nth-child(" + n + "){background:var(--panel)}";
        left += headers[column].getBoundingClientRect().width;
      });
    }
    style.textContent = rules;
  }
  stick();
  var pending = null;
  window.addEventListener("resize", function () {
    if (pending) cancelAnimationFrame(pending);
    pending = requestAnimationFrame(stick);
  });
})();

// Cite this dataset: a citation format without its own file (`citation_files = false`) is
// downloaded from the text the page shows, byte for byte; without this script its link
// leads to that text.
(function () {
  "use strict";

  Array.prototype.forEach.call(document.querySelectorAll("a.cite-download"), function (link) {
    var details = document.getElementById(link.getAttribute("href").slice(1));
    var code = details && details.querySelector("pre");
    if (!code || !self.Blob || !self.URL) return;
    // HTML reads a CR LF line end as LF: a format whose lines end in CR LF (RIS) gets
    // them back.
    var text = code.textContent;
    if (details.getAttribute("data-newline") === "crlf") text = text.replace(/\n/g, "\r\n");
    var url = URL.createObjectURL(new Blob([text], {
      type: link.getAttribute("data-media-type") + ";charset=utf-8"
    }));
    link.setAttribute("href", url);
    link.setAttribute("download", link.getAttribute("data-file-name"));
  });
})();

// Cite this dataset and Use this data: a copy button for each citation format and snippet.
(function () {
  "use strict";

  if (!navigator.clipboard) return;
  function addCopyButton(container, code, name) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.textContent = self.datapagesWords.t("copy", { name: name });
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(code.textContent).then(function () {
        status.textContent = self.datapagesWords.t("copied");
      }, function () {
        status.textContent = self.datapagesWords.t("copy_refused");
      });
    });
    container.appendChild(button);
    container.appendChild(status);
  }
  Array.prototype.forEach.call(document.querySelectorAll(".cite-format"), function (details) {
    var code = details.querySelector("pre");
    var summary = details.querySelector("summary");
    if (!code || !summary) return;
    addCopyButton(details, code, summary.textContent.replace(/\s*\(.*\)$/, ""));
  });
  Array.prototype.forEach.call(document.querySelectorAll(".snippet"), function (snippet) {
    var code = snippet.querySelector("pre");
    if (!code) return;
    addCopyButton(snippet, code, snippet.getAttribute("data-name"));
  });
})();

// Search every row: on a dataset with row pages, the filter's words are looked for on every
// page of rows in turn (the dataset page, then rows/2/, rows/3/, …), one request at a time,
// with the progress shown and a Stop button. The first 200 matching rows replace the table's
// rows, each with a link to its place on its page; typing in the filter box again brings
// the page's own rows back. Without this script the row pages are plain links.
(function () {
  "use strict";

  var tools = document.querySelector(".table-tools[data-row-pages]");
  var input = document.getElementById("table-filter");
  var status = document.getElementById("table-status");
  var table = document.querySelector("table.sortable");
  if (!tools || !input || !status || !table || !table.tBodies.length || !window.fetch || !window.DOMParser) return;
  var start = tools.querySelector(".search-all");
  var stop = tools.querySelector(".search-stop");
  if (!start || !stop) return;
  var base = tools.getAttribute("data-row-pages");
  var pages = parseInt(tools.getAttribute("data-pages"), 10);
  var total = parseInt(tools.getAttribute("data-total-rows"), 10);
  var perPage = parseInt(tools.getAttribute("data-page-rows"), 10);
  var body = table.tBodies[0];
  var own = Array.prototype.slice.call(body.rows);
  var numeric = numberColumns(table);
  var LIMIT = 200;
  var run = null;

  var W = self.datapagesWords;
  if (!W) return;
  function pageUrl(n) { return n === 1 ? base : base + "rows/" + n + "/"; }

  // Ends a search (if one runs) and brings the page's own rows back.
  function reset() {
    if (run) {
      run.stopped = true;
      if (run.controller) run.controller.abort();
      run = null;
    }
    Array.prototype.slice.call(body.querySelectorAll("tr.found")).forEach(function (tr) { body.removeChild(tr); });
    own.forEach(function (tr) { tr.style.display = ""; });
    stop.hidden = true;
    start.hidden = false;
  }

  function search() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    reset();
    if (!words.length) {
      status.textContent = W.t("search_prompt", { n: total });
      return;
    }
    var current = { stopped: false, controller: window.AbortController ? new AbortController() : null };
    run = current;
    var parser = new DOMParser();
    var found = 0;
    var searched = 0;
    var page = 1;
    own.forEach(function (tr) { tr.style.display = "none"; });
    start.hidden = true;
    stop.hidden = false;

    // `state`: the message saying how the search stands, `args` its own arguments.
    function report(state, args) {
      var matches = W.t("search_matches", { n: found });
      if (found > LIMIT) matches = W.t("search_matches_first", { matches: matches, shown: LIMIT });
      var progress = W.t("search_progress", { searched: searched, n: total, matches: matches });
      var all = { progress: progress };
      for (var name in args || {}) all[name] = args[name];
      status.textContent = W.t(state, all);
    }
    current.report = report;

    function finish(state, args) {
      if (run === current) run = null;
      stop.hidden = true;
      start.hidden = false;
      report(state, args);
    }

    function show(tr, n) {
      var row = document.importNode(tr, true);
      row.classList.add("found");
      row.style.display = "";
      var from = new URL(pageUrl(n), document.baseURI);
      // Links in the row were written for its own page.
      Array.prototype.forEach.call(row.querySelectorAll("a[href]"), function (a) {
        a.setAttribute("href", new URL(a.getAttribute("href"), from).href);
      });
      var cell = row.cells[0];
      if (cell) {
        var link = document.createElement("a");
        link.className = "row-link";
        link.href = new URL("#" + row.id, from).href;
        link.textContent = W.t("row_link", { row: Number(row.id.replace("row-", "")), page: n });
        cell.appendChild(document.createTextNode(" "));
        cell.appendChild(link);
      }
      row.removeAttribute("id");
      body.appendChild(row);
    }

    function next() {
      if (current.stopped) return;
      if (page > pages || found >= LIMIT) {
        finish(searched >= total ? "search_done" : "search_limit", { limit: LIMIT });
        return;
      }
      var n = page;
      fetch(pageUrl(n), current.controller ? { signal: current.controller.signal } : {})
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          if (current.stopped) return;
          var doc = parser.parseFromString(html, "text/html");
          var rows = doc.querySelectorAll("#table tbody tr");
          Array.prototype.forEach.call(rows, function (tr) {
            var text = searchedText(tr, numeric);
            if (!words.every(function (word) { return text.indexOf(word) !== -1; })) return;
            found += 1;
            if (found <= LIMIT) show(tr, n);
          });
          searched += rows.length || perPage;
          page += 1;
          report("search_searching");
          next();
        })
        .catch(function (error) {
          if (current.stopped) return;
          finish("search_failed", { page: n, error: error.message });
        });
    }
    report("search_searching");
    next();
  }

  start.addEventListener("click", search);
  stop.addEventListener("click", function () {
    if (!run) return;
    var current = run;
    current.stopped = true;
    if (current.controller) current.controller.abort();
    run = null;
    stop.hidden = true;
    start.hidden = false;
    current.report("search_stopped");
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") search();
  });
  input.addEventListener("input", function () {
    if (run || body.querySelector("tr.found")) reset();
  });
  start.hidden = false;
})();

// Go to page: with JavaScript, a number box under the row pages' list opens any page (a
// static host cannot answer a form, so without the script the list of pages does it).
(function () {
  "use strict";

  var form = document.querySelector("form.row-jump");
  if (!form) return;
  var input = form.querySelector("input");
  var base = form.getAttribute("data-base");
  var pages = parseInt(form.getAttribute("data-pages"), 10);
  if (!input || !base || !(pages > 1)) return;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var n = parseInt(input.value, 10);
    if (!(n >= 1 && n <= pages)) {
      input.setCustomValidity(self.datapagesWords ? self.datapagesWords.t("page_range", { pages: pages }) : "1–" + pages);
      input.reportValidity();
      return;
    }
    window.location.href = n === 1 ? base + "#table" : base + "rows/" + n + "/";
  });
  input.addEventListener("input", function () { input.setCustomValidity(""); });
  form.hidden = false;
})();

// A number as the page shows it in its language's marks (`words-<language>.js`) without
// its group marks and in the marks the CSV is read with (`2 693,5` -> `2693.5`, `1,545`
// -> `1545`); a page without the words is read in English marks.
function plainNumber(shown) {
  var marks = (self.datapagesWords && self.datapagesWords.marks) || { group: ",", decimal: ".", minus: "-" };
  var text = shown.split(marks.group).join("");
  if (marks.minus !== "-" && text.indexOf(marks.minus) === 0) text = "-" + text.slice(marks.minus.length);
  return marks.decimal === "." ? text : text.split(marks.decimal).join(".");
}

// What the filter looks for a word in: each cell of row `tr` as shown and as the CSV
// writes it, in lower case, one line each (a word has no line break, so a word never
// runs across two cells). The written text is the cell's `data-v` where the build put
// one, else, in a number column (`numeric[i]`, from numberColumns), the shown text less
// its group marks (`1,545` -> `1545`, `1 545,5` -> `1545.5`: the build adds `data-v`
// wherever that is not the CSV's text), else the shown text itself.
function searchedText(tr, numeric) {
  var out = [];
  for (var i = 0; i < tr.cells.length; i++) {
    var cell = tr.cells[i];
    var shown = cell.textContent;
    var written = cell.getAttribute("data-v");
    if (written === null && numeric[i]) written = plainNumber(shown);
    out.push(shown);
    if (written !== null && written !== shown) out.push(written);
  }
  return out.join("\n").toLowerCase();
}

// Whether each column of `table` holds numbers: its header says so (`th.num`); the cells
// carry no class, the page's own style aligns them by position.
function numberColumns(table) {
  var cells = table.tHead ? table.tHead.rows[0].cells : [];
  return Array.prototype.map.call(cells, function (th) { return th.classList.contains("num"); });
}
