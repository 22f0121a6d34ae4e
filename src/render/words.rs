//! The theme's words in Tera: `t(id=…, n=…, …)` writes a message of the site's language
//! as HTML, `| thousands` groups a number and `| local_date` writes a date the language's
//! way. All three read the [`Words`] the renderer was last given ([`Slot`]): the renderer
//! is made before site.toml is read, and `serve` gives it new words when they change.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use tera::{Tera, Value};

use crate::i18n::Words;

/// The words the templates use, shared by the functions registered on one `Tera`.
pub type Slot = Arc<RwLock<Arc<Words>>>;

/// Registers `t`, `thousands` and `local_date` on `tera`, reading `slot`.
pub fn register(tera: &mut Tera, slot: &Slot) {
    tera.register_function("t", Translate(slot.clone()));
    let words = slot.clone();
    tera.register_filter(
        "thousands",
        move |value: &Value, _: &HashMap<String, Value>| {
            let text = match value {
                Value::Number(n) => n.to_string(),
                Value::String(s) => s.clone(),
                other => {
                    return Err(tera::Error::msg(format!(
                        "thousands expects a number, got {other}"
                    )))
                }
            };
            Ok(Value::String(grouped(&current(&words), &text)))
        },
    );
    let words = slot.clone();
    tera.register_filter(
        "local_date",
        move |value: &Value, _: &HashMap<String, Value>| match value {
            Value::String(s) => Ok(Value::String(current(&words).date(s))),
            other => Ok(other.clone()),
        },
    );
}

