#!/usr/bin/env python3
"""What each optional output costs in build time: the benchmark site of N datasets x R rows
built with every default, and with one setting changed at a time, the builds alternating.

    python3 benches/costs.py [--n 1000] [--rows 20] [--runs 5] [--datapages BIN] [--out DIR]

Each build is `datapages build --no-cache` (every cell checked, every file written) into a
fresh folder under --out (default /dev/shm/datapages-costs, tmpfs), removed between runs and
not timed. Wall time is measured around the process, CPU time (user + system) from the
child's resource usage. The table gives medians and their difference from the default
build, with the output's files and bytes: docs/content-format.md's "build time" column.
The outputs without a setting (the page, the CSV, the Data Package, CSVW and Croissant
files) are not here: a build cannot leave them out.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402  benches/harness.py: workloads, the binary's default path

# (label, site.toml line) in the order of the docs' table; None: every default.
SETTINGS = [
    ("every default", None),
    ("Parquet copy of every CSV", "parquet = true"),
    ("RIS and CFF files", "citation_files = true"),
    ("DCAT JSON-LD beside Turtle", 'dcat = ["turtle", "jsonld"]'),
    ("histograms of every number column", "histogram_min_values = 0"),
    ("no explorer", "explore = false"),
]


def site_with(base: str, line: str | None, folder: str) -> str:
    """A copy of `base` (CSVs hard-linked) with `line` as site.toml's first line."""
    if line is None:
        return base
    if os.path.exists(folder):
        shutil.rmtree(folder)
    shutil.copytree(base, folder, copy_function=os.link,
                    ignore=shutil.ignore_patterns(".datapages-cache", ".bench-stamp"))
    toml = os.path.join(folder, "site.toml")
    os.unlink(toml)  # a hard link: write a file of its own
    with open(os.path.join(base, "site.toml"), encoding="utf-8") as f:
        text = f.read()
    with open(toml, "w", encoding="utf-8") as f:
        f.write(line + "\n" + text)
    return folder


def timed_build(binary: str, site: str, out: str) -> tuple[float, float]:
    """Wall and CPU seconds of one clean build of `site` into `out`."""
    if os.path.exists(out):
        shutil.rmtree(out)
    started = time.perf_counter()
    child = subprocess.Popen([binary, "build", "--root", site, "--output", out, "--no-cache"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    stderr = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"build of {site} failed:\n{stderr[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def output_size(folder: str) -> tuple[int, int]:
    files = size = 0
    for base, _, names in os.walk(folder):
        for name in names:
            files += 1
            size += os.lstat(os.path.join(base, name)).st_size
    return files, size


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000, help="datasets (default 1000)")
    ap.add_argument("--rows", type=int, default=20, help="rows per dataset (default 20)")
    ap.add_argument("--runs", type=int, default=5, help="timed builds per setting (default 5)")
    ap.add_argument("--datapages", default=os.path.join(h.REPO, "target", "release", "datapages"))
    ap.add_argument("--out", default="/dev/shm/datapages-costs", help="where the outputs go")
    a = ap.parse_args(argv)
    base = h.datapages_site(a.n, a.rows, None)
    os.makedirs(a.out, exist_ok=True)
    # The copies beside the base site (hard links need one file system); outputs under --out.
    sites = [(label, line, site_with(base, line, f"{h.WORK}/costs-{a.n}-{a.rows}-{i}"))
             for i, (label, line) in enumerate(SETTINGS)]
    out = os.path.join(a.out, "public")
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in SETTINGS}
    sizes: dict[str, tuple[int, int]] = {}
    for label, _, site in sites:  # a warm-up run each, which also measures the output
        timed_build(a.datapages, site, out)
        sizes[label] = output_size(out)
    for round_ in range(a.runs):
        order = sites[round_ % len(sites):] + sites[:round_ % len(sites)]
        for label, _, site in order:
            samples[label].append(timed_build(a.datapages, site, out))
    shutil.rmtree(out, ignore_errors=True)
    wall0 = statistics.median(w for w, _ in samples["every default"])
    cpu0 = statistics.median(c for _, c in samples["every default"])
    files0, bytes0 = sizes["every default"]
    print(f"N={a.n:,} x R={a.rows:,}, {a.runs} builds per setting after a warm-up, alternating; medians; "
          f"output on {a.out}; load average at the end {os.getloadavg()[0]:.2f}")
    print()
    print("| setting | wall (s) | CPU (s) | wall vs default | CPU vs default | files | MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, line, _ in sites:
        wall = statistics.median(w for w, _ in samples[label])
        cpu = statistics.median(c for _, c in samples[label])
        files, size = sizes[label]
        what = label if line is None else f"{label} (`{line}`)"
        print(f"| {what} | {wall:.3f} | {cpu:.2f} | {wall - wall0:+.3f} | {cpu - cpu0:+.2f} | "
              f"{files:,} ({files - files0:+,}) | {size / 1e6:.1f} ({(size - bytes0) / 1e6:+.1f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
