//! Ticks of a time axis on calendar boundaries: whole decades, years, quarters, months,
//! weeks or days, the smallest step that keeps at most a few ticks across the data's span,
//! each labelled as compactly as its step allows (`1960`, `1960-04`, `1960-04-11`).

use super::scale::day_number;
use crate::content::date_format::DateKind;
use crate::content::iso8601::{civil_from_days, weeks_in_year};

/// One step of a time axis, from the coarsest down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Years(i64),
    Months(i64),
    Days(i64),
}

/// Every step tried, smallest first.
const STEPS: [Step; 20] = [
    Step::Days(1),
    Step::Days(2),
    Step::Days(7),
    Step::Days(14),
    Step::Months(1),
    Step::Months(2),
    Step::Months(3),
    Step::Months(6),
    Step::Years(1),
    Step::Years(2),
    Step::Years(5),
    Step::Years(10),
    Step::Years(20),
    Step::Years(25),
    Step::Years(50),
    Step::Years(100),
    Step::Years(200),
    Step::Years(500),
    Step::Years(1000),
    Step::Years(10_000),
];

/// Ticks on calendar boundaries inside `lo..=hi` (days since 1970-01-01 UTC, with the
/// time of day as a fraction): whole days as [`calendar_ticks`] chooses them, or, over less
/// than three days, every 1, 2, 3, 6 or 12 hours (`2021-05-21 06:00`).
pub(super) fn moment_ticks(lo: f64, hi: f64, max: usize) -> Vec<(f64, String)> {
    if hi - lo >= 3.0 {
        return calendar_ticks(lo.ceil() as i64, hi.floor() as i64, max);
    }
    let max = max.max(2);
    let hours = [1.0, 2.0, 3.0, 6.0, 12.0, 24.0]
        .into_iter()
        .find(|h| (((hi - lo) * 24.0 / h).floor() as usize) < max)
        .unwrap_or(24.0);
    let step = hours / 24.0;
    let mut at = (lo / step).ceil() * step;
    let mut ticks = Vec::new();
    let mut last_day = None;
    while at <= hi + 1e-9 && ticks.len() < max {
        // Minutes since the epoch, rounded, so that float steps never label 05:59.
        let minutes = (at * 1440.0).round() as i64;
        let (day, minute) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
        let clock = format!("{:02}:{:02}", minute / 60, minute % 60);
        // The date once per day: `2021-05-21 00:00`, then `06:00`, `12:00`.
        let label = if last_day == Some(day) {
            clock
        } else {
            let (y, m, d) = civil_from_days(day);
            format!("{y:04}-{m:02}-{d:02} {clock}")
        };
        last_day = Some(day);
        ticks.push((at, label));
        at += step;
    }
    ticks
}

/// Ticks (day number, label) on calendar boundaries inside `lo..=hi` (day numbers since
/// 1970-01-01), at most `max` of them: the smallest step of [`STEPS`] that fits. A span of
/// one day gives that day.
pub(super) fn calendar_ticks(lo: i64, hi: i64, max: usize) -> Vec<(f64, String)> {
    if hi <= lo {
        let (y, m, d) = civil_from_days(lo);
        return vec![(lo as f64, format!("{y:04}-{m:02}-{d:02}"))];
    }
    let max = max.max(2);
    for step in STEPS {
        let ticks = ticks_of(step, lo, hi, max + 1);
        if (1..=max).contains(&ticks.len()) {
            return ticks;
        }
    }
    // Past ten millennia a step: the data's two ends.
    [lo, hi]
        .iter()
        .map(|&d| (d as f64, civil_from_days(d).0.to_string()))
        .collect()
}

