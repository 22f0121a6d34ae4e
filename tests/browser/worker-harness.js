// A harness for the explorer's worker (static/explore-worker.js, an ES module) in Node: a
// fresh instance of the module per worker, with its own global (`self`: fetch streaming a
// CSV in chunks of a chosen size, postMessage collecting what it says); the messages a test
// sends and the column and page state it describes. Used by explore-worker.test.js and
// cells-conformance.test.js.
"use strict";

const assert = require("node:assert");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const STATIC = path.join(__dirname, "..", "..", "static");

// The explorer's modules as Node imports them: copied beside a package.json that says
// they are modules (the theme's folder has none to say it).
let modules = null;
function moduleFolder() {
  if (!modules) {
    modules = fs.mkdtempSync(path.join(os.tmpdir(), "explore-modules-"));
    fs.writeFileSync(path.join(modules, "package.json"), "{\"type\": \"module\"}\n");
    for (const name of ["explore-worker.js", "explore-cells.js", "explore-search.js"]) {
      fs.copyFileSync(path.join(STATIC, name), path.join(modules, name));
    }
    process.on("exit", () => fs.rmSync(modules, { recursive: true, force: true }));
  }
  return modules;
}

// One of the explorer's modules (`explore-search.js`…), shared.
function explorerModule(name) {
  return import(pathToFileURL(path.join(moduleFolder(), name)).href);
}

let instances = 0;
// A worker reading `csv` (a string) in `chunk`-byte pieces; `counted` lists steps of the
// worker's load (its `steps`) whose work (bytes scanned or copied) is added up in
// `worker.work`.
async function startWorker(csv, chunk, counted) {
  const bytes = new TextEncoder().encode(csv);
  const messages = [];
  const context = {
    // As a real worker's messages are, each is a copy.
    postMessage: (message) => messages.push(structuredClone(message)),
    fetch: () => Promise.resolve({
      ok: true,
      status: 200,
      body: {
        getReader() {
          let at = 0;
          return {
            read() {
              if (at >= bytes.length) return Promise.resolve({ done: true });
              const value = bytes.slice(at, at + chunk);
              at += chunk;
              return Promise.resolve({ done: false, value: value });
            },
          };
        },
      },
    }),
  };
  // The module keeps the `self` it starts with; a new URL is a new instance of it.
  globalThis.self = context;
  instances += 1;
  const url = pathToFileURL(path.join(moduleFolder(), "explore-worker.js")).href + "?worker=" + instances;
  const module = await import(url);
  const worker = { context, messages, work: 0 };
  for (const [name, measure] of Object.entries(counted || {})) {
    const inner = module.steps[name];
    module.steps[name] = function () {
      const result = inner.apply(null, arguments);
      worker.work += measure(arguments, result);
      return result;
    };
  }
  return worker;
}

function column(name, index, extra) {
  return Object.assign({ index, name, title: name, type: "string", missing: [], decimal: ".", group: null,
    digits: null, year: false, format: null, source: false, wide: false, enum: null }, extra || {});
}

function meta(columns, rows) {
  return { title: "t", csv: "t.csv", url: "http://localhost/t.csv", rows, bytes: 0, delimiter: ",", quote: "\"",
    columns, shown_rows: 0, row_pages: null };
}

// Sends `message` and waits for the answer of `type` (the load streams through promises).
async function ask(worker, message, type) {
  const before = worker.messages.length;
  worker.context.onmessage({ data: message });
  for (let turn = 0; turn < 100000; turn++) {
    const answer = worker.messages.slice(before).find((m) => m.type === type || m.type === "error");
    if (answer) {
      assert.notStrictEqual(answer.type, "error", answer.message);
      return answer;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("no " + type);
}

function state(extra) {
  return Object.assign({ id: 1, sort: null, q: "", facets: new Map(), ranges: new Map(), keys: new Map(), page: 1, per: 50 }, extra);
}

function csvField(text) {
  return "\"" + text.replace(/"/g, "\"\"") + "\"";
}

module.exports = { startWorker, explorerModule, column, meta, ask, state, csvField };
