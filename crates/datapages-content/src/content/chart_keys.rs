//! The `[[charts]]` keys for many series: `y` as one column or several, `aggregate`
//! (one value per x and series) and the series count past which a line needs `highlight`.

use serde::Deserialize;

/// A line chart with more series than this draws them only with `highlight`: past it,
/// colours and dashes repeat and a reader can no longer tell the lines apart.
pub const READABLE_SERIES: usize = 8;

/// The `y` of a chart: one numeric column (`y = "value"`) or several sharing a unit
/// (`y = ["GOOG", "AAPL"]`), each drawn as a series named by its column.
#[derive(Debug, Clone, PartialEq)]
pub struct YColumns(pub Vec<String>);

impl YColumns {
    /// The one column of a chart of one `y`, or the first of several.
    pub fn first(&self) -> &str {
        self.0.first().map_or("", String::as_str)
    }

    /// Whether the chart draws several columns, one series each.
    pub fn several(&self) -> bool {
        self.0.len() > 1
    }
}

impl From<&str> for YColumns {
    fn from(name: &str) -> Self {
        YColumns(vec![name.to_string()])
    }
}

impl<'de> Deserialize<'de> for YColumns {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        one_or_many(
            deserializer,
            "y must be a column name or a list of them, e.g. \"price\" or [\"GOOG\", \"AAPL\"]",
        )
        .map(YColumns)
    }
}

/// One string or a list of strings, as a list; `message` when it is neither.
pub fn one_or_many<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    message: &str,
) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        One(String),
        Many(Vec<String>),
    }
    match Raw::deserialize(deserializer) {
        Ok(Raw::One(value)) => Ok(vec![value]),
        Ok(Raw::Many(values)) => Ok(values),
        Err(_) => Err(serde::de::Error::custom(message)),
    }
}

/// How the rows that share an x (and series) become the one point a line joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    Mean,
    Median,
    Sum,
    Count,
}

impl Aggregate {
    /// The name used in front matter.
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::Median => "median",
            Aggregate::Sum => "sum",
            Aggregate::Count => "count",
        }
    }

    /// The one value of a group of values (never empty).
    pub fn of(self, values: &mut [f64]) -> f64 {
        match self {
            Aggregate::Count => values.len() as f64,
            Aggregate::Sum => values.iter().sum(),
            Aggregate::Mean => values.iter().sum::<f64>() / values.len() as f64,
            Aggregate::Median => {
                values.sort_by(f64::total_cmp);
                let mid = values.len() / 2;
                if values.len() % 2 == 1 {
                    values[mid]
                } else {
                    (values[mid - 1] + values[mid]) / 2.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_aggregate_gives_its_value() {
        let values = [4.0, 1.0, 10.0, 3.0];
        let of = |a: Aggregate| a.of(&mut values.clone());
        assert_eq!(of(Aggregate::Mean), 4.5);
        assert_eq!(of(Aggregate::Median), 3.5);
        assert_eq!(of(Aggregate::Sum), 18.0);
        assert_eq!(of(Aggregate::Count), 4.0);
        assert_eq!(Aggregate::Median.of(&mut [5.0, 1.0, 3.0]), 3.0);
    }

    #[test]
    fn y_is_one_column_or_several() {
        #[derive(Deserialize)]
        struct T {
            y: YColumns,
        }
        let one: T = toml::from_str("y = \"price\"").unwrap();
        assert_eq!(one.y, YColumns::from("price"));
        assert!(!one.y.several());
        let many: T = toml::from_str("y = [\"GOOG\", \"AAPL\"]").unwrap();
        assert_eq!(many.y.0, ["GOOG", "AAPL"]);
        assert!(many.y.several());
        assert_eq!(many.y.first(), "GOOG");
        let wrong = toml::from_str::<T>("y = 3").err().unwrap().to_string();
        assert!(wrong.contains("a column name or a list"), "{wrong}");
    }
}
