"""Column profiles computed independently of datapages, with Python's csv and statistics:
for each Data Package given, every field's `datapages:profile` is compared with what a
naive read of its CSV gives. Prints one line per difference; exits 1 if there is any.
The profile leaves out what another key says: `count` when it equals `filled`, the
histogram of a single value, the most common values when none repeats."""
import csv
import json
import math
import statistics
import sys
from collections import Counter

CAP = 1000
TOP = 5
KEPT = 80


def kept(value):
    """A value as profiles keep it: whole up to KEPT characters, else cut to end in an ellipsis."""
    return value if len(value) <= KEPT else value[: KEPT - 1] + "\u2026"

problems = []


def expect(where, what, got, want):
    same = got == want
    if isinstance(want, float) and isinstance(got, (int, float)):
        same = math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300)
    if not same:
        problems.append(f"{where}: {what} is {got!r}, expected {want!r}")


for package_path in sys.argv[1:]:
    with open(package_path, encoding="utf-8") as f:
        package = json.load(f)
    for resource in package["resources"]:
        csv_path = package_path.rsplit("/", 1)[0] + "/" + resource["path"]
        with open(csv_path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        for field in resource["schema"]["fields"]:
            name = field["name"]
            where = f"{resource['path']} column {name}"
            profile = field.get("datapages:profile")
            if profile is None:
                problems.append(f"{where}: no datapages:profile")
                continue
            cells = [row[name] for row in rows]
            values = [c for c in cells if c != ""]
            expect(where, "filled", profile["filled"], len(values))
            expect(where, "empty", profile["empty"], len(cells) - len(values))
            kind = field["type"]
            if kind in ("number", "integer"):
                numbers = [float(v) for v in values]
                expect(where, "count", profile.get("count", profile["filled"]), len(numbers))
                if "count" in profile:
                    expect(where, "count (written only when it differs from filled)",
                           profile["count"] != profile["filled"], True)
                expect(where, "min", profile.get("min"), min(numbers))
                expect(where, "max", profile.get("max"), max(numbers))
                expect(where, "mean", profile.get("mean"), statistics.fmean(numbers))
                histogram = profile.get("histogram")
                if min(numbers) == max(numbers):
                    expect(where, "histogram of one value", histogram, None)
                    continue
                if histogram is None:
                    problems.append(f"{where}: no histogram")
                    continue
                counts, start, width = histogram["counts"], histogram["from"], histogram["width"]
                expect(where, "values in the histogram", sum(counts), len(numbers))
                expect(where, "bin width a power of two", math.frexp(width)[0], 0.5)
                if len(counts) > 20:
                    problems.append(f"{where}: {len(counts)} histogram bins")
                for i, count in enumerate(counts):
                    low, high = start + i * width, start + (i + 1) * width
                    inside = sum(1 for x in numbers if low <= x < high)
                    expect(where, f"bin from {low}", count, inside)
            elif kind in ("date", "year", "datetime"):
                expect(where, "earliest", profile.get("earliest"), min(values))
                expect(where, "latest", profile.get("latest"), max(values))
            else:
                counts = Counter(values)
                if len(counts) > CAP:
                    expect(where, "distinctMoreThan", profile.get("distinctMoreThan"), CAP)
                    continue
                expect(where, "distinct", profile.get("distinct"), len(counts))
                top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
                want = [{"value": kept(v), "count": n} for v, n in top]
                if not top or top[0][1] == 1:
                    want = None  # no value repeats: none is "most common"
                expect(where, "mostCommon", profile.get("mostCommon"), want)

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
