//! What command-line users expect besides the commands: `--version` with the commit and
//! date the binary was built from, shell completion scripts (`completions <shell>`) and the
//! manual pages (`man`), both generated from the one definition of the commands.

use crate::common;

use std::process::Command;

/// Every subcommand, as `--help` lists them.
const COMMANDS: [&str; 8] = [
    "build",
    "serve",
    "check",
    "init",
    "new",
    "eject",
    "completions",
    "man",
];

fn stdout(args: &[&str]) -> String {
    let out = common::run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn version_names_the_commit_and_its_date() {
    let short = stdout(&["-V"]);
    let line = short
        .trim()
        .strip_prefix("datapages 0.")
        .expect("name and version");
    let inside = line.split_once(" (").unwrap().1.strip_suffix(')').unwrap();
    match inside.split_once(' ') {
        Some((commit, date)) if commit.len() == 12 => {
            assert!(commit.bytes().all(|b| b.is_ascii_hexdigit()), "{short}");
            assert!(date == "unknown" || date.len() == 10, "{short}");
        }
        _ => assert_eq!(inside, "commit unknown", "{short}"),
    }
    let long = stdout(&["--version"]);
    assert!(long.starts_with(&short), "{long}");
    for field in ["commit: ", "commit date: ", "repository: ", "target: "] {
        assert!(
            long.lines().any(|l| l.starts_with(field)),
            "{field} in {long}"
        );
    }
}

#[test]
fn completion_scripts_cover_every_command_and_bash_parses_its_own() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: {command}");
        }
        assert!(script.contains("install-from"), "{shell}");
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("datapages.bash");
    std::fs::write(&script, stdout(&["completions", "bash"])).unwrap();
    // Loading the script defines the completion function and registers it.
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p datapages",
            script.display()
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("datapages"));
    assert_eq!(common::run(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn the_manual_page_documents_every_command_and_one_page_each_is_written() {
    let page = stdout(&["man"]);
    assert!(
        page.contains(".TH datapages 1"),
        "a roff page: {}",
        &page[..200]
    );
    for command in COMMANDS {
        assert!(page.contains(command), "{command}");
    }
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("man1");
    stdout(&["man", "--dir", folder.to_str().unwrap()]);
    let init = std::fs::read_to_string(folder.join("datapages-init.1")).unwrap();
    assert!(init.contains("install\\-from"), "init's options");
    for command in COMMANDS {
        assert!(
            folder.join(format!("datapages-{command}.1")).is_file(),
            "{command}"
        );
    }
    assert!(folder.join("datapages.1").is_file());
}

/// Output read only in part (`datapages man | head`): the command ends without a panic
/// message, having done its work (init's files are all written).
#[test]
fn a_closed_output_pipe_ends_a_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["man"][..], &["completions", "zsh"], &["init", "site"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(common::binary())
            .current_dir(dir.path())
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!out.status.success(), "{args:?}: the pipe was closed");
    }
    assert!(dir
        .path()
        .join("site/content/datasets/planets.md")
        .is_file());
}
