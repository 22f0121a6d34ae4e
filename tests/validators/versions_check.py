"""Recomputes the row-level comparison of a dataset's kept versions with Python's own csv
module and compares it with what datapages wrote in the Data Package.

Usage: versions_check.py <page.md> <site root> <data package .json>

The kept files are read from the page's `[[changes]]` entries (oldest first by date, the
current CSV last). With a `primary_key`, rows are matched by it: added, removed, changed
(any of the columns both versions have differs) and per-column counts; without one, rows
are compared whole as multisets (counts only). Exits 1 on any difference.
"""

import collections
import csv
import json
import sys
import tomllib


def front_matter(path):
    text = open(path, encoding="utf-8").read()
    _, front, _ = text.split("+++", 2)
    return tomllib.loads(front)


def read(path, delimiter):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter=delimiter))
    return rows[0], rows[1:]


def compare(old, new, key):
    (old_header, old_rows), (new_header, new_rows) = old, new
    common = [c for c in new_header if c in old_header]
    def cells(header, row, columns):
        return tuple(row[header.index(c)] if header.index(c) < len(row) else "" for c in columns)
    out = {
        "columnsAdded": [c for c in new_header if c not in old_header],
        "columnsRemoved": [c for c in old_header if c not in new_header],
    }
    if not key:
        before = collections.Counter(cells(old_header, r, common) for r in old_rows)
        after = collections.Counter(cells(new_header, r, common) for r in new_rows)
        out.update(rowsAdded=sum((after - before).values()),
                   rowsRemoved=sum((before - after).values()), rowsChanged=0, changedColumns=[])
        return out
    before = {cells(old_header, r, key): r for r in old_rows}
    after = {cells(new_header, r, key): r for r in new_rows}
    changed = 0
    per_column = collections.Counter()
    for k, row in after.items():
        if k not in before:
            continue
        differing = [c for c in common
                     if cells(old_header, before[k], [c]) != cells(new_header, row, [c])]
        changed += bool(differing)
        per_column.update(differing)
    out.update(
        rowsAdded=sum(1 for k in after if k not in before),
        rowsRemoved=sum(1 for k in before if k not in after),
        rowsChanged=changed,
        changedColumns=[{"column": c, "count": per_column[c]} for c in common if per_column[c]],
    )
    return out


def main():
    page, root, package_path = sys.argv[1:4]
    front = front_matter(page)
    delimiter = front.get("delimiter", ",")
    key = front.get("primary_key", [])
    kept = [c for c in front.get("changes", []) if "file" in c]
    kept.sort(key=lambda c: str(c["date"]))
    slug = page.rsplit("/", 1)[-1].removesuffix(".md")
    current = front.get("data", f"data/datasets/{slug}.csv")
    files = [f"{root}/{c['file']}" for c in kept] + [f"{root}/{current}"]
    tables = [read(f, delimiter) for f in files]
    stated = json.load(open(package_path, encoding="utf-8"))["datapages:versions"]
    if len(stated) != len(kept):
        sys.exit(f"{len(stated)} versions stated, {len(kept)} kept")
    failures = []
    for i, entry in enumerate(stated):
        want = compare(tables[i], tables[i + 1], key)
        got = {k: entry["then"][k] for k in want}
        if got != want or entry["version"] != kept[i]["version"]:
            failures.append(f"version {kept[i]['version']}: datapages {got}, Python {want}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"{len(stated)} comparisons agree")


main()
