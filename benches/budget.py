"""The cost budget of issue #35, checked on one harness run: the current build against
datapages-old (commit 1598f65), Zola, Hugo and the copy of its own output, workload by workload.

    budget_targets(results, args) -> Markdown lines, one per target: the measured ratio of
    medians, the median of per-round ratios beside it, and met / missed

Targets (all in one run, on every output location measured):
  N=10,000 x R=20    at most 1.0 x Zola and 0.6 x Hugo; at most 2 x `cp -r` of its own output
                     on the journaled file system; peak RSS at most 64 MiB
  N=1,000 x R=200    at most 0.5 x Zola
  N=1 x R=1,000,000  (default cap, --no-cache, every feature on) at most 1.25 x datapages-old
"""
from __future__ import annotations

import statistics

import harness as h  # benches/harness.py: med, Tool


def _tool(group: dict, kind: str):
    return next((t for t in group["tools"] if t.kind == kind and t.samples), None)


def _ratio_line(what: str, dp, peer, loc: str, bound: float, peer_name: str) -> str:
    a, b = dp.samples.get(loc, []), peer.samples.get(loc, [])
    if not a or not b:
        return f"- {what}, output on {loc}: datapages / {peer_name} (≤ {bound}): not measured"
    ratio = h.med(a, 0) / h.med(b, 0)
    pairs = [x[0] / y[0] for x, y in zip(a, b)]
    verdict = "**met**" if ratio <= bound else "**missed**"
    return (f"- {what}, output on {loc}: datapages / {peer_name} = {ratio:.2f} (median of per-round ratios "
            f"{statistics.median(pairs):.2f}; target ≤ {bound}): {verdict}")


def budget_targets(results: dict, args) -> list[str]:
    out: list[str] = []
    for g in results.get("groups", []):
        dp = next((t for t in g["tools"] if t.key == "dp0" and t.samples), None)
        if not dp:
            continue
        wl = f"N={g['n']:,} x R={g['rows']:,}"
        checks: list[tuple[str, float, str, list[str]]] = []
        if (g["n"], g["rows"]) == (10_000, 20):
            checks = [("zola", 1.0, "Zola", args.locations), ("hugo", 0.6, "Hugo", args.locations),
                      ("cp-out", 2.0, "cp -r of its own output", [x for x in args.locations if x == "journal"])]
            peak = max(x[1] for loc in dp.samples for x in dp.samples[loc]) / 1024
            out.append(f"- {wl}: peak RSS {peak:.0f} MiB, the largest of its runs (target ≤ 64 MiB): "
                       + ("**met**" if peak <= 64 else "**missed**"))
        elif (g["n"], g["rows"]) == (1_000, 200):
            checks = [("zola", 0.5, "Zola", args.locations)]
        elif (g["n"], g["rows"]) == (1, 1_000_000):
            checks = [("datapages-old", 1.25, "datapages-old", args.locations)]
        for kind, bound, name, locs in checks:
            peer = _tool(g, kind)
            if not peer:
                out.append(f"- {wl} vs {name} (≤ {bound}): not measured ({name} not run)")
                continue
            for loc in locs:
                out.append(_ratio_line(wl, dp, peer, loc, bound, name))
    return out
