//! Files of the shapes real data comes in that are not plain RFC 4180 tables, written here
//! (#52): fields padded with spaces after the delimiter (R's `write.table`, Fortran), a
//! quote opened after the padding. Each goes through `new --from` and `build` as a new
//! author would, and the published outputs are read back: the fast tier from the JSON and
//! HTML, the full tier with frictionless, csvw, mlcroissant, pandas, pyarrow, Polars and
//! DuckDB (tests/validators/shapes_check.py), which must agree on every column's type.

use std::path::{Path, PathBuf};

use crate::common;
use crate::scaffold::{assert_ok, datapages, new_site};

/// Anscombe's quartet as Fortran writes it (right-aligned, padded after each comma), with
/// a quoted name after the padding, one holding a comma.
const PADDED: &str = "\
   x,    y, name,   nation
10.0, 8.04, \"Usain Bolt\",   \"JAM\"
 8.0, 6.95, \"Yohan Blake\",   \"JAM\"
13.0, 7.58, \"Gatlin, Justin\",   \"USA\"
 9.0, 8.81, \"Tyson Gay\",   \"USA\"
11.0, 8.33, \"Asafa Powell\",   \"JAM\"
";

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A site with the padded file made by `new --from`, built; (guard, site, output, what
/// `new` printed).
fn padded_site() -> (tempfile::TempDir, PathBuf, PathBuf, String) {
    let (dir, site) = new_site();
    let csv = dir.path().join("padded.csv");
    std::fs::write(&csv, PADDED).unwrap();
    let made = datapages(&site, &["new", "padded", "--from", csv.to_str().unwrap()]);
    assert_ok(&made, "new --from a padded file");
    let said = String::from_utf8_lossy(&made.stdout).into_owned();
    assert_ok(&datapages(&site, &["build"]), "build");
    let output = site.join("public");
    (dir, site, output, said)
}

#[test]
fn padded_fields_are_read_as_pandas_reads_them_with_skipinitialspace() {
    let (_dir, site, output, said) = padded_site();
    assert!(
        said.contains("spaces pad the fields") && said.contains("skip_initial_space = true"),
        "new says what it assumed:\n{said}"
    );
    let page = std::fs::read_to_string(site.join("content/datasets/padded.md")).unwrap();
    assert!(page.contains("skip_initial_space = true"), "{page}");
    for (name, kind) in [
        ("x", "number"),
        ("y", "number"),
        ("name", "string"),
        ("nation", "string"),
    ] {
        assert!(
            page.contains(&format!("name = \"{name}\"")),
            "`{name}` without its padding:\n{page}"
        );
        let column = page.split(&format!("name = \"{name}\"")).nth(1).unwrap();
        let declared = column.split("type = \"").nth(1).unwrap();
        assert!(declared.starts_with(kind), "{name} is {kind}:\n{page}");
    }
    // No padded variants, no literal quotes.
    assert!(
        !page.contains("\\\"JAM") && !page.contains(" JAM"),
        "{page}"
    );

    let datasets = output.join("data/datasets");
    let package = json(&datasets.join("padded.json"));
    let resource = &package["resources"][0];
    assert_eq!(
        resource["dialect"]["skipInitialSpace"], true,
        "{resource:#}"
    );
    let names: Vec<&str> = resource["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["x", "y", "name", "nation"]);
    let csvw = json(&datasets.join("padded.csv-metadata.json"));
    assert_eq!(csvw["dialect"]["skipInitialSpace"], true, "{csvw:#}");

    // The table: numbers right-aligned as numbers, names without their quotes.
    let html = std::fs::read_to_string(output.join("datasets/padded/index.html")).unwrap();
    let document = common::html(&output.join("datasets/padded/index.html"));
    let cells = common::texts(&document, "table tbody td");
    for wanted in ["Usain Bolt", "JAM", "Gatlin, Justin", "8.04"] {
        assert!(cells.iter().any(|c| c == wanted), "{wanted} in {cells:?}");
    }
    assert!(!html.contains("&quot;JAM"), "no literal quotes");
    // The explorer reads the CSV in the browser with the same dialect.
    assert!(
        html.contains("\"skip_initial_space\":true"),
        "explorer meta"
    );
    // pandas is told; Polars and DuckDB read the typed Parquet copy.
    assert!(html.contains("skipinitialspace=True"), "pandas snippet");
    assert!(html.contains("pl.read_parquet("), "Polars snippet");
    assert!(html.contains("trim_ws = TRUE"), "readr snippet");
}

#[test]
fn padded_fields_are_ragged_free_and_check_clean() {
    let (_dir, site, _output, _) = padded_site();
    let checked = datapages(&site, &["check"]);
    assert_ok(&checked, "check");
    let report = String::from_utf8_lossy(&checked.stderr);
    assert!(report.contains("0 errors"), "{report}");
}

#[test]
#[ignore = "full tier: frictionless, csvw, mlcroissant, pyarrow, pandas, Polars, DuckDB"]
fn padded_fields_read_back_by_every_reference_tool() {
    let Some(bin) = validators() else { return };
    let (_dir, _site, output, _) = padded_site();
    let report = common::corpus_check(&bin, &output);
    assert_eq!(report["failures"], serde_json::json!({}), "{report:#}");
    let agreed = shapes_check(&bin, &output, "padded");
    assert_eq!(
        agreed["types"],
        serde_json::json!({"x": "number", "y": "number", "name": "string", "nation": "string"}),
        "{agreed:#}"
    );
    assert_eq!(agreed["problems"], serde_json::json!([]), "{agreed:#}");
    assert_eq!(
        agreed["readers"],
        serde_json::json!([
            "datapackage",
            "duckdb",
            "frictionless",
            "mlcroissant",
            "pandas",
            "polars",
            "pyarrow"
        ]),
        "every reader read it"
    );
}

fn validators() -> Option<PathBuf> {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = bin.join("frictionless").is_file() && bin.join("python3").is_file();
    common::tool_present("the validators venv", present).then_some(bin)
}

/// tests/validators/shapes_check.py on one dataset of `output`: each reader's type of each
/// column (one type where they agree) and the disagreements.
fn shapes_check(bin: &Path, output: &Path, slug: &str) -> serde_json::Value {
    let run = std::process::Command::new(bin.join("python3"))
        .arg(common::bundled_site().join("tests/validators/shapes_check.py"))
        .arg(output)
        .arg(slug)
        .output()
        .expect("python runs");
    serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
        panic!(
            "shapes_check.py prints JSON ({e}): {}",
            String::from_utf8_lossy(&run.stderr)
        )
    })
}

