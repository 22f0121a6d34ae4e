//! The figure syntax of the prose: `{{ cell(interface="NVMe", col="latency_ms") }}`,
//! computed figures (`ratio`, `difference`, `percent_change`, `min`, `max`, `sum`, `mean`,
//! `count`) and bound figures (`{{ 10,366 = cell(...) }}`), found in a text without
//! running it through any template engine. Anything else between `{{` and `}}` stays text.

use std::ops::Range;

/// What a reference computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    Cell,
    Ratio,
    Difference,
    PercentChange,
    Min,
    Max,
    Sum,
    Mean,
    Count,
}

impl Function {
    const ALL: [(&'static str, Function); 9] = [
        ("cell", Function::Cell),
        ("ratio", Function::Ratio),
        ("difference", Function::Difference),
        ("percent_change", Function::PercentChange),
        ("min", Function::Min),
        ("max", Function::Max),
        ("sum", Function::Sum),
        ("mean", Function::Mean),
        ("count", Function::Count),
    ];

    fn named(name: &str) -> Option<Function> {
        Function::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    /// The name written in the prose.
    pub fn name(self) -> &'static str {
        Function::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map(|(n, _)| *n)
            .unwrap_or("cell")
    }

    /// Whether the figure compares two rows (`a.` and `b.` selectors).
    pub fn is_pair(self) -> bool {
        matches!(
            self,
            Function::Ratio | Function::Difference | Function::PercentChange
        )
    }
}

/// One reference found in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// Bytes of the whole `{{ ... }}` in the text searched.
    pub range: Range<usize>,
    /// The figure typed by the author in a bound figure (`{{ 10,366 = cell(...) }}`).
    pub bound: Option<String>,
    pub function: Function,
    /// `col`: the column read.
    pub column: Option<String>,
    /// `dataset`: another dataset's table (a slug).
    pub dataset: Option<String>,
    /// `digits`: the decimals a figure is rounded to (a quoted cell too).
    pub digits: Option<u32>,
    /// `format="csv"`: a cell exactly as the CSV has it (`2147483648`), for arithmetic in
    /// the prose that quotes the unformatted value.
    pub as_in_csv: bool,
    /// Column = value conditions every selected row meets.
    pub filters: Vec<(String, String)>,
    /// Extra conditions of the first (`a.`) and second (`b.`) row of a pair.
    pub a: Vec<(String, String)>,
    pub b: Vec<(String, String)>,
}

/// A `{{ cell(` whose arguments cannot be read: byte offset in the text and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// Every reference of `text`, and the ones that could not be read.
pub fn find(text: &str) -> (Vec<Reference>, Vec<SyntaxError>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("{{").map(|i| from + i) {
        let Some(end) = text[start..].find("}}").map(|i| start + i + 2) else {
            break;
        };
        let inner = &text[start + 2..end - 2];
        match parse_inner(inner) {
            None => from = start + 2,
            Some(Ok(mut reference)) => {
                reference.range = start..end;
                found.push(reference);
                from = end;
            }
            Some(Err(message)) => {
                errors.push(SyntaxError {
                    offset: start,
                    message,
                });
                from = end;
            }
        }
    }
    (found, errors)
}

/// The references of Markdown `text` outside code spans and code blocks (a reference
/// written as code is shown as written), and the errors among them.
pub fn find_in_markdown(text: &str) -> (Vec<Reference>, Vec<SyntaxError>) {
    use pulldown_cmark::{Event, Parser, Tag};
    let (found, errors) = find(text);
    if found.is_empty() && errors.is_empty() {
        return (found, errors);
    }
    let code: Vec<Range<usize>> = Parser::new_ext(text, crate::content::markdown::options())
        .into_offset_iter()
        .filter(|(event, _)| {
            matches!(
                event,
                Event::Code(_)
                    | Event::Start(Tag::CodeBlock(_))
                    | Event::Html(_)
                    | Event::InlineHtml(_)
            )
        })
        .map(|(_, range)| range)
        .collect();
    let outside = |at: usize| !code.iter().any(|r| r.contains(&at));
    (
        found
            .into_iter()
            .filter(|r| outside(r.range.start))
            .collect(),
        errors.into_iter().filter(|e| outside(e.offset)).collect(),
    )
}

