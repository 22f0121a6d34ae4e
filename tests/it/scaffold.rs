//! `init`, `new --from` and the built-in theme, used as a new author would: real sites in
//! temporary folders, built and checked with the binary.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn datapages(dir: &Path, args: &[&str]) -> Output {
    Command::new(common::binary())
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the datapages binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) fn assert_ok(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
}

/// A fresh site from `init` in a temporary folder; returns (guard, site root).
pub(crate) fn new_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("my-site");
    assert_ok(
        &datapages(dir.path(), &["init", "my-site"]),
        "datapages init",
    );
    (dir, site)
}

/// Every local `href` and `src` of every HTML page under `output` names a file there.
fn assert_local_links_resolve(output: &Path) {
    let checked = common::assert_local_links_resolve(output);
    assert!(checked > 20, "only {checked} local links were found");
}

#[test]
fn init_gives_a_site_that_passes_strict_checks_builds_and_loads_its_assets() {
    let (_dir, site) = new_site();
    for file in [
        "site.toml",
        "content/_index.md",
        "content/about.md",
        "content/datasets/planets.md",
        "data/datasets/planets.csv",
    ] {
        assert!(site.join(file).is_file(), "init writes {file}");
    }
    assert!(!site.join("templates").exists() && !site.join("static").exists());
    assert_eq!(
        std::fs::read_to_string(site.join(".gitignore")).unwrap(),
        "public/\n.datapages-cache/\n",
        "init keeps the output and the caches out of version control"
    );
    let check = datapages(&site, &["check", "--strict"]);
    assert_ok(&check, "check --strict");
    assert_eq!(text(&check.stdout).trim(), "No problems found.");
    assert_ok(&datapages(&site, &["build"]), "build");
    let output = site.join("public");
    for asset in ["style.css", "table.js", "listing.js"] {
        let built = std::fs::read(output.join(asset)).expect("built-in asset written");
        let bundled = std::fs::read(common::bundled_site().join("static").join(asset)).unwrap();
        assert_eq!(built, bundled, "{asset} is the built-in one");
    }
    assert_local_links_resolve(&output);
}

#[test]
fn init_refuses_a_folder_that_is_not_empty_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "mine").unwrap();
    std::fs::write(dir.path().join("site.toml"), "title = \"mine\"").unwrap();
    std::fs::write(dir.path().join(".gitignore"), "*.tmp\n").unwrap();
    let refused = datapages(dir.path(), &["init"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("the folder is not empty"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("site.toml")).unwrap(),
        "title = \"mine\""
    );
    assert_ok(&datapages(dir.path(), &["init", "--force"]), "init --force");
    assert_eq!(std::fs::read(dir.path().join("notes.md")).unwrap(), b"mine");
    assert_eq!(
        std::fs::read(dir.path().join(".gitignore")).unwrap(),
        b"*.tmp\n",
        "the user's .gitignore is left as it was"
    );
    assert_ok(&datapages(dir.path(), &["check", "--strict"]), "check");
}

