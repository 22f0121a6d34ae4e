//! Text on its way into HTML, SVG and XML, and the characters none of them can carry.
//!
//! Every output path escapes through [`escape_html_into`], which also replaces each
//! [forbidden](is_forbidden) character with U+FFFD, so no input byte can make a page, a
//! chart, the feed or the sitemap ill-formed. The checks that report such characters to
//! authors (front matter, site.toml, CSV cells) use the same predicate.

/// The plain ASCII letters or digits a character is read as when text is compared or
/// turned into an identifier: accented Latin letters lose their marks (`é` -> `e`,
/// `ß` -> `ss`, `Æ` -> `AE`), subscript and superscript digits become digits (`CO₂` ->
/// `CO2`). `None` for every other character (ASCII ones included).
pub fn fold(c: char) -> Option<&'static str> {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    Some(match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' => "a",
        'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => "A",
        'ç' | 'ć' | 'č' => "c",
        'Ç' | 'Ć' | 'Č' => "C",
        'ď' | 'đ' => "d",
        'Ď' | 'Đ' => "D",
        'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'È'..='Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'ğ' => "g",
        'Ğ' => "G",
        'ì'..='ï' | 'ī' | 'į' | 'ı' => "i",
        'Ì'..='Ï' | 'Ī' | 'Į' | 'İ' => "I",
        'ł' | 'ľ' | 'ĺ' => "l",
        'Ł' | 'Ľ' | 'Ĺ' => "L",
        'ñ' | 'ń' | 'ň' => "n",
        'Ñ' | 'Ń' | 'Ň' => "N",
        'ò'..='ö' | 'ø' | 'ō' | 'ő' => "o",
        'Ò'..='Ö' | 'Ø' | 'Ō' | 'Ő' => "O",
        'ř' | 'ŕ' => "r",
        'Ř' | 'Ŕ' => "R",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'Ś' | 'Š' | 'Ş' | 'Ș' => "S",
        'ť' | 'ţ' | 'ț' => "t",
        'Ť' | 'Ţ' | 'Ț' => "T",
        'ù'..='ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'Ù'..='Ü' | 'Ū' | 'Ů' | 'Ű' | 'Ų' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' | 'Ÿ' => "Y",
        'ź' | 'ż' | 'ž' => "z",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ß' => "ss",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'þ' => "th",
        'Þ' => "TH",
        '₀'..='₉' => DIGITS[c as usize - '₀' as usize],
        '⁰' => "0",
        '¹' => "1",
        '²' => "2",
        '³' => "3",
        '⁴'..='⁹' => DIGITS[c as usize - '⁰' as usize],
        _ => return None,
    })
}

/// `text` whole when it has at most `chars` characters, else its first `chars - 1` and
/// `…`: a value cut for display reads as cut.
pub fn shortened(text: &str, chars: usize) -> String {
    let mut kept: String = text.chars().take(chars).collect();
    if kept.len() < text.len() {
        kept.pop();
        kept.push('…');
    }
    kept
}

/// Shown in place of a character that HTML and XML cannot carry.
pub const REPLACEMENT: char = '\u{fffd}';

/// Whether `c` is never published as is: the C0 controls other than tab, line feed and
/// carriage return, and U+FFFE/U+FFFF, which XML 1.0 forbids; and DEL and the C1
/// controls (U+007F–U+009F), which XML 1.0 discourages and HTML parsers report as errors.
/// In text people write, all of them are the marks of a broken export or an attack.
pub fn is_forbidden(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{8}'
            | '\u{b}'
            | '\u{c}'
            | '\u{e}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{fffe}'
            | '\u{ffff}'
    )
}

/// Escapes text for HTML or XML element content and attribute values (`&<>"'`), and
/// replaces each forbidden character with U+FFFD. The one escaping function of every
/// output path: table cells, chart text, template variables, feed and sitemap.
pub fn escape_html_into(text: &str, out: &mut String) {
    escape_into(text, true, out);
}

