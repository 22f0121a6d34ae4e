// datapages: the explorer's cells, an ES module its worker (explore-worker.js) imports,
// with no state of its own: a date column's `format` compiled and read, ISO days and
// date-times, a number column's decimal and group marks, and numbers shown as the page's
// table shows them (grouped, a year column's years as written, a column's `digits` rounded
// half to even as Rust rounds, float noise past 15 significant digits dropped); plain
// numbers and ISO days read from their bytes; the collation order of many values at once.

// ---- Dates ------------------------------------------------------------------------------
// A column's `format` read as src/content/date_format.rs reads it: the same directives,
// one or two digits per number (exactly two beside another directive, as in `%Y%m%d`),
// the same checks; each cell placed where the Rust side places it (iso8601::day_position):
// a week at its Monday, a quarter at its first day, a date-time with `%z` at its instant
// in UTC. A cell shows in the one style the static table shows (`2019-W07`, `1974 Q1`,
// `2019-03-04T13:45+02:00`).
var MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
  "september", "october", "november", "december"];
var DIRECTIVES = "YmbBdHMSzGVq";

// A `format` compiled: its items (a directive letter, or [text] for a literal), which take
// exactly two digits, and its kind; null for a format the build rejects.
export function compileFormat(format) {
  var items = [];
  for (var i = 0; i < format.length; i++) {
    var c = format[i];
    if (c !== "%") { items.push([c]); continue; }
    var d = format[++i];
    if (d === "%") { items.push(["%"]); continue; }
    if (d === undefined || DIRECTIVES.indexOf(d) < 0 || items.indexOf(d) >= 0) return null;
    items.push(d);
  }
  var has = function (d) { return items.indexOf(d) >= 0; };
  var months = (has("m") ? 1 : 0) + (has("b") ? 1 : 0) + (has("B") ? 1 : 0);
  var kind;
  if (has("G") || has("V")) {
    if (!(has("G") && has("V")) || has("Y") || months) return null;
    kind = "week";
  } else if (!has("Y")) return null;
  else if (has("q")) { if (months || has("d")) return null; kind = "quarter"; }
  else if (months > 1 || (has("d") && !months)) return null;
  else if (has("H") || has("M") || has("S") || has("z")) {
    if (!(has("d") && has("H") && has("M"))) return null;
    kind = "datetime";
  } else kind = has("d") ? "day" : months ? "month" : "year";
  var numeric = function (item) { return typeof item === "string"; };
  var two = items.map(function (item, n) {
    return numeric(item) && (numeric(items[n + 1]) || (n > 0 && numeric(items[n - 1])));
  });
  return { items: items, two: two, kind: kind, seconds: has("S"), zone: has("z") };
}

function pad(n, width) { var s = String(n); while (s.length < width) s = "0" + s; return s.slice(s.length - width); }

// `min` to `max` ASCII digits of `text` at `at`: [value, next position] or null.
function digitsAt(text, at, min, max) {
  var n = 0, k = 0;
  while (k < max && at + k < text.length) {
    var b = text.charCodeAt(at + k) - 48;
    if (b < 0 || b > 9) break;
    n = n * 10 + b;
    k++;
  }
  return k < min ? null : [n, at + k];
}

// `Z`, `+hh:mm`, `+hhmm` or `+hh` at `at`: [minutes east of UTC, next position] or null.
function zoneAt(text, at) {
  if (text[at] === "Z") return [0, at + 1];
  var sign = text[at] === "+" ? 1 : text[at] === "-" ? -1 : 0;
  if (!sign) return null;
  var h = digitsAt(text, at + 1, 2, 2);
  if (!h) return null;
  var colon = text[h[1]] === ":" ? h[1] + 1 : h[1];
  var m = digitsAt(text, colon, 2, 2);
  if (!m) { if (colon !== h[1]) return null; m = [0, h[1]]; }
  return h[0] <= 23 && m[0] <= 59 ? [sign * (h[0] * 60 + m[0]), m[1]] : null;
}

function daysIn(y, m) {
  return m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}
