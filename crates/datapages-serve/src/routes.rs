//! What each request gets: the live-reload poll, files (with byte ranges), pages with the
//! live-reload script spliced in, folder redirects, the site's 404 page. Every answer is
//! written whole or the connection is closed: never a body shorter than its Content-Length.

use std::fs::File;
use std::io::{self, Write};
use std::time::Duration;

use super::files::{self, ChunkWriter, Target};
use super::http::{self, ByteRange, Request};
use super::shared::{Shared, Slot};

/// Where the injected script asks for news.
pub const POLL_PATH: &str = "/__datapages/poll";

/// How long a poll waits for a rebuild before answering "nothing new".
const POLL_TIMEOUT: Duration = Duration::from_secs(20);

const LIVE_RELOAD_JS: &str = include_str!("livereload.js");

/// A page for when there is no 404.html (the first build failed): it can still show the
/// error overlay.
const FALLBACK_404: &str = "<!DOCTYPE html><html lang=\"en\"><title>Not found</title><body><p>Not found.</p></body></html>";

/// What the request path led to, opened under the swap lock.
enum Opened {
    File(std::path::PathBuf, File),
    Redirect(String),
    BadRequest,
    /// The site's 404.html, when there is one.
    NotFound(Option<File>),
}

/// Answers one request on `out`; an error means the connection must be closed.
pub fn respond<W: Write>(
    out: &mut W,
    request: &Request,
    shared: &Shared,
    keep_alive: bool,
) -> io::Result<()> {
    let reply = Reply {
        head_only: request.is_head(),
        keep_alive,
    };
    if let Some(host) = request.host.as_deref() {
        if !http::host_allowed(host, &shared.hosts) {
            return reply.text(out, 403, &[], &foreign_host(host));
        }
    }
    if !matches!(request.method.as_str(), "GET" | "HEAD") {
        let allow = [("Allow", "GET, HEAD")];
        return reply.text(out, 405, &allow, "Only GET and HEAD are served.\n");
    }
    let target = request.target.as_str();
    if target == POLL_PATH || target.starts_with(&format!("{POLL_PATH}?")) {
        return poll(out, target, shared, reply);
    }
    let state = &shared.state;
    // Open under the swap lock, so a full rebuild's folder swap is never seen halfway; an
    // open file stays readable after the swap, so the lock is not held while sending.
    let opened = {
        let _guard = state.swap.read().unwrap_or_else(|p| p.into_inner());
        match files::resolve(&state.output, target) {
            Target::File(path) => match files::open(&path) {
                Ok(file) => Opened::File(path, file),
                Err(_) => Opened::NotFound(files::open(&state.output.join("404.html")).ok()),
            },
            Target::Redirect(location) => Opened::Redirect(location),
            Target::BadRequest => Opened::BadRequest,
            Target::NotFound => Opened::NotFound(files::open(&state.output.join("404.html")).ok()),
        }
    };
    match opened {
        Opened::BadRequest => reply.text(
            out,
            400,
            &[],
            "Bad request: that path is not inside the site.\n",
        ),
        Opened::Redirect(location) => reply.text(out, 301, &[("Location", &location)], "Moved.\n"),
        Opened::File(path, file) => {
            let content_type = files::content_type(&path);
            if content_type.starts_with("text/html") {
                reply.page(out, 200, file, script(shared))
            } else {
                reply.file(out, content_type, file, request.range.as_deref())
            }
        }
        Opened::NotFound(Some(file)) => reply.page(out, 404, file, script(shared)),
        Opened::NotFound(None) => {
            let html = FALLBACK_404.as_bytes();
            let at = html.len() - "</body></html>".len();
            let body = [&html[..at], script(shared).as_bytes(), &html[at..]].concat();
            reply.bytes(out, 404, &[("Content-Type", HTML)], &body)
        }
    }
}

const HTML: &str = "text/html; charset=utf-8";

