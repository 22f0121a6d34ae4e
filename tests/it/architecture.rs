//! The shape of the code, checked: every file of `src/` and of each workspace crate's
//! `crates/*/src/` is in a layer that ARCHITECTURE.md declares and imports only run down
//! those layers, no two source files import each other (directly or around a circle; the
//! Python files of benches/ and scripts/ too), no source file is longer than a reader can
//! hold in their head, each file says its job, and ARCHITECTURE.md's map names every
//! module with the start of the job it says.
//!
//! It reads the source as text (no `cargo modules`): every `crate::…`, `super::…` and
//! `datapages_…::` path, grouped `use crate::{a, b::c}` included, is resolved to the file
//! that defines it. A crate's modules sit where the application imports them (`SOURCES`:
//! `datapages_scan::scan` is `dataset::scan`), so one ```layers block covers every crate.
//! A module's own children are its implementation, so a parent naming a child by its bare
//! name is not an edge; a child reaching its parent or a sibling goes through `super::`
//! and is one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

/// Every crate's source folder, the name other crates use for it, and where its modules sit
/// in the application's module tree (where the application imports them).
const SOURCES: &[(&str, &str, &[&str])] = &[
    ("src", "crate", &[]),
    ("crates/datapages-content/src", "datapages_content", &[]),
    ("crates/datapages-scan/src", "datapages_scan", &["dataset"]),
    (
        "crates/datapages-charts/src",
        "datapages_charts",
        &["render"],
    ),
    ("crates/datapages-serve/src", "datapages_serve", &["serve"]),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| part.to_string()).collect()
}

/// The source folder that holds `file`, and where its modules sit.
fn source_of(file: &Path) -> (PathBuf, Vec<String>) {
    SOURCES
        .iter()
        .map(|(dir, _, mount)| (root().join(dir), strings(mount)))
        .find(|(dir, _)| file.starts_with(dir))
        .expect("a file of a declared source folder")
}

/// A crate's root file other than the application's: it only declares its modules.
fn is_crate_root(file: &Path) -> bool {
    file.ends_with("main.rs")
        || (file.ends_with("lib.rs") && file.parent() != Some(&root().join("src")))
}

/// The lines of the ```NAME block of ARCHITECTURE.md.
fn architecture_block(name: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    let text = fs::read_to_string(&path).expect("ARCHITECTURE.md is readable");
    let fence = format!("```{name}\n");
    let start = text
        .find(&fence)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has a ```{name} block"));
    let block = &text[start + fence.len()..];
    let end = block.find("```").expect("the block is closed");
    block[..end].lines().map(String::from).collect()
}

