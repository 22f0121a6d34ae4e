//! What the Columns section shows of a column's profile: the counts, range, mean, distinct
//! and most common values as short phrases, and a small histogram drawn as inline SVG.

use crate::content::columns::{ColumnSpec, ColumnType};
use crate::dataset::scan::{ColumnProfile, Histogram, DISTINCT_CAP};
use crate::dataset::schema::{format_cell, thousands};
use crate::dataset::shown;
use crate::i18n::Words;
use crate::render::words::say;

/// Most common values shown per text column.
const MOST_COMMON: usize = 5;

/// The histogram's size in SVG units (drawn at this size in CSS pixels).
const WIDTH: f64 = 160.0;
const HEIGHT: f64 = 32.0;
/// [`HEIGHT`] as the SVG's numbers print it.
const HEIGHT_TEXT: &str = "32";

/// One column's profile, in words (HTML: its texts are escaped).
#[derive(Debug)]
pub struct ProfileView {
    /// Phrases joined into one sentence ("17 rows with a value", …), as HTML.
    pub facts: Vec<String>,
    /// The most common values, most common first (only when a value repeats).
    pub most_common: Vec<CommonValue>,
    /// The finished, escaped `<svg>` histogram of a numeric column.
    pub histogram_svg: Option<String>,
}

/// A value and how many rows hold it.
#[derive(Debug)]
pub struct CommonValue {
    pub value: String,
    pub count: String,
}

/// A mean at the column's `digits`, else to about four significant digits, grouped for
/// reading.
pub fn format_mean(mean: f64, digits: Option<u32>) -> String {
    if let Some(digits) = digits {
        return shown::fixed(mean, digits);
    }
    let magnitude = if mean == 0.0 {
        0
    } else {
        mean.abs().log10().floor() as i32
    };
    let decimals = (3 - magnitude).clamp(0, 6) as usize;
    let text = format!("{mean:.decimals$}");
    // "9.000" reads as a measured precision the mean does not have: "9".
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    let mut out = String::new();
    format_cell(ColumnType::Number, &text, &mut out);
    out
}

impl ProfileView {
    /// The profile of the column `spec` in the words and number marks of `words`; its
    /// histogram only when the column has at least `histogram_min` values.
    pub fn new(
        spec: &ColumnSpec,
        profile: &ColumnProfile,
        words: &Words,
        histogram_min: u64,
    ) -> ProfileView {
        let number = |english: &str| words.number(english).into_owned();
        let mut facts = vec![say(words, "profile.filled", Some(profile.filled), &[])];
        if profile.empty > 0 {
            facts.push(say(words, "profile.empty", Some(profile.empty), &[]));
        }
        let mut histogram_svg = None;
        if let Some(numbers) = &profile.numbers {
            let (min, max) = (
                number(&shown::cell(spec, &numbers.min_text)),
                number(&shown::cell(spec, &numbers.max_text)),
            );
            if min == max {
                // One value throughout: its range, mean and histogram would repeat it.
                facts.push(say(words, "profile.all", None, &[("value", &min)]));
            } else {
                facts.push(say(
                    words,
                    "profile.range",
                    None,
                    &[("min", &min), ("max", &max)],
                ));
                let mean = format_mean(numbers.mean(), spec.shown_digits());
                let mean = number(&shown::ungrouped_year(spec, mean));
                facts.push(say(words, "profile.mean", None, &[("mean", &mean)]));
                let range = (min.as_str(), max.as_str());
                if profile.filled >= histogram_min {
                    histogram_svg = Some(histogram(spec, range, &numbers.histogram, words));
                }
            }
        }
        if let Some(dates) = &profile.dates {
            let (min, max) = (dates.earliest.as_str(), dates.latest.as_str());
            facts.push(match min == max {
                true => say(words, "profile.all", None, &[("value", min)]),
                false => say(words, "profile.range", None, &[("min", min), ("max", max)]),
            });
        }
        let mut most_common = Vec::new();
        if let Some(text) = &profile.text {
            let cap = number(&thousands(DISTINCT_CAP as u64));
            facts.push(match (text.count(), text.estimate()) {
                (Some(n), _) => say(words, "profile.distinct", Some(n as u64), &[]),
                (None, Some(estimate)) => {
                    let about = number(&thousands(estimate.max(DISTINCT_CAP as u64 + 1)));
                    let args = [("about", about.as_str()), ("cap", &cap)];
                    say(words, "profile.distinct_estimated", None, &args)
                }
                (None, None) => say(words, "profile.distinct_over", None, &[("cap", &cap)]),
            });
            let top = text.most_common(MOST_COMMON);
            if top.first().is_some_and(|(_, count)| *count > 1) {
                most_common = top
                    .into_iter()
                    .map(|(value, count)| CommonValue {
                        value: value.to_string(),
                        count: number(&thousands(count)),
                    })
                    .collect();
            }
        }
        ProfileView {
            facts,
            most_common,
            histogram_svg,
        }
    }
}

