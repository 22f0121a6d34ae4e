//! What `new` proposes beyond column types: a primary key and one chart, each only when
//! the table makes it obvious, the chart with the reason it was chosen (or why none
//! was). Guesses for the author to keep or delete.

use std::path::Path;

use super::infer::{ColumnGuess, Inference, Uniqueness};
use super::names;
use super::table_sample::TableSample;
use crate::content::chart_keys::READABLE_SERIES;
use crate::content::dialect::CsvDialect;
use crate::dataset::schema::ColumnType;

/// Charts draw at most this many points; a bigger table gets no suggested chart.
const CHART_MAX_ROWS: u64 = 5_000;
/// A `bar` chart (one bar per row) is suggested only for this few rows.
const BAR_MAX_ROWS: u64 = 40;
/// A `dot` chart of one dot per row on rows of categories is suggested only for this few
/// rows (22 px a dot, under the charts' 2,000 px budget with room for the category
/// names); a longer table gets one dot per category at the mean of its rows.
const DOT_MAX_ROWS: u64 = 60;

/// Words of a column name that say it identifies, counts or orders rows rather than
/// measuring something: never drawn as a value.
const NOT_A_MEASURE: &[&str] = &[
    "id", "key", "code", "index", "rank", "no", "number", "obs", "rownames", "row", "position",
    "order", "seq",
];
/// Names of time parts (`quarter` beside `year`): an axis, never a value.
const TIME_PARTS: &[&str] = &[
    "year", "quarter", "month", "week", "day", "hour", "minute", "period", "date", "time",
];
/// Last words that make columns variants of one measure (`temp_max`, `temp_min`), drawn
/// together as several `y` when the table has one row per time.
const VARIANTS: &[&str] = &[
    "max", "min", "mean", "avg", "median", "low", "high", "open", "close", "lower", "upper",
    "male", "female", "men", "women",
];

/// The chart the table calls for, with the reason, or why there is none. A numeric
/// column that measures something (not a key, identifier, row counter or time part)
/// against a date column: a line when each date has one row (several `y` for variants of
/// one measure), split by the column that makes date and series unique (`highlight` past
/// [`READABLE_SERIES`] lines), else the mean per date; without a date, bars for a
/// column that labels each of a few rows, or dots by a short category column.
pub fn suggest_chart(
    inference: &Inference,
    path: &Path,
    dialect: CsvDialect,
) -> Result<ChartSuggestion, String> {
    if inference.rows == 0 {
        return Err("the table has no rows".into());
    }
    if inference.rows > CHART_MAX_ROWS {
        return Err(format!(
            "the table has more than {CHART_MAX_ROWS} rows, more points than a chart draws; add a chart with a `filter`"
        ));
    }
    let Some(sample) = TableSample::read(path, dialect, CHART_MAX_ROWS) else {
        return Err("the file could not be read a second time".into());
    };
    let (values, left_out) = value_columns(inference, &sample);
    let listed = |before: &str| match left_out.is_empty() {
        true => String::new(),
        false => format!("{before}{}", left_out.join(", ")),
    };
    if values.is_empty() {
        return Err(format!(
            "no numeric column measures something{}",
            listed(": ")
        ));
    }
    let columns = &inference.columns;
    let table = Table {
        inference,
        sample,
        values,
        left_out_note: listed("; not a value: "),
        category: (columns.iter())
            .position(|c| c.enum_values.as_ref().is_some_and(|v| v.len() > 1)),
    };
    let date = columns
        .iter()
        .position(|c| c.column_type == ColumnType::Date);
    match date {
        Some(x) => Ok(table.line(x)),
        None => table.without_date(),
    }
}

/// The numeric columns that measure something, and those left out with why
/// (`` `n` (it counts the rows) ``).
fn value_columns(inference: &Inference, sample: &TableSample) -> (Vec<usize>, Vec<String>) {
    let columns = &inference.columns;
    let key = proposed_key(inference);
    let (mut values, mut left_out) = (Vec::new(), Vec::new());
    let numeric =
        |&i: &usize| columns[i].column_type.is_numeric() && columns[i].empty < inference.rows;
    for i in (0..columns.len()).filter(numeric) {
        match not_a_measure(&columns[i], Some(i) == key, sample, i) {
            Some(why) => left_out.push(format!("`{}` ({why})", columns[i].name)),
            None => values.push(i),
        }
    }
    (values, left_out)
}

