//! "Use this data": each snippet, copied from a built page's HTML, run against `datapages
//! serve` (pandas, Polars, DuckDB from the validators' venv; R when `Rscript` with readr is
//! there; curl) reads the dataset's rows with its declared types.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::server::Server;

/// A hostile column name: quotes of both kinds, a backslash, an accent.
const HOSTILE: &str = "naïve \"q\" 'v' \\ x";

/// Every column type, dataset-wide missing values, `;` between fields, decimal commas, a
/// date format, a month column, digit booleans and the hostile name.
pub const FRONT: &str = r#"title = "Every type"
kicker = "a test"
headline = "A dataset of every column type"
delimiter = ";"
decimal = ","
missing_values = ["", "NA"]
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "id"
title = "Id"
type = "integer"
description = "A number."
[[columns]]
name = "naïve \"q\" 'v' \\ x"
title = "Value"
type = "number"
description = "A measurement."
[[columns]]
name = "ok"
title = "OK"
type = "boolean"
description = "Passed."
[[columns]]
name = "flag"
title = "Flag"
type = "boolean"
description = "Flagged, 1 or 0."
[[columns]]
name = "day"
title = "Day"
type = "date"
format = "%d/%m/%Y"
description = "The day."
[[columns]]
name = "month"
title = "Month"
type = "date"
description = "The month."
[[columns]]
name = "at"
title = "At"
type = "datetime"
description = "When."
[[columns]]
name = "note"
title = "Note"
type = "string"
description = "A note."
"#;

pub const CSV: &str = "id;\"naïve \"\"q\"\" 'v' \\ x\";ok;flag;day;month;at;note\n\
1;1,5;TRUE;1;21/05/2021;2021-05;2011-09-19T17:54:28Z;a\n\
2;NA;FALSE;0;NA;2021-06;2011-09-19T17:54:28+02:00;NA\n\
3;2,25;NA;;01/01/2020;;;\n\
4;NaN;TRUE;1;02/01/2020;2021-07;2020-01-01T00:00:00Z;x\n";

const ROWS: u64 = 4;

/// The column types each tool must report, in the CSV's order.
const PANDAS: [&str; 8] = [
    "Int64",
    "float64",
    "boolean",
    "boolean",
    "datetime64",
    "datetime64",
    "datetime64[ns, UTC]",
    "string",
];
const POLARS: [&str; 8] = [
    "Int64",
    "Float64",
    "Boolean",
    "Boolean",
    "Date",
    "Date",
    "Datetime(time_unit='us', time_zone='UTC')",
    "String",
];
/// DuckDB reads the typed Parquet copy (the page sets `parquet = true`), where a column of
/// months stays text as written (`2021-05`: a DATE would state a day the data does not
/// have); without a copy it reads the CSV, and months are DATEs as in pandas and Polars.
const DUCKDB: [&str; 8] = [
    "BIGINT",
    "DOUBLE",
    "BOOLEAN",
    "BOOLEAN",
    "DATE",
    "VARCHAR",
    "TIMESTAMP WITH TIME ZONE",
    "VARCHAR",
];

/// The site, served; then built again at the server's address, the page the snippets are
/// copied from. Returns (temporary folder, server, the page's HTML).
fn served_site() -> (tempfile::TempDir, Server, String) {
    let (dir, server, output) = served(|root| {
        // A copy whatever the size: the DuckDB snippet reads it ([`DUCKDB`]).
        let front = FRONT.replace("delimiter = ", "parquet = true\ndelimiter = ");
        common::write_small_site(root, &front, common::SMALL_BODY, CSV.as_bytes());
    });
    let html = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    (dir, server, html)
}

/// A site `write` makes, served, and built again at the server's address into the
/// returned folder.
fn served(write: impl FnOnce(&Path)) -> (tempfile::TempDir, Server, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write(&root);
    let server = Server::start(&root);
    let output = dir.path().join("at-server");
    let base = format!("http://127.0.0.1:{}/", server.port);
    common::build_at_address(&root, &output, &base);
    (dir, server, output)
}

