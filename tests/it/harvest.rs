//! What dataset-search and data-portal harvesters read passes their own tools: every
//! Croissant file validates with mlcroissant without a warning and its record set loads with
//! exactly the CSV's rows and declared types (a broken one fails to load); the DCAT catalog
//! parses with rdflib into the same graph from Turtle and JSON-LD, has every DCAT-AP 3
//! mandatory property (SPARQL), points only at files of the output, and conforms to the
//! DCAT-AP 3.0.0 SHACL shapes (pyshacl). Hostile titles and URLs survive both syntaxes.
//!
//! The tools live in the validators' venv (tests/validators/requirements.txt, installed by
//! scripts/test); without it these tests print "skipped: …" and pass, except under CI=true.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::build_bundled;
use serde_json::Value;

const BASE: &str = "https://datapages.example.org/";

/// The validators' venv `bin/` with mlcroissant, rdflib and pyshacl, or None (skip).
fn validators() -> Option<PathBuf> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::bundled_site().join("target/validators-venv"));
    let bin = venv.join("bin");
    let present = bin.join("mlcroissant").is_file()
        && venv.join(".installed").is_file()
        && std::fs::read_to_string(venv.join(".installed"))
            .is_ok_and(|installed| installed.contains("pyshacl"));
    common::tool_present("mlcroissant/rdflib/pyshacl (validators venv)", present).then_some(bin)
}

fn script(name: &str) -> PathBuf {
    common::bundled_site().join("tests/validators").join(name)
}

/// Runs a check script; returns its exit success and its JSON report.
fn python(bin: &Path, script_name: &str, args: &[&Path]) -> (bool, Value) {
    let out = Command::new(bin.join("python"))
        .arg(script(script_name))
        .args(args)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "{script_name} prints JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), report)
}

/// Builds the site at `root` into `output` with the binary; the build must succeed.
pub(crate) fn build_into(root: &Path, output: &Path) {
    let built = common::run(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
}

/// Runs a Python `probe` (`-c`) with `args`; returns the JSON it prints.
fn probe_report(bin: &Path, probe: &str, args: &[&std::ffi::OsStr]) -> Value {
    let result = Command::new(bin.join("python"))
        .args(["-c", probe])
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&result.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&result.stderr)))
}

fn slugs(output: &Path) -> Vec<String> {
    let bytes = std::fs::read(output.join("data/catalog.json")).unwrap();
    let catalog: Value = serde_json::from_slice(&bytes).unwrap();
    // Compact: exactly what serde_json writes of it (keys sorted), and a newline.
    let mut compact = serde_json::to_vec(&catalog).unwrap();
    compact.push(b'\n');
    assert!(bytes == compact, "catalog.json is not compact JSON");
    catalog["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["slug"].as_str().unwrap().to_string())
        .collect()
}

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn every_croissant_file_validates_without_warning_and_loads_every_row() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    let datasets = output.join("data/datasets");
    let slugs = slugs(&output);
    assert_eq!(slugs.len(), 4);
    for slug in &slugs {
        assert_croissant_valid(&bin, &datasets, slug);
    }
}

/// `mlcroissant validate` passes `slug`'s Croissant file in `datasets` without a warning,
/// and its record set loads with exactly the CSV's rows and declared types.
pub fn assert_croissant_valid(bin: &Path, datasets: &Path, slug: &str) {
    let croissant = datasets.join(format!("{slug}.croissant.json"));
    assert_croissant_validates(bin, &croissant, slug);
    let csv = datasets.join(format!("{slug}.csv"));
    let (ok, report) = python(bin, "croissant_check.py", &[&croissant, &csv]);
    assert!(ok, "{slug}: {report}");
    let package: Value =
        serde_json::from_slice(&std::fs::read(datasets.join(format!("{slug}.json"))).unwrap())
            .unwrap();
    let rows = &package["resources"][0]["rows"];
    assert!(rows.as_u64().unwrap() > 0);
    assert_eq!(&report["rows"], rows, "{slug}: {report}");
    assert_eq!(&report["csv_rows"], rows, "{slug}: {report}");
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "{slug}: {report}"
    );
}

