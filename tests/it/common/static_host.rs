//! A plain static host for tests that need two origins (pages on one, big files on
//! another, as a site with `data_url` publishes them): it serves the files under a folder
//! on an ephemeral 127.0.0.1 port, answers `Access-Control-Allow-Origin: *` only when
//! told to (as a bucket with a CORS rule does), and records every request's path and
//! `Origin`, so a test can tell which host served what.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One request the host answered: its path and its `Origin` header, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub path: String,
    pub origin: Option<String>,
}

/// A running host; it stops answering when dropped (its thread ends with the test).
pub struct StaticHost {
    pub port: u16,
    pub cors: Arc<AtomicBool>,
    pub requests: Arc<Mutex<Vec<Request>>>,
}

impl StaticHost {
    /// Serves `root` (read at each request, so it may be replaced meanwhile).
    pub fn start(root: &Path, cors: bool) -> StaticHost {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let port = listener.local_addr().unwrap().port();
        let host = StaticHost {
            port,
            cors: Arc::new(AtomicBool::new(cors)),
            requests: Arc::new(Mutex::new(Vec::new())),
        };
        let (root, cors, requests) = (
            root.to_path_buf(),
            Arc::clone(&host.cors),
            Arc::clone(&host.requests),
        );
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (root, cors, requests) =
                    (root.clone(), Arc::clone(&cors), Arc::clone(&requests));
                std::thread::spawn(move || {
                    let _ = answer(stream, &root, cors.load(Ordering::SeqCst), &requests);
                });
            }
        });
        host
    }

    /// The host's address, with a trailing slash.
    pub fn origin_url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The requests answered so far.
    pub fn seen(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// Reads one request and answers it: the file, 404, or 405 for a method other than GET
/// and HEAD. One request per connection.
fn answer(
    mut stream: TcpStream,
    root: &Path,
    cors: bool,
    requests: &Mutex<Vec<Request>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut origin = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("origin") {
                origin = Some(value.trim().to_string());
            }
        }
    }
    let path = target.split(['?', '#']).next().unwrap_or("/").to_string();
    requests.lock().unwrap().push(Request {
        path: path.clone(),
        origin,
    });
    let file = local_file(root, &path);
    let (status, body) = match (method, file.and_then(|f| std::fs::read(f).ok())) {
        ("GET" | "HEAD", Some(body)) => ("200 OK", body),
        ("GET" | "HEAD", None) => ("404 Not Found", b"not found".to_vec()),
        _ => ("405 Method Not Allowed", Vec::new()),
    };
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: {}\r\nConnection: close\r\n",
        body.len(),
        media_type(&path)
    );
    if cors {
        head.push_str("Access-Control-Allow-Origin: *\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// The file a URL path names under `root` (`index.html` for a folder); none for a path
/// that would leave it or is percent-encoded (the tests' paths are plain).
fn local_file(root: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path.trim_start_matches('/'));
    if path.contains('%')
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let file = root.join(relative);
    Some(match file.is_dir() {
        true => file.join("index.html"),
        false => file,
    })
}

/// The media type of a path, by its extension (what a browser needs to run the scripts).
fn media_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "js" => "text/javascript",
        "css" => "text/css",
        "json" | "jsonld" => "application/json",
        "csv" => "text/csv",
        "svg" => "image/svg+xml",
        _ if path.ends_with('/') => "text/html; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        _ => "application/octet-stream",
    }
}