/// The text of snippet `id` as the page shows it (entities decoded, as a reader copies it).
pub fn snippet(html: &str, id: &str) -> String {
    let document = scraper::Html::parse_document(html);
    let selector = scraper::Selector::parse(&format!("#use-{id} pre code")).unwrap();
    let code = document.select(&selector).next();
    code.unwrap_or_else(|| panic!("the page has the {id} snippet"))
        .text()
        .collect()
}

/// What a snippet read: its rows, each column's name and type, and its missing cells.
type Read = (u64, Vec<(String, String)>, Vec<u64>);

/// Runs one snippet with tests/validators/snippet_check.py.
fn run_python(bin: &Path, tool: &str, code: &str, scratch: &Path) -> Read {
    let file = scratch.join(format!("{tool}.snippet"));
    std::fs::write(&file, code).unwrap();
    let script = common::bundled_site().join("tests/validators/snippet_check.py");
    let out = Command::new(bin.join("python"))
        .arg(script)
        .arg(tool)
        .arg(&file)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "the {tool} snippet runs ({e}):\n{code}\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let types = report["types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().into(),
                pair[1].as_str().unwrap().into(),
            )
        })
        .collect();
    let nulls = report["nulls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    (report["rows"].as_u64().unwrap(), types, nulls)
}

#[test]
#[ignore = "full tier: pandas, Polars and DuckDB from the validators' venv, serve, curl"]
fn each_snippet_from_the_page_reads_the_rows_with_their_declared_types() {
    let venv = common::venv_site_packages(
        &["pandas", "polars", "duckdb", "duckdb_extension_httpfs"],
        "pandas, polars, duckdb (validators venv)",
    );
    let Some(site_packages) = venv else { return };
    let bin = site_packages.join("../../../bin");
    let (dir, server, html) = served_site();
    let names = ["id", HOSTILE, "ok", "flag", "day", "month", "at", "note"];
    for (tool, want) in [("pandas", PANDAS), ("polars", POLARS), ("duckdb", DUCKDB)] {
        let code = snippet(&html, tool);
        assert!(
            code.contains(&format!("127.0.0.1:{}", server.port)),
            "{code}"
        );
        let (rows, types, _) = run_python(&bin, tool, &code, dir.path());
        assert_eq!(rows, ROWS, "{tool}: {code}");
        let got: Vec<(&str, &str)> = types
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        let expected: Vec<(&str, &str)> = names.into_iter().zip(want).collect();
        // pandas names its datetime unit (`datetime64[us]`): compared by its prefix.
        let matches = got.len() == expected.len()
            && got
                .iter()
                .zip(&expected)
                .all(|((name, kind), (want_name, want_kind))| {
                    name == want_name
                        && (kind == want_kind
                            || *want_kind == "datetime64" && kind.starts_with("datetime64["))
                });
        assert!(matches, "{tool} read {got:?}, want {expected:?}\n{code}");
    }
}

#[test]
#[ignore = "full tier: pandas, Polars and DuckDB from the validators' venv on the bundled site"]
fn every_bundled_dataset_is_read_whole_by_each_python_and_duckdb_snippet() {
    let venv = common::venv_site_packages(
        &["pandas", "polars", "duckdb", "duckdb_extension_httpfs"],
        "pandas, polars, duckdb (validators venv)",
    );
    let Some(site_packages) = venv else { return };
    let bin = site_packages.join("../../../bin");
    let (dir, _server, output) = served(common::copy_bundled_site);
    let mut pages = 0;
    for entry in std::fs::read_dir(output.join("datasets")).unwrap() {
        let page = entry.unwrap().path().join("index.html");
        let Ok(html) = std::fs::read_to_string(&page) else {
            continue;
        };
        let slug = page
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let package = output.join(format!("data/datasets/{slug}.json"));
        let package: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(package).unwrap()).unwrap();
        let resource = &package["resources"][0];
        for tool in ["pandas", "polars", "duckdb"] {
            let code = snippet(&html, tool);
            let (rows, types, _) = run_python(&bin, tool, &code, dir.path());
            assert_eq!(
                Some(rows),
                resource["rows"].as_u64(),
                "{slug}, {tool}: {code}"
            );
            assert_eq!(
                Some(types.len() as u64),
                resource["columns"].as_u64(),
                "{slug}, {tool}"
            );
        }
        pages += 1;
    }
    assert_eq!(pages, 4, "the bundled site's datasets");
}

