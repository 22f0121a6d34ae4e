//! ISO 8601 dates as datapages reads them: `temporal_coverage` as schema.org reads it (a
//! date or date-time, or an interval of them: `start/end`, `..` for an open end), and the
//! date predicate date cells are checked with. Durations (`P1Y`) are left out: a period a
//! table covers is best stated by its dates.

/// Why `value` is not a date, date-time or interval of them, if it is not.
pub fn coverage_problem(value: &str) -> Option<String> {
    let parts: Vec<&str> = value.split('/').collect();
    match parts.as_slice() {
        [single] if *single == ".." => {
            Some("`..` (an open end) only stands for one end of an interval".into())
        }
        [single] => instant(single).err(),
        [start, end] => interval(start, end).err(),
        _ => Some("an interval has one `/`, between its start and its end".into()),
    }
}

fn interval(start: &str, end: &str) -> Result<(), String> {
    if start == ".." && end == ".." {
        return Err("an interval needs at least one of its ends".into());
    }
    if start != ".." {
        instant(start).map_err(|e| format!("its start: {e}"))?;
    }
    if end != ".." {
        instant(end).map_err(|e| format!("its end: {e}"))?;
    }
    if start != ".." && end != ".." {
        // Dates in ISO 8601 sort as text; compare at the precision both give.
        let (a, b) = (date_part(start), date_part(end));
        let common = a.len().min(b.len());
        if b[..common] < a[..common] {
            return Err(format!(
                "the interval ends ({end}) before it starts ({start})"
            ));
        }
    }
    Ok(())
}

fn date_part(instant: &str) -> &str {
    instant.split('T').next().unwrap_or(instant)
}

/// A date (`2021`, `2021-05`, `2021-05-21`) or a date-time (`2021-05-21T10:00`,
/// `2021-05-21T10:00:00.5Z`, `2021-05-21T10:00:00+02:00`), as date cells are checked.
fn instant(text: &str) -> Result<(), String> {
    if is_iso_date(text) {
        Ok(())
    } else {
        Err(format!(
            "`{text}` is not a date (YYYY, YYYY-MM, YYYY-MM-DD) or a date-time (YYYY-MM-DDThh:mm:ssZ)"
        ))
    }
}

/// An ISO 8601 date-time with a time zone, as `datetime` cells are checked: a full date,
/// `T`, a time, and `Z` or an offset (`+02:00`, `-05:00`).
pub fn is_iso_datetime(value: &str) -> bool {
    let Some((date, time)) = value.split_once('T') else {
        return false;
    };
    let b = time.as_bytes();
    let zoned = time.ends_with('Z')
        || (b.len() > 6 && matches!(b[b.len() - 6], b'+' | b'-') && b[b.len() - 3] == b':');
    date.len() == 10 && zoned && is_iso_date(value)
}

