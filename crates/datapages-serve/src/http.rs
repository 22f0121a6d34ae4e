//! HTTP/1.1 for the preview, as little as a browser needs: reading one request head within
//! size limits, response heads (always with Content-Length, so keep-alive works), and
//! single byte ranges. Nothing here touches files or sockets' lifetimes; see `server` and
//! `files`.

/// The most header lines a request may have (a browser sends about fifteen).
const MAX_HEADERS: usize = 64;

/// What the server needs from a request head; owned, so the read buffer can be reused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The request target as sent (path and query).
    pub target: String,
    /// The connection may carry another request after this one.
    pub keep_alive: bool,
    /// Declared body length (0 when none).
    pub body_length: u64,
    /// The body is chunked: its length is unknown, so it is never read.
    pub chunked: bool,
    pub range: Option<String>,
    /// The `Host` header, when sent (HTTP/1.0 clients may leave it out).
    pub host: Option<String>,
}

impl Request {
    pub fn is_head(&self) -> bool {
        self.method == "HEAD"
    }
}

/// Why a head cannot be answered normally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadError {
    /// More bytes are needed.
    Partial,
    /// 414: the request line is longer than the limit.
    TargetTooLong,
    /// 431: the head (or one header line) is longer than the limit, or has too many lines.
    HeadersTooLarge,
    /// 400: not HTTP, or a target with bytes a URL cannot hold.
    Malformed,
}

impl HeadError {
    /// The status and text that answer it (`Partial` never gets an answer).
    pub fn status(self) -> (u16, &'static str) {
        match self {
            HeadError::TargetTooLong => (414, "The request target is too long.\n"),
            HeadError::HeadersTooLarge => (431, "The request headers are too large.\n"),
            HeadError::Partial | HeadError::Malformed => (400, "Bad request.\n"),
        }
    }
}

/// Size limits on a request head.
#[derive(Debug, Clone, Copy)]
pub struct HeadLimits {
    /// The request line and each header line.
    pub line: usize,
    /// The whole head.
    pub head: usize,
}

/// Parses the head at the start of `buffer`; on success, also returns its length in bytes.
pub fn parse_head(buffer: &[u8], limits: HeadLimits) -> Result<(Request, usize), HeadError> {
    let line_end = buffer.iter().position(|&b| b == b'\n');
    if line_end.map_or(buffer.len(), |end| end) > limits.line {
        return Err(HeadError::TargetTooLong);
    }
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let length = match parsed.parse(buffer) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) if buffer.len() > limits.head => {
            return Err(HeadError::HeadersTooLarge)
        }
        Ok(httparse::Status::Partial) => return Err(HeadError::Partial),
        Err(httparse::Error::TooManyHeaders) => return Err(HeadError::HeadersTooLarge),
        Err(_) => return Err(HeadError::Malformed),
    };
    if length > limits.head {
        return Err(HeadError::HeadersTooLarge);
    }
    let (Some(method), Some(target), Some(version)) = (parsed.method, parsed.path, parsed.version)
    else {
        return Err(HeadError::Malformed);
    };
    // The target ends up in a Location header and in file lookups: visible ASCII only.
    if target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(HeadError::Malformed);
    }
    let mut request = Request {
        method: method.to_string(),
        target: target.to_string(),
        keep_alive: version == 1,
        body_length: 0,
        chunked: false,
        range: None,
        host: None,
    };
    let mut lengths = Vec::new();
    let mut hosts = Vec::new();
    let mut ranges = Vec::new();
    for header in parsed.headers.iter() {
        if header.name.len() + header.value.len() + 4 > limits.line {
            return Err(HeadError::HeadersTooLarge);
        }
        let value = String::from_utf8_lossy(header.value);
        // Optional whitespace around a value is spaces and tabs only (RFC 9110, 5.5).
        let value = value.trim_matches([' ', '\t']);
        if header.name.eq_ignore_ascii_case("connection") {
            for option in value.split(',').map(str::trim) {
                if option.eq_ignore_ascii_case("close") {
                    request.keep_alive = false;
                } else if option.eq_ignore_ascii_case("keep-alive") && version == 0 {
                    request.keep_alive = true;
                }
            }
        } else if header.name.eq_ignore_ascii_case("content-length") {
            lengths.push(content_length(value).ok_or(HeadError::Malformed)?);
        } else if header.name.eq_ignore_ascii_case("host") {
            hosts.push(value.to_string());
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            request.chunked = true;
        } else if header.name.eq_ignore_ascii_case("range") {
            ranges.push(value.to_string());
        }
    }
    // Differing lengths (or hosts) are how requests get smuggled: refuse them.
    if lengths.windows(2).any(|pair| pair[0] != pair[1])
        || hosts.windows(2).any(|pair| pair[0] != pair[1])
    {
        return Err(HeadError::Malformed);
    }
    request.body_length = lengths.first().copied().unwrap_or(0);
    request.host = hosts.pop();
    // Two `Range` headers ask for two things: the whole file is the answer (a server may
    // ignore a range, RFC 9110 14.2), never the last one alone.
    if ranges.len() == 1 {
        request.range = ranges.pop();
    }
    Ok((request, length))
}

