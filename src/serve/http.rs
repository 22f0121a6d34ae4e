//! The preview's HTTP side: mapping request paths safely onto the output folder, content
//! types, the 404 page, the live-reload poll endpoint and the script injected into pages.

use std::fs::File;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, StatusCode};

use super::state::PreviewState;

/// Where the injected script asks for news.
pub const POLL_PATH: &str = "/__datapages/poll";

/// How long a poll waits for a rebuild before answering "nothing new".
const POLL_TIMEOUT: Duration = Duration::from_secs(20);

const LIVE_RELOAD_JS: &str = include_str!("livereload.js");

/// What a request path refers to.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// A file inside the output folder.
    File(PathBuf),
    /// A folder requested without its trailing slash: redirect so relative links work.
    Redirect(String),
    NotFound,
    /// A path that tries to leave the output folder or is not a path at all.
    BadRequest,
}

/// Maps the request target (path and query, as sent) onto a file under `root`, refusing
/// anything that could read outside it: `..` segments (plain or percent-encoded), NUL bytes,
/// backslashes, absolute-form URLs, and symbolic links that lead outside.
pub fn resolve(root: &Path, request_target: &str) -> Target {
    let raw_path = request_target.split(['?', '#']).next().unwrap_or_default();
    if !raw_path.starts_with('/') || raw_path.contains('\\') {
        return Target::BadRequest;
    }
    let Some(decoded) = percent_decode(raw_path) else {
        return Target::BadRequest;
    };
    if decoded.contains('\0') || decoded.contains('\\') {
        return Target::BadRequest;
    }
    let mut relative = PathBuf::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Target::BadRequest,
            s if s.contains(':') => return Target::BadRequest,
            s => relative.push(s),
        }
    }
    let candidate = root.join(&relative);
    let (Ok(real_root), Ok(real)) = (root.canonicalize(), candidate.canonicalize()) else {
        return Target::NotFound;
    };
    if !real.starts_with(&real_root) {
        return Target::NotFound;
    }
    if real.is_dir() {
        if !decoded.ends_with('/') {
            let query = request_target.strip_prefix(raw_path).unwrap_or_default();
            return Target::Redirect(format!("{raw_path}/{query}"));
        }
        let index = real.join("index.html");
        return if index.is_file() {
            Target::File(index)
        } else {
            Target::NotFound
        };
    }
    if real.is_file() {
        Target::File(real)
    } else {
        Target::NotFound
    }
}

/// Decodes `%XX` escapes; `None` for malformed escapes or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The Content-Type for a file name.
pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// Adds the live-reload script (with the generation the page was served at) before `</body>`.
pub fn inject_live_reload(html: &str, generation: u64) -> String {
    let script = format!(
        "<script data-datapages-live-reload>window.__datapagesGeneration={generation};window.__datapagesPoll=\"{POLL_PATH}\";\n{LIVE_RELOAD_JS}</script>\n"
    );
    match html.rfind("</body>") {
        Some(at) => format!("{}{script}{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap_or_else(|_| {
        Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("a constant header is valid")
    })
}

fn respond(request: Request, response: Response<Box<dyn Read + Send>>) {
    let response = response.with_header(header("Cache-Control", "no-store"));
    // A client that went away is not an error worth reporting.
    let _ = request.respond(response);
}

fn text_response(status: u16, body: &str) -> Response<Box<dyn Read + Send>> {
    let bytes = body.as_bytes().to_vec();
    let length = bytes.len();
    Response::new(
        StatusCode(status),
        vec![header("Content-Type", "text/plain; charset=utf-8")],
        Box::new(Cursor::new(bytes)),
        Some(length),
        None,
    )
}

fn bytes_response(
    status: u16,
    content_type: &str,
    bytes: Vec<u8>,
) -> Response<Box<dyn Read + Send>> {
    let length = bytes.len();
    Response::new(
        StatusCode(status),
        vec![header("Content-Type", content_type)],
        Box::new(Cursor::new(bytes)),
        Some(length),
        None,
    )
}

/// Answers one request.
pub fn handle(request: Request, state: &PreviewState) {
    if !matches!(request.method(), Method::Get | Method::Head) {
        let response = text_response(405, "Only GET and HEAD are served.\n")
            .with_header(header("Allow", "GET, HEAD"));
        return respond(request, response);
    }
    let target = request.url().to_string();
    if target == POLL_PATH || target.starts_with(&format!("{POLL_PATH}?")) {
        let (since, path, first) = poll_query(&target);
        let answer = state.poll(since, &path, first, POLL_TIMEOUT);
        let body = serde_json::to_vec(&answer).unwrap_or_default();
        return respond(request, bytes_response(200, "application/json", body));
    }
    let response = match resolve(&state.output, &target) {
        Target::BadRequest => {
            text_response(400, "Bad request: that path is not inside the site.\n")
        }
        Target::Redirect(location) => {
            text_response(301, "Moved.\n").with_header(header("Location", &location))
        }
        Target::NotFound => not_found(state),
        Target::File(path) => match serve_file(&path, state) {
            Some(response) => response,
            None => not_found(state),
        },
    };
    respond(request, response)
}

