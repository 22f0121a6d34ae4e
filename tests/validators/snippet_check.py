"""Runs one "Use this data" snippet, as copied from a built page, and prints what it read.

Usage: snippet_check.py pandas|polars|duckdb SNIPPET_FILE
Prints JSON: {"rows": <row count>, "types": [[column, type name], ...], "nulls": [missing
cells of each column, ...]} in the columns' order (tests/it/snippets.rs).
The snippet is executed as it is; only DuckDB first loads its httpfs extension from the
pinned duckdb-extension-httpfs package (DuckDB would otherwise download it on first use).
"""

import glob
import json
import sys


def main():
    tool, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        code = f.read()
    if tool == "duckdb":
        import duckdb
        import duckdb_extension_httpfs

        pattern = duckdb_extension_httpfs.__path__[0] + "/extensions/*/httpfs.duckdb_extension"
        duckdb.sql("LOAD '" + glob.glob(pattern)[0] + "'")
        query = code.strip().rstrip(";")
        relation = duckdb.sql(query)
        types = [[name, str(kind)] for name, kind in zip(relation.columns, relation.types)]
        rows = duckdb.sql("SELECT count(*) FROM (" + query + ")").fetchone()[0]
        # Counted in SQL: fetching rows would need pytz for zoned times.
        counts = ", ".join('count(*) - count("' + name.replace('"', '""') + '")' for name in relation.columns)
        nulls = list(duckdb.sql("SELECT " + counts + " FROM (" + query + ")").fetchone())
        print(json.dumps({"rows": rows, "types": types, "nulls": nulls}))
        return
    scope = {}
    exec(compile(code, "snippet", "exec"), scope)
    df = scope["df"]
    if tool == "pandas":
        types = [[str(name), str(kind)] for name, kind in df.dtypes.items()]
        nulls = [int(n) for n in df.isna().sum()]
    else:
        types = [[name, str(kind)] for name, kind in df.schema.items()]
        nulls = [int(n) for n in df.null_count().row(0)]
    print(json.dumps({"rows": len(df), "types": types, "nulls": nulls}))


main()
