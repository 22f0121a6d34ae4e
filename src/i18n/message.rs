//! A message's text filled in: `{name}` is replaced by the argument `name`, `[text](name)`
//! is a link to the argument `name`. Written as HTML (text and arguments escaped) for the
//! templates; the scripts fill in the same syntax themselves (`words-<language>.js`).

/// Writes `text` as HTML with its arguments; `Err` names an argument the text uses that
/// `arg` does not give.
pub fn fill_html(
    text: &str,
    arg: &dyn Fn(&str) -> Option<String>,
    out: &mut String,
) -> Result<(), String> {
    let mut rest = text;
    while let Some(at) = rest.find(['{', '[']) {
        crate::text::escape_html_into(&rest[..at], out);
        let tail = &rest[at..];
        if let Some((name, after)) = placeholder(tail) {
            let value = arg(name).ok_or_else(|| name.to_string())?;
            crate::text::escape_html_into(&value, out);
            rest = after;
        } else if let Some((inner, name, after)) = link(tail) {
            let href = arg(name).ok_or_else(|| name.to_string())?;
            out.push_str("<a href=\"");
            crate::text::escape_html_into(&href, out);
            out.push_str("\">");
            fill_html(inner, arg, out)?;
            out.push_str("</a>");
            rest = after;
        } else {
            crate::text::escape_html_into(&tail[..1], out);
            rest = &tail[1..];
        }
    }
    crate::text::escape_html_into(rest, out);
    Ok(())
}

/// `text` filled in as plain text (a link is its text): for dates and the like that a
/// template escapes itself.
pub fn fill_text(text: &str, arg: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['{', '[']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some((name, after)) = placeholder(tail) {
            out.push_str(&arg(name).ok_or_else(|| name.to_string())?);
            rest = after;
        } else if let Some((inner, _, after)) = link(tail) {
            out.push_str(&fill_text(inner, arg)?);
            rest = after;
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `{name}…` -> (`name`, `…`).
fn placeholder(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('{')?;
    let end = inner.find('}')?;
    let name = &inner[..end];
    is_name(name).then(|| (name, &inner[end + 1..]))
}

/// `[text](name)…` -> (`text`, `name`, `…`).
fn link(text: &str) -> Option<(&str, &str, &str)> {
    let inner = text.strip_prefix('[')?;
    let close = inner.find("](")?;
    let after = &inner[close + 2..];
    let end = after.find(')')?;
    let name = &after[..end];
    is_name(name).then(|| (&inner[..close], name, &after[end + 1..]))
}

fn is_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Every argument a text uses, placeholders and links.
pub fn arguments(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['{', '[']) {
        let tail = &rest[at..];
        if let Some((name, after)) = placeholder(tail) {
            names.push(name);
            rest = after;
        } else if let Some((inner, name, after)) = link(tail) {
            names.extend(arguments(inner));
            names.push(name);
            rest = after;
        } else {
            rest = &tail[1..];
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(text: &str) -> Result<String, String> {
        let args = |name: &str| match name {
            "n" => Some("1\u{202f}234".to_string()),
            "csv" => Some("a\"b.csv".to_string()),
            "who" => Some("<Ann>".to_string()),
            _ => None,
        };
        let mut out = String::new();
        fill_html(text, &args, &mut out).map(|()| out)
    }

    #[test]
    fn arguments_and_links_are_filled_in_escaped() {
        assert_eq!(fill("{n} lignes").unwrap(), "1\u{202f}234 lignes");
        assert_eq!(
            fill("Voir [le CSV de {who}](csv) & plus.").unwrap(),
            "Voir <a href=\"a&quot;b.csv\">le CSV de &lt;Ann&gt;</a> &amp; plus."
        );
        assert_eq!(
            fill("a {b c} [d] {} [e](f g)").unwrap(),
            "a {b c} [d] {} [e](f g)"
        );
        assert_eq!(fill("{missing}"), Err("missing".to_string()));
        assert_eq!(arguments("[x {n}](csv) {who}"), vec!["n", "csv", "who"]);
    }
}
