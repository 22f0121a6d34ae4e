//! Date columns with a `format`: cells read through it, profiled and charted as pages show
//! them, a cell it does not read located, a wrong format reported once.

use super::{column, run};

#[test]
fn formatted_dates_are_profiled_by_their_value_not_their_text() {
    // As text, "31/01/2019" sorts after "01/12/2019"; as dates it is earlier.
    let specs = [column("day", "date", "format = \"%d/%m/%Y\"")];
    let (summary, problems) = run(b"day\n31/01/2019\n01/12/2019\n4/3/2019\n", &specs);
    assert!(problems.is_empty(), "{problems:?}");
    let dates = summary.unwrap().profiles[0].dates.clone().unwrap();
    assert_eq!(
        (dates.earliest.as_str(), dates.latest.as_str()),
        ("2019-01-31", "2019-12-01")
    );
}

#[test]
fn weeks_quarters_and_times_without_zone_are_profiled_in_their_shown_style() {
    for (format, column_type, cells, range) in [
        (
            "%G-W%V",
            "date",
            "2019-W07\n2018-W52\n",
            ("2018-W52", "2019-W07"),
        ),
        ("%YQ%q", "date", "1974Q2\n1974Q1\n", ("1974 Q1", "1974 Q2")),
        (
            "%Y-%m-%d %H:%M",
            "datetime",
            "1995-01-01 13:45\n1995-01-01 09:05\n",
            ("1995-01-01T09:05", "1995-01-01T13:45"),
        ),
    ] {
        let specs = [column("t", column_type, &format!("format = \"{format}\""))];
        let csv = format!("t\n{cells}");
        let (summary, problems) = run(csv.as_bytes(), &specs);
        assert!(problems.is_empty(), "{format}: {problems:?}");
        let dates = summary.unwrap().profiles[0].dates.clone().unwrap();
        assert_eq!((dates.earliest.as_str(), dates.latest.as_str()), range);
    }
}

#[test]
fn a_cell_the_format_does_not_read_is_located() {
    let specs = [column("day", "date", "format = \"%Y%m%d\"")];
    let (summary, problems) = run(b"day\n19580329\n19580230\n19580401\n", &specs);
    assert!(summary.unwrap().wrong_types.is_empty());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, Some(3));
    assert!(
        problems[0]
            .message
            .contains("`day` is declared date in the format \"%Y%m%d\", but \"19580230\" is not"),
        "{}",
        problems[0].message
    );
    assert!(problems[0].hint.as_deref().unwrap().contains("20190304"));
}

#[test]
fn a_format_most_cells_fail_is_one_wrong_declaration() {
    // Day-first cells under a month-first format: 13/03 and 25/12 cannot be read.
    let specs = [column("day", "date", "format = \"%m/%d/%Y\"")];
    let (summary, problems) = run(b"day\n13/03/2019\n25/12/2019\n01/02/2019\n", &specs);
    let wrong = summary.unwrap().wrong_types;
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert_eq!((wrong[0].failed, wrong[0].filled), (2, 3));
    assert_eq!(wrong[0].examples, ["13/03/2019", "25/12/2019"]);
    assert!(problems.is_empty(), "{problems:?}");
}
