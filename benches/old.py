"""`datapages-old`: the build of an earlier commit (default 1598f65, the product before
profiles, Croissant, DCAT, citations, row pages and bound figures), made by the harness in
its own folder so that every harness run times it beside the current build (issue #35's
cost budget).

    build_old("1598f65") -> path of its release binary, or None with the reason logged

The sources come from this repository's git history (`git archive`), the build uses that
commit's own Cargo.lock and a target folder of its own under /tmp/datapages-bench/old-<commit>/,
and a finished binary is reused by later runs (about 3 minutes on 2 cores the first time).
"""
from __future__ import annotations

import os
import subprocess

import harness as h  # benches/harness.py: WORK, REPO, log, run_quiet

DEFAULT_OLD = "1598f65"


def build_old(commit: str) -> str | None:
    full = h.run_quiet(["git", "-C", h.REPO, "rev-parse", "--verify", f"{commit}^{{commit}}"]).stdout.strip()
    if not full:
        h.log(f"missing: datapages-old: commit {commit} is not in {h.REPO}'s history; the datapages-old "
              "columns are left out")
        return None
    folder = os.path.join(h.WORK, f"old-{full[:12]}")
    binary = os.path.join(folder, "target", "release", "datapages")
    if os.access(binary, os.X_OK):
        return binary
    src = os.path.join(folder, "src")
    h.rm(src)
    os.makedirs(src)
    h.log(f"== building datapages-old ({full[:12]}) into {folder} (cargo build --release, nice; a few minutes)")
    archive = subprocess.Popen(["git", "-C", h.REPO, "archive", full], stdout=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", src], stdin=archive.stdout)
    archive.stdout.close()
    if archive.wait() != 0 or untar.returncode != 0:
        h.log("missing: datapages-old: `git archive` failed; the datapages-old columns are left out")
        return None
    built = subprocess.run(["nice", "cargo", "build", "--release", "--locked", "--quiet",
                            "--target-dir", os.path.join(folder, "target")], cwd=src)
    if built.returncode != 0 or not os.access(binary, os.X_OK):
        h.log(f"missing: datapages-old: cargo build failed in {src} (exit {built.returncode}); "
              "the datapages-old columns are left out")
        return None
    return binary
