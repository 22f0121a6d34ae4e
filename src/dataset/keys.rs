//! Foreign keys (`[[foreign_keys]]`): every row's key must name a row of the table it
//! references, this dataset's or another's. Checked in bounded memory: the referenced
//! key columns are read once into a set of 128-bit fingerprints (16 bytes a key, whatever
//! the cells' length), then this table's key columns row by row. A row with a missing
//! value in its key names nothing and is not a miss (Table Schema reads it so). Misses are
//! counted, with how many distinct keys miss and the first of them with their lines: a
//! warning while undeclared, nothing once declared with `misses = { rows, reason }` (the
//! page states them), a warning again when the declared count no longer holds.

use std::collections::BTreeSet;
use std::fs::File;
use std::path::Path;

use rustc_hash::FxHashSet;

use crate::content::dialect::{columns_missing_values, CsvDialect, MissingValues};
use crate::content::spans::Locator;
use crate::content::{DatasetFrontMatter, ForeignKey};
use crate::dataset::schema::{thousands, ColumnSpec};
use crate::diagnostics::{did_you_mean, Diagnostic, Severity};

use super::figures::{self, ForeignTable};

/// Missing keys named in a warning, each with its first line.
const EXAMPLES: usize = 3;

/// One table a key reads: its CSV, how it is split, and its columns' missing values.
struct KeyTable<'a> {
    csv: &'a Path,
    dialect: CsvDialect,
    columns: &'a [ColumnSpec],
    missing: Vec<MissingValues>,
}

/// What one pass over the referencing table found.
#[derive(Debug, Default, PartialEq)]
struct Misses {
    rows: u64,
    /// Rows whose key has every value (the rows the key is checked on).
    keyed: u64,
    distinct: u64,
    /// The first missing keys, as written, with the line each first appears on.
    examples: Vec<(String, u64)>,
}

/// The page of the table a key names, as the key's cells link to it: `None` when it has
/// none (a draft, or a dataset that cannot be read), else its `explore` setting (the
/// site's when it does not say).
pub type KeyPage = Option<Option<bool>>;

/// What checking a dataset's keys learnt of the tables they name.
#[derive(Debug, Default)]
pub struct Named {
    /// The other datasets read: the page depends on them.
    pub read: BTreeSet<String>,
    /// Per key, in the front matter's order, the page its cells link to.
    pub pages: Vec<KeyPage>,
}

