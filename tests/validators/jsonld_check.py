"""Extracts the JSON-LD of HTML pages with extruct (as search engines do) and validates every
schema.org Dataset in it against google-dataset.schema.json. Prints one JSON report and exits 1
when any page has no Dataset or a Dataset breaks a rule.

Usage: python jsonld_check.py SCHEMA.json PAGE.html [PAGE.html ...]
"""
import json
import sys

import extruct
import jsonschema


def main(argv):
    schema = json.load(open(argv[1], encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    report = {"valid": True, "pages": []}
    for path in argv[2:]:
        html = open(path, encoding="utf-8").read()
        data = extruct.extract(html, syntaxes=["json-ld"], uniform=True)["json-ld"]
        datasets = [item for item in data if item.get("@type") == "Dataset"]
        errors = []
        if not datasets:
            errors.append("no schema.org Dataset in the page")
        for item in datasets:
            for error in validator.iter_errors(item):
                location = "/".join(str(p) for p in error.absolute_path)
                errors.append(f"{location}: {error.message}")
        report["pages"].append({"page": path, "datasets": len(datasets), "errors": errors, "items": datasets})
        if errors:
            report["valid"] = False
    json.dump(report, sys.stdout, indent=2)
    return 0 if report["valid"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
