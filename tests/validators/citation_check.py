"""Parses citation files with real parsers and prints what they read, as JSON.

Usage: citation_check.py FILE.bib FILE.cff FILE.ris
BibTeX: bibtexparser 2 (blocks it cannot parse are reported). CFF: PyYAML, then the
Citation File Format 1.2.0 JSON schema (cff-schema-1.2.0.json beside this script) with
jsonschema. RIS: rispy, and a strict line check (tag, two spaces, hyphen, space; TY first,
ER last; CRLF line ends).
"""
import json
import pathlib
import re
import sys

import bibtexparser
import jsonschema
import rispy
import yaml

bib_path, cff_path, ris_path = sys.argv[1:4]

library = bibtexparser.parse_string(pathlib.Path(bib_path).read_text(encoding="utf-8"))
bib = {
    "entries": len(library.entries),
    "failed": [str(b.error) if hasattr(b, "error") else repr(b) for b in library.failed_blocks],
    "fields": {f.key: f.value for f in library.entries[0].fields} if library.entries else {},
    "type": library.entries[0].entry_type if library.entries else None,
    "key": library.entries[0].key if library.entries else None,
}

schema = json.loads((pathlib.Path(__file__).parent / "cff-schema-1.2.0.json").read_text())
data = yaml.safe_load(pathlib.Path(cff_path).read_text(encoding="utf-8"))
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
cff = {"errors": [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(data)], "data": data}

raw = pathlib.Path(ris_path).read_bytes()
text = raw.decode("utf-8")
strict = []
lines = text.split("\r\n")
if lines[-1] != "":
    strict.append("the file does not end with CRLF")
lines = lines[:-1]
for number, line in enumerate(lines, 1):
    if "\n" in line or "\r" in line:
        strict.append(f"line {number}: a bare line break")
    if not re.fullmatch(r"[A-Z][A-Z0-9]  - .*", line) and line != "ER  - ":
        strict.append(f"line {number}: not TAG  - value: {line!r}")
if not lines or not lines[0].startswith("TY  - "):
    strict.append("TY is not first")
if not lines or lines[-1] != "ER  - ":
    strict.append("ER is not last")
ris = {"entries": rispy.loads(text), "strict_errors": strict}

print(json.dumps({"bib": bib, "cff": cff, "ris": ris}, default=str))
