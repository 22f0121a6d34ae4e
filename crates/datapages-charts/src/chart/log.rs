//! A logarithmic value axis: ticks at powers of ten, with 2 and 5 between them when the
//! data spans less than two decades (1, 2, 5, 10, 20, 50…), and every `k`-th power when
//! there are more decades than fit.

/// `m × 10^e`, the nearest `f64` to that decimal (2e-3 is 0.002, not 0.0020000000000000005).
fn decimal(m: u8, e: i32) -> f64 {
    format!("{m}e{e}").parse().unwrap_or(f64::MAX)
}

/// Tick values covering `lo..=hi` (both above zero) on a log axis, at most about
/// `max_intervals` of them: the axis runs from the first tick to the last.
pub(super) fn log_ticks(lo: f64, hi: f64, max_intervals: usize) -> Vec<f64> {
    let (lo, hi) = if lo > 0.0 && hi >= lo && hi.is_finite() {
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    // Exponents of the powers of ten at or below `lo` and at or above `hi`.
    let floor = |v: f64| {
        let mut e = v.log10().floor() as i32;
        while decimal(1, e) > v {
            e -= 1;
        }
        while decimal(1, e + 1) <= v {
            e += 1;
        }
        e
    };
    let e0 = floor(lo);
    let mut e1 = floor(hi);
    if decimal(1, e1) < hi {
        e1 += 1;
    }
    if (hi / lo).log10() < 2.0 {
        let candidates: Vec<f64> = (e0..=e1)
            .flat_map(|e| [1, 2, 5].map(|m| decimal(m, e)))
            .collect();
        let first = candidates.iter().rposition(|t| *t <= lo).unwrap_or(0);
        let last = candidates
            .iter()
            .position(|t| *t >= hi)
            .unwrap_or(candidates.len() - 1);
        return candidates[first..=last.max(first + 1).min(candidates.len() - 1)].to_vec();
    }
    let decades = (e1 - e0).max(1) as usize;
    let every = decades.div_ceil(max_intervals.max(1)) as i32;
    let start = e0.div_euclid(every) * every;
    let end = (e1 + every - 1).div_euclid(every) * every;
    (start..=end)
        .step_by(every as usize)
        .map(|e| decimal(1, e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_ticked_at_powers_of_ten() {
        assert_eq!(
            log_ticks(3.0, 250_000.0, 8),
            [1.0, 10.0, 100.0, 1_000.0, 10_000.0, 100_000.0, 1_000_000.0]
        );
        assert_eq!(log_ticks(0.004, 0.9, 8), [0.001, 0.01, 0.1, 1.0]);
        // Exactly a power of ten at either end: no decade beyond it.
        assert_eq!(log_ticks(1.0, 1_000.0, 8), [1.0, 10.0, 100.0, 1_000.0]);
    }

    #[test]
    fn under_two_decades_ticks_at_one_two_and_five() {
        assert_eq!(log_ticks(3.0, 70.0, 8), [2.0, 5.0, 10.0, 20.0, 50.0, 100.0]);
        assert_eq!(log_ticks(0.0031, 0.0042, 8), [0.002, 0.005]);
        assert_eq!(log_ticks(316.0, 374.0, 8), [200.0, 500.0]);
    }

    #[test]
    fn many_decades_keep_every_kth_power() {
        let ticks = log_ticks(1e-3, 1e12, 8);
        assert_eq!(ticks, [1e-4, 1e-2, 1.0, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12]);
    }

    #[test]
    fn a_bad_range_still_gives_an_axis() {
        assert_eq!(log_ticks(0.0, 5.0, 8), [1.0, 2.0, 5.0, 10.0]);
        assert_eq!(log_ticks(-3.0, f64::NAN, 8), [1.0, 2.0, 5.0, 10.0]);
    }
}