/// `None` when `inner` is not a figure (it stays text).
fn parse_inner(inner: &str) -> Option<Result<Reference, String>> {
    let open = inner.find('(')?;
    let head = &inner[..open];
    let (bound, name) = match head.rsplit_once('=') {
        Some((figure, name)) => (Some(figure.trim().to_string()), name.trim()),
        None => (None, head.trim()),
    };
    let function = Function::named(name)?;
    if bound.as_deref() == Some("") {
        return Some(Err("a bound figure needs the figure before `=`".into()));
    }
    let rest = inner[open + 1..].trim_end();
    let Some(args) = rest.strip_suffix(')') else {
        return Some(Err(format!("`{name}(` is not closed by `)` before `}}}}`")));
    };
    Some(parse_args(args).and_then(|pairs| build(function, bound, pairs)))
}

fn build(
    function: Function,
    bound: Option<String>,
    pairs: Vec<(Key, Value)>,
) -> Result<Reference, String> {
    let mut reference = Reference {
        range: 0..0,
        bound,
        function,
        column: None,
        dataset: None,
        digits: None,
        as_in_csv: false,
        filters: Vec::new(),
        a: Vec::new(),
        b: Vec::new(),
    };
    for (key, value) in pairs {
        let key = match key {
            Key::Column { row, name } => {
                let Value::Text(v) = value else {
                    return Err(format!(
                        "column {name:?} takes a quoted value: {name:?}=\"...\""
                    ));
                };
                match row {
                    None => reference.filters.push((name, v)),
                    Some('a') => reference.a.push((name, v)),
                    Some(_) => reference.b.push((name, v)),
                }
                continue;
            }
            Key::Bare(key) => key,
        };
        match (key.as_str(), value) {
            ("digits", Value::Integer(n)) => reference.digits = Some(n),
            ("digits", Value::Text(_)) => return Err("`digits` takes a number: digits=2".into()),
            (_, Value::Integer(_)) => {
                return Err(format!("`{key}` takes a quoted value: {key}=\"...\""))
            }
            ("format", Value::Text(v)) if v == "csv" && function == Function::Cell => {
                reference.as_in_csv = true
            }
            ("format", _) => {
                return Err(
                    "`format` takes \"csv\" (the cell as the CSV has it), in `cell` only".into(),
                )
            }
            ("col", Value::Text(v)) => reference.column = Some(v),
            ("dataset", Value::Text(v)) => reference.dataset = Some(v),
            (k, Value::Text(v)) => match (k.strip_prefix("a."), k.strip_prefix("b.")) {
                (Some(c), _) => reference.a.push((c.to_string(), v)),
                (_, Some(c)) => reference.b.push((c.to_string(), v)),
                _ => reference.filters.push((k.to_string(), v)),
            },
        }
    }
    if reference.digits.is_some() && reference.as_in_csv {
        return Err(
            "`digits` rounds the figure and `format=\"csv\"` quotes the cell unrounded: keep one"
                .into(),
        );
    }
    if reference.digits.is_some() && function == Function::Count {
        return Err("`count` is a whole number: remove `digits`".into());
    }
    if reference.column.is_none() && function != Function::Count {
        return Err(format!(
            "`{}` needs the column it reads: col=\"...\"",
            function.name()
        ));
    }
    let pair_keys = !reference.a.is_empty() || !reference.b.is_empty();
    if function.is_pair() && (reference.a.is_empty() || reference.b.is_empty()) {
        return Err(format!(
            "`{}` compares two rows: give each its own conditions with `a.` and `b.` (a.interface=\"NVMe\", b.interface=\"SATA\")",
            function.name()
        ));
    }
    if !function.is_pair() && pair_keys {
        return Err(format!(
            "`a.` and `b.` conditions belong to ratio, difference and percent_change, not `{}`",
            function.name()
        ));
    }
    Ok(reference)
}

