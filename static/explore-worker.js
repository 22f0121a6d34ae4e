// datapages: the explorer's worker. It streams the published CSV (fetch + ReadableStream)
// with the dialect the page declares, keeps the file's bytes (so a download of chosen rows
// is the published rows byte for byte) and each shown column as typed, columnar storage:
// a Float64Array for numbers and dates (NaN when missing), dictionary codes (Int32Array,
// -1 when missing) for text and for any column with few distinct values. Queries (filters,
// facets, sort, one page of rows) run here, off the page's thread. Numbers are shown in the
// marks of the page's language (meta.marks, from words-<lang>.js), ranges typed in them.
// Messages in: load, query, download. Out: progress, loaded, result, download, error.
// The CSV is split here (scanRow, rowEnds), not by Papa Parse: each row's byte range is
// kept, so a download of chosen rows is the published rows byte for byte; each streamed
// chunk is scanned once however long a cell; plain numbers and ISO days are typed from
// their bytes without a string per cell; and fields are padded as the build's dialect
// says (skip_initial_space). tests/cells/conformance.json holds it to the build's reading.
// An ES module (explore.js starts it with `type: "module"`): dates and numbers as the
// page's table reads and shows them come from explore-cells.js, the search of every shown
// cell from explore-search.js, which gets this worker's table as an argument.
import { compileFormat, readFormatted, timeOf, numberOf, shownNumber, typedNumber, plainBytes, dayBytes, collationOrder } from "./explore-cells.js";
import { searchTest } from "./explore-search.js";

var scope = self;       // the worker's global (in Node's tests, an object of the test's own)

var meta = null;
var marks = null;       // the page language's number marks (meta.marks; none: English)
var cols = [];          // per shown column: { spec, kind, num, codes, dict, map, ... }
var rowCount = 0;
var rowStart = null;    // Float64Array: each row's first byte in the file
var rowEnd = null;      // each row's last byte + 1 (before its line end)
var chunks = [];        // the file's bytes as received
var chunkStarts = [];   // the offset of each chunk in the file
var headBytes = null;   // the bytes before the first row (BOM, header, line end)
var lineEnd = [10];     // the file's line end (that of the header)
var delim = 44;
var quote = 34;
var skipSpace = false;  // spaces after a delimiter pad the fields (skip_initial_space)
var decoder = new TextDecoder("utf-8");
var DICT_CAP = 1000;    // past this many distinct values a number or date column drops its codes
var FACET_MAX = 50;     // facets for columns with at most this many distinct values (or an enum)
var UNIQUE_AFTER = 10000; // a text column with this many values in its first rows (90 % distinct) keeps no lookup table
var CELL_CHARS = 1000;  // a cell sent to the page is cut to this many characters (a facet's label to LABEL_CHARS)
var LABEL_CHARS = 100;
var CELL_BYTES = 4 * CELL_CHARS + 8;   // bytes of a field decoded to show it: at least CELL_CHARS + 1 characters

// ---- Growing typed arrays -------------------------------------------------------------
function grow(array, need) {
  if (need <= array.length) return array;
  var size = array.length * 2;
  while (size < need) size *= 2;
  var bigger = new array.constructor(size);
  bigger.set(array);
  return bigger;
}

// ---- Reading the CSV --------------------------------------------------------------------
// The fields of one row from bytes [start, end) of `buf`: strings, quotes undone.
function fieldsOf(buf, start, end) {
  var out = [];
  var i = start;
  while (true) {
    if (skipSpace) while (i < end && buf[i] === 32) i++;
    if (i < end && buf[i] === quote) {
      var parts = [];
      var from = ++i;
      while (i < end) {
        if (buf[i] === quote) {
          if (i + 1 < end && buf[i + 1] === quote) { parts.push(decoder.decode(buf.subarray(from, i + 1))); i += 2; from = i; continue; }
          break;
        }
        i++;
      }
      parts.push(decoder.decode(buf.subarray(from, i)));
      i++; // the closing quote
      var rest = i;
      while (i < end && buf[i] !== delim) i++;
      if (i > rest) parts.push(decoder.decode(buf.subarray(rest, i)));
      out.push(parts.join(""));
    } else {
      var s = i;
      while (i < end && buf[i] !== delim) i++;
      out.push(textOf(buf, s, i));
    }
    if (i >= end) break;
    i++; // the delimiter
    if (i === end) { out.push(""); break; }
  }
  return out;
}

