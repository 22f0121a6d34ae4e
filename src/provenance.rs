//! Where this binary was built from, as build.rs recorded it: the commit and its date, the
//! repository that commit can be fetched from, the target. What is not known is `None`,
//! never a guess: `--version` says "unknown", and `init --ci github` asks for the source.

pub mod remote;

/// The commit this binary was built from (40 or 64 hexadecimal digits), if known.
pub fn commit() -> Option<&'static str> {
    known(env!("DATAPAGES_BUILT_COMMIT"))
}

/// The date of that commit (`YYYY-MM-DD`), if known.
pub fn commit_date() -> Option<&'static str> {
    known(env!("DATAPAGES_BUILT_DATE"))
}

/// The https address of a repository that holds the commit, if known: the checkout's
/// `origin` when a branch of it contains the commit, or `DATAPAGES_REPOSITORY` at build time.
pub fn repository() -> Option<&'static str> {
    known(env!("DATAPAGES_BUILT_REPOSITORY"))
}

fn known(value: &'static str) -> Option<&'static str> {
    Some(value).filter(|v| !v.is_empty())
}

/// What `-V` prints after the name: `0.1.0 (a2a6ee0c1d2e 2026-12-04)`.
pub fn version() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        let commit = match commit() {
            Some(commit) => commit[..12].to_string(),
            None => "commit unknown".into(),
        };
        let date = commit_date().map(|d| format!(" {d}")).unwrap_or_default();
        format!("{} ({commit}{date})", env!("CARGO_PKG_VERSION"))
    })
}

/// What `--version` prints after the name: the version line, then the whole commit, its
/// date, the repository and the target, each on its own line.
pub fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let unknown = "unknown";
        format!(
            "{}\ncommit: {}\ncommit date: {}\nrepository: {}\ntarget: {}",
            version(),
            commit().unwrap_or(unknown),
            commit_date().unwrap_or(unknown),
            repository().unwrap_or(unknown),
            env!("DATAPAGES_BUILT_TARGET"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::remote::{https_address, is_commit, is_date};
    use super::*;

    #[test]
    fn remotes_become_https_addresses_without_credentials() {
        let cases = [
            (
                "https://github.com/o/datapages",
                "https://github.com/o/datapages",
            ),
            (
                "https://github.com/o/datapages.git/",
                "https://github.com/o/datapages.git",
            ),
            (
                "https://me:token@git.example.org/o/r",
                "https://git.example.org/o/r",
            ),
            (
                "git@github.com:o/datapages.git",
                "https://github.com/o/datapages.git",
            ),
            (
                "ssh://git@gitlab.com:2222/g/sub/r",
                "https://gitlab.com/g/sub/r",
            ),
        ];
        for (remote, address) in cases {
            assert_eq!(https_address(remote).as_deref(), Some(address), "{remote}");
        }
        for refused in [
            "/srv/git/datapages",
            "../datapages",
            "file:///srv/git/datapages",
            "http://github.com/o/r",
            "https://github.com/",
            "https://localhost/r",
            "https://github.com/o/r$(id)",
            "https://github.com/o/r\"",
            "https://github.com/o/${{ secrets.X }}",
            "https://github.com/o/../r",
            "https://github.com/o/r x",
            "C:\\src\\datapages",
            "host:path",
        ] {
            assert_eq!(https_address(refused), None, "{refused}");
        }
    }

    #[test]
    fn commits_are_full_lowercase_ids_and_dates_iso() {
        assert!(is_commit(&"a".repeat(40)));
        assert!(is_commit(&"0123456789abcdef".repeat(4)));
        assert!(!is_commit("a2a6ee0"));
        assert!(!is_commit(&"A".repeat(40)));
        assert!(!is_commit(&"g".repeat(40)));
        assert!(is_date("2026-12-04"));
        assert!(!is_date("2026-12-4"));
        assert!(!is_date("20261204xx"));
    }

    /// What is recorded is either unknown or well-formed, and `--version` shows it.
    #[test]
    fn the_recorded_source_is_well_formed_and_shown() {
        assert!(commit().is_none_or(is_commit));
        assert!(commit_date().is_none_or(is_date));
        assert!(repository().is_none_or(|r| https_address(r).as_deref() == Some(r)));
        let long = long_version();
        assert!(long.starts_with(version()));
        assert!(long.contains(&format!("commit: {}", commit().unwrap_or("unknown"))));
        assert!(long.contains(&format!(
            "repository: {}",
            repository().unwrap_or("unknown")
        )));
    }
}
