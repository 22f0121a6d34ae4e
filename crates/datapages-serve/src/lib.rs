//! datapages-serve: the preview's HTTP server, bounded against any one client; it serves a
//! folder and knows nothing of how the folder was built.

pub mod files;
pub mod http;
pub mod routes;
pub mod server;
pub mod shared;
pub mod state;

use datapages_content::diagnostics;
