#!/usr/bin/env bash
# Profiles the release binary on the benchmark workloads (BENCHMARKS.md, "How to run").
#
#   benches/profile.sh [OUT_DIR]        (default /tmp/datapages-profile)
#
# The site is built into $SITE_OUT (default /dev/shm/datapages-profile-out, tmpfs), so the
# profiles show datapages' own work rather than the disk file system's.
# - callgrind (instruction counts; repeatable on a noisy machine) on N=100 x R=200 and on
#   N=1 x R=100,000 with table_rows = "all"; prints the top functions by inclusive cost.
#   Caveat: under valgrind the sha2 crate finds no SHA-NI and falls back to its portable
#   code, so SHA-256 looks several times dearer than it is natively.
# - perf (when `perf record -e cpu-clock` works; hardware counters are often missing on
#   VMs) with DWARF call graphs on N=1000 x R=200, and N=1 x R=1,000,000 (cap and all rows),
#   at 4,000 samples a second; and attached to `datapages serve` on a copy of the N=1000
#   site during 20 edits of one dataset's Markdown (incremental rebuilds). For each perf
#   profile, benches/perf_owners.py writes perf-*-owners.md: hot leaves by the datapages
#   function that called them.
# Workloads come from benches/run.py's cache in /tmp/datapages-bench (made if missing).
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/datapages-profile}
BIN=${DATAPAGES:-target/release/datapages}
SITE_OUT=${SITE_OUT:-/dev/shm/datapages-profile-out}
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "missing $BIN: cargo build --release"; exit 2; }
command -v valgrind >/dev/null || { echo "missing valgrind: apt-get install -y valgrind"; exit 2; }

site() {  # n rows table_rows|none -> prints the site folder
  python3 -c "import sys; sys.path.insert(0, 'benches'); import run
print(run.datapages_site($1, $2, None if '$3' == 'none' else '$3'))" | tail -1
}

# Lines worth reading: our code and the crates it calls, not rayon/std plumbing.
filter() {
  grep -v -E 'rayon|/rustc/[0-9a-f]+/library/(std|core/src/ops)|nptl|thread_start|libc-start|below main|\?\?\?:main|ld-linux|^ *$' |
    sed -E 's#/root/\.cargo/registry/src/index\.crates\.io-[0-9a-f]+/##; s#'"$PWD"'/##g; s# \[[^]]*datapages\]##' |
    awk '{ key = $0; sub(/^[^:]*:/, "", key); if (!(key in seen)) { seen[key] = 1; print } }' |  # one line per function
    cut -c1-160
}

for spec in "n100-r200:100 200 none" "n1-r100000-all:1 100000 all"; do
  name=${spec%%:*}; read -r n rows tr <<<"${spec#*:}"
  s=$(site "$n" "$rows" "$tr")
  rm -rf "$SITE_OUT"
  echo "== callgrind $name ($s)"
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind-$name.out" \
    "$BIN" build --no-cache --root "$s" --output "$SITE_OUT" 2>&1 | grep -E 'Collected|^Built' || true
  callgrind_annotate --inclusive=yes "$OUT/callgrind-$name.out" 2>/dev/null | sed -n '/file:function/,$p' | filter | head -40 \
    | tee "$OUT/callgrind-$name.txt"
done

if perf record -e cpu-clock -o "$OUT/probe.data" true >/dev/null 2>&1; then
  for spec in "n1000-r200:1000 200 none" "n1-r1m-cap:1 1000000 none" "n1-r1m-all:1 1000000 all"; do
    name=${spec%%:*}; read -r n rows tr <<<"${spec#*:}"
    s=$(site "$n" "$rows" "$tr")
    rm -rf "$SITE_OUT"
    echo "== perf $name ($s)"
    perf record -q -e cpu-clock -F 4000 --call-graph dwarf,16384 -o "$OUT/perf-$name.data" \
      "$BIN" build --no-cache --root "$s" --output "$SITE_OUT" 2>&1 | grep -E '^Built' || true
    perf report -i "$OUT/perf-$name.data" --children --sort sym -g none 2>/dev/null | grep -v '^#' |
      grep -v -E '\(inlined\)|typenum|rayon|std::|core::ops|__libc|_start|clone3|start_thread|^$' | head -40 \
      | cut -c1-160 | tee "$OUT/perf-$name.txt"
  done
  # serve: perf attached to a running `datapages serve` on a copy of the N=1000 site while
  # it handles 20 edits of one dataset's Markdown lede (the first build is not recorded).
  echo "== perf serve-n1000 (20 Markdown edits of dataset-00500; incremental rebuilds only)"
  python3 - "$BIN" "$OUT" <<'PY'
import os, shutil, signal, subprocess, sys, time
sys.path.insert(0, "benches")
import run
dp, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = "/tmp/datapages-profile-serve"
run.rm(work)
site = shutil.copytree(run.datapages_site(1000, 200, None), f"{work}/site", copy_function=shutil.copyfile)
server = run.ServeProcess(dp, "profile", site, f"{work}/out")
edit, restore = run.lede_editor(f"{site}/content/datasets/dataset-00500.md")
case = run.ServeCase("profile", "profile", server, "dataset-00500", edit, restore)
run.serve_one_edit(case, 0)  # warm-up, not recorded
perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "--call-graph", "dwarf,16384",
                         "-p", str(server.proc.pid), "-o", f"{out}/perf-serve-n1000.data"])
time.sleep(1.0)
lines = []
for i in range(1, 21):
    r = run.serve_one_edit(case, i)
    lines.append(f"{r['latency'] * 1000:.0f} ms: {r['line']}")
perf.send_signal(signal.SIGINT)
perf.wait(timeout=60)
restore()
rc, stopped = server.stop()
print("\n".join(lines[:3] + ["..."] + lines[-2:]))
print(f"server exit {rc}")
run.rm(work)
PY
  perf report -i "$OUT/perf-serve-n1000.data" --children --sort sym -g none 2>/dev/null | grep -v '^#' |
    grep -v -E '\(inlined\)|typenum|rayon|std::|core::ops|__libc|_start|clone3|start_thread|^$' | head -40 \
    | cut -c1-160 | tee "$OUT/perf-serve-n1000.txt"
  # Who pays for the hot leaves (the innermost datapages function of each sample).
  for f in "$OUT"/perf-*.data; do
    python3 benches/perf_owners.py "$f" --top 30 > "${f%.data}-owners.md" 2>/dev/null || true
  done
  echo "owner tables: $OUT/perf-*-owners.md"
else
  echo "== perf: 'perf record -e cpu-clock' does not work here; skipped"
fi
rm -rf "$SITE_OUT"
echo "profiles in $OUT"
