// The explorer's worker (static/explore-worker.js) run in Node (`node --test`, called by
// tests/it/explore.rs in the fast tier) through worker-harness.js: an instance of the
// module per test, with fetch streaming a CSV in chunks of a chosen size and postMessage
// collecting what it says. Checks columns and link keys named like every Object.prototype
// member, and that a giant cell costs work in proportion to its size (bytes scanned and
// copied, counted by wrapping the steps of the worker's load: no clock) and reaches the
// page cut; search and exact keys; and a French page's marks in cells, ranges and search.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const { startWorker, explorerModule, column, meta, ask, state, csvField } = require("./worker-harness.js");

test("every Object.prototype name works as a column and as a facet key", async () => {
  const names = Object.getOwnPropertyNames(Object.prototype);
  assert.ok(names.includes("__proto__") && names.includes("constructor") && names.includes("toString"));
  const columns = names.map((name, i) => column(name, i));
  let csv = names.map(csvField).join(",") + "\n";
  for (let r = 0; r < 12; r++) csv += names.map((_, i) => (r + i) % 3 === 0 ? "x" : "y").join(",") + "\n";
  const worker = await startWorker(csv, 64);
  const loaded = await ask(worker, { type: "load", meta: meta(columns, 12) }, "loaded");
  assert.strictEqual(loaded.rows, 12);
  assert.ok(loaded.columns.every((c) => c.facet), "every column is a facet");
  const all = await ask(worker, { type: "query", state: state() }, "result");
  assert.ok(all.facets instanceof Map || all.facets.constructor.name === "Map");
  for (const name of names) {
    const list = all.facets.get(name);
    assert.ok(Array.isArray(list) && list.length === 2, name);
  }
  // Each name as a facet key (`#explore?f.<name>=x`), one at a time and all at once.
  for (const [i, name] of names.entries()) {
    const one = await ask(worker, { type: "query", state: state({ id: 2, facets: new Map([[name, ["x"]]]) }) }, "result");
    assert.strictEqual(one.matched, [...Array(12).keys()].filter((r) => (r + i) % 3 === 0).length, name);
    const ranged = await ask(worker, { type: "query", state: state({ id: 3, ranges: new Map([[name, [0, 1]]]) }) }, "result");
    assert.strictEqual(ranged.matched, 12, name + " as a range key of a text column changes nothing");
    const sorted = await ask(worker, { type: "query", state: state({ id: 4, sort: [name, "desc"] }) }, "result");
    assert.strictEqual(sorted.rows[0].cells[i].t, "y", name);
  }
  const every = new Map(names.map((name) => [name, ["x", "y"]]));
  const both = await ask(worker, { type: "query", state: state({ id: 5, facets: every }) }, "result");
  assert.strictEqual(both.matched, 12);
});

// A CSV whose second row holds one cell of `size` characters (quotes, delimiters and line
// breaks inside it), read in 4 KiB chunks.
function giant(size) {
  const piece = "ab\"c,d\ne ";
  const text = piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
  return { text, csv: "id,note,group\n1,short,a\n2," + csvField(text) + ",a\n3,\"\",b\n4,last,b\n" };
}

// The worker's work while loading: bytes each scan covers, and bytes copied into one buffer.
const WORK = {
  scanRow: (args, next) => (next >= 0 ? next : args[2]) - args[1],
  rowEnds: (args) => args[0].length - args[1],
  joined: (args) => args[1],
};

async function loadGiant(size) {
  const { text, csv } = giant(size);
  const worker = await startWorker(csv, 4096, WORK);
  const columns = [column("id", 0, { type: "integer" }), column("note", 1, { wide: true }), column("group", 2)];
  const loaded = await ask(worker, { type: "load", meta: meta(columns, 4) }, "loaded");
  assert.strictEqual(loaded.rows, 4);
  return { worker, text, work: worker.work };
}

test("a giant cell costs work in proportion to its size, and reaches the page cut", async () => {
  const small = await loadGiant(256 * 1024);
  const large = await loadGiant(1024 * 1024);
  console.log(`work: ${small.work} bytes for a 256 KiB cell, ${large.work} for 1 MiB`);
  assert.ok(large.work <= 5 * small.work, `4x the cell: ${large.work} bytes of work against ${small.work}`);
  assert.ok(large.work < 8 * 1024 * 1024, `${large.work} bytes of work for a 1 MiB cell`);

  const { worker, text } = large;
  const result = await ask(worker, { type: "query", state: state({ id: 7 }) }, "result");
  const cell = result.rows[1].cells[1].t;
  assert.strictEqual(cell.length, 1000);
  assert.strictEqual(cell, text.slice(0, 999) + "\u2026");
  assert.strictEqual(result.rows[2].cells[1].t, "\u2014", "an empty quoted cell");
  assert.strictEqual(result.rows[3].cells[1].t, "last");
  // The whole text is still what search reads and what a download gives.
  const found = await ask(worker, { type: "query", state: state({ id: 8, q: text.slice(-6).trim() }) }, "result");
  assert.strictEqual(found.matched, 1);
});

