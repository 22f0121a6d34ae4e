//! `datapages init [DIR]`: a new site that builds at once, with one small example dataset
//! to read and replace. The theme is not copied: the built-in one keeps improving with each
//! datapages release, and `datapages eject` writes it out for those who want to edit it.

use std::path::Path;

use super::workflow::{github_workflow, InstallSource};
use super::{write_all, Contents, Existing, PlannedFile};
use crate::diagnostics::{Diagnostic, Error};

const SITE_TOML: &str = r#"# Settings for the whole site. Every dataset page is checked against them on each build.
title = "My data site"
description = "Tables published with the method behind their figures and what they leave out."
# Where the site will be published: used for the sitemap, the feed and metadata.
# Pages link to each other relatively, so a wrong value here never breaks navigation.
base_url = "https://example.org/"
language = "en"
# Rows each dataset page shows in its table: a number, or "all".
table_rows = 1000

# Who wrote the pages: credited in each dataset's metadata and suggested citation.
[author]
name = "Your Name"
# url = "https://example.org/about-me"

# [publisher]            # optional; defaults to the author
# name = "Your organisation"

# The license of every dataset that does not declare its own.
[license]
name = "CC BY 4.0"
url = "https://creativecommons.org/licenses/by/4.0/"
"#;

const HOME: &str = r#"+++
title = "My data site"
+++

This is the home page introduction, written in `content/_index.md`. Say here what the tables on this site are about, who collects them and why; the list of datasets follows below it.

The site starts with one example table, eight planets of the Solar System, so that there is something to look at. Replace it with your own: `datapages new my-table --from my-table.csv`.
"#;

const ABOUT: &str = r#"+++
title = "About this site"
+++

This page is `content/about.md`. Every Markdown file directly in `content/` becomes a page like this one, linked from the navigation.

Use it to say who publishes the site, how the tables are made and checked, and how readers can report a mistake.

The site is built with datapages, a static site generator that publishes each table with its method, its limits, its columns, its license and its sources.
"#;

const EXAMPLE_SLUG: &str = "planets";

/// Approximate figures from NASA's Planetary Fact Sheet (a US government work).
const EXAMPLE_CSV: &str = "\
planet,kind,diameter_km,distance_from_sun_million_km,orbital_period_days
Mercury,rocky,4879,57.9,88.0
Venus,rocky,12104,108.2,224.7
Earth,rocky,12756,149.6,365.2
Mars,rocky,6792,228.0,687.0
Jupiter,gas giant,142984,778.5,4331
Saturn,gas giant,120536,1432.0,10747
Uranus,ice giant,51118,2867.0,30589
Neptune,ice giant,49528,4515.0,59800
";

const EXAMPLE_PAGE: &str = r##"+++
title = "The eight planets: size, distance and year"
kicker = "Example dataset · rounded figures from NASA's Planetary Fact Sheet"
headline = 'Neptune, the farthest planet, takes {{ cell(planet="Neptune", col="orbital_period_days") }} days to orbit the Sun once; Mercury takes {{ cell(planet="Mercury", col="orbital_period_days", digits=0) }}'
tags = ["Example", "Solar System"]
creators = [{ name = "NASA Space Science Data Coordinated Archive", kind = "organization", url = "https://nssdc.gsfc.nasa.gov/" }]
primary_key = ["planet"]
table_note = "One row per planet, in order of distance from the Sun. Distances are mean distances, in millions of kilometres."

[license]
name = "Public domain"
text = "The figures come from a work of the US government, which is not protected by copyright in the United States. Cite [the fact sheet](#source-nasa-planetary-fact-sheet) when you reuse them."

[[sources]]
id = "nasa-planetary-fact-sheet"
title = "Planetary Fact Sheet - Metric"
publisher = "NASA Goddard Space Flight Center"
url = "https://nssdc.gsfc.nasa.gov/planetary/factsheet/"

[[columns]]
name = "planet"
title = "Planet"
type = "string"
description = "The planet's English name."
required = true
unique = true

[[columns]]
name = "kind"
title = "Kind"
type = "string"
description = "Rocky (terrestrial) planet, gas giant or ice giant."
required = true
enum = ["rocky", "gas giant", "ice giant"]

[[columns]]
name = "diameter_km"
title = "Diameter (km)"
type = "integer"
description = "Diameter at the equator, in kilometres."
unit = "km"
required = true
minimum = 0

[[columns]]
name = "distance_from_sun_million_km"
title = "Distance from the Sun (million km)"
type = "number"
description = "Mean distance from the Sun, in millions of kilometres."
unit = "million km"
required = true
minimum = 0

