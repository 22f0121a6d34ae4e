//! The theme's words per language: message catalogues keyed by symbolic ids (English,
//! French, German, Spanish and Portuguese built in, a site's `i18n/<language>.toml`
//! overriding or adding), with the language's CLDR plural rules and number marks
//! ([`locale`]). A message a language lacks is a problem `check` reports, never English
//! shown in its place.

pub mod catalogue;
pub use datapages_content::locale;
pub mod message;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use catalogue::{Catalogue, Message};
use locale::Locale;

use crate::diagnostics::Diagnostic;

/// The folder of a site's own catalogues.
pub const FOLDER: &str = "i18n";

/// The built-in catalogues by language (`i18n/<language>.toml` in the repository).
pub const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("../i18n/en.toml")),
    ("fr", include_str!("../i18n/fr.toml")),
    ("de", include_str!("../i18n/de.toml")),
    ("es", include_str!("../i18n/es.toml")),
    ("pt", include_str!("../i18n/pt.toml")),
];

/// The ids the scripts use start with this; they go to `words-<language>.js`.
const SCRIPT_PREFIX: &str = "script.";

/// Where site.toml's `language` is, for the problems of a language as a whole.
#[derive(Debug, Clone)]
pub struct LanguagePlace {
    pub line: usize,
    pub column: usize,
    pub source_line: String,
}

/// One language's words and CLDR data.
#[derive(Debug)]
pub struct Words {
    /// site.toml's `language` as written (`fr-CA`).
    pub language: String,
    messages: BTreeMap<String, Message>,
    pub locale: Locale,
}

impl Words {
    /// The built-in English words (what a site with no `language` gets).
    pub fn english() -> Words {
        let messages = parse_built_in("en")
            .map(|c| c.messages.into_iter().map(|(id, (m, _))| (id, m)).collect())
            .unwrap_or_default();
        Words {
            language: "en".into(),
            messages,
            locale: Locale::new("en"),
        }
    }

    /// The words of `language` (BCP 47: `fr-CA` is French with the site's `fr-CA.toml`
    /// over its `fr.toml` over the built-in French) and every problem with them.
    pub fn load(
        root: &Path,
        language: &str,
        place: Option<&LanguagePlace>,
    ) -> (Words, Vec<Diagnostic>) {
        let mut problems = Vec::new();
        let primary = language
            .split('-')
            .next()
            .unwrap_or(language)
            .to_ascii_lowercase();
        let mut english = layers(root, "en", "en", &mut problems);
        let mut site_files = Vec::new();
        let (messages, found) = if primary == "en" {
            site_files.extend(english.site_file.clone());
            (english.messages.clone(), true)
        } else {
            let own = layers(root, &primary, language, &mut problems);
            site_files.extend(own.site_file.clone());
            (own.messages, own.found)
        };
        let required = std::mem::take(&mut english.messages);
        let locale = Locale::new(language);
        let at = |p: &Path, line: usize| Diagnostic::error(p, String::new()).at(line, 1);
        let language_problem = |message: String| {
            let mut d = Diagnostic::error("site.toml", message);
            if let Some(place) = place {
                d = d
                    .at(place.line, place.column)
                    .with_source_line(place.source_line.clone());
            }
            d
        };
        if !found {
            problems.push(
                language_problem(format!(
                    "no message catalogue for the language `{language}`: the theme's words exist in {}",
                    BUILT_IN.iter().map(|(l, _)| format!("`{l}`")).collect::<Vec<_>>().join(", ")
                ))
                .with_hint(format!(
                    "write {FOLDER}/{primary}.toml with every message of the built-in {FOLDER}/en.toml in that language (`datapages eject` writes the built-in ones into i18n/), or set `language` to one of those"
                )),
            );
        } else {
            let missing_at = |id: &str| -> Diagnostic {
                let message =
                    format!("the message `{id}` has no text in the language `{language}`");
                match site_files.last() {
                    Some((file, text)) => {
                        let mut d = at(file, section_line(text, id));
                        d.message = message.into();
                        d.with_source_from(text)
                    }
                    None => language_problem(message),
                }
            };
            for (id, english_message) in &required {
                match (&messages.get(id), english_message) {
                    (None, _) => problems.push(missing_at(id).with_hint(format!(
                        "add it to {FOLDER}/{primary}.toml; in English it reads {}",
                        quoted(english_message)
                    ))),
                    (Some(m), _) => problems.extend(
                        form_problems(id, m, english_message, &locale, language)
                            .into_iter()
                            .map(|why| {
                                let mut d = missing_at(id);
                                d.message = why.into();
                                d
                            }),
                    ),
                }
            }
        }
        let words = Words {
            language: language.to_string(),
            messages,
            locale,
        };
        (words, problems)
    }

