//! `creators`: the people and organisations who made a dataset's data, credited by every
//! citation and metadata format in place of the site's author (who stays the publisher).
//! A person's `name` is "Family, Given" (as DataCite and Zenodo write it) or "Given Family";
//! an ORCID iD is checked for its form and its ISO 7064 mod 11-2 check digit.

use serde::{Deserialize, Serialize};

use super::spans::Locator;
use crate::diagnostics::Diagnostic;

/// Whether a creator is a person or an organisation (`kind = "organization"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CreatorKind {
    #[default]
    Person,
    Organization,
}

/// One `creators` entry.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Creator {
    /// A person as "Family, Given" (or "Given Family"); an organisation's full name.
    pub name: String,
    #[serde(default)]
    pub kind: CreatorKind,
    /// A person's ORCID iD, `0000-0002-1825-0097`.
    pub orcid: Option<String>,
    /// A page about the creator.
    pub url: Option<String>,
    /// The organisation a person worked for.
    pub affiliation: Option<String>,
}

/// A person's name in its parts, for the formats that want them apart (CFF, RIS, schema.org).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonName<'a> {
    pub given: Option<&'a str>,
    pub family: &'a str,
}

impl Creator {
    /// The name in its parts: split at the comma of "Family, Given", else before the last
    /// word of "Given Family"; one word is a family name alone.
    pub fn person_name(&self) -> PersonName<'_> {
        let name = self.name.trim();
        let (given, family) = match name.split_once(',') {
            Some((family, given)) => (given.trim(), family.trim()),
            None => match name.rsplit_once(char::is_whitespace) {
                Some((given, family)) => (given.trim(), family.trim()),
                None => ("", name),
            },
        };
        PersonName {
            given: Some(given).filter(|g| !g.is_empty()),
            family,
        }
    }

    /// The name in reading order: "Jane Doe" for "Doe, Jane"; an organisation's as written.
    pub fn reading_name(&self) -> String {
        match self.kind {
            CreatorKind::Organization => self.name.trim().to_string(),
            CreatorKind::Person => match self.person_name() {
                PersonName {
                    given: Some(given),
                    family,
                } => format!("{given} {family}"),
                PersonName {
                    given: None,
                    family,
                } => family.to_string(),
            },
        }
    }

    /// The ORCID iD as the address ORCID asks to be shown and linked.
    pub fn orcid_url(&self) -> Option<String> {
        self.orcid
            .as_ref()
            .map(|id| format!("https://orcid.org/{}", id.trim()))
    }
}

/// What is wrong with an ORCID iD's form, or its check digit.
pub fn orcid_problem(id: &str) -> Option<String> {
    let groups: Vec<&str> = id.split('-').collect();
    let well_formed = groups.len() == 4
        && groups.iter().all(|g| g.len() == 4)
        && id.chars().enumerate().all(|(i, c)| match i {
            4 | 9 | 14 => c == '-',
            18 => c.is_ascii_digit() || c == 'X',
            _ => c.is_ascii_digit(),
        });
    if !well_formed {
        return Some(format!(
            "`{id}` is not an ORCID iD: one is 16 characters in four groups of four, e.g. 0000-0002-1825-0097"
        ));
    }
    let digits: Vec<u32> = id.chars().filter_map(|c| c.to_digit(10)).collect();
    let expected = check_digit(&digits[..15]);
    let given = id.chars().last().unwrap_or_default();
    (given != expected).then(|| {
        format!("the ORCID iD `{id}` fails its check digit (it would end in {expected}): a digit is mistyped")
    })
}

/// The ISO 7064 mod 11-2 check character of the first 15 digits of an ORCID iD.
fn check_digit(digits: &[u32]) -> char {
    let total = digits.iter().fold(0, |total, d| (total + d) * 2);
    match (12 - total % 11) % 11 {
        10 => 'X',
        digit => char::from_digit(digit, 10).unwrap_or('0'),
    }
}