/// `mlcroissant validate` passes the Croissant file without a warning or an error.
pub fn assert_croissant_validates(bin: &Path, croissant: &Path, slug: &str) {
    let result = Command::new(bin.join("mlcroissant"))
        .args(["validate", "--jsonld"])
        .arg(croissant)
        .output()
        .expect("mlcroissant runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(result.status.success(), "{slug}: {said}");
    assert!(!said.to_lowercase().contains("warning"), "{slug}: {said}");
    assert!(!said.to_lowercase().contains("error"), "{slug}: {said}");
}

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn creators_with_an_orcid_pass_croissant_and_dcat_ap() {
    let Some(bin) = validators() else { return };
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("public");
    // The metadata fixture credits a person with an ORCID iD and an organisation.
    build_into(
        &common::bundled_site().join("tests/fixtures/metadata"),
        &output,
    );
    // every-field credits them. Its CSV is `;`-separated, which mlcroissant 1.0's loader
    // reads as commas: the file is validated, its records are not loaded.
    let croissant = output.join("data/datasets/every-field.croissant.json");
    assert_croissant_validates(&bin, &croissant, "every-field");
    let (_, report) = python(
        &bin,
        "dcat_check.py",
        &[&output, Path::new("https://example.org/meta/")],
    );
    // The SHACL shapes pass; the fixture leaves out two recommended properties on purpose.
    assert_eq!(
        report["problems"],
        serde_json::json!([
            "dcat:Catalog https://example.org/meta/#catalog has no dct:license",
            "dcat:Dataset https://example.org/meta/datasets/many-values/#dataset has no dcat:keyword"
        ]),
        "{report:#}"
    );
    assert_eq!(report["counts"]["foaf:Agent"], 4, "{report:#}");
    let turtle = std::fs::read_to_string(output.join("data/catalog.ttl")).unwrap();
    assert!(
        turtle.contains("<https://orcid.org/0000-0002-1825-0097>\n    a foaf:Agent, foaf:Person ;\n    foaf:name \"Jane Doe\""),
        "{turtle}"
    );
}

#[test]
fn years_are_integers_and_booleans_load_in_every_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let front = common::SMALL_FRONT.replace("type = \"integer\"", "type = \"date\"")
        + "[[columns]]\nname = \"flag\"\ntitle = \"Flag\"\ntype = \"boolean\"\ndescription = \"A flag.\"\n";
    let csv = b"label,value,flag\na,1948,TRUE\nb,1950,FALSE\nc,2001,TRUE\n";
    common::write_small_site(&root, &front, common::SMALL_BODY, csv);
    let output = dir.path().join("out");
    build_into(&root, &output);
    let datasets = output.join("data/datasets");
    let croissant = datasets.join("sample.croissant.json");
    let json: Value = serde_json::from_slice(&std::fs::read(&croissant).unwrap()).unwrap();
    let fields = &json["recordSet"][0]["field"];
    assert_eq!(fields[1]["dataType"], "sc:Integer", "a year: {fields:#}");
    assert_eq!(fields[2]["dataType"], "sc:Boolean");
    let package: Value =
        serde_json::from_slice(&std::fs::read(datasets.join("sample.json")).unwrap()).unwrap();
    assert_eq!(
        package["resources"][0]["schema"]["fields"][1]["type"],
        "year"
    );
    let Some(bin) = validators() else { return };
    let (ok, report) = python(
        &bin,
        "croissant_check.py",
        &[&croissant, &datasets.join("sample.csv")],
    );
    assert!(ok, "{report}");
    assert_eq!(report["rows"], 3, "{report}");
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
}

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn a_field_pointing_at_a_missing_column_fails_the_load() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    let slug = "sata-sas-nvme-measured-throughput";
    let path = output.join(format!("data/datasets/{slug}.croissant.json"));
    let mut croissant: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    croissant["recordSet"][0]["field"][3]["source"]["extract"]["column"] =
        Value::from("no_such_column");
    std::fs::write(&path, serde_json::to_vec_pretty(&croissant).unwrap()).unwrap();
    let csv = output.join(format!("data/datasets/{slug}.csv"));
    let (ok, report) = python(&bin, "croissant_check.py", &[&path, &csv]);
    assert!(!ok, "a broken field must not load: {report}");
    assert!(report["error"].as_str().is_some(), "{report}");
}

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn the_dcat_catalog_meets_dcat_ap_3_in_turtle_and_in_json_ld_on_request() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    // By default, Turtle only.
    assert!(!output.join("data/catalog.jsonld").exists());
    assert_dcat_ap_3(&bin, &output, &["data/catalog.ttl"]);
    // `dcat = ["turtle", "jsonld"]`: both, one graph.
    let dir = tempfile::tempdir().unwrap();
    let output = build_bundled_with_json_ld(dir.path());
    assert_dcat_ap_3(&bin, &output, &["data/catalog.ttl", "data/catalog.jsonld"]);
}

