//! Command-line parsing and dispatch; the work itself lives in the library.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::build::{self, BuildOptions};
use crate::diagnostics::Error;
use crate::scaffold::init::Ci;
use crate::scaffold::workflow::InstallSource;
use crate::serve::ServeOptions;

const EXAMPLES: &str = "\
Examples:
  datapages build                      build the site in this folder into ./public
  datapages build --root my-site       build another folder's site into my-site/public
  datapages build --output /tmp/out    write the output somewhere else
  datapages build --output out --force replace a folder datapages did not write
  datapages build --data-output /tmp/d the big files of a site with data_url, elsewhere
  datapages check                      validate everything, write nothing
  datapages check --strict             treat warnings as errors too
  datapages build --no-cache           check every CSV and render every dataset again
  datapages build --base-url https://preview.example.org/   a deploy preview's address
  datapages build --drafts             build `draft = true` datasets too
  datapages serve                      preview at http://127.0.0.1:1111/ with live reload
  datapages serve --port 8000 --open   another port, and open the browser
  datapages serve --allow-host box.lan also answer requests for http://box.lan:1111/
  datapages init my-site               start a new site in ./my-site
  datapages init --ci github           add a GitHub Pages publishing workflow to this site
  datapages completions bash           the shell completion script (bash, zsh, fish, ...)
  datapages man | man -l -             the manual page
  datapages new rainfall --from r.csv  a dataset page drafted from a CSV you have
  datapages eject                      write the built-in templates and styles out to edit";

/// A static site generator for publishing datasets honestly.
#[derive(Debug, Parser)]
#[command(
    name = "datapages",
    version = crate::provenance::version(),
    long_version = crate::provenance::long_version(),
    about,
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The services `init --ci` writes a workflow for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CiService {
    /// GitHub Actions deploying to GitHub Pages.
    Github,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate the site and render it into the output folder.
    #[command(after_help = EXAMPLES)]
    Build(BuildArgs),
    /// Build, serve on 127.0.0.1, rebuild on every change and reload open pages.
    #[command(after_help = EXAMPLES)]
    Serve(ServeArgs),
    /// Run every validation of a build without writing anything.
    #[command(after_help = EXAMPLES)]
    Check(CheckArgs),
    /// Create a new site (site.toml, a home page, an About page, an example dataset).
    #[command(after_help = EXAMPLES)]
    Init(InitArgs),
    /// Add a dataset page, its columns inferred from a CSV file (a page per table given).
    #[command(after_help = EXAMPLES)]
    New {
        /// The dataset's slug: lowercase letters, digits and hyphens.
        slug: String,
        /// The CSV to publish: copied byte for byte to data/datasets/<slug>.csv. Also a
        /// .tsv, a .csv.gz (decompressed), an .xlsx or .ods workbook (one table per sheet),
        /// several files or a folder: one dataset per table (<slug>-<table>), keys proposed.
        #[arg(long, num_args = 1..)]
        from: Vec<PathBuf>,
        /// The site folder (the one holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Write the built-in templates and static files into the site, to edit them.
    #[command(after_help = EXAMPLES)]
    Eject {
        /// The site folder (the one holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Replace files of the same names in templates/ and static/.
        #[arg(long)]
        force: bool,
    },
    /// Print the shell completion script for bash, zsh, fish, elvish or PowerShell.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions {
        /// The shell to complete datapages' commands and options in.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one per command into a folder.
    #[command(after_help = MAN_HELP)]
    Man {
        /// Write datapages.1 and datapages-<command>.1 into this folder (created if missing).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

const COMPLETIONS_HELP: &str = "\
Install the script where your shell looks for completions, for example:
  bash:        datapages completions bash > ~/.local/share/bash-completion/completions/datapages
  zsh:         datapages completions zsh > ~/.zfunc/_datapages   (with fpath+=~/.zfunc before compinit)
  fish:        datapages completions fish > ~/.config/fish/completions/datapages.fish
  PowerShell:  datapages completions powershell >> $PROFILE";

const MAN_HELP: &str = "\
Examples:
  datapages man | man -l -                       read it now
  datapages man --dir ~/.local/share/man/man1    install the pages for `man datapages`";

/// `build`'s flags.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The site folder (the one holding site.toml).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Where to write the site; default <root>/public.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Where to write the big files (CSV, Parquet, kept versions) of a site with data_url
    /// in site.toml; default <root>/public-data.
    #[arg(long)]
    data_output: Option<PathBuf>,
    /// Date (YYYY-MM-DD) for datasets whose front matter has none; output never uses the clock.
    #[arg(long, value_parser = parse_date)]
    date: Option<String>,
    /// Scan every CSV again instead of reusing the checks of unchanged large files, and
    /// render every dataset instead of linking unchanged ones from the previous output.
    #[arg(long)]
    no_cache: bool,
    /// Replace the output folder even if datapages did not write it (deletes its files).
    #[arg(long)]
    force: bool,
    /// Publish at this address instead of site.toml's base_url (deploy previews).
    #[arg(long, value_parser = parse_base_url)]
    base_url: Option<String>,
    /// Build `draft = true` datasets too (serve always does).
    #[arg(long)]
    drafts: bool,
}

/// `serve`'s flags.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The site folder (the one holding site.toml).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Where to write the site; default <root>/public.
    #[arg(long)]
    output: Option<PathBuf>,
    /// The port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 1111)]
    port: u16,
    /// The address to listen on (an IP address or localhost); keep 127.0.0.1 unless
    /// others must see the preview.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Also answer requests for this host name (repeatable); only localhost and IP
    /// addresses are answered otherwise, against DNS rebinding.
    #[arg(long = "allow-host", value_name = "NAME", value_parser = parse_host_name)]
    allow_host: Vec<String>,
    /// Open the site in the system's browser.
    #[arg(long)]
    open: bool,
    /// Scan every CSV again instead of reusing the checks of unchanged large files.
    #[arg(long)]
    no_cache: bool,
    /// Replace the output folder even if datapages did not write it (deletes its files).
    #[arg(long)]
    force: bool,
}

/// `check`'s flags.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The site folder (the one holding site.toml).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Exit with 1 when there are warnings, too.
    #[arg(long)]
    strict: bool,
    /// Build `draft = true` datasets too (serve always does).
    #[arg(long)]
    drafts: bool,
    /// Scan every CSV again instead of reusing the checks of unchanged large files.
    #[arg(long)]
    no_cache: bool,
}

