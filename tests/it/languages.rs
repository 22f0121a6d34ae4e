//! Pages in the site's language (#54): the bundled site built in French reads in French
//! (headings, counts with CLDR plurals and number marks, dates, the 404 page, the scripts'
//! words), a message the language lacks is a located `check` problem, and the command
//! line's own messages stay English.

use crate::common;

use std::path::Path;

use common::{copy_bundled_site, html, run, texts};

fn set_language(root: &Path, language: &str) {
    let path = root.join("site.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace("language = \"en\"", &format!("language = \"{language}\""));
    assert!(text.contains(&format!("language = \"{language}\"")));
    std::fs::write(path, text).unwrap();
    common::unbind_figures(root);
}

fn build(root: &Path) -> std::process::Output {
    run(&["build", "--root", root.to_str().unwrap()])
}

/// A dataset of `rows` rows (`n`, `v`) added with `new --from`, updated on 1 March 2024.
fn write_rows(root: &Path, slug: &str, rows: usize) {
    let csv: String = std::iter::once("n,v\n".to_string())
        .chain((1..=rows).map(|i| format!("{i},{}.5\n", i * 1000)))
        .collect();
    let from = root.join(format!("{slug}-source.csv"));
    std::fs::write(&from, csv).unwrap();
    let out = run(&[
        "new",
        slug,
        "--from",
        from.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = root.join("content/datasets").join(format!("{slug}.md"));
    let text = std::fs::read_to_string(&page).unwrap();
    let updated = text
        .lines()
        .find(|l| l.starts_with("updated = "))
        .unwrap()
        .to_string();
    std::fs::write(&page, text.replace(&updated, "updated = 2024-03-01")).unwrap();
}

/// The English texts of the built-in catalogue that take no argument and that French
/// writes differently: none may be on a French page.
fn english_only_texts() -> Vec<String> {
    let en: toml::Table = toml::from_str(
        &std::fs::read_to_string(common::bundled_site().join("i18n/en.toml")).unwrap(),
    )
    .unwrap();
    let fr: toml::Table = toml::from_str(
        &std::fs::read_to_string(common::bundled_site().join("i18n/fr.toml")).unwrap(),
    )
    .unwrap();
    let mut out = Vec::new();
    for (section, table) in &en {
        if section == "format" || section == "script" {
            continue;
        }
        for (key, value) in table.as_table().unwrap() {
            let (Some(text), Some(french)) = (value.as_str(), fr[section][key].as_str()) else {
                continue;
            };
            if text.len() > 4 && text != french && !text.contains(['{', '[']) {
                out.push(text.to_string());
            }
        }
    }
    assert!(out.len() > 40, "{out:?}");
    out
}

#[test]
fn a_french_site_reads_in_french_with_cldr_plurals_numbers_and_dates() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_bundled_site(root);
    set_language(root, "fr");
    write_rows(root, "one-row", 1);
    write_rows(root, "many-rows", 1234);
    let out = build(root);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let public = root.join("public");
    let page = html(&public.join("datasets/sata-sas-nvme-measured-throughput/index.html"));
    let headings = texts(&page, "article.dataset h2");
    for french in [
        "Graphiques",
        "Tableau",
        "Colonnes",
        "Licence",
        "Sources",
        "Citer ce jeu de données",
    ] {
        assert!(
            headings.iter().any(|h| h == french),
            "{french} in {headings:?}"
        );
    }
    assert_eq!(texts(&page, "a.button"), ["Télécharger le CSV"]);
    let source = std::fs::read_to_string(
        public.join("datasets/sata-sas-nvme-measured-throughput/index.html"),
    )
    .unwrap();
    assert!(source.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"));
    let one = html(&public.join("datasets/one-row/index.html"));
    assert_eq!(texts(&one, ".counts"), ["1 ligne · 2 colonnes · CSV"]);
    assert_eq!(texts(&one, ".caption-shape"), ["(1 ligne, 2 colonnes)"]);
    assert_eq!(
        texts(&one, ".dates"),
        ["Mis à jour le 1 mars 2024 · version 1.0.0"]
    );
    let many = std::fs::read_to_string(public.join("datasets/many-rows/index.html")).unwrap();
    // CLDR's French groups with a narrow no-break space (U+202F).
    assert!(many.contains("<span class=\"counts\">1\u{202f}234 lignes · 2 colonnes · CSV</span>"));
    let listing = std::fs::read_to_string(public.join("datasets/index.html")).unwrap();
    assert!(listing.contains("1\u{202f}234 lignes × 2 colonnes"));
    assert!(listing.contains("<h1>Tous les jeux de données</h1>"));
    let not_found = html(&public.join("404.html"));
    assert_eq!(texts(&not_found, "h1"), ["Page introuvable"]);
    assert!(texts(&not_found, "title")[0].starts_with("Page introuvable · "));
    // No English text of the catalogue on any page a reader sees.
    let english = english_only_texts();
    for entry in walkdir::WalkDir::new(&public) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for phrase in &english {
                assert!(
                    !text.contains(&format!(">{phrase}<"))
                        && !text.contains(&format!("=\"{phrase}\"")),
                    "{phrase:?} in {}",
                    entry.path().display()
                );
            }
        }
    }
    // The scripts' words: one file for the language, linked before the scripts.
    let words = std::fs::read_to_string(public.join("words-fr.js")).unwrap();
    assert!(
        words.contains("\"explore\":{\"many\":\"Explorer les {n} de lignes\""),
        "{words}"
    );
    assert!(
        words.contains("\"decimal\":\",\",\"group\":\"\u{202f}\""),
        "{words}"
    );
    assert!(!public.join("words-en.js").exists());
    let dataset = std::fs::read_to_string(public.join("datasets/one-row/index.html")).unwrap();
    let (words_at, table_at) = (
        dataset.find("words-fr.js").unwrap(),
        dataset.find("table.js").unwrap(),
    );
    assert!(words_at < table_at);
    // The command line stays English whatever the site's language.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Built "), "{stdout}");
}