var DAY_MS = 86400000;
function weekday(ms) { return ((Math.floor(ms / DAY_MS) + 3) % 7 + 7) % 7; }   // Monday 0
function weeksIn(y) {
  var first = weekday(Date.UTC(y, 0, 1));
  return first === 3 || (first === 2 && daysIn(y, 2) === 29) ? 53 : 52;
}
// Date.UTC reads years 0 to 99 as 1900 to 1999.
function utc(y, mo, d, h, mi, s) { var t = new Date(0); t.setUTCFullYear(y, mo - 1, d); t.setUTCHours(h, mi, s, 0); return t.getTime(); }

// A cell of a formatted column: [ms since 1970 (UTC), the text the table shows] or null.
export function readFormatted(f, text) {
  var v = { Y: 0, m: 1, d: 1, H: 0, M: 0, S: 0, V: 0, q: 0, z: null };
  var at = 0;
  var LIMITS = { m: [1, 12], d: [1, 31], H: [0, 23], M: [0, 59], S: [0, 60], V: [1, 53] };
  for (var i = 0; i < f.items.length; i++) {
    var item = f.items[i];
    var r;
    if (typeof item !== "string") {
      if (text[at] !== item[0]) return null;
      at++;
      continue;
    }
    if (item === "Y" || item === "G") {
      r = digitsAt(text, at, 4, 4);
      if (!r) return null;
      v.Y = r[0];
    } else if (item === "q") {
      r = digitsAt(text, at, 1, 1);
      if (!r || r[0] < 1 || r[0] > 4) return null;
      v.q = r[0];
    } else if (item === "b" || item === "B") {
      r = null;
      for (var k = 0; k < 12 && !r; k++) {
        var name = item === "b" ? MONTHS[k].slice(0, 3) : MONTHS[k];
        if (text.substr(at, name.length).toLowerCase() === name) r = [k + 1, at + name.length];
      }
      if (!r) return null;
      v.m = r[0];
    } else if (item === "z") {
      r = zoneAt(text, at);
      if (!r) return null;
      v.z = r[0];
    } else {
      r = digitsAt(text, at, f.two[i] ? 2 : 1, 2);
      var limit = LIMITS[item === "G" ? "Y" : item];
      if (!r || r[0] < limit[0] || r[0] > limit[1]) return null;
      v[item] = r[0];
    }
    at = r[1];
  }
  if (at !== text.length) return null;
  var shown = pad(v.Y, 4);
  var ms;
  if (f.kind === "week") {
    if (v.V > weeksIn(v.Y)) return null;
    var jan4 = utc(v.Y, 1, 4, 0, 0, 0);
    ms = jan4 - weekday(jan4) * DAY_MS + (v.V - 1) * 7 * DAY_MS;
    return [ms, shown + "-W" + pad(v.V, 2)];
  }
  if (v.d > daysIn(v.Y, v.m)) return null;
  if (f.kind === "quarter") return [utc(v.Y, 3 * v.q - 2, 1, 0, 0, 0), shown + " Q" + v.q];
  ms = utc(v.Y, v.m, v.d, v.H, v.M, v.S) - (v.z || 0) * 60000;
  if (f.kind === "year") return [ms, shown];
  shown += "-" + pad(v.m, 2);
  if (f.kind === "month") return [ms, shown];
  shown += "-" + pad(v.d, 2);
  if (f.kind === "day") return [ms, shown];
  shown += "T" + pad(v.H, 2) + ":" + pad(v.M, 2) + (f.seconds ? ":" + pad(v.S, 2) : "");
  if (v.z !== null) {
    var a = Math.abs(v.z);
    shown += v.z === 0 ? "Z" : (v.z < 0 ? "-" : "+") + pad(Math.floor(a / 60), 2) + ":" + pad(a % 60, 2);
  }
  return [ms, shown];
}

// An ISO year, month or day (`2021`, `2021-04`, `2021-05-21`) at its first day, as
// iso8601::day_number places it.
var ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
export function timeOf(col, text) {
  if (col.format) { var r = readFormatted(col.format, text); return r ? r[0] : NaN; }
  if (col.spec.type === "date") {
    var m = ISO_DATE.exec(text);
    return m ? utc(+m[1], m[2] ? +m[2] : 1, m[3] ? +m[3] : 1, 0, 0, 0) : NaN;
  }
  var t = Date.parse(text);
  return isNaN(t) ? NaN : t;
}

