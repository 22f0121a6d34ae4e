#!/usr/bin/env python3
"""The in-page explorer (static/explore.js, #37): time to the first interactive view and
peak private memory of the browser (all its processes: the page, its worker, the rest) for generated
datasets of 10 columns (4 numbers, a date, 5 text columns of which 3 have few values) at
10,000 / 100,000 / 1,000,000 rows, then the first sort by a number column and by a text column
of all-distinct values, and two searches. Not a test: it prints a table (and --out-md writes it).

Drives headless Chromium through chromedriver's W3C HTTP API (no Python packages needed),
serves the built site with Python's http.server on 127.0.0.1, and samples the RSS of
Chromium's processes from /proc every 20 ms while the rows load (RssAnon + RssShmem).

    cargo build --release
    python3 benches/explorer.py                      # 10k, 100k, 1M
    python3 benches/explorer.py --rows 10000 --runs 3
"""

import argparse
import functools
import http.server
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

FRONT = """+++
title = "Explorer benchmark"
kicker = "generated"
headline = "A generated table of ten columns"
[[sources]]
id = "gen"
title = "Generated"
{columns}+++

The lede.

## Method

Generated.
"""

COLUMNS = [("id", "string"), ("kind", "string"), ("region", "string"), ("flag", "string"),
           ("a", "number"), ("b", "number"), ("c", "integer"), ("d", "number"),
           ("day", "date"), ("note", "string")]


def write_site(root, rows):
    os.makedirs(os.path.join(root, "content/datasets"), exist_ok=True)
    os.makedirs(os.path.join(root, "data/datasets"), exist_ok=True)
    with open(os.path.join(root, "site.toml"), "w") as f:
        f.write('title = "Bench"\nbase_url = "https://example.org/"\n[author]\nname = "B"\n[license]\nname = "CC0 1.0"\n')
    columns = "".join(f'[[columns]]\nname = "{n}"\ntitle = "{n.upper()}"\ntype = "{t}"\ndescription = "d"\n' for n, t in COLUMNS)
    with open(os.path.join(root, "content/datasets/bench.md"), "w") as f:
        f.write(FRONT.format(columns=columns))
    rng = random.Random(7)
    kinds = ["alpha", "beta", "gamma", "delta", "epsilon"]
    regions = [f"region {i}" for i in range(30)]
    with open(os.path.join(root, "data/datasets/bench.csv"), "w", newline="") as f:
        f.write(",".join(n for n, _ in COLUMNS) + "\n")
        for n in range(1, rows + 1):
            # Every id different, in no order (n * 7919 mod a prime over 1,000,000).
            f.write(f"R{n * 7919 % 1_000_003},{rng.choice(kinds)},{rng.choice(regions)},{'yes' if n % 3 else 'no'},"
                    f"{rng.uniform(-1e4, 1e6):.2f},{rng.random():.6f},{rng.randint(0, 100000)},"
                    f"{'' if n % 29 == 0 else f'{rng.uniform(0, 500):.1f}'},"
                    f"2021-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d},note {n % 977}\n")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.load(response)["value"]


def renderer_rss_kib(profile):
    """Private memory (RssAnon + RssShmem: the heaps, not the mapped program files) of the
    Chromium started with `profile`: its browser process and every descendant (renderer,
    GPU, utility); other Chromiums on the machine are not counted."""
    parents, cmdlines = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                parents[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdlines[int(pid)] = f.read()
        except OSError:
            continue
    mine = {pid for pid, cmd in cmdlines.items() if profile.encode() in cmd}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in mine and pid not in mine}
        mine |= more
        grew = bool(more)
    total = 0
    for pid in mine:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith(("RssAnon:", "RssShmem:")):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


# An async script's start: `wait()` calls back with the milliseconds since `t` once the
# explorer is no longer busy.
UNTIL_IDLE = ("var done = arguments[arguments.length - 1]; var t = performance.now();"
              "function wait() { if (document.getElementById('explore').hasAttribute('aria-busy')) return setTimeout(wait, 5);"
              " done(performance.now() - t); }")


