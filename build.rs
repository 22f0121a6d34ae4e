//! Records where the binary is built from, for `datapages --version` and the install step
//! `datapages init --ci github` writes (src/provenance.rs reads these):
//!
//! - the commit and its date: `git` when the package folder is the top of a git checkout,
//!   else the commit `cargo package` wrote into `.cargo_vcs_info.json`;
//! - the repository: the checkout's `origin`, as an https address, only when one of its
//!   remote branches contains the commit (else a workflow could not fetch it), else
//!   Cargo.toml's `repository`.
//!
//! `DATAPAGES_REPOSITORY`, `DATAPAGES_COMMIT` and `DATAPAGES_COMMIT_DATE` override them for
//! packaged builds; a malformed override stops the build. Nothing found is recorded as
//! empty (shown as "unknown"), never guessed.

use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
#[path = "src/provenance/remote.rs"]
mod remote;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let git = Git::at(&dir);
    // Relative to the package: a packaged copy elsewhere (sharing the target folder) runs
    // this again instead of reusing the checkout's record.
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(git) = &git {
        git.watch();
    }
    let date = overridden("DATAPAGES_COMMIT_DATE", remote::is_date);
    // An overridden commit takes its date from the override only: the checkout's is another's.
    let (commit, date) = match overridden("DATAPAGES_COMMIT", remote::is_commit) {
        Some(commit) => (Some(commit), date),
        None => (
            git.as_ref()
                .and_then(Git::commit)
                .or_else(|| packaged_commit(&dir)),
            date.or_else(|| git.as_ref()?.date()),
        ),
    };
    let repository = overridden("DATAPAGES_REPOSITORY", |r| {
        remote::https_address(r).as_deref() == Some(r)
    })
    .or_else(|| git.as_ref()?.published_at())
    .or_else(|| remote::https_address(&std::env::var("CARGO_PKG_REPOSITORY").ok()?));
    let target = std::env::var("TARGET").unwrap_or_default();
    for (name, value) in [
        ("COMMIT", commit),
        ("DATE", date),
        ("REPOSITORY", repository),
        ("TARGET", Some(target)),
    ] {
        println!(
            "cargo:rustc-env=DATAPAGES_BUILT_{name}={}",
            value.unwrap_or_default()
        );
    }
}

/// The value of an override, which must pass `valid`.
fn overridden(name: &str, valid: fn(&str) -> bool) -> Option<String> {
    println!("cargo:rerun-if-env-changed={name}");
    let value = std::env::var(name).ok().filter(|v| !v.is_empty())?;
    if !valid(&value) {
        panic!("{name}={value:?} is not well-formed: see build.rs for what it may hold");
    }
    Some(value)
}

/// The commit `cargo package` recorded (a crate from crates.io has no `.git`).
fn packaged_commit(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let at = text.find("\"sha1\"")? + "\"sha1\"".len();
    let rest = text[at..].trim_start().strip_prefix(':')?.trim_start();
    let sha1 = rest.strip_prefix('"')?.split('"').next()?;
    remote::is_commit(sha1).then(|| sha1.to_string())
}

/// A git checkout whose top is the package folder (not a packaged copy inside another
/// checkout, such as `target/package/`).
struct Git {
    dir: PathBuf,
}

impl Git {
    fn at(dir: &Path) -> Option<Git> {
        let git = Git {
            dir: dir.to_path_buf(),
        };
        let top = PathBuf::from(git.run(&["rev-parse", "--show-toplevel"])?);
        let same = top.canonicalize().ok()? == dir.canonicalize().ok()?;
        same.then_some(git)
    }

    fn run(&self, args: &[&str]) -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        out.status.success().then(|| text.trim().to_string())
    }

    fn commit(&self) -> Option<String> {
        self.run(&["rev-parse", "HEAD"])
            .filter(|c| remote::is_commit(c))
    }

    fn date(&self) -> Option<String> {
        self.run(&["log", "-1", "--format=%cs", "HEAD"])
            .filter(|d| remote::is_date(d))
    }

    /// `origin`'s https address, when one of its branches (as last fetched) holds HEAD.
    fn published_at(&self) -> Option<String> {
        let branches = self.run(&[
            "for-each-ref",
            "--contains",
            "HEAD",
            "--format=%(refname)",
            "refs/remotes/origin",
        ])?;
        if branches.is_empty() {
            return None;
        }
        remote::https_address(&self.run(&["remote", "get-url", "origin"])?)
    }

    /// Runs this script again when HEAD moves, a branch is committed to or fetched.
    fn watch(&self) {
        let mut paths = vec![
            "HEAD".to_string(),
            "packed-refs".into(),
            "refs/remotes".into(),
        ];
        paths.extend(self.run(&["symbolic-ref", "-q", "HEAD"]));
        for path in paths {
            let Some(found) = self.run(&["rev-parse", "--git-path", &path]) else {
                continue;
            };
            let found = self.dir.join(found);
            if found.exists() {
                println!("cargo:rerun-if-changed={}", found.display());
            }
        }
    }
}