    /// The message `id` as HTML, its plural form chosen by `count` (a plain number), its
    /// arguments filled in by `arg`. `Err` says what is wrong in words.
    pub fn html(
        &self,
        id: &str,
        count: Option<&str>,
        arg: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let text = self.form(id, count)?;
        let mut out = String::with_capacity(text.len() + 16);
        message::fill_html(text, arg, &mut out).map_err(|name| unknown_argument(id, &name))?;
        Ok(out)
    }

    /// [`Words::html`] as plain text (a link is its text), for a caller that escapes it.
    pub fn plain(
        &self,
        id: &str,
        count: Option<&str>,
        arg: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        message::fill_text(self.form(id, count)?, arg).map_err(|name| unknown_argument(id, &name))
    }

    /// The text of the message `id`, its plural form chosen by `count`.
    fn form(&self, id: &str, count: Option<&str>) -> Result<&str, String> {
        let Some(message) = self.messages.get(id) else {
            return Err(format!(
                "the message `{id}` has no text in the language `{}` (add it to {FOLDER}/{}.toml)",
                self.language,
                self.language.split('-').next().unwrap_or_default()
            ));
        };
        Ok(match message {
            Message::Text(text) => text,
            Message::Plural(forms) => {
                let Some(count) = count else {
                    return Err(format!(
                        "the message `{id}` has plural forms: give its count as `n`"
                    ));
                };
                let category = self.locale.category(count);
                forms
                    .get(category)
                    .or_else(|| forms.get("other"))
                    .map_or("", String::as_str)
            }
        })
    }

    /// The message `id` (one without arguments) as plain text.
    pub fn text(&self, id: &str) -> Result<String, String> {
        self.text_with(id, &|_| None)
    }

    /// The message `id` (one without plural forms) as plain text, for a template to escape.
    pub fn text_with(
        &self,
        id: &str,
        arg: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        match self.messages.get(id) {
            Some(Message::Text(text)) => {
                message::fill_text(text, arg).map_err(|name| unknown_argument(id, &name))
            }
            _ => Err(format!(
                "the message `{id}` has no text in the language `{}`",
                self.language
            )),
        }
    }

    /// A number written the English way (`1,234.5`) in this language's marks.
    pub fn number<'a>(&self, english: &'a str) -> std::borrow::Cow<'a, str> {
        self.locale.number(english)
    }

    /// A date (`2024-03-01`) as the language writes it (`format.date`); anything that is
    /// not a whole ISO date is shown as it is.
    pub fn date(&self, iso: &str) -> String {
        let b = iso.as_bytes();
        let whole = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        let Some(Message::Text(pattern)) = self.messages.get("format.date").filter(|_| whole)
        else {
            return iso.to_string();
        };
        let month: usize = iso[5..7].parse().unwrap_or(0);
        let months = match self.messages.get("format.months") {
            Some(Message::Text(names)) => names.split_whitespace().collect(),
            _ => Vec::new(),
        };
        let arg = |name: &str| -> Option<String> {
            Some(match name {
                "year" => iso[..4].to_string(),
                "month" => iso[5..7].to_string(),
                "day" => iso[8..].to_string(),
                "day_number" => iso[8..].trim_start_matches('0').to_string(),
                "month_name" => months.get(month.checked_sub(1)?)?.to_string(),
                _ => return None,
            })
        };
        message::fill_text(pattern, &arg).unwrap_or_else(|_| iso.to_string())
    }

    /// `words-<language>.js`: the scripts' messages, number marks and date pattern as one
    /// object (`self.datapagesWords`) with the function that fills them in.
    pub fn script(&self) -> String {
        let messages: serde_json::Map<String, serde_json::Value> = self
            .messages
            .iter()
            .filter_map(|(id, m)| {
                let short = id
                    .strip_prefix(SCRIPT_PREFIX)
                    .or(id.strip_prefix("format."))?;
                let short = if id.starts_with("format.") {
                    format!("format.{short}")
                } else {
                    short.to_string()
                };
                let value = match m {
                    Message::Text(text) => serde_json::Value::String(text.clone()),
                    Message::Plural(forms) => serde_json::json!(forms),
                };
                Some((short, value))
            })
            .collect();
        let data = serde_json::json!({
            "lang": self.language,
            "messages": messages,
            "number": self.locale.marks,
        });
        let data = serde_json::to_string(&data).unwrap_or_default();
        format!("{SCRIPT_HEAD}{SCRIPT_BODY}({data});\n")
    }

    /// The output name of [`Words::script`].
    pub fn script_name(&self) -> String {
        format!("words-{}.js", self.language)
    }
}