/// What choosing a chart reads: the guessed columns, the sampled rows, the columns that
/// measure something (the first is drawn) and the note on those left out.
struct Table<'a> {
    inference: &'a Inference,
    sample: TableSample,
    values: Vec<usize>,
    /// `; not a value: …`, after each reason; empty when no numeric column is left out.
    left_out_note: String,
    /// The first column of a short list of categories (an `enum` of two values or more).
    category: Option<usize>,
}

impl Table<'_> {
    /// The name of column `i`.
    fn name(&self, i: usize) -> String {
        self.inference.columns[i].name.clone()
    }

    /// The series of a line of the first value column along `x`, split by column `s`:
    /// those with a value to draw (a series whose every value is missing draws no line,
    /// so it cannot be highlighted); all of them when the values are not plain numbers.
    fn drawn(&self, s: usize, x: usize) -> Vec<&str> {
        let drawn = self.sample.distinct_drawn(s, x, self.values[0]);
        match drawn.len() {
            0 | 1 => self.sample.distinct(s),
            _ => drawn,
        }
    }

    /// A chart of `kind` that draws the first value column along `x`, for `reason`.
    fn chart(&self, kind: &'static str, x: usize, reason: String) -> ChartSuggestion {
        ChartSuggestion {
            kind,
            x: self.name(x),
            y: vec![self.name(self.values[0])],
            series: None,
            highlight: Vec::new(),
            aggregate: None,
            reason: format!("{reason}{}", self.left_out_note),
        }
    }

    /// A line along the date column `x`: one per value column that varies one measure
    /// when each date has one row, else one per value of the column that makes the rows
    /// of a date unique, else the mean of the rows that share a date.
    fn line(&self, x: usize) -> ChartSuggestion {
        let (columns, xn) = (&self.inference.columns, self.name(x));
        if self.sample.unique(x, None) {
            let group = variants(columns, &self.values);
            if group.len() > 1 {
                let names: Vec<String> = group.iter().map(|&i| self.name(i)).collect();
                let reason = format!(
                    "`{xn}` is a time axis with one row per value, and {} are variants of one measure: one line each",
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                );
                return ChartSuggestion {
                    y: names,
                    ..self.chart("line", x, reason)
                };
            }
            let reason = format!("`{xn}` is a time axis with one row per value");
            return self.chart("line", x, reason);
        }
        // Rows share a date: the column that tells them apart makes one line each.
        let mut splits: Vec<(usize, Vec<&str>)> = (0..columns.len())
            .filter(|&s| s != x && columns[s].column_type == ColumnType::String)
            .filter(|&s| self.sample.unique(x, Some(s)))
            .map(|s| (s, self.sample.distinct(s)))
            .collect();
        splits.sort_by_key(|(_, distinct)| distinct.len());
        if let Some((s, _)) = splits.first() {
            let sn = self.name(*s);
            let reason = format!(
                "`{xn}` is a time axis and each `{xn}` and `{sn}` pair is one row: one line per `{sn}`"
            );
            return split_by(self.chart("line", x, reason), sn, &self.drawn(*s, x));
        }
        let mean = |reason| ChartSuggestion {
            aggregate: Some("mean"),
            ..self.chart("line", x, reason)
        };
        match self.category {
            Some(c) => {
                let cn = self.name(c);
                let reason = format!(
                    "`{xn}` is a time axis but rows share a `{xn}` and `{cn}` pair: a line of their mean per `{cn}`"
                );
                split_by(mean(reason), cn, &self.drawn(c, x))
            }
            None => mean(format!(
                "`{xn}` is a time axis but up to {} rows share a value and no column tells them apart: a line of their mean",
                self.sample.most_per_value(x)
            )),
        }
    }

    /// Without a date column: a bar per row for a column that names each of a few rows,
    /// else a dot per row (or per category, at the mean of its rows) along a short list
    /// of categories.
    fn without_date(&self) -> Result<ChartSuggestion, String> {
        let (columns, rows) = (&self.inference.columns, self.inference.rows);
        let label = columns.iter().position(|c| {
            c.column_type == ColumnType::String && c.uniqueness == Uniqueness::Unique && c.required
        });
        if let Some(x) = label.filter(|_| rows <= BAR_MAX_ROWS) {
            let reason = format!("`{}` names each of {rows} rows: one bar each", self.name(x));
            return Ok(self.chart("bar", x, reason));
        }
        let Some(x) = self.category else {
            return Err(format!(
                "no date column to draw a line along, no column naming each of at most {BAR_MAX_ROWS} rows, and no short list of categories{}",
                self.left_out_note
            ));
        };
        let xn = self.name(x);
        if rows <= DOT_MAX_ROWS {
            let reason =
                format!("no date column; `{xn}` is a short list of categories: one dot per row");
            return Ok(self.chart("dot", x, reason));
        }
        let reason = format!(
            "no date column; `{xn}` is a short list of categories, and {rows} rows are too many for a dot each: one dot per `{xn}` at the mean of its rows"
        );
        Ok(ChartSuggestion {
            aggregate: Some("mean"),
            ..self.chart("dot", x, reason)
        })
    }
}