/// The 403 for a `Host` that is neither localhost, an IP address nor allowed: what happened
/// and how to allow the name (quoted only when it is a plain host name).
fn foreign_host(host: &str) -> String {
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    let (quoted, option) = if http::is_host_name(name) {
        (format!("the host name {name:?}"), name)
    } else {
        ("that host name".to_string(), "NAME")
    };
    format!(
        "Forbidden: this preview answers requests for localhost and IP addresses only, not for {quoted}, so that no web page can read it through DNS rebinding. If you opened it under that name yourself, restart it with `datapages serve --allow-host {option}`.\n"
    )
}

/// The live-reload script, with the generation the page is served at.
fn script(shared: &Shared) -> String {
    format!(
        "<script data-datapages-live-reload>window.__datapagesGeneration={};window.__datapagesPoll=\"{POLL_PATH}\";\n{LIVE_RELOAD_JS}</script>\n",
        shared.state.generation()
    )
}

/// How to send: with or without a body, keeping the connection or not.
#[derive(Clone, Copy)]
struct Reply {
    head_only: bool,
    keep_alive: bool,
}

impl Reply {
    fn head(&self, status: u16, headers: &[(&str, &str)], length: u64) -> Vec<u8> {
        http::head(status, headers, length, self.keep_alive)
    }

    fn text<W: Write>(
        &self,
        out: &mut W,
        status: u16,
        headers: &[(&str, &str)],
        body: &str,
    ) -> io::Result<()> {
        let mut all = vec![("Content-Type", "text/plain; charset=utf-8")];
        all.extend_from_slice(headers);
        self.bytes(out, status, &all, body.as_bytes())
    }