/// A bar per bin, each with its range and count in a `<title>`; the whole an image titled
/// with what it shows (`range`: the column's least and greatest value as shown). Written
/// straight into one string: the pages of a large catalog draw tens of thousands of these,
/// so each byte that repeats per bar is left out: an empty bin draws nothing (a bar of no
/// height shows nothing and has no tooltip to point at), a bar is a short path from the
/// baseline, numbers drop trailing zeros, and the image's `width` and `height` are its
/// coordinates (no `viewBox`).
fn histogram(
    spec: &ColumnSpec,
    (min, max): (&str, &str),
    histogram: &Histogram,
    words: &Words,
) -> String {
    let width = histogram.width();
    // A bin's edge: at the column's `digits` (more if the bins are finer), else exact;
    // grouped as the column's numbers are in another language than English, whose pages
    // have always shown it ungrouped (`2560`).
    let marks = &words.locale.marks;
    let edge = |value: f64| {
        let english = match spec.shown_digits() {
            Some(digits) => shown::on_grid(value, width, Some(digits)),
            None if marks.is_english() => shortest(value),
            None => {
                let mut grouped = String::new();
                format_cell(ColumnType::Number, &shortest(value), &mut grouped);
                shown::ungrouped_year(spec, grouped)
            }
        };
        marks.number(&english).into_owned()
    };
    use std::fmt::Write as _;
    let bins = histogram.dense();
    let tallest = bins.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    // Few bins stay narrow bars rather than one block across the width.
    let bar = WIDTH / bins.len().max(10) as f64;
    let mut svg = String::with_capacity(200 + bins.len() * 80);
    // Writing into a String cannot fail.
    let _ = write!(
        svg,
        "<svg class=\"histogram\" role=\"img\" width=\"{WIDTH}\" height=\"{}\"><title>",
        HEIGHT + 1.0
    );
    let args = [
        ("title", spec.title.as_str()),
        ("min", min),
        ("max", max),
        ("width", &edge(width)),
    ];
    svg.push_str(&say(words, "profile.histogram", None, &args));
    svg.push_str("</title>");
    let mut bar_width = String::new();
    push_fixed2((bar - 1.0).max(0.5), &mut bar_width);
    let mut height = String::new();
    for (i, (lower, count)) in bins.iter().enumerate() {
        if *count == 0 {
            continue;
        }
        height.clear();
        push_fixed2(
            (*count as f64 / tallest * (HEIGHT - 2.0)).max(1.0),
            &mut height,
        );
        // Up from the baseline, across, and down again; then the label ("-128 to under
        // 0: 3 rows").
        svg.push_str("<path d=\"M");
        push_fixed2(i as f64 * bar + 0.5, &mut svg);
        svg.push(' ');
        svg.push_str(HEIGHT_TEXT);
        svg.push_str("v-");
        svg.push_str(&height);
        svg.push('h');
        svg.push_str(&bar_width);
        svg.push('v');
        svg.push_str(&height);
        svg.push_str("z\"><title>");
        let range = [("from", edge(*lower)), ("to", edge(lower + width))];
        let range = range.each_ref().map(|(k, v)| (*k, v.as_str()));
        svg.push_str(&say(words, "profile.bin", Some(*count), &range));
        svg.push_str("</title></path>");
    }
    let _ = write!(
        svg,
        "<path class=\"baseline\" d=\"M0 {HEIGHT}h{WIDTH}\"/></svg>"
    );
    svg
}

/// `value.to_string()`, with whole numbers (most bin edges: the bins are a power of two
/// wide) written as integers, which is the same text without the shortest-digits search.
fn shortest(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 && !(value == 0.0 && value.is_sign_negative()) {
        (value as i64).to_string()
    } else {
        value.to_string()
    }
}

/// Appends `value` rounded to two decimals as `format!("{value:.2}")` rounds it, without
/// trailing zeros (`12.5`, `32`). Where the rounding is clear (the hundredths are not
/// within a millionth of a half) it is done in integers; near-ties and huge values go
/// through `format!`, whose exact decimal rounding is slow but always right.
fn push_fixed2(value: f64, out: &mut String) {
    let start = out.len();
    push_two_decimals(value, out);
    let kept = out[start..]
        .trim_end_matches('0')
        .trim_end_matches('.')
        .len();
    out.truncate(start + kept);
}

