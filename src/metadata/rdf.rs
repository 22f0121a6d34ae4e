//! A small RDF vocabulary of nodes (an IRI, its types, its properties) written as Turtle or
//! as JSON-LD: one list of triples, two syntaxes, so `catalog.ttl` and `catalog.jsonld`
//! always state the same graph. Escaping of IRIs and literals lives here and nowhere else.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{json, Map, Value};

/// The prefixes both syntaxes declare, sorted by name: the vocabularies, and the EU
/// Publications Office's tables whose IRIs every dataset names (file types, availability,
/// languages, themes), which Turtle then writes as `filetype:CSV`.
pub const PREFIXES: &[(&str, &str)] = &[
    (
        "availability",
        "http://publications.europa.eu/resource/authority/planned-availability/",
    ),
    ("dcat", "http://www.w3.org/ns/dcat#"),
    ("dcatap", "http://data.europa.eu/r5r/"),
    ("dct", "http://purl.org/dc/terms/"),
    (
        "filetype",
        "http://publications.europa.eu/resource/authority/file-type/",
    ),
    ("foaf", "http://xmlns.com/foaf/0.1/"),
    ("hydra", "http://www.w3.org/ns/hydra/core#"),
    (
        "language",
        "http://publications.europa.eu/resource/authority/language/",
    ),
    ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("skos", "http://www.w3.org/2004/02/skos/core#"),
    ("spdx", "http://spdx.org/rdf/terms#"),
    (
        "theme",
        "http://publications.europa.eu/resource/authority/data-theme/",
    ),
    ("vcard", "http://www.w3.org/2006/vcard/ns#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
];

/// The object of a triple. Predicates, types and datatypes are prefixed names from
/// [`PREFIXES`] written by this crate; IRIs and text may come from content.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    Iri(String),
    /// A string, in the site's language when it has a well-formed tag.
    Text(String, Option<String>),
    /// A literal with a datatype (`xsd:date`).
    Typed(String, &'static str),
}

/// One subject with its types and properties, in the order they were added.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: String,
    pub types: Vec<&'static str>,
    pub properties: Vec<(&'static str, Object)>,
}

impl Node {
    pub fn new(id: &str, types: &[&'static str]) -> Node {
        Node {
            id: iri(id),
            types: types.to_vec(),
            properties: Vec::new(),
        }
    }

    pub fn iri(&mut self, predicate: &'static str, target: &str) -> &mut Node {
        self.properties.push((predicate, Object::Iri(iri(target))));
        self
    }

    pub fn text(
        &mut self,
        predicate: &'static str,
        text: &str,
        language: Option<&str>,
    ) -> &mut Node {
        let language = language.filter(|l| is_language_tag(l)).map(str::to_string);
        self.properties
            .push((predicate, Object::Text(text.to_string(), language)));
        self
    }

    pub fn typed(
        &mut self,
        predicate: &'static str,
        value: &str,
        datatype: &'static str,
    ) -> &mut Node {
        self.properties
            .push((predicate, Object::Typed(value.to_string(), datatype)));
        self
    }
}

/// An IRI as both syntaxes may carry it: every byte Turtle's IRIREF forbids (controls,
/// space, `<>"{}|^` and backtick, backslash) is percent-encoded, so `>` in a URL cannot
/// end the IRI early. Both files use this same spelling, so their graphs are identical.
pub fn iri(text: &str) -> String {
    // Most IRIs need no encoding: copied whole (a catalog spells tens of thousands).
    if text.bytes().all(
        |b| matches!(b, b'!' | b'#'..=b';' | b'=' | b'?'..=b'[' | b']' | b'_' | b'a'..=b'z' | b'~'),
    ) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c <= ' '
            || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\')
            || c == '\u{7f}'
        {
            let _ = write!(out, "%{:02X}", c as u32);
        } else if crate::text::is_forbidden(c) {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{byte:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A BCP 47-shaped tag as Turtle's LANGTAG reads it (`en`, `en-GB`, `sr-Latn-RS`).
pub fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or("");
    !first.is_empty()
        && first.len() <= 8
        && first.bytes().all(|b| b.is_ascii_alphabetic())
        && parts
            .all(|p| !p.is_empty() && p.len() <= 8 && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// An IRI as Turtle writes it: a prefixed name when it is a plain name in one of
/// [`PREFIXES`] (`filetype:CSV`), relative to `base` (the site's address, the file's
/// `@base`) when it is under it and reads back as itself, else whole.
fn turtle_iri(iri: &str, base: &str, out: &mut String) {
    let plain_name = |local: &str| {
        !local.is_empty()
            && local
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let prefixed = PREFIXES.iter().find_map(|(name, namespace)| {
        let local = iri.strip_prefix(namespace).filter(|l| plain_name(l))?;
        Some((name, local))
    });
    if let Some((name, local)) = prefixed {
        out.push_str(name);
        out.push(':');
        out.push_str(local);
        return;
    }
    out.push('<');
    match iri.strip_prefix(base).filter(|r| resolves_to_itself(r)) {
        Some(relative) => out.push_str(relative),
        None => out.push_str(iri),
    }
    out.push('>');
}

/// Whether `relative`, read against a base that ends with `/` and has no query or
/// fragment, resolves to that base followed by `relative` (RFC 3986, section 5.2): not a
/// path from the root or a host (`/`), not a scheme (`x:` before the first `/`), and no
/// `.` or `..` segment, which resolution would remove.
fn resolves_to_itself(relative: &str) -> bool {
    let path = relative.split(['?', '#']).next().unwrap_or_default();
    let first = path.split('/').next().unwrap_or_default();
    !path.starts_with('/')
        && !first.contains(':')
        && !path
            .split('/')
            .any(|segment| segment == "." || segment == "..")
}

fn turtle_object(object: &Object, base: &str, out: &mut String) {
    match object {
        Object::Iri(iri) => turtle_iri(iri, base, out),
        Object::Text(text, language) => {
            crate::text::push_string_literal(text, out);
            if let Some(language) = language {
                out.push('@');
                out.push_str(language);
            }
        }
        Object::Typed(value, datatype) => {
            crate::text::push_string_literal(value, out);
            out.push_str("^^");
            out.push_str(datatype);
        }
    }
}

/// The `@prefix` lines that open the Turtle file, and its `@base`: the site's address
/// (`base`, which ends with `/`), against which the IRIs of its pages and files are
/// written relative.
pub fn turtle_prefixes(base: &str, out: &mut dyn Write) -> io::Result<()> {
    for (name, namespace) in PREFIXES {
        writeln!(out, "@prefix {name}: <{namespace}> .")?;
    }
    writeln!(out, "@base <{}> .", iri(base))
}

/// One node as a Turtle block (`<id> a t ; p o ; … .`) followed by a blank line; its IRIs
/// written against `base`, the `@base` [`turtle_prefixes`] declared, spelled as [`iri`]
/// spells it (worked out once by the caller, not per node).
pub fn turtle_node(node: &Node, base: &str, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::new();
    turtle_iri(&node.id, base, &mut text);
    let mut first = true;
    let mut separator = |text: &mut String| {
        text.push_str(if first { "\n    " } else { " ;\n    " });
        first = false;
    };
    if !node.types.is_empty() {
        separator(&mut text);
        text.push_str("a ");
        text.push_str(&node.types.join(", "));
    }
    for (predicate, object) in &node.properties {
        separator(&mut text);
        text.push_str(predicate);
        text.push(' ');
        turtle_object(object, base, &mut text);
    }
    text.push_str(" .\n\n");
    out.write_all(text.as_bytes())
}

/// The JSON-LD `@context`: the same prefixes.
pub fn json_ld_context() -> Value {
    let map: Map<String, Value> = PREFIXES
        .iter()
        .map(|(name, namespace)| (name.to_string(), json!(namespace)))
        .collect();
    Value::Object(map)
}

/// One node as a JSON-LD object: `@id`, `@type`, and each predicate's values as explicit
/// `@id` / `@value` objects, so no context rule changes what they mean.
pub fn json_ld_node(node: &Node) -> Value {
    let mut out = Map::new();
    out.insert("@id".into(), json!(node.id));
    if !node.types.is_empty() {
        out.insert("@type".into(), json!(node.types));
    }
    for (predicate, object) in &node.properties {
        let value = match object {
            Object::Iri(iri) => json!({ "@id": iri }),
            Object::Text(text, Some(language)) => json!({ "@value": text, "@language": language }),
            Object::Text(text, None) => json!({ "@value": text }),
            Object::Typed(value, datatype) => json!({ "@value": value, "@type": datatype }),
        };
        if let Value::Array(values) = out
            .entry(predicate.to_string())
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            values.push(value);
        }
    }
    Value::Object(out)
}

/// The XML Schema datatype of a content date (`2021`, `2021-05`, `2021-05-21`, date-time).
pub fn temporal_datatype(value: &str) -> &'static str {
    match value.len() {
        4 => "xsd:gYear",
        7 => "xsd:gYearMonth",
        10 => "xsd:date",
        _ => "xsd:dateTime",
    }
}

/// One end of `temporal_coverage` as an XML Schema literal: dates as they are, date-times
/// with seconds as `xsd:dateTime`, date-times without seconds (which XML Schema lacks) as
/// their date.
pub fn coverage_end(value: &str) -> Option<(&str, &'static str)> {
    if value == ".." || value.is_empty() {
        return None;
    }
    match value.split_once('T') {
        Some((_, time)) if time.len() >= 8 && time.as_bytes().get(5) == Some(&b':') => {
            Some((value, "xsd:dateTime"))
        }
        Some((date, _)) => Some((date, "xsd:date")),
        None => Some((value, temporal_datatype(value))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turtle_writes_names_relative_only_where_they_read_back_as_themselves() {
        let written = |iri: &str| {
            let mut out = String::new();
            turtle_iri(iri, "https://x.org/d/", &mut out);
            out
        };
        assert_eq!(
            written("https://x.org/d/datasets/a/#csv"),
            "<datasets/a/#csv>"
        );
        assert_eq!(written("https://x.org/d/"), "<>");
        assert_eq!(written("https://x.org/d/#catalog"), "<#catalog>");
        assert_eq!(written("https://x.org/d/?page=2"), "<?page=2>");
        // Outside the base, or changed by resolution: whole.
        for whole in [
            "https://x.org/other/",
            "https://x.org/d",
            "https://x.org/d//host/",
            "https://x.org/d/a:b/c",
            "https://x.org/d/a/../b",
            "https://x.org/d/./b",
            "https://x.org/d/a/..",
        ] {
            assert_eq!(written(whole), format!("<{whole}>"));
        }
        // A plain name in a declared namespace is a prefixed name; other names are whole.
        let eu = "http://publications.europa.eu/resource/authority/";
        assert_eq!(
            written(&format!("{eu}file-type/JSON_LD")),
            "filetype:JSON_LD"
        );
        assert_eq!(written(&format!("{eu}language/ENG")), "language:ENG");
        assert_eq!(
            written(&format!("{eu}file-type/A.B")),
            format!("<{eu}file-type/A.B>")
        );
        assert_eq!(
            written(&format!("{eu}file-type/")),
            format!("<{eu}file-type/>")
        );
    }

    #[test]
    fn hostile_iris_cannot_end_early() {
        assert_eq!(
            iri("https://x.org/a b>c\"d{e}|^`\\\n"),
            "https://x.org/a%20b%3Ec%22d%7Be%7D%7C%5E%60%5C%0A"
        );
        assert_eq!(iri("https://x.org/é?q=1#f"), "https://x.org/é?q=1#f");
        assert_eq!(iri("https://x.org/\u{fffe}"), "https://x.org/%EF%BF%BE");
    }

    #[test]
    fn hostile_literals_are_escaped() {
        let mut out = String::new();
        crate::text::push_string_literal(
            "a \"quoted\" \\ back\nslash\r\t\u{7}\u{85} end",
            &mut out,
        );
        assert_eq!(
            out,
            "\"a \\\"quoted\\\" \\\\ back\\nslash\\r\\t\\u0007\\u0085 end\""
        );
    }

    #[test]
    fn language_tags_are_checked() {
        assert!(is_language_tag("en"));
        assert!(is_language_tag("sr-Latn-RS"));
        assert!(!is_language_tag("en\" ; <x> <y> \"z"));
        assert!(!is_language_tag(""));
        assert!(!is_language_tag("en-"));
        let mut node = Node::new("https://x.org/", &["dcat:Catalog"]);
        node.text("dct:title", "T", Some("en gb"));
        assert_eq!(node.properties[0].1, Object::Text("T".into(), None));
    }

    #[test]
    fn coverage_ends_are_xml_schema_literals() {
        assert_eq!(coverage_end("2021"), Some(("2021", "xsd:gYear")));
        assert_eq!(coverage_end("2021-04"), Some(("2021-04", "xsd:gYearMonth")));
        assert_eq!(coverage_end("2021-05-21"), Some(("2021-05-21", "xsd:date")));
        assert_eq!(
            coverage_end("2021-05-21T10:00"),
            Some(("2021-05-21", "xsd:date"))
        );
        assert_eq!(
            coverage_end("2021-05-21T10:00:00+02:00"),
            Some(("2021-05-21T10:00:00+02:00", "xsd:dateTime"))
        );
        assert_eq!(coverage_end(".."), None);
    }

    #[test]
    fn a_node_in_both_syntaxes() {
        let mut node = Node::new("https://x.org/d/", &["dcat:Dataset"]);
        node.text("dct:title", "Say \"hi\"", Some("en"))
            .typed("dct:issued", "2021-05-01", "xsd:date")
            .iri("dcat:landingPage", "https://x.org/d/>");
        let mut ttl = Vec::new();
        turtle_node(&node, "https://x.org/", &mut ttl).unwrap();
        assert_eq!(
            String::from_utf8(ttl).unwrap(),
            "<d/>\n    a dcat:Dataset ;\n    dct:title \"Say \\\"hi\\\"\"@en ;\n    dct:issued \"2021-05-01\"^^xsd:date ;\n    dcat:landingPage <d/%3E> .\n\n"
        );
        let ld = json_ld_node(&node);
        assert_eq!(ld["dcat:landingPage"][0]["@id"], "https://x.org/d/%3E");
        assert_eq!(ld["dct:title"][0]["@language"], "en");
        assert_eq!(ld["@type"][0], "dcat:Dataset");
    }
}
