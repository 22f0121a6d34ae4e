//! Lines of several series name themselves: each series' name at the right end of the
//! plot, level with its last point, nudged apart vertically so no two names meet; with
//! `highlight`, only the highlighted series are coloured and named, the others are thin
//! grey context lines.

use super::place::Area;
use super::svg::text_width;
use super::NARROWEST;

/// Pixels between the plot's right edge and a name.
pub(super) const GAP: f64 = 8.0;
/// Baselines of two names at least this far apart (a 13 px line and a little air).
const LINE: f64 = 17.0;
/// The plot keeps at least this share of the width, in percent; longer names are cut.
const MIN_PLOT_RIGHT: f64 = 55.0;

/// The colour slot of each series (index into `series`): its place among the
/// highlighted ones, `None` for a grey context series; every series in order when
/// nothing is highlighted.
pub(super) fn slots(series: &[&str], highlight: &[String]) -> Vec<Option<usize>> {
    series
        .iter()
        .enumerate()
        .map(|(index, name)| {
            if highlight.is_empty() {
                Some(index)
            } else {
                highlight.iter().position(|h| h == name)
            }
        })
        .collect()
}

/// Where the plot ends, in percent of the width, so that the widest name fits right of
/// it at the narrowest width.
pub(super) fn plot_right(names: &[&str]) -> f64 {
    let widest = names.iter().map(|n| text_width(n)).fold(0.0, f64::max);
    (100.0 - (widest + GAP + 2.0) / NARROWEST * 100.0).clamp(MIN_PLOT_RIGHT, 96.0)
}

/// A name as long as fits right of a plot ending at `right` percent: cut with "…" when
/// longer (the description still names the series whole).
fn fitted(name: &str, right: f64) -> String {
    let room = (100.0 - right) / 100.0 * NARROWEST - GAP - 1.5;
    if text_width(name) <= room {
        return name.to_string();
    }
    let mut cut: String = name.to_string();
    while !cut.is_empty() && text_width(&format!("{cut}…")) > room {
        cut.pop();
    }
    format!("{}…", cut.trim_end())
}

/// One name to place: its colour slot, the height of its series' last point and the name.
pub(super) struct End<'a> {
    pub(super) slot: usize,
    pub(super) y: f64,
    pub(super) name: &'a str,
}

/// A placed name: its colour slot, baseline, the text drawn and its box.
pub(super) struct Placed {
    pub(super) slot: usize,
    pub(super) baseline: f64,
    pub(super) text: String,
    pub(super) area: Area,
}

/// The names right of a plot ending at `right` percent, each as near its line's end as
/// the others allow, all with baselines within `top..=bottom`: sorted by height, pushed
/// down to keep [`LINE`] apart, then the run pulled back up from the bottom if needed.
pub(super) fn place(mut ends: Vec<End>, right: f64, (top, bottom): (f64, f64)) -> Vec<Placed> {
    ends.sort_by(|a, b| a.y.total_cmp(&b.y));
    // The baseline sits a third of the text below the line's height, centring the name.
    let mut baselines: Vec<f64> = ends.iter().map(|e| (e.y + 4.5).max(top)).collect();
    for i in 1..baselines.len() {
        baselines[i] = baselines[i].max(baselines[i - 1] + LINE);
    }
    let mut limit = bottom;
    for baseline in baselines.iter_mut().rev() {
        *baseline = baseline.min(limit);
        limit = *baseline - LINE;
    }
    ends.iter()
        .zip(baselines)
        .map(|(end, baseline)| {
            let text = fitted(end.name, right);
            let area = Area::text(0.0, right / 100.0, GAP, baseline, &text, "v", "start");
            Placed {
                slot: end.slot,
                baseline,
                text,
                area,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_highlighted_series_get_colours() {
        let series = ["Chad", "China", "India"];
        assert_eq!(slots(&series, &[]), [Some(0), Some(1), Some(2)]);
        let highlight = ["India".to_string(), "China".to_string()];
        assert_eq!(slots(&series, &highlight), [None, Some(1), Some(0)]);
    }

    #[test]
    fn names_keep_apart_and_inside_the_plot() {
        let ends = (0..6)
            .map(|i| End {
                slot: i,
                y: 100.0 + i as f64,
                name: "Series",
            })
            .collect();
        let placed = place(ends, 80.0, (20.0, 110.0));
        assert_eq!(placed.len(), 6);
        for pair in placed.windows(2) {
            assert!(pair[1].baseline - pair[0].baseline >= LINE - 1e-9);
            assert!(!pair[0].area.meets(&pair[1].area, 0.0));
        }
        assert!(placed.iter().all(|p| (20.0..=110.0).contains(&p.baseline)));
        assert!(placed.iter().all(|p| p.area.inside()));
    }

    #[test]
    fn the_plot_makes_room_for_the_widest_name_and_long_names_are_cut() {
        let right = plot_right(&["GOOG", "AAPL"]);
        assert!(right > 80.0 && right < 96.0, "{right}");
        let long = "The Democratic Republic of the Congo and its neighbours";
        assert_eq!(plot_right(&[long]), MIN_PLOT_RIGHT);
        let cut = fitted(long, MIN_PLOT_RIGHT);
        assert!(cut.ends_with('…') && cut.len() < long.len(), "{cut}");
        let placed = place(
            vec![End {
                slot: 0,
                y: 50.0,
                name: long,
            }],
            MIN_PLOT_RIGHT,
            (0.0, 100.0),
        );
        assert!(placed[0].area.inside());
    }
}
