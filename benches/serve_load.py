#!/usr/bin/env python3
"""Load on `datapages serve` while it rebuilds: N keep-alive clients over mixed URLs.

Starts the release binary's `serve` on a copy of the bundled site (127.0.0.1, a free
port), runs --clients concurrent keep-alive clients for --seconds over the home page, the
datasets list, each dataset page, each dataset's CSV and the stylesheet, while a loop edits
one dataset's Markdown every second (so the server rebuilds under load). Reports requests/s,
p50/p99 latency, errors (a status other than 200, a refused or reset connection) and
truncated responses (fewer body bytes than Content-Length; 0 expected). Stdlib only.

    cargo build --release && python3 benches/serve_load.py [--clients 50] [--seconds 20]
"""

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE_PARTS = ["site.toml", "content", "data", "templates", "static"]


def copy_site(to):
    for part in SITE_PARTS:
        source = os.path.join(ROOT, part)
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(to, part))
        else:
            shutil.copy(source, to)


def start_server(binary, root):
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--root", root],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    lines = []
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if found:
            printed = []
            threading.Thread(target=lambda: printed.extend(process.stdout), daemon=True).start()
            return process, int(found.group(1)), printed
    process.kill()
    sys.exit("serve did not start:\n" + "".join(lines))


def urls(root):
    slugs = sorted(
        name[:-3]
        for name in os.listdir(os.path.join(root, "content", "datasets"))
        if name.endswith(".md")
    )
    paths = ["/", "/datasets/", "/style.css"]
    for slug in slugs:
        paths.append(f"/datasets/{slug}/")
        paths.append(f"/data/datasets/{slug}.csv")
    return paths, slugs


class Client:
    """One keep-alive connection; reconnects when the server closes it."""

    def __init__(self, port):
        self.port = port
        self.sock = None
        self.buffer = b""

    def connect(self):
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def close(self):
        if self.sock:
            self.sock.close()
        self.sock = None

    def _more(self):
        chunk = self.sock.recv(256 * 1024)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def get(self, path):
        """(status, declared length, received length, server closes)."""
        if self.sock is None:
            self.connect()
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
        declared = int(headers.get("content-length", "-1"))
        try:
            while len(self.buffer) < declared:
                self._more()
        except EOFError:
            pass
        received = min(len(self.buffer), declared)
        self.buffer = self.buffer[received:]
        return status, declared, received, headers.get("connection") == "close"


def run_client(port, paths, offset, stop, results):
    client = Client(port)
    latencies, errors, truncated, i = [], 0, 0, offset
    while not stop.is_set():
        path = paths[i % len(paths)]
        i += 1
        started = time.perf_counter()
        try:
            status, declared, received, closes = client.get(path)
        except (OSError, EOFError, ValueError, IndexError):
            errors += 1
            client.close()
            continue
        latencies.append(time.perf_counter() - started)
        if status != 200:
            errors += 1
        if received < declared:
            truncated += 1
            client.close()
        elif closes:
            client.close()
    client.close()
    results.append((latencies, errors, truncated))


def edit_loop(root, slug, stop, edits):
    path = os.path.join(root, "content", "datasets", f"{slug}.md")
    with open(path, encoding="utf-8") as f:
        original = f.read()
    n = 0
    while not stop.wait(1.0):
        n += 1
        with open(path, "w", encoding="utf-8") as f:
            f.write(original.rstrip("\n") + f"\n\nLoad edit {n}.\n")
        edits.append(n)


def peak_rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "datapages"))
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} is missing: cargo build --release")
    with tempfile.TemporaryDirectory(prefix="datapages-serve-load-") as root:
        copy_site(root)
        process, port, printed = start_server(args.binary, root)
        try:
            paths, slugs = urls(root)
            stop = threading.Event()
            results, edits = [], []
            threads = [
                threading.Thread(target=run_client, args=(port, paths, i, stop, results))
                for i in range(args.clients)
            ]
            editor = threading.Thread(target=edit_loop, args=(root, slugs[0], stop, edits))
            started = time.time()
            for thread in threads:
                thread.start()
            editor.start()
            time.sleep(args.seconds)
            stop.set()
            for thread in threads + [editor]:
                thread.join(60)
            elapsed = time.time() - started
            peak = peak_rss_kib(process.pid)
        finally:
            process.terminate()
            process.wait(10)
    latencies = sorted(l for r in results for l in r[0])
    errors = sum(r[1] for r in results)
    truncated = sum(r[2] for r in results)
    rebuilds = sum(1 for line in printed if "changed:" in line)

    def percentile(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else 0

    print(f"clients {args.clients}, {elapsed:.1f} s, {len(paths)} URLs, {len(edits)} edits, {rebuilds} rebuilds")
    print(f"requests {len(latencies)}, {len(latencies) / elapsed:.0f}/s")
    print(f"latency p50 {percentile(0.50):.2f} ms, p99 {percentile(0.99):.2f} ms, max {percentile(1.0):.2f} ms")
    print(f"errors {errors}, truncated {truncated}")
    if peak is not None:
        print(f"server peak RSS {peak / 1024:.1f} MiB")
    return 1 if errors or truncated else 0


if __name__ == "__main__":
    sys.exit(main())
