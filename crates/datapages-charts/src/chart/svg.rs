//! Writing SVG: the style sheet, the elements of a chart body (text, lines, markers,
//! legends) and the number formats positions are written in.

use std::fmt::Write as _;

use super::NARROWEST;
use crate::text::escape_html_into;

/// The colours, fonts and dark variant, scoped to `svg.dpc` so the chart's style cannot leak
/// into the page. Colours are custom properties: the dark variant (and a page that wants
/// other colours) only redefines them. Written into each chart's `.svg` file; pages get it
/// from the site's stylesheet, which holds this same text (tested in the application's
/// theme.rs, where the stylesheet is).
pub const STYLE: &str = "svg.dpc{--dpc-bg:#fbfaf7;--dpc-ink:#1d1f21;--dpc-muted:#5b6066;--dpc-grid:#dcd8cf;--dpc-axis:#6f757b;--dpc-cx:#c4c0b8;\
--dpc-s0:#1f5f99;--dpc-s1:#b3541e;--dpc-s2:#2e7d4f;--dpc-s3:#7b4ea3;--dpc-s4:#8a6d00;--dpc-s5:#a23b72;\
font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;font-size:13px}\
svg.dpc .bg{fill:var(--dpc-bg)}svg.dpc text{fill:var(--dpc-ink)}svg.dpc .m{fill:var(--dpc-muted)}\
svg.dpc .h{font-size:15px;font-weight:700}svg.dpc .a{font-size:12px;font-weight:600;fill:var(--dpc-muted)}\
svg.dpc .k{font-size:12px;fill:var(--dpc-muted);font-variant-numeric:tabular-nums}svg.dpc .v{font-variant-numeric:tabular-nums}\
svg.dpc .g{stroke:var(--dpc-grid);stroke-width:1}svg.dpc .z{stroke:var(--dpc-axis);stroke-width:1}\
svg.dpc .s0{fill:var(--dpc-s0);stroke:var(--dpc-s0)}svg.dpc .s1{fill:var(--dpc-s1);stroke:var(--dpc-s1)}svg.dpc .s2{fill:var(--dpc-s2);stroke:var(--dpc-s2)}\
svg.dpc .s3{fill:var(--dpc-s3);stroke:var(--dpc-s3)}svg.dpc .s4{fill:var(--dpc-s4);stroke:var(--dpc-s4)}svg.dpc .s5{fill:var(--dpc-s5);stroke:var(--dpc-s5)}\
svg.dpc .l{fill:none;stroke-width:2.25}svg.dpc .cx{fill:none;stroke:var(--dpc-cx);stroke-width:1}svg.dpc text.dl{stroke:none}svg.dpc .o{fill:var(--dpc-bg);stroke-width:2}svg.dpc .gd{stroke-width:1;stroke-dasharray:2 3}\
@media screen and (prefers-color-scheme:dark){svg.dpc{--dpc-bg:#17191b;--dpc-ink:#e8e6e1;--dpc-muted:#a7abb0;--dpc-grid:#3a3d41;--dpc-axis:#8d9298;--dpc-cx:#53575c;\
--dpc-s0:#7db7f0;--dpc-s1:#f0a36b;--dpc-s2:#74c69d;--dpc-s3:#c3a2e6;--dpc-s4:#d9c15a;--dpc-s5:#f08cc0}}";

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
        self.text_dx(x, 0.0, y, class, anchor, content);
    }

    /// A `<text>` element moved `dx` pixels across from `x`.
    pub(super) fn text_dx(
        &mut self,
        x: &str,
        dx: f64,
        y: f64,
        class: &str,
        anchor: &str,
        content: &str,
    ) {
        let _ = write!(self.out, "<text x=\"{x}\"");
        if dx != 0.0 {
            let _ = write!(self.out, " dx=\"{}\"", num(dx));
        }
        let _ = write!(self.out, " y=\"{}\" class=\"{class}\"", num(y));
        if anchor != "start" {
            let _ = write!(self.out, " text-anchor=\"{anchor}\"");
        }
        self.out.push('>');
        escape_html_into(content, &mut self.out);
        self.out.push_str("</text>\n");
    }

    /// Text of style `class` wrapped to `width` pixels, in lines as even as they can be;
    /// returns the baseline of the last line.
    pub(super) fn wrapped(
        &mut self,
        text: &str,
        (x, y): (f64, f64),
        class: &str,
        width: f64,
        step: f64,
    ) -> f64 {
        let mut baseline = y;
        for (index, line) in wrap_balanced(text, class, width).iter().enumerate() {
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

    /// A line through `points` (x in percent of the width, y in pixels), drawn as one path
    /// in a nested SVG that stretches across `left..right` percent and `top..top + height`
    /// pixels: a path cannot take percentages, so its x runs over 0..1000 of that box,
    /// and its stroke keeps its width however the box stretches.
    pub(super) fn path(
        &mut self,
        points: &[(f64, f64)],
        (left, right): (f64, f64),
        (top, height): (f64, f64),
        class: &str,
        dash: &str,
    ) {
        let _ = write!(
            self.out,
            "<svg x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 1000 {}\" preserveAspectRatio=\"none\" overflow=\"visible\"><path class=\"{class}\" vector-effect=\"non-scaling-stroke\"",
            pct(left),
            num(top),
            pct(right - left),
            num(height),
            num(height)
        );
        if !dash.is_empty() {
            let _ = write!(self.out, " stroke-dasharray=\"{dash}\"");
        }
        self.out.push_str(" d=\"");
        for (i, (x, y)) in points.iter().enumerate() {
            let across = (x - left) / (right - left) * 1000.0;
            let _ = write!(
                self.out,
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                num(across),
                num(y - top)
            );
        }
        self.out.push_str("\"/></svg>\n");
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

/// As [`wrap`], in as many lines, but as even as they can be: no word left alone on a
/// last line ("(ms)." under a long line).
pub(super) fn wrap_balanced(text: &str, class: &str, width: f64) -> Vec<String> {
    let lines = wrap(text, class, width);
    let total = text_width_at(text, font(class).0, font(class).1);
    let mut narrower = (total / lines.len().max(1) as f64).floor();
    while narrower < width {
        let even = wrap(text, class, narrower);
        if even.len() == lines.len() {
            return even;
        }
        narrower += 4.0;
    }
    lines
}

/// Words of style `class` packed into lines at most `width` pixels wide (a longer word
/// gets its own line).
pub(super) fn wrap(text: &str, class: &str, width: f64) -> Vec<String> {
    let (px, bold) = font(class);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && text_width_at(&format!("{current} {word}"), px, bold) > width {
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

/// The size and weight of a text class of the style sheet.
pub(super) fn font(class: &str) -> (f64, bool) {
    match class {
        "k" => (12.0, false),
        "a" => (12.0, true),
        "h" => (15.0, true),
        _ => (13.0, false),
    }
}

/// The width of `text` at the 13 px label size (see [`text_width_at`]).
pub(super) fn text_width(text: &str) -> f64 {
    text_width_at(text, 13.0, false)
}

/// A generous width of `text` at `px` pixels: the advance widths of DejaVu Sans (among
/// the widest fallbacks of the font stack) in ems, bold a tenth wider.
pub(super) fn text_width_at(text: &str, px: f64, bold: bool) -> f64 {
    let ems: f64 = text.chars().map(char_ems).sum();
    ems * px * if bold { 1.1 } else { 1.0 }
}

fn char_ems(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '\'' | '|' | 'I' | 'J' => 0.3,
        ' ' | ',' | '.' | ':' | ';' | '!' | '/' | '\\' => 0.34,
        'f' | 't' | '-' | '(' | ')' | '[' | ']' | '{' | '}' => 0.4,
        'r' | '"' => 0.46,
        's' | 'z' | 'c' => 0.56,
        'm' | 'M' | 'W' | 'w' | '%' | '@' => 1.0,
        'a'..='z' | '0'..='9' | '#' | '$' | '+' | '=' | '<' | '>' | '?' | '_' | '~' | '*' => 0.64,
        'A'..='Z' => 0.8,
        _ if c.is_ascii() => 0.64,
        _ => 1.0,
    }
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
