//! The GitHub Pages workflow `init --ci github` writes (datapages.yml) and the datapages it
//! installs: a commit of a repository, pinned, fetched with `cargo install --git`. No
//! datapages release or crate is published yet, so the workflow never names one; the
//! source is the one this binary records (src/provenance.rs), or `--install-from`.

use std::path::Path;

use crate::diagnostics::{Diagnostic, Error};
use crate::provenance::{self, remote};

/// The workflow with `@REPOSITORY@` and `@COMMIT@` where the source goes.
const TEMPLATE: &str = include_str!("datapages.yml");

/// A datapages the workflow can install: one commit of a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallSource {
    /// An https address (checked by `remote::https_address`: nothing else reaches the file).
    pub repository: String,
    /// A full commit id.
    pub commit: String,
}

impl InstallSource {
    /// The source this binary was built from, when it records both parts.
    pub fn recorded() -> Option<InstallSource> {
        Some(InstallSource {
            repository: provenance::repository()?.to_string(),
            commit: provenance::commit()?.to_string(),
        })
    }

    /// `--install-from URL@COMMIT`: an https address and a full commit id.
    pub fn parse(text: &str) -> Result<InstallSource, String> {
        let shape = "give the repository's https address and a full commit, like \
                     https://HOST/OWNER/datapages@COMMIT (40 hexadecimal digits: `git rev-parse HEAD`)";
        let Some((address, commit)) = text.rsplit_once('@') else {
            return Err(format!("{text:?} names no commit: {shape}"));
        };
        let repository = remote::https_address(address)
            .filter(|https| https == address.trim_end_matches('/'))
            .ok_or_else(|| {
                format!("{address:?} is not an https address of a repository: {shape}")
            })?;
        if !remote::is_commit(commit) {
            return Err(format!("{commit:?} is not a full commit id: {shape}"));
        }
        Ok(InstallSource {
            repository,
            commit: commit.to_string(),
        })
    }

    /// `--install-from` when given, else what this binary records; without either, an error
    /// that says what to pass.
    pub fn chosen(install_from: Option<InstallSource>) -> Result<InstallSource, Error> {
        if let Some(source) = install_from.or_else(InstallSource::recorded) {
            return Ok(source);
        }
        let built = match provenance::commit() {
            Some(commit) => format!("commit {commit}"),
            None => "an unknown commit".into(),
        };
        Err(Error::from(vec![Diagnostic::error(
            Path::new("--ci"),
            format!(
                "the workflow must install a datapages that exists, and this one was built \
                 from {built} of a repository it does not record (no datapages release is \
                 published yet)"
            ),
        )
        .with_hint(
            "pass --install-from URL@COMMIT: the https address of the datapages repository and \
             a full commit of it, which the workflow installs with \
             `cargo install --git URL --rev COMMIT --locked datapages` (docs/publishing.md)",
        )]))
    }
}

/// The workflow installing `source`.
pub fn github_workflow(source: &InstallSource) -> String {
    TEMPLATE
        .replace("@REPOSITORY@", &source.repository)
        .replace("@COMMIT@", &source.commit)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

    #[test]
    fn install_from_takes_an_https_address_and_a_full_commit() {
        let source =
            InstallSource::parse(&format!("https://git.example.org/o/datapages@{COMMIT}")).unwrap();
        assert_eq!(source.repository, "https://git.example.org/o/datapages");
        assert_eq!(source.commit, COMMIT);
        for refused in [
            "https://git.example.org/o/datapages".to_string(),
            "https://git.example.org/o/datapages@a2a6ee0".into(),
            "https://git.example.org/o/datapages@main".into(),
            format!("git@git.example.org:o/datapages@{COMMIT}"),
            format!("https://me:token@git.example.org/o/datapages@{COMMIT}"),
            format!("https://git.example.org/o/$(curl evil)@{COMMIT}"),
            format!("https://git.example.org/o/r\"\n  run: x@{COMMIT}"),
            format!("/srv/datapages@{COMMIT}"),
        ] {
            assert!(InstallSource::parse(&refused).is_err(), "{refused}");
        }
    }

    /// The source goes into the two `env` values and nowhere else; the template has no
    /// placeholder left and no other way to install.
    #[test]
    fn the_workflow_installs_exactly_the_source() {
        assert_eq!(TEMPLATE.matches("@REPOSITORY@").count(), 1);
        assert_eq!(TEMPLATE.matches("@COMMIT@").count(), 1);
        let source = InstallSource {
            repository: "https://git.example.org/o/datapages".into(),
            commit: COMMIT.into(),
        };
        let text = github_workflow(&source);
        assert!(!text.contains("@REPOSITORY@") && !text.contains("@COMMIT@"));
        assert!(text.contains("  DATAPAGES_REPOSITORY: \"https://git.example.org/o/datapages\"\n"));
        assert!(text.contains(&format!("  DATAPAGES_COMMIT: \"{COMMIT}\"\n")));
        assert!(text.contains(
            "run: cargo install --git \"$DATAPAGES_REPOSITORY\" --rev \"$DATAPAGES_COMMIT\" --locked datapages\n"
        ));
    }

    /// Without `--install-from` the recorded source is used when there is one; otherwise
    /// the error says what to pass.
    #[test]
    fn without_a_recorded_source_install_from_is_asked_for() {
        match (InstallSource::chosen(None), InstallSource::recorded()) {
            (Ok(chosen), Some(recorded)) => assert_eq!(chosen, recorded),
            (Err(error), None) => {
                let text = error.render(false);
                assert!(text.contains("--install-from URL@COMMIT"), "{text}");
                assert!(text.contains("no datapages release"), "{text}");
            }
            (chosen, recorded) => panic!("{chosen:?} with {recorded:?} recorded"),
        }
        let given = InstallSource::parse(&format!("https://git.example.org/o/d@{COMMIT}")).unwrap();
        assert_eq!(InstallSource::chosen(Some(given.clone())).unwrap(), given);
    }
}
