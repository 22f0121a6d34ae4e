//! Tera's errors as diagnostics: which template, where in it, and what went wrong.
//!
//! The template is read from the error's kind ([`tera::ErrorKind`]) or from what we asked
//! Tera to do (the template we rendered, the sources we parsed), never by taking Tera's
//! English sentences apart. The message is the innermost error of the
//! [`std::error::Error::source`] chain, which says what is wrong; the outermost one says
//! what Tera was doing and becomes the hint. A parse error's position comes from the pest
//! report Tera wraps (`--> line:column`, a format, not prose). The tests below pin each
//! shape Tera produces today, so an upgrade that changes one fails here first.

use std::error::Error as _;
use std::path::{Path, PathBuf};

use tera::ErrorKind;

use crate::diagnostics::Diagnostic;

/// A template set that failed to load (a parse error, a missing or circular parent, macros
/// from a missing file), located in the template file when Tera says which one it is.
/// `sources` are the (name, text) pairs that were handed to Tera.
pub fn load_error(error: &tera::Error, sources: &[(String, String)]) -> Diagnostic {
    let named = match &error.kind {
        ErrorKind::MissingParent { current, .. } => Some(current.as_str()),
        ErrorKind::CircularExtend { tpl, .. } => Some(tpl.as_str()),
        _ => None,
    };
    if let Some(name) = named {
        return problem(template_file(name), error);
    }
    // A parse error is the only load failure with a cause: parse each source on its own,
    // in the order Tera did, to learn which one failed and where.
    if error.source().is_some() {
        let failed = sources.iter().find_map(|(name, text)| {
            tera::Template::new(name, None, text)
                .err()
                .map(|parse_error| (name, text, parse_error))
        });
        if let Some((name, text, parse_error)) = failed {
            return parse_problem(name, text, &parse_error).with_hint(error.to_string());
        }
    }
    problem(PathBuf::from("templates"), error)
}

/// A failure while rendering `template` (a missing variable or filter, a filter that
/// refused its input), reported in the file of the template that was rendered.
pub fn render_error(error: &tera::Error, template: &str) -> Diagnostic {
    let diagnostic = problem(template_file(template), error);
    let hint = match replaced(&diagnostic.message) {
        Some(replacement) => format!("{replacement} (while rendering {template})"),
        None => format!("while rendering {template}"),
    };
    diagnostic.with_hint(hint)
}

/// Variables that templates of earlier versions read and this one no longer gives, with
/// what took their place: a theme ejected before the change is told how to update.
const REPLACED: &[(&str, &str)] = &[(
    "dataset.columns",
    "the Columns section's items are written by datapages now: \
     `{{ dataset.column_list_html | safe }}` and `{{ dataset.column_summary_html | safe }}` \
     replace the loops over `dataset.columns` (the table's own columns are \
     `dataset.table.columns`); `datapages eject --force` writes the current templates over \
     the site's",
)];

/// What replaced the variable a "not found" `message` names, if it is one of [`REPLACED`].
fn replaced(message: &str) -> Option<&'static str> {
    REPLACED
        .iter()
        .find(|(name, _)| message.contains(&format!("Variable `{name}` not found")))
        .map(|(_, replacement)| *replacement)
}

fn template_file(name: &str) -> PathBuf {
    Path::new("templates").join(name)
}

/// The innermost cause as the message, the outermost error as the hint.
fn problem(file: PathBuf, error: &tera::Error) -> Diagnostic {
    let mut innermost: &dyn std::error::Error = error;
    while let Some(cause) = innermost.source() {
        innermost = cause;
    }
    Diagnostic::error(file, format!("template error: {innermost}")).with_hint(error.to_string())
}

/// A parse error of one template, at the line and column pest reports.
fn parse_problem(name: &str, text: &str, error: &tera::Error) -> Diagnostic {
    let report = match &error.kind {
        ErrorKind::Msg(report) => report.as_str(),
        _ => "",
    };
    let report = PestReport::read(report);
    let mut diagnostic = Diagnostic::error(
        template_file(name),
        format!("template error: {}", report.expected.unwrap_or(report.text)),
    );
    if let Some((line, column)) = report.position {
        diagnostic = diagnostic.at(line, column).with_source_from(text);
    }
    diagnostic
}