/// A Content-Length value (surrounding blanks already trimmed): ASCII digits only, so `+26`,
/// `2 6`, `0x1a` or `-1` never pass as a number another server would read differently.
fn content_length(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// Whether a `Host` header names this preview, with or without a port: an IP address (v4,
/// or v6 in brackets: loopback, the bound address), `localhost` or a name under
/// `.localhost`, or one of `allowed` (`--allow-host`). A DNS-rebinding page reaches the
/// server under its own domain name, never under an IP address: that name is refused.
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let port_ok = |port: &str| {
        port.is_empty()
            || port.strip_prefix(':').is_some_and(|p| {
                (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
            })
    };
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split_once(']').is_some_and(|(inside, port)| {
            port_ok(port) && inside.parse::<std::net::Ipv6Addr>().is_ok()
        });
    }
    let (name, port) = host.split_at(host.find(':').unwrap_or(host.len()));
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    port_ok(port)
        && (name.parse::<std::net::Ipv4Addr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || allowed.iter().any(|a| a.eq_ignore_ascii_case(&name)))
}

/// Whether `name` looks like a plain host name (letters, digits, `.`, `-`, `_`): what
/// `--allow-host` takes and what a 403 may quote back.
pub fn is_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// The reason phrase of the statuses this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        206 => "Partial Content",
        301 => "Moved Permanently",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        416 => "Range Not Satisfiable",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// A response head: status line, the given headers, and the ones every answer carries
/// (Content-Length, no caching: a preview must never show a stale page, Connection).
pub fn head(status: u16, headers: &[(&str, &str)], length: u64, keep_alive: bool) -> Vec<u8> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {length}\r\nCache-Control: no-store\r\nConnection: {}\r\n\r\n",
        if keep_alive { "keep-alive" } else { "close" }
    ));
    head.into_bytes()
}

/// What a `Range` header asks of a file of `length` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteRange {
    /// No range, or one this server ignores (several ranges, another unit, bad syntax).
    Whole,
    /// Bytes `first..=last`.
    Part { first: u64, last: u64 },
    /// 416: starts past the end.
    Unsatisfiable,
}

