//! Readable column titles from CSV header names: `cluster_throughput_mb_s` becomes
//! "Cluster throughput (MB/s)" with unit "MB/s". A guess for the author to check, never a
//! fact: only unit spellings that are rarely anything else are recognised, and only as a
//! suffix set off by `_`, `-`, `.` or a space (`PriceMM` is Minute Maid's price, not
//! millimetres; `wattsPerKg` is a ratio).

/// Units spelled as the last two words of a name.
const TWO_WORD_UNITS: &[(&str, &str, &str)] = &[
    ("kb", "s", "kB/s"),
    ("mb", "s", "MB/s"),
    ("gb", "s", "GB/s"),
    ("kib", "s", "KiB/s"),
    ("mib", "s", "MiB/s"),
    ("gib", "s", "GiB/s"),
    ("gbit", "s", "Gbit/s"),
    ("mbit", "s", "Mbit/s"),
    ("km", "h", "km/h"),
    ("m", "s", "m/s"),
    ("per", "cent", "%"),
];

/// Units spelled as the last word of a name.
const ONE_WORD_UNITS: &[(&str, &str)] = &[
    ("ms", "ms"),
    // Not `us`: as often the United States (`gross_us`) as microseconds.
    ("ns", "ns"),
    ("s", "s"),
    ("sec", "s"),
    ("pct", "%"),
    ("percent", "%"),
    ("kb", "kB"),
    ("mb", "MB"),
    ("gb", "GB"),
    ("tb", "TB"),
    ("kib", "KiB"),
    ("mib", "MiB"),
    ("gib", "GiB"),
    ("usd", "USD"),
    ("eur", "EUR"),
    ("gbp", "GBP"),
    ("kg", "kg"),
    ("km", "km"),
    ("mm", "mm"),
    ("cm", "cm"),
    ("kwh", "kWh"),
    ("mwh", "MWh"),
    ("kw", "kW"),
    ("mw", "MW"),
    ("mhz", "MHz"),
    ("ghz", "GHz"),
    ("mph", "mph"),
];

/// Words written in capitals in a title.
const ACRONYMS: &[&str] = &["id", "url", "uri", "iso", "utc", "gdp", "cpu", "io"];

/// A title for the column and, when its name ends in a recognised unit, that unit.
pub fn title_and_unit(name: &str) -> (String, Option<String>) {
    // A header quoted inside its cell (`'popul'`, as some exports write) is titled bare.
    let name = name
        .trim()
        .trim_matches(|c| matches!(c, '\'' | '"' | '`' | '‘' | '’' | '“' | '”'));
    // A unit the name states in brackets: `Culmen Length (mm)`, `GDP (current US$)`.
    if let Some((bare, unit)) = bracketed_unit(name) {
        let (title, _) = title_and_unit(bare);
        return (format!("{title} ({unit})"), Some(unit.to_string()));
    }
    let (words, set_off) = split_words(name);
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let (kept, unit) = match split_unit(&lower) {
        // A unit counts only where a separator, not a capital, starts it.
        (kept, Some(unit)) if set_off[kept] => (kept, Some(unit)),
        _ => (lower.len(), None),
    };
    let words = &words[..kept];
    if words.is_empty() {
        return (name.trim().to_string(), None);
    }
    let mut title = String::new();
    for (index, word) in words.iter().enumerate() {
        if index > 0 {
            title.push(' ');
        }
        let lowered = word.to_lowercase();
        if ACRONYMS.contains(&lowered.as_str()) {
            title.push_str(&word.to_uppercase());
        } else if word.chars().skip(1).any(char::is_uppercase) {
            title.push_str(word); // already styled: "NVMe", "ID"
        } else if index == 0 {
            let mut chars = lowered.chars();
            if let Some(first) = chars.next() {
                title.extend(first.to_uppercase());
                title.push_str(chars.as_str());
            }
        } else {
            title.push_str(&lowered);
        }
    }
    match unit {
        Some(unit) => (format!("{title} ({unit})"), Some(unit.to_string())),
        None => (title, None),
    }
}

/// The name before a bracketed last part and that part, when it reads as a unit: short
/// (three words at most), not a number or a year (`Sales (2019)`), not a coding
/// (`am (0 = automatic)`).
fn bracketed_unit(name: &str) -> Option<(&str, &str)> {
    let (open, close) = match name.chars().last()? {
        ')' => ('(', ')'),
        ']' => ('[', ']'),
        _ => return None,
    };
    let start = name.rfind(open)?;
    let bare = name[..start].trim_end();
    let unit = name[start + 1..name.len() - close.len_utf8()].trim();
    let reads_as_unit = !bare.is_empty()
        && !unit.is_empty()
        && unit.chars().count() <= 20
        && unit.split_whitespace().count() <= 3
        && unit
            .chars()
            .any(|c| c.is_alphabetic() || matches!(c, '%' | '$' | '€' | '£' | '‰'))
        && !unit.contains(['=', '(', ')', '[', ']', ',']);
    reads_as_unit.then_some((bare, unit))
}

/// How many leading words are the name proper, and the unit the rest spells.
fn split_unit(lower: &[String]) -> (usize, Option<&'static str>) {
    let n = lower.len();
    if n >= 3 {
        let (a, b) = (lower[n - 2].as_str(), lower[n - 1].as_str());
        if let Some((_, _, unit)) = TWO_WORD_UNITS.iter().find(|(x, y, _)| *x == a && *y == b) {
            return (n - 2, Some(unit));
        }
    }
    if n >= 2 {
        if let Some((_, unit)) = ONE_WORD_UNITS.iter().find(|(w, _)| *w == lower[n - 1]) {
            return (n - 1, Some(unit));
        }
        // `c` and `f` are degrees only after a word about temperature (`temp_max_c`).
        let degrees = match lower[n - 1].as_str() {
            "c" => Some("°C"),
            "f" => Some("°F"),
            _ => None,
        };
        if degrees.is_some() && lower[..n - 1].iter().any(|w| w.starts_with("temp")) {
            return (n - 1, degrees);
        }
        // `g` is grams only after a word about mass (`body_mass_g`).
        let about_mass = |w: &String| matches!(w.as_str(), "mass" | "weight" | "wt");
        if lower[n - 1] == "g" && lower[..n - 1].iter().any(about_mass) {
            return (n - 1, Some("g"));
        }
    }
    (n, None)
}