/// `new --from` on `bytes` saved as `name`: whether it succeeded, and what it printed
/// (stdout and stderr).
fn new_from(name: &str, bytes: &[u8]) -> (bool, String, PathBuf, tempfile::TempDir) {
    let (dir, site) = new_site();
    let file = dir.path().join(name);
    std::fs::write(&file, bytes).unwrap();
    let slug = name.split('.').next().unwrap().replace('_', "-");
    let made = datapages(&site, &["new", &slug, "--from", file.to_str().unwrap()]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&made.stdout),
        String::from_utf8_lossy(&made.stderr)
    );
    (made.status.success(), said, site, dir)
}

/// The number of problems (`error:` lines) a refusal lists.
fn errors(said: &str) -> usize {
    said.lines().filter(|l| l.starts_with("error")).count()
}

/// A GeoJSON file, on one line: not CSV text.
const GEOJSON: &str = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"a": 1}}]}"#;

/// Files whose first line is not a header (#52): Wisconsin breast cancer as scikit-learn
/// ships it (the shape, then 31 fields a row), a matrix written without names (a first
/// line of numbers, some repeated) and a header-less file (the first line a row like the
/// others).
fn not_headers() -> (String, String, String) {
    let mut shape = String::from("569,30,malignant,benign\n");
    for row in 0..40 {
        let cells: Vec<String> = (0..30).map(|c| format!("{}.{c}", row + c)).collect();
        shape.push_str(&format!("{},{}\n", cells.join(","), row % 2));
    }
    let mut numbers = String::from("0,0,1,0,1,1,0\n");
    for row in 0..30 {
        numbers.push_str(&format!("{row},1,2,3,4,5,6\n"));
    }
    let mut headerless = String::new();
    for (code, county) in [
        ("01", "Autauga County, AL"),
        ("02", "Baldwin County, AL"),
        ("03", "Barbour County, AL"),
    ] {
        headerless.push_str(&format!("CN0100{code},{code},\"{county}\",5.{code},2013\n"));
    }
    (shape, numbers, headerless)
}