/// Checks the dataset's foreign keys against the tables they name: each referenced table
/// read once per key, the page's own CSV once for all keys. `csv_readable` is false when
/// the scan found errors in the page's own CSV (then only the declarations are checked).
pub fn check(
    site: &figures::Site,
    (slug, front): (&str, &DatasetFrontMatter),
    (csv, csv_readable): (&Path, bool),
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> Named {
    let mut named_tables = Named::default();
    let own = KeyTable {
        csv,
        dialect: front.csv_dialect(),
        columns: &front.columns,
        missing: columns_missing_values(&front.columns, front.missing_values.as_deref()),
    };
    // Each key declared well, with the fingerprints of the keys its table has.
    let mut checked: Vec<(usize, &str, FxHashSet<u128>)> = Vec::new();
    for (n, key) in front.foreign_keys.iter().enumerate() {
        let path = format!("foreign_keys[{n}]");
        let other = key.reference.dataset.as_deref().filter(|d| *d != slug);
        let foreign = match other.map(|d| figures::open_table(site, d)) {
            None => None,
            Some(Ok(table)) => Some(table),
            Some(Err(refused)) => {
                let at = locator.value(&format!("{path}.reference.dataset"));
                problems.push(locator.error(refused.message, at).with_hint(refused.hint));
                named_tables.pages.push(None);
                continue;
            }
        };
        named_tables.read.extend(other.map(str::to_string));
        named_tables.pages.push(match &foreign {
            None => Some(front.explore),
            Some(table) => (!table.draft).then_some(table.explore),
        });
        let target = foreign
            .as_ref()
            .map_or_else(|| own.borrowed(), KeyTable::of);
        let named = other.unwrap_or(slug);
        if !declared_well(key, (&own, &target, named), locator, &path, problems) || !csv_readable {
            continue;
        }
        let mut known = FxHashSet::default();
        match read_keys(&target, &[&key.reference.fields], |_, fingerprint, _, _| {
            known.insert(fingerprint);
        }) {
            Ok(()) => checked.push((n, named, known)),
            Err(e) => problems.push(unreadable(locator, &path, named, &e)),
        }
    }
    if checked.is_empty() {
        return named_tables;
    }
    let keys = &front.foreign_keys;
    let fields: Vec<&[String]> = checked.iter().map(|(n, ..)| &keys[*n].fields[..]).collect();
    let mut misses: Vec<Misses> = checked.iter().map(|_| Misses::default()).collect();
    let mut missing_keys = vec![FxHashSet::default(); checked.len()];
    let found = read_keys(&own, &fields, |k, fingerprint, text, line| {
        misses[k].count(
            checked[k].2.contains(&fingerprint),
            || missing_keys[k].insert(fingerprint),
            (text, line),
        )
    });
    for ((n, named, _), misses) in checked.iter().zip(&misses) {
        let path = format!("foreign_keys[{n}]");
        match &found {
            Ok(()) => problems.extend(report(&keys[*n], misses, named, locator, &path)),
            Err(e) => problems.push(unreadable(locator, &path, slug, e)),
        }
    }
    named_tables
}

/// A table a key joins could not be read to its end (a read error past the scan).
fn unreadable(locator: &Locator, path: &str, named: &str, e: &csv::Error) -> Diagnostic {
    let at = locator.value(&format!("{path}.fields"));
    locator
        .error(
            format!("foreign key: the table of `{named}` cannot be read: {e}"),
            at,
        )
        .with_severity(Severity::Warning)
}

impl Misses {
    /// Counts one keyed row: `known` when the referenced table has its key; `first_miss`
    /// tells whether a miss is the first of its key (then it may be an example).
    fn count(
        &mut self,
        known: bool,
        first_miss: impl FnOnce() -> bool,
        (text, line): (&dyn Fn() -> String, u64),
    ) {
        self.keyed += 1;
        if known {
            return;
        }
        self.rows += 1;
        if first_miss() {
            self.distinct += 1;
            if self.examples.len() < EXAMPLES {
                self.examples.push((text(), line));
            }
        }
    }
}

impl<'a> KeyTable<'a> {
    /// Another dataset's table.
    fn of(table: &'a ForeignTable) -> Self {
        KeyTable {
            csv: &table.csv,
            dialect: table.dialect,
            columns: &table.columns,
            missing: columns_missing_values(&table.columns, table.missing_values.as_deref()),
        }
    }

    /// The same table, borrowed again (a self-reference reads the page's own CSV twice).
    fn borrowed(&self) -> KeyTable<'_> {
        KeyTable {
            csv: self.csv,
            dialect: self.dialect,
            columns: self.columns,
            missing: self.missing.clone(),
        }
    }

    /// The index of column `name`, if the table documents it.
    fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// Whether the key's columns exist on both sides, as many on each: each wrong name is one
/// problem, at its place in the front matter.
fn declared_well(
    key: &ForeignKey,
    (own, target, named): (&KeyTable, &KeyTable, &str),
    locator: &Locator,
    path: &str,
    problems: &mut Vec<Diagnostic>,
) -> bool {
    let before = problems.len();
    let sides = [
        (&key.fields, own, format!("{path}.fields"), "this dataset"),
        (
            &key.reference.fields,
            target,
            format!("{path}.reference.fields"),
            named,
        ),
    ];
    for (fields, table, at, whose) in sides {
        if fields.is_empty() {
            problems.push(
                locator
                    .error(
                        "a foreign key needs at least one column",
                        locator.value(&at),
                    )
                    .with_hint("name the key's columns, e.g. fields = [\"carrier\"]"),
            );
        }
        for (i, field) in fields.iter().enumerate() {
            if table.column(field).is_some() {
                continue;
            }
            let names = table.columns.iter().map(|c| c.name.as_str());
            let hint = match did_you_mean(field, names) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("name a column of {whose}'s `[[columns]]`"),
            };
            let message = format!("foreign key names `{field}`, which is not a column of {whose}");
            let place = locator.value(&format!("{at}[{i}]"));
            problems.push(locator.error(message, place).with_hint(hint));
        }
    }
    if key.fields.len() != key.reference.fields.len() && problems.len() == before {
        let message = format!(
            "a foreign key of {} columns names {} columns of `{named}`",
            key.fields.len(),
            key.reference.fields.len()
        );
        problems.push(
            locator
                .error(message, locator.value(&format!("{path}.reference.fields")))
                .with_hint("name as many columns on each side, in the same order"),
        );
    }
    problems.len() == before
}

