//! The header line as `new --from` checks it: no header, a column without a name, a
//! repeated name, and a first line that is not a header (told by
//! [`crate::content::first_line`]), each with the hint to fix the file and run it again.

use std::path::Path;

use crate::content::first_line::{self as shared, NotNames};
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
    if let Some(NotNames { message, .. }) = shared::looks_like_data(names) {
        return vec![Diagnostic::error(display, message)
            .at_line(1)
            .with_hint(ADD_A_HEADER)];
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

/// One problem in place of every ragged row when they all share one width that is not the
/// header's (with the rows that fit the header, `fitting`, fewer): the first line is not
/// the header.
pub(super) fn shape_line_problem(
    ragged: &shared::RaggedRows,
    display: &Path,
    names: &[String],
    fitting: u64,
) -> Option<Diagnostic> {
    let (message, width) = ragged.shape_line(names, fitting)?;
    Some(
        Diagnostic::error(display, message)
            .at_line(1)
            .with_hint(format!(
            "replace the first line with one naming the {width} columns, separated like the rows"
        )),
    )
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
        assert!(repeated[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("run `new --from` again"));
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
        let mut ragged = shared::RaggedRows::default();
        for _ in 0..40 {
            ragged.add(31);
        }
        let problem =
            shape_line_problem(&ragged, display, &names("569,30,malignant,benign"), 0).unwrap();
        assert!(problem.message.contains("(569, 30)"), "{problem:?}");
        assert!(problem.message.contains("the rows have 31"), "{problem:?}");
        assert_eq!(problem.line, Some(1));
        ragged.add(5);
        assert!(shape_line_problem(&ragged, display, &names("a,b"), 0).is_none());
    }
}
