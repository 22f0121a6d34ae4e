//! Runs every case of `tests/fixtures/hostile/`: the small site in `_base/`, changed as the
//! case's `expected.toml` says (a `data` path, symbolic links, FIFOs, which cannot be
//! committed portably and are made here at run time), beside an `outside/` folder whose
//! files all carry a marker. `check` and `build` must exit as expected, say what the case
//! expects (file, line, message, hint), and the marker must appear nowhere: not in what
//! they print, not in the output. A case that reads a FIFO would block, so every run has a
//! time limit.
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// In every file outside the site; if any byte of them were read into a diagnostic or the
/// output, this would show.
const MARKER: &str = "HOSTILE-MARKER-5d1e9c";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    /// Written as `data = "…"` on line 2 of the dataset's front matter.
    data: Option<String>,
    build_exit: i32,
    check_exit: i32,
    #[serde(default)]
    messages: Vec<String>,
    /// Symbolic links to make (whatever is at `path` is removed first).
    #[serde(default)]
    links: Vec<Link>,
    /// FIFOs to make.
    #[serde(default)]
    fifos: Vec<String>,
    /// Pairs of (output file, site file) that must be byte-identical after the build.
    #[serde(default)]
    published: Vec<(String, String)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    path: String,
    target: String,
}

/// In the checkout's own secrets inside the site (`.git/config`, `.env`, hidden files in
/// every source folder): hidden files are never read, so this must never show either.
const SECRET: &str = "CHECKOUT-SECRET-7b41f0";

/// The hidden files of a CI checkout, each holding [`SECRET`], laid into `site`. The first
/// builds as the sample dataset's CSV if `data` ever reads it.
const SECRETS: [(&str, &str); 6] = [
    (".env", "label,value\nCHECKOUT-SECRET-7b41f0,1\n"),
    (
        ".git/config",
        "[remote \"origin\"]\n\turl = https://x-access-token:CHECKOUT-SECRET-7b41f0@example.org/r.git\n",
    ),
    ("static/.env", "TOKEN=CHECKOUT-SECRET-7b41f0\n"),
    ("data/datasets/.env", "label,value\nCHECKOUT-SECRET-7b41f0,1\n"),
    (
        "content/.draft.md",
        "+++\ntitle = \"CHECKOUT-SECRET-7b41f0\"\n+++\n\nCHECKOUT-SECRET-7b41f0\n",
    ),
    ("templates/.secret.html", "CHECKOUT-SECRET-7b41f0\n"),
];

fn write_secrets(site: &Path) {
    for (name, text) in SECRETS {
        assert!(text.contains(SECRET));
        let path = site.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Every place a diagnostic or the output could quote an outside file from.
fn write_outside(outside: &Path) {
    std::fs::create_dir_all(outside.join("pages")).unwrap();
    let files = [
        // Builds as the sample dataset if it is ever read: it would be published.
        ("secret.csv", format!("label,value\n{MARKER},1\n")),
        // Like /etc/shadow: a header error would quote this first line.
        ("shadow", format!("root:{MARKER}:19000:0:99999:7:::\n")),
        ("secret.txt", format!("{MARKER}\n")),
        ("secret.html", format!("<p>{MARKER}</p>\n")),
        (
            "secret.md",
            format!("+++\ntitle = \"{MARKER}\"\n+++\n\n{MARKER}\n"),
        ),
        (
            "pages/leak.md",
            format!("+++\ntitle = \"Leak\"\n+++\n\n{MARKER}\n"),
        ),
    ];
    for (name, text) in files {
        std::fs::write(outside.join(name), text).unwrap();
    }
}

/// Runs the binary with a time limit (a FIFO opened by mistake would block for ever).
fn run_bounded(args: &[&str]) -> Output {
    let mut child = Command::new(common::binary())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the datapages binary runs");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            child.kill().ok();
            panic!("datapages {args:?} did not finish within 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().expect("output")
}

/// Makes the case's site in `work/site`, with `work/outside` beside it.
fn prepare(case_dir: &Path, expected: &Expected, work: &Path) -> PathBuf {
    let site = work.join("site");
    let outside = work.join("outside");
    common::copy_tree(&case_dir.parent().unwrap().join("_base"), &site);
    for entry in std::fs::read_dir(case_dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name() != Some("expected.toml".as_ref()) {
            common::copy_tree(&path, &site.join(path.file_name().unwrap()));
        }
    }
    write_outside(&outside);
    write_secrets(&site);
    let fill = |text: &str| {
        text.replace("@OUTSIDE@", outside.to_str().unwrap())
            .replace("@SITE@", site.to_str().unwrap())
    };
    if let Some(data) = &expected.data {
        let md = site.join("content/datasets/sample.md");
        let text = std::fs::read_to_string(&md).unwrap();
        let rest = text.strip_prefix("+++\n").unwrap();
        std::fs::write(&md, format!("+++\ndata = \"{}\"\n{rest}", fill(data))).unwrap();
    }
    for link in &expected.links {
        let path = site.join(&link.path);
        if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path).unwrap();
        } else if path.symlink_metadata().is_ok() {
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(fill(&link.target), &path).unwrap();
    }
    for fifo in &expected.fifos {
        let path = std::ffi::CString::new(site.join(fifo).to_str().unwrap()).unwrap();
        // SAFETY: mkfifo only reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
    }
    site
}

/// Files under `dir` (links not followed: they are the case's own) holding `marker`,
/// the site's own secret files left out.
fn files_with_marker(dir: &Path, marker: &str) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.expect("walk"))
        .filter(|e| e.file_type().is_file())
        .filter(|e| !SECRETS.iter().any(|(name, _)| e.path() == dir.join(name)))
        .filter(|e| {
            let bytes = std::fs::read(e.path()).expect("read");
            bytes.windows(marker.len()).any(|w| w == marker.as_bytes())
        })
        .map(|e| e.path().to_path_buf())
        .collect()
}