/// The bundled site built into `dir` with `dcat = ["turtle", "jsonld"]`; its output.
fn build_bundled_with_json_ld(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("site");
    common::copy_bundled_site(&root);
    let settings = std::fs::read_to_string(root.join("site.toml")).unwrap();
    let settings = format!("dcat = [\"turtle\", \"jsonld\"]\n{settings}");
    std::fs::write(root.join("site.toml"), settings).unwrap();
    let output = dir.join("public");
    build_into(&root, &output);
    output
}

/// dcat_check.py finds no problem in the bundled site's catalog at `output`, written in
/// the `syntaxes` files (isomorphic graphs when two).
fn assert_dcat_ap_3(bin: &Path, output: &Path, syntaxes: &[&str]) {
    let (ok, report) = python(bin, "dcat_check.py", &[output, Path::new(BASE)]);
    assert!(ok, "{report}");
    assert_eq!(report["problems"], serde_json::json!([]), "{report:#}");
    let counts = &report["counts"];
    assert_eq!(
        counts["syntaxes"],
        serde_json::json!(syntaxes),
        "{report:#}"
    );
    assert_eq!(counts["dcat:Catalog"], 1);
    assert_eq!(counts["dcat:Dataset"], 4);
    // CSV, Data Package, CSVW and Croissant per dataset, each a file of the output; the
    // bundled CSVs are all under `parquet_min_bytes`, so `parquet = "auto"` writes no copy.
    assert_eq!(counts["dcat:Distribution"], 16);
    assert_eq!(counts["files"], 16);
    assert!(
        counts["shapes"].as_u64().unwrap() > 1000,
        "the SHACL shapes loaded"
    );
}

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn the_dcat_check_catches_a_missing_file_and_a_missing_title() {
    let Some(bin) = validators() else { return };
    // Both syntaxes, so a Turtle edited apart from its JSON-LD is caught too.
    let dir = tempfile::tempdir().unwrap();
    let output = build_bundled_with_json_ld(dir.path());
    std::fs::remove_file(output.join("data/datasets/vsan-consumer-kit-iometer.croissant.json"))
        .unwrap();
    let ttl = output.join("data/catalog.ttl");
    let text = std::fs::read_to_string(&ttl).unwrap();
    let dataset =
        "<datasets/vsan-consumer-kit-iometer/#dataset>\n    a dcat:Dataset ;\n    dct:title ";
    let start = text.find(dataset).expect("the dataset's block") + dataset.len() - 10;
    let end = start + text[start..].find(" ;\n").unwrap() + 3;
    std::fs::write(&ttl, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let (_, report) = python(&bin, "dcat_check.py", &[&output, Path::new(BASE)]);
    let problems = report["problems"].to_string();
    assert!(problems.contains("is no file of the output"), "{problems}");
    assert!(problems.contains("differ"), "{problems}");
    assert!(problems.contains("has no dct:title"), "{problems}");
    assert!(problems.contains("DCAT-AP 3 SHACL"), "{problems}");
}

const HOSTILE_TITLE: &str = r#"Say "hi" \ to <tags> & 'quotes' """#;
const HOSTILE_LICENSE: &str = "https://example.org/terms?a=\"b\"&c=<d>`{e}|^";

#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn hostile_titles_and_urls_survive_turtle_and_json_ld() {
    let Some(bin) = validators() else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let title = HOSTILE_TITLE.replace('\\', "\\\\").replace('"', "\\\"");
    let rest = common::SMALL_FRONT
        .strip_prefix("title = \"Sample\"\n")
        .unwrap();
    let (top, tables) = rest.split_once("[[sources]]").unwrap();
    let front = format!(
        "title = \"{title}\"\ndescription = \"\"\"Line one \"quoted\" \\\\ back\\\\slash\nline two > end\"\"\"\n{top}[license]\nname = \"Odd \\\"terms\\\"\"\nurl = \"{}\"\n[[sources]]{tables}",
        HOSTILE_LICENSE.replace('"', "\\\"")
    );
    common::write_small_site(&root, &front, common::SMALL_BODY, b"label,value\na,1\nb,\n");
    let settings = std::fs::read_to_string(root.join("site.toml")).unwrap();
    let settings = format!("dcat = [\"jsonld\", \"turtle\"]\n{settings}");
    std::fs::write(root.join("site.toml"), settings).unwrap();
    let output = dir.path().join("public");
    build_into(&root, &output);
    let probe = r#"
import json, sys, rdflib
from rdflib.compare import isomorphic
out = sys.argv[1]
t = rdflib.Graph().parse(out + "/data/catalog.ttl", format="turtle")
j = rdflib.Graph().parse(out + "/data/catalog.jsonld", format="json-ld")
DCT = rdflib.Namespace("http://purl.org/dc/terms/")
DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
d = next(t.subjects(rdflib.RDF.type, DCAT.Dataset))
dist = next(t.objects(d, DCAT.distribution))
print(json.dumps({"same": isomorphic(t, j), "title": str(t.value(d, DCT.title)),
  "description": str(t.value(d, DCT.description)), "license": str(t.value(dist, DCT.license)),
  "access": sorted(str(u) for u in t.objects(None, DCAT.accessURL))}))
"#;
    let report = probe_report(&bin, probe, &[output.as_os_str()]);
    assert_eq!(report["same"], true, "{report}");
    assert_eq!(report["title"], HOSTILE_TITLE);
    assert_eq!(
        report["description"],
        "Line one \"quoted\" \\ back\\slash\nline two > end"
    );
    assert_eq!(
        report["license"],
        "https://example.org/terms?a=%22b%22&c=%3Cd%3E%60%7Be%7D%7C%5E"
    );
    for url in report["access"].as_array().unwrap() {
        assert!(
            url.as_str()
                .unwrap()
                .starts_with("https://example.org/sub/data/datasets/sample."),
            "{url}"
        );
    }
    // The Croissant file of that site validates too, and follows base_url.
    let croissant = output.join("data/datasets/sample.croissant.json");
    let validated = Command::new(bin.join("mlcroissant"))
        .args(["validate", "--jsonld"])
        .arg(&croissant)
        .output()
        .unwrap();
    assert!(
        validated.status.success(),
        "{}",
        String::from_utf8_lossy(&validated.stderr)
    );
    let value: Value = serde_json::from_slice(&std::fs::read(&croissant).unwrap()).unwrap();
    assert_eq!(value["name"], HOSTILE_TITLE);
    assert_eq!(
        value["distribution"][0]["contentUrl"],
        "https://example.org/sub/data/datasets/sample.csv"
    );
}