// Short ASCII fields without a decoder call.
function textOf(buf, s, e) {
  if (e - s <= 24) {
    var str = "";
    for (var k = s; k < e; k++) {
      var b = buf[k];
      if (b > 127) return decoder.decode(buf.subarray(s, e));
      str += String.fromCharCode(b);
    }
    return str;
  }
  return decoder.decode(buf.subarray(s, e));
}

// One row's fields, found in one pass: their byte ranges (a quoted field's range keeps its
// quotes), the end of the row before its line end, and where the next row starts.
var fStart = new Int32Array(64);
var fEnd = new Int32Array(64);
var fieldCount = 0;
var rowStop = 0;

function pushField(s, e) {
  if (fieldCount === fStart.length) { fStart = grow(fStart, fieldCount + 1); fEnd = grow(fEnd, fieldCount + 1); }
  fStart[fieldCount] = s;
  fEnd[fieldCount] = e;
  fieldCount++;
}

// Scans the row at `i`; the next row's start, or -1 when the row runs past the buffer (and
// `final` is false). A quote opens a quoted field only at the field's start; inside, two
// quotes are one.
function scanRow(buf, i, n, final) {
  fieldCount = 0;
  var start = i;
  var inQuotes = false;
  var fieldStart = true;
  for (var k = i; k < n; k++) {
    var b = buf[k];
    if (inQuotes) {
      if (b === quote) {
        if (k + 1 >= n) { if (final) { inQuotes = false; continue; } return -1; }
        if (buf[k + 1] === quote) k++;
        else inQuotes = false;
      }
      continue;
    }
    if (b === delim) { pushField(start, k); start = k + 1; fieldStart = true; continue; }
    // Padding after a delimiter is not part of the field: it starts after it.
    if (b === 32 && fieldStart && skipSpace) { start = k + 1; continue; }
    if (b === 10 || b === 13) {
      pushField(start, k);
      rowStop = k;
      if (b === 10) return k + 1;
      if (k + 1 < n) return buf[k + 1] === 10 ? k + 2 : k + 1;
      if (final) return k + 1;
      return -1;
    }
    if (b === quote && fieldStart) inQuotes = true;
    fieldStart = false;
  }
  if (!final || n <= i) return -1;
  pushField(start, n);
  rowStop = n;
  return n;
}

// Whether the row left unfinished at the end of the last chunk ends in `buf`, the next one,
// such that scanRow can finish it; `open` carries what scanRow's loop knows at the end of
// what was scanned (inside quotes, at a field's start, a quote or a carriage return last),
// so that each chunk is scanned once however long the row.
function rowEnds(buf, from, open) {
  var n = buf.length;
  var k = from;
  if (k < n && open.cr) return true;
  if (k < n && open.quoteLast) {
    open.quoteLast = false;
    if (buf[k] === quote) k++; else open.inQuotes = false;
  }
  for (; k < n; k++) {
    var b = buf[k];
    if (open.inQuotes) {
      if (b === quote) {
        if (k + 1 >= n) { open.quoteLast = true; return false; }
        if (buf[k + 1] === quote) k++;
        else open.inQuotes = false;
      }
      continue;
    }
    if (b === delim) { open.fieldStart = true; continue; }
    if (b === 32 && open.fieldStart && skipSpace) continue;
    if (b === 10) return true;
    if (b === 13) { if (k + 1 < n) return true; open.cr = true; return false; }
    if (b === quote && open.fieldStart) open.inQuotes = true;
    open.fieldStart = false;
  }
  return false;
}

// The text of the field in bytes [s, e): quotes undone.
function fieldText(buf, s, e) {
  if (s < e && buf[s] === quote) return fieldsOf(buf, s, e)[0];
  return textOf(buf, s, e);
}

