// datapages: the explorer's cells, for its worker (explore-worker.js loads this file with
// importScripts): a date column's `format` compiled and read, ISO days and date-times, a
// number column's decimal and group marks, and numbers shown as the page's table shows
// them (grouped, a year column's years as written, a column's `digits`, float noise past
// 15 significant digits dropped); plain numbers and ISO days read from their bytes; the
// natural order of long lists of text.
"use strict";

// ---- Dates ------------------------------------------------------------------------------
var MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
  "september", "october", "november", "december"];

// A `format` compiled to a regular expression and its fields; null for a directive this
// reader does not know (%z, %G, %V, %q): such a column sorts and filters as text.
function compileFormat(format) {
  var source = "^";
  var fields = [];
  var kind = { day: false, month: false, hour: false, seconds: false };
  for (var i = 0; i < format.length; i++) {
    var c = format[i];
    if (c !== "%") { source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); continue; }
    var d = format[++i];
    var near = /[%]/.test(format[i + 1] || "") || (i >= 2 && format[i - 2] === "%" && format[i - 3] !== "%");
    var two = near ? "(\\d{2})" : "(\\d{1,2})";
    switch (d) {
      case "Y": source += "(\\d{4})"; fields.push("Y"); break;
      case "m": source += two; fields.push("m"); kind.month = true; break;
      case "d": source += two; fields.push("d"); kind.day = true; break;
      case "b": source += "([A-Za-z]{3})"; fields.push("b"); kind.month = true; break;
      case "B": source += "([A-Za-z]+)"; fields.push("B"); kind.month = true; break;
      case "H": source += two; fields.push("H"); kind.hour = true; break;
      case "M": source += two; fields.push("M"); break;
      case "S": source += two; fields.push("S"); kind.seconds = true; break;
      case "%": source += "%"; break;
      default: return null;
    }
  }
  return { re: new RegExp(source + "$"), fields: fields, kind: kind };
}

function pad(n, width) { var s = String(n); while (s.length < width) s = "0" + s; return s; }

// A cell of a formatted column: [ms since 1970 (UTC), the ISO text the table shows] or null.
function readFormatted(f, text) {
  var m = f.re.exec(text);
  if (!m) return null;
  var y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0;
  for (var i = 0; i < f.fields.length; i++) {
    var v = m[i + 1];
    switch (f.fields[i]) {
      case "Y": y = +v; break;
      case "m": mo = +v; break;
      case "d": d = +v; break;
      case "b": case "B": {
        var name = v.toLowerCase();
        mo = 0;
        for (var k = 0; k < 12; k++) {
          if (f.fields[i] === "b" ? MONTHS[k].slice(0, 3) === name : MONTHS[k] === name) { mo = k + 1; break; }
        }
        if (!mo) return null;
        break;
      }
      case "H": h = +v; break;
      case "M": mi = +v; break;
      case "S": s = +v; break;
    }
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  var ms = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  var shown = pad(y, 4);
  if (f.kind.hour) {
    shown += "-" + pad(mo, 2) + "-" + pad(d, 2) + "T" + pad(h, 2) + ":" + pad(mi, 2) + (f.kind.seconds ? ":" + pad(s, 2) : "");
  } else if (f.kind.day) {
    shown += "-" + pad(mo, 2) + "-" + pad(d, 2);
  } else if (f.kind.month) {
    shown += "-" + pad(mo, 2);
  }
  return [ms, shown];
}

var ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
function timeOf(col, text) {
  if (col.format) { var r = readFormatted(col.format, text); return r ? r[0] : NaN; }
  if (col.spec.type === "date") {
    var m = ISO_DAY.exec(text);
    return m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) : NaN;
  }
  var t = Date.parse(text);
  return isNaN(t) ? NaN : t;
}

// ---- Numbers ----------------------------------------------------------------------------
// A cell as a plain number's text ("1.234,5" -> "1234.5"), or null when a mark is misplaced.
function plainNumber(spec, text) {
  if (spec.decimal === "." && !spec.group) return text;
  var out = text;
  if (spec.group) out = out.split(spec.group).join("");
  if (spec.decimal === ",") {
    if (out.indexOf(".") !== -1) return null;
    out = out.replace(",", ".");
  }
  return out;
}

function numberOf(spec, text) {
  var plain = plainNumber(spec, text);
  if (plain === null || plain === "") return NaN;
  var v = +plain;
  return v;
}

