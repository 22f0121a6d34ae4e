//! The integration tests, as one test binary (mdBook's layout): every former
//! `tests/NAME.rs` is the module `NAME`, so the library and the test dependencies are
//! linked once instead of once per file. Run one file's tests with
//! `cargo test --test it NAME::`; the full tier (tests marked `#[ignore = "full tier: …"]`)
//! with `-- --include-ignored`. tests/README.md is the catalogue.
//!
//! Everything here shares one process: a test that measures a child's peak memory does it
//! per child (`common::measure::run_measured`, or wait4 of its own child), never through
//! getrusage(RUSAGE_CHILDREN), which counts every test's children; no test sets a
//! process-wide environment variable or working directory.

mod common;

mod architecture;
mod browser;
mod build_bundled;
mod catalog_memory;
mod catalog_scale;
mod catalog_serve;
mod chart_budget;
mod chart_corpus;
mod chart_overlap;
mod chart_series;
mod citation_files;
mod command_line;
mod data_url;
mod data_url_browser;
mod date_formats;
mod determinism;
mod dialects;
mod digits;
mod explore;
mod explore_browser;
mod explore_flights_browser;
mod explore_formats_browser;
mod explore_hostile_browser;
mod explore_links_browser;
mod explore_locale_browser;
mod figures;
mod file_shapes;
mod foreign_keys;
mod harvest;
mod host_limits;
mod hostile_bytes;
mod hostile_paths;
mod incremental;
mod inference_corpus;
mod invalid_corpus;
mod languages;
mod languages_figures;
mod languages_pages;
mod large;
mod lean_output;
mod long_chart;
mod metadata_bytes;
mod number_marks;
mod output_safety;
mod page_budget;
mod page_details;
mod parquet;
mod portable;
mod profiles;
mod publishing;
mod publishing_guide;
mod rebuild_reuse;
mod reference_000;
mod registry;
mod row_pages;
mod row_search_browser;
mod scaffold;
mod scaffold_tables;
mod scaling;
mod scan_cache;
mod search;
mod serve;
mod serve_browser;
mod serve_edits;
mod serve_limits;
mod snippets;
mod standards;
mod versions;
mod wide_tables;