#[test]
fn a_first_line_that_is_not_a_header_is_one_problem_with_what_it_looks_like() {
    let (shape, numbers, headerless) = not_headers();
    let cases: [(&str, &[u8], &[&str]); 4] = [
        (
            "shape.csv",
            shape.as_bytes(),
            &[
                "the first line has 4 fields but the rows have 31",
                "(569, 30)",
                "replace the first line",
            ],
        ),
        (
            "numbers.csv",
            numbers.as_bytes(),
            &[
                "the first line looks like data",
                "some repeated",
                "add a first line naming the columns",
            ],
        ),
        (
            "headerless.csv",
            headerless.as_bytes(),
            &["the first line looks like data", "`01`"],
        ),
        (
            "places.geojson",
            GEOJSON.as_bytes(),
            &["the file is GeoJSON, not CSV text", "ogr2ogr"],
        ),
    ];
    for (name, bytes, wanted) in cases {
        let (made, said, _, _dir) = new_from(name, bytes);
        assert!(!made, "{name} is refused:\n{said}");
        assert_eq!(errors(&said), 1, "{name}: one problem:\n{said}");
        for needle in wanted {
            assert!(said.contains(needle), "{name}: {needle}:\n{said}");
        }
    }
    // A wide table named by years is a table.
    let (made, said, _, _dir) =
        new_from("wide.csv", b"country,1990,1991\nNorway,1.5,2\nPeru,3,4\n");
    assert!(made, "{said}");
}

/// A dataset page for data/datasets/`slug`.csv documenting `columns`, each `name:type`,
/// separated by commas.
fn documented_page(slug: &str, columns: &str) -> String {
    let mut page = format!(
        "+++\ntitle = \"{slug}\"\nkicker = \"Test\"\nheadline = \"About {slug}\"\n\
         creators = [{{ name = \"Me\", kind = \"person\" }}]\ncreated = 2026-12-06\n\
         updated = 2026-12-06\nversion = \"1.0.0\"\n\n[license]\nname = \"Public domain\"\n\
         text = \"Free.\"\n"
    );
    for (name, kind) in columns.split(',').filter_map(|c| c.split_once(':')) {
        page.push_str(&format!(
            "\n[[columns]]\nname = \"{name}\"\ntitle = \"Column {name}\"\ntype = \"{kind}\"\n\
             description = \"The column {name}.\"\n"
        ));
    }
    page + "+++\nThe table.\n"
}

/// The diagnostics `check` printed (each a block of lines) that point into
/// data/datasets/`slug`.csv.
fn problems_in<'a>(said: &'a str, slug: &str) -> Vec<&'a str> {
    let at = format!("--> data/datasets/{slug}.csv");
    said.split("\n\n")
        .filter(|block| block.contains(&at))
        .collect()
}

/// `count` columns named `prefix`1, `prefix`2, … of `kind`, as [`documented_page`] takes them.
fn numbered(prefix: &str, count: usize, kind: &str) -> String {
    let columns: Vec<String> = (1..=count).map(|c| format!("{prefix}{c}:{kind}")).collect();
    columns.join(",")
}