/// The layers, lowest first, from the ```layers block of ARCHITECTURE.md.
fn declared_layers() -> Vec<Vec<String>> {
    architecture_block("layers")
        .iter()
        .map(|line| line.split('#').next().unwrap_or_default())
        .map(|line| {
            line.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .filter(|layer| !layer.is_empty())
        .collect()
}

/// A source file's module path: `src/dataset/mod.rs` -> ["dataset"],
/// `crates/datapages-scan/src/scan/mod.rs` -> ["dataset", "scan"].
fn module_path(file: &Path) -> Vec<String> {
    let (dir, mut parts) = source_of(file);
    let relative = file.strip_prefix(dir).expect("inside its source folder");
    parts.extend(relative.iter().map(|p| p.to_string_lossy().into_owned()));
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

fn rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = SOURCES.iter().map(|(dir, ..)| root().join(dir)).collect();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("a source folder is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The code of a file without comments, string and char literals or its `#[cfg(test)]`
/// tail, so a path in a doc comment or a message is not taken for an import.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == 'r'
            && (next == Some('#') || next == Some('"'))
            && !is_ident(chars.get(i.wrapping_sub(1)))
        {
            // A raw string r"…" or r#"…"#: ends at a quote followed by as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < chars.len() {
                if chars[i] == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: '\n', '\'', '\u{..}'.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3; // 'x'
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// Every path that starts with `crate::`, `super::` or a workspace crate's name, expanded
/// from `{…}` groups, as segments (`super` kept as a segment to resolve later).
fn referenced_paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let rest: String = bytes[i..bytes.len().min(i + 20)].iter().collect();
        let starts = |name: &str| rest.starts_with(name) && rest[name.len()..].starts_with("::");
        if at_word_start && (starts("super") || SOURCES.iter().any(|(_, name, _)| starts(name))) {
            let (paths, end) = parse_path(&bytes, i);
            found.extend(paths);
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// Parses `a::b::{c, d::e}` starting at `start`; returns the expanded paths and where it ended.
fn parse_path(chars: &[char], start: usize) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    let mut i = start;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i < chars.len() && chars[i] == '{' {
            let mut paths = Vec::new();
            i += 1;
            loop {
                while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                    i += 1;
                }
                if i >= chars.len() || chars[i] == '}' {
                    break;
                }
                let (inner, end) = parse_path(chars, i);
                for path in inner {
                    let mut full = segments.clone();
                    full.extend(path);
                    paths.push(full);
                }
                i = end.max(i + 1);
            }
            return (paths, i + 1);
        }
        let word_start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        if i == word_start {
            break;
        }
        segments.push(chars[word_start..i].iter().collect::<String>());
        if i + 1 < chars.len() && chars[i] == ':' && chars[i + 1] == ':' {
            i += 2;
        } else {
            break;
        }
    }
    (vec![segments], i)
}

/// The file that defines the deepest module named by `path` (relative to the crate).
fn defining_file(modules: &BTreeMap<Vec<String>, PathBuf>, path: &[String]) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains_key(prefix))
}

/// Resolves `crate::…` (`own` is where the file's crate sits), another crate's `name::…`
/// and `super::…` (from the file's module) to a module path.
/// `crate::NAME` where the crate's root imports NAME from another crate is that module.
fn absolute(from: &[String], own: &Crate, path: &[String]) -> Vec<String> {
    let mut base: Vec<String> = from.to_vec();
    let mut rest = path;
    let first = rest.first().map(String::as_str).unwrap_or_default();
    if first == "crate" {
        match rest.get(1).and_then(|name| own.imports.get(name)) {
            Some(module) => (base, rest) = (module.clone(), &rest[2..]),
            None => (base, rest) = (own.mount.clone(), &rest[1..]),
        }
    } else if let Some((.., mount)) = SOURCES.iter().find(|(_, name, _)| *name == first) {
        base = strings(mount);
        rest = &rest[1..];
    } else {
        // In `a/b.rs` and in `a/b/mod.rs` (both module a::b) `super` is `a`.
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    base.extend(rest.iter().cloned());
    base
}

/// Where a crate's modules sit, and the other crates' modules its root imports by name.
struct Crate {
    mount: Vec<String>,
    imports: BTreeMap<String, Vec<String>>,
}

fn crate_of(file: &Path) -> Crate {
    let (dir, mount) = source_of(file);
    let root_file = dir.join("lib.rs");
    let text = fs::read_to_string(&root_file).unwrap_or_default();
    let imports = referenced_paths(&code_of(&text))
        .into_iter()
        .filter(|path| !matches!(path[0].as_str(), "crate" | "super"))
        .filter_map(|path| {
            let module = absolute(
                &[],
                &Crate {
                    mount: Vec::new(),
                    imports: BTreeMap::new(),
                },
                &path,
            );
            Some((path.last()?.clone(), module))
        })
        .collect();
    Crate { mount, imports }
}

struct Graph {
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
}

fn graph() -> Graph {
    let mut files = BTreeMap::new();
    for file in rust_files() {
        if is_crate_root(&file) {
            continue; // the binary uses the library by its crate name; a crate's lib.rs names its modules
        }
        files.insert(module_path(&file), file);
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &files {
        let text = fs::read_to_string(file).expect("readable source");
        let own = crate_of(file);
        for path in referenced_paths(&code_of(&text)) {
            let target = absolute(module, &own, &path);
            if let Some(target) = defining_file(&files, &target) {
                if &target != module && !target.is_empty() && !module.is_empty() {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
    }
    Graph { edges }
}

fn name(module: &[String]) -> String {
    module.join("::")
}

#[test]
fn imports_only_run_down_the_declared_layers() {
    let layers = declared_layers();
    let layer_of = |top: &str| layers.iter().position(|l| l.iter().any(|m| m == top));
    let graph = graph();
    // A module in no layer is reported by every_source_file_is_in_a_declared_layer.
    let mut problems = Vec::new();
    for (from, targets) in &graph.edges {
        for to in targets {
            if from[0] == to[0] {
                continue;
            }
            let (Some(a), Some(b)) = (layer_of(&from[0]), layer_of(&to[0])) else {
                continue;
            };
            if b >= a {
                problems.push(format!(
                    "{} imports {}, which is not in a lower layer",
                    name(from),
                    name(to)
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "layering broken:\n{}",
        problems.join("\n")
    );
}

/// Every import circle in a graph, each once, as its members sorted and joined.
fn circles<N: Ord>(edges: &BTreeMap<N, BTreeSet<N>>, name: impl Fn(&N) -> String) -> Vec<String> {
    // Depth-first search with colours (1: on the stack, 2: done).
    fn visit<'a, N: Ord>(
        node: &'a N,
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        state: &mut BTreeMap<&'a N, u8>,
        stack: &mut Vec<&'a N>,
        found: &mut BTreeSet<Vec<&'a N>>,
    ) {
        state.insert(node, 1);
        stack.push(node);
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                0 => visit(next, edges, state, stack, found),
                1 => {
                    let from = stack.iter().position(|n| *n == next).unwrap_or(0);
                    let mut members = stack[from..].to_vec();
                    members.sort();
                    found.insert(members);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node, 2);
    }
    let mut state = BTreeMap::new();
    let mut found = BTreeSet::new();
    for node in edges.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            visit(node, edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
        .into_iter()
        .map(|members| {
            let names: Vec<String> = members.into_iter().map(&name).collect();
            names.join(" <-> ")
        })
        .collect()
}

#[test]
fn no_two_files_import_each_other_even_around_a_circle() {
    let circles = circles(&graph().edges, |module| name(module));
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The Python files of `dir` (a folder of the repository) by module name, each with the
/// sibling modules it imports (`import x`, `import x as y, z`, `from x import …`, at any
/// indentation: an import inside a function counts too). Docstrings and comments are
/// skipped.
fn python_imports(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut sources = BTreeMap::new();
    for entry in fs::read_dir(&root).expect("the folder is readable") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "py") {
            let module = path
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            sources.insert(module, fs::read_to_string(&path).expect("readable"));
        }
    }
    let mut edges = BTreeMap::new();
    for (module, text) in &sources {
        let imported: BTreeSet<String> = python_imported_names(text)
            .into_iter()
            .filter(|name| name != module && sources.contains_key(name))
            .collect();
        edges.insert(module.clone(), imported);
    }
    edges
}

/// The first segment of every module a Python source imports.
fn python_imported_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_string: Option<&str> = None;
    for line in text.lines() {
        let mut rest = line;
        // Skip the parts of the line inside a triple-quoted string.
        let mut code = String::new();
        loop {
            match in_string {
                Some(quote) => match rest.find(quote) {
                    Some(at) => {
                        rest = &rest[at + 3..];
                        in_string = None;
                    }
                    None => break,
                },
                None => {
                    let next = ["\"\"\"", "'''"]
                        .into_iter()
                        .filter_map(|q| rest.find(q).map(|at| (at, q)))
                        .min();
                    match next {
                        Some((at, quote)) => {
                            code.push_str(&rest[..at]);
                            rest = &rest[at + 3..];
                            in_string = Some(quote);
                        }
                        None => {
                            code.push_str(rest);
                            break;
                        }
                    }
                }
            }
        }
        let code = code.split('#').next().unwrap_or_default().trim();
        let first = |path: &str| path.split('.').next().unwrap_or_default().to_string();
        if let Some(list) = code.strip_prefix("import ") {
            for item in list.split(',') {
                let path = item.split_whitespace().next().unwrap_or_default();
                names.push(first(path));
            }
        } else if let Some(from) = code.strip_prefix("from ") {
            let path = from.split_whitespace().next().unwrap_or_default();
            names.push(first(path));
        }
    }
    names
}

#[test]
fn no_python_files_of_benches_or_scripts_import_each_other_around_a_circle() {
    let mut problems = Vec::new();
    for dir in ["benches", "scripts"] {
        for circle in circles(&python_imports(dir), |module| format!("{dir}/{module}.py")) {
            problems.push(circle);
        }
    }
    assert!(
        problems.is_empty(),
        "Python import circles (move what both use into a module both import):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_python_reader_finds_imports_in_every_form() {
    let text = "\"\"\"Doc.\nimport not_this\n\"\"\"\nimport a, b as c\nfrom d.e import f\n    import g  # import h\nx = 1  # from i import j\n";
    assert_eq!(python_imported_names(text), ["a", "b", "d", "g"]);
}

#[test]
fn every_source_file_is_in_a_declared_layer() {
    let layers = declared_layers();
    let declared: BTreeSet<&String> = layers.iter().flatten().collect();
    let mut problems = Vec::new();
    let mut tops = BTreeSet::new();
    for file in rust_files() {
        let module = module_path(&file);
        let Some(top) = module.first() else {
            continue; // lib.rs and main.rs: the crate roots
        };
        tops.insert(top.clone());
        if !declared.contains(top) {
            problems.push(format!(
                "{} (module {}) is in no layer of ARCHITECTURE.md",
                file.strip_prefix(root()).unwrap_or(&file).display(),
                name(&module)
            ));
        }
    }
    for layer in declared {
        if !tops.contains(layer) {
            problems.push(format!(
                "ARCHITECTURE.md declares {layer}, which no source folder has"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_source_file_is_short_and_says_its_job() {
    let mut problems = Vec::new();
    for file in rust_files() {
        let text = fs::read_to_string(&file).expect("readable source");
        let shown = file.strip_prefix(root()).unwrap_or(&file);
        let lines = text.lines().count();
        if lines > MAX_LINES {
            problems.push(format!(
                "{} has {lines} lines (at most {MAX_LINES})",
                shown.display()
            ));
        }
        if !text.trim_start().starts_with("//!") {
            problems.push(format!(
                "{} does not open with a //! line saying its job",
                shown.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_finds_imports_in_every_form() {
    let code = code_of(
        "use crate::{a, b::{c, d}};\n// crate::not_this\nlet s = \"crate::nor_this\";\nlet q = '\"'; let r = r#\"crate::\"raw\"\"#;\nsuper::e::f();\ndatapages_scan::g::h(); datapages_scanner::not_this();\n",
    );
    let paths = referenced_paths(&code);
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        [
            "crate::a",
            "crate::b::c",
            "crate::b::d",
            "super::e::f",
            "datapages_scan::g::h"
        ]
    );
}

/// A module's `//!` paragraph (its opening lines up to the first blank one), on one line.
fn job_paragraph(file: &Path) -> String {
    let text = fs::read_to_string(file).expect("readable source");
    let lines: Vec<&str> = text
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    lines
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The modules the map must name: every folder of a source folder (as `src/a/b/`, its job
/// in `a/b/mod.rs` or `a/b.rs`), every file directly in `src/` that owns no folder, and each
/// crate's `lib.rs` (which says the job of the files beside it).
fn modules_to_map() -> BTreeMap<String, PathBuf> {
    let mut modules = BTreeMap::new();
    let entries = SOURCES.iter().flat_map(|(dir, ..)| {
        let mapped = move |path: &Path| *dir == "src" || path.ends_with("lib.rs");
        walkdir::WalkDir::new(root().join(dir))
            .min_depth(1)
            .into_iter()
            .map(move |entry| (entry, mapped))
    });
    for (entry, mapped) in entries {
        let entry = entry.expect("a source folder is readable");
        let path = entry.path();
        let shown = path.strip_prefix(root()).expect("inside");
        let shown = shown.to_string_lossy().replace('\\', "/");
        if entry.file_type().is_dir() {
            let inner = path.join("mod.rs");
            let job = if inner.exists() {
                inner
            } else {
                path.with_extension("rs")
            };
            modules.insert(format!("{shown}/"), job);
        } else if entry.depth() == 1
            && mapped(path)
            && path.extension().is_some_and(|e| e == "rs")
            && !path.with_extension("").is_dir()
        {
            modules.insert(shown, path.to_path_buf());
        }
    }
    modules
}

#[test]
fn the_map_names_every_module_with_the_start_of_its_job() {
    let mut problems = Vec::new();
    let mut mapped = BTreeSet::new();
    let modules = modules_to_map();
    for line in architecture_block("map") {
        let Some((path, job)) = line.split_once(' ') else {
            problems.push(format!("map line `{line}` has no job after its path"));
            continue;
        };
        let job = job.split_whitespace().collect::<Vec<_>>().join(" ");
        mapped.insert(path.to_string());
        match modules.get(path) {
            None => problems.push(format!(
                "the map names {path}, which is not a module of a source folder"
            )),
            Some(file) if job.is_empty() || !job_paragraph(file).starts_with(&job) => {
                problems.push(format!(
                    "the map's job for {path} is not the start of {}'s //! paragraph:\n  map:  {job}\n  file: {}",
                    file.display(),
                    job_paragraph(file)
                ));
            }
            Some(_) => {}
        }
    }
    for path in modules.keys().filter(|path| !mapped.contains(*path)) {
        problems.push(format!(
            "ARCHITECTURE.md's map misses {path}: add a line `{path} <the start of its //! paragraph>`"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_crate_of_the_workspace_is_checked() {
    let checked: BTreeSet<PathBuf> = SOURCES.iter().map(|(dir, ..)| root().join(dir)).collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(root().join("crates")).expect("crates/ is readable") {
        let src = entry.expect("entry").path().join("src");
        if src.is_dir() && !checked.contains(&src) {
            missing.push(src.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "add these to SOURCES in tests/it/architecture.rs: {}",
        missing.join(", ")
    );
}