#[test]
fn a_sites_own_static_file_overrides_the_built_in_one_and_eject_writes_the_theme() {
    let (_dir, site) = new_site();
    std::fs::create_dir_all(site.join("static")).unwrap();
    std::fs::write(site.join("static/style.css"), "body { color: teal }\n").unwrap();
    let built = datapages(&site, &["build"]);
    assert_ok(&built, "build");
    // The example's chart takes its colours from the stylesheet this one replaced.
    assert!(
        text(&built.stderr).contains("static/style.css")
            && text(&built.stderr).contains("has no chart rules (`svg.dpc`)"),
        "{}",
        text(&built.stderr)
    );
    let output = site.join("public");
    assert_eq!(
        std::fs::read_to_string(output.join("style.css")).unwrap(),
        "body { color: teal }\n"
    );
    assert!(
        output.join("table.js").is_file(),
        "the others stay built in"
    );

    let refused = datapages(&site, &["eject"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("static/style.css"));
    assert!(
        !site.join("templates").exists(),
        "a refused eject writes nothing"
    );
    assert_ok(&datapages(&site, &["eject", "--force"]), "eject --force");
    for file in [
        "templates/base.html",
        "templates/partials/dataset_list.html",
        "static/listing.js",
    ] {
        assert!(site.join(file).is_file(), "eject writes {file}");
    }
    assert_ok(
        &datapages(&site, &["check", "--strict"]),
        "check after eject",
    );
}

#[test]
fn serve_serves_the_built_in_assets_and_falls_back_to_them() {
    let (_dir, site) = new_site();
    std::fs::create_dir_all(site.join("static")).unwrap();
    std::fs::write(site.join("static/style.css"), "body { color: teal }\n").unwrap();
    let server = common::server::Server::start(&site);
    for asset in ["/table.js", "/listing.js"] {
        let (status, _, body) = server.raw("GET", asset);
        assert_eq!(status, 200, "{asset}");
        assert!(!body.is_empty());
    }
    let (_, _, own) = server.raw("GET", "/style.css");
    assert_eq!(own, b"body { color: teal }\n");
    // Deleting the site's own stylesheet brings the built-in one back, not a 404.
    std::fs::remove_file(site.join("static/style.css")).unwrap();
    server.wait_for("/style.css", std::time::Duration::from_secs(20), |body| {
        body.starts_with("/* datapages default stylesheet.")
    });
}

/// A CSV fixture, and the column types `new --from` must infer for it.
struct Fixture {
    slug: &'static str,
    bytes: &'static [u8],
    types: &'static [&'static str],
    /// Text the page must contain (constraints, notes).
    page_has: &'static [&'static str],
}

const FIXTURES: &[Fixture] = &[
    Fixture {
        slug: "every-type",
        // BOM, CRLF, a quoted comma, a quoted newline, empty cells, ISO date-times.
        bytes: b"\xef\xbb\xbfid,name,score,ratio,day,at,flag,note\r\n\
1,\"Smith, J.\",10,0.5,2021-01-02,2021-01-02T10:00:00Z,true,\"line one\nline two\"\r\n\
2,Doe,,1.25,2021-02-03,2021-01-02T11:30:00+01:00,false,\r\n\
3,Roe,30,2.0,2021-03-04,2021-01-03T00:00:00Z,TRUE,plain\r\n",
        types: &[
            "integer", "string", "integer", "number", "date", "datetime", "boolean", "string",
        ],
        page_has: &[
            "name = \"id\"",
            "primary_key = [\"id\"]",
            "[[charts]]",
            "kind = \"line\"",
        ],
    },
    Fixture {
        slug: "r-style",
        // What R and pandas write for missing and infinite values.
        bytes: b"country,year,value,growth\nA,2019,1.5,NA\nB,2020,NA,inf\nC,2021,2.5,-inf\nD,2022,3,0.1\n",
        // `NA` declared missing per column; pandas' `inf` accepted where declared.
        types: &["string", "date", "number", "number"],
        page_has: &[
            "missing_values = [\"\", \"NA\"]",
            "non_finite = \"pandas\"",
        ],
    },
    Fixture {
        slug: "r-numbers",
        // What R's write.csv writes: Inf, -Inf, NaN and NA in a number column, NA in text.
        bytes: b"name,value\nA,Inf\nB,-Inf\nC,NaN\nD,NA\nE,1.5\nNA,2\n",
        types: &["string", "number"],
        page_has: &[
            "non_finite = \"r\"   # Inf, -Inf, NaN as R writes them",
            "missing_values = [\"\", \"NA\"]",
        ],
    },
    Fixture {
        slug: "categories",
        bytes: b"interface,block_size,cluster_throughput_mb_s\nSATA,4K,120\nSAS,4K,240\nNVMe,4K,900\nSATA,128K,500\nSAS,128K,1000\nNVMe,128K,10366\n",
        types: &["string", "string", "integer"],
        page_has: &[
            "enum = [\"SATA\", \"SAS\", \"NVMe\"]",
            "title = \"Cluster throughput (MB/s)\"",
            "unit = \"MB/s\"",
        ],
    },
];

