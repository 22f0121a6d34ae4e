//! The binaries people download, used as they would use them. `./scripts/test` builds both
//! from the packaged crates (`cargo publish --workspace --dry-run`'s files) before the
//! tests: the static `x86_64-unknown-linux-musl` binary, copied alone into an empty folder
//! with nothing but that folder on the PATH (no Rust, no C library), runs `init`, `new
//! --from`, `build` and `serve`; the `x86_64-pc-windows-gnu` binary runs `--version`,
//! `init` and `build` of the bundled site under Wine, and builds the same bytes as on
//! Linux.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::server::Server;

/// Where `./scripts/test` puts a cross-compiled binary (`--profile portable`).
fn cross_binary(target: &str, file: &str) -> PathBuf {
    common::bundled_site()
        .join("target")
        .join(target)
        .join("portable")
        .join(file)
}

/// Whether an ELF file asks for a program interpreter (a dynamic loader): the
/// `PT_INTERP` entry of its program headers. A static binary has none.
fn has_interpreter(elf: &[u8]) -> bool {
    assert_eq!(&elf[..4], b"\x7fELF", "an ELF file");
    assert_eq!(elf[4], 2, "64-bit");
    let read = |at: usize, bytes: usize| -> u64 {
        let mut value = [0u8; 8];
        value[..bytes].copy_from_slice(&elf[at..at + bytes]);
        u64::from_le_bytes(value)
    };
    let (table, size, count) = (read(0x20, 8) as usize, read(0x36, 2), read(0x38, 2));
    (0..count as usize).any(|n| read(table + n * size as usize, 4) == 3)
}

/// Runs the copied binary in `dir` with an environment holding only `PATH` (its own
/// folder) and `NO_COLOR`.
fn alone(binary: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(binary);
    command
        .current_dir(dir)
        .args(args)
        .env_clear()
        .env("PATH", binary.parent().unwrap())
        .env("NO_COLOR", "1");
    command
}

