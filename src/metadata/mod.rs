//! Machine-readable descriptions of the site, all derived from the same source of truth as
//! the pages (front matter + the CSV scan): a Frictionless Data Package and a CSVW file per
//! dataset, schema.org JSON-LD for pages, and the site's catalog, sitemap, feed and robots.txt.
//!
//! Everything here is deterministic: keys are emitted sorted (serde_json's default map, and
//! the typed structs of the per-dataset files declare their fields in that order), listings
//! are sorted, and dates come from the content (or `--date`), never the clock.

pub mod catalog_files;
pub mod citation_files;
pub mod credit;
pub mod croissant;
pub mod csvw;
pub mod datapackage;
pub mod dcat;
pub mod jsonld;
pub mod outputs;
mod profile;
mod rdf;
pub mod search_split;
pub mod site_files;
pub mod snippets;
pub mod versions;

use std::fmt::Write as _;

use crate::content::date_format::{DateFormat, DateKind};
use crate::content::License;
use crate::dataset::schema::{BooleanSpelling, ColumnType, DatePrecision};
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::site::Site;

/// The absolute URL of a dataset's page.
pub fn page_url(site: &Site, dataset: &Dataset) -> String {
    slug_page_url(site, &dataset.slug)
}

/// The absolute URL of the page of dataset `slug`.
pub fn slug_page_url(site: &Site, slug: &str) -> String {
    site.config.absolute_url(&urls::dataset_page(slug))
}

/// Where the license terms are: the license's own URL, or the page's License section.
pub fn license_url(site: &Site, dataset: &Dataset) -> String {
    slug_license_url(site, &dataset.slug, &dataset.license)
}

/// [`license_url`] of dataset `slug` under `license`.
pub fn slug_license_url(site: &Site, slug: &str, license: &License) -> String {
    match &license.url {
        Some(url) => url.clone(),
        None => format!("{}#license", slug_page_url(site, slug)),
    }
}

/// The dataset's `updated` date, else `created`, else the build's `--date`.
pub fn updated(site: &Site, dataset: &Dataset) -> Option<String> {
    dataset.updated().or_else(|| site.default_date.clone())
}

/// The suggested citation, shown on the page and stated as `creditText`.
pub fn citation(site: &Site, dataset: &Dataset) -> String {
    let mut text = credit::names(&credit::credited(site, dataset));
    if let Some(date) = updated(site, dataset) {
        text.push_str(&format!(" ({})", &date[..date.len().min(4)]));
    }
    text.push_str(&format!(". {}", dataset.front.title));
    if let Some(version) = &dataset.front.version {
        text.push_str(&format!(" (version {version})"));
    }
    text.push_str(&format!(
        " [Data set]. {}. {}",
        site.config.publisher().name,
        page_url(site, dataset)
    ));
    text
}

/// A date column's `format` and its compiled form (checked when the dataset loaded).
pub fn date_format(dataset: &Dataset, index: usize) -> Option<(&str, DateFormat)> {
    let spec = dataset.front.columns.get(index)?;
    let pattern = spec.format.as_deref()?;
    Some((
        pattern,
        DateFormat::compile(pattern, spec.column_type).ok()?,
    ))
}

/// What every format appends to a formatted date column's description: how its cells are
/// written, since the exports describe the untouched file.
pub fn format_sentence(pattern: &str) -> String {
    format!(
        " Cells are written in the format {pattern} (strftime directives; %q is a quarter, \
         %G-W%V an ISO week); the pages show them in ISO 8601."
    )
}

/// The Table Schema type of a column: date columns map to the precision their cells use;
/// a formatted date column to `date` or `datetime` (read through its `format`), `year` and
/// `yearmonth` when the format is exactly theirs, `string` for weeks and quarters, which
/// Python's `strptime` cannot read.
pub fn table_schema_type(dataset: &Dataset, index: usize, column_type: ColumnType) -> &'static str {
    if let Some((pattern, format)) = date_format(dataset, index) {
        return match format.kind() {
            DateKind::Week | DateKind::Quarter => "string",
            DateKind::Year if pattern == "%Y" => "year",
            DateKind::YearMonth if pattern == "%Y-%m" => "yearmonth",
            DateKind::DateTime { .. } => "datetime",
            _ => "date",
        };
    }
    match column_type {
        ColumnType::Date => {
            let mask = dataset.csv.date_precisions.get(index).copied().unwrap_or(0);
            match DatePrecision::single(mask) {
                Some(DatePrecision::Year) => "year",
                Some(DatePrecision::YearMonth) => "yearmonth",
                Some(DatePrecision::DateTime) => "datetime",
                Some(DatePrecision::Day) => "date",
                // No cells, or mixed precisions: no single standard type fits.
                None if mask == 0 => "date",
                None => "string",
            }
        }
        other => other.as_str(),
    }
}

/// The spellings of a boolean column's cells (`TRUE`/`FALSE`, `1`/`0`, ...), from its
/// profile: at most four, so always counted exactly.
pub fn boolean_spellings(
    dataset: &Dataset,
    index: usize,
) -> std::collections::BTreeSet<BooleanSpelling> {
    dataset
        .csv
        .profiles
        .get(index)
        .and_then(|profile| profile.text.as_ref())
        .map(|values| {
            values
                .most_common(usize::MAX)
                .into_iter()
                .filter_map(|(value, _)| BooleanSpelling::of(value))
                .collect()
        })
        .unwrap_or_default()
}