/// Reads `bytes=a-b`, `bytes=a-` and `bytes=-n` (one range only).
pub fn byte_range(header: Option<&str>, length: u64) -> ByteRange {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return ByteRange::Whole;
    };
    let Some((first, last)) = spec.trim().split_once('-') else {
        return ByteRange::Whole;
    };
    if spec.contains(',') {
        return ByteRange::Whole;
    }
    let number = |text: &str| -> Option<u64> {
        let text = text.trim();
        (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().ok())
            .flatten()
    };
    match (number(first), number(last), last.trim().is_empty()) {
        // `-n`: the last n bytes.
        (None, Some(suffix), _) if first.trim().is_empty() => {
            if suffix == 0 || length == 0 {
                ByteRange::Unsatisfiable
            } else {
                ByteRange::Part {
                    first: length.saturating_sub(suffix),
                    last: length - 1,
                }
            }
        }
        (Some(first), None, true) if first < length => ByteRange::Part {
            first,
            last: length - 1,
        },
        (Some(first), Some(last), _) if first <= last && first < length => ByteRange::Part {
            first,
            last: last.min(length - 1),
        },
        (Some(first), _, _) if first >= length => ByteRange::Unsatisfiable,
        _ => ByteRange::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: HeadLimits = HeadLimits {
        line: 8 * 1024,
        head: 32 * 1024,
    };

    #[test]
    fn heads_are_read_with_their_keep_alive_and_range() {
        let text = b"GET /a?b=1 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\nGET /next";
        let (request, length) = parse_head(text, LIMITS).unwrap();
        assert_eq!(request.target, "/a?b=1");
        assert!(request.keep_alive);
        assert_eq!(request.range.as_deref(), Some("bytes=0-9"));
        assert_eq!(&text[length..], b"GET /next");
        // Two ranges, in one header or in two: no part is served.
        let two = b"GET / HTTP/1.1\r\nRange: bytes=0-9\r\nRange: bytes=10-19\r\n\r\n";
        let (request, _) = parse_head(two, LIMITS).unwrap();
        assert_eq!(request.range, None);
        let (request, _) =
            parse_head(b"GET / HTTP/1.1\r\nRange: bytes=0-9,10-19\r\n\r\n", LIMITS).unwrap();
        assert_eq!(byte_range(request.range.as_deref(), 100), ByteRange::Whole);
        let (request, _) = parse_head(b"GET / HTTP/1.0\r\n\r\n", LIMITS).unwrap();
        assert!(!request.keep_alive, "HTTP/1.0 closes unless asked");
        let (request, _) =
            parse_head(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", LIMITS).unwrap();
        assert!(!request.keep_alive);
        assert_eq!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n", LIMITS),
            Err(HeadError::Partial)
        );
    }

    #[test]
    fn oversized_and_malformed_heads_are_refused() {
        let long_line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(9000));
        assert_eq!(
            parse_head(long_line.as_bytes(), LIMITS),
            Err(HeadError::TargetTooLong)
        );
        let long_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(9000));
        assert_eq!(
            parse_head(long_header.as_bytes(), LIMITS),
            Err(HeadError::HeadersTooLarge)
        );
        let many = format!("GET / HTTP/1.1\r\n{}", "X: aaaaaaaa\r\n".repeat(3000));
        assert_eq!(
            parse_head(many.as_bytes(), LIMITS),
            Err(HeadError::HeadersTooLarge)
        );
        assert_eq!(
            parse_head(
                b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                LIMITS
            ),
            Err(HeadError::Malformed)
        );
        for length in ["+26", "-1", "2 6", "0x1a", "26,26", "", "\u{0662}6"] {
            let text = format!("GET / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n");
            assert_eq!(
                parse_head(text.as_bytes(), LIMITS),
                Err(HeadError::Malformed),
                "{length}"
            );
        }
        let (request, _) =
            parse_head(b"GET / HTTP/1.1\r\nContent-Length: 26\r\n\r\n", LIMITS).unwrap();
        assert_eq!(request.body_length, 26);
        assert_eq!(
            parse_head(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", LIMITS),
            Err(HeadError::Malformed)
        );
        assert_eq!(
            parse_head(b"\x16\x03\x01 hello\r\n\r\n", LIMITS),
            Err(HeadError::Malformed)
        );
    }

    #[test]
    fn hosts_are_loopback_names_ip_addresses_or_allowed() {
        let allowed = ["preview.example".to_string()];
        for host in [
            "localhost",
            "localhost:1111",
            "LOCALHOST.",
            "app.localhost:8000",
            "127.0.0.1",
            "127.0.0.1:1111",
            "127.3.4.5:80",
            "192.168.1.20:1111",
            "[::1]",
            "[::1]:1111",
            "preview.example",
            "Preview.Example:1111",
        ] {
            assert!(host_allowed(host, &allowed), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:1111",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "localhost:11x",
            "localhost:123456",
            "[::1",
            "[evil.example]:1",
            "::1",
            "",
        ] {
            assert!(!host_allowed(host, &allowed), "{host}");
        }
    }

    #[test]
    fn single_byte_ranges() {
        let part = |first, last| ByteRange::Part { first, last };
        assert_eq!(byte_range(Some("bytes=0-9"), 100), part(0, 9));
        assert_eq!(byte_range(Some("bytes=90-"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=90-500"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=-10"), 100), part(90, 99));
        assert_eq!(byte_range(Some("bytes=-500"), 100), part(0, 99));
        assert_eq!(
            byte_range(Some("bytes=100-"), 100),
            ByteRange::Unsatisfiable
        );
        assert_eq!(
            byte_range(Some("bytes=200-300"), 100),
            ByteRange::Unsatisfiable
        );
        assert_eq!(byte_range(Some("bytes=-0"), 100), ByteRange::Unsatisfiable);
        for ignored in [
            None,
            Some("bytes=5-2"),
            Some("bytes=0-1,5-6"),
            Some("items=0-1"),
        ] {
            assert_eq!(byte_range(ignored, 100), ByteRange::Whole, "{ignored:?}");
        }
    }

    #[test]
    fn heads_carry_length_caching_and_connection() {
        let text =
            String::from_utf8(head(404, &[("Content-Type", "text/plain")], 5, false)).unwrap();
        assert!(text.starts_with("HTTP/1.1 404 Not Found\r\n"));
        assert!(text.contains("Content-Length: 5\r\n"));
        assert!(text.contains("Cache-Control: no-store\r\n"));
        assert!(text.ends_with("Connection: close\r\n\r\n"));
    }

    fn head_bytes() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => prop::sample::select(vec![
                "GET ", "HEAD ", "POST ", "/", "?a=1", " HTTP/1.1", " HTTP/1.0", "\r\n", "\n",
                "Host: x", "Range: bytes=", "0-9", "-5", "5-", ",", "Connection: close",
                "Content-Length: ", "12", "99999999999999999999999", "Transfer-Encoding: chunked",
                ": ", "%00", "\0", " ",
            ])
            .prop_map(|s| s.as_bytes().to_vec()),
            1 => any::<u8>().prop_map(|b| vec![b]),
        ];
        prop::collection::vec(piece, 0..30).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

        #[test]
        fn any_bytes_give_a_head_or_a_refusal(bytes in head_bytes()) {
            let small = HeadLimits { line: 64, head: 128 };
            for limits in [LIMITS, small] {
                if let Ok((request, length)) = parse_head(&bytes, limits) {
                    proptest::prop_assert!(length <= bytes.len());
                    proptest::prop_assert!(length <= limits.head);
                    proptest::prop_assert!(!request.method.is_empty());
                }
            }
        }

        #[test]
        fn a_range_served_lies_inside_the_file(
            header in proptest::option::of("bytes=[0-9 ]{0,6}-[0-9 ]{0,6}"),
            length in 0u64..1_000,
        ) {
            if let ByteRange::Part { first, last } = byte_range(header.as_deref(), length) {
                proptest::prop_assert!(first <= last && last < length);
            }
        }
    }
}
