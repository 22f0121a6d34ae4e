//! What `new` proposes beyond column types: a primary key and one chart, each only when
//! the table makes it obvious. Guesses for the author to keep or delete.

use super::infer::{ColumnGuess, Inference, Uniqueness};
use super::names;
use crate::dataset::schema::ColumnType;

/// Charts draw at most this many points; a bigger table gets no suggested chart.
const CHART_MAX_ROWS: u64 = 5_000;
/// A `bar` chart (one bar per row) is suggested only for this few rows.
const BAR_MAX_ROWS: u64 = 40;

/// The chart the table most obviously calls for: a numeric column against a date column
/// (a line, split by a short category column if there is one), against a column that
/// labels each row (bars), or against a short category column (dots).
pub fn suggest_chart(inference: &Inference) -> Option<ChartSuggestion> {
    if inference.rows == 0 || inference.rows > CHART_MAX_ROWS {
        return None;
    }
    let columns = &inference.columns;
    let key = proposed_key(inference);
    let y = columns.iter().enumerate().position(|(i, c)| {
        c.column_type.is_numeric() && Some(i) != key && c.empty < inference.rows
    })?;
    let category = columns
        .iter()
        .position(|c| c.enum_values.as_ref().is_some_and(|v| v.len() > 1));
    let name = |i: usize| columns[i].name.clone();
    if let Some(x) = columns
        .iter()
        .position(|c| c.column_type == ColumnType::Date)
    {
        let series = category.filter(|_| columns[x].uniqueness != Uniqueness::Unique);
        let kind = if series.is_some() || columns[x].uniqueness == Uniqueness::Unique {
            "line"
        } else {
            "dot"
        };
        return Some(ChartSuggestion {
            kind,
            x: name(x),
            y: name(y),
            series: series.map(name),
        });
    }
    let label = columns.iter().position(|c| {
        c.column_type == ColumnType::String && c.uniqueness == Uniqueness::Unique && c.required
    });
    if let Some(x) = label.filter(|_| inference.rows <= BAR_MAX_ROWS) {
        return Some(ChartSuggestion {
            kind: "bar",
            x: name(x),
            y: name(y),
            series: None,
        });
    }
    category.map(|x| ChartSuggestion {
        kind: "dot",
        x: name(x),
        y: name(y),
        series: None,
    })
}

/// `chart` as `check` will accept it: a line only through rows that form one series,
/// i.e. no two rows of `path` (at most [`CHART_MAX_ROWS`], the table a chart is suggested
/// for) share both `x` and `series`; otherwise the same points as dots, which need no
/// such order (a zigzag through 142 countries per continent would mislead).
pub fn as_checked(
    chart: ChartSuggestion,
    inference: &Inference,
    path: &std::path::Path,
    delimiter: u8,
) -> ChartSuggestion {
    if chart.kind != "line" {
        return chart;
    }
    let index = |name: &str| inference.columns.iter().position(|c| c.name == name);
    let (Some(x), series) = (index(&chart.x), chart.series.as_deref().and_then(index)) else {
        return chart;
    };
    let reader = std::fs::File::open(path).map(|file| {
        csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .from_reader(std::io::BufReader::new(file))
    });
    let Ok(mut reader) = reader else {
        return chart;
    };
    let mut seen = std::collections::HashSet::new();
    let mut record = csv::ByteRecord::new();
    while let Ok(true) = reader.read_byte_record(&mut record) {
        let cell = |i: usize| record.get(i).unwrap_or_default().to_vec();
        if !seen.insert((cell(x), series.map(cell))) {
            return ChartSuggestion {
                kind: "dot",
                ..chart
            };
        }
    }
    chart
}

/// A suggested `[[charts]]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSuggestion {
    pub kind: &'static str,
    pub x: String,
    pub y: String,
    pub series: Option<String>,
}

/// The column proposed as primary key: the first that can identify rows, in a table of
/// at least two rows (one row proves nothing).
pub fn proposed_key(inference: &Inference) -> Option<usize> {
    if inference.rows < 2 {
        return None;
    }
    inference.columns.iter().position(is_key_candidate)
}

/// A column that can identify rows: unique, never empty, and not a measurement (numbers
/// are often unique by chance, so an integer column must be named like an identifier).
fn is_key_candidate(column: &ColumnGuess) -> bool {
    let named_like_a_key = || {
        let title = names::title_and_unit(&column.name).0.to_lowercase();
        title
            .split(' ')
            .any(|w| ["id", "key", "code", "index", "rank", "no", "number"].contains(&w))
    };
    column.uniqueness == Uniqueness::Unique
        && column.required
        && match column.column_type {
            ColumnType::String | ColumnType::Date => true,
            ColumnType::Integer => named_like_a_key(),
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn inference(csv: &str) -> Inference {
        super::super::infer::infer_from(csv.as_bytes(), Path::new("t.csv"), b',').unwrap()
    }

    #[test]
    fn charts_follow_the_obvious_pair() {
        let by_date = inference(
            "day,kind,value\n2021-01-01,a,1\n2021-01-01,b,2\n2021-01-02,a,3\n2021-01-02,b,4\n",
        );
        let chart = suggest_chart(&by_date).unwrap();
        assert_eq!(
            (chart.kind, chart.x.as_str(), chart.y.as_str()),
            ("line", "day", "value")
        );
        assert_eq!(chart.series.as_deref(), Some("kind"));
        let labelled = inference("id,planet,km\n1,Mercury,4879\n2,Venus,12104\n");
        let chart = suggest_chart(&labelled).unwrap();
        assert_eq!(
            (chart.kind, chart.x.as_str(), chart.y.as_str()),
            ("bar", "planet", "km")
        );
        assert_eq!(suggest_chart(&inference("a,b\nx,y\n")), None);
    }

    #[test]
    fn a_line_is_suggested_only_through_one_series() {
        let dir = tempfile::tempdir().unwrap();
        let check = |csv: &str| {
            let path = dir.path().join("t.csv");
            std::fs::write(&path, csv).unwrap();
            let table = inference(csv);
            as_checked(suggest_chart(&table).unwrap(), &table, &path, b',').kind
        };
        // One row per day and kind: a line per kind.
        assert_eq!(
            check(
                "day,kind,value\n2021-01-01,a,1\n2021-01-01,b,2\n2021-01-02,a,3\n2021-01-02,b,4\n"
            ),
            "line"
        );
        // Several countries per continent and day (gapminder's shape): dots, not a zigzag.
        assert_eq!(
            check(
                "day,kind,value\n2021-01-01,a,1\n2021-01-01,a,2\n2021-01-02,b,3\n2021-01-02,b,4\n"
            ),
            "dot"
        );
    }
}
