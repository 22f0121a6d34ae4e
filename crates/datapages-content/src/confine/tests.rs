//! Tests of confinement: paths, links, hidden files and walks, on real temporary folders.

use super::*;
use std::os::unix::fs::symlink;

/// A site folder inside a temp folder that also holds `secret.txt` outside the site.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    fs::create_dir_all(root.join("data/sub")).unwrap();
    fs::write(root.join("data/a.csv"), "a\n1\n").unwrap();
    fs::write(dir.path().join("secret.txt"), "secret\n").unwrap();
    let canonical = fs::canonicalize(&root).unwrap();
    (dir, root, canonical)
}

#[test]
fn a_plain_path_inside_resolves() {
    let (_dir, _root, canonical) = setup();
    let real = resolve_file(&canonical, Path::new("data/a.csv")).unwrap();
    assert_eq!(real, canonical.join("data/a.csv"));
    let real = resolve_file(&canonical, Path::new("./data/sub/../a.csv")).unwrap();
    assert_eq!(real, canonical.join("data/a.csv"));
}

#[test]
fn absolute_paths_are_refused_even_inside() {
    let (_dir, _root, canonical) = setup();
    let inside = canonical.join("data/a.csv");
    assert!(matches!(
        resolve_file(&canonical, &inside),
        Err(Refusal::Absolute)
    ));
    assert!(matches!(
        resolve_file(&canonical, Path::new("/etc/passwd")),
        Err(Refusal::Absolute)
    ));
}

#[test]
fn climbing_out_is_refused_without_looking() {
    let (_dir, _root, canonical) = setup();
    for path in ["../secret.txt", "data/../../secret.txt", "../no-such-file"] {
        assert!(
            matches!(
                resolve_file(&canonical, Path::new(path)),
                Err(Refusal::Outside {
                    through_link: false
                })
            ),
            "{path}"
        );
    }
}

#[test]
fn links_are_followed_inside_and_refused_outside() {
    let (dir, root, canonical) = setup();
    symlink(root.join("data/a.csv"), root.join("data/inside.csv")).unwrap();
    symlink(dir.path().join("secret.txt"), root.join("data/outside.csv")).unwrap();
    symlink(dir.path(), root.join("data/up")).unwrap();
    assert_eq!(
        resolve_file(&canonical, Path::new("data/inside.csv")).unwrap(),
        canonical.join("data/a.csv")
    );
    for path in ["data/outside.csv", "data/up/secret.txt"] {
        assert!(
            matches!(
                resolve_file(&canonical, Path::new(path)),
                Err(Refusal::Outside { through_link: true })
            ),
            "{path}"
        );
    }
}

/// The quick answer for paths of plain names (one `lstat` per name) gives way to a full
/// resolution at the first link, whether the link is the file or a folder on the way.
#[test]
fn a_link_anywhere_on_the_way_is_resolved_to_where_it_leads() {
    let (_dir, root, canonical) = setup();
    symlink(root.join("data"), root.join("linked")).unwrap();
    for path in ["linked/a.csv", "linked/sub/../a.csv", "data/a.csv"] {
        assert_eq!(
            resolve_file(&canonical, Path::new(path)).unwrap(),
            canonical.join("data/a.csv"),
            "{path}"
        );
    }
    assert_eq!(
        resolve_inside(&canonical, Path::new("linked/sub")).unwrap(),
        canonical.join("data/sub")
    );
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/a.csv/x")),
        Err(Refusal::Missing { .. } | Refusal::Unresolvable(_))
    ));
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/sub")),
        Err(Refusal::NotAFile(_))
    ));
}

#[test]
fn loops_missing_files_and_non_files_are_refused() {
    let (_dir, root, canonical) = setup();
    symlink("loop.csv", root.join("data/loop.csv")).unwrap();
    symlink("nothing.csv", root.join("data/dangling.csv")).unwrap();
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/loop.csv")),
        Err(Refusal::Unresolvable(_))
    ));
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/dangling.csv")),
        Err(Refusal::Missing {
            dangling_link: true
        })
    ));
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/none.csv")),
        Err(Refusal::Missing {
            dangling_link: false
        })
    ));
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/sub")),
        Err(Refusal::NotAFile("a folder"))
    ));
    let fifo = std::ffi::CString::new(root.join("data/pipe.csv").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo only reads the NUL-terminated path it is given.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    assert!(matches!(
        resolve_file(&canonical, Path::new("data/pipe.csv")),
        Err(Refusal::NotAFile("a FIFO (named pipe)"))
    ));
}