/// `init`'s flags.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The folder to create the site in (created if missing).
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// Write into a folder that is not empty (replaces files of the same names only).
    #[arg(long)]
    force: bool,
    /// Also write a workflow that checks, builds and publishes the site on every push
    /// (`github`: .github/workflows/datapages.yml for GitHub Pages). In an existing
    /// site, writes only the workflow.
    #[arg(long, value_enum)]
    ci: Option<CiService>,
    /// The datapages the workflow installs: a repository's https address and a full commit
    /// (default: the ones this binary was built from, when it knows them; see --version).
    #[arg(long, value_name = "URL@COMMIT", requires = "ci", value_parser = InstallSource::parse)]
    install_from: Option<InstallSource>,
}

fn parse_base_url(value: &str) -> Result<String, String> {
    match crate::content::site_values::base_url_problem(value) {
        Some((problem, _)) => Err(problem),
        None => Ok(value.to_string()),
    }
}

/// An `--allow-host` name: letters, digits, `-`, `_` and dots, as a `Host` header carries it
/// (no port, no scheme).
fn parse_host_name(value: &str) -> Result<String, String> {
    let name = value.strip_suffix('.').unwrap_or(value);
    if crate::serve::http::is_host_name(name) {
        Ok(name.to_ascii_lowercase())
    } else {
        Err(format!(
            "{value:?} is not a host name: give the name alone, like preview.example.test (no scheme, no port)"
        ))
    }
}

fn parse_date(value: &str) -> Result<String, String> {
    let ok = value.len() == 10
        && crate::dataset::schema::ColumnType::Date
            .check(value)
            .is_ok();
    if ok {
        Ok(value.to_string())
    } else {
        Err(format!("{value:?} is not a date like 2026-10-11"))
    }
}

/// A one-off command (build, check, ...) maps memory in 4 KiB pages only. mimalloc's
/// arenas are otherwise backed by transparent huge pages where the system allows them
/// (`madvise`), and every 2 MiB page touched counts in full: the peak resident memory of a
/// 1,000,000-row build was 20-28 MiB instead of 10. `serve` keeps them: it holds every
/// dataset whole (about 500 MiB at 10,000 datasets) and each edit walks all of them, where
/// 4 KiB pages cost a TLB miss per dataset; huge pages took the write-to-reload median at
/// 10,000 datasets from 169 to 118 ms (the serve-n10k case of benches/).
fn small_pages_only() {
    #[cfg(target_os = "linux")]
    // SAFETY: a plain process flag; no pointers are passed.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// A one-off command whose standard output is a pipe closed early (`datapages man | head`)
/// ends there, as Unix tools do, instead of panicking in `print!`: SIGPIPE's default
/// action, which Rust's runtime sets aside. Not for `serve`, whose sockets rely on write
/// errors instead. What a command writes to disk comes before what it prints.
fn end_quietly_when_the_output_pipe_closes() {
    #[cfg(unix)]
    // SAFETY: restores a signal's default disposition; no handler, no pointers.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Exit codes: 0 success, 1 problems in the site, 2 usage errors (from clap).
pub fn run() -> ExitCode {
    run_with(|| {})
}

/// [`run`], calling `tune_for_one_off` first unless the command is `serve`: the binary
/// sets its allocator up there for commands that end (see `main.rs`).
pub fn run_with(tune_for_one_off: fn()) -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        small_pages_only();
        end_quietly_when_the_output_pipe_closes();
        tune_for_one_off();
    }
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match cli.command {
        Command::Build(args) => build(args, color),
        Command::Serve(args) => serve(args, color),
        Command::Check(args) => check(args, color),
        Command::Init(args) => report(init(args), color),
        Command::New { slug, from, root } => report(
            crate::scaffold::new::new_dataset(&crate::scaffold::new::NewOptions {
                root,
                slug,
                from,
            }),
            color,
        ),
        Command::Eject { root, force } => report(crate::scaffold::eject(&root, force), color),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "datapages", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Man { dir } => man(dir.as_deref()),
    }
}

