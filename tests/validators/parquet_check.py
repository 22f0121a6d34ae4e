"""Reads every dataset's Parquet copy with pyarrow and compares it with its CSV, parsed
here independently (the csv module, the front matter read with tomllib): same row count,
each column's Arrow type from its declared type, every value equal to the cell read with
the declared type, missing values and number marks (tests/it/parquet.rs).

Usage: parquet_check.py SITE_ROOT OUTPUT_DIR; prints a JSON report
{"files": N, "rows": N, "cells": N, "failures": [...]}.
"""

import csv
import datetime as dt
import json
import math
import pathlib
import sys
import tomllib

import pyarrow as pa
import pyarrow.parquet as pq

NON_FINITE = {
    "pandas": {"inf": math.inf, "-inf": -math.inf, "nan": math.nan},
    "r": {"Inf": math.inf, "-Inf": -math.inf, "NaN": math.nan},
}
TABLE_SCHEMA = {"INF": math.inf, "-INF": -math.inf, "NaN": math.nan}
TRUE = {"true", "True", "TRUE", "1"}
FALSE = {"false", "False", "FALSE", "0"}


def front_matter(path):
    text = path.read_text(encoding="utf-8")
    _, front, _ = text.split("+++", 2)
    return tomllib.loads(front)


def has_time(fmt):
    return any(d in fmt for d in ("%H", "%M", "%S", "%z"))


def expected_type(column, cells):
    """The Arrow type a declared column must have: the declared type, a date column of
    whole days as date32, of bare years (`%Y`, or every cell four digits) as int64 (a
    whole number, as Croissant and the snippets read it), other dates (months, weeks,
    quarters, mixed) as text."""
    kind = column["type"]
    fmt = column.get("format")
    if kind == "integer":
        values = [int(c) for c in cells]
        if any(abs(v) >= 9.2e18 for v in values):
            return pa.string()
        return pa.int64()
    if kind == "number":
        return pa.float64()
    if kind == "boolean":
        return pa.bool_()
    if kind == "date":
        if fmt == "%Y" or (fmt is None and cells and all(len(c) == 4 and c.isdigit() for c in cells)):
            return pa.int64()
        if fmt is not None:
            day = "%d" in fmt and "%V" not in fmt and "%q" not in fmt
            return pa.date32() if day else pa.string()
        return pa.date32() if all(len(c) == 10 for c in cells) else pa.string()
    if kind == "datetime":
        zoned = fmt is None or "%z" in fmt
        return pa.timestamp("us", tz="UTC") if zoned else pa.timestamp("us")
    return pa.string()


def plain_number(cell, column, front):
    group = column.get("group", front.get("group"))
    decimal = column.get("decimal", front.get("decimal", "."))
    if group:
        cell = cell.replace(group, "")
    if decimal == ",":
        cell = cell.replace(",", ".")
    return cell


def read_cell(cell, column, front, arrow_type):
    kind = column["type"]
    fmt = column.get("format")
    if arrow_type == pa.string():
        return cell
    if kind == "integer":
        return int(plain_number(cell, column, front))
    if kind == "number":
        spelling = column.get("non_finite") or ("pandas" if column.get("pandas_numbers") else None)
        if spelling and cell in NON_FINITE[spelling]:
            return NON_FINITE[spelling][cell]
        if cell in TABLE_SCHEMA:
            return TABLE_SCHEMA[cell]
        return float(plain_number(cell, column, front))
    if kind == "boolean":
        if cell in TRUE:
            return True
        if cell in FALSE:
            return False
        raise ValueError(f"not a boolean: {cell!r}")
    if kind == "date" and arrow_type == pa.int64():
        return int(cell)
    if kind == "date":
        if fmt is not None:
            return dt.datetime.strptime(cell, fmt).date()
        return dt.date.fromisoformat(cell)
    if kind == "datetime":
        if fmt is not None:
            value = dt.datetime.strptime(cell, fmt)
        else:
            value = dt.datetime.fromisoformat(cell.replace("Z", "+00:00"))
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc)
        return value
    raise ValueError(f"unknown type {kind}")


def same(got, want):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    return got == want and type(got) is type(want)


def check_dataset(root, output, md, site, report):
    slug = md.stem
    front = front_matter(md)
    parquet = output / "data" / "datasets" / f"{slug}.parquet"
    copy = output / "data" / "datasets" / f"{slug}.csv"
    wanted = front.get("parquet", site.get("parquet", True))
    if not copy.exists():
        return
    if not wanted:
        if parquet.exists():
            report["failures"].append(f"{slug}: parquet = false, but {parquet.name} exists")
        return
    if not parquet.exists():
        report["failures"].append(f"{slug}: no {parquet.name}")
        return
    raw = parquet.read_bytes()
    if raw[:4] != b"PAR1" or raw[-4:] != b"PAR1":
        report["failures"].append(f"{slug}: not framed by PAR1")
    table = pq.read_table(parquet)
    columns = front.get("columns", [])
    dataset_missing = front.get("missing_values", site.get("missing_values"))
    with copy.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter=front.get("delimiter", ",")))
    header, body = rows[0], rows[1:]
    report["files"] += 1
    report["rows"] += len(body)
    if table.num_rows != len(body):
        report["failures"].append(f"{slug}: {table.num_rows} rows, the CSV has {len(body)}")
        return
    names = [c["name"] or "rownames" for c in columns]
    if table.column_names != names:
        report["failures"].append(f"{slug}: columns {table.column_names}, declared {names}")
        return
    described = json.loads(pq.read_metadata(parquet).metadata[b"datapages"])["columns"]
    for column, entry in zip(columns, described):
        if entry["description"] != column["description"] or entry.get("unit") != column.get("unit"):
            report["failures"].append(f"{slug}: metadata of {column['name']!r}: {entry}")
    for index, column in enumerate(columns):
        name = names[index]
        missing = set(column.get("missing_values", dataset_missing) or []) | {""}
        cells = [row[index] if index < len(row) else "" for row in body]
        present = [c for c in cells if c not in missing]
        if column["type"] == "integer":
            present = [plain_number(c, column, front) for c in present]
        arrow_type = expected_type(column, present)
        got_type = table.schema.field(name).type
        if got_type != arrow_type:
            report["failures"].append(f"{slug}.{name}: type {got_type}, declared {arrow_type}")
            continue
        got = table.column(name).to_pylist()
        for row, (cell, value) in enumerate(zip(cells, got), start=1):
            want = None if cell in missing else read_cell(cell, column, front, arrow_type)
            report["cells"] += 1
            if not same(value, want):
                report["failures"].append(
                    f"{slug}.{name} row {row}: {value!r} in the Parquet, {want!r} from {cell!r}"
                )
                break


def main():
    root, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    site = tomllib.loads((root / "site.toml").read_text(encoding="utf-8"))
    report = {"files": 0, "rows": 0, "cells": 0, "failures": []}
    for md in sorted((root / "content" / "datasets").glob("*.md")):
        try:
            check_dataset(root, output, md, site, report)
        except Exception as error:  # noqa: BLE001 - every dataset is reported
            report["failures"].append(f"{md.stem}: {type(error).__name__}: {error}")
    print(json.dumps(report))


main()