/// Ticks of a time axis whose column has a date `format` of `kind`, labelled as its
/// cells are shown: quarter starts as `1974 Q1`, ISO weeks as `2019-W07`, months as
/// `2019-03` (never days between them), years as `1974`; days and date-times as
/// [`moment_ticks`] places them.
pub(super) fn period_ticks(kind: DateKind, lo: f64, hi: f64, max: usize) -> Vec<(f64, String)> {
    let (lo_day, hi_day) = (lo.ceil() as i64, (hi.floor() as i64).max(lo.ceil() as i64));
    let quarter = |(at, _): (f64, String)| {
        let (y, m, _) = civil_from_days(at as i64);
        (at, format!("{y:04} Q{}", (m - 1) / 3 + 1))
    };
    let allowed = |step: &Step| match kind {
        DateKind::Quarter => matches!(step, Step::Months(3) | Step::Months(6) | Step::Years(_)),
        DateKind::YearMonth => !matches!(step, Step::Days(_)),
        _ => matches!(step, Step::Years(_)),
    };
    let ticks = match kind {
        DateKind::Day | DateKind::DateTime { .. } => return moment_ticks(lo, hi, max),
        DateKind::Week => return week_ticks(lo_day, hi_day, max),
        _ => STEPS
            .iter()
            .filter(|step| allowed(step))
            .map(|step| ticks_of(*step, lo_day, hi_day, max.max(2) + 1))
            .find(|ticks| (1..=max.max(2)).contains(&ticks.len()))
            .unwrap_or_else(|| calendar_ticks(lo_day, lo_day, max)),
    };
    match kind {
        DateKind::Quarter => ticks.into_iter().map(quarter).collect(),
        _ => ticks,
    }
}

/// Ticks on the Mondays that start ISO weeks (`2019-W07`): every 1, 2, 4, 13 or 26 weeks
/// of each ISO year from its week 1, or week 1 of every 1, 2, 5, 10… years.
fn week_ticks(lo: i64, hi: i64, max: usize) -> Vec<(f64, String)> {
    let max = max.max(2);
    let (first, last) = (civil_from_days(lo).0 - 1, civil_from_days(hi).0 + 1);
    let steps = [1, 2, 4, 13, 26]
        .into_iter()
        .map(|weeks| (1, weeks))
        .chain([1, 2, 5, 10, 20, 50, 100, 1000].map(|years| (years, 53)));
    let mut ticks = Vec::new();
    for (years, weeks) in steps {
        ticks.clear();
        for year in (first..=last).filter(|y| y.rem_euclid(years) == 0) {
            for week in (1..=weeks_in_year(year)).step_by(weeks) {
                let label = format!("{year:04}-W{week:02}");
                match day_number(&label) {
                    Some(day) if (lo..=hi).contains(&day) => ticks.push((day as f64, label)),
                    _ => {}
                }
            }
            if ticks.len() > max {
                break;
            }
        }
        if (1..=max).contains(&ticks.len()) {
            return ticks;
        }
    }
    // One week, or more than ten centuries: the first week shown.
    let (year, _, _) = civil_from_days(lo);
    vec![(lo as f64, format!("{year:04}"))]
}

/// The ticks of `step` inside `lo..=hi`, stopping once there are more than `limit`.
fn ticks_of(step: Step, lo: i64, hi: i64, limit: usize) -> Vec<(f64, String)> {
    let mut ticks = Vec::new();
    let (year, month, _) = civil_from_days(lo);
    match step {
        Step::Years(k) => {
            let mut y = year.div_euclid(k) * k;
            while ticks.len() <= limit {
                let Some(day) = day_number(&format!("{y:04}")) else {
                    break;
                };
                if day > hi {
                    break;
                }
                if day >= lo {
                    ticks.push((day as f64, format!("{y}")));
                }
                y += k;
            }
        }
        Step::Months(k) => {
            // Months counted from year 0, aligned to the step (quarters start in January).
            let mut n = (year * 12 + month - 1).div_euclid(k) * k;
            while ticks.len() <= limit {
                let (y, m) = (n.div_euclid(12), n.rem_euclid(12) + 1);
                let Some(day) = day_number(&format!("{y:04}-{m:02}")) else {
                    break;
                };
                if day > hi {
                    break;
                }
                if day >= lo {
                    ticks.push((day as f64, format!("{y:04}-{m:02}")));
                }
                n += k;
            }
        }
        Step::Days(k) => {
            // Weeks start on Mondays; other steps on the data's first day.
            let start = if k % 7 == 0 {
                first_monday_from(lo)
            } else {
                lo
            };
            let mut day = start;
            while day <= hi && ticks.len() <= limit {
                let (y, m, d) = civil_from_days(day);
                ticks.push((day as f64, format!("{y:04}-{m:02}-{d:02}")));
                day += k;
            }
        }
    }
    ticks
}