// ---- Numbers ----------------------------------------------------------------------------
// A cell as a plain number's text ("1.234,5" -> "1234.5"), or null when a mark is misplaced
// (a group not of three digits, a decimal point in a column of decimal commas, two decimal
// marks), as NumberMarks::plain reads it (src/content/number_marks.rs).
export function plainNumber(spec, text) {
  if (spec.decimal === "." && !spec.group) return text;
  var group = spec.group;
  if (!/[.,]/.test(text) && !(group && text.indexOf(group) !== -1)) return text;
  var i = text[0] === "+" || text[0] === "-" ? 1 : 0;
  var out = text.slice(0, i);
  // The whole part: digits, with a group mark before each further three.
  var run = 0, groups = 0;
  for (;;) {
    if (isDigit(text.charCodeAt(i))) { out += text[i++]; run++; continue; }
    if (!group || !text.startsWith(group, i) || !isDigit(text.charCodeAt(i + group.length))) break;
    if (groups === 0 ? run < 1 || run > 3 : run !== 3) return null;
    groups++;
    run = 0;
    i += group.length;
  }
  if (groups > 0 && run !== 3) return null;
  if (text.startsWith(spec.decimal, i)) { out += "."; i++; }
  var rest = text.slice(i);
  if (/[.,]/.test(rest) || (group && rest.indexOf(group) !== -1)) return null;
  return out + rest;
}

// A number as Rust's `str::parse::<f64>` reads one (no padding, no hexadecimal): a finite
// value is what the build's charts and profiles read; NaN for anything else.
var NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export function numberOf(spec, text) {
  var plain = plainNumber(spec, text);
  return plain !== null && NUMBER.test(plain) ? +plain : NaN;
}

// Significant digits past 15 are how a float was printed, not measured (as the table).
function withoutNoise(whole, fraction) {
  if (whole.length + fraction.length <= 15) return null;
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
    if (at < 0) kept.unshift(1);   // 9.99…9 -> 10: the whole part grows by a digit
  }
  var joined = kept.join("");
  var wholeLength = whole.length + kept.length - keep;
  var w = joined.slice(0, wholeLength);
  var f = joined.slice(wholeLength).replace(/0+$/, "");
  return [w, f];
}

var SCIENTIFIC = /^([+-]?)(\d*)\.(\d*)([eE][+-]?\d+)$/;
// `1.2300000000000001e-05` -> `1.23e-05`: the mantissa without float noise, its sign and
// the exponent as written (schema::push_scientific).
function shownScientific(text) {
  var m = SCIENTIFIC.exec(text);
  var clean = m && withoutNoise(m[2], m[3]);
  if (!clean) return text;
  return m[1] + clean[0] + (clean[1] ? "." + clean[1] : "") + m[4];
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
  return sign + groupDigits(whole) + (fraction !== null ? "." + fraction : "");
}

// A run of digits with a comma before each three from the right ("1234567" -> "1,234,567").
function groupDigits(whole) {
  var n = whole.length;
  if (n <= 3) return whole;
  var head = n % 3 || 3;
  var out = whole.slice(0, head);
  for (var i = head; i < n; i += 3) out += "," + whole.slice(i, i + 3);
  return out;
}

// `v` at `digits` decimal places as Rust's `format!("{:.N}")` writes it: the exact binary
// value rounded half to even (2.5 -> "2", 0.125 -> "0.12"; 1.005, a little below the tie
// in binary, -> "1.00"), every digit of a large number written out. `toFixed` rounds ties
// away from zero and writes 1e21 and above as exponents, so those go the exact way.
function toFixedEven(v, digits) {
  var a = Math.abs(v);
  if (a < 1e21) {
    // A tie at `digits` places has exactly digits + 1 decimals, so at most digits + 1
    // binary ones: a value with more (most decimals, 1.005 among them) is no tie, and
    // toFixed, which rounds the exact value, agrees. (Multiplying by 2^k is exact.)
    var bits = a * POW2[digits + 1];
    if (bits !== Math.floor(bits)) return v.toFixed(digits);
    var scaled = a * POW10[digits];
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-9 + scaled * 1e-15) return v.toFixed(digits);
  }
  return exactFixed(v, digits);
}

