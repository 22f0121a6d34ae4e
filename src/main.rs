//! The `datapages` command: parses the command line and runs it (all in the library).

/// Rendering allocates many small, short-lived values (template contexts, JSON metadata)
/// from several threads; mimalloc serves that pattern with about a quarter less CPU than
/// glibc's malloc (measured with benches/ab.py when it was chosen).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Memory use per command (small pages, freed pages returned soon): `cli::run_with`.
    datapages::run_with(allocator::return_freed_pages_soon)
}

/// The allocator's settings, made here because this binary is what chose mimalloc.
mod allocator {
    use libmimalloc_sys::{mi_option_set, mi_option_t};
    use std::os::raw::c_long;

    /// `mi_option_purge_delay`: its place in mimalloc 3's `mi_option_e` (the version
    /// Cargo.lock pins). The bindings name only the stable options and, for the others,
    /// say to pass their number; the test below fails if it moves.
    const PURGE_DELAY: mi_option_t = 15;

    /// How long freed pages stay resident before mimalloc returns them to the system, in
    /// milliseconds. mimalloc 3 waits 1,000 ms: for a build of a few seconds, every page a
    /// step freed stayed resident until the end. 10 ms (mimalloc 2's default) takes the
    /// peak of a 1,000,000-row build with row pages from 48.5 to 35.4 MiB, of 10,000 small
    /// datasets from 38 to 35 MiB, with no measurable change in time; 0 lowered it
    /// further but cost 3-7 % of the time.
    const PURGE_DELAY_MS: c_long = 10;

    /// For one-off commands (build, check, new, ...): `serve` keeps mimalloc's defaults
    /// for the latency of its rebuilds.
    pub fn return_freed_pages_soon() {
        // SAFETY: sets one of mimalloc's option values (a plain integer); no pointers.
        unsafe { mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use libmimalloc_sys::mi_option_get;

        /// The option at `PURGE_DELAY` is the purge delay: its default is 1,000 ms, and
        /// the value set is the value read.
        #[test]
        fn the_purge_delay_is_the_option_set() {
            // SAFETY: reads and sets plain integer options.
            unsafe {
                assert_eq!(mi_option_get(PURGE_DELAY), 1000);
                return_freed_pages_soon();
                assert_eq!(mi_option_get(PURGE_DELAY), PURGE_DELAY_MS);
            }
        }
    }
}