/// Why a numeric column is not a value to draw, if it is not.
fn not_a_measure(
    column: &ColumnGuess,
    is_key: bool,
    sample: &TableSample,
    index: usize,
) -> Option<&'static str> {
    let lower = column.name.trim().to_lowercase();
    let words: Vec<String> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    if is_key {
        Some("the primary key")
    } else if words.is_empty() || lower.starts_with("unnamed") {
        Some("an unnamed index column")
    } else if words.iter().any(|w| NOT_A_MEASURE.contains(&w.as_str())) {
        Some("an identifier, code or position")
    } else if words.len() == 1 && TIME_PARTS.contains(&words[0].as_str()) {
        Some("a time or a part of one, written as a number")
    } else if let Some(why) = column.ungrouped {
        // Codes (`AirportID`, subject numbers) and clock times, as `grouping = false` says.
        Some(why)
    } else if column.column_type == ColumnType::Integer && sample.counts_rows(index) {
        Some("it counts the rows")
    } else {
        None
    }
}

/// The largest group (2 to [`READABLE_SERIES`]) of value columns that are variants of one
/// measure: the same unit written in their names, or the same first words ending in a
/// variant word (`temp_max`, `temp_min`).
fn variants(columns: &[ColumnGuess], values: &[usize]) -> Vec<usize> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for &i in values {
        let (_, unit) = names::title_and_unit(&columns[i].name);
        let lower = columns[i].name.to_lowercase();
        let words: Vec<&str> = lower.split(['_', ' ', '-', '.']).collect();
        let stem = match (unit, words.split_last()) {
            (Some(unit), _) => format!("unit {unit}"),
            (None, Some((last, stem))) if !stem.is_empty() && VARIANTS.contains(last) => {
                format!("stem {}", stem.join(" "))
            }
            _ => continue,
        };
        match groups.iter_mut().find(|(s, _)| *s == stem) {
            Some((_, members)) => members.push(i),
            None => groups.push((stem, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, members)| members)
        .filter(|members| members.len() <= READABLE_SERIES)
        .max_by_key(|members| (members.len(), std::cmp::Reverse(members[0])))
        .unwrap_or_default()
}

/// The suggestion split into one line per value of column `column`, whose values are
/// `series`. Past [`READABLE_SERIES`] lines, two of them are highlighted (the others
/// drawn as grey context), and the reason says so: the author names the ones the text is
/// about.
fn split_by(mut suggestion: ChartSuggestion, column: String, series: &[&str]) -> ChartSuggestion {
    suggestion.series = Some(column);
    if series.len() > READABLE_SERIES {
        suggestion.highlight = series.iter().take(2).map(|v| v.to_string()).collect();
        suggestion.reason.push_str(&format!(
            "; {} lines are too many to tell apart, so two are highlighted (name the ones your text is about)",
            series.len()
        ));
    }
    suggestion
}

/// A suggested `[[charts]]` entry and why it was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSuggestion {
    pub kind: &'static str,
    pub x: String,
    /// One column, or several variants of one measure drawn as one line each.
    pub y: Vec<String>,
    pub series: Option<String>,
    /// Series drawn in colour when there are more than a reader can tell apart.
    pub highlight: Vec<String>,
    /// How rows that share `x` become one point, when nothing tells them apart.
    pub aggregate: Option<&'static str>,
    /// Why this chart: said by `new`.
    pub reason: String,
}

/// The column proposed as primary key: the first that can identify rows, in a table of
/// at least two rows (one row proves nothing) and two columns (a key names the rows of
/// other values; a lone column is as often a file whose separator was not found).
pub fn proposed_key(inference: &Inference) -> Option<usize> {
    if inference.rows < 2 || inference.columns.len() < 2 {
        return None;
    }
    inference.columns.iter().position(is_key_candidate)
}

