//! The preview's listener, built to stay up whatever clients do: a thread per connection up
//! to a cap, and a lower cap per client address (past either, an immediate 503), deadlines on
//! idle and slow clients and on each whole response, size limits on request heads, bodies
//! never read beyond a few kilobytes, and an accept loop that backs off and retries when the
//! process runs out of file descriptors instead of dying.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::http::{self, HeadError, Request};
use super::routes;
use super::shared::{Limits, Shared, Slot};
use super::state::PreviewState;

/// How long the accept loop waits after a failed accept (out of descriptors, mostly) before
/// trying again: connections closing meanwhile free descriptors.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(20);

/// A connection thread's stack: handling a request needs little, and a small stack keeps a
/// full house of connections cheap.
const STACK_SIZE: usize = 512 * 1024;

/// Accepts connections on `listener` for the life of the process, on its own thread.
pub fn spawn(
    listener: TcpListener,
    state: Arc<PreviewState>,
    limits: Limits,
    hosts: Vec<String>,
) -> io::Result<()> {
    let shared = Arc::new(Shared {
        state,
        limits,
        hosts,
        polls: Arc::new(AtomicUsize::new(0)),
    });
    std::thread::Builder::new()
        .name("serve-accept".into())
        .spawn(move || accept_forever(&listener, &shared))?;
    Ok(())
}

fn accept_forever(listener: &TcpListener, shared: &Arc<Shared>) {
    let open = Arc::new(AtomicUsize::new(0));
    // Open connections per client address; only this thread touches the map, and entries
    // without a live connection are dropped, so it never holds more than the open ones.
    let mut peers: HashMap<IpAddr, Arc<AtomicUsize>> = HashMap::new();
    let mut failing = false;
    loop {
        let (stream, peer) = match listener.accept() {
            Ok((stream, peer)) => (stream, peer.ip()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => continue,
            Err(e) => {
                // EMFILE/ENFILE and the like: say so once, wait for descriptors to free up.
                if !failing {
                    eprintln!("serve: cannot accept connections ({e}); retrying");
                    failing = true;
                }
                std::thread::sleep(ACCEPT_BACKOFF);
                continue;
            }
        };
        failing = false;
        peers.retain(|_, count| Arc::strong_count(count) > 1);
        let of_peer = peers.entry(peer).or_default();
        let Some(peer_slot) = Slot::try_take(of_peer, shared.limits.max_per_peer) else {
            refuse_busy(stream);
            continue;
        };
        let Some(slot) = Slot::try_take(&open, shared.limits.max_connections) else {
            refuse_busy(stream);
            continue;
        };
        let shared = Arc::clone(shared);
        // A thread that cannot start drops its closure: the connection closes, the slots free.
        let _ = std::thread::Builder::new()
            .name("serve-connection".into())
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let _slots = (slot, peer_slot);
                Connection::new(stream, &shared).serve();
            });
    }
}

/// Answers 503 without waiting on the client: the accept loop must never block on one.
fn refuse_busy(mut stream: TcpStream) {
    let body = "Too many connections; try again.\n";
    let mut response = http::head(
        503,
        &[
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Retry-After", "1"),
        ],
        body.len() as u64,
        false,
    );
    response.extend_from_slice(body.as_bytes());
    let _ = stream.set_nonblocking(true);
    let _ = stream.write(&response);
}

/// Why reading stopped without a request.
enum Stop {
    /// Closed by the client, or failed: nothing to answer.
    Quietly,
    /// Answer this status and text, then close.
    With(u16, &'static str),
}

/// One client connection: requests read in turn from a buffer that may already hold the
/// start of the next one (pipelining).
struct Connection<'a> {
    stream: TcpStream,
    buffer: Vec<u8>,
    shared: &'a Shared,
}

impl<'a> Connection<'a> {
    fn new(stream: TcpStream, shared: &'a Shared) -> Self {
        Connection {
            stream,
            buffer: Vec::new(),
            shared,
        }
    }

    fn serve(mut self) {
        // Small responses leave in one write; NODELAY also keeps a streamed file's last
        // partial segment from waiting on the client's delayed ACK.
        let _ = self.stream.set_nodelay(true);
        let mut first = true;
        loop {
            let request = match self.read_request(first) {
                Ok(request) => request,
                Err(Stop::Quietly) => return,
                Err(Stop::With(status, text)) => return self.refuse(status, text),
            };
            first = false;
            let keep_alive = request.keep_alive && self.skip_body(&request);
            let mut out = Deadline::new(&self.stream, &self.shared.limits);
            let sent = routes::respond(&mut out, &request, self.shared, keep_alive);
            if sent.is_err() {
                return;
            }
            if !keep_alive {
                return self.linger();
            }
        }
    }