function addRow(buf) {
  var n = rowCount;
  for (var c = 0; c < cols.length; c++) {
    var col = cols[c];
    var f = col.spec.index;
    var s = f < fieldCount ? fStart[f] : 0;
    var e = f < fieldCount ? fEnd[f] : 0;
    var text = null;
    var missing = s === e;
    if (!missing && col.missing.length !== 0) {
      text = fieldText(buf, s, e);
      missing = col.missing.indexOf(text) !== -1;
    }
    if (col.num) {
      if (n >= col.num.length) col.num = grow(col.num, n + 1);
      var v = NaN;
      if (!missing) {
        v = col.fast === 1 ? plainBytes(buf, s, e) : col.fast === 2 ? dayBytes(buf, s, e) : undefined;
        if (v === undefined) {
          col.plainChars = false;
          if (text === null) text = fieldText(buf, s, e);
          v = col.kind === "number" ? numberOf(col.spec, text) : timeOf(col, text);
        }
      }
      col.num[n] = v;
      if (col.codes) {
        if (n >= col.codes.length) col.codes = grow(col.codes, n + 1);
        if (missing) { col.codes[n] = -1; continue; }
        var found = col.map.get(v);
        if (found === undefined) {
          if (col.dict.length >= DICT_CAP) { col.codes = null; col.map = null; col.dict = null; continue; }
          found = col.dict.length;
          col.dict.push(text === null ? fieldText(buf, s, e) : text);
          col.map.set(v, found);
        }
        col.codes[n] = found;
      }
      continue;
    }
    if (n >= col.codes.length) col.codes = grow(col.codes, n + 1);
    if (missing) { col.codes[n] = -1; continue; }
    if (text === null) text = fieldText(buf, s, e);
    if (col.map === null) {
      // A column of (nearly) all distinct values: each cell its own entry, no lookup.
      col.codes[n] = col.dict.length;
      col.dict.push(text);
      continue;
    }
    var code = col.map.get(text);
    if (code === undefined) {
      code = col.dict.length;
      col.dict.push(text);
      col.map.set(text, code);
      if (code === UNIQUE_AFTER && code > 0.9 * n) col.map = null;
    }
    col.codes[n] = code;
  }
  rowCount++;
}

function setUp(m) {
  meta = m;
  marks = m.marks || null;
  delim = m.delimiter.charCodeAt(0);
  quote = m.quote.charCodeAt(0);
  skipSpace = m.skip_initial_space === true;
  var capacity = Math.max(16, Math.min(m.rows + 1, 1 << 24));
  rowStart = new Float64Array(capacity);
  rowEnd = new Float64Array(capacity);
  cols = m.columns.map(function (spec) {
    var format = spec.format ? compileFormat(spec.format) : null;
    var kind = spec.type === "integer" || spec.type === "number" ? "number"
      : (spec.type === "date" || spec.type === "datetime") && (!spec.format || format) ? "time" : "text";
    var missing = spec.missing.slice();
    // 1: plain numbers read from bytes; 2: ISO days read from bytes.
    var fast = kind === "number" && spec.decimal === "." && !spec.group ? 1 : kind === "time" && !spec.format && spec.type === "date" ? 2 : 0;
    return {
      spec: spec, kind: kind, format: format, missing: missing,
      fast: fast,
      num: kind === "text" ? null : new Float64Array(capacity),
      codes: new Int32Array(capacity), dict: [], map: new Map(),
      rank: null, lower: null,
      // Whether every cell so far was read the fast way (a plain number, an ISO day):
      // then a search word of other characters is not in any as written.
      plainChars: fast !== 0
    };
  });
}