/// [`escape_html_into`] for element content only, where quotes need no escape (`&<>`):
/// code blocks such as the snippets and citations, full of quotes, stay a fifth lighter.
pub fn escape_text_into(text: &str, out: &mut String) {
    escape_into(text, false, out);
}

fn escape_into(text: &str, quotes: bool, out: &mut String) {
    let bytes = text.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Works on bytes for speed (tables of a million rows pass through here); every
        // byte matched is ASCII or the lead byte of a sequence, so `i` is a char boundary.
        let (replacement, width) = match bytes[i] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if quotes => ("&quot;", 1),
            b'\'' if quotes => ("&#39;", 1),
            0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f => ("\u{fffd}", 1),
            // U+0080–U+009F: C2 80 – C2 9F.
            0xc2 if matches!(bytes.get(i + 1), Some(0x80..=0x9f)) => ("\u{fffd}", 2),
            // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
            0xef if bytes.get(i + 1) == Some(&0xbf)
                && matches!(bytes.get(i + 2), Some(0xbe | 0xbf)) =>
            {
                ("\u{fffd}", 3)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&text[last..i]);
        out.push_str(replacement);
        i += width;
        last = i;
    }
    out.push_str(&text[last..]);
}

/// [`escape_html_into`] into a new string.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_html_into(text, &mut out);
    out
}