/// The bytes of a JSON output file: compact (software reads these files; indenting them
/// made them two to three times larger), one final newline. The DCAT catalog states the
/// size and SHA-256 of these same bytes.
pub fn json_file(value: &impl serde::Serialize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 * 1024);
    if serde_json::to_writer(&mut bytes, value).is_err() {
        // Only maps with keys that are not strings fail; none is written here.
        bytes.clear();
    }
    bytes.push(b'\n');
    bytes
}

/// The last segment of a site-relative path: the file's name.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// How a metadata file in the dataset's folder names `path`, one of `dataset`'s
/// files: by its name when it is published beside it, by its absolute URL when it is
/// published elsewhere (`data_url`, [`crate::site::outputs::Registry::url_of`]).
pub fn file_reference(site: &Site, dataset: &Dataset, path: &str) -> String {
    let url = (site.outputs).url_of(&dataset.data_place(&site.config), &dataset.slug, path);
    match url == site.config.absolute_url(path) {
        true => file_name(path).to_string(),
        false => url,
    }
}

/// The decimal units of a file's size, each a thousand times the one before.
pub const SIZE_UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];

/// File sizes for readers: "812 B", "2.1 kB", "73.4 MB" (decimal units).
pub fn human_size(bytes: u64) -> String {
    let (number, unit) = size_parts(bytes);
    format!("{number} {}", SIZE_UNITS[unit])
}

/// A file's size as [`human_size`] writes it: the number (`2.1`, English marks) and the
/// index of its unit in [`SIZE_UNITS`].
pub fn size_parts(bytes: u64) -> (String, usize) {
    if bytes < 1000 {
        return (bytes.to_string(), 0);
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < SIZE_UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    (format!("{value:.1}"), unit)
}

/// Escapes text for XML content and attribute values (forbidden characters become U+FFFD).
pub use crate::text::escape_html as escape_xml;

/// JSON safe inside an HTML `<script>` element: no `</`, no `<!--`, no line separators
/// that older parsers treat as line ends, and no character HTML cannot carry (serde_json
/// escapes C0 controls itself; DEL, C1 and U+FFFE/U+FFFF are escaped here, so the value
/// read back is the same). Compact, like the JSON files: search engines read it, not people.
pub fn script_safe_json(value: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    let mut out = String::with_capacity(text.len() + 64);
    // Runs of plain ASCII are copied whole; the scan stops only at `<` and at bytes from
    // DEL up (DEL, or the first byte of a non-ASCII character), so `at` stays on a
    // character boundary. serde_json has already escaped C0 controls.
    let bytes = text.as_bytes();
    let (mut copied, mut at) = (0, 0);
    while at < bytes.len() {
        if bytes[at] != b'<' && bytes[at] < 0x7f {
            at += 1;
            continue;
        }
        out.push_str(&text[copied..at]);
        let rest = &text[at..];
        let c = rest.chars().next().unwrap_or_default();
        if rest.starts_with("</") {
            out.push_str("<\\/");
            at += 2;
        } else if rest.starts_with("<!--") {
            out.push_str("<\\u0021--");
            at += 4;
        } else if matches!(c, '\u{2028}' | '\u{2029}') || crate::text::is_forbidden(c) {
            // Forbidden characters only ever occur inside JSON strings, where escapes hold.
            let _ = write!(out, "\\u{:04x}", c as u32);
            at += c.len_utf8();
        } else {
            out.push(c);
            at += c.len_utf8();
        }
        copied = at;
    }
    out.push_str(&text[copied..]);
    out
}

/// One entry of the change history (fields in key order: the Data Package writes it as is).
#[derive(Debug, serde::Serialize)]
pub struct ChangeView {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The `[[changes]]` entries, newest first (the author's order among equal dates).
pub fn changes(dataset: &Dataset) -> Vec<ChangeView> {
    let mut list: Vec<ChangeView> = dataset
        .front
        .changes
        .iter()
        .map(|c| ChangeView {
            date: crate::content::date_string(&c.date),
            version: c.version.clone(),
            description: c.description.trim().to_string(),
        })
        .collect();
    list.sort_by(|a, b| b.date.cmp(&a.date));
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(human_size(812), "812 B");
        assert_eq!(human_size(2_100), "2.1 kB");
        assert_eq!(human_size(73_400_000), "73.4 MB");
    }

    #[test]
    fn json_in_script_cannot_close_the_element() {
        let value = serde_json::json!({"name": "</script><script>alert(1)</script> <!-- \u{2028} \u{0}\u{7f}\u{85}\u{fffe}"});
        let safe = script_safe_json(&value);
        assert!(!safe.contains("</"));
        assert!(!safe.contains("<!--"));
        assert!(!safe.contains('\u{2028}'));
        assert!(!safe.chars().any(crate::text::is_forbidden), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
    }

    /// The escaping as it was written before the one-pass loop: replaces, then characters.
    fn script_safe_by_replacing(value: &serde_json::Value) -> String {
        let text = serde_json::to_string(value).unwrap();
        let mut out = String::new();
        for c in text
            .replace("</", "<\\/")
            .replace("<!--", "<\\u0021--")
            .chars()
        {
            if matches!(c, '\u{2028}' | '\u{2029}') || crate::text::is_forbidden(c) {
                let _ = write!(out, "\\u{:04x}", c as u32);
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn one_pass_escaping_matches_replacing() {
        for text in [
            "<</",
            "<!--",
            "<!-",
            "</!--",
            "<!--</",
            "<<!--",
            "a</b<!---->\u{2028}\u{2029}",
            "\u{7f}\u{85}\u{fffe}\u{ffff}é<",
            "<",
            "",
            "plain",
        ] {
            let value = serde_json::json!({ "k": text, text: [text] });
            assert_eq!(
                script_safe_json(&value),
                script_safe_by_replacing(&value),
                "{text:?}"
            );
        }
    }
}
