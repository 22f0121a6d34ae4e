// The conformance corpus of cells (tests/cells/conformance.json) read by the explorer's
// worker in Node (`node --test`, called by tests/it/explore.rs in the fast tier), as the
// build reads it in src/render/cells_conformance_tests.rs: each case's cell loaded as a
// one-row CSV through the worker's own reader (fast paths and all), its value the column's
// extreme the worker reports, its text the cell of a page of rows; each dialect case's
// line split into the fields the page shows. A case with a `locale` is read with the marks
// the build gives that language (the corpus's `marks`, which the Rust side checks are
// `Locale::new(tag).marks`), and its shown text is checked against CLDR as Node's
// `Intl.NumberFormat` writes the value, so the corpus rests on CLDR, not on our code.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const { startWorker, column, meta, ask, state, csvField } = require("./worker-harness.js");

const CORPUS = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "cells", "conformance.json"), "utf8"));

// The column the page describes to the worker, from a case's column (defaults left out).
function explorerColumn(spec) {
  return column("v", 0, {
    type: spec.type, format: spec.format || null, decimal: spec.decimal || ".", group: spec.group || null,
    digits: spec.digits === undefined ? null : spec.digits, year: spec.year === true, ungrouped: spec.ungrouped === true,
    missing: spec.missing || [],
  });
}

// A field as a CSV writes it: quoted only when it must be (a plain cell takes the fast paths).
function written(text) {
  return /[",\r\n]/.test(text) ? csvField(text) : text;
}

// What the worker reads of a cell case: [the value, the text shown].
async function readCell(c) {
  const worker = await startWorker("v,k\n" + written(c.cell) + ",x\n", 1 << 16);
  const m = Object.assign(meta([explorerColumn(c.column), column("k", 1)], 1), { marks: c.locale ? CORPUS.marks[c.locale] : undefined });
  const loaded = await ask(worker, { type: "load", meta: m }, "loaded");
  const min = loaded.columns[0].min;
  const result = await ask(worker, { type: "query", state: state() }, "result");
  return [min === null || !isFinite(min) ? null : min, result.rows[0].cells[0].t];
}

// What the worker shows of a dialect case's line: each field's text ("" as the empty dash).
async function readLine(c) {
  const delimiter = c.dialect.delimiter || ",";
  const names = c.fields.map((_, i) => "f" + i);
  const worker = await startWorker(names.join(delimiter) + "\n" + c.line + "\n", 1 << 16);
  const m = Object.assign(meta(names.map((name, i) => column(name, i)), 1),
    { delimiter, skip_initial_space: c.dialect.skip_initial_space === true });
  await ask(worker, { type: "load", meta: m }, "loaded");
  const result = await ask(worker, { type: "query", state: state() }, "result");
  return result.rows[0].cells.map((cell) => cell.t);
}

// A locale case's value as CLDR writes it (Node's Intl.NumberFormat): as many decimals as
// the expected text shows, rounded half to even as the build rounds, grouped unless the
// column is not.
function cldrText(c) {
  const marks = CORPUS.marks[c.locale];
  const at = c.shown.lastIndexOf(marks.decimal);
  const decimals = at < 0 ? 0 : c.shown.length - at - marks.decimal.length;
  return new Intl.NumberFormat(c.locale, {
    minimumFractionDigits: decimals, maximumFractionDigits: decimals, roundingMode: "halfEven",
    useGrouping: c.column.ungrouped ? false : "auto",
  }).format(c.value);
}

test("the corpus's shown numbers in other languages are what CLDR gives", () => {
  const wrong = [];
  const anchored = CORPUS.cases.filter((c) => c.locale && c.cldr !== false);
  for (const c of anchored) {
    if (cldrText(c) !== c.shown) wrong.push(c.locale + " " + c.value + ": CLDR " + JSON.stringify(cldrText(c)) + ", not " + JSON.stringify(c.shown));
  }
  // The marks the corpus holds for each language are CLDR's too.
  for (const [tag, marks] of Object.entries(CORPUS.marks)) {
    const parts = new Intl.NumberFormat(tag).formatToParts(-1234567.5);
    const part = (type) => parts.find((p) => p.type === type).value;
    const got = { group: part("group"), decimal: part("decimal"), minus: part("minusSign"),
      minGrouping: new Intl.NumberFormat(tag).format(1234).length === 4 ? 2 : 1 };
    if (JSON.stringify(got) !== JSON.stringify(marks)) wrong.push(tag + ": CLDR marks " + JSON.stringify(got));
  }
  assert.ok(anchored.length >= 30, "at least 30 cases in other languages anchored to CLDR");
  assert.deepStrictEqual(wrong, []);
});

test("the worker reads every cell of the corpus as the build does", async () => {
  const wrong = [];
  const kinds = {};
  for (const c of CORPUS.cases) {
    kinds[c.kind] = (kinds[c.kind] || 0) + 1;
    const about = JSON.stringify(c.column || c.dialect) + " " + JSON.stringify(c.cell === undefined ? c.line : c.cell);
    if (c.kind === "dialect") {
      const got = await readLine(c);
      const want = c.fields.map((f) => (f === "" ? "\u2014" : f));
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(about + ": fields " + JSON.stringify(got) + ", not " + JSON.stringify(want));
      continue;
    }
    const [value, shown] = await readCell(c);
    if (shown !== c.shown) wrong.push(about + ": shown " + JSON.stringify(shown) + ", not " + JSON.stringify(c.shown));
    if (value !== c.value) wrong.push(about + ": value " + value + ", not " + c.value);
  }
  console.log("cases by kind: " + JSON.stringify(kinds));
  assert.ok(CORPUS.cases.length >= 80, "at least 80 cases");
  assert.deepStrictEqual(wrong, []);
});
