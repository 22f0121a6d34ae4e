//! Starting `datapages serve` on an ephemeral 127.0.0.1 port for tests, and speaking raw
//! HTTP to it (raw, so that path-escape attempts reach the server unnormalised).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running preview server; killed when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    pub output: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    /// Starts `datapages serve --root ROOT --port 0` and waits for its address.
    pub fn start(root: &Path) -> Server {
        Self::start_with(root, &["--port", "0"])
    }

    pub fn start_with(root: &Path, extra: &[&str]) -> Server {
        let mut command = Command::new(super::binary());
        command.arg("serve").arg("--root").arg(root).args(extra);
        Self::spawn(command)
    }

    /// Starts `datapages serve --port 0` inside `dir`, with the default `--root .`.
    pub fn start_in(dir: &Path) -> Server {
        let mut command = Command::new(super::binary());
        command.current_dir(dir).args(["serve", "--port", "0"]);
        Self::spawn(command)
    }

    /// Starts a prepared `serve` command (extra environment, limits set before exec).
    pub fn spawn(mut command: Command) -> Server {
        let mut child = command
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let output = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let (sender, receiver) = std::sync::mpsc::channel();
        {
            let output = std::sync::Arc::clone(&output);
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    // "Serving DIR at http://127.0.0.1:PORT/ ..." (or [::1]:PORT).
                    let address = line
                        .strip_prefix("Serving ")
                        .and_then(|rest| rest.rsplit(" at http://").next())
                        .and_then(|rest| rest.split('/').next());
                    if let Some((_, port)) = address.and_then(|a| a.rsplit_once(':')) {
                        let _ = sender.send(port.parse().unwrap_or(0));
                    }
                    output.lock().unwrap().push_str(&format!("{line}\n"));
                }
            });
        }
        {
            let output = std::sync::Arc::clone(&output);
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    output.lock().unwrap().push_str(&format!("{line}\n"));
                }
            });
        }
        // A generous limit, not a bound on speed: the first build of a 1,000,000-row site
        // on a loaded 2-core machine has taken over 30 s.
        let port = receiver
            .recv_timeout(Duration::from_secs(180))
            .unwrap_or_else(|e| {
                panic!(
                    "serve prints its address ({e}); it printed:\n{}",
                    output.lock().unwrap()
                )
            });
        Server {
            child,
            port,
            output,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Everything the server printed so far.
    pub fn printed(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// Waits (at most 10 s) until the server has printed `needle`.
    pub fn wait_printed(&self, needle: &str) {
        let started = Instant::now();
        while !self.printed().contains(needle) {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "never printed {needle:?}:\n{}",
                self.printed()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends one raw request; returns (status, headers lowercased, body).
    pub fn raw(&self, method: &str, target: &str) -> (u16, String, Vec<u8>) {
        raw_request(self.port, method, target)
    }

    /// Polls `path` until `check` accepts its body, for at most `limit`.
    pub fn wait_for(&self, path: &str, limit: Duration, check: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let (_, _, body) = self.raw("GET", path);
            let text = String::from_utf8_lossy(&body).into_owned();
            if check(&text) {
                return text;
            }
            assert!(
                started.elapsed() < limit,
                "timed out waiting on {path}; server printed:\n{}",
                self.printed()
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.0-style request over a fresh connection to 127.0.0.1.
pub fn raw_request(port: u16, method: &str, target: &str) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).expect("read");
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers end");
    let head = String::from_utf8_lossy(&response[..split]).to_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let mut body = response[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = dechunk(&body);
    }
    (status, head, body)
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line_end]).trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
    out
}
