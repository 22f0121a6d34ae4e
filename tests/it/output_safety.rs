//! `--output` can never destroy the site, an existing folder is replaced only when it is
//! datapages' own output (or `--force`), and a build killed at any moment leaves the output
//! path holding a complete old or new tree, with no leftovers after the next build.

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

type Tree = Vec<(PathBuf, Vec<u8>)>;

/// Runs the binary in `cwd`.
fn run_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(common::binary())
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the datapages binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A copy of the bundled site in `<tmp>/parent/site`, with a `.git` folder and a symlink
/// `link` to content/; returns (guard, site folder).
fn site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("parent/site");
    common::copy_bundled_site(&root);
    std::fs::create_dir_all(root.join(".git/objects")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::os::unix::fs::symlink(root.join("content"), root.join("link")).unwrap();
    (dir, root)
}

#[test]
fn every_spelling_of_a_source_folder_as_output_is_refused() {
    let (dir, root) = site();
    let parent = root.parent().unwrap().to_path_buf();
    let absolute_root = root.to_str().unwrap().to_string();
    let before = common::tree_contents(dir.path());
    // (working directory, arguments)
    let in_site: Vec<&str> = vec![
        "content",
        "./content",
        "content/",
        "x/../content",
        "./content/../content/.",
        ".",
        "./",
        "..",
        "../..",
        &absolute_root,
        "/",
        "link",
        "link/",
        "data/datasets",
        "data",
        "templates/new",
        "static",
        ".git",
        ".datapages-cache",
        "site.toml",
    ];
    let mut cases: Vec<(PathBuf, Vec<String>)> = in_site
        .iter()
        .map(|output| (root.clone(), vec!["--output".into(), output.to_string()]))
        .collect();
    for (root_arg, output) in [
        ("site", "site"),
        ("site", "site/content"),
        ("./site/", "site/../site/data/"),
        ("site", "."),
        ("site", "./site/link"),
        ("site/", "site/templates"),
    ] {
        cases.push((
            parent.clone(),
            vec![
                "--root".into(),
                root_arg.into(),
                "--output".into(),
                output.into(),
            ],
        ));
    }
    let mut failures = Vec::new();
    for (cwd, args) in &cases {
        for command in ["build", "serve"] {
            let mut full: Vec<&str> = vec![command];
            full.extend(args.iter().map(String::as_str));
            if command == "serve" {
                full.extend(["--port", "0"]);
            }
            let result = run_in(cwd, &full);
            let text = stderr(&result);
            if result.status.code() != Some(1) || !text.contains("output") {
                failures.push(format!(
                    "{full:?} in {}: exit {:?}\n{text}",
                    cwd.display(),
                    result.status.code()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        common::tree_contents(dir.path()) == before,
        "the sources changed"
    );
    let text = stderr(&run_in(&root, &["build", "--output", "./content/"]));
    assert!(
        text.contains("./content/") && text.contains("is the site's content/ folder"),
        "{text}"
    );
    assert!(text.contains("choose an output folder outside"), "{text}");
}

#[test]
fn a_foreign_folder_is_replaced_only_with_force() {
    let (_dir, root) = site();
    let out = root.parent().unwrap().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("thesis.tex"), "three years of work").unwrap();
    let out_arg = out.to_str().unwrap();
    let refused = run_in(&root, &["build", "--output", out_arg]);
    let text = stderr(&refused);
    assert_eq!(refused.status.code(), Some(1), "{text}");
    assert!(text.contains("not written by datapages"), "{text}");
    assert!(text.contains("--force"), "{text}");
    assert_eq!(
        std::fs::read_to_string(out.join("thesis.tex")).unwrap(),
        "three years of work"
    );
    let serve = run_in(&root, &["serve", "--port", "0", "--output", out_arg]);
    assert_eq!(serve.status.code(), Some(1), "{}", stderr(&serve));
    assert!(out.join("thesis.tex").exists());

    let forced = run_in(&root, &["build", "--output", out_arg, "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(!out.join("thesis.tex").exists());
    assert!(out.join("index.html").is_file());
    let marker = std::fs::read_to_string(out.join(".datapages-output")).unwrap();
    assert!(marker.contains("datapages"), "{marker}");

    // Its own output is replaced without asking, and the marker stays out of the sitemap.
    let again = run_in(&root, &["build", "--output", out_arg]);
    assert!(again.status.success(), "{}", stderr(&again));
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(!sitemap.contains(".datapages-output"));
}

#[test]
fn an_empty_folder_and_a_missing_one_are_fine() {
    let (_dir, root) = site();
    let empty = root.parent().unwrap().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for output in [empty, root.parent().unwrap().join("new/deeper")] {
        let result = run_in(&root, &["build", "--output", output.to_str().unwrap()]);
        assert!(result.status.success(), "{}", stderr(&result));
        assert!(output.join("index.html").is_file());
    }
    // The default output, twice: the second build replaces the first.
    for _ in 0..2 {
        let result = run_in(&root, &["build"]);
        assert!(result.status.success(), "{}", stderr(&result));
    }
    assert_eq!(leftovers(&root), Vec::<String>::new());
}

/// Staging and old folders beside the output.
fn leftovers(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".staging-") || n.contains(".old-"))
        .collect()
}

/// The bundled site plus enough generated datasets that a debug build takes a while.
fn large_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::copy_bundled_site(&root);
    for n in 0..30 {
        let mut csv = String::from("label,value\n");
        for row in 0..300 {
            let _ = writeln!(csv, "\"row {row} of set {n}\",{}", row * n);
        }
        std::fs::write(root.join(format!("data/datasets/gen-{n:02}.csv")), csv).unwrap();
        let front =
            common::SMALL_FRONT.replace("title = \"Sample\"", &format!("title = \"Set {n}\""));
        std::fs::write(
            root.join(format!("content/datasets/gen-{n:02}.md")),
            format!("+++\n{front}+++\n{}", common::SMALL_BODY),
        )
        .unwrap();
    }
    (dir, root)
}

#[test]
#[ignore = "full tier: 60 builds killed with SIGKILL at random moments"]
fn a_build_killed_at_any_moment_leaves_a_complete_output() {
    let (_dir, root) = large_site();
    let public = root.join("public");
    let dates = ["2026-01-01", "2026-02-02"];
    let build = |date: &str| {
        let result = run_in(&root, &["build", "--date", date]);
        assert!(result.status.success(), "{}", stderr(&result));
        common::tree_contents(&public)
    };
    let started = Instant::now();
    let first: Tree = build(dates[0]);
    let second: Tree = build(dates[1]);
    let build_time = started.elapsed() / 2;
    assert_ne!(first, second, "the two dates must give different outputs");
    println!("one build takes about {} ms", build_time.as_millis());

    let iterations = 60;
    let mut seen = [0usize; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..iterations {
        // Half the kills spread over the whole build, half around its end (the commit).
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let fraction = (state % 1000) as f64 / 1000.0;
        let fraction = if i % 2 == 0 {
            fraction * 1.2
        } else {
            0.8 + fraction * 0.3
        };
        let delay = build_time.mul_f64(fraction);
        let mut child = Command::new(common::binary())
            .args(["build", "--date", dates[i % 2]])
            .current_dir(&root)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        child.wait().unwrap();
        let tree = common::tree_contents(&public);
        if tree == first {
            seen[0] += 1;
        } else if tree == second {
            seen[1] += 1;
        } else {
            panic!(
                "kill {i} after {} ms left an incomplete output ({} files)",
                delay.as_millis(),
                tree.len()
            );
        }
    }
    println!("complete old or new output after every kill: {seen:?}");
    build(dates[0]);
    assert_eq!(leftovers(&root), Vec::<String>::new());
}

/// An output folder that is a mount point cannot be renamed: its contents are replaced.
/// Mounting needs root (`unshare -m`); elsewhere the test says so and passes, as the
/// decision itself is unit-tested in `output::swap`.
#[test]
fn a_mount_point_output_has_its_contents_replaced() {
    let (_dir, root) = site();
    let script = r#"
        set -e
        mkdir out
        mount -t tmpfs none out || exit 77
        "$BIN" build --output out
        echo stale > out/stale.txt
        "$BIN" build --output out
        test -f out/index.html
        test -f out/.datapages-output
        test ! -e out/stale.txt
        if ls -a | grep -q 'staging\|old-'; then exit 3; fi
        rm out/.datapages-output
        if "$BIN" build --output out; then exit 4; fi
        test -f out/stale.txt || test -f out/index.html
    "#;
    let Some(result) = in_mount_namespace(&root, script) else {
        return;
    };
    assert!(result.status.success(), "{}", stderr(&result));
}

/// A mount point without room for the new output: the build fails, says the output was
/// left as it was, and it was (every file the same bytes), with nothing of ours left in it.
/// Before, the old files were deleted first and the copy then ran out of room.
#[test]
fn a_full_mount_point_output_is_left_as_it_was() {
    let (_dir, root) = site();
    let script = r#"
        set -e
        mkdir out
        mount -t tmpfs -o size=6m none out || exit 77
        "$BIN" build --output out
        (cd out && find . -type f | sort | xargs sha256sum) > before.txt
        # Fits beside nothing else, not beside the old output.
        head -c 5500000 /dev/urandom > static/big.bin
        if "$BIN" build --output out 2> err.txt; then exit 5; fi
        cat err.txt >&2
        grep -q "was left as it was" err.txt || exit 6
        (cd out && find . -type f | sort | xargs sha256sum) > after.txt
        cmp before.txt after.txt || exit 7
        if ls -a out | grep -q 'datapages-incoming\|datapages-old'; then exit 8; fi
        rm static/big.bin
        "$BIN" build --output out
        test -f out/index.html
    "#;
    let Some(result) = in_mount_namespace(&root, script) else {
        return;
    };
    assert!(
        result.status.success(),
        "exit {:?}\n{}",
        result.status.code(),
        stderr(&result)
    );
}

/// Runs the shell `script` in `root` in a mount namespace of its own (`unshare -m`), with
/// `$BIN` the datapages binary; `None` (said as "skipped") where mounting is not allowed:
/// the script exits 77 when its `mount` fails.
fn in_mount_namespace(root: &Path, script: &str) -> Option<Output> {
    let result = Command::new("unshare")
        .args(["-m", "sh", "-c", script])
        .current_dir(root)
        .env("BIN", common::binary())
        .env("NO_COLOR", "1")
        .output();
    match result {
        Ok(result) if result.status.code() == Some(77) || !unshare_worked(&result) => {
            println!("skipped: mounting a tmpfs needs root (unshare -m)");
            None
        }
        Ok(result) => Some(result),
        Err(e) => {
            println!("skipped: unshare: {e}");
            None
        }
    }
}

/// False when `unshare` itself was refused (no privilege for a mount namespace).
fn unshare_worked(result: &Output) -> bool {
    !stderr(result).starts_with("unshare:")
}
