//! datapages: a static site generator for publishing datasets honestly.
//!
//! Data flows one way: [`site::load`] reads and checks everything (config, front matter,
//! Markdown, every CSV in one streaming pass), [`render`] turns it into HTML with Tera,
//! [`build`] writes it through [`output::Staging`] so a failed build never touches the
//! previous output. See ARCHITECTURE.md for the map.

pub mod build;
pub mod cli;
pub mod config;
pub mod confine;
pub mod content;
pub mod dataset;
pub mod diagnostics;
pub mod incremental;
pub mod layout;
pub mod metadata;
pub mod output;
pub mod render;
pub mod scaffold;
pub mod serve;
pub mod site;
pub mod text;
pub mod theme;
pub mod write;