#[test]
fn a_regional_tag_takes_its_language_and_each_built_in_language_builds() {
    for (language, heading) in [
        ("fr-CA", "Tableau"),
        ("de", "Tabelle"),
        ("es", "Tabla"),
        ("pt-BR", "Tabela"),
        ("en-GB", "Table"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        copy_bundled_site(dir.path());
        set_language(dir.path(), language);
        let out = build(dir.path());
        assert!(
            out.status.success(),
            "{language}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = html(
            &dir.path()
                .join("public/datasets/sata-sas-nvme-measured-throughput/index.html"),
        );
        assert!(
            texts(&page, "article.dataset h2")
                .iter()
                .any(|h| h == heading),
            "{language}"
        );
    }
}

#[test]
fn a_missing_message_is_a_located_check_problem_in_english_never_an_english_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_bundled_site(root);
    set_language(root, "fr");
    std::fs::create_dir(root.join("i18n")).unwrap();
    // The site adds a message in English only, and a French file that lacks it.
    std::fs::write(root.join("i18n/en.toml"), "[mine]\nhello = \"Hello\"\n").unwrap();
    std::fs::write(
        root.join("i18n/fr.toml"),
        "[dataset]\ntable = \"Données\"\n",
    )
    .unwrap();
    let out = run(&["check", "--root", root.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: the message `mine.hello` has no text in the language `fr`"),
        "{stderr}"
    );
    assert!(stderr.contains("--> i18n/fr.toml:1:1"), "{stderr}");
    assert!(stderr.contains("in English it reads \"Hello\""), "{stderr}");
    // A language with no catalogue: one problem, at site.toml's `language`.
    set_language(root, "fr");
    let text = std::fs::read_to_string(root.join("site.toml"))
        .unwrap()
        .replace("language = \"fr\"", "language = \"nl\"");
    std::fs::write(root.join("site.toml"), text).unwrap();
    let out = run(&["build", "--root", root.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("error: no message catalogue for the language `nl`"),
        "{stderr}"
    );
    assert!(stderr.contains("--> site.toml:"), "{stderr}");
    // The command line's own words stay English (item 4 of #54).
    assert!(stderr.contains("Build failed;"), "{stderr}");
    assert!(!root.join("public").exists());
}