// The exact decimal value of the double `v`, rounded half to even at `digits` places.
var F64 = new Float64Array(1);
var U32 = new Uint32Array(F64.buffer);
var HIGH = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
function exactFixed(v, digits) {
  F64[0] = v;
  var hi = U32[HIGH], lo = U32[1 - HIGH];
  var negative = hi >>> 31 === 1;
  var biased = (hi >>> 20) & 0x7ff;
  var mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased) mantissa |= 1n << 52n;
  var exponent = (biased || 1) - 1075;   // v = mantissa * 2^exponent
  var scale = 10n ** BigInt(digits);
  var q;
  if (exponent >= 0) q = (mantissa << BigInt(exponent)) * scale;
  else {
    var num = mantissa * scale;
    var den = 1n << BigInt(-exponent);
    q = num / den;
    var twice = (num - q * den) * 2n;
    if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  }
  var text = q.toString();
  if (digits > 0) {
    while (text.length <= digits) text = "0" + text;
    text = text.slice(0, text.length - digits) + "." + text.slice(text.length - digits);
  }
  return (negative ? "-" : "") + text;
}

var PLAIN = /^[+-]?(\d+\.?\d*|\.\d+)$/;
// A number cell as the static table shows it, a number in the page's marks (`marks`;
// English without them); a year, and text that is no number, as written.
export function shownNumber(spec, text, marks) {
  var plain = plainNumber(spec, text);
  if (plain === null) return text;
  if (spec.year && /^-?\d{1,4}$/.test(plain)) return plain;
  var shown = englishNumber(spec, plain);
  return NUMBER.test(plain) ? localNumber(marks, shown) : shown;
}

// The plain text of a number cell as the table shows it in English.
function englishNumber(spec, plain) {
  // grouping = false (codes, clock times): as written, or at the column's digits, never grouped.
  if (spec.ungrouped && PLAIN.test(plain)) {
    if (spec.digits === null || spec.digits === undefined) return plain;
    var exact = toFixedEven(+plain, spec.digits);
    return /^-[0.]*$/.test(exact) ? exact.slice(1) : exact;
  }
  var v = +plain;
  if (spec.digits !== null && spec.digits !== undefined && plain !== "" && isFinite(v)) {
    var fixed = toFixedEven(v, spec.digits);
    if (/^-[0.]*$/.test(fixed)) fixed = fixed.slice(1);
    return groupThousands(fixed);
  }
  return PLAIN.test(plain) ? groupThousands(plain) : shownScientific(plain);
}

