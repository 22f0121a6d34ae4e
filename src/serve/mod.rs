//! `datapages serve`: build, serve the output over HTTP on 127.0.0.1, watch the sources,
//! rebuild what a change affects, and tell open pages to reload (or show the errors).
//!
//! The pieces: [`state`] (what request threads and the rebuild loop share), [`server`]
//! (listener, connection cap, timeouts), [`http`] (request heads, response heads, ranges),
//! [`routes`] (what each request gets), [`files`] (safe path mapping, content types,
//! streaming with the live-reload script), [`watch`] (file events to changes).
//! Building itself is the library's [`Session`]; nothing here knows how pages are made.

pub use datapages_serve::{http, server, shared, state};
pub mod watch;

use std::io::IsTerminal;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};
use std::sync::mpsc;
use std::sync::Arc;

use crate::build::{BuildOptions, Session};
use crate::diagnostics::{Diagnostic, Diagnostics, Error};
use crate::output::Staging;
use state::{Changed, PreviewState};
use watch::Message;

/// How to serve: `ServeOptions::new(build_options)`, then the setters for the rest.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    /// What to build and where (the site, the output folder, the scan cache, `--force`).
    pub(crate) build: BuildOptions,
    pub(crate) bind: String,
    /// 0 picks a free port.
    pub(crate) port: u16,
    /// Open the site in the system's browser.
    pub(crate) open: bool,
    /// Host names answered besides localhost and IP addresses.
    pub(crate) allow_hosts: Vec<String>,
}

impl ServeOptions {
    /// Serves what `build` builds at http://127.0.0.1:1111/, without opening a browser.
    pub fn new(build: BuildOptions) -> Self {
        ServeOptions {
            build,
            bind: "127.0.0.1".to_string(),
            port: 1111,
            open: false,
            allow_hosts: Vec::new(),
        }
    }

    /// The address to listen on; others can see the preview unless it is a loopback one.
    pub fn bind(mut self, bind: impl Into<String>) -> Self {
        self.bind = bind.into();
        self
    }

    /// The port to listen on; 0 picks a free one.
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// Whether to open the site in the system's browser.
    pub fn open(mut self, open: bool) -> Self {
        self.open = open;
        self
    }

    /// Host names to answer besides `localhost` and IP addresses (a name in `/etc/hosts`, a
    /// tunnel): requests under any other `Host` get 403, so that no web page can read the
    /// preview through DNS rebinding.
    pub fn allow_hosts(mut self, names: Vec<String>) -> Self {
        self.allow_hosts = names;
        self
    }
}

