//! A first line that is not a header, told as one problem with what the line looks like:
//! data (a header-less file, whose "names" are numbers such as `01`, or repeat),
//! or the table's shape (`569,30,malignant,benign` above rows of 31 fields).

use std::path::Path;

use crate::diagnostics::Diagnostic;

/// What to do about a file without a header line.
const ADD_A_HEADER: &str = "add a first line naming the columns, separated like the rows \
     (the file was likely written without one: pandas' `to_csv(header=False)`, R's \
     `write.table(col.names = FALSE)`), then run `new --from` again";

/// The problems of the header line `names`: the first line looks like data (one problem,
/// in place of the repeated or numeric names it would otherwise give), else a column
/// without a name and each repeated name.
pub(super) fn header_problems(display: &Path, names: &[String]) -> Vec<Diagnostic> {
    if names.is_empty() {
        return vec![Diagnostic::error(display, "the file has no header line")
            .with_hint("the first line must name the columns, separated by commas")];
    }
    if let Some(problem) = data_as_header(display, names) {
        return vec![problem];
    }
    let mut problems = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        // R's `write.csv` writes its row names under an empty first header.
        let row_names = index == 0 && name.is_empty();
        if name.trim().is_empty() && !row_names {
            problems.push(
                Diagnostic::error(display, format!("column {} has no name", index + 1))
                    .at_line(1)
                    .with_hint("give every column a header: the page documents it by name"),
            );
        } else if !seen.insert(name.as_str()) {
            problems.push(
                Diagnostic::error(display, format!("two columns are named `{name}`"))
                    .at_line(1)
                    .with_hint("rename one: each column is documented by its name"),
            );
        }
    }
    problems
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

/// A number written with digits (not `inf` or `NaN`, which Rust also parses).
fn is_number(text: &str) -> bool {
    let text = text.trim();
    text.parse::<f64>().is_ok() && text.bytes().any(|b| b.is_ascii_digit())
}

/// The first line read as data: numeric names that repeat (`0,0,1,…`) or that look like
/// cells rather than names (`CN010010,01,Autauga County, AL`).
fn data_as_header(display: &Path, names: &[String]) -> Option<Diagnostic> {
    let numbers: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| is_number(n))
        .collect();
    let repeated = {
        let mut seen = std::collections::HashSet::new();
        numbers.iter().any(|n| !seen.insert(*n))
    };
    let like_cells: Vec<&str> = numbers
        .iter()
        .copied()
        .filter(|n| cell_like_number(n))
        .collect();
    if !repeated && like_cells.is_empty() {
        return None;
    }
    let mut shown: Vec<String> = Vec::new();
    for n in if like_cells.is_empty() {
        &numbers
    } else {
        &like_cells
    } {
        let n = format!("`{}`", crate::text::shortened(n, 20));
        if shown.len() < 3 && !shown.contains(&n) {
            shown.push(n);
        }
    }
    let why = match repeated {
        true => "numbers, some repeated",
        false => "numbers written as cells are",
    };
    Some(
        Diagnostic::error(
            display,
            format!(
                "the first line looks like data, not column names: {} of its {} fields are {why} ({})",
                numbers.len(),
                names.len(),
                shown.join(", ")
            ),
        )
        .at_line(1)
        .with_hint(ADD_A_HEADER),
    )
}

/// The widths of the rows that do not fit the header, to tell one cause (the first line
/// is not the header) from many ragged rows.
#[derive(Debug, Default)]
pub(super) struct RaggedRows {
    count: u64,
    /// The width they all share; `None` once two differ.
    width: Option<usize>,
    differ: bool,
}

impl RaggedRows {
    pub(super) fn add(&mut self, width: usize) {
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

    /// One problem when every row read has the same width, other than the header's, and
    /// at least two do (with the rows that fit the header, `fitting`, fewer): the first
    /// line is not the header. Its fields named when they are numbers (a table's shape:
    /// rows and columns).
    pub(super) fn first_line_problem(
        &self,
        display: &Path,
        names: &[String],
        fitting: u64,
    ) -> Option<Diagnostic> {
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
        Some(
            Diagnostic::error(
                display,
                format!(
                    "the first line has {} fields but the rows have {width}: the first line is not the header{looks}",
                    names.len()
                ),
            )
            .at_line(1)
            .with_hint(format!(
                "replace the first line with one naming the {width} columns, separated like the rows"
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(line: &str) -> Vec<String> {
        line.split(',').map(str::to_string).collect()
    }

    #[test]
    fn a_header_of_numbers_that_repeat_or_look_like_cells_is_data() {
        let display = Path::new("t.csv");
        let repeated = header_problems(display, &names("0,0,1,0,1"));
        assert_eq!(repeated.len(), 1, "{repeated:?}");
        assert!(
            repeated[0].message.contains("looks like data"),
            "{repeated:?}"
        );
        let headerless = header_problems(display, &names("CN010010,01,Autauga County, AL"));
        assert_eq!(headerless.len(), 1);
        assert!(headerless[0].message.contains("`01`"), "{headerless:?}");
        // Years and plain names are names.
        assert!(header_problems(display, &names("country,1990,1991,2000")).is_empty());
        // R's crimtab: heights in cm as the columns of a contingency table.
        assert!(header_problems(display, &names(",142.24,144.78,147.32")).is_empty());
        assert!(header_problems(display, &names("id,x,y")).is_empty());
        let twice = header_problems(display, &names("a,b,a"));
        assert!(twice[0].message.contains("two columns are named `a`"));
    }

    #[test]
    fn rows_of_one_other_width_make_one_problem() {
        let display = Path::new("t.csv");
        let mut ragged = RaggedRows::default();
        for _ in 0..40 {
            ragged.add(31);
        }
        let problem = ragged
            .first_line_problem(display, &names("569,30,malignant,benign"), 0)
            .unwrap();
        assert!(problem.message.contains("(569, 30)"), "{problem:?}");
        assert!(problem.message.contains("the rows have 31"), "{problem:?}");
        ragged.add(5);
        assert!(ragged
            .first_line_problem(display, &names("a,b"), 0)
            .is_none());
        let mut few = RaggedRows::default();
        few.add(3);
        few.add(3);
        assert!(few
            .first_line_problem(display, &names("a,b"), 100)
            .is_none());
    }
}
