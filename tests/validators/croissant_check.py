"""Loads a Croissant file's one record set with mlcroissant and checks it against the CSV.

Usage: croissant_check.py CROISSANT.json CSV

The FileObjects' contentUrls point at the published site; each is mapped to the local file
beside the CSV (the CSV, its Parquet copy) so nothing is fetched. The CSV is compared cell by
cell as its Data Package (beside it) says it is read: with `skipInitialSpace`, padding
after a delimiter is not part of a cell. Prints one JSON line: rows read, the CSV's rows, and any problem (a
value whose Python type does not match the field's declared dataType, or a whole number or
boolean read as another value than its cell's: a year must read as 1948). Exits 1 when the
record set cannot be read at all (mlcroissant raised), 0 otherwise. The record set's `key`
(the dataset's primary key) must name its fields and tell the records apart.
"""

import csv
import datetime
import json
import pathlib
import sys

import mlcroissant as mlc

# What mlcroissant hands back for each declared dataType (None for an empty cell).
EXPECTED = {
    "https://schema.org/Integer": (int,),
    "https://schema.org/Float": (float,),
    "https://schema.org/Boolean": (bool,),
    "https://schema.org/Text": (bytes, str),
    "https://schema.org/Date": (datetime.date, datetime.datetime),
    "https://schema.org/DateTime": (datetime.datetime,),
}


# Not-a-number cells (Table Schema's and R's `NaN`, pandas' `nan`): mlcroissant's loader
# (pandas) hands them back as an empty value, as it cannot tell them from a missing cell.
NOT_A_NUMBER = ("NaN", "nan")


def is_empty(value):
    # pandas reads an empty cell of a numeric column as NaN, of a date column as NaT.
    return value is None or (isinstance(value, float) and value != value) or str(value) == "NaT"


def same_value(expected, value, cell):
    """Whether a whole number or a boolean was read as the value its cell writes."""
    if expected == (int,):
        return value == int(cell)
    if expected == (bool,):
        return value == (cell in ("true", "True", "TRUE", "1"))
    return True


def check(croissant, csv_path, missing=("",)):
    """Loads the record set; returns (report, whether it loaded at all). Cells whose text is
    in `missing` (the Data Package's missingValues: one tuple for every column, or a dict
    of each column's) must read as empty."""
    with open(croissant, encoding="utf-8") as f:
        jsonld = json.load(f)
    folder = pathlib.Path(csv_path).parent
    mapping = {file["@id"]: str(folder / file["@id"]) for file in jsonld["distribution"]}
    mapping[jsonld["distribution"][0]["@id"]] = csv_path
    package = pathlib.Path(csv_path).with_suffix(".json")
    skip = False
    if package.exists():
        dialect = json.loads(package.read_text(encoding="utf-8"))["resources"][0].get("dialect", {})
        skip = dialect.get("skipInitialSpace", False)
    record_set = jsonld["recordSet"][0]["@id"]
    declared = {
        field["@id"]: "https://schema.org/" + field["dataType"].removeprefix("sc:")
        for field in jsonld["recordSet"][0]["field"]
    }
    with open(csv_path, newline="", encoding="utf-8") as f:
        csv_rows = list(csv.DictReader(f, skipinitialspace=skip))
    columns = {field["@id"]: field["source"]["extract"]["column"] for field in jsonld["recordSet"][0]["field"]}
    problems = []
    rows = 0
    # The record set's `key` (the primary key): its values must tell the records apart.
    key = jsonld["recordSet"][0].get("key", [])
    key = [k["@id"] for k in (key if isinstance(key, list) else [key])]
    problems.extend(f"key field {k} is not a field" for k in key if k not in declared)
    seen_keys = set()
    try:
        dataset = mlc.Dataset(jsonld=croissant, mapping=mapping)
        warnings = sorted(str(w) for w in dataset.metadata.ctx.issues.warnings)
        for index, record in enumerate(dataset.records(record_set=record_set)):
            rows += 1
            if key:
                values = tuple(record.get(k) for k in key)
                if values in seen_keys:
                    problems.append(f"row {index + 1}: key {values!r} repeats")
                seen_keys.add(values)
            for field_id, value in record.items():
                expected = EXPECTED.get(declared.get(field_id))
                if expected is None:
                    problems.append(f"{field_id}: no declared dataType")
                    continue
                cell = csv_rows[index][columns[field_id]] if index < len(csv_rows) else None
                column_missing = missing.get(columns[field_id], ("",)) if isinstance(missing, dict) else missing
                if cell in column_missing or (expected == (float,) and cell in NOT_A_NUMBER):
                    if not is_empty(value):
                        problems.append(f"row {index + 1} {field_id}: empty cell read as {value!r}")
                elif is_empty(value) or not isinstance(value, expected) or (
                    expected == (int,) and isinstance(value, bool)
                ):
                    problems.append(
                        f"row {index + 1} {field_id}: {value!r} ({type(value).__name__}) is not {declared[field_id]}"
                    )
                elif not same_value(expected, value, cell):
                    problems.append(f"row {index + 1} {field_id}: {value!r} read from {cell!r}")
    except Exception as error:  # mlcroissant raises its own and pandas' errors
        return {"error": f"{type(error).__name__}: {error}"}, False
    report = {"rows": rows, "csv_rows": len(csv_rows), "problems": problems[:20], "warnings": warnings}
    return report, True


def main():
    report, loaded = check(sys.argv[1], sys.argv[2])
    print(json.dumps(report))
    sys.exit(0 if loaded else 1)


if __name__ == "__main__":
    main()
