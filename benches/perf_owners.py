#!/usr/bin/env python3
"""Who pays for the hottest leaf functions of a perf profile.

    python3 benches/perf_owners.py perf.data [--top 25] [--tid 1234]

Reads `perf script` (DWARF call graphs, as benches/profile.sh records them) and, for every
sample, takes its leaf function (where the CPU was) and its owner: the innermost frame
that is datapages' own code (`datapages::...`, closures and generics included). Prints the
(leaf, owner) pairs with the largest share of all samples, then the owners' totals (self
time gathered to our innermost function), then our functions' inclusive shares, so that
"memmove 6 %" becomes "memmove under output::PendingFile::abandon 1 %". A sample with no
datapages frame (kernel work on behalf of nothing, or a stack cut short) has owner "-".
"""
from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys

FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)\s*$")


def short(sym: str) -> str:
    sym = re.sub(r"<[^<>]*>", "", sym)  # generic arguments, innermost first
    sym = re.sub(r"<[^<>]*>", "", sym)
    sym = re.sub(r"\{closure[^}]*\}", "{closure}", sym)
    return sym[:90]


def own(frame: str) -> str | None:
    """The datapages function a frame is in, or None (generic code instantiated with a
    datapages type, e.g. csv::Reader<HashingReader>, belongs to the crate, not to us)."""
    if frame.startswith("datapages::"):
        name = frame
    elif frame.startswith("<datapages::"):
        name = frame[1:]
    else:
        return None
    name = re.split(r"[<(]| as ", name)[0].rstrip(":")
    return name.removeprefix("datapages::")


def owner_of(frames: list[str]) -> str:
    for f in frames:
        name = own(f)
        if name:
            return name
    return "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--tid", help="only these threads (comma-separated thread ids; see `perf script -F tid`)")
    args = ap.parse_args()
    p = subprocess.run(["perf", "script", "-i", args.data, "-F", "comm,tid,ip,sym,dso"]
                       + (["--tid", args.tid] if args.tid else []),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
    pairs: collections.Counter = collections.Counter()
    owners: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    total = 0
    frames: list[str] = []

    def flush():
        nonlocal total, frames
        if frames:
            leaf = short(frames[0])
            owner = owner_of(frames)
            pairs[(leaf, owner)] += 1
            owners[owner] += 1
            for name in {n for n in map(own, frames) if n}:
                inclusive[name] += 1
            total += 1
        frames = []

    for line in p.stdout.splitlines():
        if not line.strip():
            flush()
            continue
        m = FRAME.match(line)
        if m:
            frames.append(m.group(1))
        else:
            flush()  # a sample header line
    flush()
    if not total:
        print("no samples")
        return 1
    print(f"{total} samples\n")
    print("| share | leaf (self time) | owner (innermost datapages frame) |")
    print("|---:|---|---|")
    for (leaf, owner), n in pairs.most_common(args.top):
        print(f"| {100 * n / total:.1f} % | `{leaf}` | `{owner}` |")
    print("\n| share | owner: all samples under it, innermost datapages frame |")
    print("|---:|---|")
    for owner, n in owners.most_common(args.top):
        print(f"| {100 * n / total:.1f} % | `{owner}` |")
    print("\n| share | datapages function, inclusive (samples with it anywhere on the stack) |")
    print("|---:|---|")
    for name, n in inclusive.most_common(args.top):
        print(f"| {100 * n / total:.1f} % | `{name}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