/// The checks of every `creators` entry beyond its types: a name that says something, a
/// valid ORCID iD, and no person-only key on an organisation (their `url`s are checked with
/// the other links).
pub fn problems(locator: &Locator) -> Vec<Diagnostic> {
    let spans = &locator.spans;
    let mut problems = Vec::new();
    for creator in spans.entries("creators") {
        if let Some((name, at)) = spans.string(&format!("{creator}.name")) {
            if name.trim().is_empty() {
                let d = locator.error("a creator's `name` is empty", Some(at));
                problems.push(d.with_hint(
                    "write the person's name as \"Family, Given\", or the organisation's full name",
                ));
            }
        }
        let organization = spans
            .string(&format!("{creator}.kind"))
            .is_some_and(|(kind, _)| kind == "organization");
        for key in ["orcid", "affiliation"] {
            let path = format!("{creator}.{key}");
            if organization && spans.key(&path).is_some() {
                let d = locator.error(
                    format!("an organisation has no `{key}`: only a person has one"),
                    locator.key(&path),
                );
                problems.push(d.with_hint(format!(
                    "remove `{key}`, or remove `kind = \"organization\"` if the creator is a person"
                )));
            }
        }
        if let Some((id, at)) = spans.string(&format!("{creator}.orcid")) {
            if let Some(problem) = orcid_problem(id) {
                let d = locator.error(problem, Some(at));
                problems.push(d.with_hint(
                    "copy the iD from the person's ORCID record (orcid.org), without https://orcid.org/",
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::spans::Spans;
    use std::path::Path;

    fn person(name: &str) -> Creator {
        Creator {
            name: name.to_string(),
            kind: CreatorKind::Person,
            orcid: None,
            url: None,
            affiliation: None,
        }
    }

    #[test]
    fn orcid_check_digits_follow_iso_7064() {
        // ORCID's own examples, one of them ending in X.
        for id in [
            "0000-0002-1825-0097",
            "0000-0001-5109-3700",
            "0000-0002-1694-233X",
        ] {
            assert_eq!(orcid_problem(id), None, "{id}");
        }
        let wrong = orcid_problem("0000-0002-1825-0096").unwrap();
        assert!(wrong.contains("would end in 7"), "{wrong}");
        for malformed in [
            "https://orcid.org/0000-0002-1825-0097",
            "0000000218250097",
            "0000-0002-1825-009",
            "0000-0002-1825-00X7",
            "0000-0002-1825-0097-",
        ] {
            let problem = orcid_problem(malformed).unwrap();
            assert!(
                problem.contains("four groups of four"),
                "{malformed}: {problem}"
            );
        }
    }

    #[test]
    fn names_split_at_the_comma_or_before_the_last_word() {
        let doe = person("Doe, Jane Q.");
        assert_eq!(doe.person_name().family, "Doe");
        assert_eq!(doe.person_name().given, Some("Jane Q."));
        assert_eq!(doe.reading_name(), "Jane Q. Doe");
        let roe = person("Richard Roe");
        assert_eq!(roe.person_name().family, "Roe");
        assert_eq!(roe.reading_name(), "Richard Roe");
        assert_eq!(person("Plato").person_name().given, None);
        let mut org = person("Gapminder Foundation");
        org.kind = CreatorKind::Organization;
        assert_eq!(org.reading_name(), "Gapminder Foundation");
    }

    #[test]
    fn problems_are_located_at_their_value() {
        let toml = "creators = [\n  { name = \"Doe, Jane\", orcid = \"0000-0002-1825-0096\" },\n  { name = \" \" },\n  { name = \"Org\", kind = \"organization\", orcid = \"0000-0002-1825-0097\" },\n]\n";
        let locator = Locator {
            file: Path::new("content/datasets/a.md"),
            text: toml,
            spans: Spans::parse(toml, 0),
        };
        let found: Vec<(Option<u32>, Option<u32>)> = problems(&locator)
            .iter()
            .map(|d| (d.line, d.column))
            .collect();
        assert_eq!(
            found,
            [
                (Some(2), Some(33)),
                (Some(3), Some(12)),
                (Some(4), Some(42))
            ]
        );
    }
}