def measure(url, driver):
    profile = tempfile.mkdtemp(prefix="explorer-bench-profile-")
    caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
        "binary": CHROMIUM, "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                     "--disable-extensions", f"--user-data-dir={profile}"]}}}}
    session = call(driver, "POST", "/session", caps)["sessionId"]
    base = f"/session/{session}"
    try:
        call(driver, "POST", base + "/url", {"url": url})
        idle = renderer_rss_kib(profile)
        call(driver, "POST", base + "/execute/sync", {"script": "window.__t0 = performance.now(); document.querySelector('.explore-start').click();", "args": []})
        peak = idle
        ready = None
        while ready is None:
            peak = max(peak, renderer_rss_kib(profile))
            ready = call(driver, "POST", base + "/execute/sync", {"script":
                "var c = document.querySelector('.explore-count'); var b = document.getElementById('explore');"
                "if (!c || !c.textContent || b.hasAttribute('aria-busy')) return null;"
                "return [performance.now() - window.__t0, +b.getAttribute('data-loaded-ms'), c.textContent];", "args": []})
            time.sleep(0.02)
        # One sort by a number column over every row, after loading.
        sort = call(driver, "POST", base + "/execute/async", {"script":
            "var done = arguments[0]; var t = performance.now();"
            "[].filter.call(document.querySelectorAll('.explore-table .sort-button'), function (b) { return b.textContent === 'A'; })[0].click();"
            "(function poll() { if (document.getElementById('explore').hasAttribute('aria-busy')) return setTimeout(poll, 5); done(performance.now() - t); })();",
            "args": []})
        peak = max(peak, renderer_rss_kib(profile))
        # The first sort by the id column (every value different, in no order) in the reader's
        # collation, then searches: a number as shown (grouped: every row's cells of the
        # number columns formatted), and a word no number can hold (text columns only).
        # Each timed from the click or the search's start (after its 200 ms typing pause).
        text_sort = call(driver, "POST", base + "/execute/async", {"script": UNTIL_IDLE +
            "[].filter.call(document.querySelectorAll('.explore-table .sort-button'), function (b) { return b.textContent === 'ID'; })[0].click(); wait();",
            "args": []})
        peak = max(peak, renderer_rss_kib(profile))
        searches = [call(driver, "POST", base + "/execute/async", {"script": UNTIL_IDLE +
            "var q = document.getElementById('explore-q'); q.value = arguments[0]; q.dispatchEvent(new Event('input'));"
            "setTimeout(function () { t = performance.now(); wait(); }, 201);", "args": [word]})
            for word in ("123,4", "epsilon")]
        peak = max(peak, renderer_rss_kib(profile))
        return {"interactive_ms": ready[0], "worker_ms": ready[1], "count": ready[2], "sort_ms": sort,
                "text_sort_ms": text_sort, "number_search_ms": searches[0], "word_search_ms": searches[1],
                "idle_mib": idle / 1024, "peak_mib": peak / 1024}
    finally:
        call(driver, "DELETE", base)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/datapages"))
    parser.add_argument("--out-md")
    args = parser.parse_args()
    for tool in (CHROMIUM, CHROMEDRIVER, args.binary):
        if not os.path.exists(tool):
            sys.exit(f"missing: {tool}")
    port = free_port()
    driver_proc = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = f"http://127.0.0.1:{port}"
    lines = ["| rows | CSV | first interactive view | of which the worker's read | sort by a number | sort by distinct text | search a shown number | search a word | browser memory before | peak | peak - before |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    try:
        for _ in range(100):
            try:
                if call(driver, "GET", "/status")["ready"]:
                    break
            except OSError:
                time.sleep(0.1)
        for rows in args.rows:
            with tempfile.TemporaryDirectory(prefix="explorer-bench-") as site:
                write_site(site, rows)
                subprocess.run([args.binary, "build", "--root", site], check=True, stdout=subprocess.DEVNULL)
                public = os.path.join(site, "public")
                size = os.path.getsize(os.path.join(public, "data/datasets/bench.csv"))
                handler = functools.partial(QuietHandler, directory=public)
                server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
                threading.Thread(target=server.serve_forever, daemon=True).start()
                url = f"http://127.0.0.1:{server.server_address[1]}/datasets/bench/"
                results = [measure(url, driver) for _ in range(args.runs)]
                server.shutdown()
                best = sorted(results, key=lambda r: r["interactive_ms"])[len(results) // 2]
                print(rows, json.dumps(best), flush=True)
                lines.append(f"| {rows:,} | {size / 1e6:.1f} MB | {best['interactive_ms'] / 1000:.2f} s | {best['worker_ms'] / 1000:.2f} s | "
                             f"{best['sort_ms']:.0f} ms | {best['text_sort_ms']:.0f} ms | {best['number_search_ms']:.0f} ms | {best['word_search_ms']:.0f} ms | {best['idle_mib']:.0f} MiB | {best['peak_mib']:.0f} MiB | {best['peak_mib'] - best['idle_mib']:.0f} MiB |")
    finally:
        driver_proc.terminate()
    print("\n".join(lines))
    if args.out_md:
        with open(args.out_md, "w") as f:
            f.write("\n".join(lines) + "\n")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