/// Appends `value` with two decimals, exactly as `format!("{value:.2}")` does.
fn push_two_decimals(value: f64, out: &mut String) {
    use std::fmt::Write as _;
    let hundredths = value * 100.0;
    let rounded = hundredths.round();
    // The product is within a few units in the last place of the exact hundredths, far
    // less than a millionth below 1e9: away from a half, it rounds as the exact value does.
    let clear = ((hundredths - rounded).abs() - 0.5).abs() > 1e-6;
    if clear && rounded.abs() < 1e9 && !(rounded == 0.0 && value.is_sign_negative()) {
        let n = rounded as i64;
        let sign = if n < 0 { "-" } else { "" };
        let n = n.unsigned_abs();
        let _ = write!(out, "{sign}{}.{:02}", n / 100, n % 100);
    } else {
        let _ = write!(out, "{value:.2}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number_column() -> ColumnSpec {
        toml::from_str("name = \"v\"\ntitle = \"V\"\ntype = \"number\"\ndescription = \"d\"\n")
            .unwrap()
    }

    #[test]
    fn a_profile_is_said_in_the_page_language_and_marks() {
        let spec = number_column();
        let mut profile = ColumnProfile::default();
        for cell in ["-1234.5", "2693.5", "", "12"] {
            let _ = profile.add(cell, ColumnType::Number, 0, cell.parse().ok());
        }
        let fr = Words::load(std::path::Path::new("/nonexistent"), "fr", None).0;
        let view = ProfileView::new(&spec, &profile, &fr, 0);
        assert_eq!(
            view.facts,
            [
                "3 lignes renseignées",
                "1 ligne vide",
                "de -1\u{202f}234,5 à 2\u{202f}693,5",
                "moyenne 490,3"
            ]
        );
        let svg = view.histogram_svg.unwrap();
        assert!(
            svg.contains(
                "<title>Histogramme de V\u{a0}: valeurs de -1\u{202f}234,5 à 2\u{202f}693,5"
            ),
            "{svg}"
        );
        let en = ProfileView::new(&spec, &profile, &Words::english(), 0);
        assert_eq!(en.facts[2], "from -1,234.5 to 2,693.5");
        assert_eq!(en.facts[1], "1 empty");
    }

    #[test]
    fn means_read_without_false_precision() {
        assert_eq!(format_mean(9.0, None), "9");
        assert_eq!(format_mean(4.6041, None), "4.604");
        assert_eq!(format_mean(86_219.6, None), "86,220");
        assert_eq!(format_mean(0.001_234_5, None), "0.001234");
        assert_eq!(format_mean(-12.5, None), "-12.5");
        assert_eq!(format_mean(4.6041, Some(1)), "4.6");
        assert_eq!(format_mean(86_219.6, Some(2)), "86,219.60");
    }

    #[test]
    fn shortest_is_the_standard_formatting() {
        let mut values = vec![0.0, -0.0, 1.0, -1024.0, 896.0, 1e14, 1e15, 1e16, -3e20, 0.5];
        values.extend([
            f64::MIN_POSITIVE,
            2f64.powi(52),
            2f64.powi(53) + 2.0,
            12.125,
        ]);
        values.extend((-70..70).map(|e| 2f64.powi(e) * 3.0));
        for value in values {
            assert_eq!(shortest(value), value.to_string(), "{value:e}");
        }
    }

    #[test]
    fn fixed_two_decimals_match_the_standard_formatting() {
        let mut values = vec![
            0.0, -0.0, 0.5, 1.005, 2.675, -0.004, -0.005, 1e17, -1e-9, 99.995,
        ];
        values.extend((0..2000).map(|i| i as f64 * 160.0 / 17.0 + 0.5));
        values.extend((0..2000).map(|i| 32.0 - (i as f64 / 1999.0 * 30.0).max(1.0)));
        // Bar positions: thirds, sevenths and other fractions that are never near a tie.
        for bins in 1..=64 {
            let bar = 160.0 / bins as f64;
            values.extend((0..bins).map(|i| i as f64 * bar + 0.5));
            values.extend((0..bins).map(|i| -(i as f64 * bar) - 0.25));
        }
        values.extend([
            0.125,
            0.375,
            -0.125,
            1.115,
            2.345,
            1e8 + 0.333,
            9.999e8 + 0.005,
        ]);
        for value in values {
            let mut fast = String::new();
            push_two_decimals(value, &mut fast);
            assert_eq!(fast, format!("{value:.2}"), "{value}");
            let mut trimmed = String::from("x");
            push_fixed2(value, &mut trimmed);
            let exact = format!("{value:.2}");
            let exact = exact.trim_end_matches('0').trim_end_matches('.');
            assert_eq!(trimmed, format!("x{exact}"), "{value}");
        }
    }
}