#[test]
fn walks_follow_inside_links_and_report_the_others() {
    let (dir, root, canonical) = setup();
    fs::write(root.join("data/sub/b.csv"), "b\n").unwrap();
    symlink(root.join("data/sub"), root.join("data/linked")).unwrap();
    symlink(dir.path().join("secret.txt"), root.join("data/outside.csv")).unwrap();
    symlink(dir.path(), root.join("data/outside-folder")).unwrap();
    symlink(&root, root.join("data/sub/loop")).unwrap();
    symlink("self.csv", root.join("data/self.csv")).unwrap();
    symlink("nothing", root.join("data/.#lock.csv")).unwrap();
    let walk = walk(&root, &canonical, Path::new("data"), &|p| {
        p.extension().is_some_and(|e| e == "csv")
    });
    let files: Vec<_> = walk
        .files
        .iter()
        .map(|f| f.path.strip_prefix(&root).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        files,
        [
            PathBuf::from("data/a.csv"),
            "data/linked/b.csv".into(),
            "data/sub/b.csv".into()
        ]
    );
    assert_eq!(walk.files[1].real, canonical.join("data/sub/b.csv"));
    let mut problems: Vec<String> = walk
        .problems
        .iter()
        .map(|d| d.message.to_string())
        .collect();
    problems.sort();
    assert_eq!(problems.len(), 5, "{problems:#?}");
    assert!(
        problems[0].starts_with("data/linked/loop is a symbolic link to a folder that contains it")
    );
    assert_eq!(
        problems[1],
        "data/outside-folder is a symbolic link that leads outside the site folder"
    );
    assert_eq!(
        problems[2],
        "data/outside.csv is a symbolic link that leads outside the site folder"
    );
    assert!(problems[3].starts_with("data/self.csv cannot be followed"));
    assert!(problems[4].starts_with("data/sub/loop is a symbolic link to a folder"));
}

#[test]
fn hidden_files_are_refused_as_written_and_through_links() {
    let (_dir, root, canonical) = setup();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".git/config"), "token\n").unwrap();
    fs::write(root.join(".env"), "TOKEN=x\n").unwrap();
    fs::write(root.join("data/.env"), "TOKEN=x\n").unwrap();
    symlink("../.env", root.join("data/env.csv")).unwrap();
    symlink("../.git", root.join("data/git")).unwrap();
    for (path, through_link) in [
        (".git/config", false),
        (".env", false),
        ("./.env", false),
        ("data/.env", false),
        ("data/../.env", false),
        ("data/env.csv", true),
        ("data/git/config", true),
    ] {
        assert!(
            matches!(resolve_file(&canonical, Path::new(path)), Err(Refusal::Hidden { through_link: t }) if t == through_link),
            "{path}"
        );
    }
    assert!(is_hidden_inside(Path::new("static/a/.well-known/x")));
    assert!(!is_hidden_inside(Path::new(
        "static/.well-known/security.txt"
    )));
    assert!(is_hidden_inside(Path::new("static/.well-known/.secret")));
    assert!(is_hidden_inside(Path::new("data/.well-known/x")));
}

#[test]
fn files_under_a_folder_only() {
    let (_dir, root, canonical) = setup();
    fs::create_dir_all(root.join("content")).unwrap();
    fs::write(root.join("content/page.md"), "x\n").unwrap();
    symlink("../content/page.md", root.join("data/page.csv")).unwrap();
    assert!(resolve_file_under(&canonical, Path::new("./data/a.csv"), layout::DATA).is_ok());
    for path in [
        "content/page.md",
        "data/../content/page.md",
        "data/page.csv",
    ] {
        assert!(
            matches!(
                resolve_file_under(&canonical, Path::new(path), layout::DATA),
                Err(Refusal::NotUnder("data"))
            ),
            "{path}"
        );
    }
}

#[test]
fn walks_skip_hidden_files_and_refuse_links_to_them() {
    let (_dir, root, canonical) = setup();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".git/config"), "token\n").unwrap();
    fs::create_dir_all(root.join("static/.well-known")).unwrap();
    fs::create_dir_all(root.join("static/.hidden")).unwrap();
    fs::write(root.join("static/.well-known/security.txt"), "x\n").unwrap();
    fs::write(root.join("static/.well-known/.env"), "x\n").unwrap();
    fs::write(root.join("static/.hidden/a.css"), "x\n").unwrap();
    fs::write(root.join("static/.env"), "x\n").unwrap();
    fs::write(root.join("static/a.css"), "x\n").unwrap();
    symlink("../.git", root.join("static/git")).unwrap();
    symlink("nothing", root.join("static/.#lock")).unwrap();
    let walk = walk(&root, &canonical, Path::new("static"), &|_| true);
    let names: Vec<&str> = walk.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, [".well-known/security.txt", "a.css"]);
    let problems: Vec<String> = walk
        .problems
        .iter()
        .map(|d| d.message.to_string())
        .collect();
    assert_eq!(
        problems,
        ["static/git is a symbolic link to a hidden file or folder"]
    );
}

#[test]
fn a_folder_that_is_a_link_outside_is_not_walked() {
    let (dir, root, canonical) = setup();
    symlink(dir.path(), root.join("static")).unwrap();
    let walk = walk(&root, &canonical, Path::new("static"), &|_| true);
    assert!(walk.files.is_empty());
    assert_eq!(
        walk.problems[0].message,
        "static is a symbolic link that leads outside the site folder"
    );
}
