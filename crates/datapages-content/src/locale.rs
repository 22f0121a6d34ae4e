//! A language's CLDR data through ICU4X: its plural rules (`icu_plurals`) and the marks
//! it groups and splits numbers with (`icu_decimal`). The marks are read once from
//! ICU4X's own output for a probe number, so every number on a page (counts, table cells,
//! profiles, chart axes) and in the explorer (which gets the same marks from the build)
//! is written the way `icu_decimal` writes it, by a fast character map.

use std::borrow::Cow;

use fixed_decimal::Decimal;
use icu_decimal::DecimalFormatter;
use icu_locale_core::Locale as IcuLocale;
use icu_plurals::{PluralCategory, PluralRules};

/// How a language writes a number: its marks, and the shortest integer part that is
/// grouped (Spanish and Polish leave `1234` whole: CLDR's minimum grouping digits 2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NumberMarks {
    pub group: String,
    pub decimal: String,
    pub minus: String,
    #[serde(rename = "minGrouping")]
    pub min_grouping: u8,
}

impl NumberMarks {
    /// A number written the English way (`-1,234.5` or `1234.5`, as `format_cell` and
    /// `thousands` write it) in this language's marks. Borrowed when nothing changes.
    pub fn number<'a>(&self, english: &'a str) -> Cow<'a, str> {
        let marks = self;
        if marks.is_english() {
            return Cow::Borrowed(english);
        }
        let whole_end = english.find(['.', 'e', 'E']).unwrap_or(english.len());
        let groups = english[..whole_end].matches(',').count();
        let drop_group = groups == 1 && marks.min_grouping >= 2 && {
            let digits = english[..whole_end]
                .bytes()
                .filter(u8::is_ascii_digit)
                .count();
            digits < 4 + usize::from(marks.min_grouping) - 1
        };
        let mut out = String::with_capacity(english.len() + 8);
        for (i, c) in english.char_indices() {
            match c {
                ',' if i < whole_end => {
                    if !drop_group {
                        out.push_str(&marks.group)
                    }
                }
                '.' if i == whole_end => out.push_str(&marks.decimal),
                '-' if i == 0 => out.push_str(&marks.minus),
                _ => out.push(c),
            }
        }
        Cow::Owned(out)
    }

    /// The marks English writes, which [`NumberMarks::number`] leaves as they are.
    pub fn english() -> NumberMarks {
        NumberMarks {
            group: ",".into(),
            decimal: ".".into(),
            minus: "-".into(),
            min_grouping: 1,
        }
    }

    /// The marks of the BCP 47 tag `tag`, as [`Locale::new`] reads them (English's at once,
    /// without ICU4X, for a site in English).
    pub fn of(tag: &str) -> NumberMarks {
        if tag == "en" {
            return NumberMarks::english();
        }
        let locale: IcuLocale = tag.parse().unwrap_or(IcuLocale::UNKNOWN);
        DecimalFormatter::try_new((&locale).into(), Default::default())
            .ok()
            .and_then(|f| marks_of(&f))
            .unwrap_or_else(NumberMarks::english)
    }

    /// Whether these are English's marks (a number keeps its text).
    pub fn is_english(&self) -> bool {
        self.group == "," && self.decimal == "." && self.minus == "-"
    }

    /// Whether the group mark is a kind of space (French's U+202F, U+00A0 elsewhere): an
    /// author types a plain space or a no-break space for it.
    pub fn group_is_space(&self) -> bool {
        self.group.chars().all(is_space_mark) && !self.group.is_empty()
    }

    /// `text` with every space an author may type for a space group mark (a space, a
    /// no-break space, a narrow one) written as this language's group mark, so that
    /// `10 366` typed reads as the `10\u{202f}366` shown; `text` as it is otherwise.
    pub fn same_spaces<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.group_is_space() && text.contains(is_space_mark) {
            true => Cow::Owned(text.replace(is_space_mark, &self.group)),
            false => Cow::Borrowed(text),
        }
    }
}

/// A space, a no-break space (U+00A0) or a narrow no-break space (U+202F): the characters
/// a group mark that is a space is typed as.
pub fn is_space_mark(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}')
}

/// The CLDR data of one language.
#[derive(Debug)]
pub struct Locale {
    plurals: PluralRules,
    pub marks: NumberMarks,
}