/// The parts of a pest error report: ` --> line:column`, the source line and a caret, then
/// `= expected …` on its last line.
struct PestReport<'a> {
    text: &'a str,
    position: Option<(usize, usize)>,
    expected: Option<&'a str>,
}

impl<'a> PestReport<'a> {
    fn read(text: &'a str) -> Self {
        let position = text.lines().find_map(|line| {
            let (line, column) = line.trim().strip_prefix("-->")?.trim().split_once(':')?;
            Some((line.trim().parse().ok()?, column.trim().parse().ok()?))
        });
        let expected = text.lines().last().map(str::trim).filter(|l| !l.is_empty());
        PestReport {
            text,
            position,
            expected,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loads templates as the renderer does; returns the error Tera gives.
    fn load(templates: &[(&str, &str)]) -> (tera::Error, Vec<(String, String)>) {
        let sources: Vec<(String, String)> = templates
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        let mut tera = tera::Tera::default();
        let error = tera
            .add_raw_templates(templates.iter().copied())
            .expect_err("the templates must not load");
        (error, sources)
    }

    /// Renders `a.html` with `x = [1]`; returns the error Tera gives.
    fn render(templates: &[(&str, &str)]) -> tera::Error {
        let mut tera = tera::Tera::default();
        tera.add_raw_templates(templates.iter().copied())
            .expect("the templates load");
        let mut context = tera::Context::new();
        context.insert("x", &[1]);
        tera.render("a.html", &context)
            .expect_err("the template must not render")
    }

    /// Every error of the source chain, outermost first, as Tera writes it.
    fn chain(error: &tera::Error) -> Vec<String> {
        let mut out = Vec::new();
        let mut next: Option<&dyn std::error::Error> = Some(error);
        while let Some(e) = next {
            out.push(e.to_string());
            next = e.source();
        }
        out
    }

    #[test]
    fn a_parse_error_is_located_by_the_pest_report() {
        let (error, sources) = load(&[("ok.html", "fine"), ("a.html", "<h1>{{ x </h1>")]);
        assert!(matches!(error.kind, ErrorKind::Msg(_)));
        assert_eq!(
            chain(&error),
            [
                "Failed to parse 'a.html'",
                " --> 1:11\n  |\n1 | <h1>{{ x </h1>\n  |           ^---\n  |\n  = expected an expression or a string or a concatenation of strings",
            ]
        );
        let d = load_error(&error, &sources);
        assert_eq!(d.file, Path::new("templates/a.html"));
        assert_eq!((d.line, d.column), (Some(1), Some(11)));
        assert_eq!(
            d.message,
            "template error: = expected an expression or a string or a concatenation of strings"
        );
        assert_eq!(d.source_line.as_deref(), Some("<h1>{{ x </h1>"));
        assert_eq!(d.hint.as_deref(), Some("Failed to parse 'a.html'"));
    }

    #[test]
    fn a_missing_parent_names_the_child() {
        let (error, sources) = load(&[("a.html", "{% extends \"nope.html\" %}")]);
        assert!(matches!(
            &error.kind,
            ErrorKind::MissingParent { current, parent } if current == "a.html" && parent == "nope.html"
        ));
        let text = "Template 'a.html' is inheriting from 'nope.html', which doesn't exist or isn't loaded.";
        assert_eq!(chain(&error), [text]);
        let d = load_error(&error, &sources);
        assert_eq!(d.file, Path::new("templates/a.html"));
        assert_eq!(d.line, None);
        assert_eq!(d.message, format!("template error: {text}"));
        assert_eq!(d.hint.as_deref(), Some(text));
    }

    #[test]
    fn a_circular_extend_names_the_template() {
        let (error, sources) = load(&[
            ("a.html", "{% extends \"b.html\" %}"),
            ("b.html", "{% extends \"a.html\" %}"),
        ]);
        let ErrorKind::CircularExtend { tpl, .. } = &error.kind else {
            panic!("{:?}", error.kind);
        };
        let d = load_error(&error, &sources);
        assert_eq!(d.file, template_file(tpl));
        assert!(
            d.message.starts_with(&format!(
                "template error: Circular extend detected for template '{tpl}'. Inheritance chain: "
            )),
            "{}",
            d.message
        );
    }

    #[test]
    fn macros_from_a_missing_file_point_at_the_templates_folder() {
        let (error, sources) = load(&[("a.html", "{% import \"m.html\" as m %}x")]);
        let text = "Template `a.html` loads macros from `m.html` which isn't present in Tera";
        assert!(matches!(&error.kind, ErrorKind::Msg(m) if m == text));
        assert_eq!(chain(&error), [text]);
        let d = load_error(&error, &sources);
        assert_eq!(d.file, Path::new("templates"));
        assert_eq!(d.message, format!("template error: {text}"));
    }

    #[test]
    fn an_unknown_filter_is_found_when_rendering() {
        let error = render(&[("a.html", "{{ x | nofilter }}")]);
        assert_eq!(
            chain(&error),
            ["Failed to render 'a.html'", "Filter 'nofilter' not found"]
        );
        let cause = error.source().and_then(|c| c.downcast_ref::<tera::Error>());
        assert!(matches!(
            cause.map(|c| &c.kind),
            Some(ErrorKind::FilterNotFound(name)) if name == "nofilter"
        ));
        let d = render_error(&error, "a.html");
        assert_eq!(d.file, Path::new("templates/a.html"));
        assert_eq!(d.message, "template error: Filter 'nofilter' not found");
        assert_eq!(d.hint.as_deref(), Some("while rendering a.html"));
    }

    #[test]
    fn a_variable_an_earlier_version_gave_names_what_replaced_it() {
        let error = render(&[(
            "a.html",
            "{% for column in dataset.columns %}{{ column.name }}{% endfor %}",
        )]);
        let d = render_error(&error, "a.html");
        assert!(
            d.message.contains("Variable `dataset.columns` not found"),
            "{d:?}"
        );
        let hint = d.hint.unwrap_or_default();
        assert!(hint.contains("dataset.column_list_html"), "{hint}");
        assert!(hint.ends_with("(while rendering a.html)"), "{hint}");
    }

    #[test]
    fn an_unknown_template_is_found_when_rendering() {
        let error = render(&[("a.html", "{% include \"gone.html\" %}")]);
        assert_eq!(
            chain(&error),
            [
                "Failed to render 'a.html'",
                "Template '[gone.html]' not found"
            ]
        );
        let cause = error.source().and_then(|c| c.downcast_ref::<tera::Error>());
        assert!(matches!(
            cause.map(|c| &c.kind),
            Some(ErrorKind::TemplateNotFound(_))
        ));
        let d = render_error(&error, "a.html");
        assert_eq!(
            d.message,
            "template error: Template '[gone.html]' not found"
        );
    }

    #[test]
    fn a_missing_variable_is_found_when_rendering() {
        let error = render(&[("a.html", "{{ x.y }}")]);
        assert_eq!(
            chain(&error),
            [
                "Failed to render 'a.html'",
                "Variable `x.y` not found in context while rendering 'a.html'"
            ]
        );
        let d = render_error(&error, "a.html");
        assert_eq!(d.file, Path::new("templates/a.html"));
        assert_eq!(
            d.message,
            "template error: Variable `x.y` not found in context while rendering 'a.html'"
        );
    }

    #[test]
    fn a_filter_that_refuses_its_input_reports_its_own_words() {
        let mut tera = tera::Tera::default();
        tera.register_filter(
            "picky",
            |_: &tera::Value, _: &std::collections::HashMap<String, tera::Value>| {
                Err(tera::Error::msg("picky expects a number, got [1]"))
            },
        );
        tera.add_raw_template("a.html", "{{ x | picky }}")
            .expect("the template loads");
        let mut context = tera::Context::new();
        context.insert("x", &[1]);
        let error = tera
            .render("a.html", &context)
            .expect_err("the filter fails");
        assert_eq!(
            chain(&error),
            [
                "Failed to render 'a.html'",
                "Filter call 'picky' failed",
                "picky expects a number, got [1]"
            ]
        );
        let d = render_error(&error, "a.html");
        assert_eq!(d.message, "template error: picky expects a number, got [1]");
    }
}