    /// Reads the next request head. The first request must arrive whole within the header
    /// timeout of the accept; later ones may idle for the idle timeout before they start.
    fn read_request(&mut self, first: bool) -> Result<Request, Stop> {
        let limits = &self.shared.limits;
        let mut started = first || !self.buffer.is_empty();
        let wait = if started {
            limits.header_timeout
        } else {
            limits.idle_timeout
        };
        let mut deadline = Instant::now() + wait;
        loop {
            if !self.buffer.is_empty() {
                match http::parse_head(&self.buffer, limits.head) {
                    Ok((request, length)) => {
                        self.buffer.drain(..length);
                        return Ok(request);
                    }
                    Err(HeadError::Partial) => {}
                    Err(error) => {
                        let (status, text) = error.status();
                        return Err(Stop::With(status, text));
                    }
                }
            }
            match self.fill(deadline) {
                Ok(0) => return Err(Stop::Quietly),
                Ok(_) if !started => {
                    started = true;
                    deadline = Instant::now() + limits.header_timeout;
                }
                Ok(_) => {}
                Err(e) if is_timeout(&e) && !self.buffer.is_empty() => {
                    return Err(Stop::With(408, "The request took too long to arrive.\n"))
                }
                Err(_) => return Err(Stop::Quietly),
            }
        }
    }

    /// Reads more bytes into the buffer, waiting at most until `deadline`.
    fn fill(&mut self, deadline: Instant) -> io::Result<usize> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut chunk = [0; 8 * 1024];
        let read = loop {
            match self.stream.read(&mut chunk) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other?,
            }
        };
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(read)
    }

    /// Reads and drops a small request body so the connection can carry the next request;
    /// `false` (close after answering) for a large, chunked or unfinished one.
    fn skip_body(&mut self, request: &Request) -> bool {
        if request.chunked || request.body_length > self.shared.limits.max_body {
            return false;
        }
        let length = request.body_length as usize;
        let deadline = Instant::now() + self.shared.limits.header_timeout;
        while self.buffer.len() < length {
            match self.fill(deadline) {
                Ok(0) | Err(_) => return false,
                Ok(_) => {}
            }
        }
        self.buffer.drain(..length);
        true
    }

    fn refuse(mut self, status: u16, text: &str) {
        let mut response = http::head(
            status,
            &[("Content-Type", "text/plain; charset=utf-8")],
            text.len() as u64,
            false,
        );
        response.extend_from_slice(text.as_bytes());
        let mut out = Deadline::new(&self.stream, &self.shared.limits);
        if out.write_all(&response).is_ok() {
            self.linger();
        }
    }

    /// Closes after the last response without losing it: closing a socket with unread
    /// input sends a reset, which can destroy the answer before the client reads it (a 431
    /// to a client still sending its oversized head). So stop writing, then read and drop
    /// what the client still sends, briefly and up to a bound.
    fn linger(&mut self) {
        const LINGER: Duration = Duration::from_millis(500);
        const MOST: usize = 1024 * 1024;
        let _ = self.stream.shutdown(Shutdown::Write);
        let deadline = Instant::now() + LINGER;
        let mut dropped = 0;
        while dropped < MOST {
            self.buffer.clear();
            match self.fill(deadline) {
                Ok(0) | Err(_) => return,
                Ok(read) => dropped += read,
            }
        }
    }
}

/// One response's writes under the whole-response deadline (Go's `WriteTimeout`, not a
/// timeout per call): from its first byte, a response may take `response_time` plus one
/// second for every `min_rate` bytes written so far. Each write call may block only until
/// that moment, so a client reading 1 KiB every 20 s is cut off once it is that far behind,
/// however many calls the response takes, while a large download at a fair rate finishes.
pub struct Deadline<'s> {
    stream: &'s TcpStream,
    limits: &'s Limits,
    started: Option<Instant>,
    written: u64,
}

impl<'s> Deadline<'s> {
    pub fn new(stream: &'s TcpStream, limits: &'s Limits) -> Self {
        Deadline {
            stream,
            limits,
            started: None,
            written: 0,
        }
    }
}

impl Write for Deadline<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let started = *self.started.get_or_insert_with(Instant::now);
        let earned = self.written.saturating_mul(1000) / self.limits.min_rate.max(1);
        let allowed = self.limits.response_time + Duration::from_millis(earned);
        let left = allowed.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_write_timeout(Some(left))?;
        let written = self.stream.write(bytes)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn is_timeout(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}
