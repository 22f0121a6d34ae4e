// static/table.js on a page in another language (#54): a number column shown in the page's
// marks (French `2 693,5`, German `2.693,5`, from words-<language>.js) sorts by value, and
// the filter finds a number as the CSV writes it. The table's sorting part of the script
// runs in Node on a small stand-in for the page's table (called by
// tests/it/languages_pages.rs in the fast tier).
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const SOURCE = fs.readFileSync(path.join(__dirname, "..", "..", "static", "table.js"), "utf8");
// The first part (sorting and the filter) and the helpers at the end (plainNumber,
// searchedText); the parts between need a whole page.
const SORTING = SOURCE.slice(0, SOURCE.indexOf("})();") + "})();".length);
const HELPERS = SOURCE.slice(SOURCE.indexOf("function plainNumber"));

const MARKS = {
  fr: { group: "\u202f", decimal: ",", minus: "-", minGrouping: 1 },
  de: { group: ".", decimal: ",", minus: "-", minGrouping: 1 },
  en: { group: ",", decimal: ".", minus: "-", minGrouping: 1 },
};

// A stand-in element: attributes, classes, children.
function element(name, text, classes) {
  const attributes = {};
  return {
    name: name, textContent: text || "", children: [], firstChild: null,
    classList: { contains: (c) => (classes || []).indexOf(c) !== -1 },
    getAttribute: (a) => (a in attributes ? attributes[a] : null),
    setAttribute: (a, v) => { attributes[a] = String(v); },
    removeAttribute: (a) => { delete attributes[a]; },
    appendChild: function (child) { this.children.push(child); return child; },
    addEventListener: function (type, f) { this["on" + type] = f; },
  };
}

// Runs the script on a one-column number table of `shown` cells with `language`'s marks;
// the table's rows and the page's scope.
function page(language, shown) {
  const th = element("th", "", ["num"]);
  const rows = shown.map((text) => ({ cells: [element("td", text)] }));
  const body = {
    rows: rows.slice(),
    appendChild: function (fragment) { this.rows = fragment.children.slice(); },
  };
  const table = { tBodies: [body], tHead: { rows: [{ cells: [th] }] } };
  const scope = {
    self: null,
    document: {
      documentElement: { lang: language },
      querySelector: (css) => (css === "table.sortable" ? table : null),
      getElementById: () => null,
      createElement: (name) => element(name),
      createDocumentFragment: () => element("fragment"),
    },
    Intl: Intl,
  };
  scope.self = scope;
  scope.datapagesWords = { marks: MARKS[language] };
  vm.createContext(scope);
  vm.runInContext(SORTING + "\n" + HELPERS, scope);
  return { th: th, body: body, scope: scope };
}

// The cells' texts in the table's order after clicking the column's sort button `clicks` times.
function sorted(language, shown, clicks) {
  const p = page(language, shown);
  const button = p.th.children[0];
  for (let i = 0; i < clicks; i++) button.onclick();
  return p.body.rows.map((row) => row.cells[0].textContent);
}

test("a French number column sorts by value, largest first", () => {
  const shown = ["2\u202f693,5", "-1\u202f234,5", "98\u202f765", "0,25", "12"];
  assert.deepStrictEqual(sorted("fr", shown, 1), ["98\u202f765", "2\u202f693,5", "12", "0,25", "-1\u202f234,5"]);
  assert.deepStrictEqual(sorted("fr", shown, 2), ["-1\u202f234,5", "0,25", "12", "2\u202f693,5", "98\u202f765"]);
});

test("a German number column sorts by value", () => {
  const shown = ["2.693,5", "-1.234,5", "1.234.567", "0,25"];
  assert.deepStrictEqual(sorted("de", shown, 1), ["1.234.567", "2.693,5", "0,25", "-1.234,5"]);
});

test("English marks sort as before", () => {
  assert.deepStrictEqual(sorted("en", ["2,693.5", "-1,234.5", "98,765"], 1), ["98,765", "2,693.5", "-1,234.5"]);
});

test("the filter finds a number as the CSV writes it", () => {
  const p = page("fr", ["1"]);
  const tr = { cells: [element("td", "2\u202f693,5"), element("td", "Lyon")] };
  assert.strictEqual(p.scope.searchedText(tr, [true, false]), "2\u202f693,5\n2693.5\nlyon");
  // A number in a column of text is searched as shown only.
  assert.strictEqual(p.scope.searchedText(tr, [false, false]), "2\u202f693,5\nlyon");
  assert.strictEqual(p.scope.plainNumber("-1\u202f234\u202f567,25"), "-1234567.25");
  const en = page("en", ["1"]);
  assert.strictEqual(en.scope.searchedText({ cells: [element("td", "1,545")] }, [true]), "1,545\n1545");
  const header = { tHead: { rows: [{ cells: [element("th", "", ["num"]), element("th", "", ["text"])] }] } };
  assert.deepStrictEqual(Array.from(en.scope.numberColumns(header)), [true, false]);
});
