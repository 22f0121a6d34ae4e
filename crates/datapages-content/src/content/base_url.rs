//! `base_url` and `data_url`, where the site and its big files are published: read once,
//! ending with `/`, and the one place a site-relative path becomes an absolute URL.

/// Where the site is published (site.toml's `base_url`, or `--base-url`), or its big files
/// (a `data_url`, site.toml's or a dataset's): an absolute http(s) address ending with `/`
/// (added when missing), checked where it is read (`site_values::base_url_problem`,
/// `data_url_problem`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(from = "String")]
pub struct BaseUrl(String);

impl From<String> for BaseUrl {
    fn from(mut url: String) -> Self {
        if !url.ends_with('/') {
            url.push('/');
        }
        BaseUrl(url)
    }
}

impl BaseUrl {
    /// The address, ending with `/`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The absolute URL of site-relative `path` (a leading `/` dropped), or of a fragment
    /// of the home page (`#publisher`).
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, path.trim_start_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_ends_with_one_slash_and_joins_paths_and_fragments() {
        let base = BaseUrl::from("https://example.org/sub".to_string());
        assert_eq!(base.as_str(), "https://example.org/sub/");
        assert_eq!(BaseUrl::from(base.as_str().to_string()), base);
        assert_eq!(
            base.join("/datasets/a/"),
            "https://example.org/sub/datasets/a/"
        );
        assert_eq!(
            base.join("data/a.csv"),
            "https://example.org/sub/data/a.csv"
        );
        assert_eq!(
            base.join("#publisher"),
            "https://example.org/sub/#publisher"
        );
        assert_eq!(base.join(""), "https://example.org/sub/");
    }
}