test("a giant value is a facet label cut and cannot be chosen", async () => {
  const { text } = giant(300 * 1024);
  const csv = "id,group\n" + [1, 2, 3, 4, 5, 6].map((n) => n + "," + (n % 2 ? csvField(text) : "b")).join("\n") + "\n";
  const worker = await startWorker(csv, 4096);
  const columns = [column("id", 0, { type: "integer" }), column("group", 1, { wide: true })];
  const loaded = await ask(worker, { type: "load", meta: meta(columns, 6) }, "loaded");
  assert.ok(loaded.columns[1].facet);
  const result = await ask(worker, { type: "query", state: state() }, "result");
  const list = result.facets.get("group");
  assert.deepStrictEqual(list.map((entry) => entry[1]), [3, 3]);
  const long = list.find((entry) => entry[0] === null);
  assert.ok(long, "the long value is listed without a value to choose");
  assert.strictEqual(long[2], text.slice(0, 99) + "\u2026");
  assert.deepStrictEqual(list.find((entry) => entry[0] !== null), ["b", 3, "b"]);
});

test("rows split across chunks at every place read the same", async () => {
  const csv = "\ufeffa,\"b\"\"\",c\r\n1,\"x\r\ny\",\"\"\"q\"\"\"\r\n2,,\"z\"\r\n3,\"\",\r\n";
  const columns = [column("a", 0), column("b\"", 1), column("c", 2)];
  const whole = await startWorker(csv, 1 << 20);
  await ask(whole, { type: "load", meta: meta(columns, 3) }, "loaded");
  const want = await ask(whole, { type: "query", state: state() }, "result");
  assert.deepStrictEqual(want.rows.map((r) => r.cells.map((c) => c.t)), [["1", "x\r\ny", "\"q\""], ["2", "\u2014", "z"], ["3", "\u2014", "\u2014"]]);
  for (let chunk = 1; chunk <= 12; chunk++) {
    const worker = await startWorker(csv, chunk);
    const loaded = await ask(worker, { type: "load", meta: meta(columns, 3) }, "loaded");
    assert.strictEqual(loaded.rows, 3, `chunks of ${chunk}`);
    const got = await ask(worker, { type: "query", state: state() }, "result");
    assert.deepStrictEqual(got.rows, want.rows, `chunks of ${chunk}`);
  }
});

// Search finds a row when a word is in a cell as the CSV writes it or as the page shows it,
// for numbers grouped (`1545` shown `1,545`), numbers rounded to their digits (`3.14159`
// shown `3.1`), dates in another format (`05/12/2026` shown `2026-12-05`) and text; in
// columns with codes (few values) and without (past the worker's 1,000 distinct values).
// What each row shows is worked out here without the worker's code (Intl grouping,
// toFixed on values without ties, the date's fields reordered).
test("search matches cells as written and as shown", async () => {
  const rows = 1500;
  const columns = [
    column("flight", 0, { type: "integer" }),
    column("delay", 1, { type: "number", digits: 1 }),
    column("day", 2, { type: "date", format: "%d/%m/%Y" }),
    column("carrier", 3),
    column("gate", 4, { type: "integer" }),
  ];
  const group = new Intl.NumberFormat("en-US", { useGrouping: true, maximumFractionDigits: 20 });
  const table = [];
  for (let r = 0; r < rows; r++) {
    const flight = String((r * 7919 + 1545) % 30000);
    const delay = ((r * 37) % 2000) / 100 + 0.00159;
    const day = String(1 + (r % 25)).padStart(2, "0") + "/" + String(1 + (r % 12)).padStart(2, "0") + "/" + (2000 + (r % 27));
    const carrier = ["UA", "B6", "Delta 1545", "AA"][r % 4];
    const gate = String(1000 + (r % 7) * 1111);
    table.push({
      written: [flight, delay.toFixed(5), day, carrier, gate],
      shown: [group.format(+flight), delay.toFixed(1), day.slice(6) + "-" + day.slice(3, 5) + "-" + day.slice(0, 2), carrier, group.format(+gate)],
    });
  }
  const csv = "flight,delay,day,carrier,gate\n" + table.map((row) => row.written.join(",")).join("\n") + "\n";
  const worker = await startWorker(csv, 4096);
  const loaded = await ask(worker, { type: "load", meta: meta(columns, rows) }, "loaded");
  assert.strictEqual(loaded.rows, rows);
  const queries = ["1545", "1,545", "545", "15.0", "1.5", "3.1", "0.00159", "2026-12", "/12/20", "12-05", "delta 1545",
    "4,333", "4333", "3,33", "1545 ua", "B6 2,111", ",0", "x"];
  let some = 0;
  for (const [i, q] of queries.entries()) {
    const words = q.toLowerCase().split(/\s+/);
    const want = [];
    table.forEach((row, r) => {
      const cells = row.written.concat(row.shown).map((t) => t.toLowerCase());
      if (words.every((word) => cells.some((cell) => cell.includes(word)))) want.push(r + 1);
    });
    const got = await ask(worker, { type: "query", state: state({ id: 20 + i, q, per: rows }) }, "result");
    assert.deepStrictEqual(got.rows.map((row) => row.n), want, q);
    if (want.length) some += 1;
  }
  assert.strictEqual(some, queries.length - 1, "every query but `x` finds rows");
  const { cellHas } = await explorerModule("explore-search.js");
  assert.strictEqual(cellHas("1545", "1545", "1,545"), true);
  assert.strictEqual(cellHas("1,545", "1545", "1,545"), true);
  assert.strictEqual(cellHas("05/12", "05/12/2026", "2026-12-05"), true);
  assert.strictEqual(cellHas("2026-12", "05/12/2026", "2026-12-05"), true);
  assert.strictEqual(cellHas("x", "05/12/2026", "2026-12-05"), false);
});

