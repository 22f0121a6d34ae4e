#!/usr/bin/env python3
"""Before/after: two datapages binaries on the same workloads, alternating run by run.

    python3 benches/ab.py OLD_BINARY [NEW_BINARY] [--cases n1000,rows1m,rows1m-all] [--runs 7]
                          [--labels old,new]

For a profile's "what changed" numbers: build the earlier commit elsewhere, e.g.
    git archive 23fa7df | tar -x -C /tmp/dp-old && (cd /tmp/dp-old && cargo build --release)
then `python3 benches/ab.py /tmp/dp-old/target/release/datapages`. NEW_BINARY defaults to
target/release/datapages. Workloads, warm-up, the output check, the rotating order and the
disk/tmpfs locations are those of benches/harness.py (it is imported). Prints, per workload and
location, both medians, new / old from the medians and the median of per-round ratios.
The two binaries may write different files (a newer one may write more per dataset); the
table gives each one's output count so the comparison says what it compares.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (benches/harness.py)


def knows_no_cache(binary: str) -> bool:
    """Whether this datapages binary has the scan cache (and so the --no-cache flag)."""
    helped = subprocess.run([binary, "build", "--help"], capture_output=True, text=True)
    return "--no-cache" in helped.stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=os.path.join(harness.REPO, "target", "release", "datapages"))
    ap.add_argument("--cases", default="n1000,rows1m,rows1m-all",
                    help=f"comma-separated, from {', '.join(harness.VARIANTS)} (default n1000,rows1m,rows1m-all)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--labels", default="before,after")
    ap.add_argument("--locations", default="disk,tmpfs")
    args = ap.parse_args(argv)
    old_label, new_label = args.labels.split(",", 1)
    locations = args.locations.split(",")
    binaries = [(old_label, os.path.abspath(args.old)), (new_label, os.path.abspath(args.new))]
    for _, b in binaries:
        if not os.access(b, os.X_OK):
            print(f"missing: {b}")
            return 2
    started = time.perf_counter()
    load_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows_out = []
    for case in args.cases.split(","):
        n, rows, variant = harness.VARIANTS[case]
        site = harness.datapages_site(n, rows, variant.table_rows, variant.parquet)
        tools = []
        for j, (label, binary) in enumerate(binaries):
            # Both binaries do the whole work: builds that know the scan cache skip it
            # (a warm cache only in the rows1m-warm case).
            flags = [] if variant.cache or not knows_no_cache(binary) else ["--no-cache"]
            tools.append(harness.Tool(f"b{j}", label, "datapages",
                                  (lambda b, f: lambda out: [b, "build", "--root", site, "--output", out] + f)(
                                      binary, flags),
                                  check=(f"datasets/dataset-00001/index.html", harness.shown_rows(rows, variant.table_rows) + 1)))
        harness.log(f"\n== {case}: N={n:,} x R={rows:,}" + (f", table_rows = {variant.table_rows}" if variant.table_rows else ""))
        sizes = harness.run_group(f"ab-{case}", tools, args.runs, locations, 1)
        old, new = tools
        for loc in locations:
            mo, mn = harness.med(old.samples[loc], 0), harness.med(new.samples[loc], 0)
            ro, rn = harness.med(old.samples[loc], 1), harness.med(new.samples[loc], 1)
            per_round = statistics.median(b[0] / a[0] for a, b in zip(old.samples[loc], new.samples[loc]))
            rows_out.append(f"| {case} | {loc} | {mo:.3f} ({sizes['b0'][0]:,} files) | {mn:.3f} ({sizes['b1'][0]:,} files) | "
                            f"{mn / mo:.2f} | {per_round:.2f} | {ro / 1024:.0f} → {rn / 1024:.0f} |")
    load_end = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n{args.runs} runs per binary and location, alternating; load average at start {load_start}, at end "
          f"{load_end}; {(time.perf_counter() - started) / 60:.1f} min.\n")
    print(f"| case | output | {old_label}: wall median (s) | {new_label}: wall median (s) | {new_label} / {old_label} "
          f"| median of per-round ratios | peak RSS (MiB) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows_out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