/// Runs the preview until Ctrl-C. Errors are for people: the port in use, a watcher that
/// cannot start.
pub fn serve(options: &ServeOptions) -> Result<(), Error> {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // The watcher reports absolute paths: compare them with absolute ones (`--root .`).
    let root = options.build.root.canonicalize().map_err(|e| {
        Error::environment(
            format!(
                "cannot open the site folder {}",
                options.build.root.display()
            ),
            e,
        )
    })?;
    // Without site.toml there is nothing to preview, and never a "last good build".
    if !root.join(crate::layout::SITE_TOML).exists() {
        return Err(Error::from(Diagnostic::error(
            crate::layout::SITE_TOML,
            format!("{} holds no site.toml, so there is no site to serve", root.display()),
        )
        .with_hint(
            "run datapages serve in the site folder, pass --root DIR, or start one with datapages init",
        )));
    }
    let output = match &options.build.output {
        Some(path) => std::path::absolute(path).map_err(|e| {
            Error::environment(
                format!("cannot use the output folder {}", path.display()),
                e,
            )
        })?,
        None => root.join(crate::layout::DEFAULT_OUTPUT),
    };
    // Listen before building: a port in use is reported at once, before the build replaces
    // anything in the output folder. Connections wait in the backlog until the server runs.
    let listener = listen(options)?;
    let build_options = BuildOptions {
        root: root.clone(),
        output: Some(output.clone()),
        drafts: true,
        ..options.build.clone()
    };
    // Watch before the first build, so that no edit made while it runs is missed.
    let (sender, messages) = mpsc::channel();
    let stop_sender = sender.clone();
    ctrlc::set_handler(move || {
        let _ = stop_sender.send(Message::Stop);
    })
    .map_err(|e| Error::environment("cannot handle Ctrl-C", e))?;
    let mut watcher = watch::start(&root, sender)
        .map_err(|e| Error::environment(format!("cannot watch {}", root.display()), e))?;
    let state = Arc::new(PreviewState::new(output.clone()));
    let commit = |staging: Staging| {
        let _guard = state.swap.write().unwrap_or_else(|p| p.into_inner());
        staging.commit()
    };
    let mut session = match Session::start_located(&build_options, commit) {
        Ok((session, report)) => {
            print_warnings(&report.warnings, color);
            println!("{}", report.summary());
            if let Some(line) = report.typed_by_hand_line() {
                println!("{line}");
            }
            Some(session)
        }
        Err(diagnostics) => {
            report_failure(&diagnostics, None, &state, color);
            None
        }
    };

    let address = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_else(|_| format!("{}:{}", options.bind, options.port));
    let url = format!("http://{address}/");
    let limits = shared::Limits::from_env();
    server::spawn(
        listener,
        Arc::clone(&state),
        limits,
        options.allow_hosts.clone(),
    )
    .map_err(|e| Error::environment("cannot start the server thread", e))?;
    println!("Serving {} at {url} (Ctrl-C to stop)", output.display());

    if options.open {
        open_browser(&url);
    }

    while let Ok(message) = messages.recv() {
        let first = match message {
            Message::Stop => break,
            Message::Files(Err(e)) => {
                eprintln!("{}", watch::explain(&e));
                continue;
            }
            Message::Files(Ok(event)) if watch::changes_content(&event.kind) => event,
            Message::Files(Ok(_)) => continue,
        };
        let (changes, stop) = watch::collect(first, &messages, &root, &output, &mut watcher);
        if !changes.is_empty() {
            let root = &build_options.root;
            session = guarded(root, &state, color, || {
                rebuild(session, changes, &build_options, &state, color)
            });
        }
        if stop {
            break;
        }
    }
    println!("Stopped.");
    Ok(())
}

/// Runs a rebuild so that it cannot take the server down: a panic in it (a bug) is reported
/// as an error, in the terminal and on the page, and the last good build keeps being served.
/// The session it was working on is dropped, so the next change builds the site afresh.
fn guarded(
    root: &std::path::Path,
    state: &PreviewState,
    color: bool,
    work: impl FnOnce() -> Option<Session>,
) -> Option<Session> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(session) => session,
        Err(payload) => {
            let mut diagnostics = Diagnostics::new();
            diagnostics.push(internal_error(root, payload.as_ref()));
            report_failure(&diagnostics, None, state, color);
            None
        }
    }
}

/// The error a panicking rebuild is shown as.
fn internal_error(root: &std::path::Path, payload: &(dyn std::any::Any + Send)) -> Diagnostic {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    Diagnostic::error(
        root.join("site.toml"),
        format!("the rebuild stopped on an internal error (a bug in datapages): {what}"),
    )
    .with_hint(
        "the last good build is still served; save again to build the site afresh, and please \
         report this with the file you changed",
    )
}

/// One rebuild: incremental when a session exists, a full build otherwise.
fn rebuild(
    session: Option<Session>,
    changes: std::collections::BTreeSet<crate::incremental::Change>,
    build_options: &BuildOptions,
    state: &PreviewState,
    color: bool,
) -> Option<Session> {
    let commit = |staging: Staging| {
        let _guard = state.swap.write().unwrap_or_else(|p| p.into_inner());
        staging.commit()
    };
    // The output folder deleted (or its marker) while serving: an incremental rebuild would
    // write a few files into a folder no later build recognises; a full one writes it whole.
    let session = session.filter(|_| crate::output::has_marker(&build_options.output_dir()));
    match session {
        Some(mut session) => {
            match session.rebuild_located(changes, commit) {
                Ok(report) => {
                    if report.full {
                        print_warnings(&report.warnings, color);
                    } else {
                        print_changed_warnings(&report.warnings, &report.changed, color);
                    }
                    println!("{}", report.summary());
                    state.publish(if report.full {
                        Changed::All
                    } else {
                        Changed::Paths(report.urls)
                    });
                }
                Err(diagnostics) => {
                    let changed = session.pending_files();
                    report_failure(&diagnostics, Some(&changed), state, color);
                }
            }
            Some(session)
        }
        None => match Session::start_located(build_options, commit) {
            Ok((session, report)) => {
                print_warnings(&report.warnings, color);
                println!("{}", report.summary());
                if let Some(line) = report.typed_by_hand_line() {
                    println!("{line}");
                }
                state.publish(Changed::All);
                Some(session)
            }
            Err(diagnostics) => {
                report_failure(&diagnostics, None, state, color);
                None
            }
        },
    }
}

