#!/usr/bin/env python3
"""Byte-identical output: two datapages binaries build the same sites; every file compared.

    python3 benches/identical.py BEFORE [AFTER] [--sites bundled,n1000,n10k,rows1m]
                                 [--allow 'data/datasets/*.parquet']

For a change that is not meant to alter the output (a refactoring, a speed-up): build the
earlier commit elsewhere, e.g.
    git worktree add /tmp/dp-before <commit> && (cd /tmp/dp-before && cargo build --release)
then `python3 benches/identical.py /tmp/dp-before/target/release/datapages`. AFTER defaults to
target/release/datapages. The sites are the bundled one (this repository) and the harness's
workloads (benches/harness.py generates them once into /tmp/datapages-bench). Each is built
with `--no-cache` into its own folder per binary; the trees are compared as `diff -r` would
(names and bytes), and the differing paths are listed. `--allow` names shell patterns of
paths that may differ (say why in the commit). Exit status 1 when anything else differs.
"""
from __future__ import annotations

import argparse
import filecmp
import fnmatch
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (benches/harness.py)

SITES = {
    "bundled": None,
    "n1000": (1000, 200),
    "n10k": (10_000, 20),
    "rows1m": (1, 1_000_000),
}


def site_root(name: str) -> str:
    """The site folder of `name`: this repository's, or a harness workload."""
    if SITES[name] is None:
        return harness.REPO
    n, rows = SITES[name]
    return harness.datapages_site(n, rows, None)


def build(binary: str, root: str, out: str) -> None:
    """One --no-cache build of `root` into `out` (a failed build stops the comparison)."""
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run([binary, "build", "--root", root, "--output", out, "--no-cache"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{binary} failed to build {root}:\n{done.stderr}")


def differences(a: str, b: str, prefix: str = "") -> list[str]:
    """Relative paths that are in one tree only, or whose bytes differ."""
    found: list[str] = []
    cmp = filecmp.dircmp(a, b)
    found += [f"only in before: {prefix}{n}" for n in cmp.left_only]
    found += [f"only in after: {prefix}{n}" for n in cmp.right_only]
    for name in cmp.common_files:
        if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
            found.append(f"differs: {prefix}{name}")
    for name in cmp.common_dirs:
        found += differences(os.path.join(a, name), os.path.join(b, name), f"{prefix}{name}/")
    return found


def allowed(line: str, patterns: list[str]) -> bool:
    path = line.split(": ", 1)[1]
    return any(fnmatch.fnmatch(path, p) for p in patterns)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default=os.path.join(harness.REPO, "target", "release", "datapages"))
    ap.add_argument("--sites", default="bundled,n1000,n10k,rows1m",
                    help=f"comma-separated, from {', '.join(SITES)}")
    ap.add_argument("--allow", action="append", default=[],
                    help="a shell pattern of output paths that may differ (repeatable)")
    ap.add_argument("--work", default=None, help="folder for the outputs (default: a temporary one)")
    args = ap.parse_args(argv)
    work = args.work or tempfile.mkdtemp(prefix="datapages-identical-")
    failed = False
    for name in args.sites.split(","):
        root = site_root(name)
        before, after = os.path.join(work, name, "before"), os.path.join(work, name, "after")
        build(args.before, root, before)
        build(args.after, root, after)
        found = differences(before, after)
        files = sum(len(f) for _, _, f in os.walk(after))
        unexpected = [d for d in found if not allowed(d, args.allow)]
        print(f"{name}: {files} files, {len(found) - len(unexpected)} allowed differences, "
              f"{len(unexpected)} unexpected")
        for line in unexpected[:20]:
            print(f"  {line}")
        failed |= bool(unexpected)
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
