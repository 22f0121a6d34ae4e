#!/usr/bin/env python3
"""Convert a `gen_synth.py --format raw` workload into a datapages site.

The neutral workload (../shared/bench/gen_synth.py) is a folder `datasets/` holding, per
dataset, `<slug>.csv` (10 columns) and `<slug>.md` (YAML front matter `title` and `csv`,
then ~300 words of Markdown under `## Overview`, `## Method` and `## Notes`). This script
writes a datapages site with the same content:

  site.toml                         title, base_url, [author], [license], optional table_rows
                                    and parquet
  content/datasets/<slug>.md        TOML front matter + the raw Markdown body
  data/datasets/<slug>.csv          a hard link to the raw CSV (a copy across file systems)

What is derived, and how (nothing is invented about the data):
- title: the raw `title`.
- kicker / headline: what the file is (a synthetic table from gen_synth.py, seed, row count),
  since the workload carries no real-world claim to headline.
- tags: ["Synthetic workload"]; no [[sources]] (the workload cites none; a source
  that the prose never cites would only add a warning).
- [[columns]]: one per CSV header field; names are checked against the header and types
  against the first rows (code, category: string; date: date; v1..v7: number).
- body: the raw Markdown. The paragraph under `## Overview` becomes the lede (datapages
  takes the first paragraph before any `## ` heading as the lede), so that heading is
  dropped; `## Method` and `## Notes` stay as they are.

Warnings the raw data forces: the raw notes have no `## Limits` section, so every dataset
gets "the page has no `## Limits` section". Adding one would put words in the author's
mouth, so the converter does not.

Usage:
  python3 benches/convert.py RAW_DIR SITE_DIR [--table-rows N|all] [--parquet false] [--copy]
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import sys

EXPECTED_HEADER = ["code", "category", "date", "v1", "v2", "v3", "v4", "v5", "v6", "v7"]

# What gen_synth.py (NUM_SPEC) writes into each numeric column: decimals and range.
NUMERIC_DESCRIPTIONS = {
    "v1": "2 decimals, uniform in -1000 to 1000",
    "v2": "3 decimals, uniform in 0 to 1",
    "v3": "1 decimal, uniform in 0 to 100000",
    "v4": "4 decimals, uniform in -1 to 1",
    "v5": "2 decimals, uniform in 0 to 500",
    "v6": "2 decimals, uniform in -50 to 50",
    "v7": "3 decimals, uniform in 0 to 10",
}

COLUMNS = {
    "code": ("string", "Code", "Synthetic record code: C followed by six random digits; not unique."),
    "category": (
        "string",
        "Category",
        "One of 15 synthetic labels, drawn at random; two of them need care in output: "
        "'Smith, J.' (quoted in the CSV) and 'R&D' (escaped in HTML).",
    ),
    "date": ("date", "Date", "A random calendar date between 1990-01-01 and 2024-12-28 (days 1 to 28 only)."),
}

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
NUMBER_RE = re.compile(r"^-?\d+\.\d+$")
ROWS_CHECKED = 200


def toml_str(s: str) -> str:
    """A TOML basic string."""
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(c if c >= " " or c == "\t" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def parse_raw_md(path: str) -> tuple[dict, str]:
    """The raw file's YAML front matter (flat `key: "value"` lines only) and body."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.startswith("---\n"):
        raise SystemExit(f"{path}: expected YAML front matter starting with ---")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise SystemExit(f"{path}: YAML front matter is never closed")
    meta = {}
    for line in text[4:end].splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            raise SystemExit(f"{path}: cannot read front matter line {line!r}")
        value = value.strip()
        if value.startswith('"') and value.endswith('"'):
            value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        meta[key.strip()] = value
    return meta, text[end + 5:]


def lede_first(body: str) -> str:
    """Moves the `## Overview` text before the first heading, where datapages finds the lede."""
    lines = body.lstrip("\n").split("\n")
    if lines and lines[0].strip() == "## Overview":
        return "\n".join(lines[1:]).lstrip("\n")
    return body


def check_csv(path: str) -> int:
    """Checks header names and the types of the first rows; returns the bytes of the file."""
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != EXPECTED_HEADER:
            raise SystemExit(f"{path}: header {header} is not the gen_synth.py header {EXPECTED_HEADER}")
        for n, row in enumerate(reader):
            if n >= ROWS_CHECKED:
                break
            if len(row) != len(header):
                raise SystemExit(f"{path}: row {n + 2} has {len(row)} fields")
            if not DATE_RE.match(row[2]):
                raise SystemExit(f"{path}: row {n + 2}: date {row[2]!r} is not YYYY-MM-DD")
            for value in row[3:]:
                if not NUMBER_RE.match(value):
                    raise SystemExit(f"{path}: row {n + 2}: {value!r} is not a decimal")
    return os.path.getsize(path)


