//! The `datapages` command: parses the command line and runs it (all in the library).

fn main() -> std::process::ExitCode {
    datapages::run()
}