// On a French page (the marks words-fr.js gives the worker): cells shown in French marks
// (what Intl.NumberFormat("fr") writes), ranges typed in French marks or plain, and a
// number searched as shown (`9 464`, typed with a space or U+202F: one word) or plain.
test("in French marks, cells are shown, ranges read and numbers searched the French way", async () => {
  const rows = 1500;
  const marks = { group: "\u202f", decimal: ",", minus: "-", minGrouping: 1 };
  const columns = [
    column("flight", 0, { type: "integer" }),
    column("delay", 1, { type: "number", digits: 1 }),
    column("gate", 2, { type: "integer" }),
  ];
  const fr = (digits) => new Intl.NumberFormat("fr", { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: "negative" });
  const table = [];
  for (let r = 0; r < rows; r++) {
    const flight = (r * 7919 + 1545) % 30000;
    const delay = ((r * 37) % 2000) / 100 - 3.00159;
    const gate = 1000 + (r % 7) * 1111;
    table.push({ values: [flight, delay, gate], written: [String(flight), delay.toFixed(5), String(gate)],
      shown: [fr(0).format(flight), fr(1).format(delay), fr(0).format(gate)] });
  }
  const csv = "flight,delay,gate\n" + table.map((row) => row.written.join(",")).join("\n") + "\n";
  const worker = await startWorker(csv, 4096);
  await ask(worker, { type: "load", meta: Object.assign(meta(columns, rows), { marks }) }, "loaded");
  const all = await ask(worker, { type: "query", state: state({ id: 2, per: rows }) }, "result");
  assert.deepStrictEqual(all.rows.map((row) => row.cells.map((cell) => cell.t)), table.map((row) => row.shown));
  // Searches: the query and the words it stands for.
  const searches = [["9 464", ["9\u202f464"]], ["9\u202f464", ["9\u202f464"]], ["9464", ["9464"]], ["1 545", ["1\u202f545"]],
    ["-2,9", ["-2,9"]], ["4 897 2 111", ["4\u202f897", "2\u202f111"]], ["2 111 1,0", ["2\u202f111", "1,0"]]];
  for (const [i, [q, words]] of searches.entries()) {
    const want = [];
    table.forEach((row, r) => {
      const cells = row.written.concat(row.shown);
      if (words.every((word) => cells.some((cell) => cell.includes(word)))) want.push(r + 1);
    });
    const got = await ask(worker, { type: "query", state: state({ id: 10 + i, q, per: rows }) }, "result");
    assert.ok(want.length > 0, q);
    assert.deepStrictEqual(got.rows.map((row) => row.n), want, q);
  }
  // Ranges typed in French marks, grouped or not, or plain: the same rows.
  const ranges = [["flight", "1 000,5", "12 816", 1000.5, 12816], ["flight", "1000,5", "12\u202f816", 1000.5, 12816],
    ["flight", "1000.5", "12816", 1000.5, 12816], ["delay", "-2,5", "10", -2.5, 10], ["delay", "", "-1,25", -Infinity, -1.25]];
  for (const [i, [name, from, to, low, high]] of ranges.entries()) {
    const c = columns.findIndex((col) => col.name === name);
    const want = table.filter((row) => row.values[c] >= low && row.values[c] <= high).length;
    const got = await ask(worker, { type: "query", state: state({ id: 30 + i, ranges: new Map([[name, [from || null, to]]]) }) }, "result");
    assert.ok(want > 0 && want < rows, name + " " + from + "~" + to);
    assert.strictEqual(got.matched, want, name + " " + from + "~" + to);
  }
});

