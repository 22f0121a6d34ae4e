"""The catalog cases of the harness (issue #16), run from benches/run.py:

  n10k, n100k   N=10,000 x R=20 and N=100,000 x R=5 clean builds beside Zola, Hugo and cp -r
                (ordinary workload groups in run.py; peers that take over 10 minutes are
                recorded as not finishing)
  rebuild       datapages alone on a copy of the N=10,000 x R=20 site with the theme ejected
                (so a template can be edited): per round, a clean build (output folder and
                scan cache removed first), then into the same output: a build with nothing
                changed, a build after one dataset's CSV cell changed, a build after one
                template changed
  catalog-rss   datapages peak RSS at N=1,000 x R=20, N=10,000 x R=20 and N=100,000 x R=5,
                and the largest listing page of the N=100,000 output
  serve-n10k    `datapages serve` on the N=10,000 x R=20 site: one dataset's Markdown and
                CSV edits, reload latency, pages re-rendered, server peak RSS

Each function returns Markdown lines for BENCHMARKS.md; `targets` checks the issue's targets.
"""
from __future__ import annotations

import os
import shutil
import statistics
import time

import harness as h  # benches/harness.py: the helpers shared with run.py

REBUILD_SLUG = "dataset-05000"
REBUILD_STEPS = [("clean", "clean build (no output, no cache)"),
                 ("same", "rebuild, nothing changed"),
                 ("csv", "rebuild, one dataset's CSV cell changed"),
                 ("template", "rebuild, one template changed")]


def run_cases(cases: list[str], results: dict, args, env) -> list[str]:
    lines: list[str] = []
    if "rebuild" in cases:
        results["rebuild"] = rebuild_case(args, env)
        lines += rebuild_report(results["rebuild"], args)
    if "catalog-rss" in cases:
        results["catalog_rss"] = catalog_rss_case(args, env)
        lines += catalog_rss_report(results["catalog_rss"], args)
    if "serve-n10k" in cases:
        results["serve_n10k"] = serve_case(args, env)
        lines += serve_report(results["serve_n10k"], args)
    return lines


# ------------------------------------------------------------------ rebuilds

def copied_site(n: int, rows: int, name: str) -> str:
    """A private copy of a converted site (files copied, not linked: the case edits them)."""
    folder = f"{h.WORK}/{name}"
    h.rm(folder)
    shutil.copytree(h.datapages_site(n, rows, None), folder, copy_function=shutil.copyfile,
                    ignore=shutil.ignore_patterns(".bench-stamp", ".datapages-cache"))
    return folder


def template_editor(site: str):
    """Appends an HTML comment naming the edit to the ejected base template, so every page's
    bytes change; returns (edit(i), restore)."""
    templates = os.path.join(site, "templates")
    name = "base.html" if os.path.exists(os.path.join(templates, "base.html")) else sorted(os.listdir(templates))[0]
    path = os.path.join(templates, name)
    with open(path, encoding="utf-8") as f:
        original = f.read()

    def edit(i: int) -> str:
        marker = f"<!-- bench template edit {i} -->"
        h.write_in_place(path, (original.replace("</body>", marker + "</body>", 1)).encode("utf-8"))
        return marker
    return edit, lambda: h.write_in_place(path, original.encode("utf-8"))


def rebuild_case(args, env) -> dict:
    h.log("\n== rebuild: N=10,000 x R=20, clean build vs rebuilds into the previous output")
    site = copied_site(10_000, 20, "rebuild-site")
    p = h.run_quiet([env["datapages"], "eject", "--root", site])
    if p.returncode:
        raise SystemExit(f"datapages eject failed: {p.stderr[-2000:]}")
    csv_edit, csv_restore = h.csv_editor(f"{site}/data/datasets/{REBUILD_SLUG}.csv")
    tpl_edit, tpl_restore = template_editor(site)
    log_dir = f"{h.WORK}/logs"
    os.makedirs(log_dir, exist_ok=True)
    samples: dict = {loc: {k: [] for k, _ in REBUILD_STEPS} for loc in args.locations}
    reused: dict = {loc: {} for loc in args.locations}
    build = lambda out: [env["datapages"], "build", "--root", site, "--output", out]
    try:
        for i in range(args.runs + 1):  # round 0 is the warm-up
            locs = args.locations if i % 2 == 0 else list(reversed(args.locations))
            for loc in locs:
                os.makedirs(h.OUT_LOCATIONS[loc], exist_ok=True)
                out = os.path.join(h.OUT_LOCATIONS[loc], "rebuild")
                h.rm(os.path.join(site, ".datapages-cache"))
                on_disk = loc != "tmpfs"
                for key, _ in REBUILD_STEPS:
                    if key == "csv":
                        csv_edit(i + 1)
                    elif key == "template":
                        tpl_edit(i + 1)
                    before = h.output_snapshot(out) if key != "clean" else {}
                    wall, rss = h.timed_run(build(out), out, on_disk, log_dir, fresh=(key == "clean"))
                    after = h.output_snapshot(out)
                    kept = sum(1 for p, st in after.items() if before.get(p, (None,))[0] == st[0])
                    tag = "warm-up" if i == 0 else f"run {i}/{args.runs}"
                    h.log(f"  [rebuild {loc:<7} {tag}] {key:<8} {wall:7.3f} s {rss / 1024:6.0f} MiB; "
                          f"files kept (same inode) {kept:,} of {len(after):,}")
                    if i:
                        samples[loc][key].append((wall, rss))
                        reused[loc].setdefault(key, []).append((kept, len(after)))
                csv_restore()
                tpl_restore()
    finally:
        csv_restore()
        tpl_restore()
        for loc in args.locations:
            h.rm(os.path.join(h.OUT_LOCATIONS[loc], "rebuild"))
    return {"samples": samples, "reused": reused}