fn succeeded(what: &str, out: Output) -> String {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[ignore = "full tier: the static musl binary ./scripts/test builds, run alone"]
fn the_static_binary_alone_in_a_folder_makes_builds_and_serves_a_site() {
    let built = cross_binary("x86_64-unknown-linux-musl", "datapages");
    if !common::tool_present(
        "the musl binary (./scripts/test builds it)",
        built.is_file(),
    ) {
        return;
    }
    assert!(
        !has_interpreter(&std::fs::read(&built).unwrap()),
        "a static binary"
    );
    // The check sees an interpreter where there is one: the test build's (glibc) binary.
    assert!(has_interpreter(&std::fs::read(common::binary()).unwrap()));
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("empty");
    std::fs::create_dir(&folder).unwrap();
    let binary = folder.join("datapages");
    std::fs::copy(&built, &binary).unwrap();
    let cargo = Command::new("cargo")
        .env_clear()
        .env("PATH", &folder)
        .output();
    assert!(cargo.is_err(), "no Rust toolchain on the PATH");
    let csv = dir.path().join("throughput.csv");
    std::fs::copy(
        common::bundled_site().join("data/datasets/sata-sas-nvme-measured-throughput.csv"),
        &csv,
    )
    .unwrap();
    let run = |args: &[&str]| {
        succeeded(
            &args.join(" "),
            alone(&binary, &folder, args).output().unwrap(),
        )
    };
    let version = run(&["--version"]);
    assert!(
        version.contains("target: x86_64-unknown-linux-musl"),
        "{version}"
    );
    run(&["init", "site"]);
    let new = run(&[
        "new",
        "throughput",
        "--from",
        csv.to_str().unwrap(),
        "--root",
        "site",
    ]);
    assert!(new.contains("content/datasets/throughput.md"), "{new}");
    let built_site = run(&["build", "--root", "site"]);
    assert!(built_site.contains("datasets"), "{built_site}");
    let page = folder.join("site/public/datasets/throughput/index.html");
    assert!(page.is_file());
    let server = Server::spawn(alone(
        &binary,
        &folder,
        &["serve", "--root", "site", "--port", "0"],
    ));
    let (status, _, body) = server.raw("GET", "/datasets/throughput/");
    assert_eq!(status, 200, "{}", server.printed());
    assert!(String::from_utf8_lossy(&body).contains("throughput"));
    // Only the binary and what it wrote: no toolchain was needed, nothing was fetched.
    let names: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `wine ARGS` in `dir`, with its own prefix under target/ (made on the first run, some
/// seconds) and its messages off.
fn wine(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("wine");
    command
        .current_dir(dir)
        .args(args)
        .env(
            "WINEPREFIX",
            common::bundled_site().join("target/wine-prefix"),
        )
        .env("WINEDEBUG", "-all")
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
        .env("NO_COLOR", "1");
    command
}

fn wine_run(dir: &Path, args: &[&str]) -> Output {
    wine(dir, args).output().expect("wine runs")
}

#[test]
#[ignore = "full tier: the Windows binary ./scripts/test cross-compiles, run under Wine"]
fn the_windows_binary_builds_the_bundled_site_under_wine_as_on_linux() {
    let exe = cross_binary("x86_64-pc-windows-gnu", "datapages.exe");
    let wine_found = Command::new("wine").arg("--version").output().is_ok();
    if !common::tool_present("the Windows binary and wine", exe.is_file() && wine_found) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&exe, dir.path().join("datapages.exe")).unwrap();
    // Wine 8 lacks bcryptprimitives.dll, which every Rust program for Windows imports:
    // a stand-in beside the program (tests/wine/bcryptprimitives.c).
    let shim = Command::new("x86_64-w64-mingw32-gcc")
        .args(["-shared", "-O2", "-o"])
        .arg(dir.path().join("bcryptprimitives.dll"))
        .arg(common::bundled_site().join("tests/wine/bcryptprimitives.c"))
        .arg("-ladvapi32")
        .output()
        .expect("mingw-w64 is installed with the Windows target");
    succeeded("the bcryptprimitives stand-in", shim);
    let version = succeeded(
        "--version",
        wine_run(dir.path(), &["datapages.exe", "--version"]),
    );
    assert!(
        version.contains("target: x86_64-pc-windows-gnu"),
        "{version}"
    );
    let init = succeeded(
        "init",
        wine_run(dir.path(), &["datapages.exe", "init", "new-site"]),
    );
    assert!(init.contains("site.toml"), "{init}");
    succeeded(
        "build of init's site",
        wine_run(
            dir.path(),
            &["datapages.exe", "build", "--root", "new-site"],
        ),
    );
    assert!(dir
        .path()
        .join("new-site/public/datasets/planets/index.html")
        .is_file());
    // The bundled site, built by both binaries: the same files, byte for byte.
    common::copy_bundled_site(&dir.path().join("site"));
    let date = ["--date", "2026-01-01"];
    let windows = [
        "datapages.exe",
        "build",
        "--root",
        "site",
        "--output",
        "windows",
    ];
    succeeded(
        "build under wine",
        wine_run(dir.path(), &[&windows[..], &date[..]].concat()),
    );
    let linux = dir.path().join("linux");
    let out = Command::new(common::binary())
        .args(["build", "--root"])
        .arg(dir.path().join("site"))
        .arg("--output")
        .arg(&linux)
        .args(date)
        .output()
        .unwrap();
    succeeded("build on linux", out);
    common::assert_same_trees(
        &dir.path().join("windows"),
        &linux,
        "Windows and Linux builds",
    );
    // serve: the pages, and an edit seen by the watcher and rebuilt.
    let serve = [
        "datapages.exe",
        "serve",
        "--root",
        "site",
        "--output",
        "served",
        "--port",
        "0",
    ];
    let server = Server::spawn(wine(dir.path(), &serve));
    assert_eq!(
        server.raw("GET", "/datasets/").0,
        200,
        "{}",
        server.printed()
    );
    let about = dir.path().join("site/content/about.md");
    let text = std::fs::read_to_string(&about).unwrap();
    std::fs::write(&about, text.replacen("title = \"", "title = \"Edited: ", 1)).unwrap();
    server.wait_for("/about/", std::time::Duration::from_secs(60), |page| {
        page.contains("Edited: ")
    });
}

/// Git for Windows may check text files out with `\r\n` (`core.autocrlf`): the Markdown
/// and site.toml of such a checkout build the very same files as with `\n` (the CSV stays
/// as checked out: it is published byte for byte, README.md "On Windows").
#[test]
fn a_checkout_with_windows_line_ends_builds_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let (unix, windows) = (dir.path().join("unix"), dir.path().join("windows"));
    common::copy_bundled_site(&unix);
    common::copy_bundled_site(&windows);
    let mut converted = 0;
    for entry in walkdir::WalkDir::new(&windows) {
        let path = entry.unwrap().into_path();
        let text_file = ["md", "toml"]
            .iter()
            .any(|e| path.extension() == Some(e.as_ref()));
        if text_file {
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(&path, text.replace('\n', "\r\n")).unwrap();
            converted += 1;
        }
    }
    assert!(converted > 5);
    let build = |root: &Path| {
        let output = root.with_extension("out");
        let options = datapages::BuildOptions::new(root)
            .output(&output)
            .date("2026-01-01");
        datapages::build(&options).unwrap_or_else(|e| panic!("{e}"));
        output
    };
    common::assert_same_trees(&build(&windows), &build(&unix), "CRLF and LF checkouts");
}
