//! A first line that is not a header, told from its fields (#52): data (a header-less file,
//! whose "names" are numbers such as `01`, or repeat), or the table's shape
//! (`569,30,malignant,benign` above rows of 31 fields). `new --from` and the scan of `build`
//! and `check` both ask here, and each says in its own hint what to do.

use std::collections::HashSet;

/// What the first line looks like, when it is not column names: the message, and the
/// field where what it says shows (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotNames {
    pub message: String,
    pub field: usize,
}

/// A number written with digits (not `inf` or `NaN`, which Rust also parses).
pub fn is_number(text: &str) -> bool {
    let text = text.trim();
    text.parse::<f64>().is_ok() && text.bytes().any(|b| b.is_ascii_digit())
}

/// Whether `name` is a number no one would name a column: a whole number with a leading
/// zero (`01`, a code as cells write it). Years (`1990`), counts and the class bounds of
/// R's contingency tables (`142.24` in `crimtab`), as tables name their columns, are names.
fn cell_like_number(name: &str) -> bool {
    let name = name.trim();
    is_number(name)
        && name.len() > 1
        && name.starts_with('0')
        && name.bytes().all(|b| b.is_ascii_digit())
}

/// The first line read as data: numeric names that repeat (`0,0,1,…`) or that look like
/// cells rather than names (`CN010010,01,Autauga County, AL`).
pub fn looks_like_data(names: &[String]) -> Option<NotNames> {
    let numbers: Vec<(usize, &str)> = names
        .iter()
        .map(String::as_str)
        .enumerate()
        .filter(|(_, n)| is_number(n))
        .collect();
    let repeated = {
        let mut seen = HashSet::new();
        numbers.iter().any(|(_, n)| !seen.insert(*n))
    };
    let like_cells: Vec<(usize, &str)> = numbers
        .iter()
        .copied()
        .filter(|(_, n)| cell_like_number(n))
        .collect();
    if !repeated && like_cells.is_empty() {
        return None;
    }
    let (why, shown) = match like_cells.is_empty() {
        true => ("some repeated", &numbers),
        false => (
            "some with a leading zero, as codes in cells are written",
            &like_cells,
        ),
    };
    Some(NotNames {
        message: format!(
            "the first line looks like data, not column names: {} of its {} fields are \
             numbers, {why} ({})",
            numbers.len(),
            names.len(),
            first_few(shown.iter().map(|(_, n)| *n))
        ),
        field: shown[0].0,
    })
}

/// Every field a number (an empty first one aside, R's row names), as the first row of data
/// or pandas' column positions (`0,1,2,…`) are. Years and class bounds name columns too:
/// only a caller that knows the columns, and finds none of these among them, may call this
/// data.
pub fn numbers_only(names: &[String]) -> Option<NotNames> {
    let start = usize::from(names.first().is_some_and(|n| n.is_empty()));
    let fields = names.get(start..).unwrap_or_default();
    (fields.len() >= 2 && fields.iter().all(|n| is_number(n))).then(|| NotNames {
        message: format!(
            "the first line looks like data, not column names: its {} fields are all numbers \
             ({}), as a row of data or pandas' column positions are",
            fields.len(),
            first_few(fields.iter().map(String::as_str))
        ),
        field: start,
    })
}

/// The first three distinct `texts`, shortened and quoted as code.
fn first_few<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    let mut shown: Vec<String> = Vec::new();
    for text in texts {
        let text = format!("`{}`", crate::text::shortened(text, 20));
        if shown.len() < 3 && !shown.contains(&text) {
            shown.push(text);
        }
    }
    shown.join(", ")
}

/// The widths of the rows that do not fit the header, to tell one cause (the first line
/// is not the header) from many ragged rows.
#[derive(Debug, Default, Clone)]
pub struct RaggedRows {
    count: u64,
    /// The width they all share; `None` once two differ.
    width: Option<usize>,
    differ: bool,
}

impl RaggedRows {
    /// Notes a row of `width` fields that does not fit the header.
    pub fn add(&mut self, width: usize) {
        self.count += 1;
        match self.width {
            None if !self.differ => self.width = Some(width),
            Some(w) if w != width => {
                self.width = None;
                self.differ = true;
            }
            _ => {}
        }
    }

    /// How many rows did not fit the header.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// When every row read has the same width, other than the header's, and at least two
    /// do (with the rows that fit the header, `fitting`, fewer), the first line is not the
    /// header: what it looks like (its fields named when they are numbers: a table's shape,
    /// rows and columns), and the width of the rows.
    pub fn shape_line(&self, names: &[String], fitting: u64) -> Option<(String, usize)> {
        let width = self
            .width
            .filter(|_| self.count >= 2 && fitting < self.count)?;
        let numbers: Vec<&str> = names
            .iter()
            .map(|n| n.trim())
            .filter(|n| is_number(n))
            .collect();
        let looks = match numbers.as_slice() {
            [rows, columns, ..] => format!(
                "; it starts with numbers ({rows}, {columns}): it looks like the table's shape \
                 or counts, not column names"
            ),
            _ => String::new(),
        };
        let message = format!(
            "the first line has {} fields but the rows have {width}: the first line is not the header{looks}",
            names.len()
        );
        Some((message, width))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(line: &str) -> Vec<String> {
        line.split(',').map(str::to_string).collect()
    }

    #[test]
    fn numbers_that_repeat_or_look_like_cells_are_data() {
        let repeated = looks_like_data(&names("a,0,0,1,0,1")).unwrap();
        assert!(repeated.message.contains("numbers, some repeated"));
        assert!(repeated.message.contains("(`0`, `1`)"), "{repeated:?}");
        assert_eq!(repeated.field, 1);
        let headerless = looks_like_data(&names("CN010010,01,Autauga County, AL")).unwrap();
        assert!(headerless.message.contains("(`01`)"), "{headerless:?}");
        assert_eq!(headerless.field, 1);
        // Years, counts, class bounds and plain names are names.
        for header in [
            "country,1990,1991,2000",
            ",142.24,144.78,147.32",
            "id,x,y",
            "0,1,2",
        ] {
            assert_eq!(looks_like_data(&names(header)), None, "{header}");
        }
    }

    #[test]
    fn a_line_of_numbers_only_is_told_with_its_first_numbers() {
        let positions = numbers_only(&names("0,1,2,3")).unwrap();
        assert!(positions
            .message
            .contains("its 4 fields are all numbers (`0`, `1`, `2`)"));
        assert_eq!(positions.field, 0);
        let row_names = numbers_only(&names(",1.5,2")).unwrap();
        assert_eq!(row_names.field, 1);
        assert_eq!(numbers_only(&names("a,1,2")), None);
        assert_eq!(numbers_only(&names("7")), None);
    }

    #[test]
    fn rows_of_one_other_width_make_one_problem() {
        let mut ragged = RaggedRows::default();
        for _ in 0..40 {
            ragged.add(31);
        }
        let (message, width) = ragged
            .shape_line(&names("569,30,malignant,benign"), 0)
            .unwrap();
        assert!(message.contains("(569, 30)"), "{message}");
        assert!(message.contains("the rows have 31"), "{message}");
        assert_eq!((width, ragged.count()), (31, 40));
        ragged.add(5);
        assert!(ragged.shape_line(&names("a,b"), 0).is_none());
        let mut few = RaggedRows::default();
        few.add(3);
        few.add(3);
        assert!(few.shape_line(&names("a,b"), 100).is_none());
    }
}