def count_rows(path: str) -> int:
    """Data rows (gen_synth.py never puts a newline inside a field)."""
    n = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
    return n - 1


def front_matter(meta: dict, rows: int) -> str:
    title = meta["title"]
    out = [
        "+++",
        f"title = {toml_str(title)}",
        f"kicker = {toml_str(f'synthetic benchmark workload · gen_synth.py · {rows:,} rows')}",
        "headline = "
        + toml_str(
            f"{title}: {rows:,} random rows of 10 columns, written by gen_synth.py to time "
            "static site generators; the figures measure nothing"
        ),
        'tags = ["Synthetic workload"]',
    ]
    for name in EXPECTED_HEADER:
        if name in COLUMNS:
            ctype, ctitle, desc = COLUMNS[name]
        else:
            ctype, ctitle = "number", name.upper()
            desc = f"Synthetic decimal ({NUMERIC_DESCRIPTIONS[name]}), random; no unit."
        out += [
            "",
            "[[columns]]",
            f"name = {toml_str(name)}",
            f"title = {toml_str(ctitle)}",
            f"type = {toml_str(ctype)}",
            f"description = {toml_str(desc)}",
        ]
    out.append("+++")
    return "\n".join(out) + "\n"


SITE_TOML = """title = "Synthetic datasets"
description = "The neutral build-speed workload of gen_synth.py, converted into a datapages site."
base_url = "http://localhost/"
language = "en"
{settings}
[author]
name = "datapages benchmark harness"

[license]
name = "CC0 1.0 (synthetic data)"
url = "https://creativecommons.org/publicdomain/zero/1.0/"
"""


def link_or_copy(src: str, dst: str, copy: bool) -> None:
    if not copy:
        try:
            os.link(src, dst)
            return
        except OSError:
            pass
    shutil.copyfile(src, dst)


def convert(raw: str, site: str, table_rows: str | None, copy: bool = False,
            parquet: str | None = None) -> int:
    raw_datasets = os.path.join(raw, "datasets")
    if not os.path.isdir(raw_datasets):
        raise SystemExit(f"{raw}: no datasets/ folder; is this a gen_synth.py --format raw workload?")
    if os.path.exists(site):
        shutil.rmtree(site)
    content = os.path.join(site, "content", "datasets")
    data = os.path.join(site, "data", "datasets")
    os.makedirs(content)
    os.makedirs(data)
    settings = f"table_rows = {table_rows}\n" if table_rows is not None else ""
    settings += f"parquet = {parquet}\n" if parquet is not None else ""
    with open(os.path.join(site, "site.toml"), "w", encoding="utf-8") as f:
        f.write(SITE_TOML.format(settings=settings))
    count = 0
    for name in sorted(os.listdir(raw_datasets)):
        if not name.endswith(".md"):
            continue
        slug = name[:-3]
        meta, body = parse_raw_md(os.path.join(raw_datasets, name))
        csv_src = os.path.join(raw_datasets, meta.get("csv", f"{slug}.csv"))
        check_csv(csv_src)
        rows = count_rows(csv_src)
        with open(os.path.join(content, f"{slug}.md"), "w", encoding="utf-8") as f:
            f.write(front_matter(meta, rows) + "\n" + lede_first(body))
        link_or_copy(csv_src, os.path.join(data, f"{slug}.csv"), copy)
        count += 1
    return count


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw", help="a gen_synth.py --format raw output folder")
    ap.add_argument("site", help="the datapages site folder to write (replaced if it exists)")
    ap.add_argument("--table-rows", help='rows each page\'s table shows: a number or "all" (default: datapages\' cap)')
    ap.add_argument("--copy", action="store_true", help="copy the CSVs instead of hard-linking them")
    ap.add_argument("--parquet", choices=["true", "false", '"auto"'],
                    help="site.toml's parquet setting (default: datapages' own, \"auto\")")
    a = ap.parse_args(argv)
    table_rows = None
    if a.table_rows is not None:
        if a.table_rows == "all":
            table_rows = '"all"'
        elif a.table_rows.isdigit():
            table_rows = a.table_rows
        else:
            ap.error('--table-rows takes a whole number or "all"')
    n = convert(a.raw, a.site, table_rows, a.copy, a.parquet)
    print(f"converted {n} datasets: {a.raw} -> {a.site}" + (f" (table_rows = {table_rows})" if table_rows else "")
          + (f" (parquet = {a.parquet})" if a.parquet else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