// The exact filter a foreign key's link opens the explorer on (`#explore?k.<column>=<value>`):
// rows whose cell, as the CSV writes it, is the value, on any column (one of all distinct
// values, no facet; a number column, compared as written: `1.50` is not `1.5`; a column named
// `__proto__`), with values holding `&`, `=`, `#`, `+`, spaces and non-ASCII text, read back
// from the URL encoding the page's links use (every byte but letters, digits and `-._~`).
test("an exact key filter matches cells as written, on any column", async () => {
  const values = ["N10156", "a&b=c#d", "x y+z", "Zürich €", "1.50", ""];
  const columns = [column("__proto__", 0), column("tailnum", 1), column("price", 2, { type: "number" })];
  let csv = "__proto__,tailnum,price\n";
  for (let r = 0; r < 40; r++) {
    const tail = r % 10 === 0 ? values[(r / 10) % values.length] : "T" + r;
    csv += [r % 2 ? "x y+z" : "Zürich €", tail, r % 4 === 0 ? "1.50" : r % 4 === 1 ? "1.5" : String(r)].map(csvField).join(",") + "\n";
  }
  const worker = await startWorker(csv, 33);
  await ask(worker, { type: "load", meta: meta(columns, 40) }, "loaded");
  // As explore.js reads the fragment of a link the build writes.
  const encode = (text) => Array.from(new TextEncoder().encode(text), (b) =>
    /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : "%" + b.toString(16).toUpperCase().padStart(2, "0")).join("");
  const fromLink = (name, value) => {
    const params = new URLSearchParams("k." + encode(name) + "=" + encode(value));
    const keys = new Map();
    params.forEach((v, k) => keys.set(k.slice(2), v));
    return keys;
  };
  const matched = async (name, value, id) =>
    (await ask(worker, { type: "query", state: state({ id, keys: fromLink(name, value) }) }, "result")).matched;
  const keys = fromLink("__proto__", "a&b=c#d");
  assert.deepStrictEqual([...keys], [["__proto__", "a&b=c#d"]]);
  assert.strictEqual(await matched("tailnum", "N10156", 2), 1);
  assert.strictEqual(await matched("tailnum", "a&b=c#d", 3), 1);
  assert.strictEqual(await matched("tailnum", "T7", 4), 1);
  assert.strictEqual(await matched("tailnum", "T", 5), 0, "the whole cell, not a part");
  assert.strictEqual(await matched("__proto__", "x y+z", 6), 20);
  assert.strictEqual(await matched("__proto__", "Zürich €", 7), 20);
  assert.strictEqual(await matched("price", "1.50", 8), 10, "as written");
  assert.strictEqual(await matched("price", "1.5", 9), 10);
  assert.strictEqual(await matched("nowhere", "x", 10), 0, "a column the explorer lacks matches nothing");
  // With another filter, and shown as the page's rows.
  const both = await ask(worker, { type: "query", state: state({ id: 11, q: "N10156", keys: fromLink("__proto__", "Zürich €") }) }, "result");
  assert.strictEqual(both.matched, 1);
  assert.strictEqual(both.rows[0].cells[1].t, "N10156");
  const none = await ask(worker, { type: "query", state: state({ id: 12 }) }, "result");
  assert.strictEqual(none.matched, 40, "no key: every row");
});

// A CSV the server does not give: the worker says the HTTP status as a number, which the
// page words in its language (explore.js, `explorer_http`).
test("a failed fetch reports its HTTP status as a number", async () => {
  const worker = await startWorker("a\n1\n", 64);
  worker.context.fetch = () => Promise.resolve({ ok: false, status: 404 });
  worker.context.onmessage({ data: { type: "load", meta: meta([column("a", 0)], 1) } });
  for (let turn = 0; turn < 1000 && !worker.messages.some((m) => m.type === "error"); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const error = worker.messages.find((m) => m.type === "error");
  assert.strictEqual(error && error.status, 404);
});
