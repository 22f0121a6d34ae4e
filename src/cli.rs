//! Command-line parsing and dispatch; the work itself lives in the library.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::build::{self, BuildOptions};
use crate::diagnostics::Error;
use crate::serve::ServeOptions;

const EXAMPLES: &str = "\
Examples:
  datapages build                      build the site in this folder into ./public
  datapages build --root my-site       build another folder's site into my-site/public
  datapages build --output /tmp/out    write the output somewhere else
  datapages build --output out --force replace a folder datapages did not write
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
  datapages new rainfall --from r.csv  a dataset page drafted from a CSV you have
  datapages eject                      write the built-in templates and styles out to edit";

/// A static site generator for publishing datasets honestly.
#[derive(Debug, Parser)]
#[command(name = "datapages", version, about, after_help = EXAMPLES)]
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
    Build {
        /// The site folder (the one holding site.toml).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Where to write the site; default <root>/public.
        #[arg(long)]
        output: Option<PathBuf>,
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
    },
    /// Build, serve on 127.0.0.1, rebuild on every change and reload open pages.
    #[command(after_help = EXAMPLES)]
    Serve {
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
    },
    /// Run every validation of a build without writing anything.
    #[command(after_help = EXAMPLES)]
    Check {
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
    },
    /// Create a new site (site.toml, a home page, an About page, an example dataset).
    #[command(after_help = EXAMPLES)]
    Init {
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
    },
    /// Add a dataset page, its columns inferred from a CSV file.
    #[command(after_help = EXAMPLES)]
    New {
        /// The dataset's slug: lowercase letters, digits and hyphens.
        slug: String,
        /// The CSV to publish: copied byte for byte to data/datasets/<slug>.csv.
        #[arg(long)]
        from: Option<PathBuf>,
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

/// Exit codes: 0 success, 1 problems in the site, 2 usage errors (from clap).
pub fn run() -> ExitCode {
    run_with(|| {})
}

/// [`run`], calling `tune_for_one_off` first unless the command is `serve`: the binary
/// sets its allocator up there for commands that end (see `main.rs`).
pub fn run_with(tune_for_one_off: fn()) -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve { .. }) {
        small_pages_only();
        tune_for_one_off();
    }
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match cli.command {
        Command::Build {
            root,
            output,
            date,
            no_cache,
            force,
            base_url,
            drafts,
        } => {
            let mut options = build_options(root, output, no_cache, force).drafts(drafts);
            if let Some(date) = date {
                options = options.date(date);
            }
            if let Some(base_url) = base_url {
                options = options.base_url(base_url);
            }
            match build::build(&options) {
                Ok(report) => {
                    if !report.warnings.is_empty() {
                        // `check` is where every warning is listed.
                        let shown = crate::diagnostics::SHOWN_PER_WARNING;
                        report.warnings.eprint_folded(color, shown);
                    }
                    println!("{}", report.summary());
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
        Command::Serve {
            root,
            output,
            port,
            bind,
            allow_host,
            open,
            no_cache,
            force,
        } => {
            // Refuse a dangerous or foreign output before serving anything: a failed first
            // build would otherwise keep the preview running with an error overlay.
            let build_options = build_options(root, output, no_cache, force);
            let output_dir = build_options.output_dir();
            if let Err(problem) =
                crate::output::guard::check_output(build_options.root(), &output_dir, force)
            {
                eprint!("{}", problem.render(color));
                return ExitCode::from(1);
            }
            let options = ServeOptions::new(build_options)
                .bind(bind)
                .port(port)
                .allow_hosts(allow_host)
                .open(open);
            match crate::serve::serve(&options) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprint!("{}", error.render(color));
                    ExitCode::from(1)
                }
            }
        }
        Command::Check {
            root,
            strict,
            no_cache,
            drafts,
        } => {
            let options = BuildOptions::new(root).scan_cache(!no_cache).drafts(drafts);
            let checked = build::check(&options);
            if let Ok(report) = &checked {
                if let Some(line) = report.recalled_line() {
                    eprintln!("{line}");
                }
            }
            match checked {
                Ok(report) if report.warnings.is_empty() && report.typed_by_hand.is_empty() => {
                    println!("No problems found.");
                    ExitCode::SUCCESS
                }
                Ok(report) if strict => {
                    // Every warning, those about typed numbers with the others, by place.
                    let mut warnings = report.warnings;
                    warnings.extend(report.typed_by_hand);
                    warnings.sort();
                    warnings.eprint_folded(color, usize::MAX);
                    ExitCode::from(1)
                }
                Ok(report) => {
                    if !report.warnings.is_empty() {
                        report.warnings.eprint_folded(color, usize::MAX);
                    }
                    let typed = report.typed_by_hand.warning_count();
                    if let Some(line) = crate::build::typed_by_hand_line(typed) {
                        eprintln!("{line}");
                    }
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprint!("{}", error.render(color));
                    ExitCode::from(1)
                }
            }
        }
        Command::Init { dir, force, ci } => {
            let ci = ci.map(|CiService::Github| crate::scaffold::init::Ci::Github);
            report(crate::scaffold::init::init(&dir, force, ci), color)
        }
        Command::New { slug, from, root } => report(
            crate::scaffold::new::new_dataset(&crate::scaffold::new::NewOptions {
                root,
                slug,
                from,
            }),
            color,
        ),
        Command::Eject { root, force } => report(crate::scaffold::eject(&root, force), color),
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

/// Prints what a scaffold command did, or every reason it did nothing.
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
