// A harness for the explorer's worker (static/explore-worker.js) in Node: a context of its
// own per worker, with fetch streaming a CSV in chunks of a chosen size and postMessage
// collecting what it says; the messages a test sends and the column and page state it
// describes. Used by explore-worker.test.js and cells-conformance.test.js.
"use strict";

const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const STATIC = path.join(__dirname, "..", "..", "static");

// A worker reading `csv` (a string) in `chunk`-byte pieces; `counted` lists functions of
// the worker whose work (bytes scanned or copied) is added up in `worker.work`.
function startWorker(csv, chunk, counted) {
  const bytes = new TextEncoder().encode(csv);
  const messages = [];
  const context = {
    TextDecoder,
    // As a real worker's messages are, each is a copy (and then of this realm's types).
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
  context.self = context;
  context.importScripts = (...names) => {
    for (const name of names) vm.runInContext(fs.readFileSync(path.join(STATIC, name), "utf8"), context, { filename: name });
  };
  vm.createContext(context);
  vm.runInContext(fs.readFileSync(path.join(STATIC, "explore-worker.js"), "utf8"), context, { filename: "explore-worker.js" });
  const worker = { context, messages, work: 0 };
  for (const [name, measure] of Object.entries(counted || {})) {
    const inner = context[name];
    context[name] = function () {
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
  return Object.assign({ id: 1, sort: null, q: "", facets: new Map(), ranges: new Map(), page: 1, per: 50 }, extra);
}

function csvField(text) {
  return "\"" + text.replace(/"/g, "\"\"") + "\"";
}

module.exports = { startWorker, column, meta, ask, state, csvField };