function load(m) {
  setUp(m);
  var started = Date.now();
  var received = 0;
  var carry = [];        // the bytes of a row not yet finished, as received (a cut chunk, then chunks)
  var carried = 0;       // how many
  var carryAt = 0;       // the file offset of the row's first byte
  var open = null;       // what rowEnds knows at the end of the carried bytes
  var header = true;
  var lastReport = 0;

  function consume(buf, base, final) {
    var i = 0;
    var n = buf.length;
    if (header) {
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
      var h = steps.scanRow(buf, i, n, final);
      if (h < 0) return 0;
      lineEnd = Array.prototype.slice.call(buf.subarray(rowStop, h));
      if (!lineEnd.length) lineEnd = [10];
      headBytes = buf.slice(0, h);
      header = false;
      i = h;
    }
    while (i < n) {
      var next = steps.scanRow(buf, i, n, final);
      if (next < 0) break;
      if (rowStop > i) {
        if (rowCount >= rowStart.length) { rowStart = grow(rowStart, rowCount + 1); rowEnd = grow(rowEnd, rowCount + 1); }
        rowStart[rowCount] = base + i;
        rowEnd[rowCount] = base + rowStop;
        addRow(buf);
      }
      i = next;
    }
    return i;
  }

  scope.fetch(m.url).then(function (response) {
    if (!response.ok) throw Object.assign(new Error("HTTP " + response.status), { status: response.status });
    var reader = response.body.getReader();
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) {
          if (carried) consume(steps.joined(carry, carried), carryAt, true);
          carry = [];
          finish(started);
          return;
        }
        var chunk = step.value;
        chunkStarts.push(received);
        chunks.push(chunk);
        received += chunk.length;
        carry.push(chunk);
        if (carried && !steps.rowEnds(chunk, 0, open)) {
          // The row goes on (a long cell): kept as it is, nothing scanned again.
          carried += chunk.length;
        } else {
          // The row is copied into one buffer once, when it ends.
          var base = carried ? carryAt : received - chunk.length;
          var buf = steps.joined(carry, carried + chunk.length);
          var used = consume(buf, base, false);
          var rest = buf.slice(used);
          carry = rest.length ? [rest] : [];
          carried = rest.length;
          carryAt = base + used;
          open = { inQuotes: false, fieldStart: true, quoteLast: false, cr: false };
          var bom = header && carryAt === 0 && rest.length >= 3 && rest[0] === 0xef && rest[1] === 0xbb && rest[2] === 0xbf;
          steps.rowEnds(rest, bom ? 3 : 0, open);
        }
        var now = Date.now();
        if (now - lastReport > 100) {
          lastReport = now;
          scope.postMessage({ type: "progress", rows: rowCount, bytes: received });
        }
        return pump();
      });
    }
    return pump();
  }).catch(function (error) {
    // An HTTP status goes as a number, which the page says in its language.
    scope.postMessage({ type: "error", message: String(error && error.message || error), status: error && error.status });
  });
}

// The `total` bytes of `parts` in one buffer (the one part itself when there is one).
function joined(parts, total) {
  if (parts.length === 1) return parts[0];
  var out = new Uint8Array(total);
  var at = 0;
  parts.forEach(function (part) { out.set(part, at); at += part.length; });
  return out;
}

// The load's steps over the bytes, called through this object so that a test can count
// the bytes each covers (tests/browser/explore-worker.test.js): a module's own functions
// cannot be wrapped from outside it.
export var steps = { scanRow: scanRow, rowEnds: rowEnds, joined: joined };

// Whether some value of the column is on two rows or more.
function repeats(col) {
  var seen = new Uint8Array(col.dict.length);
  for (var i = 0; i < rowCount; i++) {
    var code = col.codes[i];
    if (code < 0) continue;
    if (seen[code]) return true;
    seen[code] = 1;
  }
  return false;
}