/// The problem of a message that uses an argument its caller does not give.
fn unknown_argument(id: &str, name: &str) -> String {
    format!("the message `{id}` uses `{{{name}}}`, which this call does not give")
}

/// A language's messages: the built-in catalogue of its primary language under the site's
/// `i18n/<primary>.toml` under its `i18n/<tag>.toml`.
struct Layers {
    messages: BTreeMap<String, Message>,
    /// The last of the site's own files read, with its text.
    site_file: Option<(PathBuf, String)>,
    /// Whether any catalogue exists for the language.
    found: bool,
}

fn layers(root: &Path, primary: &str, tag: &str, problems: &mut Vec<Diagnostic>) -> Layers {
    let mut out = Layers {
        messages: BTreeMap::new(),
        site_file: None,
        found: false,
    };
    if let Some(built_in) = parse_built_in(primary) {
        out.found = true;
        out.messages
            .extend(built_in.messages.into_iter().map(|(id, (m, _))| (id, m)));
    }
    let mut names = vec![primary.to_string()];
    if !tag.eq_ignore_ascii_case(primary) {
        names.push(tag.to_string());
    }
    for name in names {
        let relative = Path::new(FOLDER).join(format!("{name}.toml"));
        let Ok(text) = std::fs::read_to_string(root.join(&relative)) else {
            continue;
        };
        out.found = true;
        match Catalogue::parse(&text, &relative) {
            Ok(c) => out
                .messages
                .extend(c.messages.into_iter().map(|(id, (m, _))| (id, m))),
            Err(found) => problems.extend(found),
        }
        out.site_file = Some((relative, text));
    }
    out
}

fn parse_built_in(language: &str) -> Option<Catalogue> {
    let (_, text) = BUILT_IN.iter().find(|(l, _)| *l == language)?;
    Catalogue::parse(text, Path::new(FOLDER)).ok()
}

/// The line of the `[section]` an id belongs in, or 1.
fn section_line(text: &str, id: &str) -> usize {
    let section = id.rsplit_once('.').map_or("", |(s, _)| s);
    text.lines()
        .position(|l| l.trim() == format!("[{section}]"))
        .map_or(1, |n| n + 1)
}