/// `datapages build`: the warnings folded, the summary, and on failure what became of
/// the output folder.
fn build(args: BuildArgs, color: bool) -> ExitCode {
    let mut options =
        build_options(args.root, args.output, args.no_cache, args.force).drafts(args.drafts);
    if let Some(date) = args.date {
        options = options.date(date);
    }
    if let Some(base_url) = args.base_url {
        options = options.base_url(base_url);
    }
    if let Some(folder) = args.data_output {
        options = options.data_output(folder);
    }
    match build::build(&options) {
        Ok(report) => {
            if !report.warnings.is_empty() {
                // `check` is where every warning is listed.
                let shown = crate::diagnostics::SHOWN_PER_WARNING;
                report.warnings.eprint_folded(color, shown);
            }
            println!("{}", report.summary());
            for line in report.output_lines() {
                println!("{line}");
            }
            if let Some(line) = report.typed_by_hand_line() {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!("{}", error.render(color));
            let output = options.output_dir();
            if error.to_string().contains(crate::output::swap::INCOMPLETE) {
                eprintln!(
                    "Build failed; {} is incomplete: run `datapages build --no-cache` again.",
                    output.display()
                );
            } else {
                eprintln!("Build failed; {} was left as it was.", output.display());
            }
            ExitCode::from(1)
        }
    }
}

/// `datapages serve`, after refusing a dangerous or foreign output before serving anything
/// (a failed first build would otherwise keep the preview running with an error overlay).
fn serve(args: ServeArgs, color: bool) -> ExitCode {
    let build_options = build_options(args.root, args.output, args.no_cache, args.force);
    let output_dir = build_options.output_dir();
    if let Err(problem) =
        crate::output::guard::check_output(build_options.root(), &output_dir, args.force)
    {
        eprint!("{}", problem.render(color));
        return ExitCode::from(1);
    }
    let options = ServeOptions::new(build_options)
        .bind(args.bind)
        .port(args.port)
        .allow_hosts(args.allow_host)
        .open(args.open);
    report(crate::serve::serve(&options).map(|()| String::new()), color)
}

/// `datapages check`: every warning listed; with `--strict` they fail the run.
fn check(args: CheckArgs, color: bool) -> ExitCode {
    let options = BuildOptions::new(args.root)
        .scan_cache(!args.no_cache)
        .drafts(args.drafts);
    let checked = match build::check(&options) {
        Ok(checked) => checked,
        Err(error) => return report(Err(error), color),
    };
    if let Some(line) = checked.recalled_line() {
        eprintln!("{line}");
    }
    if checked.warnings.is_empty() && checked.typed_by_hand.is_empty() {
        println!("No problems found.");
        return ExitCode::SUCCESS;
    }
    if args.strict {
        // Every warning, those about typed numbers with the others, by place.
        let mut warnings = checked.warnings;
        warnings.extend(checked.typed_by_hand);
        warnings.sort();
        warnings.eprint_folded(color, usize::MAX);
        return ExitCode::from(1);
    }
    if !checked.warnings.is_empty() {
        checked.warnings.eprint_folded(color, usize::MAX);
    }
    let typed = checked.typed_by_hand.warning_count();
    if let Some(line) = crate::build::typed_by_hand_line(typed) {
        eprintln!("{line}");
    }
    ExitCode::SUCCESS
}

/// `datapages init`, with the datapages its workflow installs worked out first: nothing
/// is written when that is unknown.
fn init(args: InitArgs) -> Result<String, Error> {
    let ci = match args.ci {
        None => None,
        Some(CiService::Github) => Some(Ci::Github(InstallSource::chosen(args.install_from)?)),
    };
    crate::scaffold::init::init(&args.dir, args.force, ci)
}

/// `datapages man`: datapages(1) on standard output, or every page into `dir`.
fn man(dir: Option<&Path>) -> ExitCode {
    let written = match dir {
        None => clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout()),
        Some(dir) => std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(Cli::command(), dir)),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let place = dir.map_or("standard output".into(), |d| d.display().to_string());
            eprintln!("error: could not write the manual pages to {place}: {error}");
            ExitCode::from(1)
        }
    }
}

/// The options `build` and `serve` share, from their flags.
fn build_options(
    root: PathBuf,
    output: Option<PathBuf>,
    no_cache: bool,
    force: bool,
) -> BuildOptions {
    let options = BuildOptions::new(root).scan_cache(!no_cache).force(force);
    match output {
        Some(output) => options.output(output),
        None => options,
    }
}

/// Prints what a command did, or every reason it failed.
fn report(result: Result<String, Error>, color: bool) -> ExitCode {
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!("{}", error.render(color));
            ExitCode::from(1)
        }
    }
}
