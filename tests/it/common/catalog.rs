//! A generated catalog of small datasets (one tiny row each), for the tests of scale:
//! bounded listings, flat memory, rebuilds that reuse the previous output.

use std::path::Path;

/// The `base_url` of generated catalogs.
pub const BASE: &str = "https://example.org/cat/";

/// The front matter of dataset `n` of a generated catalog.
pub fn front_matter(n: usize) -> String {
    let tag = ["Even", "Odd"][n % 2];
    format!(
        "title = \"Set {n}\"\nkicker = \"k\"\nheadline = \"Set number {n}\"\ntags = [\"{tag}\", \"All\"]\nupdated = {}-{:02}-{:02}\n[[sources]]\nid = \"s\"\ntitle = \"S\"\n[[columns]]\nname = \"v\"\ntitle = \"V\"\ntype = \"integer\"\ndescription = \"A value.\"\n",
        2000 + n % 25,
        1 + n % 12,
        1 + n % 28
    )
}

/// The slug of dataset `n`.
pub fn slug(n: usize) -> String {
    format!("set-{n:05}")
}

/// Writes site.toml (with `extra_settings` at the top level) and `datasets` datasets.
pub fn write_catalog(root: &Path, datasets: usize, extra_settings: &str) {
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        format!(
            "title = \"Big catalog\"\nbase_url = \"{BASE}\"\n{extra_settings}[author]\nname = \"Tester\"\n[license]\nname = \"CC0 1.0\"\n"
        ),
    )
    .unwrap();
    for n in 0..datasets {
        write_dataset(root, n, &front_matter(n), &format!("v\n{n}\n"));
    }
}

/// Writes dataset `n` with this front matter and CSV.
pub fn write_dataset(root: &Path, n: usize, front: &str, csv: &str) {
    let slug = slug(n);
    std::fs::write(
        root.join(format!("content/datasets/{slug}.md")),
        format!("+++\n{front}+++\n\nA lede from [S](#source-s), long enough for search engines to read it whole.\n\n## Method\n\nM.\n\n## Limits\n\nL.\n"),
    )
    .unwrap();
    std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
}
