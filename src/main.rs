//! The `datapages` command: parses the command line and runs it (all in the library).

/// Rendering allocates many small, short-lived values (template contexts, JSON metadata)
/// from several threads; mimalloc serves that pattern with about a quarter less CPU than
/// glibc's malloc (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // mimalloc's arenas would otherwise be backed by transparent huge pages where the
    // system allows them (`madvise`), and every 2 MiB page touched counts in full: the
    // peak resident memory of a 1,000,000-row build was 20-28 MiB instead of 10.
    #[cfg(target_os = "linux")]
    // SAFETY: a plain process flag; no pointers are passed.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    datapages::run()
}