/// The `type = "…"` values of a dataset page's columns, in order.
fn column_types(page: &str) -> Vec<String> {
    let front = page.split("+++").nth(1).expect("front matter");
    let value: toml::Value = toml::from_str(front).expect("the page's front matter is TOML");
    value["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c["type"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn new_from_infers_types_and_gives_a_site_that_builds_and_warns_about_placeholders() {
    let (dir, site) = new_site();
    for fixture in FIXTURES {
        let csv = dir.path().join(format!("{}.csv", fixture.slug));
        std::fs::write(&csv, fixture.bytes).unwrap();
        let made = datapages(
            &site,
            &["new", fixture.slug, "--from", csv.to_str().unwrap()],
        );
        assert_ok(&made, fixture.slug);
        assert!(text(&made.stdout).contains("comma-separated"));
        let copied =
            std::fs::read(site.join(format!("data/datasets/{}.csv", fixture.slug))).unwrap();
        assert_eq!(copied, fixture.bytes, "the CSV is copied byte for byte");
        let page =
            std::fs::read_to_string(site.join(format!("content/datasets/{}.md", fixture.slug)))
                .unwrap();
        assert_eq!(
            column_types(&page),
            fixture.types,
            "{}:\n{page}",
            fixture.slug
        );
        for needle in fixture.page_has {
            assert!(
                page.contains(needle),
                "{} lacks {needle}:\n{page}",
                fixture.slug
            );
        }
    }
    let build = datapages(&site, &["build"]);
    assert_ok(&build, "build of the new pages");
    assert!(text(&build.stderr).contains("a placeholder is still to be written"));
    assert_ok(&datapages(&site, &["check"]), "check without --strict");

    let strict = datapages(&site, &["check", "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "placeholders fail --strict");
    let report = text(&strict.stderr);
    assert!(report.contains("\n0 errors, "), "only warnings:\n{report}");
    for fixture in FIXTURES {
        let file = format!("content/datasets/{}.md", fixture.slug);
        let page = std::fs::read_to_string(site.join(&file)).unwrap();
        let placeholder_lines: Vec<usize> = page
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("TODO:"))
            .map(|(i, _)| i + 1)
            .collect();
        assert!(
            placeholder_lines.len() >= 5,
            "kicker, headline, lede, Method, Limits"
        );
        for line in placeholder_lines {
            assert!(
                report.contains(&format!("{file}:{line}:")),
                "the placeholder on {file}:{line} is reported:\n{report}"
            );
        }
    }
}

#[test]
fn semicolon_and_tab_files_are_read_with_their_delimiter_and_build() {
    let (dir, site) = new_site();
    for (slug, bytes, said, line) in [
        (
            "semi",
            &b"city;day;rain_mm\nOslo;2021-01-02T10:00:00Z;1.5\nBergen;2021-01-03T10:00:00Z;NA\nOslo, east;2021-01-04T10:00:00Z;0.25\n"[..],
            "semicolon-separated",
            "delimiter = \";\"",
        ),
        (
            "tabs",
            &b"a\tb\n1\t2\n3\t4\n"[..],
            "tab-separated",
            "delimiter = \"\\t\"",
        ),
    ] {
        let path = dir.path().join(format!("{slug}.txt"));
        std::fs::write(&path, bytes).unwrap();
        let made = datapages(&site, &["new", slug, "--from", path.to_str().unwrap()]);
        assert_ok(&made, slug);
        assert!(text(&made.stdout).contains(said), "{}", text(&made.stdout));
        let page =
            std::fs::read_to_string(site.join(format!("content/datasets/{slug}.md"))).unwrap();
        assert!(page.contains(line), "{page}");
        let copied = std::fs::read(site.join(format!("data/datasets/{slug}.csv"))).unwrap();
        assert_eq!(copied, bytes, "the file is copied byte for byte");
    }
    let semi = std::fs::read_to_string(site.join("content/datasets/semi.md")).unwrap();
    assert_eq!(column_types(&semi), ["string", "datetime", "number"]);
    let build = datapages(&site, &["build"]);
    assert_ok(&build, "build of the ; and tab pages");
    let strict = datapages(&site, &["check", "--strict"]);
    assert!(
        text(&strict.stderr).contains("\n0 errors, "),
        "{}",
        text(&strict.stderr)
    );
}

#[test]
fn new_refuses_bad_slugs_existing_files_and_broken_rows() {
    let (dir, site) = new_site();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "a,b\n1,2\n").unwrap();
    let from = csv.to_str().unwrap();
    let bad = datapages(&site, &["new", "My Table", "--from", from]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("e.g. my-table"));

    let taken = datapages(&site, &["new", "planets", "--from", from]);
    assert_eq!(taken.status.code(), Some(1));
    assert!(text(&taken.stderr).contains("already exists"));
    let planets = std::fs::read_to_string(site.join("data/datasets/planets.csv")).unwrap();
    assert!(
        planets.starts_with("planet,"),
        "the existing CSV is untouched"
    );

    std::fs::write(&csv, "a,b\n1,2\n3\n4,5,6\n").unwrap();
    let ragged = datapages(&site, &["new", "ragged", "--from", from]);
    assert_eq!(ragged.status.code(), Some(1));
    let report = text(&ragged.stderr);
    assert!(report.contains(":3") && report.contains(":4"), "{report}");
    assert!(!site.join("content/datasets/ragged.md").exists());

    // A CSV already at data/datasets/<slug>.csv is described where it is.
    std::fs::write(site.join("data/datasets/placed.csv"), "a,b\n1,2\n").unwrap();
    let placed = datapages(
        &site,
        &["new", "placed", "--from", "data/datasets/placed.csv"],
    );
    assert_ok(&placed, "new --from the CSV in place");
    assert!(site.join("content/datasets/placed.md").is_file());

    let skeleton = datapages(&site, &["new", "later"]);
    assert_ok(&skeleton, "new without --from");
    assert!(text(&skeleton.stdout).contains("data/datasets/later.csv"));
    assert!(site.join("content/datasets/later.md").is_file());
}

/// The validators' venv, or None (skip) when it or vega_datasets is missing outside CI.
fn vega_datasets() -> Option<(PathBuf, Vec<PathBuf>)> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::bundled_site().join("target/validators-venv"));
    let frictionless = venv.join("bin/frictionless");
    let data = std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|python| python.path().join("site-packages/vega_datasets/_data"))
        .find(|p| p.is_dir());
    match data {
        Some(data) if frictionless.is_file() => {
            let mut files: Vec<PathBuf> = std::fs::read_dir(data)
                .expect("read vega_datasets")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("csv"))
                .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= 5_000_000))
                .collect();
            files.sort();
            Some((frictionless, files))
        }
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!(
                "frictionless or vega_datasets not found in {} (run ./scripts/test)",
                venv.display()
            )
        }
        _ => {
            eprintln!(
                "skipped: frictionless or vega_datasets not found in {} (./scripts/test installs them)",
                venv.display()
            );
            None
        }
    }
}

