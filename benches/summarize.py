"""The `check1m` case: a cold `datapages check --no-cache` of the 1,000,000-row site (every
cell checked and every column profiled) beside DuckDB's `SUMMARIZE` of the same CSV, which
computes what the column profiles compute (issue #50: check at most 0.3 x DuckDB in CPU
time, both on 2 threads, in one run).

    run_check_case(args, env) -> {"samples": {"datapages": [...], "duckdb": [...]}}
    check_report(result) -> (Markdown lines of the table, the target's verdict line)

DuckDB runs from the Python package given by --duckdb-python (a python with `duckdb`
installed, e.g. `pip install duckdb==2.0.1` in a venv); without it the case says so and is
left out. CPU time is user + system from GNU time, for both the same way (DuckDB's includes
starting Python and importing the module, about 0.15 s, stated in the table).
"""
from __future__ import annotations

import os
import statistics
import subprocess

import harness as h  # benches/harness.py: datapages_site, GNU_TIME, WORK, log

SUMMARIZE = ("import sys, duckdb; c = duckdb.connect(); c.execute('SET threads TO 2'); "
             "c.execute(\"SUMMARIZE SELECT * FROM read_csv('\" + sys.argv[1] + \"')\").fetchall()")


def _cpu_run(argv: list[str]) -> tuple[float, float, int]:
    """(CPU s, wall s, peak RSS KiB) of one run under GNU time."""
    out = os.path.join(h.WORK, "logs", "check1m-time.txt")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    p = subprocess.run([h.GNU_TIME, "-f", "%U %S %e %M", "-o", out] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit(f"command failed (exit {p.returncode}): {' '.join(argv)}\n{p.stderr[-2000:]}")
    with open(out) as f:
        user, system, wall, rss = f.read().split()[-4:]
    return float(user) + float(system), float(wall), int(rss)


def run_check_case(args, env) -> dict | None:
    if not args.duckdb_python:
        h.log("missing: --duckdb-python (a python with the duckdb package); the check1m case is left out")
        return None
    site = h.datapages_site(1, 1_000_000, None)
    csv = os.path.join(site, "data", "datasets", "dataset-00001.csv")
    tools = {"datapages": [env["datapages"], "check", "--root", site, "--no-cache"],
             "duckdb": [args.duckdb_python, "-c", SUMMARIZE, csv]}
    h.log(f"\n== check1m: datapages check --no-cache vs DuckDB SUMMARIZE, {args.runs} runs each, alternating")
    samples: dict[str, list[tuple[float, float, int]]] = {k: [] for k in tools}
    for i in range(args.runs + 1):  # the first round warms the page cache and is not kept
        order = list(tools) if i % 2 == 0 else list(reversed(tools))
        for name in order:
            measured = _cpu_run(tools[name])
            if i > 0:
                samples[name].append(measured)
            h.log(f"  [check1m {'warm-up' if i == 0 else f'run {i}'}] {name:<10} CPU {measured[0]:.2f} s, "
                  f"wall {measured[1]:.2f} s")
    version = h.run_quiet([args.duckdb_python, "-c", "import duckdb; print(duckdb.__version__)"]).stdout.strip()
    return {"samples": samples, "duckdb_version": version}


def check_report(result: dict) -> tuple[list[str], list[str]]:
    s = result["samples"]
    med = lambda name, i: statistics.median(x[i] for x in s[name])
    lines = ["### check of 1,000,000 rows against DuckDB's SUMMARIZE", "",
             f"Cold `datapages check --no-cache` of the 1,000,000-row site and DuckDB {result['duckdb_version']}'s "
             "`SUMMARIZE SELECT * FROM read_csv(...)` of its CSV (2 threads, from Python: its CPU time includes "
             "starting Python and importing duckdb), alternating; medians.", "",
             "| tool | CPU (user + sys, s) | wall (s) | peak RSS (MiB) |", "|---|---:|---:|---:|"]
    for name in s:
        lines.append(f"| {name} | {med(name, 0):.2f} | {med(name, 1):.2f} | {med(name, 2) / 1024:.0f} |")
    ratio = med("datapages", 0) / med("duckdb", 0)
    pairs = [a[0] / b[0] for a, b in zip(s["datapages"], s["duckdb"])]
    target = (f"- Cold check of 1,000,000 rows: CPU datapages / DuckDB SUMMARIZE = {ratio:.2f} (median of "
              f"per-round ratios {statistics.median(pairs):.2f}; target ≤ 0.3): "
              + ("**met**" if ratio <= 0.3 else "**missed**"))
    return lines + [""], [target]
