//! Writing SVG: the style sheet, the elements of a chart body (text, lines, markers,
//! legends) and the number formats positions are written in.

use std::fmt::Write as _;

use super::{CHAR_WIDTH, NARROWEST};
use crate::text::escape_html_into;

/// The colours, fonts and dark variant, scoped to `svg.dpc` so an inline chart's style
/// cannot leak into the page.
pub(super) const STYLE: &str = "svg.dpc{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;font-size:13px}\
svg.dpc .bg{fill:#fbfaf7}svg.dpc text{fill:#1d1f21}svg.dpc .m{fill:#5b6066}\
svg.dpc .h{font-size:15px;font-weight:700}svg.dpc .a{font-size:12px;font-weight:600;fill:#5b6066}\
svg.dpc .k{font-size:12px;fill:#5b6066;font-variant-numeric:tabular-nums}svg.dpc .v{font-variant-numeric:tabular-nums}\
svg.dpc .g{stroke:#dcd8cf;stroke-width:1}svg.dpc .z{stroke:#6f757b;stroke-width:1}\
svg.dpc .s0{fill:#1f5f99;stroke:#1f5f99}svg.dpc .s1{fill:#b3541e;stroke:#b3541e}svg.dpc .s2{fill:#2e7d4f;stroke:#2e7d4f}\
svg.dpc .s3{fill:#7b4ea3;stroke:#7b4ea3}svg.dpc .s4{fill:#8a6d00;stroke:#8a6d00}svg.dpc .s5{fill:#a23b72;stroke:#a23b72}\
svg.dpc .l{fill:none;stroke-width:2.25}svg.dpc .o{fill:#fbfaf7;stroke-width:2}\
@media screen and (prefers-color-scheme:dark){svg.dpc .bg{fill:#17191b}svg.dpc text{fill:#e8e6e1}\
svg.dpc .m,svg.dpc .a,svg.dpc .k{fill:#a7abb0}svg.dpc .g{stroke:#3a3d41}svg.dpc .z{stroke:#8d9298}\
svg.dpc .s0{fill:#7db7f0;stroke:#7db7f0}svg.dpc .s1{fill:#f0a36b;stroke:#f0a36b}svg.dpc .s2{fill:#74c69d;stroke:#74c69d}\
svg.dpc .s3{fill:#c3a2e6;stroke:#c3a2e6}svg.dpc .s4{fill:#d9c15a;stroke:#d9c15a}svg.dpc .s5{fill:#f08cc0;stroke:#f08cc0}\
svg.dpc .l{fill:none}svg.dpc .o{fill:#17191b}}";

/// Line dash patterns per series, so lines differ by more than colour.
pub(super) const DASHES: [&str; 4] = ["", "7 4", "2 3", "10 3 2 3"];

/// The SVG elements under the title, built top to bottom.
#[derive(Default)]
pub(super) struct Body {
    pub(super) out: String,
}

impl Body {
    /// A `<text>` element; `x` is already formatted (`12.5%` or `40`).
    pub(super) fn text(&mut self, x: &str, y: f64, class: &str, anchor: &str, content: &str) {
        let _ = write!(
            self.out,
            "<text x=\"{x}\" y=\"{}\" class=\"{class}\"",
            num(y)
        );
        if anchor != "start" {
            let _ = write!(self.out, " text-anchor=\"{anchor}\"");
        }
        self.out.push('>');
        escape_html_into(content, &mut self.out);
        self.out.push_str("</text>\n");
    }

    /// Text wrapped at `chars` characters per line; returns the baseline of the last line.
    pub(super) fn wrapped(
        &mut self,
        text: &str,
        x: f64,
        y: f64,
        class: &str,
        chars: usize,
        step: f64,
    ) -> f64 {
        let mut baseline = y;
        for (index, line) in wrap(text, chars).iter().enumerate() {
            baseline = y + index as f64 * step;
            self.text(&num(x), baseline, class, "start", line);
        }
        baseline
    }

    pub(super) fn line(&mut self, x1: &str, y1: f64, x2: &str, y2: f64, class: &str, dash: &str) {
        let _ = write!(
            self.out,
            "<line x1=\"{x1}\" y1=\"{}\" x2=\"{x2}\" y2=\"{}\" class=\"{class}\"",
            num(y1),
            num(y2)
        );
        if !dash.is_empty() {
            let _ = write!(self.out, " stroke-dasharray=\"{dash}\"");
        }
        self.out.push_str("/>\n");
    }

    /// A series marker centred at (`x`, `y`): the shape as well as the colour tells series apart.
    pub(super) fn marker(&mut self, x: &str, y: f64, series: usize, tooltip: Option<&str>) {
        let colour = series % 6;
        let (square, hollow) = match series % 4 {
            0 => (false, false),
            1 => (true, false),
            2 => (false, true),
            _ => (true, true),
        };
        let class = if hollow {
            format!("s{colour} o")
        } else {
            format!("s{colour}")
        };
        if square {
            let _ = write!(
                self.out,
                "<rect x=\"{x}\" y=\"{}\" width=\"8\" height=\"8\" transform=\"translate(-4 0)\" class=\"{class}\"",
                num(y - 4.0)
            );
        } else {
            let _ = write!(
                self.out,
                "<circle cx=\"{x}\" cy=\"{}\" r=\"{}\" class=\"{class}\"",
                num(y),
                if hollow { "4" } else { "4.5" }
            );
        }
        match tooltip {
            Some(tip) => {
                self.out.push_str("><title>");
                escape_html_into(tip, &mut self.out);
                self.out.push_str(if square {
                    "</title></rect>\n"
                } else {
                    "</title></circle>\n"
                });
            }
            None => self.out.push_str("/>\n"),
        }
    }

    /// A legend of series markers and names, wrapped to the narrowest width.
    pub(super) fn legend(&mut self, series: &[&str], y: f64) -> f64 {
        let mut x = 0.0;
        let mut y = y;
        for (index, name) in series.iter().enumerate() {
            let width = 16.0 + text_width(name) + 14.0;
            if x > 0.0 && x + width > NARROWEST {
                x = 0.0;
                y += 20.0;
            }
            self.marker(&num(x + 5.0), y - 4.0, index, None);
            self.text(&num(x + 15.0), y, "v", "start", name);
            x += width;
        }
        y
    }
}

/// Words packed into lines of at most `chars` characters (a longer word gets its own line).
pub(super) fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

pub(super) fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// A pixel number with at most two decimals and no trailing zeros.
pub(super) fn num(value: f64) -> String {
    let mut text = format!("{value:.2}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if text == "-0" {
        text = "0".into();
    }
    text
}

pub(super) fn pct(value: f64) -> String {
    format!("{}%", num(value))
}