enum Value {
    Text(String),
    Integer(u32),
}

/// An argument's name: a bare word (`col`, `digits`, `interface`, `a.interface`), or a
/// column name in quotes (`"Country Name"`, `a."Country Name"`), which is always a
/// condition, whatever the name (a column called `col` too).
enum Key {
    Bare(String),
    Column { row: Option<char>, name: String },
}

/// How a condition on column `name` is written in a figure: bare when it is a plain word
/// that names no argument, else in quotes (`"Country Name"`), so a suggestion can be pasted.
pub fn condition_key(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-".contains(c))
        && !matches!(name, "col" | "dataset" | "digits" | "format");
    if plain {
        name.to_string()
    } else {
        quote(name)
    }
}

/// `text` in double quotes, `"` and `\` escaped as figure arguments read them.
pub fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// The text of a quoted string whose opening `"` has been read, up to its closing `"`.
fn read_quoted(
    chars: &mut std::iter::Peekable<std::str::CharIndices>,
    what: &str,
) -> Result<String, String> {
    let mut text = String::new();
    loop {
        match chars.next() {
            None => return Err(format!("{what} is not closed by `\"`")),
            Some((_, '"')) => return Ok(text),
            Some((_, '\\')) => match chars.next() {
                Some((_, c)) => text.push(c),
                None => return Err(format!("{what} ends in `\\`")),
            },
            Some((_, c)) => text.push(c),
        }
    }
}

