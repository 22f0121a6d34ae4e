//! What `new --from` tells the author about each column it read: the constraints it
//! wrote, the markers it declared or kept as text, the marks, formats and grouping it
//! assumed.

use super::infer::{ColumnGuess, Kind};
use super::markers::Declared;
use crate::content::columns::NonFinite;
use crate::text::visible_line as shown;

/// The notes after a column's guessed type (`required`, `missing: `NA``…).
pub(super) fn notes(column: &ColumnGuess, declared: &Declared, is_key: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if column.required {
        notes.push("required".to_string());
    }
    if let Some(values) = &column.enum_values {
        notes.push(format!("enum of {}", values.len()));
    }
    if is_key {
        notes.push("unique, primary key".to_string());
    }
    if column.uniqueness == super::infer::Uniqueness::Unknown {
        notes.push("too many values to tell if unique".to_string());
    }
    if !column.markers.is_empty() {
        notes.push(format!("markers {}", shown(&marker_list(column))));
    }
    for (marker, example) in &column.kept_as_text {
        notes.push(match example {
            Some(like) => format!(
                "`{}` kept as text, not missing: written like the values (`{}`)",
                shown(marker),
                shown(like)
            ),
            None => format!("`{}` kept as text, not missing", shown(marker)),
        });
    }
    if declared.missing_values.len() > 1 {
        let tokens: Vec<String> = declared.missing_values[1..]
            .iter()
            .map(|t| format!("`{}`", shown(t)))
            .collect();
        notes.push(format!("missing: {}", tokens.join(", ")));
    }
    match declared.non_finite {
        Some(NonFinite::Pandas) => notes.push("pandas' inf/-inf/nan".to_string()),
        Some(NonFinite::R) => notes.push("R's Inf/-Inf/NaN".to_string()),
        None => {}
    }
    if let Some(note) = marks_note(column) {
        notes.push(note);
    }
    if column.name.is_empty() {
        notes.push("R's row names: the empty first header, documented as `name = \"\"`".into());
    }
    if let Some(found) = column.date_format.as_ref() {
        if column.column_type.is_time() {
            notes.push(format!("format {}", found.pattern));
        }
        if let Some(other) = found.other_reading {
            notes.push(format!(
                "assumed {} (month first): no day is past 12, it could be {other}",
                found.pattern
            ));
        }
    }
    if let Some(why) = column.ungrouped {
        notes.push(format!(
            "{why}: shown without group marks (`grouping = false`)"
        ));
    }
    if column.whole && column.column_type.is_numeric() {
        notes.push("whole numbers written with `.0`: shown without it (`digits = 0`)".into());
    }
    notes
}

pub(super) fn marker_list(column: &ColumnGuess) -> String {
    column
        .markers
        .iter()
        .map(|(m, n)| format!("`{m}` ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `new` assumed about a column's decimal and group marks, if anything.
pub(super) fn marks_note(column: &ColumnGuess) -> Option<String> {
    let marks = column.marks;
    match (marks.is_plain(), column.kind) {
        (true, _) => None,
        (false, Kind::Integer) => Some("whole numbers written 1.234: group points assumed".into()),
        (false, _) => Some(format!(
            "numbers written {}: decimal comma{} assumed",
            marks.example(),
            match marks.group {
                Some(_) => " and group points",
                None => "",
            }
        )),
    }
}