#[test]
fn build_and_check_tell_a_first_line_that_is_not_a_header_as_one_problem() {
    let (_dir, site) = new_site();
    let (shape, numbers, headerless) = not_headers();
    // pandas' column positions (0 to 48) as the header, above rows of data.
    let line = |cell: &dyn Fn(usize) -> usize| {
        let cells: Vec<String> = (0..49).map(|c| cell(c).to_string()).collect();
        cells.join(",") + "\n"
    };
    let mut positions = line(&|c| c);
    for r in 0..20 {
        positions.push_str(&line(&|c| r * c % 7));
    }
    // (slug, file, its documented columns, where the problem is, what it says)
    let pretty = GEOJSON.replace(", ", ",\n  ").replacen('{', "{\n  ", 1);
    let cases: [(&str, &str, String, &str, &[&str]); 6] = [
        (
            "shape",
            &shape,
            numbered("f", 30, "number") + ",diagnosis:integer",
            ":1:1",
            &[
                "the first line has 4 fields but the rows have 31",
                "(569, 30)",
                "replace the first line with one naming the 31 columns",
                "the front matter documents 31 columns: `f1`, `f2`, `f3`, …",
            ],
        ),
        (
            "numbers",
            &numbers,
            numbered("c", 7, "integer"),
            ":1:1",
            &[
                "the first line looks like data",
                "some repeated",
                "if the file has no header",
            ],
        ),
        (
            "positions",
            &positions,
            numbered("x", 49, "integer"),
            ":1:1",
            &[
                "its 49 fields are all numbers (`0`, `1`, `2`)",
                "pandas' column positions",
            ],
        ),
        (
            "headerless",
            &headerless,
            "id:string,code:string,county:string,rate:number,year:integer".into(),
            ":1:10",
            &[
                "the first line looks like data",
                "(`01`)",
                "add a first line naming the columns",
                "if this line is the header, document the columns it names",
            ],
        ),
        (
            "places",
            GEOJSON,
            "a:integer".into(),
            "",
            &["the file is GeoJSON, not CSV text", "ogr2ogr"],
        ),
        (
            // Pretty-printed: the first line is `{` alone.
            "pretty",
            &pretty,
            "a:integer".into(),
            "",
            &["the file is GeoJSON, not CSV text", "ogr2ogr"],
        ),
    ];
    // Headers of numbers, documented as the file names them, are tables: years, and R's
    // row names under an empty name above class bounds (`crimtab`).
    let legitimate = [
        (
            "years",
            "country,1990,1991\nNorway,1.5,2\nPeru,3,4\n",
            "country:string,1990:number,1991:number",
        ),
        (
            "crimtab",
            "\"\",142.24,144.78\n9.4,0,0\n9.5,0,1\n",
            ":number,142.24:integer,144.78:integer",
        ),
    ];
    let files = cases
        .iter()
        .map(|(slug, csv, columns, ..)| (*slug, *csv, columns.as_str()));
    for (slug, csv, columns) in files.chain(legitimate) {
        std::fs::write(site.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
        let page = documented_page(slug, columns);
        std::fs::write(site.join(format!("content/datasets/{slug}.md")), page).unwrap();
    }
    let checked = datapages(&site, &["check"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
    assert!(!checked.status.success(), "check fails:\n{said}");
    for (slug, _, _, at, wanted) in &cases {
        let problems = problems_in(&said, slug);
        assert_eq!(problems.len(), 1, "{slug}: one problem:\n{said}");
        let problem = problems[0];
        assert!(problem.trim_start().starts_with("error: "), "{problem}");
        let located = format!("{slug}.csv{at}\n");
        assert!(problem.contains(&located), "{slug} at {at}:\n{problem}");
        for needle in *wanted {
            assert!(problem.contains(needle), "{slug}: {needle}:\n{problem}");
        }
    }
    for (slug, ..) in legitimate {
        assert_eq!(
            problems_in(&said, slug),
            Vec::<&str>::new(),
            "{slug}:\n{said}"
        );
    }
    assert!(
        !datapages(&site, &["build"]).status.success(),
        "build fails"
    );
    // Without them, the site builds: the legitimate headers are tables.
    for (slug, ..) in &cases {
        std::fs::remove_file(site.join(format!("content/datasets/{slug}.md"))).unwrap();
    }
    assert_ok(&datapages(&site, &["build"]), "build without them");
}

/// Italian towns (one named None), country codes (Namibia's `NA`) and notes where `NA`
/// is no value.
const TOWNS: &str = "\
town,code,note
Torino,IT,sensor broken
None,IT,NA
Aosta,NA,late reading
Cuneo,NO,ok
Novara,NZ,NA
Biella,FR,moved in spring
";

#[test]
fn none_in_a_column_of_place_names_is_a_place_and_new_says_so() {
    let (made, said, site, _dir) = new_from("towns.csv", TOWNS.as_bytes());
    assert!(made, "{said}");
    assert!(said.contains("`None` kept as text, not missing"), "{said}");
    assert!(
        said.contains("`NA` kept as text, not missing: written like the values"),
        "{said}"
    );
    let page = std::fs::read_to_string(site.join("content/datasets/towns.md")).unwrap();
    let column = |name: &str| {
        page.split(&format!("name = \"{name}\""))
            .nth(1)
            .unwrap()
            .split("[[columns]]")
            .next()
            .unwrap()
            .to_string()
    };
    assert!(!column("town").contains("missing_values"), "{page}");
    assert!(!column("code").contains("missing_values"), "{page}");
    // Among sentences `NA` is no value.
    assert!(
        column("note").contains("missing_values = [\"\", \"NA\"]"),
        "{page}"
    );
    assert_ok(&datapages(&site, &["build"]), "build");
    let html = std::fs::read_to_string(site.join("public/datasets/towns/index.html")).unwrap();
    assert!(html.contains(">None<"), "None shown as a town");
}

/// The towns of [`none_in_a_column_of_place_names_is_a_place_and_new_says_so`], read back
/// by every reference tool: `None` is a town and `NA` a country code for each of them, and
/// only the two `NA` notes are missing. mlcroissant reads a CSV with pandas' defaults,
/// which take both for missing: its fields extract from the Parquet copy.
#[test]
#[ignore = "full tier: frictionless, csvw, mlcroissant, pyarrow, pandas, Polars, DuckDB"]
fn none_and_na_written_like_values_stay_values_in_every_reader() {
    let Some(bin) = validators() else { return };
    let (made, said, site, _dir) = new_from("towns.csv", TOWNS.as_bytes());
    assert!(made, "{said}");
    assert_ok(&datapages(&site, &["build"]), "build");
    let output = site.join("public");
    // A CSV that pandas would read otherwise gets its typed copy whatever its size, and
    // Croissant reads that.
    assert!(output.join("data/datasets/towns.parquet").is_file());
    let report = common::corpus_check(&bin, &output);
    assert_eq!(report["failures"], serde_json::json!({}), "{report:#}");
    let agreed = shapes_check(&bin, &output, "towns");
    assert_eq!(agreed["problems"], serde_json::json!([]), "{agreed:#}");
    let readers = agreed["missing"].as_object().expect("missing counts");
    for reader in [
        "frictionless",
        "pyarrow",
        "mlcroissant",
        "pandas",
        "polars",
        "duckdb",
    ] {
        assert_eq!(
            readers.get(reader),
            Some(&serde_json::json!({"town": 0, "code": 0, "note": 2})),
            "{reader}: {agreed:#}"
        );
    }
}

/// Flights as nycflights13 writes them: a year column, codes, clock times HHMM, a
/// distance, and seats with `-` for missing.
const FLIGHTS: &str = "\
year,flight,dep_time,AirportID,distance,seats
2013,1545,517,10397,1400,-
2013,1714,533,10397,1416,149
2013,1141,542,12478,1089,-
2014,725,544,12478,1576,200
2014,461,554,13303,762,55
2015,1696,554,13303,719,178
";

fn flights_site() -> (tempfile::TempDir, PathBuf, String) {
    let (made, said, site, dir) = new_from("flights.csv", FLIGHTS.as_bytes());
    assert!(made, "{said}");
    assert_ok(&datapages(&site, &["build"]), "build");
    (dir, site, said)
}

#[test]
fn codes_and_clock_times_are_not_grouped() {
    let (_dir, site, said) = flights_site();
    assert!(said.contains("clock times written HHMM"), "{said}");
    assert!(said.contains("a code, not a quantity"), "{said}");
    let page = std::fs::read_to_string(site.join("content/datasets/flights.md")).unwrap();
    let column = |name: &str| {
        page.split(&format!("name = \"{name}\""))
            .nth(1)
            .unwrap()
            .split("[[")
            .next()
            .unwrap()
            .to_string()
    };
    for name in ["flight", "dep_time", "AirportID"] {
        assert!(column(name).contains("grouping = false"), "{name}:\n{page}");
    }
    assert!(!column("distance").contains("grouping"), "{page}");
    let document = common::html(&site.join("public/datasets/flights/index.html"));
    let cells = common::texts(&document, "table tbody td");
    for shown in ["1545", "10397", "2013", "1,400"] {
        assert!(cells.iter().any(|c| c == shown), "{shown} in {cells:?}");
    }
    assert!(
        !cells.iter().any(|c| c == "1,545" || c == "10,397"),
        "{cells:?}"
    );
}

#[test]
#[ignore = "full tier: frictionless, csvw, mlcroissant, pyarrow, pandas, Polars, DuckDB"]
fn years_and_dashes_have_one_type_in_every_format() {
    let Some(bin) = validators() else { return };
    let (_dir, site, _) = flights_site();
    let output = site.join("public");
    let report = common::corpus_check(&bin, &output);
    assert_eq!(report["failures"], serde_json::json!({}), "{report:#}");
    let agreed = shapes_check(&bin, &output, "flights");
    assert_eq!(agreed["problems"], serde_json::json!([]), "{agreed:#}");
    assert_eq!(agreed["types"]["seats"], "integer", "{agreed:#}");
    assert_eq!(agreed["types"]["year"], "integer", "{agreed:#}");
    assert_eq!(agreed["types"]["flight"], "integer", "{agreed:#}");
}

/// nycflights13's planes and flights as pandas writes R's integer columns with gaps:
/// `2004.0`, `1120.0`. `new --from` drafts them as numbers shown whole (`digits = 0`), the
/// years and clock times without group marks; the download keeps the file's bytes.
#[test]
fn whole_numbers_written_with_a_point_zero_are_drafted_to_show_whole() {
    let csv = "tailnum,year,dep_time,seats\nN10156,2004.0,1120.0,55.0\nN102UW,,517.0,182.0\nN103US,1999.0,,1200.0\n";
    let (made, said, site, _dir) = new_from("planes.csv", csv.as_bytes());
    assert!(made, "{said}");
    assert!(
        said.contains("whole numbers written with `.0`: shown without it (`digits = 0`)"),
        "{said}"
    );
    let page = std::fs::read_to_string(site.join("content/datasets/planes.md")).unwrap();
    assert_eq!(page.matches("digits = 0").count(), 3, "{page}");
    assert!(page.contains("grouping = false   # years"), "{page}");
    assert_ok(&datapages(&site, &["build"]), "build");
    let document = common::html(&site.join("public/datasets/planes/index.html"));
    let cells = common::texts(&document, "table tbody td");
    for shown in ["2004", "1120", "517", "55", "1,200"] {
        assert!(cells.iter().any(|c| c == shown), "{shown} in {cells:?}");
    }
    assert!(!cells.iter().any(|c| c.ends_with(".0")), "{cells:?}");
    let download = std::fs::read(site.join("public/data/datasets/planes.csv")).unwrap();
    assert_eq!(download, csv.as_bytes(), "the file as it came");
}