/// ISO 8601 calendar dates at year, month or day precision, optionally with a time.
pub fn is_iso_date(value: &str) -> bool {
    // The common shape, YYYY-MM-DD, without splitting or parsing.
    let b = value.as_bytes();
    if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
        let digit = |i: usize| (b[i] as char).to_digit(10);
        let number = |range: std::ops::Range<usize>| {
            range.map(digit).try_fold(0u32, |n, d| Some(n * 10 + d?))
        };
        return match (number(0..4), number(5..7), number(8..10)) {
            (Some(y), Some(m), Some(d)) => {
                (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
            }
            _ => false,
        };
    }
    let (date, time) = match value.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (value, None),
    };
    // At most three parts; a fourth makes it invalid. No allocation: this runs per cell.
    let mut parts: [&str; 3] = [""; 3];
    let mut count = 0;
    for part in date.splitn(4, '-') {
        if count == 3 {
            return false;
        }
        parts[count] = part;
        count += 1;
    }
    let parts = &parts[..count];
    let number = |s: &str, len: usize| -> Option<u32> {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let date_ok = match parts {
        [y] => number(y, 4).is_some(),
        [y, m] => number(y, 4).is_some() && number(m, 2).is_some_and(|m| (1..=12).contains(&m)),
        [y, m, d] => match (number(y, 4), number(m, 2), number(d, 2)) {
            (Some(y), Some(m), Some(d)) => {
                (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
            }
            _ => false,
        },
        _ => false,
    };
    date_ok && time.is_none_or(|t| parts.len() == 3 && is_iso_time(t))
}

fn is_iso_time(value: &str) -> bool {
    let (clock, zone) = if let Some(clock) = value.strip_suffix('Z') {
        (clock, None)
    } else if let Some(i) = value.rfind(['+', '-']) {
        (&value[..i], Some(&value[i + 1..]))
    } else {
        (value, None)
    };
    let clock = clock.split('.').next().unwrap_or(clock);
    let fields: Vec<&str> = clock.split(':').collect();
    let two = |s: &str, max: u32| s.len() == 2 && s.parse::<u32>().is_ok_and(|v| v <= max);
    let clock_ok = match fields.as_slice() {
        [h, m] => two(h, 23) && two(m, 59),
        [h, m, s] => two(h, 23) && two(m, 59) && two(s, 60),
        _ => false,
    };
    let zone_ok = zone.is_none_or(|z| match z.split_once(':') {
        Some((h, m)) => two(h, 23) && two(m, 59),
        None => false,
    });
    clock_ok && zone_ok
}

/// Where a date or date-time lies on a time axis, in days since 1970-01-01 UTC: the day
/// of [`day_number`], plus the time of day of a date-time (`2011-09-19T17:54:28+02:00` is
/// 15:54:28 UTC: 0.6628… of its day; one without a zone, as a `format` without `%z`
/// shows it, as if in UTC, where the explorer places it too).
pub fn day_position(text: &str) -> Option<f64> {
    let day = day_number(text)? as f64;
    let Some((_, time)) = text.split_once('T') else {
        return Some(day);
    };
    let (clock, offset_minutes) = match (time.strip_suffix('Z'), time.rfind(['+', '-'])) {
        (Some(clock), _) => (clock, 0.0),
        (None, None) => (time, 0.0),
        (None, Some(at)) => {
            let (clock, zone) = time.split_at(at);
            let sign = if zone.starts_with('-') { -1.0 } else { 1.0 };
            let (h, m) = zone[1..].split_once(':')?;
            let minutes = h.parse::<f64>().ok()? * 60.0 + m.parse::<f64>().ok()?;
            (clock, sign * minutes)
        }
    };
    let mut parts = clock.split(':');
    let hours: f64 = parts.next()?.parse().ok()?;
    let minutes: f64 = parts.next().map_or(Some(0.0), |m| m.parse().ok())?;
    let seconds: f64 = parts.next().map_or(Some(0.0), |s| s.parse().ok())?;
    let minutes_utc = hours * 60.0 + minutes + seconds / 60.0 - offset_minutes;
    Some(day + minutes_utc / 1440.0)
}

/// Days since 1970-01-01 of an ISO 8601 date (`2021`, `2021-04`, `2021-05-21`, with or
/// without a time, which is ignored).
pub fn day_number(text: &str) -> Option<i64> {
    if let Some(day) = week_or_quarter_start(text) {
        return Some(day);
    }
    let date = text.split('T').next()?;
    let mut parts = date.split('-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next().map_or(Some(1), |m| m.parse().ok())?;
    let day: i64 = parts.next().map_or(Some(1), |d| d.parse().ok())?;
    if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// The (year, month, day) of a day count since 1970-01-01 in the proleptic Gregorian
/// calendar (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The first day of an ISO week (`2019-W07`: its Monday) or of a quarter (`1974 Q1`), the
/// shapes a `format` shows them in (`content::date_format`).
fn week_or_quarter_start(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let year: i64 = text.get(..4)?.parse().ok()?;
    if b.len() == 8 && &b[4..6] == b"-W" {
        let week: i64 = text[6..].parse().ok()?;
        if !(1..=weeks_in_year(year).into()).contains(&week) {
            return None;
        }
        let january_4 = day_number(&format!("{year:04}-01-04"))?;
        return Some(january_4 - weekday(january_4) + 7 * (week - 1));
    }
    if b.len() == 7 && &b[4..6] == b" Q" {
        let quarter: i64 = text[6..].parse().ok().filter(|q| (1..=4).contains(q))?;
        return day_number(&format!("{year:04}-{:02}", 3 * quarter - 2));
    }
    None
}

/// A date or date-time as ISO 8601 has it, or a week (`2019-W07`) or quarter (`1974 Q1`)
/// as a `format` shows it: what a date column's profile takes.
pub fn is_shown_date(value: &str) -> bool {
    is_iso_date(value) || week_or_quarter_start(value).is_some()
}

/// The day of the week of a day count since 1970-01-01: Monday 0 … Sunday 6.
fn weekday(days: i64) -> i64 {
    (days + 3).rem_euclid(7)
}

/// 53 when the ISO week-numbering `year` has a week 53 (it starts on a Thursday, or is a
/// leap year starting on a Wednesday), else 52.
pub fn weeks_in_year(year: i64) -> u32 {
    let Some(january_1) = day_number(&format!("{year:04}-01-01")) else {
        return 52;
    };
    let leap = days_in_month(year.max(0) as u32, 2) == 29;
    match weekday(january_1) {
        3 => 53,
        2 if leap => 53,
        _ => 52,
    }
}

/// Days in `month` of `year` (proleptic Gregorian).
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_lie_at_their_utc_moment() {
        assert_eq!(day_position("1970-01-02"), Some(1.0));
        assert_eq!(day_position("1970-01-01T12:00:00Z"), Some(0.5));
        assert_eq!(day_position("1970-01-01T14:00:00+02:00"), Some(0.5));
        assert_eq!(day_position("1970-01-01T06:00:00-06:00"), Some(0.5));
        assert_eq!(day_position("1970-01-01T00:00:00.5Z"), Some(0.5 / 86_400.0));
        assert_eq!(day_position("1970-01-01T10:00+02:00"), Some(8.0 / 24.0));
        assert_eq!(
            day_position("1970-01-01T06:00"),
            Some(0.25),
            "no zone: as if in UTC"
        );
        assert_eq!(day_position("x"), None);
    }

    #[test]
    fn dates_date_times_and_intervals_pass() {
        for good in [
            "2021",
            "2021-05",
            "2021-05-21",
            "2024-02-29",
            "2021-05-21T10:00",
            "2021-05-21T10:00:00Z",
            "2021-05-21T10:00:00.125+02:00",
            "2021-05-21T10:00:00-05:00",
            "2021-05-21/2021-06-30",
            "2021/2022",
            "2021-04/2021-05",
            "2021-05-21T10:00:00Z/..",
            "../2021",
            "2021-05/2021-05-31",
        ] {
            assert_eq!(coverage_problem(good), None, "{good}");
        }
    }

    #[test]
    fn anything_else_is_explained() {
        for (bad, says) in [
            ("", "is not a date"),
            ("spring 2021", "is not a date"),
            ("21-05-2021", "is not a date"),
            ("2021-13", "`2021-13` is not a date"),
            ("2023-02-29", "is not a date"),
            ("2021-05-21T25:00", "is not a date"),
            ("2021-05T10:00", "is not a date"),
            ("2021-05-21T10:00+2", "is not a date"),
            ("2022/2021", "ends (2021) before it starts (2022)"),
            ("2021-06-01/2021-05", "ends"),
            ("../..", "at least one"),
            ("..", "open end"),
            ("2021/2022/2023", "one `/`"),
            ("2021/x", "its end"),
            ("P1Y/2021", "its start"),
        ] {
            let problem = coverage_problem(bad).unwrap_or_else(|| panic!("{bad} passed"));
            assert!(problem.contains(says), "{bad}: {problem}");
        }
    }
}