/// Calls `found` with, for each row and each key of `keys` (a key is its columns), the
/// key's index, its fingerprint, a way to spell it out and the row's line. A row whose key
/// has a missing value names nothing for that key and is skipped for it.
fn read_keys(
    table: &KeyTable,
    keys: &[&[String]],
    mut found: impl FnMut(usize, u128, &dyn Fn() -> String, u64),
) -> csv::Result<()> {
    let mut reader = table.dialect.builder().from_reader(File::open(table.csv)?);
    let mut record = csv::ByteRecord::new();
    if !table.dialect.read(&mut reader, &mut record)? {
        return Ok(());
    }
    let header: Vec<&[u8]> = record.iter().collect();
    // Each key's columns as the file orders them; a key with a column the file lacks has
    // no values (the scan reports the column).
    let cells: Vec<Option<Vec<(usize, &MissingValues)>>> = keys
        .iter()
        .map(|fields| {
            let at = fields.iter().map(|f| {
                let declared = table.column(f)?;
                let in_file = header.iter().position(|h| *h == f.as_bytes())?;
                Some((in_file, &table.missing[declared]))
            });
            at.collect()
        })
        .collect();
    drop(header);
    let mut bytes = Vec::new();
    while table.dialect.read(&mut reader, &mut record)? {
        let line = record.position().map_or(0, |p| p.line());
        for (k, at) in cells.iter().enumerate() {
            let Some(at) = at else { continue };
            if !key_bytes(&record, at, &mut bytes) {
                continue;
            }
            let spelled = || {
                let cells = at.iter().map(|&(i, _)| record.get(i).unwrap_or_default());
                let texts: Vec<_> = cells.map(String::from_utf8_lossy).collect();
                texts.join(", ")
            };
            found(k, twox_hash::XxHash3_128::oneshot(&bytes), &spelled, line);
        }
    }
    Ok(())
}

/// The key of `record` in the columns `at` as `bytes` (each value with its length: `a|bc`
/// and `ab|c` are two keys); false when one of its values is missing.
fn key_bytes(
    record: &csv::ByteRecord,
    at: &[(usize, &MissingValues)],
    bytes: &mut Vec<u8>,
) -> bool {
    bytes.clear();
    for &(i, missing) in at {
        let cell = record.get(i).unwrap_or_default();
        if missing.is_missing_bytes(cell) {
            return false;
        }
        bytes.extend_from_slice(&(cell.len() as u64).to_le_bytes());
        bytes.extend_from_slice(cell);
    }
    true
}