def rebuild_report(r: dict, args) -> list[str]:
    lines = ["### Rebuilds: N=10,000 x R=20", "",
             "datapages alone, the theme ejected into the site (so a template can change). Per round: a clean "
             "build (output folder and scan cache removed first), then three builds into the same output: nothing "
             "changed; one dataset's CSV cell changed; one template changed (an HTML comment added to the base "
             "template, so every page's bytes change). \"Files kept\" counts output files whose inode survived the "
             "build (reused, not rewritten).", "",
             "| output | build | wall median (s) | ratio to the clean build | peak RSS (MiB) | files kept / files |",
             "|---|---|---:|---:|---:|---:|"]
    for loc in args.locations:
        s = r["samples"][loc]
        clean = h.med(s["clean"], 0)
        for key, label in REBUILD_STEPS:
            w = h.med(s[key], 0)
            kept = r["reused"][loc].get(key, [])
            k = f"{statistics.median(x[0] for x in kept):,.0f} / {statistics.median(x[1] for x in kept):,.0f}" \
                if kept and key != "clean" else "—"
            lines.append(f"| {loc} | {label} | {h.fmt_s(w)} | {h.fmt_ratio(w / clean) if clean else '—'} | "
                         f"{h.mib(h.med(s[key], 1))} | {k} |")
    return lines + [""]


# ------------------------------------------------------------------ memory

def largest_html(folder: str) -> tuple[int, str]:
    best = (0, "")
    for base, _, names in os.walk(folder):
        for n in names:
            if n.endswith(".html"):
                p = os.path.join(base, n)
                size = os.path.getsize(p)
                if size > best[0] and "/datasets/dataset-" not in p.replace(folder, ""):
                    best = (size, os.path.relpath(p, folder))
    return best


def catalog_rss_case(args, env) -> dict:
    h.log("\n== catalog-rss: datapages peak RSS at N=1,000 x R=20, N=10,000 x R=20, N=100,000 x R=5")
    tools = []
    for n, rows in ((1_000, 20), (10_000, 20), (100_000, 5)):
        site = h.datapages_site(n, rows, None)
        tools.append(h.Tool(f"n{n}", f"datapages N={n:,} x R={rows}", "datapages",
                            (lambda s: lambda out: [env["datapages"], "build", "--root", s, "--output", out,
                                                    "--no-cache"])(site)))
    loc = args.locations[-1]
    h.run_group("catalog-rss", tools, args.runs, [loc], args.warmup)
    out = os.path.join(h.OUT_LOCATIONS[loc], "catalog-rss-largest")
    h.timed_run(tools[-1].make_cmd(out), out, loc != "tmpfs", f"{h.WORK}/logs")
    size, page = largest_html(out)
    h.rm(out)
    return {"tools": tools, "loc": loc, "largest": (size, page)}


def catalog_rss_report(r: dict, args) -> list[str]:
    lines = ["### Memory across catalog sizes", "",
             f"datapages alone, `--no-cache`, output on {r['loc']}; peak RSS from GNU time.", "",
             "| workload | wall median (s) | peak RSS median (MiB) | peak RSS max (MiB) |", "|---|---:|---:|---:|"]
    for t in r["tools"]:
        s = t.samples.get(r["loc"], [])
        lines.append(f"| {t.label} | {h.fmt_s(h.med(s, 0))} | {h.mib(h.med(s, 1))} | "
                     f"{h.mib(max(x[1] for x in s)) if s else '—'} |")
    size, page = r["largest"]
    lines += ["", f"Largest HTML page of the N=100,000 output other than a dataset's own page: `{page}`, "
                  f"{size / 1000:.0f} kB.", ""]
    return lines


# ------------------------------------------------------------------ serve

