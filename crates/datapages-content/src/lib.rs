//! datapages-content: what a datapages site's authors write and the base every other part
//! of datapages stands on: escaping, folder names, checksums, located problems, confined
//! reads, number marks, front matter and Markdown, `site.toml`, a cell checked against its
//! column's type and a number shown at its column's `digits`.

pub mod checksum;
pub mod config;
pub mod confine;
pub mod content;
pub mod diagnostics;
pub mod layout;
pub mod locale;
pub mod positioned;
pub mod schema;
pub mod shown;
pub mod text;