fn current(slot: &Slot) -> Arc<Words> {
    slot.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// A plain number grouped for readers in the language's marks (`10366` -> `10,366`,
/// `10 366` in French).
fn grouped(words: &Words, plain: &str) -> String {
    let mut out = String::new();
    crate::dataset::schema::format_cell(
        crate::dataset::schema::ColumnType::Number,
        plain,
        &mut out,
    );
    words.number(&out).into_owned()
}

/// The message `id` as HTML, its plural form chosen by `count` (also its argument `n`,
/// grouped in the language's marks), its other arguments `args` as given (numbers
/// already in the language's marks). Every language's catalogue has every id the theme
/// uses (`check` stops a build that lacks one), so a failure writes nothing.
pub fn say(words: &Words, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String {
    say_with(words, id, count, args, Words::html)
}

/// [`say`] as plain text, for a caller that escapes it (a chart's SVG).
pub fn say_plain(words: &Words, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String {
    say_with(words, id, count, args, Words::plain)
}

/// The filling [`Words::html`] or [`Words::plain`] does with [`say`]'s arguments.
type Fill =
    fn(&Words, &str, Option<&str>, &dyn Fn(&str) -> Option<String>) -> Result<String, String>;

fn say_with(
    words: &Words,
    id: &str,
    count: Option<u64>,
    args: &[(&str, &str)],
    fill: Fill,
) -> String {
    let n = count.map(|n| n.to_string());
    let arg = |name: &str| match (name, &n) {
        ("n", Some(n)) => Some(grouped(words, n)),
        _ => args
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string()),
    };
    fill(words, id, n.as_deref(), &arg).unwrap_or_default()
}

/// The catalogue's message of each unit of [`crate::metadata::SIZE_UNITS`].
const SIZE_MESSAGES: [&str; 5] = [
    "size.bytes",
    "size.kilobytes",
    "size.megabytes",
    "size.gigabytes",
    "size.terabytes",
];

/// A file's size for readers (`6.1 kB`) in the marks and units of the page's language
/// (`6,1 ko` in French), as plain text.
pub fn shown_size(bytes: u64, words: &Words) -> String {
    let (number, unit) = crate::metadata::size_parts(bytes);
    let number = words.number(&number);
    say_plain(words, SIZE_MESSAGES[unit], None, &[("n", &number)])
}

/// `t(id="dataset.counts", n=rows, columns=…)`: the message as HTML (so marked safe), its
/// plural form chosen by `n`; numbers given are grouped, text is escaped.
struct Translate(Slot);

impl tera::Function for Translate {
    fn call(&self, args: &HashMap<String, Value>) -> tera::Result<Value> {
        let words = current(&self.0);
        let Some(Value::String(id)) = args.get("id") else {
            return Err(tera::Error::msg(
                "t() needs the message id as `id=\"section.name\"`",
            ));
        };
        let count = args.get("n").map(|n| match n {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let arg = |name: &str| -> Option<String> {
            Some(match args.get(name)? {
                Value::Number(n) => grouped(&words, &n.to_string()),
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                Value::Null => String::new(),
                other => other.to_string(),
            })
        };
        words
            .html(id, count.as_deref(), &arg)
            .map(Value::String)
            .map_err(tera::Error::msg)
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// The words a chart draws with: the page's number marks and its messages as plain text.
impl super::chart::Words for Words {
    fn marks(&self) -> &crate::i18n::locale::NumberMarks {
        &self.locale.marks
    }

    fn say(&self, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String {
        say_plain(self, id, count, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(words: Words, template: &str) -> Result<String, String> {
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html"]);
        register(&mut tera, &Arc::new(RwLock::new(Arc::new(words))));
        tera.add_raw_template("t.html", template).unwrap();
        let mut context = tera::Context::new();
        context.insert("rows", &1636054u64);
        context.insert("one", &1u64);
        context.insert("name", "<b>");
        tera.render("t.html", &context).map_err(|e| {
            let mut chain = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                chain.push_str(&format!(": {s}"));
                source = s.source();
            }
            chain
        })
    }

    fn french() -> Words {
        crate::i18n::Words::load(std::path::Path::new("/nonexistent"), "fr", None).0
    }

    #[test]
    fn messages_numbers_and_plurals_follow_the_language() {
        let en = render(Words::english(), "{{ t(id=\"script.rows\", n=one) }}|{{ t(id=\"script.rows\", n=rows) }}|{{ rows | thousands }}|{{ \"2024-03-01\" | local_date }}").unwrap();
        assert_eq!(en, "1 row|1,636,054 rows|1,636,054|2024-03-01");
        let fr = render(french(), "{{ t(id=\"script.rows\", n=one) }}|{{ t(id=\"script.rows\", n=rows) }}|{{ rows | thousands }}|{{ \"2024-03-01\" | local_date }}").unwrap();
        assert_eq!(
            fr,
            "1 ligne|1\u{202f}636\u{202f}054 lignes|1\u{202f}636\u{202f}054|1 mars 2024"
        );
        let escaped = render(Words::english(), "{{ t(id=\"script.copy\", name=name) }}").unwrap();
        assert_eq!(escaped, "Copy &lt;b&gt;");
    }

    #[test]
    fn say_groups_the_count_and_escapes_the_arguments() {
        let fr = french();
        assert_eq!(
            say(&fr, "profile.distinct", Some(1234), &[]),
            "1\u{202f}234 valeurs distinctes"
        );
        assert_eq!(
            say(&fr, "profile.distinct", Some(1), &[]),
            "1 valeur distincte"
        );
        assert_eq!(
            say(&Words::english(), "profile.all", None, &[("value", "a<b")]),
            "all a&lt;b"
        );
        assert_eq!(say(&fr, "no.such.id", None, &[]), "");
    }

    #[test]
    fn an_unknown_id_or_a_missing_argument_fails_the_render() {
        let e = render(french(), "{{ t(id=\"nope.nothing\") }}").unwrap_err();
        assert!(
            e.contains("`nope.nothing` has no text in the language `fr`"),
            "{e}"
        );
        let e = render(Words::english(), "{{ t(id=\"script.copy\") }}").unwrap_err();
        assert!(e.contains("uses `{name}`"), "{e}");
    }
}