/// What the page's author hears of `misses`: nothing when they are none or declared as
/// they are; else one warning with the counts and the first missing keys.
fn report(
    key: &ForeignKey,
    misses: &Misses,
    named: &str,
    locator: &Locator,
    path: &str,
) -> Option<Diagnostic> {
    let declared = key.misses.as_ref().map(|m| m.rows);
    if declared.unwrap_or(0) == misses.rows {
        return None;
    }
    let fields = key.fields.join("`, `");
    let examples: Vec<String> = (misses.examples.iter())
        .map(|(text, line)| format!("`{text}` on line {line}"))
        .collect();
    let found = format!(
        "{} of {} rows name no row of `{named}` ({} distinct {}; the first {})",
        thousands(misses.rows),
        thousands(misses.keyed),
        thousands(misses.distinct),
        if misses.distinct == 1 { "key" } else { "keys" },
        examples.join(", ")
    );
    let (message, hint) = match declared {
        None => (
            format!("foreign key `{fields}`: {found}"),
            format!(
                "add the rows they name to `{named}`, correct these rows, or declare the misses with why: misses = {{ rows = {}, reason = \"…\" }}",
                misses.rows
            ),
        ),
        Some(rows) if misses.rows == 0 => (
            format!("foreign key `{fields}` declares {} missing rows, but every row names a row of `{named}`", thousands(rows)),
            "remove `misses`: the page would state misses the data no longer has".to_string(),
        ),
        Some(rows) => (
            format!("foreign key `{fields}` declares {} missing rows, but {found}", thousands(rows)),
            format!("check the new misses, then set misses.rows = {} (the page states the count)", misses.rows),
        ),
    };
    let at = locator.value(&format!("{path}.fields"));
    Some(
        locator
            .error(message, at)
            .with_severity(Severity::Warning)
            .with_hint(hint),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{KeyReference, KnownMisses};

    fn columns(names: &[&str]) -> Vec<ColumnSpec> {
        let text: String = names
            .iter()
            .map(|n| format!("[[columns]]\nname = \"{n}\"\ntitle = \"t\"\ntype = \"string\"\ndescription = \"d\"\n"))
            .collect();
        #[derive(serde::Deserialize)]
        struct Columns {
            columns: Vec<ColumnSpec>,
        }
        toml::from_str::<Columns>(&text).unwrap().columns
    }

    fn key(fields: &[&str], reference: &[&str]) -> ForeignKey {
        let strings = |s: &[&str]| s.iter().map(|f| f.to_string()).collect();
        ForeignKey {
            fields: strings(fields),
            reference: KeyReference {
                dataset: None,
                fields: strings(reference),
            },
            misses: None,
        }
    }

    /// The misses of `key` from table `own` to table `target` (CSV texts; `NA` missing).
    fn misses(own: &str, target: &str, key: &ForeignKey) -> Misses {
        let dir = tempfile::tempdir().unwrap();
        let na = ["NA".to_string()];
        let write = |name: &str, text: &str| {
            let csv = dir.path().join(name);
            std::fs::write(&csv, text).unwrap();
            let names: Vec<&str> = text.lines().next().unwrap().split(',').collect();
            (csv, columns(&names))
        };
        let ((a, a_columns), (b, b_columns)) = (write("a.csv", own), write("b.csv", target));
        let table = |csv, columns| KeyTable {
            csv,
            dialect: CsvDialect::COMMA,
            columns,
            missing: columns_missing_values(columns, Some(&na)),
        };
        let mut known = FxHashSet::default();
        let target = table(&b, &b_columns);
        read_keys(&target, &[&key.reference.fields], |_, f, _, _| {
            known.insert(f);
        })
        .unwrap();
        let (mut misses, mut seen) = (Misses::default(), FxHashSet::default());
        read_keys(
            &table(&a, &a_columns),
            &[&key.fields],
            |_, f, text, line| misses.count(known.contains(&f), || seen.insert(f), (text, line)),
        )
        .unwrap();
        misses
    }

    #[test]
    fn misses_are_counted_with_their_first_lines() {
        let flights = "flight,tailnum\n1,N1\n2,N9\n3,N9\n4,NA\n5,\n6,N2\n7,N8\n8,N7\n9,N6\n";
        let planes = "tailnum,seats\nN1,10\nN2,20\n";
        let found = misses(flights, planes, &key(&["tailnum"], &["tailnum"]));
        assert_eq!(
            found.keyed, 7,
            "the two rows without a tailnum are not checked"
        );
        assert_eq!(found.rows, 5);
        assert_eq!(found.distinct, 4);
        let lines: Vec<u64> = found.examples.iter().map(|(_, l)| *l).collect();
        assert_eq!(lines, [3, 8, 9]);
        assert_eq!(found.examples[0].0, "N9");
    }

    #[test]
    fn composite_keys_compare_every_value_and_keep_them_apart() {
        let own = "a,b\nx,yz\nxy,z\n\"x,y\",z\n";
        let target = "p,q\nx,yz\n";
        let found = misses(own, target, &key(&["a", "b"], &["p", "q"]));
        assert_eq!((found.keyed, found.rows, found.distinct), (3, 2, 2));
        assert_eq!(found.examples[0], ("xy, z".to_string(), 3));
    }

    #[test]
    fn declared_misses_are_silent_only_while_they_hold() {
        let text =
            "+++\n[[foreign_keys]]\nfields = [\"t\"]\nreference = { fields = [\"t\"] }\n+++\n";
        let end = text.rfind("+++").unwrap();
        let locator = Locator {
            file: Path::new("content/datasets/f.md"),
            text,
            spans: crate::content::spans::Spans::parse(&text[4..end], 4),
        };
        let found = Misses {
            rows: 5,
            keyed: 7,
            distinct: 4,
            examples: vec![("N9".into(), 3)],
        };
        let mut declared = key(&["t"], &["t"]);
        let undeclared = report(&declared, &found, "planes", &locator, "foreign_keys[0]").unwrap();
        assert_eq!(undeclared.severity, Severity::Warning);
        assert!(
            undeclared.message.contains("5 of 7 rows"),
            "{}",
            undeclared.message
        );
        assert!(
            undeclared.message.contains("the first `N9` on line 3"),
            "{}",
            undeclared.message
        );
        assert_eq!(undeclared.line, Some(3));
        assert!(undeclared
            .hint
            .as_deref()
            .unwrap()
            .contains("misses = { rows = 5"));
        declared.misses = Some(KnownMisses {
            rows: 5,
            reason: "planes lists only some".into(),
        });
        assert_eq!(
            report(&declared, &found, "planes", &locator, "foreign_keys[0]"),
            None
        );
        let more = Misses { rows: 6, ..found };
        let changed = report(&declared, &more, "planes", &locator, "foreign_keys[0]").unwrap();
        assert!(
            changed
                .message
                .contains("declares 5 missing rows, but 6 of 7"),
            "{}",
            changed.message
        );
    }
}
