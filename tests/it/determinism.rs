//! Two builds of the same input, run at the same time (each with its own rayon pool across
//! many datasets), write byte-identical trees.

use crate::common;

use std::fmt::Write as _;

#[test]
fn parallel_builds_are_byte_identical() {
    let site = tempfile::tempdir().unwrap();
    common::write_small_site(
        site.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        b"label,value\na,1\n",
    );
    for n in 0..40 {
        let mut csv = String::from("label,value\n");
        for row in 0..200 {
            let _ = writeln!(csv, "\"row {row}, set {n}\",{}", row * n);
        }
        let front = common::SMALL_FRONT.replace(
            "tags = [\"Test tag\"]",
            &format!("tags = [\"Test tag\", \"Set {}\"]", n % 7),
        );
        std::fs::write(
            site.path().join(format!("content/datasets/set-{n:02}.md")),
            format!("+++\n{front}+++\n{}", common::SMALL_BODY),
        )
        .unwrap();
        std::fs::write(
            site.path().join(format!("data/datasets/set-{n:02}.csv")),
            csv,
        )
        .unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let (a, b) = (out.path().join("a"), out.path().join("b"));
    let root = site.path().to_str().unwrap().to_string();
    let spawn = |target: std::path::PathBuf| {
        let root = root.clone();
        std::thread::spawn(move || {
            common::run(&[
                "build",
                "--root",
                &root,
                "--output",
                target.to_str().unwrap(),
            ])
        })
    };
    let (first, second) = (spawn(a.clone()), spawn(b.clone()));
    for result in [first.join().unwrap(), second.join().unwrap()] {
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
    let (tree_a, tree_b) = (common::tree_contents(&a), common::tree_contents(&b));
    assert!(tree_a.len() > 100, "{} files", tree_a.len());
    assert_eq!(tree_a, tree_b);
}