#[test]
fn every_hostile_path_is_refused_and_nothing_outside_is_read() {
    let corpus = common::bundled_site().join("tests/fixtures/hostile");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expected.toml").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() >= 15, "the corpus has {} cases", cases.len());
    let mut failures = Vec::new();
    for case_dir in &cases {
        let case = case_dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected: Expected =
            toml::from_str(&std::fs::read_to_string(case_dir.join("expected.toml")).unwrap())
                .unwrap_or_else(|e| panic!("{case}: expected.toml: {e}"));
        let work = tempfile::tempdir().unwrap();
        let site = prepare(case_dir, &expected, work.path());
        let root = site.to_str().unwrap();
        for (step, args, exit) in [
            ("check", vec!["check", "--root", root], expected.check_exit),
            ("build", vec!["build", "--root", root], expected.build_exit),
        ] {
            let output = run_bounded(&args);
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            if output.status.code() != Some(exit) {
                failures.push(format!(
                    "{case}: {step} exited {:?}, expected {exit}\n{stderr}",
                    output.status.code()
                ));
            }
            if stderr.contains("panicked") {
                failures.push(format!("{case}: {step} panicked:\n{stderr}"));
            }
            for message in &expected.messages {
                if !stderr.contains(message.as_str()) {
                    failures.push(format!("{case}: {step} lacks {message:?}:\n{stderr}"));
                }
            }
            if stdout.contains(MARKER) || stderr.contains(MARKER) {
                failures.push(format!(
                    "{case}: {step} printed bytes of a file outside the site:\n{stdout}{stderr}"
                ));
            }
            if stdout.contains(SECRET) || stderr.contains(SECRET) {
                failures.push(format!(
                    "{case}: {step} printed bytes of a hidden file:\n{stdout}{stderr}"
                ));
            }
        }
        let leaked = files_with_marker(&site, MARKER);
        if !leaked.is_empty() {
            failures.push(format!("{case}: outside bytes were written to {leaked:?}"));
        }
        let leaked = files_with_marker(&site, SECRET);
        if !leaked.is_empty() {
            failures.push(format!(
                "{case}: hidden files' bytes were written to {leaked:?}"
            ));
        }
        for (output, source) in &expected.published {
            let published = std::fs::read(site.join("public").join(output));
            let original = std::fs::read(site.join(source)).unwrap();
            if published.as_ref().ok() != Some(&original) {
                failures.push(format!("{case}: public/{output} is not {source}"));
            }
        }
        if expected.build_exit != 0 && site.join("public").exists() {
            failures.push(format!("{case}: a refused build wrote public/"));
        }
    }
    common::assert_no_failures(&failures);
}

/// Before confinement, a header error quoted the first line of the file `data` named:
/// the column names here are what that error would print.
#[test]
fn a_header_error_never_quotes_an_outside_file() {
    let work = tempfile::tempdir().unwrap();
    let site = work.path().join("site");
    let outside = work.path().join("outside");
    write_outside(&outside);
    let front = format!("data = \"../outside/shadow\"\n{}", common::SMALL_FRONT);
    common::write_small_site(&site, &front, common::SMALL_BODY, b"label,value\na,1\n");
    let output = run_bounded(&["check", "--root", site.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`data` points outside the site folder"),
        "{stderr}"
    );
    assert!(!stderr.contains(MARKER), "{stderr}");
    assert!(!stderr.contains("root:"), "{stderr}");
}

/// `serve` reloads single files without walking their folders: a link made while it runs
/// is refused there too, and nothing outside reaches the live output.
#[test]
fn serve_rebuilds_refuse_links_made_while_serving() {
    use datapages::{BuildOptions, Change, Session};
    use std::os::unix::fs::symlink;

    let work = tempfile::tempdir().unwrap();
    let site = work.path().join("site");
    let outside = work.path().join("outside");
    common::copy_tree(
        &common::bundled_site().join("tests/fixtures/hostile/_base"),
        &site,
    );
    write_outside(&outside);
    let options = BuildOptions::new(&site)
        .output(site.join("public"))
        .scan_cache(false);
    let (mut session, _) = match Session::start(&options, |staging| staging.commit()) {
        Ok(started) => started,
        Err(d) => panic!("the base site builds:\n{}", d.render(false)),
    };
    let csv = site.join("data/datasets/sample.csv");
    std::fs::remove_file(&csv).unwrap();
    let steps: [(&str, &Path, Change, &str); 3] = [
        (
            "static/leak.txt",
            &outside.join("secret.txt"),
            Change::Static("leak.txt".into()),
            "static/leak.txt is a symbolic link that leads outside the site folder",
        ),
        (
            "content/leak.md",
            &outside.join("secret.md"),
            Change::Page("content/leak.md".into()),
            "content/leak.md is a symbolic link that leads outside the site folder",
        ),
        (
            "data/datasets/sample.csv",
            &outside.join("secret.csv"),
            Change::DataFile("data/datasets/sample.csv".into()),
            "data/datasets/sample.csv is a symbolic link that leads outside the site folder",
        ),
    ];
    for (link, target, change, message) in steps {
        symlink(target, site.join(link)).unwrap();
        match session.rebuild([change], |staging| staging.commit()) {
            Ok(report) => panic!("{link}: the rebuild succeeded: {}", report.summary()),
            Err(d) => {
                let text = d.render(false);
                assert!(text.contains(message), "{link}: {text}");
                assert!(!text.contains(MARKER), "{link}: {text}");
            }
        }
    }
    assert_eq!(files_with_marker(&site, MARKER), Vec::<PathBuf>::new());
}
