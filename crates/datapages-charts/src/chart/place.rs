//! Planning positions that hold at every width. Across, a chart mixes pixels (text, the
//! series-name column) and percentages of the chart's width (bars, points, gridlines), so
//! an element's left edge is `px + frac * width` plus offsets; down, everything is pixels.
//! Two boxes are apart at every width from [`NARROWEST`] to [`WIDEST`] when they are
//! apart at both ends, because their distance across is linear in the width.

use super::svg::{font, text_width_at};
use super::NARROWEST;

/// The widest chart the layout is planned for, in pixels.
pub const WIDEST: f64 = 1600.0;

/// A box whose horizontal anchor moves with the width: `off + frac * width`, and spans
/// `x0..x1` pixels around it; `y0..y1` down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Area {
    pub(super) off: f64,
    pub(super) frac: f64,
    pub(super) x0: f64,
    pub(super) x1: f64,
    pub(super) y0: f64,
    pub(super) y1: f64,
}

impl Area {
    /// The box of a line of text of style `class` at baseline `y`, as a browser measures
    /// it (the font's ascent and descent), for the anchor `start`, `middle` or `end`,
    /// moved `dx` across.
    pub(super) fn text(
        off: f64,
        frac: f64,
        dx: f64,
        y: f64,
        text: &str,
        class: &str,
        anchor: &str,
    ) -> Area {
        let (px, bold) = font(class);
        let width = text_width_at(text, px, bold);
        let start = match anchor {
            "middle" => -width / 2.0,
            "end" => -width,
            _ => 0.0,
        };
        Area {
            off,
            frac,
            x0: dx + start,
            x1: dx + start + width,
            y0: y - 0.95 * px,
            y1: y + 0.25 * px,
        }
    }

    /// A vertical line at `off + frac * width` from `y0` to `y1`.
    pub(super) fn vertical(off: f64, frac: f64, y0: f64, y1: f64) -> Area {
        Area {
            off,
            frac,
            x0: -0.5,
            x1: 0.5,
            y0,
            y1,
        }
    }

    /// Whether the two boxes come closer than `margin` at some width.
    pub(super) fn meets(&self, other: &Area, margin: f64) -> bool {
        if self.y0 >= other.y1 + margin || other.y0 >= self.y1 + margin {
            return false;
        }
        let distance =
            |width: f64| (self.off + self.frac * width) - (other.off + other.frac * width);
        let (a, b) = (distance(NARROWEST), distance(WIDEST));
        a.min(b) < other.x1 - self.x0 + margin && a.max(b) > other.x0 - self.x1 - margin
    }

    /// Whether the box keeps inside a chart of any planned width.
    pub(super) fn inside(&self) -> bool {
        [NARROWEST, WIDEST].iter().all(|width| {
            let at = self.off + self.frac * width;
            at + self.x0 >= -0.5 && at + self.x1 <= width + 0.5
        })
    }
}

/// The boxes already drawn: a new label goes where it meets none of them.
#[derive(Debug, Default)]
pub(super) struct Taken(pub(super) Vec<Area>);

impl Taken {
    pub(super) fn free(&self, area: &Area, margin: f64) -> bool {
        area.inside() && !self.0.iter().any(|taken| area.meets(taken, margin))
    }
}