fn parse_args(args: &str) -> Result<Vec<(Key, Value)>, String> {
    let mut pairs = Vec::new();
    let mut chars = args.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else {
            break;
        };
        let mut key_end = start;
        while let Some((i, c)) = chars.next_if(|(_, c)| c.is_alphanumeric() || "_.-".contains(*c)) {
            key_end = i + c.len_utf8();
        }
        let word = &args[start..key_end];
        let key = if chars.next_if(|(_, c)| *c == '"').is_some() {
            let row = match word {
                "" => None,
                "a." => Some('a'),
                "b." => Some('b'),
                _ => {
                    return Err(format!(
                    "expected `\"column name\"=\"value\"` (or `a.`/`b.` before the quote) at `{}`",
                    args[start..].trim()
                ))
                }
            };
            let name = read_quoted(&mut chars, "a quoted column name")?;
            Key::Column { row, name }
        } else {
            Key::Bare(word.to_string())
        };
        let shown = match &key {
            Key::Bare(word) => word.clone(),
            Key::Column { name, .. } => quote(name),
        };
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if shown.is_empty() || chars.next().map(|(_, c)| c) != Some('=') {
            return Err(format!(
                "expected `name=\"value\"` at `{}`; a column name with spaces or punctuation goes in quotes: `\"Country Name\"=\"Niger\"`",
                args[start..].trim()
            ));
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let value = if chars.next_if(|(_, c)| *c == '"').is_some() {
            Value::Text(read_quoted(&mut chars, &format!("the value of `{shown}`"))?)
        } else {
            let mut digits = String::new();
            while let Some((_, c)) = chars.next_if(|(_, c)| c.is_ascii_digit()) {
                digits.push(c);
            }
            match digits.parse::<u32>() {
                Ok(n) if n <= 12 || shown != "digits" => Value::Integer(n),
                _ => {
                    return Err(format!(
                        "`{shown}` takes a quoted value, or for digits a number from 0 to 12"
                    ))
                }
            }
        };
        pairs.push((key, value));
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        match chars.next() {
            None => break,
            Some((_, ',')) => continue,
            Some((i, _)) => {
                return Err(format!(
                    "expected `,` between arguments at `{}`",
                    args[i..].trim()
                ))
            }
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cells_pairs_and_bound_figures_and_leaves_the_rest() {
        let text = r#"A {{ cell(interface="NVMe", col="x") }}, {{ 3.73 = ratio(col="x", a.i="N", b.i="S", digits=2) }} and {{ page.title }} {{ other(1) }}."#;
        let (found, errors) = find(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(found.len(), 2);
        assert_eq!(
            &text[found[0].range.clone()],
            r#"{{ cell(interface="NVMe", col="x") }}"#
        );
        assert_eq!(found[0].filters, vec![("interface".into(), "NVMe".into())]);
        assert_eq!(found[1].bound.as_deref(), Some("3.73"));
        assert_eq!(found[1].function, Function::Ratio);
        assert_eq!(found[1].digits, Some(2));
        assert_eq!(found[1].a, vec![("i".into(), "N".into())]);
        let (found, errors) = find(r#"{{ cell(col="x", i="N", digits=2) }}"#);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(found[0].digits, Some(2));
    }

    #[test]
    fn a_column_name_in_quotes_is_a_condition_whatever_it_holds() {
        let text = r#"{{ cell("Country Name"="Niger", "GDP (US$)" = "x", col="Life \"exp\"") }} {{ ratio(col="v", a."Año fiscal"="2020", b."col"="1") }}"#;
        let (found, errors) = find(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            found[0].filters,
            vec![
                ("Country Name".into(), "Niger".into()),
                ("GDP (US$)".into(), "x".into())
            ]
        );
        assert_eq!(found[0].column.as_deref(), Some("Life \"exp\""));
        assert_eq!(found[1].a, vec![("Año fiscal".into(), "2020".into())]);
        assert_eq!(found[1].b, vec![("col".into(), "1".into())]);
        for bad in [
            r#"x {{ cell(col="a", c."Name"="b") }}"#,
            r#"x {{ cell(col="a", "Name=b") }}"#,
            r#"x {{ cell(col="a", "Name"=2) }}"#,
            r#"x {{ cell(col="a", Country Name="b") }}"#,
        ] {
            let (found, errors) = find(bad);
            assert!(found.is_empty(), "{bad}");
            assert_eq!(errors.len(), 1, "{bad}");
        }
        let (_, errors) = find(r#"{{ cell(col="a", Country Name="b") }}"#);
        assert!(errors[0].message.contains(r#"`"Country Name"="Niger"`"#));
    }

    #[test]
    fn a_condition_key_is_written_so_that_it_parses_back() {
        assert_eq!(condition_key("interface"), "interface");
        assert_eq!(condition_key("Country Name"), r#""Country Name""#);
        assert_eq!(condition_key("col"), r#""col""#);
        assert_eq!(condition_key(r#"a "b" \c"#), r#""a \"b\" \\c""#);
        for name in ["Country Name", "col", "x.y", r#"q"\"#, "Año"] {
            let text = format!("{{{{ cell(col=\"v\", {}=\"1\") }}}}", condition_key(name));
            let (found, errors) = find(&text);
            assert!(errors.is_empty(), "{text}: {errors:?}");
            assert_eq!(found[0].filters, vec![(name.to_string(), "1".to_string())]);
        }
    }

    #[test]
    fn a_reference_in_code_stays_text() {
        let text =
            "A `{{ cell(col=\"x\") }}` and {{ cell(col=\"y\") }}.\n\n    {{ cell(col=\"z\") }}\n";
        let (found, _) = find_in_markdown(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].column.as_deref(), Some("y"));
    }

    #[test]
    fn broken_arguments_are_errors_at_their_offset() {
        for bad in [
            r#"x {{ cell(interface="NVMe") }}"#,
            r#"x {{ cell(col="a" interface="b") }}"#,
            r#"x {{ cell(col="a) }}"#,
            r#"x {{ ratio(col="a", interface="b") }}"#,
            r#"x {{ cell(col="a", a.x="b") }}"#,
            r#"x {{ cell(col="a", digits=x) }}"#,
            r#"x {{ cell(col="a", digits=13) }}"#,
            r#"x {{ cell(col="a", precision=2) }}"#,
            r#"x {{ cell(col="a", digits=2, format="csv") }}"#,
            r#"x {{ count(interface="b", digits=1) }}"#,
        ] {
            let (found, errors) = find(bad);
            assert!(found.is_empty(), "{bad}");
            assert_eq!(errors.len(), 1, "{bad}");
            assert_eq!(errors[0].offset, 2, "{bad}");
        }
    }
}