/// The whole site's warnings, each at most a few times in full (`Diagnostics::write_folded`).
fn print_warnings(warnings: &Diagnostics, color: bool) {
    if !warnings.is_empty() {
        warnings.eprint_folded(color, crate::diagnostics::SHOWN_PER_WARNING);
    }
}

/// After an incremental rebuild, the warnings of the files that changed in full and a count
/// of the rest: the whole site's warnings after every save (2,000 on a site of 1,000
/// datasets without dates) would bury the one line that says what the rebuild did.
fn print_changed_warnings(warnings: &Diagnostics, changed: &[String], color: bool) {
    let (touched, others) = warnings_of_changed_files(warnings, changed);
    if !touched.is_empty() {
        eprint!("{}", touched.render(color));
    }
    if others > 0 {
        eprintln!(
            "({others} more {} in files this change did not touch; `datapages check` lists them all)",
            if others == 1 { "warning" } else { "warnings" }
        );
    }
}

/// The warnings about the changed files (a dataset's Markdown and CSV count as one: they
/// share the slug), and how many others there are.
fn warnings_of_changed_files(warnings: &Diagnostics, changed: &[String]) -> (Diagnostics, usize) {
    let stems: std::collections::HashSet<&std::ffi::OsStr> = changed
        .iter()
        .filter_map(|c| std::path::Path::new(c).file_stem())
        .collect();
    let (touched, others): (Vec<_>, Vec<_>) = warnings.items().iter().partition(|d| {
        changed.iter().any(|c| d.file == std::path::Path::new(c))
            || d.file.file_stem().is_some_and(|stem| stems.contains(stem))
    });
    (touched.into_iter().cloned().collect(), others.len())
}

/// A failed build: its errors first, then the warnings (after a rebuild, only those of the
/// `changed` files, the others counted), so the one error is not buried under every
/// draft's TODO warnings. The overlay shows the errors.
fn report_failure(
    diagnostics: &Diagnostics,
    changed: Option<&[String]>,
    state: &PreviewState,
    color: bool,
) {
    let (shown, others) = errors_first(diagnostics, changed);
    eprint!("{}", shown.render(color));
    if others > 0 {
        eprintln!(
            "({others} more {} in files this change did not touch; `datapages check` lists them all)",
            if others == 1 { "warning" } else { "warnings" }
        );
    }
    eprintln!("Rebuild failed; still serving the last good build.");
    state.fail(diagnostics);
}

/// The errors of `diagnostics`, then its warnings (of the `changed` files only, when
/// given), and how many warnings were left out.
fn errors_first(diagnostics: &Diagnostics, changed: Option<&[String]>) -> (Diagnostics, usize) {
    let errors = diagnostics
        .items()
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Error)
        .cloned();
    let warnings: Diagnostics = diagnostics
        .items()
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Warning)
        .cloned()
        .collect();
    let (warnings, others) = match changed {
        Some(changed) => warnings_of_changed_files(&warnings, changed),
        None => (warnings, 0),
    };
    (errors.chain(warnings).collect(), others)
}

