"""The build-speed harness's shared helpers: workloads, timed runs, serve edits, reports.

Imported by benches/run.py (the entry point), benches/catalog.py (the catalog cases) and
benches/ab.py; it imports none of them, so the three never import each other in a circle
(tests/it/architecture.rs checks that).
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import http.client
import json
import math
import os
import platform
import queue
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GEN_SYNTH = os.path.normpath(os.path.join(REPO, "..", "shared", "bench", "gen_synth.py"))
CONVERT = os.path.join(HERE, "convert.py")
WORK = "/tmp/datapages-bench"
OUT_LOCATIONS = {"disk": "/tmp/datapages-bench/out", "journal": "/mnt/datapages-bench-journal/out",
                 "tmpfs": "/dev/shm/datapages-bench/out"}
# The journaled file system: an ext4 image with a journal, loop-mounted (needs root). This
# machine's /tmp is ext4 *without* a journal, where a fresh inode soon after many deletions
# costs about 1 ms: not what users' disks do, so "disk" results mislead at 10,000+ files.
JOURNAL_IMAGE = "/var/tmp/datapages-bench-journal.img"
JOURNAL_MOUNT = "/mnt/datapages-bench-journal"
LOCATION_LABELS = {"disk": "disk (/tmp, ext4 without journal)", "journal": "journaled ext4 (loop image)",
                   "tmpfs": "tmpfs (/dev/shm)"}
GNU_TIME = "/usr/bin/time"
MARK_BEGIN = "<!-- bench:results:begin (written by benches/run.py; edit outside these markers) -->"
MARK_END = "<!-- bench:results:end -->"

ALL_CASES = ["small", "n1000", "rows1m", "rows1m-warm", "rows1m-all", "rows1m-np", "rss", "serve",
             "n10k", "n100k", "rebuild", "catalog-rss", "serve-n10k", "check1m"]
DEFAULT_CASES = ["small", "n1000", "rows1m", "rows1m-warm", "rows1m-all", "rows1m-np", "rss", "serve"]
# The catalog cases (benches/catalog.py): N=10,000 and N=100,000 datasets, rebuilds, serve at N=10,000.
CATALOG_CASES = ["n10k", "n100k", "rebuild", "catalog-rss", "serve-n10k"]


# ------------------------------------------------------------------ small helpers

def log(msg: str) -> None:
    print(msg, flush=True)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def run_quiet(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def first_line(cmd: list[str]) -> str:
    try:
        p = run_quiet(cmd)
        out = (p.stdout or p.stderr).strip().splitlines()
        return out[0] if out else "?"
    except OSError:
        return "not found"


def rm(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def fmt_s(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.2f}"


def fmt_ratio(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def mib(kib: float | None) -> str:
    return "—" if kib is None else f"{kib / 1024:.0f}"


def dir_size(path: str) -> tuple[int, int]:
    """(files, bytes) under path, or of the file."""
    if os.path.isfile(path):
        return 1, os.path.getsize(path)
    files = total = 0
    for base, _, names in os.walk(path):
        for n in names:
            files += 1
            total += os.path.getsize(os.path.join(base, n))
    return files, total


# ------------------------------------------------------------------ workloads

def mount_journal() -> str | None:
    """Mounts a sparse ext4 image with a journal at JOURNAL_MOUNT; None when it is there,
    else why not. Inodes: one per 4 KiB, since every tool's output of 100,000 datasets
    (several files each) sits there at once."""
    if os.path.ismount(JOURNAL_MOUNT):
        return None
    if os.geteuid() != 0:
        return "mounting needs root"
    for tool in ("mkfs.ext4", "mount"):
        if not shutil.which(tool):
            return f"{tool} is missing"
    os.makedirs(JOURNAL_MOUNT, exist_ok=True)
    if not os.path.exists(JOURNAL_IMAGE):
        with open(JOURNAL_IMAGE, "wb") as f:
            f.truncate(24 << 30)
        p = run_quiet(["mkfs.ext4", "-q", "-F", "-i", "4096", "-J", "size=256", JOURNAL_IMAGE])
        if p.returncode:
            return f"mkfs.ext4 failed: {p.stderr.strip()}"
    p = run_quiet(["mount", "-o", "loop", JOURNAL_IMAGE, JOURNAL_MOUNT])
    return f"mount failed: {p.stderr.strip()}" if p.returncode else None


def stamp_ok(folder: str, stamp: str) -> bool:
    try:
        with open(os.path.join(folder, ".bench-stamp")) as f:
            return f.read() == stamp
    except OSError:
        return False


def write_stamp(folder: str, stamp: str) -> None:
    with open(os.path.join(folder, ".bench-stamp"), "w") as f:
        f.write(stamp)


def workload(fmt: str, n: int, rows: int) -> str:
    """A gen_synth.py workload folder, generated once per parameters and generator version."""
    folder = f"{WORK}/{fmt}-n{n}-r{rows}"
    stamp = f"gen_synth {sha256_file(GEN_SYNTH)} format={fmt} n={n} rows={rows} seed=42\n"
    if not stamp_ok(folder, stamp):
        log(f"  generating {fmt} workload n={n} rows={rows} -> {folder}")
        subprocess.run([sys.executable, GEN_SYNTH, "--format", fmt, "--n", str(n), "--rows", str(rows),
                        "--out", folder], check=True, stdout=subprocess.DEVNULL)
        write_stamp(folder, stamp)
    return folder


def datapages_site(n: int, rows: int, table_rows: str | None, parquet: str | None = None) -> str:
    raw = workload("raw", n, rows)
    tag = "cap" if table_rows is None else f"rows-{table_rows}"
    tag += "" if parquet is None else f"-parquet-{parquet}"
    folder = f"{WORK}/site-n{n}-r{rows}-{tag}"
    with open(os.path.join(raw, ".bench-stamp")) as f:
        raw_stamp = f.read()
    stamp = f"convert {sha256_file(CONVERT)} table_rows={table_rows} parquet={parquet}\n{raw_stamp}"
    if not stamp_ok(folder, stamp):
        log(f"  converting -> {folder}" + (f" (table_rows = {table_rows})" if table_rows else "")
            + (f" (parquet = {parquet})" if parquet else ""))
        cmd = [sys.executable, CONVERT, raw, folder]
        if table_rows is not None:
            cmd += ["--table-rows", table_rows]
        if parquet is not None:
            cmd += ["--parquet", parquet]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        write_stamp(folder, stamp)
    return folder


# ------------------------------------------------------------------ timing

@dataclass
class Tool:
    key: str          # unique within a group
    label: str        # shown in the table
    kind: str         # datapages | datapages-old | zola | hugo | cp | cp-csv | cp-out
    make_cmd: object  # out_path -> argv
    # for the one-off output check: (relative page path, expected <tr> count) or None
    check: tuple[str, int] | None = None
    # timed runs per location; None: the group's count. Hugo on 1,000,000 rows gets fewer.
    runs: int | None = None
    samples: dict = field(default_factory=dict)  # location -> list[(wall, rss_kib)]
    # seconds a run may take before the tool is recorded as not finishing (peers at N=100,000)
    timeout: float | None = None
    timed_out: str | None = None


class TimedOut(Exception):
    """A peer did not finish within its time limit (recorded as such, not as a failure)."""


def timed_run(argv: list[str], out_path: str, on_disk: bool, log_dir: str,
              timeout: float | None = None, fresh: bool = True) -> tuple[float, int]:
    """Runs argv once under /usr/bin/time -v into a fresh out_path (or into the existing one
    when not `fresh`: rebuilds); returns (wall s, peak RSS KiB)."""
    if fresh:
        rm(out_path)
    if on_disk:
        os.sync()  # flush the previous run's writes so they do not land in this run's time
    time_file = os.path.join(log_dir, "time.txt")
    with open(os.path.join(log_dir, "stdout.txt"), "w") as so, open(os.path.join(log_dir, "stderr.txt"), "w") as se:
        t0 = time.perf_counter()
        try:
            p = subprocess.run([GNU_TIME, "-v", "-o", time_file] + argv, stdout=so, stderr=se, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TimedOut(f"{' '.join(argv[:2])} did not finish within {timeout:.0f} s")
        wall = time.perf_counter() - t0
    if p.returncode != 0:
        with open(os.path.join(log_dir, "stderr.txt")) as f:
            tail = f.read()[-3000:]
        raise SystemExit(f"command failed (exit {p.returncode}): {' '.join(argv)}\n{tail}")
    rss = 0
    with open(time_file) as f:
        for line in f:
            if "Maximum resident set size" in line:
                rss = int(line.rsplit(":", 1)[1])
    return wall, rss


def count_tr(path: str) -> int:
    n, tail = 0, b""
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            buf = tail + chunk
            n += buf.count(b"<tr>") + buf.count(b"<tr ")  # rows may carry an id (`<tr id="row-7">`)
            tail = buf[-3:]  # a "<tr>" cut by the chunk boundary is counted once, in the next buf
    return n


def fits_budget(path: str) -> bool:
    """A datapages page that shows the rows that fit its byte budget, and says so."""
    with open(path, "rb") as f:
        page = f.read()
    return len(page) <= 256_000 and b"as many as fit the page" in page


def run_group(name: str, tools: list[Tool], runs: int, locations: list[str], warmup: int) -> dict:
    """Alternates the tools; returns per-tool output sizes from the check run."""
    log_dir = f"{WORK}/logs"
    os.makedirs(log_dir, exist_ok=True)
    for loc in locations:
        os.makedirs(OUT_LOCATIONS[loc], exist_ok=True)
    out_of = lambda tool, loc: os.path.join(OUT_LOCATIONS[loc], f"{name}-{tool.key}")
    sizes = {}
    # Warm-up on disk: fills the page cache with the inputs; then checks each output once.

    def attempt(tool: Tool, loc: str, tag: str) -> tuple[float, int] | None:
        """One timed run; None (and the tool marked as not finishing) past its time limit."""
        out = out_of(tool, loc)
        try:
            return timed_run(tool.make_cmd(out), out, loc != "tmpfs", log_dir, tool.timeout)
        except TimedOut as e:
            tool.timed_out = str(e)
            log(f"  [{name} {tag}] {tool.label:<34} {e}")
            rm(out)
            return None

    first = locations[0]
    for w in range(warmup):
        for tool in tools:
            if tool.timed_out or not (measured := attempt(tool, first, "warm-up")):
                continue
            out, (wall, rss) = out_of(tool, first), measured
            log(f"  [{name} warm-up] {tool.label:<34} {wall:7.3f} s {rss / 1024:7.0f} MiB")
            if w == 0:
                sizes[tool.key] = dir_size(out)
                if tool.check:
                    page, expected = tool.check
                    got = count_tr(os.path.join(out, page))
                    # datapages shows fewer rows than asked where they do not fit the page's
                    # 256 kB budget (docs/content-format.md), and says so.
                    if got != expected and not (got < expected and fits_budget(os.path.join(out, page))):
                        raise SystemExit(f"{tool.label}: {page} has {got} <tr>, expected {expected}")
    rounds = max([runs] + [t.runs for t in tools if t.runs])
    for i in range(rounds):
        locs = locations if i % 2 == 0 else list(reversed(locations))
        for loc in locs:
            k = i % len(tools)
            order = tools[k:] + tools[:k]
            for tool in order:
                if i >= (tool.runs or runs) or tool.timed_out:
                    continue  # this tool's runs are done; the others keep alternating
                if not (measured := attempt(tool, loc, loc)):
                    continue
                wall, rss = measured
                tool.samples.setdefault(loc, []).append((wall, rss))
                log(f"  [{name} {loc:<5} run {i + 1}/{tool.runs or runs}] {tool.label:<34} {wall:7.3f} s {rss / 1024:7.0f} MiB")
    for loc in locations:
        for tool in tools:
            rm(out_of(tool, loc))
    return sizes


def med(samples: list[tuple[float, int]], idx: int) -> float | None:
    return statistics.median(s[idx] for s in samples) if samples else None


# ------------------------------------------------------------------ cases

@dataclass
class Variant:
    case: str
    label: str
    table_rows: str | None
    # Use the scan cache (warmed by the check and the warm-up run); otherwise --no-cache.
    cache: bool = False
    # site.toml's `parquet` ("false": the Parquet copy, the costliest output datapages-old did
    # not have, left out); None: the default.
    parquet: str | None = None


VARIANTS = {
    "small": (100, 200, Variant("small", "datapages", None)),
    "n1000": (1000, 200, Variant("n1000", "datapages", None)),
    "rows1m": (1, 1_000_000, Variant("rows1m", "datapages (default cap, 1,000 rows)", None)),
    "rows1m-warm": (1, 1_000_000, Variant("rows1m-warm", "datapages (default cap, scan cache warm)",
                                          None, cache=True)),
    "rows1m-all": (1, 1_000_000, Variant("rows1m-all", 'datapages (table_rows = "all")', "all")),
    "rows1m-np": (1, 1_000_000, Variant("rows1m-np", "datapages (default cap, parquet = false)", None,
                                        parquet="false")),
    "n10k": (10_000, 20, Variant("n10k", "datapages", None)),
    "n100k": (100_000, 5, Variant("n100k", "datapages", None)),
}
# A peer run longer than this is recorded as not finishing (the issue: "where they finish
# within 10 minutes").
PEER_TIMEOUT_S = 600.0


def shown_rows(rows: int, table_rows: str | None) -> int:
    if table_rows is None:
        return min(rows, 1000)
    if table_rows == "all":
        return rows
    return min(rows, int(table_rows))


def check_site(dp: str, site: str) -> str:
    """`datapages check` on the converted site: must have no errors; summarises warnings."""
    p = run_quiet([dp, "check", "--root", site])
    if p.returncode != 0:
        raise SystemExit(f"datapages check {site} failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
    msgs = re.findall(r"^warning: (.*)$", p.stderr, flags=re.M)
    if not msgs:
        return "0 errors, 0 warnings"
    counts: dict[str, int] = {}
    for m in msgs:
        counts[m] = counts.get(m, 0) + 1
    return "0 errors, " + "; ".join(f"{c} x warning \"{m}\"" for m, c in counts.items())


def run_workload_group(n: int, rows: int, variants: list[Variant], args, env) -> dict:
    """One alternation group: every datapages variant of this workload, Hugo, cp -r (and cp of the CSV)."""
    name = f"n{n}-r{rows}"
    runs = args.runs
    big = rows >= 1_000_000 or n >= 100_000
    hugo_runs = args.runs_big if big else None
    log(f"\n== workload N={n:,} x R={rows:,}: {', '.join(v.case for v in variants)} ({runs} runs per location"
        + (f", Hugo {hugo_runs})" if hugo_runs else ")"))
    slug = "dataset-00001"
    tools: list[Tool] = []
    notes = []
    first_site = None
    for j, v in enumerate(variants):
        site = datapages_site(n, rows, v.table_rows, v.parquet)
        first_site = first_site or site
        notes.append(f"{v.case}: converted site `{site}`: `datapages check`: {check_site(env['datapages'], site)}")
        tools.append(Tool(f"dp{j}", v.label, "datapages",
                          (lambda s, flags: lambda out: [env["datapages"], "build", "--root", s, "--output", out]
                           + flags)(site, [] if v.cache else ["--no-cache"]),
                          check=(f"datasets/{slug}/index.html", shown_rows(rows, v.table_rows) + 1)))
    if env.get("old"):
        # The earlier commit on the same site, doing the whole work (--no-cache) like the build above.
        tools.append(Tool("old", f"datapages-old ({env['old_commit']})", "datapages-old",
                          lambda out: [env["old"], "build", "--root", first_site, "--output", out, "--no-cache"]))
    if env["zola"]:
        zola_site = workload("zola", n, rows)
        tools.append(Tool("zola", "Zola", "zola",
                          lambda out: [env["zola"], "--root", zola_site, "build", "--output-dir", out, "--force"],
                          check=(f"datasets/{slug}/index.html", rows + 1), runs=hugo_runs,
                          timeout=PEER_TIMEOUT_S))
    if env["hugo"]:
        hugo_site = workload("hugo", n, rows)
        tools.append(Tool("hugo", "Hugo", "hugo",
                          lambda out: [env["hugo"], "--quiet", "-s", hugo_site, "-d", out],
                          check=(f"datasets/{slug}/index.html", rows + 1), runs=hugo_runs,
                          timeout=PEER_TIMEOUT_S))
    # The site's inputs only: not the cache folder the builds above leave in it.
    tools.append(Tool("cp", "cp -r (inputs)", "cp",
                      lambda out: ["sh", "-c", 'mkdir "$1" && cp -r "$2/site.toml" "$2/content" "$2/data" "$1"/',
                                   "cp-inputs", out, first_site]))
    if not big:
        # The floor under any build that writes what datapages writes: copying its finished
        # output (built once here, read from the page cache) to the same location.
        built = f"{WORK}/output-copy-source-{name}"
        rm(built)
        run_quiet([env["datapages"], "build", "--root", first_site, "--output", built, "--no-cache"],
                  check=True)
        tools.append(Tool("cpout", "cp -r (datapages' output)", "cp-out",
                          lambda out: ["cp", "-r", built, out]))
    if n == 1:
        csv = os.path.join(first_site, "data", "datasets", f"{slug}.csv")
        tools.append(Tool("cpcsv", "cp (the CSV alone)", "cp-csv", lambda out: ["cp", csv, out]))
    sizes = run_group(name, tools, runs, args.locations, args.warmup)
    return {"n": n, "rows": rows, "variants": variants, "tools": tools, "sizes": sizes, "notes": notes,
            "runs": runs}


def run_rss_case(args, env) -> dict:
    log("\n== rss: datapages peak RSS, R=10,000 vs R=1,000,000, table_rows = \"all\" (output on disk)")
    tools = []
    for rows in (10_000, 1_000_000):
        site = datapages_site(1, rows, "all")
        tools.append(Tool(f"r{rows}", f"datapages R={rows:,}", "datapages",
                          (lambda s: lambda out: [env["datapages"], "build", "--root", s, "--output", out,
                                                  "--no-cache"])(site),
                          check=("datasets/dataset-00001/index.html", rows + 1)))
    run_group("rss", tools, args.runs, args.locations[:1], args.warmup)
    return {"tools": tools}


# ------------------------------------------------------------------ serve

BUNDLED_PARTS = ["content", "data", "templates", "static", "site.toml"]
SERVE_DIR = f"{WORK}/serve"
SERVE_START_TIMEOUT = 180.0   # the first build of the 1,000-dataset site takes about 1 s
SERVE_POLL_TIMEOUT = 30.0     # the server answers a poll after at most 20 s anyway
SERVE_LINE_TIMEOUT = 15.0     # the rebuild's summary line, after the poll answered


class ServeProcess:
    """`datapages serve` on 127.0.0.1 with an ephemeral port; stdout lines are collected with
    their arrival time by a reader thread, stderr goes to a log file (every rebuild prints
    the whole site's warnings there)."""

    def __init__(self, dp: str, name: str, root: str, output: str, flags: list[str] | None = None):
        self.name, self.root, self.output = name, root, output
        os.makedirs(f"{WORK}/logs", exist_ok=True)
        self.stderr_path = f"{WORK}/logs/serve-{name}.stderr.txt"
        self.stderr = open(self.stderr_path, "w")
        # Absolute paths: the harness may run from any folder, and the server must see the edits.
        self.proc = subprocess.Popen([dp, "serve", "--root", os.path.abspath(root), "--output",
                                      os.path.abspath(output), "--bind", "127.0.0.1", "--port", "0"]
                                     + (flags or []),
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True, bufsize=1)
        self.lines: "queue.Queue[tuple[float, str]]" = queue.Queue()
        self.all_lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.build_line = ""
        self.port = 0
        deadline = time.monotonic() + SERVE_START_TIMEOUT
        while not self.port:
            line = self.next_line(deadline - time.monotonic())
            if line is None:
                self.kill()
                raise SystemExit(f"serve {name}: no 'Serving ... at http://127.0.0.1:PORT/' line within "
                                 f"{SERVE_START_TIMEOUT:.0f} s; stdout so far: {self.all_lines}; stderr in {self.stderr_path}")
            if line.startswith("Built "):
                self.build_line = line
            m = re.match(r"Serving .* at http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
        m = re.match(r"Built (\d+) pages, (\d+) datasets .*?, (\d+) files", self.build_line)
        self.full_pages, self.full_datasets, self.full_files = (int(x) for x in m.groups()) if m else (None,) * 3
        self.hwm_after_start = self.vm_kib("VmHWM")

    def _read(self) -> None:
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            self.all_lines.append(line)
            self.lines.put((time.perf_counter(), line))

    def next_line(self, timeout: float) -> str | None:
        try:
            return self.lines.get(timeout=max(0.0, timeout))[1]
        except queue.Empty:
            return None

    def drain(self) -> list[str]:
        out = []
        while True:
            try:
                out.append(self.lines.get_nowait()[1])
            except queue.Empty:
                return out

    def vm_kib(self, key: str) -> int | None:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith(key + ":"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def get(self, target: str, timeout: float = SERVE_POLL_TIMEOUT) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", target)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def generation(self) -> int:
        status, body = self.get("/__datapages/poll?since=0&path=/", timeout=10)
        if status != 200:
            raise SystemExit(f"serve {self.name}: poll answered {status}")
        return json.loads(body)["generation"]

    def stop(self) -> tuple[int | None, bool]:
        """SIGINT, as Ctrl-C; returns (exit code, whether it printed 'Stopped.')."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            rc = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
            rc = None
        time.sleep(0.1)  # let the reader thread take the last line
        self.stderr.close()
        return rc, "Stopped." in self.all_lines

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=15)


def output_snapshot(folder: str) -> dict[str, tuple[int, int, int]]:
    """path -> (inode, mtime_ns, size) of every output file: which files a rebuild replaced."""
    snap = {}
    for base, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(base, n)
            try:
                st = os.stat(p)
            except OSError:
                continue
            snap[os.path.relpath(p, folder)] = (st.st_ino, st.st_mtime_ns, st.st_size)
    return snap


def write_in_place(path: str, data: bytes) -> None:
    """One open(O_TRUNC) + write + close, as a plain editor save that does not rename."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def lede_editor(md_path: str):
    """Edits the lede (first paragraph after the front matter): appends a sentence that
    carries the edit number, so every write changes the file; returns (edit(i) -> marker)."""
    with open(md_path, encoding="utf-8") as f:
        original = f.read()
    head, sep, body = original.partition("\n+++\n")  # the closing line of the front matter
    assert sep and head.startswith("+++"), md_path
    lines = body.split("\n")
    start = next(i for i, l in enumerate(lines) if l.strip())
    assert not lines[start].startswith("#"), f"{md_path}: no lede paragraph"
    end = start
    while end + 1 < len(lines) and lines[end + 1].strip():
        end += 1

    def edit(i: int) -> str:
        marker = f"Benchmark edit {i} ({'odd' if i % 2 else 'even'})."
        new = lines[:end] + [lines[end] + " " + marker] + lines[end + 1:]
        write_in_place(md_path, (head + sep + "\n".join(new)).encode("utf-8"))
        return marker
    return edit, lambda: write_in_place(md_path, original.encode("utf-8"))


def csv_editor(csv_path: str):
    """Edits the first data row's `code` cell (a string column) to a value that names the edit."""
    with open(csv_path, encoding="utf-8") as f:
        original = f.read()
    header, first, rest = original.split("\n", 2)
    assert header.split(",")[0] == "code", csv_path
    cells = first.split(",")

    def edit(i: int) -> str:
        marker = f"B{900000 + i}"
        new = header + "\n" + ",".join([marker] + cells[1:]) + "\n" + rest
        write_in_place(csv_path, new.encode("utf-8"))
        return marker
    return edit, lambda: write_in_place(csv_path, original.encode("utf-8"))


@dataclass
class ServeCase:
    key: str
    label: str
    server: ServeProcess
    slug: str
    edit: object           # i -> marker (after writing)
    restore: object
    samples: list = field(default_factory=list)  # dicts, one per timed edit
    failures: list = field(default_factory=list)


def serve_one_edit(case: ServeCase, i: int) -> dict:
    s = case.server
    stray = s.drain()  # lines between edits (none expected)
    page = f"/datasets/{case.slug}/"
    before = output_snapshot(s.output)
    g = s.generation()
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=SERVE_POLL_TIMEOUT)
    conn.request("GET", f"/__datapages/poll?since={g}&path={urllib.parse.quote(page, safe='')}")
    time.sleep(0.05)  # the poll is waiting in the server before the write (it would answer at once otherwise)
    t0 = time.perf_counter()
    marker = case.edit(i)
    t_written = time.perf_counter()
    try:
        resp = conn.getresponse()
        body = resp.read()
        t_poll = time.perf_counter()
        status = resp.status
    except (socket.timeout, OSError) as e:
        conn.close()
        raise SystemExit(f"serve {case.key}: the poll for {page} did not answer within {SERVE_POLL_TIMEOUT:.0f} s "
                         f"after edit {i} ({e}); stdout: {s.all_lines[-5:]}")
    conn.close()
    answer = json.loads(body) if status == 200 else {}
    pstatus, html = s.get(page, timeout=10)
    t_page = time.perf_counter()
    line = s.next_line(SERVE_LINE_TIMEOUT)
    extra = []
    # Any further rebuild lines for this one write (a split burst) show up here.
    time.sleep(0.15)
    extra = s.drain()
    m = re.match(r"(.*) changed: (re-rendered|rebuilt everything) (\d+) pages \((\d+) files\) in (\d+) ms", line or "")
    after = output_snapshot(s.output)
    changed = [p for p in set(before) | set(after) if before.get(p) != after.get(p)]
    return {
        "i": i, "status": status, "answer": answer,
        "latency": t_poll - t0, "write": t_written - t0, "page_latency": t_page - t0,
        "page_has_edit": pstatus == 200 and marker.encode() in html,
        "generation_before": g, "line": line, "extra_lines": extra, "stray_lines": stray,
        "what": m.group(2) if m else None,
        "pages": int(m.group(3)) if m else None, "files": int(m.group(4)) if m else None,
        "server_ms": int(m.group(5)) if m else None,
        "html_rewritten": sum(1 for p in changed if p.endswith(".html")), "files_rewritten": len(changed),
    }


def edit_ok(r: dict) -> str | None:
    """Why an edit's measurement does not count, or None."""
    if r["status"] != 200:
        return f"poll answered HTTP {r['status']}"
    if r["answer"].get("errors"):
        return f"rebuild reported errors: {r['answer']['errors'][0].get('message')}"
    if not r["answer"].get("reload"):
        return f"poll returned reload=false (generation {r['answer'].get('generation')})"
    if r["answer"].get("generation") != r["generation_before"] + 1:
        return f"generation went {r['generation_before']} -> {r['answer'].get('generation')}"
    if not r["page_has_edit"]:
        return "the page served after the reload does not carry the edit"
    if r["pages"] is None:
        return f"no 're-rendered N pages' line (got {r['line']!r})"
    return None


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def measure_serve_reload(args, env) -> dict | None:
    """serve reload latency: from an edit's write to the page's live-reload poll answering.

    Two servers run at once, each on a temporary copy (in /tmp, ext4) of a site, output in
    /tmp too: the bundled site (this repository's content/, data/, templates/, static/,
    site.toml) and the converted N=1000 x R=200 site (its CSVs copied, not hard-linked,
    since they are edited). Cases, alternating edit by edit in a rotating order:
      bundled-md  the flagship dataset's Markdown lede
      n1000-md    dataset-00500's Markdown lede
      n1000-csv   dataset-00500's CSV (the first row's `code` cell)
      rows1m-md   the Markdown lede of the N=1 x R=1,000,000 site (default cap), whose CSV is
                  unchanged: the scan cache spares the rescan
      rows1m-md-nocache  the same on a second copy served with --no-cache (every edit checks
                  the million rows again)
    The 1,000,000-row copies are left to settle for 2.5 s before their servers start, so that
    the scan cache may remember the first build's scan (it never remembers a file changed
    less than 2 s before).
    Per edit: read the generation G (poll since=0), open the page's long-poll
    (`/__datapages/poll?since=G&path=/datasets/<slug>/`), wait 50 ms so it is waiting in the
    server, then write the file in place (open with O_TRUNC, one write) with text that
    names the edit number, and time until the poll's response is read; it must say
    reload=true, generation G+1, no errors, and the page fetched right after must carry
    the edit. The server's line for the rebuild gives the pages it re-rendered and its own
    milliseconds; a stat of every output file before and after counts the files actually
    replaced. --serve-warmup edits per case are not counted, then --serve-edits are.
    Peak RSS is each server's VmHWM at the end; then SIGINT, and the exit code must be 0.
    """
    help_text = run_quiet([env["datapages"], "--help"]).stdout
    if re.search(r"^\s+serve\b", help_text, flags=re.M) is None:
        log("\n== serve: not measured (`datapages serve` does not exist in this binary)")
        return {"status": "`datapages serve` does not exist in this binary"}
    log(f"\n== serve: reload latency, {args.serve_warmup} warm-up + {args.serve_edits} timed edits per case, "
        "cases alternating")
    rm(SERVE_DIR)
    os.makedirs(SERVE_DIR)
    bundled = f"{SERVE_DIR}/bundled-site"
    os.makedirs(bundled)
    for part in BUNDLED_PARTS:
        src = os.path.join(REPO, part)
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, os.path.join(bundled, part))
    n1000 = f"{SERVE_DIR}/n1000-site"
    shutil.copytree(datapages_site(1000, 200, None), n1000, copy_function=shutil.copyfile,
                    ignore=shutil.ignore_patterns(".bench-stamp"))
    rows1m_sites = {}
    for name in ("rows1m", "rows1m-nocache"):
        rows1m_sites[name] = f"{SERVE_DIR}/{name}-site"
        shutil.copytree(datapages_site(1, 1_000_000, None), rows1m_sites[name], copy_function=shutil.copyfile,
                        ignore=shutil.ignore_patterns(".bench-stamp", ".datapages-cache"))
    time.sleep(2.5)
    servers: list[ServeProcess] = []
    result: dict = {"status": "measured"}
    try:
        sb = ServeProcess(env["datapages"], "bundled", bundled, f"{SERVE_DIR}/bundled-out")
        servers.append(sb)
        sn = ServeProcess(env["datapages"], "n1000", n1000, f"{SERVE_DIR}/n1000-out")
        servers.append(sn)
        sr = ServeProcess(env["datapages"], "rows1m", rows1m_sites["rows1m"], f"{SERVE_DIR}/rows1m-out")
        servers.append(sr)
        srn = ServeProcess(env["datapages"], "rows1m-nocache", rows1m_sites["rows1m-nocache"],
                           f"{SERVE_DIR}/rows1m-nocache-out", ["--no-cache"])
        servers.append(srn)
        for s in servers:
            log(f"  [serve {s.name}] port {s.port}: {s.build_line}")
        flagship = "sata-sas-nvme-measured-throughput"
        slug = "dataset-00500"
        cases = []
        for key, label, server, sl, (edit, restore) in [
            ("bundled-md", "bundled site (4 datasets), Markdown lede of the flagship dataset", sb, flagship,
             lede_editor(f"{bundled}/content/datasets/{flagship}.md")),
            ("n1000-md", "N=1000 x R=200 site, Markdown lede of one dataset", sn, slug,
             lede_editor(f"{n1000}/content/datasets/{slug}.md")),
            ("n1000-csv", "N=1000 x R=200 site, CSV of one dataset (one cell of the first row)", sn, slug,
             csv_editor(f"{n1000}/data/datasets/{slug}.csv")),
            ("rows1m-md", "N=1 x R=1,000,000 site, Markdown lede (CSV unchanged; scan cache on, the default)", sr,
             "dataset-00001", lede_editor(f"{rows1m_sites['rows1m']}/content/datasets/dataset-00001.md")),
            ("rows1m-md-nocache", "N=1 x R=1,000,000 site, Markdown lede, served with --no-cache", srn,
             "dataset-00001", lede_editor(f"{rows1m_sites['rows1m-nocache']}/content/datasets/dataset-00001.md")),
        ]:
            cases.append(ServeCase(key, label, server, sl, edit, restore))
        total = args.serve_warmup + args.serve_edits
        for rnd in range(total):
            k = rnd % len(cases)
            for case in cases[k:] + cases[:k]:
                r = serve_one_edit(case, rnd + 1)
                why = edit_ok(r)
                warm = rnd < args.serve_warmup
                tag = "warm-up" if warm else f"edit {rnd + 1 - args.serve_warmup}/{args.serve_edits}"
                log(f"  [serve {case.key:<10} {tag}] poll {r['latency'] * 1000:6.1f} ms, page {r['page_latency'] * 1000:6.1f} ms; "
                    f"server: {r['line']}" + (f"  ** {why}" if why else "")
                    + (f"  (extra lines: {r['extra_lines']})" if r["extra_lines"] else ""))
                if warm:
                    continue
                if why:
                    case.failures.append(f"edit {rnd + 1 - args.serve_warmup}: {why}")
                else:
                    case.samples.append(r)
        for case in cases:
            case.restore()
        time.sleep(0.5)
        for s in servers:
            s.drain()
        result["servers"] = {}
        for s in servers:
            hwm, rss = s.vm_kib("VmHWM"), s.vm_kib("VmRSS")
            rc, stopped = s.stop()
            result["servers"][s.name] = {"full_pages": s.full_pages, "full_files": s.full_files,
                                         "full_datasets": s.full_datasets, "build_line": s.build_line,
                                         "hwm_start": s.hwm_after_start, "hwm": hwm, "rss_end": rss,
                                         "rc": rc, "stopped": stopped, "stderr": s.stderr_path}
            log(f"  [serve {s.name}] VmHWM {hwm / 1024:.1f} MiB (after the first build {s.hwm_after_start / 1024:.1f} MiB), "
                f"VmRSS at end {rss / 1024:.1f} MiB; SIGINT: exit {rc}, 'Stopped.' printed: {stopped}")
        servers = []
        result["cases"] = cases
    finally:
        for s in servers:
            s.kill()
    return result


def serve_report(serve: dict, args) -> tuple[list[str], list[str]]:
    """The serve table and its target lines."""
    if serve.get("status") != "measured":
        return [], [f"- serve reload latency: not measured ({serve.get('status')})"]
    lines = [
        "| edit | timed edits (valid) | write → poll answered: median / p90 / max (ms) | write → edited page fetched, median (ms) "
        "| server's own rebuild time, median (ms) | re-rendered pages printed (min–max) | HTML files replaced (measured) "
        "| all files replaced | full build: pages / files | server peak RSS (VmHWM, MiB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    targets = []
    stats = {}
    for case in serve["cases"]:
        srv = serve["servers"][case.server.name]
        s = case.samples
        if not s:
            lines.append(f"| {case.label} | 0 of {args.serve_edits} | — | — | — | — | — | — | "
                         f"{srv['full_pages']} / {srv['full_files']} | {srv['hwm'] / 1024:.1f} |")
            stats[case.key] = None
            continue
        lat = [x["latency"] * 1000 for x in s]
        st = {"median": statistics.median(lat), "p90": pct(lat, 0.9), "max": max(lat),
              "pages": sorted({x["pages"] for x in s}), "html": sorted({x["html_rewritten"] for x in s}),
              "files": sorted({x["files_rewritten"] for x in s}), "n": len(s)}
        stats[case.key] = st
        rng = lambda v: f"{v[0]}" if len(v) == 1 else f"{v[0]}–{v[-1]}"
        lines.append(
            f"| {case.label} | {len(s)} of {args.serve_edits} | {st['median']:.1f} / {st['p90']:.1f} / {st['max']:.1f} | "
            f"{statistics.median(x['page_latency'] * 1000 for x in s):.1f} | "
            f"{statistics.median(x['server_ms'] for x in s):.0f} | {rng(st['pages'])} | {rng(st['html'])} | "
            f"{rng(st['files'])} | {srv['full_pages']} / {srv['full_files']} | {srv['hwm'] / 1024:.1f} |")
    verdict = lambda ok: "**met**" if ok else "**missed**"
    b = stats.get("bundled-md")
    if b:
        targets.append(f"- serve, bundled site, Markdown edit: write → reload median {b['median']:.1f} ms "
                       f"(p90 {b['p90']:.1f}, max {b['max']:.1f}; {b['n']} edits; target median < 50 ms): "
                       f"{verdict(b['median'] < 50)}")
    else:
        targets.append("- serve, bundled site (< 50 ms): not measured (no valid edit)")
    full = serve["servers"]["n1000"]["full_pages"]
    for key, what in (("n1000-md", "Markdown edit"), ("n1000-csv", "CSV edit")):
        n = stats.get(key)
        if not n:
            targets.append(f"- serve, N=1000 site, {what}: not measured (no valid edit)")
            continue
        few = max(n["pages"]) < full and max(n["html"]) <= max(n["pages"]) + 1
        targets.append(
            f"- serve, N=1000 x R=200 site, {what} of one dataset: re-rendered {', '.join(map(str, n['pages']))} pages "
            f"as printed ({', '.join(map(str, n['html']))} HTML files replaced, measured) of the full build's {full} "
            f"pages; write → reload median {n['median']:.1f} ms (p90 {n['p90']:.1f}, max {n['max']:.1f}; target: only "
            f"the affected pages, median < 150 ms): {verdict(few and n['median'] < 150)}")
    cached, uncached = stats.get("rows1m-md"), stats.get("rows1m-md-nocache")
    if cached and uncached:
        targets.append(f"- serve, N=1 x R=1,000,000 site, Markdown edit (no target; what the scan cache saves): "
                       f"write → reload median {cached['median']:.1f} ms with the cache, "
                       f"{uncached['median']:.1f} ms with --no-cache")
    for name, srv in serve["servers"].items():
        ok = srv["rc"] == 0 and srv["stopped"]
        targets.append(f"- serve ({name}): SIGINT → exit code {srv['rc']}, printed \"Stopped.\": {srv['stopped']}"
                       f" ({'as expected' if ok else 'NOT as expected'})")
    for case in serve["cases"]:
        for f in case.failures:
            targets.append(f"- serve {case.key}: edit not counted: {f}")
    return lines, targets


# ------------------------------------------------------------------ report

def machine_note(env, args) -> list[str]:
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass

    def fs_of(path: str) -> str:
        best = ("", "?")
        try:
            with open("/proc/mounts") as f:
                for line in f:
                    parts = line.split()
                    mnt, typ = parts[1], parts[2]
                    if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best[0]):
                        best = (mnt, typ)
        except OSError:
            pass
        return best[1]

    commit = run_quiet(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]).stdout.strip() or "?"
    dirty = run_quiet(["git", "-C", REPO, "status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"]).stdout.strip()
    return [
        f"- date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {os.cpu_count()} CPUs (nproc {first_line(['nproc'])}), {mem} RAM, CPU \"{cpu}\", "
        f"kernel {platform.release()}, load average at start {env['load_start']}, at end {env['load_end']}",
        f"- output locations: " + "; ".join(f"{loc}: {LOCATION_LABELS[loc]} at {OUT_LOCATIONS[loc]} "
                                             f"({fs_of(OUT_LOCATIONS[loc])})" for loc in args.locations)
        + f"; inputs in {WORK} (warm page cache)",
        f"- datapages: {first_line([env['datapages'], '--version'])}, release build `{env['datapages']}`, "
        f"commit {commit}{' (src/ modified)' if dirty else ''}",
        f"- Hugo: {first_line([env['hugo'], 'version']) if env['hugo'] else 'not installed'}",
        f"- Zola: {first_line([env['zola'], '--version']) if env['zola'] else 'not installed'}",
        f"- datapages-old: commit {env.get('old_commit')}, built by the harness (benches/old.py), release build "
        f"`{env['old']}`" if env.get("old") else "- datapages-old: not run",
        f"- rustc: {first_line(['rustc', '--version'])}; Python {platform.python_version()}; "
        f"GNU time {first_line(['dpkg-query', '-W', '-f', '${Version}', 'time'])}",
    ]


