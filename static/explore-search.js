// datapages: the explorer's search, an ES module its worker (explore-worker.js) imports.
// A word matches a cell's text as the CSV writes it or as the table shows it (a number
// grouped and rounded, a date in its ISO style), ignoring case (cellHas): a coded column
// through its distinct values, a column of many numbers or dates row by row from the kept
// bytes, only for words its cells can hold. The worker's table comes as an argument
// (`table`: its columns, its row count, how a cell is shown, and a row's fields read from
// the kept bytes), so this module shares no state with it.
import { plainNumber, spaceGroup } from "./explore-cells.js";

// Whether `word` (lower case) is in a cell written `written` and shown `shown`: what a
// search matches, for the explorer and as the table's filter does it (static/table.js).
export function cellHas(word, written, shown) {
  return written.toLowerCase().indexOf(word) !== -1 || shown.toLowerCase().indexOf(word) !== -1;
}

// The test of a row of `table` for the search `q`: every word (lower case) in some column's
// cell as written or shown; null for no words.
export function searchTest(q, table) {
  var words = searchWords(q, table.marks);
  if (!words.length) return null;
  var searched = table.cols.filter(function (c) { return c.codes; });
  var hits = words.map(function (word) {
    return searched.map(function (col) {
      var lower = lowerOf(col, table);
      var hit = new Uint8Array(lower.length);
      for (var i = 0; i < lower.length; i++) hit[i] = lower[i].indexOf(word) !== -1 ? 1 : 0;   // cellHas
      return hit;
    });
  });
  var rowHits = uncodedHits(words, table);
  return function (row) {
    for (var w = 0; w < hits.length; w++) {
      var found = rowHits[w] !== null && rowHits[w][row] === 1;
      for (var c = 0; !found && c < searched.length; c++) {
        var code = searched[c].codes[row];
        if (code >= 0 && hits[w][c][code]) found = true;
      }
      if (!found) return false;
    }
    return true;
  };
}

// The words of `q` in lower case, split at spaces; where the page's language groups digits
// with a space (French `2 693`), a number typed so (with any space) is one word, with the
// group mark the table shows.
export function searchWords(q, marks) {
  var words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (!spaceGroup(marks)) return words;
  var grouped = new RegExp("^-?\\d{1,3}(" + marks.group + "\\d{3})*$");
  var out = [];
  words.forEach(function (word) {
    var last = out.length - 1;
    if (last >= 0 && grouped.test(out[last]) && /^\d{3}(?!\d)/.test(word)) out[last] += marks.group + word;
    else out.push(word);
  });
  return out;
}

// Whether some word may be in the shown text of `text`, a cell of number column `col`
// without `digits` (false only when the plain text rules every word out).
function mayShow(spec, text, bare, wanted, col) {
  var plain = plainNumber(spec, text);
  if (plain === null || plain.length > 16) return true;
  for (var w = 0; w < bare.length; w++) {
    if (wanted[w].indexOf(col) < 0) continue;
    if (bare[w] === null || plain.indexOf(bare[w]) !== -1) return true;
  }
  return false;
}

// A coded column's values as the table shows them and as written (one line each where they
// differ; a word has no line break), in lower case: what search matches.
function lowerOf(col, table) {
  if (!col.lower) {
    col.lower = col.dict.map(function (t) {
      var shown = table.shownCell(col, t).t;
      return (shown === t ? t : shown + "\n" + t).toLowerCase();
    });
  }
  return col.lower;
}

// Whether a cell written as `text` in column `col` may hold `word`: a column whose every
// cell was read the fast way holds only the characters of a plain number or an ISO day.
function mayHold(col, word) {
  return !col.plainChars || /^[0-9.+\-]*$/.test(word);
}

// The characters a shown number (digits, marks, the page language's marks, an exponent,
// NaN, inf) or date (ISO, weeks, quarters, zones, fractions of a second) can hold, in
// lower case: a word with any other character is in none of such a column's cells, which
// spares formatting them.
function shownChars(marks) {
  var own = marks ? (marks.group + marks.decimal + marks.minus).replace(/[\\\]^-]/g, "\\$&") : "";
  return { number: new RegExp("^[0-9.,+\\-enaifty" + own + "]*$"), time: /^[0-9\-wqtz:+.]*$/ };
}

// A word as a plain number's text may hold it (`1,234.5` -> `1234.5`; French `1 234,5` ->
// `1234.5`): the page's group marks out, its decimal mark a point; null for a word of other
// characters.
function bareNumber(word, marks) {
  var group = marks ? marks.group : ",", decimal = marks ? marks.decimal : ".";
  var out = "";
  for (var i = 0; i < word.length; i++) {
    var c = word[i];
    if (c === group) continue;
    if (c === decimal) out += ".";
    else if (/[0-9.,\-]/.test(c)) out += c;
    else return null;
  }
  return out;
}

// For each word, which rows of `table` hold it in a column without codes (a number or date
// column of many values), as written or shown: each such cell read (and formatted if need
// be) row by row from the kept bytes; null for a word no such column can hold. One pass
// over the rows for all words.
function uncodedHits(words, table) {
  var scanned = table.cols.filter(function (col) { return !col.codes; });
  var SHOWN_CHARS = shownChars(table.marks);
  var showable = words.map(function (word) {
    return scanned.filter(function (col) { return SHOWN_CHARS[col.kind].test(word); });
  });
  var wanted = words.map(function (word, w) {
    return scanned.filter(function (col) { return showable[w].indexOf(col) >= 0 || mayHold(col, word); });
  });
  var hits = wanted.map(function (list) { return list.length ? new Uint8Array(table.rowCount) : null; });
  var needed = scanned.filter(function (col) { return wanted.some(function (list) { return list.indexOf(col) >= 0; }); });
  if (!needed.length) return hits;
  // A number column without `digits` shows its plain text grouped (up to 15 digits): a
  // cell whose plain text lacks a word (commas aside) does not show it, which spares most
  // cells their formatting.
  var quick = needed.map(function (col) { return col.kind === "number" && (col.spec.digits === null || col.spec.digits === undefined); });
  var bare = words.map(function (word) { return bareNumber(word, table.marks); });
  for (var row = 0; row < table.rowCount; row++) {
    table.scan(row);
    for (var k = 0; k < needed.length; k++) {
      var col = needed[k];
      var text = table.field(col.spec.index);
      if (text === null || col.missing.indexOf(text) !== -1) continue;
      var written = text.toLowerCase();
      var shown = null;
      for (var w = 0; w < words.length; w++) {
        if (!hits[w] || hits[w][row] || wanted[w].indexOf(col) < 0) continue;
        if (written.indexOf(words[w]) !== -1) { hits[w][row] = 1; continue; }
        if (showable[w].indexOf(col) < 0) continue;
        if (shown === null) shown = quick[k] && !mayShow(col.spec, text, bare, showable, col) ? "" : table.shownCell(col, text).t.toLowerCase();
        if (shown.indexOf(words[w]) !== -1) hits[w][row] = 1;
      }
    }
  }
  return hits;
}