fn quoted(message: &Message) -> String {
    message
        .texts()
        .iter()
        .map(|t| format!("\"{t}\""))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// What is wrong with a language's text of a message beside the English one: a plural
/// form the language needs and lacks, a text where forms are needed (or forms where a
/// text is), an argument English does not give.
fn form_problems(
    id: &str,
    own: &Message,
    english: &Message,
    locale: &Locale,
    language: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    match (own, english) {
        (Message::Text(_), Message::Plural(_)) => out.push(format!(
            "the message `{id}` in `{language}` is one text, but it takes a count: write its plural forms ({})",
            locale.categories().join(", ")
        )),
        (Message::Plural(_), Message::Text(_)) => out.push(format!(
            "the message `{id}` in `{language}` has plural forms, but it takes no count: write one text"
        )),
        (Message::Plural(forms), Message::Plural(_)) => {
            for category in locale.categories() {
                if !forms.contains_key(category) {
                    out.push(format!(
                        "the message `{id}` has no `{category}` plural form, which the language `{language}` needs"
                    ));
                }
            }
        }
        (Message::Text(_), Message::Text(_)) => {}
    }
    let mut given: Vec<&str> = english
        .texts()
        .into_iter()
        .flat_map(message::arguments)
        .collect();
    if id == "format.date" {
        given.extend(DATE_ARGUMENTS);
    }
    for text in own.texts() {
        for name in message::arguments(text) {
            let known = given.contains(&name) || name == "n";
            if !known && !out.iter().any(|o| o.contains(&format!("`{{{name}}}`"))) {
                out.push(format!(
                    "the message `{id}` in `{language}` uses `{{{name}}}`, which the English text does not: the theme does not give it"
                ));
            }
        }
    }
    out
}

/// What `format.date` may use.
const DATE_ARGUMENTS: [&str; 5] = ["year", "month", "day", "day_number", "month_name"];

/// The scripts' helper around the data: `t(id, args)` fills a message in (plural form
/// by `args.n` through the browser's CLDR plural rules, the only CLDR data the scripts
/// take from the browser), `num(n)` writes a number in the page language's marks.
const SCRIPT_HEAD: &str = "// datapages: the theme's words for the scripts, written by the build from its message catalogue.\n";
const SCRIPT_BODY: &str = r#"(function (data) {
  "use strict";
  var plural = null;
  try { plural = new Intl.PluralRules(data.lang); } catch (e) { plural = null; }
  var marks = data.number;
  function num(value) {
    var text = typeof value === "number" ? String(value) : value;
    if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
    var minus = text.charAt(0) === "-";
    if (minus) text = text.slice(1);
    var parts = text.split(".");
    var whole = parts[0];
    if (whole.length >= 3 + marks.minGrouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u0000").split("\u0000").join(marks.group);
    return (minus ? marks.minus : "") + whole + (parts.length > 1 ? marks.decimal + parts[1] : "");
  }
  function t(id, args) {
    var m = data.messages[id];
    if (m === undefined) throw new Error("datapages: no message " + id + " in " + data.lang);
    args = args || {};
    if (typeof m !== "string") {
      var n = Number(args.n);
      var category = plural ? plural.select(n) : "other";
      m = m[category] !== undefined ? m[category] : m.other;
    }
    return m.replace(/\{([A-Za-z0-9_]+)\}/g, function (all, name) {
      var v = args[name];
      return v === undefined ? all : typeof v === "number" ? num(v) : String(v);
    });
  }
  var months = (data.messages["format.months"] || "").split(" ");
  function date(iso) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
    if (!m) return iso;
    var parts = { year: m[1], month: m[2], day: m[3], day_number: String(Number(m[3])), month_name: months[Number(m[2]) - 1] };
    return data.messages["format.date"].replace(/\{([a-z_]+)\}/g, function (all, name) { return parts[name] || all; });
  }
  self.datapagesWords = { lang: data.lang, t: t, num: num, date: date, marks: marks };
})"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn load(dir: &Path, language: &str) -> (Words, Vec<Diagnostic>) {
        Words::load(dir, language, None)
    }

    #[test]
    fn plain_text_takes_the_plural_form_and_leaves_escaping_to_its_caller() {
        let (fr, _) = load(Path::new("/nonexistent"), "fr");
        let arg = |name: &str| (name == "n").then(|| "2".to_string());
        assert_eq!(fr.plain("chart.rows", Some("2"), &arg).unwrap(), "2 lignes");
        let arg = |name: &str| (name == "value").then(|| "a<b".to_string());
        assert_eq!(
            Words::english().plain("profile.all", None, &arg).unwrap(),
            "all a<b"
        );
        assert!(fr
            .plain("chart.rows", None, &arg)
            .unwrap_err()
            .contains("give its count"));
        assert!(fr
            .plain("chart.rows", Some("1"), &|_| None)
            .unwrap_err()
            .contains("`{n}`"));
    }

    #[test]
    fn every_built_in_catalogue_has_every_message_in_every_form_its_language_needs() {
        let english = parse_built_in("en").unwrap();
        for (language, _) in BUILT_IN {
            let (words, problems) = load(Path::new("/nonexistent"), language);
            assert!(problems.is_empty(), "{language}: {problems:?}");
            let ids: Vec<_> = parse_built_in(language)
                .unwrap()
                .messages
                .into_keys()
                .collect();
            let english_ids: Vec<_> = english.messages.keys().cloned().collect();
            assert_eq!(ids, english_ids, "{language} has other ids than English");
            assert!(words.script().contains("\"lang\":\""));
        }
        // A regional tag takes its language's catalogue.
        let (words, problems) = load(Path::new("/nonexistent"), "fr-CA");
        assert!(problems.is_empty());
        assert_eq!(words.text("dataset.table").unwrap(), "Tableau");
        assert_eq!(words.date("2024-03-01"), "1 mars 2024");
        assert_eq!(Words::english().date("2024-03-01"), "2024-03-01");
        assert_eq!(
            load(Path::new("/x"), "de").0.date("2024-12-31"),
            "31. Dezember 2024"
        );
        assert_eq!(
            load(Path::new("/x"), "es").0.date("2024-01-05"),
            "5 de enero de 2024"
        );
        assert_eq!(
            load(Path::new("/x"), "pt-BR").0.date("2024-01-05"),
            "5 de janeiro de 2024"
        );
        assert_eq!(Words::english().date("2024"), "2024");
    }

    #[test]
    fn plural_forms_follow_cldr_in_each_language() {
        let no = |_: &str| None;
        let rows = |words: &Words, n: &str| {
            words.html("script.rows", Some(n), &|name| {
                (name == "n").then(|| words.number(n).into_owned())
            })
        };
        let en = Words::english();
        assert_eq!(rows(&en, "1").unwrap(), "1 row");
        assert_eq!(rows(&en, "2").unwrap(), "2 rows");
        let fr = load(Path::new("/x"), "fr").0;
        assert_eq!(rows(&fr, "0").unwrap(), "0 ligne");
        assert_eq!(rows(&fr, "1").unwrap(), "1 ligne");
        assert_eq!(rows(&fr, "2").unwrap(), "2 lignes");
        assert_eq!(rows(&fr, "1000000").unwrap(), "1000000 de lignes");
        assert!(en
            .html("script.rows", None, &no)
            .unwrap_err()
            .contains("give its count"));
    }

    #[test]
    fn a_site_catalogue_overrides_adds_and_its_missing_messages_are_located_problems() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(FOLDER)).unwrap();
        let write = |name: &str, text: &str| {
            std::fs::write(dir.path().join(FOLDER).join(name), text).unwrap()
        };
        write("en.toml", "[mine]\nhello = \"Hello\"\n");
        write("fr.toml", "[dataset]\ntable = \"Données\"\n");
        let place = LanguagePlace {
            line: 3,
            column: 12,
            source_line: "language = \"fr\"".into(),
        };
        let (words, problems) = Words::load(dir.path(), "fr", Some(&place));
        assert_eq!(words.text("dataset.table").unwrap(), "Données");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].file, Path::new("i18n/fr.toml"));
        assert!(problems[0]
            .message
            .contains("`mine.hello` has no text in the language `fr`"));
        assert!(problems[0]
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("\"Hello\""));
        // A language with no catalogue at all: one problem, at site.toml's `language`.
        let (_, problems) = Words::load(dir.path(), "nl", Some(&place));
        assert_eq!(problems.len(), 1);
        assert_eq!(
            (problems[0].file.as_path(), problems[0].line),
            (Path::new("site.toml"), Some(3))
        );
        // A plural form French needs, and an argument the theme does not give.
        write("fr.toml", "[script]\nrows = { one = \"{n} ligne\", other = \"{n} lignes\" }\ncopy = \"Copier {nom}\"\n[mine]\nhello = \"Bonjour\"\n");
        let (_, problems) = Words::load(dir.path(), "fr", Some(&place));
        let messages: Vec<_> = problems.iter().map(|p| p.message.to_string()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages
            .iter()
            .any(|m| m.contains("`script.rows` has no `many` plural form")));
        assert!(messages.iter().any(|m| m.contains("uses `{nom}`")));
    }
}