def build_report(results: dict, args, env) -> tuple[str, list[str]]:
    lines: list[str] = []
    targets: list[str] = []
    lines.append("| workload | output | tool | wall median (s) | min–max (s) | ratio to datapages-old | ratio to Zola | ratio to Hugo | ratio to cp -r | peak RSS (MiB, median) | output files / MiB |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    groups = results.get("groups", [])
    for g in groups:
        tools = g["tools"]
        hugo = next((t for t in tools if t.kind == "hugo"), None)
        zola = next((t for t in tools if t.kind == "zola"), None)
        cp = next((t for t in tools if t.kind == "cp"), None)
        old = next((t for t in tools if t.kind == "datapages-old"), None)
        wl = f"N={g['n']:,} x R={g['rows']:,}"
        for loc in args.locations:
            h = med(hugo.samples.get(loc, []), 0) if hugo else None
            z = med(zola.samples.get(loc, []), 0) if zola else None
            c = med(cp.samples.get(loc, []), 0) if cp else None
            o = med(old.samples.get(loc, []), 0) if old else None
            for t in tools:
                s = t.samples.get(loc, [])
                if not s:
                    if t.timed_out and loc == args.locations[0]:
                        lines.append(f"| {wl} | all | {t.label} | did not finish: {t.timed_out} | | | | | | | |")
                    continue
                w, r = med(s, 0), med(s, 1)
                lo, hi = min(x[0] for x in s), max(x[0] for x in s)
                files, size = g["sizes"].get(t.key, (0, 0))
                lines.append(
                    f"| {wl} | {loc} | {t.label} | {fmt_s(w)} | {fmt_s(lo)}–{fmt_s(hi)} | "
                    f"{fmt_ratio(w / o) if o else '—'} | {fmt_ratio(w / z) if z else '—'} | "
                    f"{fmt_ratio(w / h) if h else '—'} | {fmt_ratio(w / c) if c else '—'} | {mib(r)} | "
                    f"{files:,} / {size / 2**20:.1f} |")
    rss = results.get("rss")
    if rss:
        for t in rss["tools"]:
            s = t.samples.get(args.locations[0], [])
            lines.append(f"| N=1 (rss case) | {args.locations[0]} | {t.label} (all rows) | {fmt_s(med(s, 0))} | "
                         f"{fmt_s(min(x[0] for x in s))}–{fmt_s(max(x[0] for x in s))} | — | — | — | — | {mib(med(s, 1))} | — |")

    # ---- targets
    def group_with(case):
        for g in groups:
            for j, v in enumerate(g["variants"]):
                if v.case == case:
                    return g, next(t for t in g["tools"] if t.key == f"dp{j}")
        return None, None

    def verdict(ok: bool) -> str:
        return "**met**" if ok else "**missed**"

    def paired(a: Tool, b: Tool, loc: str) -> str:
        """Median over rounds of a/b, both from the same round: robust to load drifting between rounds."""
        pairs = [x[0] / y[0] for x, y in zip(a.samples.get(loc, []), b.samples.get(loc, []))]
        return f"median of per-round ratios {statistics.median(pairs):.3f}" if pairs else ""

    g, dp = group_with("n1000")
    hugo = g and next((t for t in g["tools"] if t.kind == "hugo"), None)
    if g and hugo:
        for loc in args.locations:
            ratio = med(dp.samples[loc], 0) / med(hugo.samples[loc], 0)
            targets.append(f"- N=1000 x R=200, every row in the table, output on {loc}: datapages / Hugo = "
                           f"{ratio:.3f} ({paired(dp, hugo, loc)}; target ≤ 0.25): {verdict(ratio <= 0.25)}")
    else:
        targets.append("- N=1000 x R=200 vs Hugo (≤ 0.25): not measured"
                       + (" (Hugo missing)" if g else " (case n1000 not run)"))
    g, dp = group_with("rows1m-all")
    hugo = g and next((t for t in g["tools"] if t.kind == "hugo"), None)
    if g:
        if hugo:
            for loc in args.locations:
                ratio = med(dp.samples[loc], 0) / med(hugo.samples[loc], 0)
                targets.append(f"- N=1 x R=1,000,000, table_rows = \"all\", output on {loc}: datapages / Hugo = "
                               f"{ratio:.3f} ({paired(dp, hugo, loc)}; target ≤ 0.15): {verdict(ratio <= 0.15)}")
        else:
            targets.append("- N=1 x R=1,000,000 all rows vs Hugo (≤ 0.15): not measured (Hugo missing)")
        peak = max(x[1] for loc in dp.samples for x in dp.samples[loc]) / 1024
        targets.append(f"- N=1 x R=1,000,000, table_rows = \"all\": peak RSS {peak:.1f} MiB, the largest of "
                       f"all its runs (target ≤ 64 MiB): {verdict(peak <= 64)}")
    else:
        targets.append("- N=1 x R=1,000,000 with table_rows = \"all\" (≤ 0.15 x Hugo, ≤ 64 MiB): not measured")
    for case, how in (("rows1m", "every cell checked (--no-cache)"),
                      ("rows1m-warm", "scan cache warm, CSV unchanged")):
        g, dp = group_with(case)
        if not g:
            targets.append(f"- N=1 x R=1,000,000, default cap, {how}, ≥ 50 % of cp's throughput: not measured")
            continue
        cpcsv = next(t for t in g["tools"] if t.kind == "cp-csv")
        for loc in args.locations:
            share = med(cpcsv.samples[loc], 0) / med(dp.samples[loc], 0)
            targets.append(f"- N=1 x R=1,000,000, default cap, {how}, output on {loc}: datapages' throughput = "
                           f"{share * 100:.0f} % of `cp` of the same CSV (cp {med(cpcsv.samples[loc], 0):.3f} s, "
                           f"datapages {med(dp.samples[loc], 0):.3f} s; cp / datapages "
                           f"{paired(cpcsv, dp, loc)}; target ≥ 50 %): {verdict(share >= 0.5)}")
    if rss:
        small, big = (med(t.samples[args.locations[0]], 1) for t in rss["tools"])
        ratio = big / small
        targets.append(f"- Peak RSS flat in the row count: R=1,000,000 / R=10,000 (all rows) = {big / 1024:.1f} / "
                       f"{small / 1024:.1f} MiB = {ratio:.2f} (target ≤ 1.5): {verdict(ratio <= 1.5)}")
    else:
        targets.append("- Peak RSS flat in the row count (≤ 1.5): not measured (case rss not run)")
    serve = results.get("serve")
    serve_lines: list[str] = []
    if serve:
        serve_lines, serve_targets = serve_report(serve, args)
        targets += serve_targets
    else:
        targets.append("- serve reload latency: not measured (case `serve` not run)")
    return "\n".join(lines), targets, serve_lines


def write_markdown(path: str, body: str) -> None:
    block = f"{MARK_BEGIN}\n{body.rstrip()}\n{MARK_END}\n"
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if MARK_BEGIN in text and MARK_END in text:
            start = text.index(MARK_BEGIN)
            end = text.index(MARK_END) + len(MARK_END)
            text = text[:start] + block.rstrip("\n") + text[end:]
        else:
            text = text.rstrip("\n") + "\n\n" + block
    else:
        text = "# Benchmarks\n\nHow to run: `python3 benches/run.py` (see benches/run.py).\n\n" + block
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# ------------------------------------------------------------------ main