function finish(started) {
  var info = cols.map(function (col) {
    if (col.num && col.codes) {
      // Codes of a number or date column were found by value; choices come as text.
      col.map = new Map();
      col.dict.forEach(function (text, code) { col.map.set(text, code); });
    }
    // A facet: an enum column's values, or up to FACET_MAX values that repeat (at most one
    // distinct value per two rows: a column of values each on one row is no facet).
    col.facet = !!col.codes && col.map !== null && col.dict.length > 0 &&
      (col.spec.enum ? col.dict.length <= 200 : col.dict.length <= FACET_MAX && col.dict.length * 2 <= rowCount && repeats(col));
    var facet = col.facet;
    var min = Infinity, max = -Infinity;
    if (col.num) {
      for (var i = 0; i < rowCount; i++) {
        var v = col.num[i];
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    return { kind: col.kind, facet: facet, min: min === Infinity ? null : min, max: max === -Infinity ? null : max };
  });
  scope.postMessage({ type: "loaded", rows: rowCount, ms: Date.now() - started, columns: info });
}

// ---- Queries ----------------------------------------------------------------------------
var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
var filtered = null;    // Uint32Array of matching rows, CSV order
var filterKey = null;
var facetCounts = null;
var sorted = null;
var sortKey = null;

function rankOf(col) {
  if (col.rank) return col.rank;
  var dict = col.dict;
  var compare = collator.compare;
  // Every text column in the reader's collation; collationOrder gets there fast for many
  // values, the collator alone for the rest.
  var sorted = collationOrder(dict, collator);
  var order = sorted ? sorted.order : dict.map(function (_, i) { return i; });
  if (!sorted) order.sort(function (a, b) { return compare(dict[a], dict[b]) || a - b; });
  // Values that compare equal share a rank, so that rows holding them keep their CSV order.
  var rank = new Int32Array(col.dict.length);
  var r = 0;
  for (var i = 0; i < order.length; i++) {
    var equal = i > 0 && (sorted ? sorted.same[i] === 1 : compare(dict[order[i]], dict[order[i - 1]]) === 0);
    if (i > 0 && !equal) r = i;
    rank[order[i]] = r;
  }
  col.rank = rank;
  return rank;
}

// Filters: every word of `q` in some column's shown text; each facet's chosen values; each
// range; each exact key (`k.<column>=<value>`, a link from a foreign key's cell).
function runFilter(state) {
  var keys = state.keys || new Map();
  var key = JSON.stringify([state.q, Array.from(state.facets), Array.from(state.ranges), Array.from(keys)]);
  if (key === filterKey) return;
  filterKey = key;
  sorted = null;
  sortKey = null;
  var groups = [];   // each: { test(row) -> bool, facet: column or -1 }
  var search = searchTest(state.q || "", keptTable());
  if (search) groups.push({ facet: -1, test: search });
  state.facets.forEach(function (values, name) {
    var c = columnIndex(name);
    if (c < 0 || !cols[c].codes || !cols[c].map || !values.length) return;
    var col = cols[c];
    var chosen = new Uint8Array(col.dict.length);
    values.forEach(function (v) { var code = col.map.get(v); if (code !== undefined) chosen[code] = 1; });
    groups.push({ facet: c, test: function (row) { var code = col.codes[row]; return code >= 0 && chosen[code] === 1; } });
  });
  state.ranges.forEach(function (range, name) {
    var c = columnIndex(name);
    if (c < 0 || !cols[c].num) return;
    var num = cols[c].num;
    var low = bound(range[0], -Infinity);
    var high = bound(range[1], Infinity);
    groups.push({ facet: -1, test: function (row) { var v = num[row]; return v >= low && v <= high; } });
  });
  keys.forEach(function (value, name) { groups.push({ facet: -1, test: exactTest(columnIndex(name), value) }); });
  var facetCols = [];
  cols.forEach(function (col, c) { if (col.facet) facetCols.push(c); });
  var counts = {};
  facetCols.forEach(function (c) { counts[c] = new Float64Array(cols[c].dict.length); });
  var out = new Uint32Array(rowCount);
  var found = 0;
  var g = groups.length;
  for (var row = 0; row < rowCount; row++) {
    var failed = -2;   // -2: none failed; a column: only that facet failed; -1: more
    for (var k = 0; k < g; k++) {
      if (!groups[k].test(row)) {
        if (failed === -2 && groups[k].facet >= 0) failed = groups[k].facet;
        else { failed = -1; break; }
      }
    }
    if (failed === -1) continue;
    if (failed === -2) {
      out[found++] = row;
      for (var f = 0; f < facetCols.length; f++) {
        var code = cols[facetCols[f]].codes[row];
        if (code >= 0) counts[facetCols[f]][code]++;
      }
    } else if (counts[failed]) {
      var cf = cols[failed].codes[row];
      if (cf >= 0) counts[failed][cf]++;
    }
  }
  filtered = out.subarray(0, found);
  facetCounts = counts;
}

// A range's end: a number (a date's milliseconds), a number as the reader typed it (in the
// page's marks or plain), or `none` when it is missing or reads as no number.
function bound(end, none) {
  var v = typeof end === "string" ? typedNumber(marks, end) : end;
  return v === null || v === undefined || v !== v ? none : v;
}

// Rows whose cell of column `c`, as the CSV writes it, is `value` (rows called in CSV
// order); none for a column the explorer does not have. A text column's values are kept as
// written: a lookup of its code; other cells are read from the kept bytes.
function exactTest(c, value) {
  if (c < 0) return function () { return false; };
  var col = cols[c];
  if (!col.num && col.codes && col.missing.indexOf(value) === -1) {
    var codes = col.codes, dict = col.dict;
    if (col.map) {
      var code = col.map.get(value);
      if (code === undefined) return function () { return false; };
      return function (row) { return codes[row] === code; };
    }
    return function (row) { return codes[row] >= 0 && dict[codes[row]] === value; };
  }
  var table = keptTable();
  var index = col.spec.index;
  return function (row) { table.scan(row); return (table.field(index) || "") === value; };
}

function columnIndex(name) {
  for (var c = 0; c < cols.length; c++) if (cols[c].spec.name === name) return c;
  return -1;
}

// Sorted by one column: numbers and dates by value, text in the reader's collation, empty
// cells last either way, ties in CSV order (the comparator falls back to the row number).
function runSort(state) {
  var key = JSON.stringify(state.sort || null);
  if (sorted && key === sortKey) return;
  sortKey = key;
  var c = state.sort ? columnIndex(state.sort[0]) : -1;
  if (c < 0) { sorted = filtered; return; }
  var sign = state.sort[1] === "desc" ? -1 : 1;
  var col = cols[c];
  var copy = Array.from(filtered);
  if (col.num) {
    var num = col.num;
    copy.sort(function (a, b) {
      var x = num[a], y = num[b];
      var ex = x !== x, ey = y !== y;
      if (ex || ey) return ex === ey ? a - b : ex ? 1 : -1;
      return x < y ? -sign : x > y ? sign : a - b;
    });
  } else {
    var rank = rankOf(col);
    var codes = col.codes;
    copy.sort(function (a, b) {
      var x = codes[a], y = codes[b];
      if (x < 0 || y < 0) return (x < 0) === (y < 0) ? a - b : x < 0 ? 1 : -1;
      var d = rank[x] - rank[y];
      return d ? sign * d : a - b;
    });
  }
  sorted = Uint32Array.from(copy);
}

// The bytes [from, to) of the file.
function bytesOf(from, to, out, at) {
  var lo = 0, hi = chunkStarts.length - 1;
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (chunkStarts[mid] <= from) lo = mid; else hi = mid - 1;
  }
  var c = lo;
  while (from < to) {
    var chunk = chunks[c];
    var offset = from - chunkStarts[c];
    var take = Math.min(to - from, chunk.length - offset);
    out.set(chunk.subarray(offset, offset + take), at);
    at += take;
    from += take;
    c++;
  }
  return at;
}

// The table as search reads it (explore-search.js): its columns, its rows, how a cell is
// shown, and each row's fields from the kept bytes (scan rows in order, then read fields).
function keptTable() {
  var c = 0;
  var scratch = new Uint8Array(256);
  var buf = null;
  return {
    cols: cols,
    rowCount: rowCount,
    marks: marks,
    shownCell: shownCell,
    scan: function (row) {
      var from = rowStart[row], to = rowEnd[row];
      while (c + 1 < chunkStarts.length && chunkStarts[c + 1] <= from) c++;
      var at = from - chunkStarts[c];
      buf = chunks[c];
      if (to > chunkStarts[c] + buf.length) {
        if (scratch.length < to - from) scratch = new Uint8Array(2 * (to - from));
        bytesOf(from, to, scratch, 0);
        buf = scratch;
        at = 0;
      }
      scanRow(buf, at, at + (to - from), true);
    },
    // The text of field `index` of the row scanned; null when it is empty or absent.
    field: function (index) {
      return index >= fieldCount || fStart[index] === fEnd[index] ? null : fieldText(buf, fStart[index], fEnd[index]);
    }
  };
}

// A row's fields for a page of rows: each decoded from at most CELL_BYTES bytes, enough to
// show it cut (a cell of 100 MB is not read whole on every query).
function rowFields(row) {
  var len = rowEnd[row] - rowStart[row];
  var buf = new Uint8Array(len);
  bytesOf(rowStart[row], rowEnd[row], buf, 0);
  scanRow(buf, 0, len, true);
  var out = [];
  for (var f = 0; f < fieldCount; f++) out.push(fieldText(buf, fStart[f], Math.min(fEnd[f], fStart[f] + CELL_BYTES)));
  return out;
}

// `text` whole when it has at most `chars` characters, else its first `chars - 1` and
// "…", as the pages cut a long value (a surrogate pair is never split).
function cut(text, chars) {
  if (text.length <= chars) return text;
  var end = chars - 1;
  var last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + "\u2026";
}

function shownCell(col, text) {
  if (text === "" || col.missing.indexOf(text) !== -1) return { t: "\u2014", c: "empty" };
  if (col.spec.source) return { t: text, s: 1 };
  if (col.kind === "number") return { t: shownNumber(col.spec, text, marks), c: "num" };
  if (col.format) { var r = readFormatted(col.format, text); return { t: r ? r[1] : text }; }
  return { t: text };
}

function query(state) {
  runFilter(state);
  runSort(state);
  var per = state.per || 50;
  var pages = Math.max(1, Math.ceil(sorted.length / per));
  var page = Math.min(Math.max(1, state.page || 1), pages);
  var rows = [];
  for (var i = (page - 1) * per; i < Math.min(sorted.length, page * per); i++) {
    var row = sorted[i];
    var fields = rowFields(row);
    rows.push({ n: row + 1, cells: cols.map(function (col) {
      var text = col.spec.index < fields.length ? fields[col.spec.index] : "";
      var cell = shownCell(col, text);
      // A key's value as written, for its links (explore.js); a value read only in part
      // (longer than a cell shows) gets none.
      if (col.spec.raw && cell.c !== "empty" && text.length < CELL_CHARS) cell.r = text;
      cell.t = cut(cell.t, CELL_CHARS);
      return cell;
    }) });
  }
  var facets = new Map();   // by column name, which may be `__proto__`
  Object.keys(facetCounts).forEach(function (c) {
    var col = cols[c];
    var counts = facetCounts[c];
    var list = [];
    // Each value as written (what a choice and the URL hold; null for a value longer than
    // a cell is shown, which cannot be chosen), its count, and as shown, cut.
    for (var k = 0; k < counts.length; k++) {
      var value = col.dict[k];
      var written = value.length <= CELL_CHARS ? value : null;
      list.push([written, counts[k], cut(shownCell(col, value).t, LABEL_CHARS), cut(value, CELL_CHARS)]);
    }
    list.sort(function (a, b) { return b[1] - a[1] || collator.compare(a[3], b[3]); });
    facets.set(col.spec.name, list.map(function (entry) { return entry.slice(0, 3); }));
  });
  scope.postMessage({ type: "result", id: state.id, matched: sorted.length, total: rowCount, page: page, pages: pages, rows: rows, facets: facets });
}

// The chosen rows as the published CSV writes them: its header, then each row's bytes.
function download(state) {
  runFilter(state);
  runSort(state);
  var total = headBytes.length;
  for (var i = 0; i < sorted.length; i++) total += rowEnd[sorted[i]] - rowStart[sorted[i]] + lineEnd.length;
  var out = new Uint8Array(total);
  out.set(headBytes, 0);
  var at = headBytes.length;
  for (var j = 0; j < sorted.length; j++) {
    var row = sorted[j];
    at = bytesOf(rowStart[row], rowEnd[row], out, at);
    for (var e = 0; e < lineEnd.length; e++) out[at++] = lineEnd[e];
  }
  scope.postMessage({ type: "download", id: state.id, bytes: out, rows: sorted.length }, [out.buffer]);
}

scope.onmessage = function (event) {
  var m = event.data;
  try {
    if (m.type === "load") {
      load(m.meta);
    } else if (m.type === "query") {
      query(m.state);
    } else if (m.type === "download") {
      download(m.state);
    }
  } catch (error) {
    scope.postMessage({ type: "error", message: String(error && error.message || error) });
  }
};