/// The Croissant record set's `key` is the dataset's `primary_key`, field by field (a
/// composite key of three columns, a key of one); the full tier's mlcroissant load
/// (`croissant_check.py`) checks that its values tell the records apart.
#[test]
fn the_croissant_key_is_the_primary_key() {
    let (_guard, output) = build_bundled();
    for (slug, key) in [
        (
            "sata-sas-nvme-measured-throughput",
            &["figure_kind", "block_size_as_printed", "interface"][..],
        ),
        ("nvme-server-dd-fio", &["run_id"][..]),
    ] {
        let path = output.join(format!("data/datasets/{slug}.croissant.json"));
        let croissant: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let record_set = &croissant["recordSet"][0];
        let ids: Vec<Value> = key
            .iter()
            .map(|k| serde_json::json!({ "@id": format!("{slug}/{k}") }))
            .collect();
        assert_eq!(record_set["key"], Value::from(ids), "{slug}");
        for id in record_set["key"].as_array().unwrap() {
            let fields = record_set["field"].as_array().unwrap();
            assert!(
                fields.iter().any(|f| f["@id"] == id["@id"]),
                "{id} is a field"
            );
        }
    }
}

/// No validator needed: the files exist, are linked, and every build writes the same bytes.
#[test]
fn croissant_and_catalog_are_linked_and_deterministic() {
    let (_a, first) = build_bundled();
    let (_b, second) = build_bundled();
    let home = std::fs::read_to_string(first.join("index.html")).unwrap();
    assert!(home.contains(r#"<link rel="alternate" type="text/turtle" title="DCAT catalog (Turtle)" href="./data/catalog.ttl">"#), "{home}");
    assert!(!home.contains("catalog.jsonld"), "JSON-LD only on request");
    for slug in slugs(&first) {
        let page =
            std::fs::read_to_string(first.join(format!("datasets/{slug}/index.html"))).unwrap();
        let href = format!("../../data/datasets/{slug}.croissant.json");
        assert!(page.contains(&format!(r#"<link rel="alternate" type="application/ld+json" title="Croissant metadata" href="{href}">"#)));
        assert!(page.contains(&format!(r#"<a href="{href}">Croissant</a>"#)));
        let package: Value = serde_json::from_slice(
            &std::fs::read(first.join(format!("data/datasets/{slug}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(
            package["croissant"],
            format!("{BASE}data/datasets/{slug}.croissant.json")
        );
        let name = format!("data/datasets/{slug}.croissant.json");
        assert_eq!(
            std::fs::read(first.join(&name)).unwrap(),
            std::fs::read(second.join(&name)).unwrap()
        );
    }
    let name = "data/catalog.ttl";
    let bytes = std::fs::read(first.join(name)).unwrap();
    assert!(bytes.len() > 1000, "{name}");
    assert_eq!(bytes, std::fs::read(second.join(name)).unwrap(), "{name}");
}

/// Past 1,000 datasets (here 20, through the hidden setting) the DCAT catalog is paged: a harvester that follows Hydra's links
/// the way ckanext-dcat does (`hydra:PagedCollection`/`nextPage`, else
/// `PartialCollectionView`/`next`) from `data/catalog.ttl` (and from the JSON-LD) reaches
/// every page once and finds every dataset once; each page states the same graph in both
/// syntaxes apart from its own page links, and names as `dcat:dataset` exactly its datasets.
#[test]
#[ignore = "full tier: needs the Python validators venv (mlcroissant, rdflib, pyshacl)"]
fn a_large_catalog_is_paged_the_way_harvesters_follow() {
    let Some(bin) = validators() else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let settings = "_dcat_page_datasets = 20\ndcat = [\"turtle\", \"jsonld\"]\n";
    common::catalog::write_catalog(&root, 41, settings);
    let output = dir.path().join("public");
    build_into(&root, &output);
    let probe = r#"
import json, sys, rdflib
from rdflib.compare import isomorphic
out, base = sys.argv[1], sys.argv[2]
H = rdflib.Namespace("http://www.w3.org/ns/hydra/core#")
DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
def next_page(g):
    for node in g.subjects(rdflib.RDF.type, H.PagedCollection):
        for o in g.objects(node, H.nextPage):
            return str(o)
    for node in g.subjects(rdflib.RDF.type, H.PartialCollectionView):
        for o in g.objects(node, H.next):
            return str(o)
def without_paging(g):
    h = rdflib.Graph()
    for t in g:
        if not str(t[1]).startswith(str(H)) and t[2] not in (H.PagedCollection, H.PartialCollectionView):
            h.add(t)
    return h
report = {}
for first, fmt in (("data/catalog.ttl", "turtle"), ("data/catalog.jsonld", "json-ld")):
    url, pages, datasets, named_match, same = base + first, [], [], True, True
    while url and len(pages) < 10:
        path = out + "/" + url[len(base):]
        g = rdflib.Graph().parse(path, format=fmt)
        pages.append(url[len(base):])
        here = sorted(str(d) for d in g.subjects(rdflib.RDF.type, DCAT.Dataset))
        named = sorted(str(d) for d in g.objects(None, DCAT.dataset))
        named_match = named_match and here == named
        datasets += here
        if fmt == "turtle":
            other = rdflib.Graph().parse(path[: -len("ttl")] + "jsonld", format="json-ld")
            same = same and isomorphic(without_paging(g), without_paging(other))
        url = next_page(g)
    report[fmt] = {"pages": pages, "datasets": len(datasets), "unique": len(set(datasets)),
                   "named_match": named_match, "same_graph": same}
print(json.dumps(report))
"#;
    let report = probe_report(
        &bin,
        probe,
        &[output.as_os_str(), common::catalog::BASE.as_ref()],
    );
    assert_eq!(
        report["turtle"]["pages"],
        serde_json::json!([
            "data/catalog.ttl",
            "data/catalog/2.ttl",
            "data/catalog/3.ttl"
        ]),
        "{report}"
    );
    assert_eq!(
        report["json-ld"]["pages"],
        serde_json::json!([
            "data/catalog.jsonld",
            "data/catalog/2.jsonld",
            "data/catalog/3.jsonld"
        ]),
        "{report}"
    );
    for syntax in ["turtle", "json-ld"] {
        assert_eq!(report[syntax]["datasets"], 41, "{report}");
        assert_eq!(report[syntax]["unique"], 41, "{report}");
        assert_eq!(report[syntax]["named_match"], true, "{report}");
    }
    assert_eq!(report["turtle"]["same_graph"], true, "{report}");
    // No page past the last.
    assert!(!output.join("data/catalog/4.ttl").exists());
}