/// Reads a file under the swap lock (so a full rebuild's folder swap is never seen halfway).
fn serve_file(path: &Path, state: &PreviewState) -> Option<Response<Box<dyn Read + Send>>> {
    let content_type = content_type(path);
    let _guard = state.swap.read().unwrap_or_else(|p| p.into_inner());
    if content_type.starts_with("text/html") {
        let html = std::fs::read_to_string(path).ok()?;
        let body = inject_live_reload(&html, state.generation()).into_bytes();
        return Some(bytes_response(200, content_type, body));
    }
    let file = File::open(path).ok()?;
    let length = file.metadata().ok()?.len();
    let length = usize::try_from(length).ok();
    Some(Response::new(
        StatusCode(200),
        vec![header("Content-Type", content_type)],
        Box::new(file),
        length,
        None,
    ))
}

/// The site's own 404 page (with live reload), status 404.
fn not_found(state: &PreviewState) -> Response<Box<dyn Read + Send>> {
    let page = {
        let _guard = state.swap.read().unwrap_or_else(|p| p.into_inner());
        std::fs::read_to_string(state.output.join("404.html")).ok()
    };
    match page {
        Some(html) => bytes_response(
            404,
            "text/html; charset=utf-8",
            inject_live_reload(&html, state.generation()).into_bytes(),
        ),
        // No build yet (the first one failed): a page that can still show the overlay.
        None => bytes_response(
            404,
            "text/html; charset=utf-8",
            inject_live_reload(
                "<!DOCTYPE html><html lang=\"en\"><title>Not found</title><body><p>Not found.</p></body></html>",
                state.generation(),
            )
            .into_bytes(),
        ),
    }
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
            Some(("path", value)) => path = percent_decode(value).unwrap_or_default(),
            Some(("first", value)) => first = value == "1",
            _ => {}
        }
    }
    (since, path, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("public/datasets/x")).unwrap();
        std::fs::write(
            dir.path().join("public/datasets/x/index.html"),
            "<body>x</body>",
        )
        .unwrap();
        std::fs::write(dir.path().join("public/style.css"), "a{}").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        dir
    }

    #[test]
    fn resolves_files_folders_and_redirects() {
        let dir = site();
        let root = dir.path().join("public");
        let real = root.canonicalize().unwrap();
        assert_eq!(
            resolve(&root, "/style.css"),
            Target::File(real.join("style.css"))
        );
        assert_eq!(
            resolve(&root, "/datasets/x/"),
            Target::File(real.join("datasets/x/index.html"))
        );
        assert_eq!(
            resolve(&root, "/datasets/x/?a=1"),
            Target::File(real.join("datasets/x/index.html"))
        );
        assert_eq!(
            resolve(&root, "/datasets/x?a=1"),
            Target::Redirect("/datasets/x/?a=1".into())
        );
        assert_eq!(
            resolve(&root, "/datasets/%78/"),
            Target::File(real.join("datasets/x/index.html"))
        );
        assert_eq!(resolve(&root, "/nothing"), Target::NotFound);
        assert_eq!(
            resolve(&root, "/datasets/"),
            Target::NotFound,
            "a folder without index.html"
        );
    }

    #[test]
    fn never_leaves_the_output_folder() {
        let dir = site();
        let root = dir.path().join("public");
        for attempt in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E/secret.txt",
            "/..%2fsecret.txt",
            "/..%2Fsecret.txt",
            "/datasets/../../secret.txt",
            "/%2e%2e%2f%2e%2e%2fsecret.txt",
            "/style.css%00.html",
            "/..\\secret.txt",
            "/%5c..%5csecret.txt",
            "http://localhost/../secret.txt",
            "secret.txt",
            "/C:/Windows/win.ini",
            "/%",
            "/%zz",
            "/%ff",
        ] {
            let target = resolve(&root, attempt);
            assert!(
                matches!(target, Target::BadRequest | Target::NotFound),
                "{attempt}: {target:?}"
            );
        }
        // An absolute path after the slash stays inside the folder.
        let target = resolve(&root, "//etc/passwd");
        assert_eq!(target, Target::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_folder_are_not_followed() {
        let dir = site();
        let root = dir.path().join("public");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
        assert_eq!(resolve(&root, "/link.txt"), Target::NotFound);
    }

    #[test]
    fn content_types_by_extension() {
        for (name, expected) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.svg", "image/svg+xml"),
            ("a.png", "image/png"),
            ("a.json", "application/json"),
            ("a.csv", "text/csv; charset=utf-8"),
            ("a.xml", "application/xml"),
            ("a.txt", "text/plain; charset=utf-8"),
            ("a.bin", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), expected);
        }
    }

    #[test]
    fn the_script_goes_before_the_body_end() {
        let html = inject_live_reload("<html><body><p>x</p></body></html>", 7);
        let at_script = html.find("data-datapages-live-reload").unwrap();
        assert!(at_script < html.find("</body>").unwrap());
        assert!(html.contains("window.__datapagesGeneration=7"));
        assert!(inject_live_reload("no body", 1).starts_with("no body<script"));
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
