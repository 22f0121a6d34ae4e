//! The decimal and group characters a number column is written with (`decimal = ","`,
//! `group = "."` in front matter: `1.234,5`), and a cell read back as a plain number
//! (`1234.5`), which every check, profile, chart and page works on. The CSV itself is never
//! rewritten: the download stays the file as it came.

use serde::{Deserialize, Serialize};

/// The character between the whole part and the decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum DecimalMark {
    #[serde(rename = ".")]
    Point,
    #[serde(rename = ",")]
    Comma,
}

impl DecimalMark {
    /// The character as written in the CSV and in metadata.
    pub fn as_str(self) -> &'static str {
        match self {
            DecimalMark::Point => ".",
            DecimalMark::Comma => ",",
        }
    }
}

/// The character between groups of three digits of the whole part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum GroupMark {
    #[serde(rename = ",")]
    Comma,
    #[serde(rename = ".")]
    Point,
    #[serde(rename = " ")]
    Space,
    /// U+00A0, as spreadsheets write it.
    #[serde(rename = "\u{a0}")]
    NoBreakSpace,
    /// U+202F, as French and Swiss locales write it.
    #[serde(rename = "\u{202f}")]
    NarrowNoBreakSpace,
    #[serde(rename = "'")]
    Apostrophe,
}

impl GroupMark {
    /// The character as written in the CSV and in metadata.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupMark::Comma => ",",
            GroupMark::Point => ".",
            GroupMark::Space => " ",
            GroupMark::NoBreakSpace => "\u{a0}",
            GroupMark::NarrowNoBreakSpace => "\u{202f}",
            GroupMark::Apostrophe => "'",
        }
    }

    /// The character as a message shows it (a space is not visible).
    pub fn shown(self) -> &'static str {
        match self {
            GroupMark::Space => "a space",
            GroupMark::NoBreakSpace => "a no-break space (U+00A0)",
            GroupMark::NarrowNoBreakSpace => "a narrow no-break space (U+202F)",
            GroupMark::Comma => "`,`",
            GroupMark::Point => "`.`",
            GroupMark::Apostrophe => "`'`",
        }
    }
}

/// How one number column writes its numbers: a decimal point and no groups unless the
/// column, or else the dataset, says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NumberMarks {
    pub decimal: DecimalMark,
    pub group: Option<GroupMark>,
}

impl Default for NumberMarks {
    fn default() -> Self {
        NumberMarks::PLAIN
    }
}

impl NumberMarks {
    /// `1234.5`: what every reader of a CSV reads without being told.
    pub const PLAIN: NumberMarks = NumberMarks {
        decimal: DecimalMark::Point,
        group: None,
    };

    /// The column's own marks, each else the dataset's.
    pub fn resolve(
        column: (Option<DecimalMark>, Option<GroupMark>),
        dataset: (Option<DecimalMark>, Option<GroupMark>),
    ) -> NumberMarks {
        NumberMarks {
            decimal: column.0.or(dataset.0).unwrap_or(DecimalMark::Point),
            group: column.1.or(dataset.1),
        }
    }

    /// Whether cells are plain numbers already (the check's fast path).
    pub fn is_plain(self) -> bool {
        self == NumberMarks::PLAIN
    }

    /// Whether the two marks are the same character, which no reader could tell apart.
    pub fn clash(self) -> bool {
        self.group
            .is_some_and(|g| g.as_str() == self.decimal.as_str())
    }

    /// A number written in these marks, for hints: `1.234,5`, `1 234,5`, `1,234.5`.
    pub fn example(self) -> String {
        let group = self.group.map_or("", GroupMark::as_str);
        format!("1{group}234{}5", self.decimal.as_str())
    }

