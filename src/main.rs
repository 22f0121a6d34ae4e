fn main() -> std::process::ExitCode {
    datapages::cli::run()
}