def serve_case(args, env) -> dict:
    h.log(f"\n== serve-n10k: reload latency on N=10,000 x R=20, {args.serve_edits} edits per case")
    site = copied_site(10_000, 20, "serve-n10k-site")
    out = f"{h.WORK}/serve-n10k-out"
    h.rm(out)
    server = h.ServeProcess(env["datapages"], "n10k", site, out)
    cases = [h.ServeCase("n10k-md", "N=10,000 x R=20, Markdown lede of one dataset", server, REBUILD_SLUG,
                         *h.lede_editor(f"{site}/content/datasets/{REBUILD_SLUG}.md")),
             h.ServeCase("n10k-csv", "N=10,000 x R=20, CSV of one dataset (one cell)", server, REBUILD_SLUG,
                         *h.csv_editor(f"{site}/data/datasets/{REBUILD_SLUG}.csv"))]
    try:
        h.log(f"  [serve n10k] {server.build_line}")
        for rnd in range(args.serve_warmup + args.serve_edits):
            for case in cases[rnd % 2:] + cases[:rnd % 2]:
                r = h.serve_one_edit(case, rnd + 1)
                why = h.edit_ok(r)
                h.log(f"  [serve {case.key} edit {rnd + 1}] poll {r['latency'] * 1000:6.1f} ms; server: {r['line']}"
                      + (f"  ** {why}" if why else ""))
                if rnd < args.serve_warmup:
                    continue
                (case.failures.append(why) if why else case.samples.append(r))
        for case in cases:
            case.restore()
        time.sleep(0.5)
        server.drain()
        hwm = server.vm_kib("VmHWM")
        rc, stopped = server.stop()
    finally:
        server.kill()
    return {"cases": cases, "hwm": hwm, "full_pages": server.full_pages, "rc": rc, "stopped": stopped}


def serve_report(r: dict, args) -> list[str]:
    lines = ["### serve at N=10,000 x R=20", "",
             "| edit | valid edits | write → reload median / p90 (ms) | server's rebuild median (ms) | "
             "pages re-rendered | HTML files replaced | server peak RSS (MiB) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for c in r["cases"]:
        s = c.samples
        if not s:
            lines.append(f"| {c.label} | 0 | — | — | — | — | {r['hwm'] / 1024:.0f} |")
            continue
        lat = [x["latency"] * 1000 for x in s]
        lines.append(f"| {c.label} | {len(s)} | {statistics.median(lat):.1f} / {h.pct(lat, 0.9):.1f} | "
                     f"{statistics.median(x['server_ms'] for x in s):.0f} | "
                     f"{max(x['pages'] for x in s)} of {r['full_pages']} | {max(x['html_rewritten'] for x in s)} | "
                     f"{r['hwm'] / 1024:.0f} |")
    return lines + [""]


# ------------------------------------------------------------------ targets

def targets(results: dict, args) -> list[str]:
    out: list[str] = []
    verdict = lambda ok: "**met**" if ok else "**missed**"
    # N=10,000 against Zola, Hugo and the copy floor: benches/budget.py (issue #50's targets).
    for g in results.get("groups", []):
        if (g["n"], g["rows"]) != (100_000, 5):
            continue
        dp = next(t for t in g["tools"] if t.kind == "datapages")
        peak = max(x[1] for loc in dp.samples for x in dp.samples[loc]) / 1024
        out.append(f"- N=100,000 x R=5: builds; peak RSS {peak:.0f} MiB, the largest of its runs "
                   f"(target < 1,024 MiB): {verdict(peak < 1024)}")
    rb = results.get("rebuild")
    if rb:
        for loc in args.locations:
            s = rb["samples"][loc]
            clean = h.med(s["clean"], 0)
            # Nothing changed: issue #50 (0.05, and nothing written); one dataset: the catalog issue's.
            for key, bound in (("same", 0.05), ("csv", 0.15)):
                ratio = h.med(s[key], 0) / clean
                what = "nothing changed" if key == "same" else "one dataset changed"
                out.append(f"- N=10,000 rebuild, {what}, output on {loc}: {ratio:.3f} of the clean build "
                           f"(target ≤ {bound}): {verdict(ratio <= bound)}")
            kept = rb["reused"][loc].get("same", [])
            if kept:
                untouched = all(k == n for k, n in kept)
                out.append(f"- N=10,000 rebuild, nothing changed, output on {loc}: every output file kept "
                           f"(same inode) in {sum(k == n for k, n in kept)} of {len(kept)} rounds (target: "
                           f"nothing written): {verdict(untouched)}")
    cr = results.get("catalog_rss")
    if cr:
        by = {t.key: h.med(t.samples.get(cr["loc"], []), 1) for t in cr["tools"]}
        ratio = by["n10000"] / by["n1000"]
        out.append(f"- Peak RSS N=10,000 / N=1,000 (R=20) = {by['n10000'] / 1024:.0f} / {by['n1000'] / 1024:.0f} MiB "
                   f"= {ratio:.2f} (target ≤ 1.5): {verdict(ratio <= 1.5)}")
        size, page = cr["largest"]
        out.append(f"- N=100,000: largest listing page {size / 1000:.0f} kB (`{page}`; target ≤ 500 kB): "
                   f"{verdict(size <= 500_000)}")
    sv = results.get("serve_n10k")
    if sv:
        for c in sv["cases"]:
            if c.samples:
                m = statistics.median(x["latency"] * 1000 for x in c.samples)
                out.append(f"- serve, {c.label}: write → reload median {m:.1f} ms (target < 150 ms): "
                           f"{verdict(m < 150)}; server peak RSS {sv['hwm'] / 1024:.0f} MiB")
            else:
                out.append(f"- serve, {c.label}: no valid edit ({'; '.join(c.failures[:2])})")
    return out