    /// `cell` as a plain number (`1.234,5` -> `1234.5`), written into `out` only when it
    /// has a mark to replace; `None` when a mark is out of place (a group that is not
    /// three digits, a decimal point in a column of decimal commas, two decimal marks).
    /// What is left is checked as any number is. No allocation for a cell without marks.
    pub fn plain<'a>(self, cell: &'a str, out: &'a mut String) -> Option<&'a str> {
        if self.is_plain() {
            return Some(cell);
        }
        let group = self.group.map(GroupMark::as_str);
        let group_first = group.map(|g| g.as_bytes()[0]);
        let has_mark = cell
            .bytes()
            .any(|b| matches!(b, b'.' | b',') || Some(b) == group_first);
        if !has_mark {
            return Some(cell);
        }
        out.clear();
        let mut rest = cell;
        if let Some(sign) = rest.chars().next().filter(|c| matches!(c, '+' | '-')) {
            out.push(sign);
            rest = &rest[1..];
        }
        // The whole part: digits, with a group mark before each further three.
        let (mut run, mut groups) = (0usize, 0usize);
        loop {
            match rest.as_bytes().first() {
                Some(b) if b.is_ascii_digit() => {
                    out.push(char::from(*b));
                    run += 1;
                    rest = &rest[1..];
                }
                _ => match group.and_then(|g| rest.strip_prefix(g)) {
                    Some(after) if after.starts_with(|c: char| c.is_ascii_digit()) => {
                        let placed = if groups == 0 {
                            (1..=3).contains(&run)
                        } else {
                            run == 3
                        };
                        if !placed {
                            return None;
                        }
                        groups += 1;
                        run = 0;
                        rest = after;
                    }
                    _ => break,
                },
            }
        }
        if groups > 0 && run != 3 {
            return None;
        }
        if let Some(after) = rest.strip_prefix(self.decimal.as_str()) {
            out.push('.');
            rest = after;
        }
        if rest.contains(['.', ',']) || group.is_some_and(|g| rest.contains(g)) {
            return None;
        }
        out.push_str(rest);
        Some(out.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMA_POINT: NumberMarks = NumberMarks {
        decimal: DecimalMark::Comma,
        group: Some(GroupMark::Point),
    };

    fn plain(marks: NumberMarks, cell: &str) -> Option<String> {
        let mut out = String::new();
        marks.plain(cell, &mut out).map(str::to_string)
    }

    #[test]
    fn decimal_commas_and_group_marks_read_as_plain_numbers() {
        let space = NumberMarks {
            decimal: DecimalMark::Comma,
            group: Some(GroupMark::Space),
        };
        let narrow = NumberMarks {
            group: Some(GroupMark::NarrowNoBreakSpace),
            ..space
        };
        let english = NumberMarks {
            decimal: DecimalMark::Point,
            group: Some(GroupMark::Comma),
        };
        for (marks, cell, expected) in [
            (COMMA_POINT, "1.234,5", "1234.5"),
            (COMMA_POINT, "-0,5", "-0.5"),
            (COMMA_POINT, "1,5e3", "1.5e3"),
            (COMMA_POINT, "12.345.678", "12345678"),
            (COMMA_POINT, "+7", "+7"),
            (COMMA_POINT, ",5", ".5"),
            (COMMA_POINT, "Inf", "Inf"),
            (space, "1 234,5", "1234.5"),
            (narrow, "1\u{202f}234,5", "1234.5"),
            (english, "1,234.5", "1234.5"),
            (english, "-12,345,678", "-12345678"),
        ] {
            assert_eq!(plain(marks, cell).as_deref(), Some(expected), "{cell}");
        }
    }

    #[test]
    fn misplaced_marks_are_not_numbers() {
        let comma_only = NumberMarks {
            decimal: DecimalMark::Comma,
            group: None,
        };
        for (marks, cell) in [
            (COMMA_POINT, "1.23,4"),
            (COMMA_POINT, "1234.567,5"),
            (COMMA_POINT, "1.5"),
            (COMMA_POINT, "1.2345"),
            (COMMA_POINT, ".123"),
            (COMMA_POINT, "1,2,3"),
            (COMMA_POINT, "1,5.000"),
            (comma_only, "1.5"),
            (comma_only, "1.234,5"),
        ] {
            assert_eq!(plain(marks, cell), None, "{cell}");
        }
    }

    #[test]
    fn plain_marks_change_nothing_and_clashes_are_found() {
        assert_eq!(
            plain(NumberMarks::PLAIN, "1,5").as_deref(),
            Some("1,5"),
            "the type check refuses it, not this"
        );
        assert!(NumberMarks::PLAIN.is_plain() && !NumberMarks::PLAIN.clash());
        let clash = NumberMarks {
            decimal: DecimalMark::Comma,
            group: Some(GroupMark::Comma),
        };
        assert!(clash.clash() && !COMMA_POINT.clash());
        assert_eq!(COMMA_POINT.example(), "1.234,5");
        let resolved = NumberMarks::resolve(
            (None, Some(GroupMark::Space)),
            (Some(DecimalMark::Comma), Some(GroupMark::Point)),
        );
        assert_eq!(resolved.decimal, DecimalMark::Comma);
        assert_eq!(resolved.group, Some(GroupMark::Space));
    }
}