// Significant digits past 15 are how a float was printed, not measured (as the table).
function withoutNoise(whole, fraction) {
  var digits = whole + fraction;
  var first = digits.search(/[1-9]/);
  if (first < 0) return null;
  var keep = first + 15;
  if (keep >= digits.length || keep < whole.length) return null;
  var kept = digits.slice(0, keep).split("").map(Number);
  if (+digits[keep] >= 5) {
    var at = kept.length - 1;
    while (at >= 0) {
      if (kept[at] === 9) { kept[at] = 0; at--; } else { kept[at]++; break; }
    }
    if (at < 0) return null;
  }
  var joined = kept.join("");
  var w = joined.slice(0, whole.length);
  var f = joined.slice(whole.length).replace(/0+$/, "");
  return [w, f];
}

function groupThousands(text) {
  var sign = "";
  if (text[0] === "-" || text[0] === "+") { sign = text[0] === "-" ? "-" : ""; text = text.slice(1); }
  var dot = text.indexOf(".");
  var whole = dot === -1 ? text : text.slice(0, dot);
  var fraction = dot === -1 ? null : text.slice(dot + 1);
  if (fraction !== null) {
    var clean = withoutNoise(whole, fraction);
    if (clean) { whole = clean[0]; fraction = clean[1] || null; }
  }
  return sign + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction !== null ? "." + fraction : "");
}

var PLAIN = /^[+-]?(\d+\.?\d*|\.\d+)$/;
// A number cell as the static table shows it.
function shownNumber(spec, text) {
  var plain = plainNumber(spec, text);
  if (plain === null) return text;
  if (spec.year && /^-?\d{1,4}$/.test(plain)) return plain;
  var v = +plain;
  if (spec.digits !== null && spec.digits !== undefined && plain !== "" && isFinite(v)) {
    var fixed = v.toFixed(spec.digits);
    if (/^-[0.]*$/.test(fixed)) fixed = fixed.slice(1);
    return groupThousands(fixed);
  }
  return PLAIN.test(plain) ? groupThousands(plain) : plain;
}

var POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
// A plain decimal of at most 15 digits read from its bytes (what Number() gives: the digits
// and the power of ten are exact, so one division rounds correctly); undefined otherwise.
function plainBytes(buf, s, e) {
  var i = s;
  var negative = false;
  if (buf[i] === 45) { negative = true; i++; } else if (buf[i] === 43) i++;
  var mantissa = 0, digits = 0, decimals = -1;
  for (; i < e; i++) {
    var b = buf[i];
    if (b >= 48 && b <= 57) { mantissa = mantissa * 10 + (b - 48); digits++; if (decimals >= 0) decimals++; }
    else if (b === 46 && decimals < 0) decimals = 0;
    else return undefined;
  }
  if (digits === 0 || digits > 15) return undefined;
  var v = decimals > 0 ? mantissa / POW10[decimals] : mantissa;
  return negative ? -v : v;
}

// An ISO day (`2021-03-04`) read from its bytes, as UTC milliseconds; undefined otherwise.
function dayBytes(buf, s, e) {
  if (e - s !== 10 || buf[s + 4] !== 45 || buf[s + 7] !== 45) return undefined;
  var y = 0, m = 0, d = 0;
  for (var k = 0; k < 10; k++) {
    if (k === 4 || k === 7) continue;
    var b = buf[s + k] - 48;
    if (b < 0 || b > 9) return undefined;
    if (k < 4) y = y * 10 + b; else if (k < 7) m = m * 10 + b; else d = d * 10 + b;
  }
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  var t = Date.UTC(y, m - 1, d);
  return new Date(t).getUTCDate() === d ? t : NaN;
}

// Runs of digits compare as numbers, letters without case, the rest by character code.
function natural(a, b) {
  var i = 0, j = 0, n = a.length, m = b.length;
  while (i < n && j < m) {
    var x = a.charCodeAt(i), y = b.charCodeAt(j);
    if (x >= 48 && x <= 57 && y >= 48 && y <= 57) {
      var si = i, sj = j;
      while (si < n && a.charCodeAt(si) === 48) si++;
      while (sj < m && b.charCodeAt(sj) === 48) sj++;
      var ei = si, ej = sj;
      while (ei < n && (x = a.charCodeAt(ei)) >= 48 && x <= 57) ei++;
      while (ej < m && (y = b.charCodeAt(ej)) >= 48 && y <= 57) ej++;
      if (ei - si !== ej - sj) return (ei - si) - (ej - sj);
      for (var k = 0; k < ei - si; k++) {
        var d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
        if (d) return d;
      }
      i = ei;
      j = ej;
      continue;
    }
    if (x !== y) {
      var lx = x >= 65 && x <= 90 ? x + 32 : x;
      var ly = y >= 65 && y <= 90 ? y + 32 : y;
      if (lx !== ly) return lx - ly;
    }
    i++;
    j++;
  }
  return (n - i) - (m - j);
}
