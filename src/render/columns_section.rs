//! The Columns section's two lists, written here rather than looped over in `dataset.html`,
//! as the table rows are: an item per column, each with its profile sentence and histogram.
//! In Tera these loops, and copying the profiles into the template's context first, took 7 %
//! of a catalog's build (0.5 of 7.3 s CPU at 10,000 datasets); the template keeps the section
//! around them.
//!
//! - [`column_list`]: the columns the table shows, each with title, name, type, unit,
//!   description and profile (`<ul class="column-list">`);
//! - [`column_summary`]: the columns it leaves out, one line each (`<ul class="column-summary">`).

use super::profile_view::ProfileView;
use crate::content::columns::ColumnSpec;
use crate::dataset::Dataset;
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

/// The `<li>` items of the columns in the table, in the CSV's order.
pub fn column_list(dataset: &Dataset, shown: &[usize]) -> String {
    let mut out = String::new();
    for (index, column) in columns(dataset, shown, true) {
        out.push_str("<li id=\"column-");
        escape_html_into(&column.name, &mut out);
        out.push_str("\"><strong class=\"column-title\">");
        escape_html_into(&column.title, &mut out);
        out.push_str("</strong> <code>");
        escape_html_into(&column.name, &mut out);
        out.push_str("</code> <span class=\"column-type\">(");
        out.push_str(column.column_type.as_str());
        if let Some(unit) = column.unit.as_deref().filter(|u| !u.is_empty()) {
            out.push_str(", ");
            escape_html_into(unit, &mut out);
        }
        out.push_str(")</span>: ");
        escape_html_into(&column.description, &mut out);
        if let Some(profile) = dataset.csv.profiles.get(index) {
            out.push_str("\n      ");
            profile_sentence(&ProfileView::new(column, profile), &mut out);
        }
        out.push_str("</li>");
        out.push_str(ITEM_END);
    }
    out
}

/// `<p class="profile">`: the histogram, then the facts and the most common values as one
/// sentence.
fn profile_sentence(profile: &ProfileView, out: &mut String) {
    out.push_str("<p class=\"profile\">");
    if let Some(svg) = profile.histogram_svg.as_deref().filter(|s| !s.is_empty()) {
        out.push_str(svg);
        out.push(' ');
    }
    escape_html_into(&profile.facts.join("; "), out);
    if !profile.most_common.is_empty() {
        out.push_str("; most common: ");
        for (n, common) in profile.most_common.iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            escape_html_into(&common.value, out);
            out.push_str(" (");
            escape_html_into(&common.count, out);
            out.push(')');
        }
    }
    out.push_str(".</p>");
}

/// The `<li>` items of the columns the table leaves out: name, type and rows with a value.
pub fn column_summary(dataset: &Dataset, shown: &[usize]) -> String {
    let mut out = String::new();
    for (index, column) in columns(dataset, shown, false) {
        let filled = dataset.csv.profiles.get(index).map_or(0, |p| p.filled);
        out.push_str("<li id=\"column-");
        escape_html_into(&column.name, &mut out);
        out.push_str("\"><code>");
        escape_html_into(&column.name, &mut out);
        out.push_str("</code> ");
        out.push_str(column.column_type.as_str());
        out.push_str(", ");
        out.push_str(&crate::dataset::schema::thousands(filled));
        out.push_str(" filled</li>");
        out.push_str(ITEM_END);
    }
    out
}
