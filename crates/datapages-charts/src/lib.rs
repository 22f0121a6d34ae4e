//! datapages-charts: the charts a dataset page draws at build time, as SVG, from a chart's
//! spec and the points the CSV scan collected.

pub mod chart;

use datapages_content::{content, locale, schema, shown, text};
use datapages_scan::scan;
