//! A small W3C WebDriver client for the browser tests: starts `chromedriver` on a free
//! loopback port, opens headless Chromium sessions, and speaks JSON over HTTP with ureq.
//! Every wait is bounded; the driver process is killed when [`Driver`] is dropped.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long one WebDriver command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// How long chromedriver may take to start answering.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// The W3C key of an element reference in WebDriver JSON.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether Chromium and ChromeDriver are installed; prints the skip line when not.
pub fn browser_present() -> bool {
    super::tool_present("chromium", Path::new(CHROMIUM).is_file())
        && super::tool_present("chromedriver", Path::new(CHROMEDRIVER).is_file())
}

/// A running chromedriver, killed on drop.
pub struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Driver {
    /// Starts chromedriver on a free 127.0.0.1 port and waits until it is ready.
    pub fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let agent = ureq::AgentBuilder::new().timeout(COMMAND_TIMEOUT).build();
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            agent,
        };
        let started = Instant::now();
        loop {
            let ready = driver
                .agent
                .get(&format!("{}/status", driver.base))
                .timeout(Duration::from_secs(2))
                .call()
                .ok()
                .and_then(|r| r.into_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == json!(true));
            if ready {
                return driver;
            }
            assert!(
                started.elapsed() < START_TIMEOUT,
                "chromedriver did not become ready within {START_TIMEOUT:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A new headless Chromium session with a fresh profile; `extra_args` are added to
    /// the standard flags (e.g. to turn JavaScript off).
    pub fn session(&self, extra_args: &[&str]) -> Session {
        let profile = tempfile::tempdir().expect("profile dir");
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.extend(extra_args.iter().map(|s| s.to_string()));
        let capabilities = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "pageLoadStrategy": "normal",
                    "goog:chromeOptions": { "binary": CHROMIUM, "args": args }
                }
            }
        });
        let response = send(
            &self.agent,
            "POST",
            &format!("{}/session", self.base),
            Some(capabilities),
        );
        let id = response["value"]["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        Session {
            agent: self.agent.clone(),
            base: format!("{}/session/{id}", self.base),
            _profile: profile,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session; closed (and its browser ended) on drop.
pub struct Session {
    agent: ureq::Agent,
    base: String,
    _profile: tempfile::TempDir,
}

impl Session {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let value = send(&self.agent, method, &format!("{}{path}", self.base), body);
        value["value"].clone()
    }

    /// Opens a URL and waits for the page to load.
    pub fn navigate(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Opens a file of the built site.
    pub fn open(&self, file: &Path) {
        self.navigate(&file_url(file));
    }

    /// Runs a script (a function body: use `return`); `arguments` holds `args`.
    pub fn execute(&self, script: &str, args: Vec<Value>) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// Runs an asynchronous script; it ends by calling `arguments[arguments.length - 1](result)`.
    pub fn execute_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.call("POST", "/timeouts", Some(json!({ "script": 60_000 })));
        self.call(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": args })),
        )
    }

    /// The first element matching a CSS selector.
    pub fn find(&self, css: &str) -> Element {
        let value = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        Element(
            value[ELEMENT_KEY]
                .as_str()
                .unwrap_or_else(|| panic!("no element {css}"))
                .to_string(),
        )
    }

    pub fn click(&self, element: &Element) {
        self.call(
            "POST",
            &format!("/element/{}/click", element.0),
            Some(json!({})),
        );
    }

    /// Types text into an input, firing the events a person's typing fires.
    pub fn type_into(&self, element: &Element, text: &str) {
        self.call(
            "POST",
            &format!("/element/{}/value", element.0),
            Some(json!({ "text": text })),
        );
    }

    /// Sets the layout viewport to `width` x `height` CSS pixels.
    pub fn set_viewport(&self, width: i64, height: i64) {
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        );
    }

    /// Emulates `prefers-color-scheme` (`"light"` or `"dark"`) and a media type (`""`, `"print"`).
    pub fn emulate(&self, scheme: &str, media: &str) {
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({ "media": media, "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        );
    }

    /// A Chrome DevTools Protocol command, through chromedriver.
    pub fn cdp(&self, command: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": command, "params": params })),
        )
    }

    /// A PNG of the whole page at the current viewport width.
    pub fn full_page_png(&self) -> Vec<u8> {
        let size = self.execute(
            "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];",
            vec![],
        );
        let (width, height) = (
            size[0].as_f64().unwrap_or(1280.0),
            size[1].as_f64().unwrap_or(900.0),
        );
        let shot = self.cdp(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": { "x": 0, "y": 0, "width": width, "height": height.min(16_000.0), "scale": 1 }
            }),
        );
        base64_decode(shot["data"].as_str().expect("screenshot data"))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self
            .agent
            .delete(&self.base)
            .timeout(Duration::from_secs(10))
            .call();
    }
}

/// A reference to an element of the current page.
pub struct Element(String);

/// Sends one WebDriver request; panics with the driver's own message on an error.
fn send(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> Value {
    let request = agent.request(method, url);
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    match result {
        Ok(response) => response.into_json().expect("WebDriver answers JSON"),
        Err(ureq::Error::Status(code, response)) => {
            let text = response.into_string().unwrap_or_default();
            panic!("WebDriver {method} {url} failed with {code}: {text}")
        }
        Err(e) => panic!("WebDriver {method} {url}: {e}"),
    }
}

/// `file://` URL of a path (absolute, `/`-separated, with spaces and `%` escaped).
pub fn file_url(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let text = absolute
        .to_string_lossy()
        .replace('%', "%25")
        .replace(' ', "%20");
    format!("file://{text}")
}

/// Where the tests write screenshots for people to look at: `<target>/browser-screenshots/`.
pub fn screenshot_dir() -> PathBuf {
    // The test binary lives in <target>/<profile>/deps/.
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
        .unwrap_or_else(|| super::bundled_site().join("target"));
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

/// Standard base64 (with padding), as WebDriver and CDP send images.
pub fn base64_decode(text: &str) -> Vec<u8> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some((c - b'A') as u32),
            b'a'..=b'z' => Some((c - b'a') as u32 + 26),
            b'0'..=b'9' => Some((c - b'0') as u32 + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for v in text.bytes().filter_map(value) {
        buffer = (buffer << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    out
}

/// axe-core's serious and critical violations on the open page (none checked without the
/// pinned axe-core, which prints the skip line).
pub fn axe_serious(session: &Session) -> Vec<String> {
    let path = super::browser_package("axe-core/axe.min.js");
    if !super::tool_present("axe-core", path.is_file()) {
        return Vec::new();
    }
    let axe = std::fs::read_to_string(path).expect("read axe.min.js");
    session.execute(&format!("{axe}\n;return typeof axe;"), vec![]);
    let violations = session.execute_async(
        "var done = arguments[arguments.length - 1];\
         axe.run(document, { resultTypes: ['violations'] }).then(function (r) {\
           done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })\
             .map(function (v) { return v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); }).join(', '); }));\
         }, function (e) { done(['axe-error: ' + e]); });",
        vec![],
    );
    violations
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}