/// `text` with each forbidden character replaced by U+FFFD, borrowed when there is none:
/// for HTML that another library (pulldown-cmark) escaped already.
pub fn replace_forbidden(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(is_forbidden) {
        text.chars()
            .map(|c| if is_forbidden(c) { REPLACEMENT } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// `text` with each forbidden character shown by [`visible`], for terminals: a file name,
/// a CSV header or a cell quoted in a message must not drive the terminal.
pub fn visible_text(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(is_forbidden) {
        text.chars().map(visible).collect::<String>().into()
    } else {
        text.into()
    }
}

/// `text` for one terminal line: [`visible_text`], and tabs and line breaks shown by
/// [`visible`] too (a carriage return in a CSV header would write over the line).
pub fn visible_line(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| is_forbidden(c) || matches!(c, '\t' | '\n' | '\r');
    if text.chars().any(hidden) {
        text.chars()
            .map(|c| if hidden(c) { visible(c) } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// Whether UTF-8 `bytes` hold a forbidden character: a quick look at whole CSV records,
/// most of which hold none.
pub fn has_forbidden(bytes: &[u8]) -> bool {
    // First in blocks without early exit, which the compiler can vectorise: a block with no
    // byte that could start a forbidden character needs no closer look.
    let suspect = |b: u8| (b < 0x20) | (b == 0x7f) | (b == 0xc2) | (b == 0xef);
    let clear = |block: &[u8]| !block.iter().fold(false, |seen, &b| seen | suspect(b));
    if bytes.chunks(64).all(clear) {
        return false;
    }
    // 0xC2 and 0xEF only ever start a sequence in UTF-8, so looking ahead is exact.
    bytes.iter().enumerate().any(|(i, &b)| match b {
        0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f => true,
        0xc2 => matches!(bytes.get(i + 1), Some(0x80..=0x9f)),
        0xef => bytes.get(i + 1) == Some(&0xbf) && matches!(bytes.get(i + 2), Some(0xbe | 0xbf)),
        _ => false,
    })
}

/// The byte offset and value of every forbidden character in `text`.
pub fn forbidden_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    text.char_indices().filter(|(_, c)| is_forbidden(*c))
}

/// `U+001B (ESC)`: a character as a message names it.
pub fn describe_char(c: char) -> String {
    const C0_NAMES: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    let code = c as u32;
    let name = match code {
        0..=0x1f => C0_NAMES[code as usize],
        0x7f => "DEL",
        0x80..=0x9f => "C1 control",
        _ => "noncharacter",
    };
    format!("U+{code:04X} ({name})")
}

/// A visible stand-in for a forbidden character in a terminal line: the Control Pictures
/// symbol (␀, ␛, ␡) for C0 controls and DEL, U+FFFD for the rest. One character for one,
/// so a caret under the line still points at the right column.
pub fn visible(c: char) -> char {
    match c as u32 {
        code @ 0..=0x1f => char::from_u32(0x2400 + code).unwrap_or(REPLACEMENT),
        0x7f => '\u{2421}',
        _ if is_forbidden(c) => REPLACEMENT,
        _ => c,
    }
}

/// The scheme a browser would see in a link target, lowercase, if the target has one:
/// browsers drop tabs and line breaks anywhere in a URL and leading spaces and controls,
/// so `java\tscript:` is `javascript:` to them and must be to this check too.
pub fn url_scheme(url: &str) -> Option<String> {
    let cleaned: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = cleaned.split_once(':')?;
    let mut chars = scheme.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    (starts_with_letter && rest_ok).then(|| scheme.to_ascii_lowercase())
}

/// Schemes that run code or show content of the author's making in the reader's browser
/// (`javascript:`, `vbscript:`, `data:`) or point into the reader's machine (`file:`):
/// never a link on a published page.
pub fn is_dangerous_scheme(scheme: &str) -> bool {
    matches!(scheme, "javascript" | "vbscript" | "data" | "file")
}

/// Why `url` is not an absolute `http`/`https` URL with a host, if it is not.
pub fn web_url_problem(url: &str) -> Option<String> {
    let Some(scheme) = url_scheme(url) else {
        return Some("it is not an absolute URL (it has no scheme such as https://)".into());
    };
    if scheme != "http" && scheme != "https" {
        return Some(format!("its scheme is `{scheme}:`, not http or https"));
    }
    let after = &url[scheme.len() + 1..];
    let Some(rest) = after.strip_prefix("//") else {
        return Some(format!("`{scheme}:` must be followed by `//` and a host"));
    };
    let host_and_port = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host_and_port
        .rsplit_once('@')
        .map_or(host_and_port, |(_, host)| host);
    // The host without its port; an IPv6 address keeps its brackets.
    let host = match host.find(']') {
        Some(end) if host.starts_with('[') => &host[..=end],
        _ => host.split(':').next().unwrap_or_default(),
    };
    if host.is_empty() || host == "[]" {
        return Some("it has no host".into());
    }
    // Letters, digits and `.-_%` only (WHATWG would also take symbols such as `☃`), and a
    // host as browsers read it: `url`'s host parser checks the IDNA name, the percent
    // escapes and the IPv4 or IPv6 address, which a character list cannot.
    let allowed =
        |c: char| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '%' | '[' | ']');
    if !host.chars().all(allowed) || url::Host::parse(host).is_err() {
        return Some(format!("its host {host:?} is not a host name"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("it contains spaces or control characters".into());
    }
    None
}

/// Why `url` is not a link a page may publish (`http`, `https` or `mailto`), if it is not.
pub fn link_url_problem(url: &str) -> Option<String> {
    match url_scheme(url).as_deref() {
        Some("mailto") if url.len() > "mailto:".len() => None,
        Some("mailto") => Some("the mailto: address is empty".into()),
        Some("http" | "https") => web_url_problem(url),
        Some(scheme) => Some(format!(
            "its scheme is `{scheme}:`; links may be http, https or mailto"
        )),
        None => Some("it is not an absolute URL (it has no scheme such as https://)".into()),
    }
}

/// A double-quoted string literal on one line, in the escapes Turtle and TOML basic strings
/// share: quotes, backslashes and line breaks escaped; every other control, and the
/// characters XML cannot carry, as `\uXXXX`. (A TOML multi-line string could hold a line
/// `+++`, which would end a front matter.)
pub fn push_string_literal(text: &str, out: &mut String) {
    out.push('"');
    // Printable ASCII without quotes or backslashes is copied whole.
    if text
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
    {
        out.push_str(text);
        out.push('"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_forbidden(c) => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `text` as a message quotes it: whole up to 40 characters, else its first 20 and last
/// 12 characters around an ellipsis, with its length (a 10,000-character cell or title
/// should not fill the terminal).
pub fn quoted_in_message(text: &str) -> std::borrow::Cow<'_, str> {
    let count = text.chars().count();
    if count <= 40 {
        return std::borrow::Cow::Borrowed(text);
    }
    let start: String = text.chars().take(20).collect();
    let end: String = text.chars().skip(count - 12).collect();
    std::borrow::Cow::Owned(format!("{start}…{end} ({count} characters)"))
}

/// The hint for a file that is not UTF-8: save it so, or convert it with `iconv` from the
/// encoding its bytes (`sample`, some of them, may be empty) suggest: UTF-16 when they hold
/// zero bytes, else WINDOWS-1252 (what most other files are, a superset of ISO-8859-1).
pub fn not_utf8_hint(sample: &[u8]) -> String {
    let encoding = match sample.contains(&0) {
        true => "UTF-16",
        false => "WINDOWS-1252",
    };
    format!(
        "save the file as UTF-8 (spreadsheets: CSV UTF-8), or convert it: \
         `iconv -f {encoding} -t UTF-8 in.csv > out.csv` ({encoding} is a guess: \
         if the converted text reads wrong, name the file's own encoding)"
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_utf8_hint_names_a_conversion() {
        assert!(
            not_utf8_hint(b"caf\xe9").contains("`iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv`")
        );
        assert!(not_utf8_hint(b"a\0b\0").contains("-f UTF-16 "));
    }
    use super::*;

    #[test]
    fn a_cut_text_ends_in_an_ellipsis_and_keeps_its_length() {
        assert_eq!(shortened("short", 80), "short");
        assert_eq!(shortened("abcdef", 6), "abcdef");
        assert_eq!(shortened("abcdefg", 6), "abcde…");
        assert_eq!(shortened("ééééééé", 6).chars().count(), 6);
    }

    #[test]
    fn accents_lose_their_marks_and_small_digits_become_digits() {
        let folded: String = "CO₂ Ærø café x² Straße"
            .chars()
            .map(|c| fold(c).map_or(c.to_string(), str::to_string))
            .collect();
        assert_eq!(folded, "CO2 AEro cafe x2 Strasse");
        assert_eq!(fold('a'), None);
        assert_eq!(fold('€'), None);
    }

    #[test]
    fn long_texts_are_quoted_by_their_ends() {
        assert_eq!(quoted_in_message("short"), "short");
        let forty = "é".repeat(40);
        assert_eq!(quoted_in_message(&forty), forty.as_str());
        let long = format!("{}{}", "a".repeat(30), "z".repeat(20));
        assert_eq!(
            quoted_in_message(&long),
            format!("{}…{} (50 characters)", "a".repeat(20), "z".repeat(12))
        );
    }

    #[test]
    fn terminal_lines_show_controls_and_line_breaks() {
        assert_eq!(
            visible_line("\u{1b}]0;title\u{7}a\tb\r\n\u{1b}[2J"),
            "\u{241b}]0;title\u{2407}a\u{2409}b\u{240d}\u{240a}\u{241b}[2J"
        );
        assert!(matches!(
            visible_line("plain é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn escaping_covers_markup_and_forbidden_characters() {
        assert_eq!(
            escape_html("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
        assert_eq!(escape_html("a\u{0}b\u{1b}c"), "a\u{fffd}b\u{fffd}c");
        assert_eq!(
            escape_html("\u{7f}\u{80}\u{9f}\u{a0}\u{fffe}\u{ffff}\u{fffd}é"),
            "\u{fffd}\u{fffd}\u{fffd}\u{a0}\u{fffd}\u{fffd}\u{fffd}é"
        );
        assert_eq!(escape_html("tab\there\nline\r"), "tab\there\nline\r");
    }

    #[test]
    fn escaping_agrees_with_the_predicate_for_every_character() {
        for code in (0..0x300).chain(0xfff0..0x10000).chain([0x1f600]) {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let escaped = escape_html(&format!("a{c}b"));
            let expected_middle = match c {
                '&' | '<' | '>' | '"' | '\'' => continue,
                c if is_forbidden(c) => REPLACEMENT,
                c => c,
            };
            assert_eq!(escaped, format!("a{expected_middle}b"), "U+{code:04X}");
            assert_eq!(
                replace_forbidden(&format!("a{c}b")),
                escaped,
                "U+{code:04X}"
            );
            assert_eq!(
                has_forbidden(format!("a{c}b").as_bytes()),
                is_forbidden(c),
                "U+{code:04X}"
            );
        }
    }

    #[test]
    fn characters_are_named_and_made_visible() {
        assert_eq!(describe_char('\u{0}'), "U+0000 (NUL)");
        assert_eq!(describe_char('\u{1b}'), "U+001B (ESC)");
        assert_eq!(describe_char('\u{85}'), "U+0085 (C1 control)");
        assert_eq!(describe_char('\u{fffe}'), "U+FFFE (noncharacter)");
        assert_eq!(visible('\u{0}'), '␀');
        assert_eq!(visible('\u{1b}'), '␛');
        assert_eq!(visible('\u{7f}'), '␡');
        assert_eq!(visible('\u{85}'), REPLACEMENT);
        assert_eq!(visible('x'), 'x');
        let found: Vec<(usize, char)> = forbidden_chars("é\u{0}x\u{ffff}").collect();
        assert_eq!(found, [(2, '\u{0}'), (4, '\u{ffff}')]);
    }

    #[test]
    fn schemes_are_read_as_browsers_read_them() {
        assert_eq!(url_scheme("https://x").as_deref(), Some("https"));
        assert_eq!(
            url_scheme("JavaScript:alert(1)").as_deref(),
            Some("javascript")
        );
        assert_eq!(url_scheme(" java\tscript:x").as_deref(), Some("javascript"));
        assert_eq!(
            url_scheme("\u{1}javascript:x").as_deref(),
            Some("javascript")
        );
        assert_eq!(url_scheme("#source-a"), None);
        assert_eq!(url_scheme("../about/"), None);
        assert_eq!(url_scheme("a/b:c"), None);
        assert!(is_dangerous_scheme("javascript"));
        assert!(!is_dangerous_scheme("https"));
    }

    #[test]
    fn web_urls_need_http_and_a_host() {
        for good in [
            "https://example.org/",
            "http://example.org",
            "https://example.org:8080/sub/",
            "https://user@example.org/x?y#z",
            "https://[::1]:8080/",
            "https://bücher.example/",
            "https://ex%41mple.org/",
            "http://192.168.0.1/",
        ] {
            assert_eq!(web_url_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "example.org",
            "javascript:alert(1)",
            "ftp://x",
            "https:example.org",
            "https://",
            "https:///path",
            "https://exa mple.org/",
            "https://example.org/a b",
            "//example.org/",
            "https://[]/",
            "https://[zzz]/",
            "https://[::1/",
            "https://1.2.3.4.5/",
            "https://256.0.0.1/",
            "https://xn--a.org/",
            "https://a%zz.org/",
            "https://x.org\\evil/",
            "https://☃.net/",
        ] {
            assert!(web_url_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn link_urls_may_also_be_mailto() {
        assert_eq!(link_url_problem("mailto:a@example.org"), None);
        assert_eq!(link_url_problem("https://example.org/x"), None);
        for bad in [
            "mailto:",
            "javascript:alert(1)",
            "data:text/html,x",
            "file:///etc/passwd",
            "vbscript:x",
            "x.html",
        ] {
            assert!(link_url_problem(bad).is_some(), "{bad}");
        }
    }
}
