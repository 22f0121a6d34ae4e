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
use crate::dataset::schema::thousands;
use crate::dataset::Dataset;
use crate::text::escape_html_into;

/// The words of the items that end a list cut by the page budget, after a count.
const UNPROFILED: &str = " more columns without their profiles here, as the page has room for no more: every profile is in the Data Package";
const UNLISTED: &str = " more columns, as the page has room for no more: every column is named in the CSV and described in the Data Package";

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
/// Package), said in a last item.
pub fn column_list(dataset: &Dataset, shown: &[usize]) -> String {
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
        out.push_str(column.column_type.as_str());
        if let Some(unit) = column.unit.as_deref().filter(|u| !u.is_empty()) {
            out.push_str(", ");
            escape_html_into(unit, &mut out);
        }
        out.push_str(")</span>: ");
        escape_html_into(&column.description, &mut out);
        if let Some(profile) = dataset.csv.profiles.get(index) {
            let start = out.len();
            out.push_str("\n      ");
            profile_sentence(&ProfileView::new(column, profile), &mut out);
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
            &format!("{}{}", thousands(unprofiled as u64), UNPROFILED),
            &mut out,
        );
    }
    out
}

/// The last item of a list cut by the page budget.
fn more_item(text: &str, out: &mut String) {
    out.push_str("<li class=\"column-more\">");
    escape_html_into(text, out);
    out.push_str("</li>");
    out.push_str(ITEM_END);
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
pub fn column_summary(dataset: &Dataset, shown: &[usize], room: usize) -> String {
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
        out.push_str(column.column_type.as_str());
        out.push_str(", ");
        out.push_str(&thousands(filled));
        out.push_str(" filled</li>");
        out.push_str(ITEM_END);
    }
    if left > 0 {
        more_item(&format!("{}{}", thousands(left), UNLISTED), &mut out);
    }
    out
}
