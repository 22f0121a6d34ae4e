//! The Columns section's two lists, written here rather than looped over in `dataset.html`,
//! as the table rows are: an item per column, each with its profile sentence and histogram.
//! In Tera these loops, and copying the profiles into the template's context first, took 7 %
//! of a catalog's build (0.5 of 7.3 s CPU at 10,000 datasets); the template keeps the section
//! around them.
//!
//! - [`column_list`]: the columns the table shows, each with title, name, type, unit,
//!   description and profile (`<ul class="column-list">`);
//! - [`column_summary`]: the columns it leaves out, one line each (`<ul class="column-summary">`).
//!
//! Both stay within the Columns section's share of the page budget (`dataset::budget`).

use super::profile_view::ProfileView;
use crate::content::columns::ColumnSpec;
use crate::dataset::budget::COLUMNS_BYTES;
use crate::dataset::Dataset;
use crate::i18n::Words;
use crate::render::words::say;
use crate::site::Site;
use crate::text::escape_html_into;

/// Between items, and after the last: the indentation of the list's lines in the page.
const ITEM_END: &str = "\n    ";

/// The columns of `dataset` with their index, those in the table (`shown`, as
/// `Dataset::shown_columns` gives them) or the others, in the CSV's order.
fn columns<'a>(
    dataset: &'a Dataset,
    shown: &[usize],
    in_table: bool,
) -> impl Iterator<Item = (usize, &'a ColumnSpec)> {
    let table = dataset.in_table(shown);
    let columns = dataset.front.columns.iter().enumerate();
    columns.filter(move |(index, _)| table[*index] == in_table)
}

/// The `<li>` items of the columns in the table, in the CSV's order, each with its profile
/// while the list stays within the Columns section's share of the page budget
/// ([`COLUMNS_BYTES`]); the columns past it without (their profiles are in the Data
/// Package), said in a last item. In the site's words; a number column's histogram when
/// it has at least site.toml's `histogram_min_values` values.
pub fn column_list(site: &Site, dataset: &Dataset, shown: &[usize]) -> String {
    let (words, histogram_min) = (&site.words, site.config.histogram_min_values);
    let mut out = String::new();
    let mut unprofiled = 0usize;
    for (index, column) in columns(dataset, shown, true) {
        out.push_str("<li id=\"column-");
        escape_html_into(&column.name, &mut out);
        out.push_str("\"><strong class=\"column-title\">");
        escape_html_into(&column.title, &mut out);
        out.push_str("</strong> <code>");
        escape_html_into(&column.name, &mut out);
        out.push_str("</code> <span class=\"column-type\">(");
        push_type(column, words, &mut out);
        if let Some(unit) = column.unit.as_deref().filter(|u| !u.is_empty()) {
            out.push_str(", ");
            escape_html_into(unit, &mut out);
        }
        out.push_str(")</span>: ");
        escape_html_into(&column.description, &mut out);
        if let Some(profile) = dataset.csv.profiles.get(index) {
            let start = out.len();
            out.push_str("\n      ");
            let view = ProfileView::new(column, profile, words, histogram_min);
            profile_sentence(&view, words, &mut out);
            if out.len() > COLUMNS_BYTES {
                out.truncate(start);
                unprofiled += 1;
            }
        }
        out.push_str("</li>");
        out.push_str(ITEM_END);
    }
    if unprofiled > 0 {
        more_item(
            &say(words, "columns.unprofiled", Some(unprofiled as u64), &[]),
            &mut out,
        );
    }
    out
}

/// The column's type in the words of the page (`integer` in English, `entier` in French).
fn push_type(column: &ColumnSpec, words: &Words, out: &mut String) {
    let id = format!("types.{}", column.column_type.as_str());
    escape_html_into(&words.text(&id).unwrap_or_default(), out);
}

/// The last item of a list cut by the page budget (`html`: its words as HTML).
fn more_item(html: &str, out: &mut String) {
    out.push_str("<li class=\"column-more\">");
    out.push_str(html);
    out.push_str("</li>");
    out.push_str(ITEM_END);
}

/// `<p class="profile">`: the histogram, then the facts and the most common values as one
/// sentence.
fn profile_sentence(profile: &ProfileView, words: &Words, out: &mut String) {
    out.push_str("<p class=\"profile\">");
    if let Some(svg) = profile.histogram_svg.as_deref().filter(|s| !s.is_empty()) {
        out.push_str(svg);
        out.push(' ');
    }
    let separator = say(words, "profile.separator", None, &[]);
    out.push_str(&profile.facts.join(&separator));
    if !profile.most_common.is_empty() {
        let values: Vec<String> = (profile.most_common.iter())
            .map(|common| format!("{} ({})", common.value, common.count))
            .collect();
        out.push_str(&separator);
        let values = [("values", values.join(", "))];
        let values = values.each_ref().map(|(k, v)| (*k, v.as_str()));
        out.push_str(&say(words, "profile.most_common", None, &values));
    }
    out.push_str(".</p>");
}

/// The `<li>` items of the columns the table leaves out: name, type and rows with a value.
pub fn column_summary(dataset: &Dataset, shown: &[usize], room: usize, words: &Words) -> String {
    let mut out = String::new();
    let mut left = 0u64;
    for (index, column) in columns(dataset, shown, false) {
        if out.len() > room {
            left += 1;
            continue;
        }
        let filled = dataset.csv.profiles.get(index).map_or(0, |p| p.filled);
        out.push_str("<li id=\"column-");
        escape_html_into(&column.name, &mut out);
        out.push_str("\"><code>");
        escape_html_into(&column.name, &mut out);
        out.push_str("</code> ");
        push_type(column, words, &mut out);
        out.push_str(", ");
        out.push_str(&say(words, "columns.filled", Some(filled), &[]));
        out.push_str("</li>");
        out.push_str(ITEM_END);
    }
    if left > 0 {
        more_item(&say(words, "columns.unlisted", Some(left), &[]), &mut out);
    }
    out
}