impl Locale {
    /// The locale of a BCP 47 tag (`fr-CA`); a tag ICU4X cannot read gets CLDR's root
    /// locale (`und`), whose numbers are written as in English.
    pub fn new(tag: &str) -> Locale {
        let locale: IcuLocale = tag.parse().unwrap_or(IcuLocale::UNKNOWN);
        let plurals = PluralRules::try_new_cardinal((&locale).into())
            .or_else(|_| PluralRules::try_new_cardinal(Default::default()))
            .expect("the root locale's plural rules are compiled in");
        Locale {
            plurals,
            marks: NumberMarks::of(tag),
        }
    }

    /// The CLDR plural category of a count written as a plain number (`1`, `2.5`).
    pub fn category(&self, count: &str) -> &'static str {
        let Ok(decimal) = Decimal::try_from_str(count) else {
            return "other";
        };
        category_name(self.plurals.category_for(&decimal))
    }

    /// The categories this language's messages need a form for.
    pub fn categories(&self) -> Vec<&'static str> {
        self.plurals.categories().map(category_name).collect()
    }

    /// A number written the English way (`-1,234.5` or `1234.5`, as `format_cell` and
    /// `thousands` write it) in this language's marks. Borrowed when nothing changes.
    pub fn number<'a>(&self, english: &'a str) -> Cow<'a, str> {
        self.marks.number(english)
    }
}

fn category_name(category: PluralCategory) -> &'static str {
    match category {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    }
}

/// The marks `formatter` writes, read from its output for `-1234567.5` and `1234`.
fn marks_of(formatter: &DecimalFormatter) -> Option<NumberMarks> {
    let probe = formatter
        .format(&Decimal::try_from_str("-1234567.5").ok()?)
        .to_string();
    let minus_end = probe.find('1')?;
    let after_one = &probe[minus_end + 1..];
    let group = &after_one[..after_one.find('2')?];
    let after_seven = &probe[probe.find('7')? + 1..];
    let decimal = &after_seven[..after_seven.find('5')?];
    let four = formatter
        .format(&Decimal::try_from_str("1234").ok()?)
        .to_string();
    let digits_only = |s: &str| s.chars().all(|c| c.is_ascii_digit() || c == '-');
    if !digits_only(&probe.replace(group, "").replace(decimal, "")[minus_end..]) {
        return None; // another numbering system's digits: not written by a character map
    }
    Some(NumberMarks {
        group: group.to_string(),
        decimal: decimal.to_string(),
        minus: probe[..minus_end].to_string(),
        min_grouping: if four.len() == 4 { 2 } else { 1 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `icu_decimal` itself writes, for the map to agree with.
    fn icu(tag: &str, n: &str) -> String {
        let locale: IcuLocale = tag.parse().unwrap();
        let f = DecimalFormatter::try_new((&locale).into(), Default::default()).unwrap();
        f.format(&Decimal::try_from_str(n).unwrap()).to_string()
    }

    #[test]
    fn numbers_are_written_as_icu4x_writes_them() {
        for tag in [
            "en", "fr", "fr-CA", "de", "es", "pt", "pt-PT", "de-CH", "it", "pl",
        ] {
            let locale = Locale::new(tag);
            for (english, plain) in [
                ("1,234", "1234"),
                ("12,345", "12345"),
                ("-1,636,054", "-1636054"),
                ("0.985", "0.985"),
                ("1,234.5", "1234.5"),
                ("7", "7"),
                ("-0.5", "-0.5"),
            ] {
                assert_eq!(locale.number(english), icu(tag, plain), "{tag} {plain}");
            }
        }
        assert_eq!(
            Locale::new("fr").number("1,636,054"),
            "1\u{202f}636\u{202f}054"
        );
        assert_eq!(Locale::new("de").number("1,234.5"), "1.234,5");
        assert_eq!(Locale::new("es").number("1,234"), "1234");
        assert!(matches!(
            Locale::new("en").number("1,234"),
            Cow::Borrowed(_)
        ));
        assert_eq!(Locale::new("not a tag").number("1,234"), "1,234");
    }

    #[test]
    fn plural_categories_follow_cldr() {
        let en = Locale::new("en");
        assert_eq!(
            (en.category("1"), en.category("0"), en.category("2")),
            ("one", "other", "other")
        );
        let fr = Locale::new("fr-CA");
        assert_eq!(
            (fr.category("0"), fr.category("1"), fr.category("2")),
            ("one", "one", "other")
        );
        assert_eq!(fr.category("1000000"), "many");
        assert_eq!(Locale::new("de").category("1"), "one");
        assert_eq!(Locale::new("pt").category("0"), "one");
        assert_eq!(Locale::new("pt-PT").category("0"), "other");
        assert!(fr.categories().contains(&"many"));
    }
}
