//! The `datapages` command: parses the command line and runs it (all in the library).

/// Rendering allocates many small, short-lived values (template contexts, JSON metadata)
/// from several threads; mimalloc serves that pattern with about a quarter less CPU than
/// glibc's malloc (measured with benches/ab.py when it was chosen).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    datapages::run()
}