[[columns]]
name = "orbital_period_days"
title = "Orbital period (days)"
type = "number"
description = "Time to go once around the Sun, in Earth days."
unit = "days"
required = true
minimum = 0

[[charts]]
kind = "bar"
title = "Distance from the Sun"
caption = "Mean distance of each planet from the Sun, in millions of kilometres. The outer planets are far more spread out than the inner ones."
x = "planet"
y = "distance_from_sun_million_km"
+++

An example table to show what a dataset page looks like: the eight planets of the Solar System with their diameter, their mean distance from the Sun and the length of their year. Jupiter is the largest, {{ cell(planet="Jupiter", col="diameter_km") }} km across; Neptune is the farthest, {{ cell(planet="Neptune", col="distance_from_sun_million_km") }} million km out, and takes {{ cell(planet="Neptune", col="orbital_period_days") }} days to go around the Sun once. Each of these figures is read from its cell of the table (`{{ cell(planet="Neptune", col="orbital_period_days") }}` in the Markdown), so a corrected cell corrects the text.

## Method

The figures are rounded values copied from [NASA's Planetary Fact Sheet](#source-nasa-planetary-fact-sheet), one row per planet. They were typed in by hand for this example and not checked against any other source. Distances are means over a whole orbit; the orbital period is measured relative to the stars, in Earth days.

## Limits

This is a teaching example, not a reference. The values are rounded and the table leaves out dwarf planets such as Pluto, moons, masses and every other property a real comparison would need. Check the figures against the source before reusing any of them.
"##;

/// What a new site keeps out of version control: the output and the caches (the scan cache
/// and the reuse manifest).
const GITIGNORE: &str = "public/\n.datapages-cache/\n";

/// The continuous-integration services `init --ci` writes a publishing workflow for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ci {
    /// GitHub Actions: check, build and deploy to GitHub Pages, with the datapages of this
    /// source.
    Github(InstallSource),
}

/// Where `init --ci github` writes its workflow, inside the site.
pub const GITHUB_WORKFLOW_PATH: &str = ".github/workflows/datapages.yml";

/// Writes a new site into `dir`. A folder that is not empty is refused unless `force`;
/// then init's own files are written over any of the same name and nothing else changes.
/// With `ci`, the publishing workflow is one more file; in a folder that already holds a
/// site (a site.toml), only the workflow is written, refused if it exists unless `force`.
pub fn init(dir: &Path, force: bool, ci: Option<Ci>) -> Result<String, Error> {
    if let (Some(Ci::Github(source)), true) = (&ci, dir.join("site.toml").is_file()) {
        return add_workflow(dir, force, source);
    }
    let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied && !force {
        return Err(Error::from(vec![Diagnostic::error(
            dir,
            "the folder is not empty",
        )
        .with_hint(
            "choose a new or empty folder (`datapages init my-site`), or pass --force to write \
             init's files into it: files of the same names are replaced, nothing is deleted",
        )]));
    }
    let mut files = site_files();
    if let Some(Ci::Github(source)) = &ci {
        files.push(workflow_file(source));
    }
    // A `.gitignore` keeps the output and datapages' cache out of version control; one the
    // folder already has is the user's, and is left as it is.
    if dir.join(".gitignore").symlink_metadata().is_err() {
        files.push(PlannedFile {
            path: ".gitignore".into(),
            contents: Contents::Bytes(GITIGNORE.as_bytes().to_vec()),
        });
    }
    write_all(dir, &files, Existing::Overwrite, "")?;
    let dir_shown = crate::text::visible_line(&dir.to_string_lossy()).into_owned();
    let mut report = format!("Created a new site in {dir_shown}:\n");
    for file in &files {
        report.push_str(&format!("  {}\n", file.path));
    }
    let cd = if dir == Path::new(".") {
        String::new()
    } else {
        format!("cd {dir_shown} && ")
    };
    report.push_str(&format!(
        "Next: {cd}datapages serve, then open http://127.0.0.1:1111/. Edit site.toml first; \
         add your own table with `datapages new my-table --from my-table.csv`.\n"
    ));
    if ci.is_some() {
        report.push_str(PUBLISH_NEXT);
    }
    Ok(report)
}

/// What to do once for the workflow to publish.
const PUBLISH_NEXT: &str = "To publish: push the site to a GitHub repository and set \
    Settings > Pages > Source to \"GitHub Actions\": each push to main then checks, builds \
    and publishes it (docs/publishing.md).\n";