/// Binds `--bind` (an IP address, `[::1]` with or without brackets, or `localhost`) and
/// `--port`. Host names other than localhost are refused rather than looked up.
fn listen(options: &ServeOptions) -> Result<TcpListener, Error> {
    let bind = options.bind.trim();
    let inside = bind
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .unwrap_or(bind);
    let addresses: Vec<std::net::IpAddr> = if inside.eq_ignore_ascii_case("localhost") {
        vec![Ipv4Addr::LOCALHOST.into(), Ipv6Addr::LOCALHOST.into()]
    } else if let Ok(ip) = inside.parse() {
        vec![ip]
    } else {
        return Err(Error::environment_message(format!(
            "--bind {} is not an address to listen on: give an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost",
            options.bind
        )));
    };
    let mut last = None;
    for ip in addresses {
        match TcpListener::bind(SocketAddr::new(ip, options.port)) {
            Ok(listener) => return Ok(listener),
            // `localhost` falls back to ::1 only where 127.0.0.1 cannot be had at all.
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
                last = Some((ip, e));
                break;
            }
            Err(e) => last = Some((ip, e)),
        }
    }
    let (ip, e) = last.expect("at least one address");
    Err(if e.kind() == std::io::ErrorKind::AddrInUse {
        Error::environment_message(format!("port {} on {} is already in use: stop the other server, or pass --port with another number", options.port, options.bind))
    } else {
        Error::environment(
            format!("cannot listen on {}", SocketAddr::new(ip, options.port)),
            e,
        )
    })
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Diagnostic;

    #[test]
    fn a_panicking_rebuild_is_an_error_on_the_page_and_the_server_goes_on() {
        let state = PreviewState::new(std::path::PathBuf::from("/tmp/none"));
        let root = std::path::Path::new("/site");
        let before = state.generation();
        let session = guarded(root, &state, false, || panic!("index out of bounds: 7"));
        assert!(session.is_none());
        let answer = state.poll(before, "/", true, std::time::Duration::ZERO);
        assert_eq!(answer.errors.len(), 1);
        let shown = format!("{:?}", answer.errors[0]);
        assert!(
            shown.contains("internal error") && shown.contains("index out of bounds: 7"),
            "{shown}"
        );
        // A rebuild that works afterwards clears the overlay.
        let session = guarded(root, &state, false, || None);
        assert!(session.is_none());
        state.publish(Changed::All);
        assert!(state
            .poll(before, "/", true, std::time::Duration::ZERO)
            .errors
            .is_empty());
    }

    #[test]
    fn a_rebuild_shows_the_warnings_of_what_changed_and_counts_the_rest() {
        let warnings: Diagnostics = [
            Diagnostic::warning("content/datasets/a.md", "no Limits"),
            Diagnostic::warning("data/datasets/a.csv", "header but no rows"),
            Diagnostic::warning("content/datasets/b.md", "no Limits"),
            Diagnostic::warning("content/datasets/c.md", "no date"),
        ]
        .into_iter()
        .collect();
        let (touched, others) =
            warnings_of_changed_files(&warnings, &["content/datasets/a.md".to_string()]);
        let files: Vec<_> = touched.items().iter().map(|d| d.file.clone()).collect();
        assert_eq!(
            files,
            [
                std::path::PathBuf::from("content/datasets/a.md"),
                std::path::PathBuf::from("data/datasets/a.csv")
            ]
        );
        assert_eq!(others, 2);
    }

    #[test]
    fn a_failed_rebuild_shows_its_errors_before_the_changed_files_warnings() {
        let diagnostics: Diagnostics = [
            Diagnostic::warning("content/datasets/a.md", "TODO: the lede"),
            Diagnostic::warning("content/datasets/draft.md", "TODO: the lede"),
            Diagnostic::error("data/datasets/a.csv", "ragged row"),
            Diagnostic::warning("content/datasets/other.md", "TODO: limits"),
        ]
        .into_iter()
        .collect();
        let changed = ["data/datasets/a.csv".to_string()];
        let (shown, others) = errors_first(&diagnostics, Some(&changed));
        let shown: Vec<_> = shown
            .items()
            .iter()
            .map(|d| (d.severity, d.file.to_string_lossy().into_owned()))
            .collect();
        use crate::diagnostics::Severity::{Error, Warning};
        assert_eq!(
            shown,
            [
                (Error, "data/datasets/a.csv".to_string()),
                (Warning, "content/datasets/a.md".to_string())
            ]
        );
        assert_eq!(others, 2);
        // A first build that fails: every warning, after the errors.
        let (shown, others) = errors_first(&diagnostics, None);
        assert_eq!(shown.items()[0].severity, Error);
        assert_eq!((shown.items().len(), others), (4, 0));
    }
}