/// A column that can identify rows: unique, never empty, and not a measurement (numbers
/// are often unique by chance, so an integer column must be named like an identifier).
pub(super) fn is_key_candidate(column: &ColumnGuess) -> bool {
    // Words set off by separators only: `NoVacc` (a count of the unvaccinated) holds no
    // word "no". "No" and "number" name a key only last (`case_no`); first they count
    // (`no_children`).
    let named_like_a_key = || {
        let lower = column.name.to_lowercase();
        let words: Vec<&str> = lower
            .split(['_', '-', '.', ' '])
            .filter(|w| !w.is_empty())
            .collect();
        let last = words.last().copied().unwrap_or_default();
        words
            .iter()
            .any(|w| ["id", "key", "code", "index", "rank"].contains(w))
            || (words.len() > 1 && ["no", "number", "nr"].contains(&last))
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

    #[test]
    fn an_integer_key_is_named_like_one_in_whole_words() {
        let table = |name: &str| {
            let csv = format!("{name},v\n1,a\n2,b\n3,c\n");
            super::super::infer::infer_from(csv.as_bytes(), std::path::Path::new("t.csv"), b',')
                .unwrap()
        };
        for name in ["station_id", "case_no", "ID", "row-index", "Order.Number"] {
            assert_eq!(proposed_key(&table(name)), Some(0), "{name}");
        }
        // A count, a ratio: not keys (the text column `v` is proposed instead).
        for name in ["NoVacc", "no_children", "number", "Unidentified", "pidx"] {
            assert_eq!(proposed_key(&table(name)), Some(1), "{name}");
        }
        // One column (a space-separated file read whole): no key.
        let lone = "'OBS' 'GPA'\n'1' '2.66'\n'2' '2.89'\n";
        let inference =
            super::super::infer::infer_from(lone.as_bytes(), std::path::Path::new("t.csv"), b',')
                .unwrap();
        assert_eq!(proposed_key(&inference), None);
    }

    /// The suggestion for `csv`, written to a file as `new` reads it.
    fn suggest(csv: &str) -> Result<ChartSuggestion, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        let table = super::super::infer::infer_from(csv.as_bytes(), &path, b',').unwrap();
        suggest_chart(&table, &path, CsvDialect::COMMA)
    }

    fn shape(chart: &ChartSuggestion) -> (&str, &str, String, Option<&str>) {
        (
            chart.kind,
            chart.x.as_str(),
            chart.y.join(","),
            chart.series.as_deref(),
        )
    }

    #[test]
    fn a_line_per_series_when_date_and_series_are_unique() {
        let chart = suggest(
            "day,kind,value\n2021-01-01,a,1\n2021-01-01,b,5\n2021-01-02,a,3\n2021-01-02,b,4\n",
        )
        .unwrap();
        assert_eq!(shape(&chart), ("line", "day", "value".into(), Some("kind")));
        assert!(chart
            .reason
            .contains("each `day` and `kind` pair is one row"));
        let labelled = suggest("id,planet,km\n1,Mercury,4879\n2,Venus,12104\n").unwrap();
        assert_eq!(shape(&labelled), ("bar", "planet", "km".into(), None));
        let none = suggest("a,b\nx,y\n").unwrap_err();
        assert!(
            none.contains("no numeric column measures something"),
            "{none}"
        );
    }

    #[test]
    fn rows_sharing_a_date_are_a_mean_not_a_zigzag() {
        let chart = suggest(
            "day,kind,value\n2021-01-01,a,1\n2021-01-01,a,5\n2021-01-02,b,3\n2021-01-02,b,4\n",
        )
        .unwrap();
        assert_eq!(chart.kind, "line");
        assert_eq!(chart.aggregate, Some("mean"));
        assert!(
            chart.reason.contains("a line of their mean"),
            "{}",
            chart.reason
        );
    }

    #[test]
    fn counters_identifiers_and_time_parts_are_never_the_value() {
        // R's rownames, a counter, a quarter and a code.
        let csv = "rownames,Obs,year,quarter,site_code,gdp\n1,1,2001,1,7,10.5\n2,2,2002,2,9,11.5\n3,3,2003,3,4,12.0\n";
        let chart = suggest(csv).unwrap();
        assert_eq!(shape(&chart), ("line", "year", "gdp".into(), None));
        for left_out in ["`rownames`", "`Obs`", "`quarter`", "`site_code`"] {
            assert!(
                chart.reason.contains(left_out),
                "{left_out}: {}",
                chart.reason
            );
        }
        let counted = suggest("n,value\n1,5\n2,7\n3,9\n").unwrap_err();
        assert!(counted.contains("`n` (it counts the rows)"), "{counted}");
        let pandas = suggest("Unnamed: 0,day,v\n0,2020-01-01,3\n1,2020-01-02,4\n").unwrap();
        assert_eq!(pandas.y, ["v"]);
    }

    #[test]
    fn a_dot_per_row_only_while_it_fits_else_the_mean_per_category() {
        // nycflights13's planes: 3,322 planes of three types.
        let mut planes = String::from("tailnum,type,engines\n");
        for i in 0..200 {
            let kind = ["multi", "single", "rotor"][i % 3];
            planes.push_str(&format!("N{i},{kind},{}\n", i % 4 + 1));
        }
        let chart = suggest(&planes).unwrap();
        assert_eq!(shape(&chart), ("dot", "type", "engines".into(), None));
        assert_eq!(chart.aggregate, Some("mean"));
        assert!(
            chart.reason.contains("mean of its rows"),
            "{}",
            chart.reason
        );
        let few = suggest("kind,v\na,5\nb,2\na,7\nb,4\n").unwrap();
        assert_eq!((few.kind, few.aggregate), ("dot", None));
    }

    #[test]
    fn codes_and_subject_numbers_are_never_the_value() {
        // AirportID (SFO's numbers), a subject number (R's sleepstudy), `Ss`.
        let csv = "AirportID,Subject,Ss\n1,308,1\n2,308,1\n3,309,2\n";
        let chart = suggest(csv).unwrap_err();
        for code in ["`AirportID`", "`Subject`", "`Ss`"] {
            assert!(
                chart.contains(&format!("{code} (a code")),
                "{code}: {chart}"
            );
        }
    }

    #[test]
    fn a_highlighted_series_has_values_to_draw() {
        // openintro's hfi: a country whose measure is missing every year draws no line, so
        // `check` refuses it in `highlight` (the first two countries, Albania and Algeria).
        let mut csv = String::from("year,code,score\n");
        for year in [2008, 2009] {
            csv.push_str(&format!("{year},ALB,5.1\n{year},DZA,\n"));
            for code in ["ARG", "AUS", "AUT", "BHS", "BGD", "BRB", "BLR", "BEL"] {
                csv.push_str(&format!("{year},{code},4.{year}\n"));
            }
        }
        let chart = suggest(&csv).unwrap();
        assert_eq!(chart.series.as_deref(), Some("code"));
        assert_eq!(chart.highlight, ["ALB", "ARG"]);
        assert!(
            chart.reason.contains("9 lines are too many"),
            "{}",
            chart.reason
        );
    }

    #[test]
    fn variants_of_one_measure_share_a_chart_and_many_series_get_a_highlight() {
        let wide = suggest(
            "date,temp_max,temp_min,wind\n2012-01-01,12.8,5.0,4.7\n2012-01-02,10.6,2.8,4.5\n",
        )
        .unwrap();
        assert_eq!(wide.y, ["temp_max", "temp_min"]);
        assert!(wide.reason.contains("variants of one measure"));
        let mut many = String::from("year,country,life\n");
        for country in ["A", "B", "C", "D", "E", "F", "G", "H", "I"] {
            for year in [1952, 1957] {
                many.push_str(&format!("{year},{country},50\n"));
            }
        }
        let chart = suggest(&many).unwrap();
        assert_eq!(chart.series.as_deref(), Some("country"));
        assert_eq!(chart.highlight, ["A", "B"]);
        assert!(chart.reason.contains("9 lines are too many"));
        // A mean per category past the readable count too (HistData's OldMaps: 11 names).
        let mut shared = String::from("year,name,v\n");
        for name in ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"] {
            for _ in 0..2 {
                shared.push_str(&format!("1700,{name},1\n1750,{name},2\n"));
            }
        }
        let chart = suggest(&shared).unwrap();
        assert_eq!(chart.aggregate, Some("mean"));
        assert_eq!(chart.series.as_deref(), Some("name"));
        assert_eq!(chart.highlight, ["A", "B"]);
        assert!(
            chart.reason.contains("11 lines are too many"),
            "{}",
            chart.reason
        );
    }
}