/// The first Monday on or after day `day` (day 4, 1970-01-05, was a Monday).
fn first_monday_from(day: i64) -> i64 {
    day + (4 - day).rem_euclid(7)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> i64 {
        day_number(text).unwrap()
    }

    fn labels(lo: &str, hi: &str, max: usize) -> Vec<String> {
        calendar_ticks(day(lo), day(hi), max)
            .into_iter()
            .map(|(at, label)| {
                assert_eq!(at as i64, day(&label), "{label} sits at its own date");
                label
            })
            .collect()
    }

    #[test]
    fn days_round_trip() {
        for d in [-700_000, -1, 0, 1, 59, 60, 365, 11_016, 2_932_896] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(
                day_number(&format!("{y:04}-{m:02}-{dd:02}")),
                Some(d),
                "{d}"
            );
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(day("2024-02-29")), (2024, 2, 29));
    }

    #[test]
    fn short_spans_of_date_times_are_ticked_by_the_hour() {
        let ticks = moment_ticks(0.25, 0.75, 6);
        let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(
            labels,
            ["1970-01-01 06:00", "09:00", "12:00", "15:00", "18:00"]
        );
        assert!((ticks[1].0 - 9.0 / 24.0).abs() < 1e-12);
        // Three days or more: whole days, as dates are ticked.
        assert_eq!(moment_ticks(0.5, 40.2, 6), calendar_ticks(1, 40, 6));
    }

    fn period_labels(kind: DateKind, lo: &str, hi: &str) -> Vec<String> {
        let (lo, hi) = (day(lo) as f64, day(hi) as f64);
        period_ticks(kind, lo, hi, 6)
            .into_iter()
            .map(|(at, label)| {
                assert_eq!(Some(at as i64), day_number(&label), "{label} at its date");
                label
            })
            .collect()
    }

    #[test]
    fn formatted_dates_are_ticked_in_their_own_periods() {
        // Quarterly data over a year and a half: quarter starts, shown as quarters.
        assert_eq!(
            period_labels(DateKind::Quarter, "1974 Q1", "1975 Q2"),
            ["1974 Q1", "1974 Q2", "1974 Q3", "1974 Q4", "1975 Q1", "1975 Q2"]
        );
        // Over fifty years the ticks are decades, still read as quarters.
        assert_eq!(
            period_labels(DateKind::Quarter, "1959 Q1", "2009 Q3"),
            ["1960 Q1", "1970 Q1", "1980 Q1", "1990 Q1", "2000 Q1"]
        );
        // Weekly data over ten weeks: every other ISO week.
        assert_eq!(
            period_labels(DateKind::Week, "2019-W03", "2019-W12"),
            ["2019-W03", "2019-W05", "2019-W07", "2019-W09", "2019-W11"]
        );
        // Weekly data over four years: week 1 of each year.
        assert_eq!(
            period_labels(DateKind::Week, "2016-W10", "2019-W40"),
            ["2017-W01", "2018-W01", "2019-W01"]
        );
        // Monthly data over five months: months, never Mondays.
        assert_eq!(
            period_labels(DateKind::YearMonth, "2019-01", "2019-05"),
            ["2019-01", "2019-02", "2019-03", "2019-04", "2019-05"]
        );
        assert_eq!(
            period_labels(DateKind::YearMonth, "2019-01", "2019-02"),
            ["2019-01", "2019-02"]
        );
    }

    #[test]
    fn ticks_fall_on_calendar_boundaries_chosen_by_span() {
        // Weekly CO2 at Mauna Loa: decades.
        assert_eq!(
            labels("1958-03-29", "2001-12-29", 6),
            ["1960", "1970", "1980", "1990", "2000"]
        );
        // Four years of daily prices: years.
        assert_eq!(
            labels("2012-01-01", "2015-12-31", 6),
            ["2012", "2013", "2014", "2015"]
        );
        // A year and a half of monthly data: quarters.
        assert_eq!(
            labels("2019-02-01", "2020-06-01", 6),
            ["2019-04", "2019-07", "2019-10", "2020-01", "2020-04"]
        );
        // Three weeks: Mondays.
        let weeks = labels("2026-11-01", "2026-11-22", 4);
        assert_eq!(weeks, ["2026-11-02", "2026-11-09", "2026-11-16"]);
        // One day.
        assert_eq!(labels("2026-12-02", "2026-12-02", 6), ["2026-12-02"]);
        // Quarterly macro data over fifty years: ten-year steps.
        assert_eq!(
            labels("1959-01-01", "2009-07-01", 6),
            ["1960", "1970", "1980", "1990", "2000"]
        );
    }
}