// 2^k for a tie's binary places, 10^k for a plain number's decimals (exact doubles).
var POW2 = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];
var POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
// A plain decimal of at most 15 digits read from its bytes (what Number() gives: the digits
// and the power of ten are exact, so one division rounds correctly); undefined otherwise.
export function plainBytes(buf, s, e) {
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
export function dayBytes(buf, s, e) {
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

// ---- Collation ---------------------------------------------------------------------
// The order of text in the reader's collation (`collator`), for many values at once: a
// collator compares two strings in about 0.3 µs, so sorting 1,000,000 of them takes ~20
// million comparisons, 6 s. Instead each value of printable ASCII gets a key whose plain
// code-unit order is the collation's: each character its rank among the printable ASCII
// characters as the collator orders them (equal ranks for `a` and `A` at base strength),
// each run of digits one unit for "a number", its length without leading zeros and its
// digits (numeric collation). The keys sort fast; one pass of the collator over
// neighbours then checks the result, which holds only if it agrees everywhere: the order
// is the collator's either way, the keys only make it cheaper. Returns the dictionary's
// indices in order and, for each place, whether its value equals the one before in the
// collation; or null (values outside printable ASCII, or the check failed): then the
// caller sorts with the collator itself.
export function collationOrder(dict, collator) {
  var ranks = asciiRanks(collator);
  var digit = ranks[48];
  // Every key's bytes in one buffer (all below 128), read back as one string and cut:
  // flat one-byte strings, the cheapest for V8 to compare.
  var bytes = new Uint8Array(1024);
  var ends = new Uint32Array(dict.length);
  var at = 0;
  for (var i = 0; i < dict.length; i++) {
    var text = dict[i];
    if (at + 3 * text.length > bytes.length) {
      var bigger = new Uint8Array(2 * bytes.length + 3 * text.length);
      bigger.set(bytes);
      bytes = bigger;
    }
    for (var k = 0; k < text.length; k++) {
      var c = text.charCodeAt(k);
      if (c < 32 || c > 126) return null;
      if (c < 48 || c > 57) { bytes[at++] = ranks[c]; continue; }
      var from = k;
      while (from < text.length - 1 && text.charCodeAt(from) === 48 && isDigit(text.charCodeAt(from + 1))) from++;
      var end = from;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (end - from > 90) return null;
      bytes[at++] = digit;
      bytes[at++] = 32 + end - from;
      for (var d = from; d < end; d++) bytes[at++] = text.charCodeAt(d);
      k = end - 1;
    }
    ends[i] = at;
  }
  var all = new TextDecoder("latin1").decode(bytes.subarray(0, at));
  var keys = new Array(dict.length);
  for (var j = 0; j < dict.length; j++) keys[j] = all.slice(j ? ends[j - 1] : 0, ends[j]);
  var order = dict.map(function (_, i) { return i; });
  order.sort(function (a, b) { return keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b; });
  var same = new Uint8Array(order.length);
  for (var n = 1; n < order.length; n++) {
    var o = collator.compare(dict[order[n - 1]], dict[order[n]]);
    if (o > 0) return null;
    same[n] = o === 0 ? 1 : 0;
  }
  return { order: order, same: same };
}

function isDigit(c) { return c >= 48 && c <= 57; }

// Each printable ASCII character's rank (from 32 up) in the collator's order.
function asciiRanks(collator) {
  var chars = [];
  for (var c = 32; c <= 126; c++) chars.push(String.fromCharCode(c));
  chars.sort(collator.compare);
  var ranks = new Uint16Array(127);
  var r = 32;
  for (var i = 0; i < chars.length; i++) {
    if (i > 0 && collator.compare(chars[i - 1], chars[i]) !== 0) r++;
    ranks[chars[i].charCodeAt(0)] = r;
  }
  return ranks;
}

// ---- The page's language --------------------------------------------------------------
// The marks the build writes numbers with for the page's language (`marks`: words-<lang>.js
// `number`, from CLDR through src/i18n/locale.rs): group, decimal, minus, minGrouping.
// None, or English's, change nothing.
function english(marks) { return !marks || (marks.group === "," && marks.decimal === "." && marks.minus === "-"); }

// A number as the table shows it in English (`-1,234.5`, `1.5e-05`) in the page's marks,
// as Locale::number writes it: each comma of the whole part a group mark (none when the
// language leaves a short number whole: Spanish `1234`), the decimal point the decimal
// mark, a leading minus the minus mark.
export function localNumber(marks, text) {
  if (english(marks)) return text;
  var end = text.search(/[.eE]/);
  if (end < 0) end = text.length;
  var whole = text.slice(0, end);
  var groups = whole.split(",").length - 1;
  var drop = groups === 1 && marks.minGrouping >= 2 && whole.replace(/\D/g, "").length < 3 + marks.minGrouping;
  var out = (text[0] === "-" ? marks.minus + whole.slice(1) : whole).split(",").join(drop ? "" : marks.group);
  if (text[end] === ".") return out + marks.decimal + text.slice(end + 1);
  return out + text.slice(end);
}

// The spaces a reader may type for a group mark that is a space (French U+202F, Portuguese
// of Portugal U+00A0): any of them stands for the mark.
var SPACES = /[ \u00a0\u202f]/g;
export function spaceGroup(marks) { return !english(marks) && /^[ \u00a0\u202f]$/.test(marks.group); }

// A number typed into a range (`1 234,5` or `1234,5` in French, `1.234,5` in German, or
// plain `1234.5` in any language): its value, NaN for none. Text the language's marks do
// not read (German `1234.5`) is read as a plain number, as parseFloat reads it.
export function typedNumber(marks, text) {
  var t = text.trim().replace(/\u2212/g, "-");
  var local = null;
  if (marks) {
    if (marks.minus !== "-" && t.indexOf(marks.minus) === 0) t = "-" + t.slice(marks.minus.length);
    if (spaceGroup(marks)) t = t.replace(SPACES, marks.group);
    local = plainNumber({ decimal: marks.decimal, group: marks.group }, t);
  }
  return local !== null && NUMBER.test(local) ? +local : parseFloat(t);
}