/// The hostile names site (tests/it/hostile_bytes.rs), with its Parquet copy and without:
/// each snippet reads the six rows under the published names (pandas and Polars name R's
/// empty header themselves) and every `""`, `NA` and `"` as missing.
#[test]
#[ignore = "full tier: pandas, Polars and DuckDB from the validators' venv, serve"]
fn each_snippet_reads_the_hostile_names() {
    use crate::hostile_bytes::{NAMES, NAMES_CSV, NAMES_FRONT, NAMES_MISSING};
    let venv = common::venv_site_packages(
        &["pandas", "polars", "duckdb", "duckdb_extension_httpfs"],
        "pandas, polars, duckdb (validators venv)",
    );
    let Some(site_packages) = venv else { return };
    let bin = site_packages.join("../../../bin");
    for parquet in [true, false] {
        let front = match parquet {
            true => NAMES_FRONT.replace("updated = ", "parquet = true\nupdated = "),
            false => NAMES_FRONT.replace("updated = ", "parquet = false\nupdated = "),
        };
        let (dir, _server, output) = served(|root| {
            common::write_small_site(root, &front, common::SMALL_BODY, NAMES_CSV.as_bytes());
        });
        let html = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
        for tool in ["pandas", "polars", "duckdb"] {
            let code = snippet(&html, tool);
            let (rows, types, nulls) = run_python(&bin, tool, &code, dir.path());
            let names: Vec<&str> = types.iter().map(|(name, _)| name.as_str()).collect();
            let what = format!("{tool}, parquet = {parquet}:\n{code}");
            assert_eq!(rows, 6, "{what}");
            assert_eq!(names[1..], NAMES[1..], "{what}");
            assert_eq!(nulls, NAMES_MISSING, "{what}");
        }
    }
}

#[test]
#[ignore = "full tier: curl against serve"]
fn the_curl_snippet_downloads_the_csv_byte_for_byte() {
    let curl_present = Command::new("curl").arg("--version").output().is_ok();
    if !common::tool_present("curl", curl_present) {
        return;
    }
    let (dir, _server, html) = served_site();
    let code = snippet(&html, "curl");
    let into = dir.path().join("download");
    std::fs::create_dir_all(&into).unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(&code)
        .current_dir(&into)
        .status()
        .unwrap();
    assert!(status.success(), "{code}");
    assert_eq!(
        std::fs::read(into.join("sample.csv")).unwrap(),
        CSV.as_bytes()
    );
}

/// R is optional: without `Rscript` and readr the test says "skipped: Rscript not found"
/// and passes, under CI=true too (the CI machines have no R; the snippet's text is checked
/// by the unit tests in src/metadata/snippets/tests.rs).
#[test]
#[ignore = "full tier: R's readr against serve, where Rscript is installed"]
fn the_r_snippet_reads_the_rows_where_rscript_is_installed() {
    let readr = Command::new("Rscript")
        .args(["-e", "library(readr)"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !readr {
        println!("skipped: Rscript not found (or readr not installed)");
        return;
    }
    let (dir, _server, html) = served_site();
    let code = snippet(&html, "r");
    let file = dir.path().join("snippet.R");
    std::fs::write(
        &file,
        format!("{code}\nstopifnot(nrow(df) == {ROWS}, problems(df) |> nrow() == 0)\ncat(sapply(df, function(c) class(c)[1]), sep = \"\\n\")\n"),
    )
    .unwrap();
    let out = Command::new("Rscript").arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{code}\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let classes: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        classes,
        [
            "integer",
            "numeric",
            "logical",
            "logical",
            "Date",
            "Date",
            "POSIXct",
            "character"
        ],
        "{code}"
    );
}
