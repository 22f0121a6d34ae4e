"""Validates every dataset of a built site with each standard's own tool, in one process.

Usage: corpus_check.py OUTPUT_DIR

For each data/datasets/<slug>.json: frictionless validates the Data Package; csvw (what
`csvwvalidate` runs, strict) validates <slug>.csv-metadata.json; mlcroissant reads
<slug>.croissant.json without an error or a warning and loads every record with its
declared type (croissant_check.check). A "year column" (named year, all cells four-digit
whole numbers) must be declared sc:Integer and load as int.

Prints one JSON object: how many datasets, and each failure as {slug: [problems]}.
"""

import json
import pathlib
import re
import sys
import csv as csv_module

import frictionless
from csvw import CSVW

import croissant_check

YEAR = re.compile(r"^\d{4}$")


def year_columns(csv_path):
    """The columns named like "year" whose cells are all four-digit whole numbers."""
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv_module.DictReader(f))
    if not rows:
        return []
    names = [n for n in rows[0] if n and "year" in n.lower()]
    return [n for n in names if all(YEAR.match(r[n] or "0000") for r in rows)]


def check(datasets, slug):
    problems = []
    descriptor = datasets / f"{slug}.json"
    report = frictionless.validate(str(descriptor))
    if not report.valid:
        notes = report.flatten(["type", "note"])
        problems.append(f"frictionless: {notes[:5]}")
    try:
        csvw = CSVW(str(datasets / f"{slug}.csv-metadata.json"), validate=True, strict=True)
        if not csvw.is_valid:
            problems.append(f"csvw: {[str(w.message) for w in csvw.warnings][:5]}")
    except ValueError as error:
        problems.append(f"csvw: {error}")
    croissant = datasets / f"{slug}.croissant.json"
    csv_path = datasets / f"{slug}.csv"
    package = json.loads(descriptor.read_text(encoding="utf-8"))
    schema = package["resources"][0]["schema"]
    # Each column's missing values: its own (Table Schema v2), else the table's. `NA` may
    # be no value in a column of notes and Namibia in a column of country codes.
    table_missing = schema.get("missingValues", [""])
    missing = {f["name"]: tuple(f.get("missingValues", table_missing)) for f in schema["fields"]}
    loaded, ok = croissant_check.check(str(croissant), str(csv_path), missing)
    if not ok:
        problems.append(f"mlcroissant: {loaded['error'][:500]}")
    else:
        for key in ("problems", "warnings"):
            if loaded[key]:
                problems.append(f"mlcroissant {key}: {loaded[key][:5]}")
        if loaded["rows"] != loaded["csv_rows"]:
            problems.append(f"mlcroissant: {loaded['rows']} records, {loaded['csv_rows']} rows")
    fields = json.loads(croissant.read_text(encoding="utf-8"))["recordSet"][0]["field"]
    types = {f["source"]["extract"]["column"]: f["dataType"] for f in fields}
    years = year_columns(csv_path)
    for column in years:
        if types.get(column) != "sc:Integer":
            problems.append(f"year column {column!r} is {types.get(column)} in Croissant")
    return problems, len(years)


def main():
    datasets = pathlib.Path(sys.argv[1]) / "data" / "datasets"
    slugs = sorted(p.stem for p in datasets.glob("*.json") if not p.name.endswith((".croissant.json", ".csv-metadata.json")))
    failures = {}
    year_count = 0
    for slug in slugs:
        problems, years = check(datasets, slug)
        year_count += years
        if problems:
            failures[slug] = problems
    print(json.dumps({"datasets": len(slugs), "year_columns": year_count, "failures": failures}))


if __name__ == "__main__":
    main()
