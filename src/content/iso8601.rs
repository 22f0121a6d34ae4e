//! `temporal_coverage` as schema.org reads it: an ISO 8601 date or date-time, or an
//! interval of them (`start/end`, `..` for an open end). Durations (`P1Y`) are left out:
//! a period a table covers is best stated by its dates.

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
    if crate::dataset::schema::is_iso_date(text) {
        Ok(())
    } else {
        Err(format!(
            "`{text}` is not a date (YYYY, YYYY-MM, YYYY-MM-DD) or a date-time (YYYY-MM-DDThh:mm:ssZ)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