fn workflow_file(source: &InstallSource) -> PlannedFile {
    PlannedFile {
        path: GITHUB_WORKFLOW_PATH.into(),
        contents: Contents::Bytes(github_workflow(source).into_bytes()),
    }
}

/// `init --ci github` in an existing site: the workflow only, like `eject` refusing to
/// replace a file unless `force`.
fn add_workflow(dir: &Path, force: bool, source: &InstallSource) -> Result<String, Error> {
    let existing = match force {
        true => Existing::Overwrite,
        false => Existing::Refuse,
    };
    write_all(
        dir,
        &[workflow_file(source)],
        existing,
        "pass --force to replace it with datapages' workflow (your changes to it are lost)",
    )?;
    Ok(format!("Wrote {GITHUB_WORKFLOW_PATH}.\n{PUBLISH_NEXT}"))
}

fn site_files() -> Vec<PlannedFile> {
    let file = |path: String, text: &str| PlannedFile {
        path,
        contents: Contents::Bytes(text.as_bytes().to_vec()),
    };
    vec![
        file("site.toml".into(), SITE_TOML),
        file("content/_index.md".into(), HOME),
        file("content/about.md".into(), ABOUT),
        file(
            format!("content/datasets/{EXAMPLE_SLUG}.md"),
            &EXAMPLE_PAGE.replacen(
                "primary_key",
                &format!(
                    "created = {today}\nupdated = {today}\nversion = \"1.0.0\"\nprimary_key",
                    today = super::today()
                ),
                1,
            ),
        ),
        file(format!("data/datasets/{EXAMPLE_SLUG}.csv"), EXAMPLE_CSV),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_folder_that_is_not_empty() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        assert!(init(dir.path(), false, None).is_err());
        assert!(!dir.path().join("site.toml").exists());
        init(dir.path(), true, None).unwrap();
        assert!(dir.path().join("site.toml").is_file());
        assert_eq!(
            std::fs::read(dir.path().join("notes.txt")).unwrap(),
            b"mine"
        );
    }

    #[test]
    fn the_example_is_a_site_without_problems() {
        let dir = tempfile::tempdir().unwrap();
        init(&dir.path().join("site"), false, None).unwrap();
        let options = crate::build::BuildOptions::new(dir.path().join("site")).scan_cache(false);
        match crate::build::check(&options) {
            Ok(report) => assert!(
                report.warnings.is_empty(),
                "{}",
                report.warnings.render(false)
            ),
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn ci_github_writes_the_guides_workflow_and_refuses_to_replace_it() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        let source = InstallSource::parse(
            "https://git.example.org/o/datapages@0123456789abcdef0123456789abcdef01234567",
        )
        .unwrap();
        let github = || Some(Ci::Github(source.clone()));
        init(&site, false, github()).unwrap();
        let written = std::fs::read_to_string(site.join(GITHUB_WORKFLOW_PATH)).unwrap();
        assert_eq!(written, github_workflow(&source));
        // The guide shows the same workflow, with the places of the source named.
        let placeholders = InstallSource {
            repository: "<the datapages repository's https address>".into(),
            commit: "<the full commit to install>".into(),
        };
        assert_eq!(guide_workflow(), github_workflow(&placeholders));
        // In the existing site: the workflow only, refused while it exists, unless --force.
        std::fs::write(site.join(GITHUB_WORKFLOW_PATH), "mine").unwrap();
        let error = init(&site, false, github()).unwrap_err().to_string();
        assert!(error.contains("already exists"), "{error}");
        assert!(error.contains("--force"), "{error}");
        assert_eq!(
            std::fs::read_to_string(site.join(GITHUB_WORKFLOW_PATH)).unwrap(),
            "mine"
        );
        init(&site, true, github()).unwrap();
        assert_eq!(
            std::fs::read_to_string(site.join(GITHUB_WORKFLOW_PATH)).unwrap(),
            github_workflow(&source)
        );
        // Without --ci, an existing site is still refused as a folder that is not empty.
        assert!(init(&site, false, None).is_err());
    }

    /// The YAML block docs/publishing.md shows under its `init --ci github` marker.
    fn guide_workflow() -> String {
        let guide = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/publishing.md"),
        )
        .unwrap();
        let marker = "<!-- the workflow `datapages init --ci github` writes -->\n```yaml\n";
        let start = guide.find(marker).expect("the guide marks the workflow") + marker.len();
        let end = start + guide[start..].find("```\n").expect("the block ends");
        guide[start..end].to_string()
    }
}