/// The words of a column name in lower case (`AirportID` -> `airport`, `id`;
/// `sched_dep_time` -> `sched`, `dep`, `time`).
pub fn words(name: &str) -> Vec<String> {
    split_words(name)
        .0
        .into_iter()
        .map(|w| w.to_lowercase())
        .collect()
}

/// Words of a `snake_case`, `kebab-case`, `camelCase`, dotted or spaced name, and for each
/// whether a separator (not a capital) starts it.
fn split_words(name: &str) -> (Vec<String>, Vec<bool>) {
    let mut words = Vec::new();
    let mut set_off = Vec::new();
    for part in name.split(|c: char| c == '_' || c == '-' || c == '.' || c.is_whitespace()) {
        let first_of_part = words.len();
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            // A word starts at a capital after a lower-case letter ("maxTemp"); runs of
            // capitals stay whole so that "NVMe" or "HTTPServer" are not cut, and so does a
            // one-letter prefix ("iPhone", "eBay").
            let boundary = c.is_uppercase() && i > 0 && chars[i - 1].is_lowercase();
            if boundary && word.chars().count() > 1 {
                words.push(std::mem::take(&mut word));
            }
            word.push(c);
        }
        if !word.is_empty() {
            words.push(word);
        }
        set_off.extend((first_of_part..words.len()).map(|i| i == first_of_part));
    }
    (words, set_off)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(name: &str) -> String {
        title_and_unit(name).0
    }

    #[test]
    fn units_are_recognised_at_the_end() {
        assert_eq!(
            title_and_unit("cluster_throughput_mb_s"),
            ("Cluster throughput (MB/s)".into(), Some("MB/s".into()))
        );
        assert_eq!(title("latency_ms"), "Latency (ms)");
        assert_eq!(title("share_pct"), "Share (%)");
        assert_eq!(title("price_usd"), "Price (USD)");
        assert_eq!(title("wind_speed_km_h"), "Wind speed (km/h)");
        assert_eq!(title_and_unit("ms").1, None, "a name that is only a unit");
        assert_eq!(title("mb_s"), "Mb (s)", "two words: the last one only");
    }

    #[test]
    fn a_unit_is_a_set_off_suffix_never_a_capitalised_word_or_a_country() {
        // The corpus's wrong guesses: Minute Maid, tuberculosis, a ratio, a country.
        for name in [
            "PriceMM",
            "NoVaccTB",
            "wattsPerKg",
            "costS",
            "gross_us",
            "LF.PressureMB",
        ] {
            assert_eq!(title_and_unit(name).1, None, "{name}");
        }
        assert_eq!(title("PriceMM"), "Price MM");
        assert_eq!(title("'popul'"), "Popul");
        assert_eq!(title_and_unit("\"weight_kg\"").1.as_deref(), Some("kg"));
        assert_eq!(title_and_unit("LF.Pressure.MB").1.as_deref(), Some("MB"));
        assert_eq!(title_and_unit("weight-kg").1.as_deref(), Some("kg"));
        assert_eq!(title_and_unit("Speed km h").1.as_deref(), Some("km/h"));
    }

    #[test]
    fn a_unit_in_brackets_is_taken_as_written() {
        assert_eq!(
            title_and_unit("Culmen Length (mm)"),
            ("Culmen length (mm)".into(), Some("mm".into()))
        );
        assert_eq!(
            title_and_unit("Delta 15 N (o/oo)").1.as_deref(),
            Some("o/oo")
        );
        assert_eq!(
            title_and_unit("GDP (current US$)").1.as_deref(),
            Some("current US$")
        );
        assert_eq!(title_and_unit("rate [%]").1.as_deref(), Some("%"));
        // A year, a coding, a long remark, an empty name: not units.
        for name in [
            "Sales (2019)",
            "am (0 = automatic, 1 = manual)",
            "score (as reported by the survey team)",
            "(mm)",
            "x ()",
        ] {
            assert_eq!(title_and_unit(name).1, None, "{name}");
        }
        assert_eq!(title_and_unit("body_mass_g").1.as_deref(), Some("g"));
        assert_eq!(
            title_and_unit("group_g").1,
            None,
            "g only after a word about mass"
        );
    }

    #[test]
    fn names_are_split_into_words() {
        assert_eq!(title("temp_max"), "Temp max");
        assert_eq!(title("max_temp_c"), "Max temp (°C)");
        assert_eq!(
            title("maxTempC"),
            "Max temp c",
            "a capital does not set off a unit"
        );
        assert_eq!(title("temperature_f"), "Temperature (°F)");
        assert_eq!(title("grade_c"), "Grade c");
        assert_eq!(title("Miles_per_Gallon"), "Miles per gallon");
        assert_eq!(title("station-id"), "Station ID");
        assert_eq!(title("HTTPServer"), "HTTPServer");
        assert_eq!(title("iPhone_sales"), "iPhone sales");
        assert_eq!(title("NVMe_drives"), "NVMe drives");
        assert_eq!(title("date"), "Date");
        assert_eq!(title("__"), "__");
    }
}
