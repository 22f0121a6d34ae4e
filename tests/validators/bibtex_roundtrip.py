"""Reads the BibTeX a dataset page shows with pybtex, which counts braces as BibTeX does
(a backslash changes nothing), in strict mode (any error fails), and prints what it read
as JSON: the entries, each field's value with datapages' escapes undone (the title's outer
braces too), and the authors, each as [given names, family names] undone the same way.

Usage: bibtex_roundtrip.py FILE.bib
"""
import json
import re
import sys

import pybtex.errors
from pybtex.database import parse_file

pybtex.errors.set_strict_mode(True)

# The escapes of src/metadata/citation_files.rs (`tex`, `bibtex_name`), undone: characters
# written as commands, a special character after a backslash, a braced `@`, comma or `and`.
NAMED = {
    "\\textbraceleft{}": "{",
    "\\textbraceright{}": "}",
    "\\textbackslash{}": "\\",
    "\\textasciitilde{}": "~",
    "\\textasciicircum{}": "^",
}
TOKEN = re.compile(
    r"\\text(?:braceleft|braceright|backslash|asciitilde|asciicircum)\{\}"
    r"|\\[{}%&$#_]|\{@\}|\{,\}|\{(?i:and)\}|.",
    re.S,
)


def plain(text):
    out = []
    for token in TOKEN.findall(text):
        if token in NAMED:
            out.append(NAMED[token])
        elif len(token) == 2 and token[0] == "\\":
            out.append(token[1])
        elif len(token) > 1 and token[0] == "{" and token[-1] == "}":
            out.append(token[1:-1])
        else:
            out.append(token)
    return "".join(out)


def unbraced(text):
    """One pair of outer braces taken off (the title's and an organisation's)."""
    if text.startswith("{") and text.endswith("}"):
        return text[1:-1]
    return text


def main():
    data = parse_file(sys.argv[1], "bibtex")
    entries = list(data.entries.values())
    entry = entries[0] if entries else None
    report = {
        "entries": len(entries),
        "fields": {k: plain(unbraced(v) if k == "title" else v) for k, v in entry.fields.items()} if entry else {},
        "authors": [
            [
                plain(" ".join(person.first_names + person.middle_names)),
                plain(unbraced(" ".join(person.prelast_names + person.last_names + person.lineage_names))),
            ]
            for person in (entry.persons.get("author", []) if entry else [])
        ],
    }
    print(json.dumps(report))


main()
