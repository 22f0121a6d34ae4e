//! The `datapages` command: parses the command line and runs it (all in the library).

/// Rendering allocates many small, short-lived values (template contexts, JSON metadata)
/// from several threads; mimalloc serves that pattern with about a quarter less CPU than
/// glibc's malloc (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Memory use per command (small pages for one-off builds): `cli::run`.
    datapages::run()
}