/// Where our guess and `frictionless describe` differ on purpose: (file, column, ours,
/// frictionless's, why). Empty for vega_datasets 0.9.0: every column agrees once
/// frictionless's date family is read as our `date`.
const KNOWN_DISAGREEMENTS: &[(&str, &str, &str, &str, &str)] = &[];

/// Types compared as one family: our `date` covers years, months and date-times, and our
/// `datetime` (zoned date-times) is in that family too.
fn from_table_schema(kind: &str) -> &str {
    match kind {
        "year" | "yearmonth" | "date" | "datetime" => "date",
        other => other,
    }
}

#[test]
#[ignore = "full tier: new --from and build on every vega_datasets CSV, compared with frictionless (Python venv)"]
fn new_from_on_real_csvs_builds_and_agrees_with_frictionless() {
    let Some((frictionless, files)) = vega_datasets() else {
        return;
    };
    assert!(files.len() >= 5, "vega_datasets ships CSVs: {files:?}");
    let (_dir, site) = new_site();
    let mut disagreements = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_lowercase();
        let slug: String = stem
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        assert_ok(
            &datapages(&site, &["new", &slug, "--from", file.to_str().unwrap()]),
            &slug,
        );
        let page =
            std::fs::read_to_string(site.join(format!("content/datasets/{slug}.md"))).unwrap();
        let ours = column_types(&page);
        let described = Command::new(&frictionless)
            .args(["describe", "--json"])
            .arg(file)
            .output()
            .expect("frictionless runs");
        let described: serde_json::Value = serde_json::from_slice(&described.stdout)
            .unwrap_or_else(|e| panic!("frictionless describe {}: {e}", file.display()));
        let fields = described["schema"]["fields"].as_array().expect("fields");
        assert_eq!(fields.len(), ours.len(), "{slug}: column count");
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for (field, our) in fields.iter().zip(&ours) {
            let column = field["name"].as_str().unwrap_or_default();
            let theirs = from_table_schema(field["type"].as_str().unwrap_or_default());
            let known = KNOWN_DISAGREEMENTS
                .iter()
                .any(|(f, c, o, t, _)| *f == name && *c == column && o == our && *t == theirs);
            if from_table_schema(our) != theirs && !known {
                disagreements.push(format!(
                    "{name} {column}: ours {our}, frictionless {theirs}"
                ));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "unexplained disagreements:\n{}",
        disagreements.join("\n")
    );
    let build = datapages(&site, &["build"]);
    assert_ok(&build, "build of every vega_datasets CSV");
    let warnings = text(&build.stderr);
    assert!(
        !warnings.lines().any(|l| l.starts_with("error")),
        "{warnings}"
    );
    rebuilds_of_real_data_are_the_clean_build(&site, files.len());
}

/// Rebuilds reuse real data exactly (dates, quotes, Unicode, thousands of rows): unchanged,
/// nothing is written; after one page's edit, only that dataset is rendered again and the
/// output is a clean build's, byte for byte.
fn rebuilds_of_real_data_are_the_clean_build(site: &Path, datasets: usize) {
    let again = datapages(site, &["build"]);
    assert_ok(&again, "rebuild of the vega_datasets site");
    assert!(
        text(&again.stdout).starts_with("Up to date: "),
        "{}",
        text(&again.stdout)
    );
    let first = std::fs::read_dir(site.join("content/datasets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .min()
        .unwrap();
    let page = std::fs::read_to_string(&first).unwrap();
    std::fs::write(&first, page.replacen("title = \"", "title = \"Edited: ", 1)).unwrap();
    let edited = datapages(site, &["build"]);
    assert_ok(&edited, "rebuild after an edit");
    let summary = text(&edited.stdout);
    // The vega_datasets pages and the one `init` wrote.
    let total = datasets + 1;
    assert!(
        summary.contains(&format!(" {total} datasets (")),
        "{summary}"
    );
    let unchanged = format!("; {} datasets unchanged, kept)", total - 1);
    let linked = format!("({} datasets unchanged, linked)", total - 1);
    assert!(
        summary.contains(&unchanged) || summary.contains(&linked),
        "{summary}"
    );
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = clean_dir.path().join("clean");
    let clean_arg = clean.to_str().unwrap();
    assert_ok(
        &datapages(site, &["build", "--no-cache", "--output", clean_arg]),
        "clean build",
    );
    common::assert_same_trees(&site.join("public"), &clean, "rebuilt against clean");
}

/// A folder outside the site with one file, to link to: (guard, folder, file).
#[cfg(unix)]
fn outside_folder() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("outside");
    std::fs::create_dir_all(folder.join("datasets")).unwrap();
    let file = folder.join("secret.txt");
    std::fs::write(&file, "OUTSIDE-MARKER").unwrap();
    (dir, folder, file)
}

/// Every file under `dir`, with its bytes.
#[cfg(unix)]
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    common::tree_contents(dir)
}

#[cfg(unix)]
#[test]
fn init_and_eject_with_force_never_write_through_a_symlink() {
    use std::os::unix::fs::symlink;
    let (_guard, outside, secret) = outside_folder();
    let before = files_under(&outside);
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path();
    symlink(&secret, site.join("site.toml")).unwrap();
    symlink(&outside, site.join("content")).unwrap();
    let init = datapages(site, &["init", "--force"]);
    assert_eq!(init.status.code(), Some(1), "{}", text(&init.stdout));
    let stderr = text(&init.stderr);
    assert!(
        stderr.contains("site.toml is a symbolic link, which datapages does not replace"),
        "{stderr}"
    );
    assert!(
        stderr.contains("content is a symbolic link that leads outside the site folder"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(files_under(&outside), before, "nothing outside changed");
    assert!(!site.join("data").exists(), "a refused init writes nothing");

    // eject --force: a linked theme file is refused, the file it names is untouched.
    let (_dir, site) = new_site();
    std::fs::create_dir_all(site.join("static")).unwrap();
    symlink(&secret, site.join("static/style.css")).unwrap();
    let eject = datapages(&site, &["eject", "--force"]);
    assert_eq!(eject.status.code(), Some(1));
    assert!(text(&eject.stderr).contains("static/style.css is a symbolic link"));
    assert_eq!(files_under(&outside), before, "nothing outside changed");
    assert!(
        !site.join("templates").exists(),
        "a refused eject writes nothing"
    );
}

#[cfg(unix)]
#[test]
fn new_never_writes_into_a_linked_folder_outside_the_site() {
    use std::os::unix::fs::symlink;
    let (_guard, outside, _) = outside_folder();
    let before = files_under(&outside);
    for (linked, target) in [
        ("content/datasets", outside.join("datasets")),
        ("data/datasets", outside.join("datasets")),
        ("content", outside.clone()),
    ] {
        let (dir, site) = new_site();
        std::fs::remove_dir_all(site.join(linked)).unwrap();
        symlink(&target, site.join(linked)).unwrap();
        let csv = dir.path().join("t.csv");
        std::fs::write(&csv, "a,b\n1,2\n").unwrap();
        let new = datapages(&site, &["new", "fresh", "--from", csv.to_str().unwrap()]);
        assert_eq!(new.status.code(), Some(1), "{linked}");
        let stderr = text(&new.stderr);
        assert!(
            stderr.contains(&format!(
                "{linked} is a symbolic link that leads outside the site folder"
            )),
            "{linked}: {stderr}"
        );
        assert_eq!(
            files_under(&outside),
            before,
            "{linked}: nothing written outside"
        );
    }

    // A CSV "in place" behind a link that leads out is not in place: refused, no page.
    let (_dir, site) = new_site();
    std::fs::write(outside.join("datasets/placed.csv"), "a,b\n1,2\n").unwrap();
    let before = files_under(&outside);
    std::fs::remove_dir_all(site.join("data/datasets")).unwrap();
    symlink(outside.join("datasets"), site.join("data/datasets")).unwrap();
    let new = datapages(
        &site,
        &["new", "placed", "--from", "data/datasets/placed.csv"],
    );
    assert_eq!(new.status.code(), Some(1));
    assert!(text(&new.stderr).contains("data/datasets is a symbolic link that leads outside"));
    assert!(!site.join("content/datasets/placed.md").exists());
    assert_eq!(files_under(&outside), before);
}

/// Runs `datapages new` and gives up after 20 s (a FIFO read would block forever).
#[cfg(unix)]
fn new_from_within_a_time_limit(site: &Path, from: &Path) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(common::binary())
        .current_dir(site)
        .args(["new", "odd", "--from", from.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("new --from {} did not return", from.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn new_from_refuses_what_is_not_a_regular_file_before_opening_it() {
    let (dir, site) = new_site();
    let fifo = dir.path().join("pipe.csv");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    for (from, kind) in [
        (fifo.as_path(), "a FIFO (named pipe)"),
        (Path::new("/dev/zero"), "a device"),
    ] {
        let new = new_from_within_a_time_limit(&site, from);
        assert_eq!(new.status.code(), Some(1), "{}", from.display());
        let stderr = text(&new.stderr);
        assert!(
            stderr.contains(&format!("it is not a regular file but {kind}")),
            "{stderr}"
        );
        assert!(stderr.contains("pass a CSV file with --from"), "{stderr}");
        assert!(!site.join("content/datasets/odd.md").exists());
    }
}

#[test]
fn new_shows_control_characters_of_the_csv_instead_of_sending_them() {
    let (dir, site) = new_site();
    let csv = dir.path().join("t.csv");
    std::fs::write(
        &csv,
        "\"\x1b]0;title\x07\",\"\x1b[2J\",n\nx,NA\x1b[31m,1\ny,2,2\nz,3,3\n",
    )
    .unwrap();
    let new = datapages(&site, &["new", "odd", "--from", csv.to_str().unwrap()]);
    let printed = format!("{}{}", text(&new.stdout), text(&new.stderr));
    for raw in ['\x1b', '\x07'] {
        assert!(!printed.contains(raw), "{raw:?} printed raw:\n{printed}");
    }
    assert!(printed.contains("␛]0;title␇"), "{printed}");
    assert!(printed.contains("␛[2J"), "{printed}");
}

#[test]
fn new_applies_the_slug_rules_of_check() {
    let (_dir, site) = new_site();
    let refused = datapages(&site, &["new", "page"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains("the dataset slug `page` is taken by the pages of All datasets"),
        "{stderr}"
    );
    assert!(stderr.contains("choose another slug"), "{stderr}");
    let long = "s".repeat(201);
    let refused = datapages(&site, &["new", &long]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("the dataset slug is 201 bytes long; at most 200"));
    assert!(!site.join("content/datasets/page.md").exists());
    assert!(!site.join(format!("content/datasets/{long}.md")).exists());
    assert_ok(
        &datapages(&site, &["new", &"s".repeat(200)]),
        "a 200-byte slug",
    );
}

#[test]
fn new_from_a_compressed_file_is_one_error_naming_the_format() {
    let (dir, site) = new_site();
    // A gzip file not named .gz (one named so is decompressed: scaffold_tables.rs).
    let gz = dir.path().join("t.csv");
    // gzip of "a,b\n1,2\n" (header, deflate stream, CRC and size).
    let mut bytes = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3];
    bytes.extend_from_slice(&[0x4b, 0xd4, 0x49, 0xe2, 0x32, 0xd4, 0x31, 0xe2, 0x02, 0x00]);
    bytes.extend_from_slice(&[0x7b, 0x07, 0x97, 0x0a, 0x08, 0x00, 0x00, 0x00]);
    std::fs::write(&gz, &bytes).unwrap();
    let made = datapages(&site, &["new", "t", "--from", gz.to_str().unwrap()]);
    assert!(!made.status.success());
    let said = text(&made.stderr);
    assert!(
        said.contains("error: the file is gzip-compressed, not CSV text")
            && said.contains("1 error, 0 warnings"),
        "{said}"
    );
    assert!(!said.contains("UTF-8"), "{said}");
    assert!(!site.join("content/datasets/t.md").exists());
    assert!(!site.join("data/datasets/t.csv").exists());
}

/// The lines of a report that locate and explain its problems: where, the source line,
/// the caret and the hint, without the file's name (`new` and `check` name it differently).
fn located_lines(report: &str) -> Vec<String> {
    report
        .lines()
        .filter(|line| line.starts_with("error") || line.contains(" | ") || line.contains("= hint"))
        .map(str::to_string)
        .collect()
}

#[test]
fn new_from_reports_a_quote_left_open_and_a_bare_carriage_return_as_check_does() {
    let cases: [(&str, &[u8], &[&str]); 3] = [
        (
            "open",
            b"a,b\n1,x\n2,\"y\n3,z\n",
            &[
                ":3:3",
                "a quote opened here is never closed",
                "end of the file (line 4)",
            ],
        ),
        (
            "over",
            b"a,b\n1,\"x\n2\",y\n3,z\n",
            &[":2:3", "row has 3 fields", "runs from line 2 to line 3"],
        ),
        (
            "cut",
            b"a,b\n1,x\n2,y\rz\n3,z\n",
            &[
                ":3:4",
                "row has 1 field,",
                "bare carriage return",
                "byte offset 11",
            ],
        ),
    ];
    for (slug, bytes, expected) in cases {
        let (_dir, site) = new_site();
        let placed = site.join(format!("data/datasets/{slug}.csv"));
        std::fs::write(&placed, bytes).unwrap();
        let from = format!("data/datasets/{slug}.csv");
        let new = datapages(&site, &["new", slug, "--from", &from]);
        assert_eq!(new.status.code(), Some(1), "{slug}");
        let said = text(&new.stderr);
        for part in expected {
            assert!(said.contains(part), "{slug}: `{part}` missing in\n{said}");
        }
        assert!(
            said.contains("1 error, 0 warnings"),
            "{slug}: one error\n{said}"
        );
        assert!(!site.join(format!("content/datasets/{slug}.md")).exists());

        // `check` on the same file, described by hand, says the same.
        let page = format!(
            "+++\ntitle = \"T\"\nkicker = \"k\"\nheadline = \"A headline for {slug}\"\nupdated = 2026-12-02\n\
             [[columns]]\nname = \"a\"\ntitle = \"A\"\ntype = \"string\"\ndescription = \"The a column.\"\n\
             [[columns]]\nname = \"b\"\ntitle = \"B\"\ntype = \"string\"\ndescription = \"The b column.\"\n+++\n\n\
             The lede.\n\n## Method\n\nBy hand.\n\n## Limits\n\nNone.\n"
        );
        std::fs::write(site.join(format!("content/datasets/{slug}.md")), page).unwrap();
        let check = datapages(&site, &["check"]);
        let checked = text(&check.stderr);
        let wanted = located_lines(&said);
        let got = located_lines(&checked);
        for line in &wanted {
            assert!(
                got.contains(line),
                "{slug}: `check` lacks `{line}`\n{checked}"
            );
        }
    }
}

/// A quoted header holding a line break and a line `+++` (which would end the front
/// matter if a name were written as a multi-line string): the page `new --from` writes
/// parses, names the column with the header as it is, and builds.
#[test]
fn new_from_writes_a_header_with_a_fence_line_as_one_line() {
    let (dir, site) = new_site();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "\"a\n+++\nb\",n\nx,1\ny,2\nz,3\n").unwrap();
    let made = datapages(&site, &["new", "fenced", "--from", csv.to_str().unwrap()]);
    assert_ok(&made, "new --from");
    let page = std::fs::read_to_string(site.join("content/datasets/fenced.md")).unwrap();
    assert_eq!(
        page.lines().filter(|l| l.trim_end() == "+++").count(),
        2,
        "{page}"
    );
    assert!(page.contains("name = \"a\\n+++\\nb\""), "{page}");
    let check = datapages(&site, &["check"]);
    let report = format!("{}{}", text(&check.stdout), text(&check.stderr));
    assert!(!report.contains("front matter"), "{report}");
    assert!(!report.contains("TOML"), "{report}");
}

/// A `new --from` killed while copying leaves `.<file>.datapages-<pid>.tmp` beside the
/// copy's place: the next `new` into that folder removes it (its process is gone), and
/// leaves alone one whose process still runs and what is not a plain file.
#[cfg(target_os = "linux")]
#[test]
fn new_removes_the_temporary_files_of_killed_runs() {
    let (dir, site) = new_site();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let folder = site.join("data/datasets");
    std::fs::create_dir_all(&folder).unwrap();
    let stale = folder.join(format!(".killed.csv.datapages-{dead}.tmp"));
    let alive = folder.join(format!(".other.csv.datapages-{}.tmp", std::process::id()));
    let not_a_file = folder.join(format!(".dir.csv.datapages-{dead}.tmp"));
    let unrelated = folder.join(format!(".notes.datapages-{dead}"));
    std::fs::write(&stale, "partial").unwrap();
    std::fs::write(&alive, "in progress").unwrap();
    std::fs::create_dir(&not_a_file).unwrap();
    std::fs::write(&unrelated, "mine").unwrap();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "a,n\nx,1\n").unwrap();
    assert_ok(
        &datapages(&site, &["new", "fresh", "--from", csv.to_str().unwrap()]),
        "new --from",
    );
    assert!(
        !stale.exists(),
        "the killed run's temporary file is removed"
    );
    assert!(alive.exists() && not_a_file.exists() && unrelated.exists());
}
