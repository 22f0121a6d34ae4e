//! datapages: a static site generator for publishing datasets honestly.
//!
//! Data flows one way: the site is loaded and checked (config, front matter, Markdown,
//! every CSV in one streaming pass), rendered into HTML with Tera, and written into a
//! staging folder that replaces the previous output only when everything succeeded.
//! See ARCHITECTURE.md for the map.
//!
//! The library's surface is small: [`build`] and [`check`] a site described by
//! [`BuildOptions`], [`serve`] it with [`ServeOptions`], or keep a [`Session`] to rebuild
//! what a [`Change`] affects. Every entry point fails with one [`Error`], which holds the
//! located [`Diagnostics`].
//!
//! ```no_run
//! let options = datapages::BuildOptions::new("my-site").output("/tmp/my-site");
//! match datapages::build(&options) {
//!     Ok(report) => println!("{}", report.summary()),
//!     Err(error) => eprint!("{}", error.render(false)),
//! }
//! ```

#![warn(missing_docs)]

use datapages_content::{
    checksum, config, confine, content, diagnostics, layout, positioned, text,
};

mod build;
mod cli;
mod dataset;
mod i18n;
mod incremental;
mod metadata;
mod output;
mod provenance;
mod render;
mod scaffold;
mod serve;
mod site;
mod theme;
mod write;

pub use build::{build, check, BuildOptions, BuildReport, CheckReport, RebuildReport, Session};
pub use cli::{run, run_with};
pub use diagnostics::{Diagnostic, Diagnostics, Error, Severity};
pub use incremental::Change;
pub use serve::{serve, ServeOptions};
#[doc(hidden)]
pub use site::outputs::{Derived, Distribution, Download};
