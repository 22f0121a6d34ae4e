//! What the preview server's connection threads share: the preview state, the limits on
//! what clients may do, and counted slots of the capped sets (connections, waiting polls).
//! Below both the listener (`server`) and the request handling (`routes`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::http::HeadLimits;
use super::state::PreviewState;

/// The server's limits. Defaults suit a preview with a handful of tabs; see [`Limits::from_env`].
#[derive(Debug, Clone)]
pub struct Limits {
    /// Open connections (one thread each); past it, 503 and close.
    pub max_connections: usize,
    /// Open connections from one IP address, so that one client cannot take them all.
    pub max_per_peer: usize,
    /// Long polls waiting at once (each also holds a connection); past it, 503.
    pub max_polls: usize,
    /// From a connection's first byte (or its accept) to the end of a request head.
    pub header_timeout: Duration,
    /// Between requests on a kept-alive connection.
    pub idle_timeout: Duration,
    /// The whole-response deadline: a response must be written within this time plus one
    /// second for every `min_rate` bytes written so far (`server::Deadline`).
    pub response_time: Duration,
    /// Bytes per second a slow but honest client is granted on top of `response_time`.
    pub min_rate: u64,
    pub head: HeadLimits,
    /// The largest request body read (and dropped) to keep a connection; larger ones close it.
    pub max_body: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 128,
            max_per_peer: 64,
            max_polls: 32,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            response_time: Duration::from_secs(30),
            min_rate: 1024 * 1024,
            head: HeadLimits {
                line: 8 * 1024,
                head: 32 * 1024,
            },
            max_body: 8 * 1024,
        }
    }
}

impl Limits {
    /// The defaults, with hidden overrides so that tests of the limits take a second, not
    /// ten: `DATAPAGES_SERVE_IDLE_MS` (keep-alive idle), `DATAPAGES_SERVE_HEADER_MS`
    /// (reading a request head), `DATAPAGES_SERVE_RESPONSE_MS` and
    /// `DATAPAGES_SERVE_MIN_RATE` (the response deadline), `DATAPAGES_SERVE_MAX_CONNECTIONS`.
    /// Values are clamped, so no setting can make a deadline overflow.
    pub fn from_env() -> Self {
        let number = |name: &str, most: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .map(|n| n.clamp(1, most))
        };
        let millis = |name: &str| number(name, 3_600_000).map(Duration::from_millis);
        let defaults = Limits::default();
        Limits {
            idle_timeout: millis("DATAPAGES_SERVE_IDLE_MS").unwrap_or(defaults.idle_timeout),
            header_timeout: millis("DATAPAGES_SERVE_HEADER_MS").unwrap_or(defaults.header_timeout),
            response_time: millis("DATAPAGES_SERVE_RESPONSE_MS").unwrap_or(defaults.response_time),
            min_rate: number("DATAPAGES_SERVE_MIN_RATE", 1 << 40).unwrap_or(defaults.min_rate),
            max_connections: number("DATAPAGES_SERVE_MAX_CONNECTIONS", 100_000)
                .map_or(defaults.max_connections, |n| n as usize),
            ..defaults
        }
    }
}

/// What every connection thread shares.
pub struct Shared {
    pub state: Arc<PreviewState>,
    pub limits: Limits,
    /// Host names answered besides localhost and IP addresses (`--allow-host`).
    pub hosts: Vec<String>,
    /// Long polls now waiting.
    pub polls: Arc<AtomicUsize>,
}

/// One place in a counted, capped set (open connections, waiting polls); given back when
/// dropped, also when a thread unwinds.
pub struct Slot(Arc<AtomicUsize>);

impl Slot {
    pub fn try_take(counter: &Arc<AtomicUsize>, cap: usize) -> Option<Slot> {
        counter
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < cap).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(counter)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
