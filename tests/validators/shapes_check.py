"""Reads one dataset of a built site with every reference tool and compares the column types.

Usage: shapes_check.py OUTPUT_DIR SLUG

Each reader's type of each column, in one vocabulary (integer, number, string, date,
datetime, boolean): the Data Package as declared; frictionless' rows (Python types of the
cells it reads); the Parquet copy's schema (pyarrow); mlcroissant's records; and the
pandas, Polars and DuckDB snippets of the dataset page, run as written with the site's
address replaced by the output folder (so nothing is fetched). Prints JSON:
{"types": {column: type where every reader agrees}, "problems": [disagreements and errors],
"readers": [the readers that read it], "missing": {reader: {column: how many cells it read
as missing}}} (a missing marker that ate a real value shows as a count above the page's).
"""

import datetime
import html
import json
import pathlib
import re
import sys

SNIPPET = re.compile(r'id="use-(pandas|polars|duckdb)".*?<pre[^>]*><code[^>]*>(.*?)</code>', re.S)


def vocabulary(name):
    name = str(name).lower()
    for word, kind in [
        ("bool", "boolean"),
        ("int", "integer"),
        ("float", "number"),
        ("double", "number"),
        ("decimal", "number"),
        ("timestamp", "datetime"),
        ("datetime64[ns, utc]", "datetime"),
        ("datetime(time_unit", "datetime"),
        ("date", "date"),
        ("datetime64", "date"),
        ("str", "string"),
        ("object", "string"),
        ("varchar", "string"),
        ("utf8", "string"),
    ]:
        if word in name:
            return kind
    return name


def python_kind(value):
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float) or type(value).__name__ == "Decimal":
        return "number"
    if isinstance(value, datetime.datetime):
        return "datetime"
    if isinstance(value, datetime.date):
        return "date"
    if isinstance(value, (str, bytes)):
        return "string"
    return type(value).__name__


def snippets(output, slug):
    page = (output / "datasets" / slug / "index.html").read_text(encoding="utf-8")
    found = {}
    for tool, code in SNIPPET.findall(page):
        found[tool] = html.unescape(re.sub(r"<[^>]+>", "", code))
    return found


def is_missing(value):
    return value is None or (isinstance(value, float) and value != value)


def run_snippet(tool, code, base, folder):
    """The column types a snippet's data frame has, and how many missing cells each."""
    code = code.replace(base, folder)
    if tool == "duckdb":
        import duckdb

        relation = duckdb.sql(code.strip().rstrip(";"))
        rows = relation.fetchall()
        missing = {name: sum(is_missing(row[i]) for row in rows) for i, name in enumerate(relation.columns)}
        return {name: vocabulary(kind) for name, kind in zip(relation.columns, relation.types)}, missing
    scope = {}
    exec(compile(code, tool, "exec"), scope)
    df = scope["df"]
    if tool == "pandas":
        missing = {str(name): int(count) for name, count in df.isna().sum().items()}
        return {str(name): vocabulary(kind) for name, kind in df.dtypes.items()}, missing
    missing = {name: int(df[name].null_count()) for name in df.columns}
    return {name: vocabulary(kind) for name, kind in df.schema.items()}, missing


def main():
    output, slug = pathlib.Path(sys.argv[1]), sys.argv[2]
    datasets = output / "data" / "datasets"
    package = json.loads((datasets / f"{slug}.json").read_text(encoding="utf-8"))
    resource = package["resources"][0]
    fields = resource["schema"]["fields"]
    # Table Schema's `year` is a whole number (frictionless reads it as int).
    declared = {"year": "integer"}
    readers = {"datapackage": {f["name"]: declared.get(f["type"], f["type"]) for f in fields}}
    problems = []
    missing = {}

    import frictionless

    pkg = frictionless.Package(str(datasets / f"{slug}.json"))
    rows = pkg.resources[0].read_rows()
    kinds = {}
    missing["frictionless"] = {f["name"]: 0 for f in fields}
    for row in rows:
        for name, value in row.items():
            if value is not None:
                kinds.setdefault(name, set()).add(python_kind(value))
            else:
                missing["frictionless"][name] = missing["frictionless"].get(name, 0) + 1
    readers["frictionless"] = {n: "/".join(sorted(k)) for n, k in kinds.items()}

    parquet = datasets / f"{slug}.parquet"
    if parquet.exists():
        import pyarrow.parquet as pq

        schema = pq.read_schema(parquet)
        readers["pyarrow"] = {f.name: vocabulary(f.type) for f in schema}
        table = pq.read_table(parquet)
        missing["pyarrow"] = {name: table.column(name).null_count for name in table.column_names}

    try:
        import mlcroissant as mlc

        croissant = json.loads((datasets / f"{slug}.croissant.json").read_text(encoding="utf-8"))
        mapping = {file["@id"]: str(datasets / file["@id"]) for file in croissant["distribution"]}
        dataset = mlc.Dataset(jsonld=str(datasets / f"{slug}.croissant.json"), mapping=mapping)
        record_set = dataset.metadata.record_sets[0].uuid
        kinds = {}
        missing["mlcroissant"] = {}
        for record in dataset.records(record_set=record_set):
            for key, value in record.items():
                name = key.split("/")[-1]
                counts = missing["mlcroissant"]
                counts[name] = counts.get(name, 0) + int(is_missing(value))
                if not is_missing(value):
                    kinds.setdefault(name, set()).add(python_kind(value))
        readers["mlcroissant"] = {
            n: "/".join(sorted(k - {"string"} if "string" in k and len(k) > 1 else k))
            for n, k in kinds.items()
        }
    except Exception as error:  # noqa: BLE001 - reported, not hidden
        problems.append(f"mlcroissant: {type(error).__name__}: {error}")

    base = None
    for tool, code in snippets(output, slug).items():
        match = re.search(r"['\"](https?://[^'\"]*?)/data/datasets/" + re.escape(slug), code)
        if match:
            base = match.group(1) + "/data/datasets"
        try:
            readers[tool], missing[tool] = run_snippet(tool, code, base or "", str(datasets))
        except Exception as error:  # noqa: BLE001
            problems.append(f"{tool}: {type(error).__name__}: {error}")

    agreed = {}
    for field in fields:
        name = field["name"]
        seen = {reader: types.get(name) for reader, types in readers.items()}
        # mlcroissant reads bytes for text.
        seen = {r: ("string" if t == "string/bytes" or t == "bytes" else t) for r, t in seen.items()}
        values = {t for t in seen.values() if t is not None}
        if len(values) == 1:
            agreed[name] = values.pop()
        else:
            problems.append(f"{name}: {seen}")
    print(json.dumps({"types": agreed, "problems": problems, "readers": sorted(readers), "missing": missing}))


main()