    /// A small response in one write.
    fn bytes<W: Write>(
        &self,
        out: &mut W,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<()> {
        let mut response = self.head(status, headers, body.len() as u64);
        if !self.head_only {
            response.extend_from_slice(body);
        }
        out.write_all(&response)
    }

    /// A page streamed from disk with the script before its last `</body>` (at the end
    /// when it has none). Ranges are ignored: the page differs from the file.
    fn page<W: Write>(
        &self,
        out: &mut W,
        status: u16,
        mut file: File,
        script: String,
    ) -> io::Result<()> {
        let length = file.metadata()?.len();
        let total = length + script.len() as u64;
        let mut writer = ChunkWriter::new(out);
        writer.bytes(&self.head(status, &[("Content-Type", HTML)], total))?;
        if !self.head_only {
            let at = files::last_body_end(&mut file, length)?.unwrap_or(length);
            writer.file(&mut file, 0, at)?;
            writer.bytes(script.as_bytes())?;
            writer.file(&mut file, at, length - at)?;
        }
        writer.flush()
    }

    /// Any other file, whole or one byte range of it.
    fn file<W: Write>(
        &self,
        out: &mut W,
        content_type: &str,
        mut file: File,
        range: Option<&str>,
    ) -> io::Result<()> {
        let length = file.metadata()?.len();
        let mut headers = vec![("Content-Type", content_type), ("Accept-Ranges", "bytes")];
        let (status, first, count, content_range) = match http::byte_range(range, length) {
            ByteRange::Whole => (200, 0, length, None),
            ByteRange::Part { first, last } => (
                206,
                first,
                last - first + 1,
                Some(format!("bytes {first}-{last}/{length}")),
            ),
            ByteRange::Unsatisfiable => {
                let content_range = format!("bytes */{length}");
                headers.push(("Content-Range", &content_range));
                return self.bytes(out, 416, &headers, b"");
            }
        };
        if let Some(content_range) = &content_range {
            headers.push(("Content-Range", content_range));
        }
        let mut writer = ChunkWriter::new(out);
        writer.bytes(&self.head(status, &headers, count))?;
        if !self.head_only {
            writer.file(&mut file, first, count)?;
        }
        writer.flush()
    }
}

/// The long poll. Waiting polls are counted apart from other requests and capped, so open
/// tabs can never take every connection; past the cap the script retries a second later.
fn poll<W: Write>(out: &mut W, target: &str, shared: &Shared, reply: Reply) -> io::Result<()> {
    let Some(_slot) = Slot::try_take(&shared.polls, shared.limits.max_polls) else {
        let retry = [("Retry-After", "1")];
        return reply.text(out, 503, &retry, "Too many pages are waiting for news.\n");
    };
    let (since, path, first) = poll_query(target);
    let answer = shared.state.poll(since, &path, first, POLL_TIMEOUT);
    let body = serde_json::to_vec(&answer).unwrap_or_default();
    reply.bytes(out, 200, &[("Content-Type", "application/json")], &body)
}

/// `since`, `path` and `first` from `/__datapages/poll?since=3&path=/datasets/x/&first=1`.
fn poll_query(target: &str) -> (u64, String, bool) {
    let query = target.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let mut since = 0;
    let mut path = String::from("/");
    let mut first = false;
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("since", value)) => since = value.parse().unwrap_or(0),
            Some(("path", value)) => path = files::percent_decode(value).unwrap_or_default(),
            Some(("first", value)) => first = value == "1",
            _ => {}
        }
    }
    (since, path, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::Limits;
    use crate::state::PreviewState;

    /// Records each write call separately.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.push(bytes.to_vec());
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn get(target: &str, host: Option<&str>) -> Request {
        Request {
            method: "GET".into(),
            target: target.into(),
            keep_alive: true,
            body_length: 0,
            chunked: false,
            range: None,
            host: host.map(String::from),
        }
    }

    fn shared(output: &std::path::Path) -> Shared {
        Shared {
            state: std::sync::Arc::new(PreviewState::new(output.to_path_buf())),
            limits: Limits::default(),
            hosts: vec!["box.lan".into()],
            polls: Default::default(),
        }
    }

    /// What kept-alive requests were slow from (40 ms each): a head and a body written
    /// apart wait on the client's delayed ACK (Nagle). A small answer is one write call.
    #[test]
    fn small_answers_leave_in_one_write() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<html><body>x</body></html>").unwrap();
        std::fs::write(dir.path().join("style.css"), "a{}").unwrap();
        std::fs::write(dir.path().join("404.html"), "<body>gone</body>").unwrap();
        let shared = shared(dir.path());
        for target in ["/", "/style.css", "/missing", "/folder"] {
            let mut out = Writes::default();
            respond(&mut out, &get(target, Some("localhost")), &shared, true).unwrap();
            assert_eq!(out.0.len(), 1, "{target}: {} writes", out.0.len());
            let text = String::from_utf8_lossy(&out.0[0]);
            assert!(text.starts_with("HTTP/1.1 "), "{text}");
        }
        let mut out = Writes::default();
        respond(&mut out, &get("/", None), &shared, true).unwrap();
        assert!(String::from_utf8_lossy(&out.0.concat()).contains("data-datapages-live-reload"));
    }

    #[test]
    fn a_foreign_host_is_told_how_to_allow_it() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(dir.path());
        let mut out = Writes::default();
        let request = get("/", Some("rebind.example:1111"));
        respond(&mut out, &request, &shared, true).unwrap();
        let text = String::from_utf8(out.0.concat()).unwrap();
        assert!(text.starts_with("HTTP/1.1 403 Forbidden\r\n"), "{text}");
        assert!(text.contains("--allow-host rebind.example`"), "{text}");
        let mut out = Writes::default();
        respond(&mut out, &get("/", Some("<x>\"y")), &shared, true).unwrap();
        let text = String::from_utf8(out.0.concat()).unwrap();
        assert!(
            text.contains("--allow-host NAME") && !text.contains("<x>"),
            "{text}"
        );
    }

    #[test]
    fn poll_queries_are_read() {
        assert_eq!(
            poll_query("/__datapages/poll?since=12&path=%2Fdatasets%2Fx%2F&first=1"),
            (12, "/datasets/x/".into(), true)
        );
        assert_eq!(poll_query("/__datapages/poll"), (0, "/".into(), false));
    }
}
