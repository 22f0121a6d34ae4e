//! `datapages serve` against hostile or careless clients, over raw TCP on loopback: running
//! out of file descriptors, idle and slow connections, one peer holding every socket, a
//! client reading too slowly, oversized heads, lax Content-Length, a 200 MB page, a page that
//! closes its body near the top, byte ranges and redirects that must not leave the host.
//! Every wait is bounded.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use common::server::Server;

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_bundled_site(dir.path());
    dir
}

/// `serve` on a copy of the bundled site, with extra environment.
fn serve(dir: &tempfile::TempDir, env: &[(&str, &str)]) -> Server {
    let mut command = Command::new(common::binary());
    command
        .args(["serve", "--port", "0", "--root"])
        .arg(dir.path())
        .envs(env.iter().copied());
    Server::spawn(command)
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .set_write_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Reads one response (head, then exactly Content-Length bytes); head lowercased.
fn read_response(reader: &mut BufReader<TcpStream>, head_only: bool) -> (u16, String, Vec<u8>) {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "closed mid-head");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line.to_lowercase());
    }
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut body = vec![0; if head_only { 0 } else { content_length(&head) }];
    reader.read_exact(&mut body).unwrap();
    (status, head, body)
}

fn content_length(head: &str) -> usize {
    head.lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .expect("a content-length")
        .trim()
        .parse()
        .unwrap()
}

/// Sends raw bytes on a fresh connection and reads one response (its head only when
/// `head_only`); returns the connection too, to read on.
fn exchange_on(
    server: &Server,
    request: &[u8],
    head_only: bool,
) -> (BufReader<TcpStream>, (u16, String, Vec<u8>)) {
    let stream = connect(server);
    (&stream).write_all(request).unwrap();
    let mut reader = BufReader::new(stream);
    let response = read_response(&mut reader, head_only);
    (reader, response)
}

fn exchange(server: &Server, request: &[u8]) -> (u16, String, Vec<u8>) {
    exchange_on(server, request, false).1
}

fn get(server: &Server, target: &str, extra: &str) -> (u16, String, Vec<u8>) {
    let request = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n");
    exchange(server, request.as_bytes())
}

/// Reads until the server closes (end of stream or reset): how many bytes came, and the
/// last 32 to 64 KiB of them.
fn read_to_end_keeping_tail(reader: &mut BufReader<TcpStream>) -> (u64, Vec<u8>) {
    let mut received = 0u64;
    let mut tail = Vec::new();
    let mut chunk = vec![0; 256 * 1024];
    loop {
        let read = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("after {received} bytes: {e}"),
        };
        received += read as u64;
        tail.extend_from_slice(&chunk[..read]);
        if tail.len() > 64 * 1024 {
            tail.drain(..tail.len() - 32 * 1024);
        }
    }
    (received, tail)
}

/// Whether the server closed `stream` (end of stream or reset) within its read timeout.
fn closed_by_server(mut stream: &TcpStream) -> bool {
    let mut byte = [0; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn the_listener_survives_running_out_of_descriptors() {
    let dir = site();
    let mut command = Command::new(common::binary());
    command
        .args(["serve", "--port", "0", "--root"])
        .arg(dir.path());
    // SAFETY: setrlimit is async-signal-safe; it only lowers the child's own limit.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let server = Server::spawn(command);
    // Far more half-open requests than the server has descriptors.
    let mut held = Vec::new();
    for _ in 0..150 {
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], server.port));
        let Ok(stream) = TcpStream::connect_timeout(&address, Duration::from_millis(300)) else {
            break;
        };
        let _ = (&stream).write_all(b"GET / HTTP/1.1\r\n");
        held.push(stream);
    }
    server.wait_printed("cannot accept connections");
    drop(held);
    // Answered at all (connect's read timeout, 10 s, is a wait, not a speed claim): the
    // listener did not stop after running out of descriptors.
    let stream = connect(&server);
    (&stream)
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let (status, _, body) = read_response(&mut BufReader::new(stream), false);
    assert_eq!(status, 200);
    assert!(!body.is_empty());
    assert!(
        !server.printed().contains("panicked"),
        "{}",
        server.printed()
    );
}

#[test]
fn idle_and_slow_connections_are_closed() {
    let dir = site();
    let server = serve(
        &dir,
        &[
            ("DATAPAGES_SERVE_IDLE_MS", "300"),
            ("DATAPAGES_SERVE_HEADER_MS", "600"),
        ],
    );
    // Connected, never a byte sent.
    let silent = connect(&server);
    // One request, then idle on the kept-alive connection.
    let request = b"GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    let (idle, (status, head, _)) = exchange_on(&server, request, false);
    assert_eq!(status, 200);
    assert!(head.contains("connection: keep-alive"), "{head}");
    // Half a head, then nothing: a 408.
    let slow = connect(&server);
    (&slow).write_all(b"GET / HTTP/1.1\r\nHost: 1").unwrap();

    // Closed by the server at all: connect's read timeout (10 s, far above the limits set
    // here) turns a connection the server keeps into a failed read, not a hang.
    assert!(closed_by_server(&silent));
    assert!(closed_by_server(idle.get_ref()));
    let mut answer = String::new();
    BufReader::new(&slow).read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
}

#[test]
fn connections_past_the_cap_get_503_at_once() {
    let dir = site();
    let server = serve(&dir, &[("DATAPAGES_SERVE_MAX_CONNECTIONS", "4")]);
    let held: Vec<TcpStream> = (0..4).map(|_| connect(&server)).collect();
    // Let the server take the four before the fifth arrives.
    std::thread::sleep(Duration::from_millis(200));
    // "At once" is checked by its cause: the 503 arrives while the four places are still
    // held, so the fifth connection was answered, not queued for a place.
    let mut extra = connect(&server);
    let mut answer = String::new();
    let _ = extra.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
    drop(held);
    // The held connections' threads see them close and free their places.
    let started = Instant::now();
    loop {
        // Read leniently: a refused connection may be reset under the request.
        let mut stream = connect(&server);
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        if answer.starts_with(b"HTTP/1.1 200 ") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "still refused after 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn oversized_heads_and_other_methods_are_refused() {
    let dir = site();
    let server = serve(&dir, &[]);
    let big_header = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(40 * 1024)
    );
    assert_eq!(exchange(&server, big_header.as_bytes()).0, 431);
    let many_headers = format!(
        "GET / HTTP/1.1\r\n{}\r\n",
        format!("X-Some: {}\r\n", "b".repeat(1000)).repeat(40)
    );
    assert_eq!(exchange(&server, many_headers.as_bytes()).0, 431);
    let long_target = format!("GET /{} HTTP/1.1\r\n\r\n", "c".repeat(9000));
    assert_eq!(exchange(&server, long_target.as_bytes()).0, 414);

    // A large body is not read: the answer comes, then the connection closes.
    let post = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n{}",
        "d".repeat(1000)
    );
    let (reader, (status, head, _)) = exchange_on(&server, post.as_bytes(), false);
    assert_eq!(status, 405);
    assert!(head.contains("allow: get, head"), "{head}");
    assert!(closed_by_server(reader.get_ref()));
    // And the server is still there.
    assert_eq!(get(&server, "/", "").0, 200);
}

#[test]
fn a_200_mb_page_streams_with_the_script_in_little_memory() {
    let dir = site();
    let server = serve(&dir, &[]);
    // Straight into the served folder: no rebuild copies it, so only serving is measured.
    let path = dir.path().join("public/big.html");
    let line = format!("<p>{}</p>\n", "x".repeat(1017));
    let lines = 200 * 1024;
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        file.write_all(b"<!DOCTYPE html><html><body>\n").unwrap();
        for _ in 0..lines {
            file.write_all(line.as_bytes()).unwrap();
        }
        file.write_all(b"</body></html>\n").unwrap();
    }
    let file_length = std::fs::metadata(&path).unwrap().len();
    assert!(file_length >= 200 * 1024 * 1024);

    let request = b"GET /big.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (mut reader, (status, head, _)) = exchange_on(&server, request, true);
    assert_eq!(status, 200);
    let declared = content_length(&head) as u64;
    assert!(declared > file_length, "the script adds to the length");
    let (received, tail) = read_to_end_keeping_tail(&mut reader);
    assert_eq!(received, declared, "the body matches its Content-Length");
    let tail = String::from_utf8_lossy(&tail);
    assert!(
        tail.ends_with("</script>\n</body></html>\n"),
        "{}",
        &tail[tail.len() - 200..]
    );
    assert!(tail.contains("<script data-datapages-live-reload>"));

    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(
        peak_kib < 64 * 1024,
        "peak resident memory {peak_kib} KiB while serving a {file_length}-byte page"
    );
}

/// A TCP connection to the server from another loopback address (127.0.0.2, ...), which
/// the server sees as another peer.
fn connect_from(source: [u8; 4], server: &Server) -> TcpStream {
    use std::os::fd::FromRawFd;
    let address = |ip: [u8; 4], port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from_be_bytes(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    let length = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: plain socket calls on a descriptor this function owns until it is wrapped.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "socket");
        let stream = TcpStream::from_raw_fd(fd);
        let local = address(source, 0);
        let bound = libc::bind(fd, (&local as *const libc::sockaddr_in).cast(), length);
        assert_eq!(
            bound,
            0,
            "bind {source:?}: {}",
            std::io::Error::last_os_error()
        );
        let remote = address([127, 0, 0, 1], server.port);
        let connected = libc::connect(fd, (&remote as *const libc::sockaddr_in).cast(), length);
        assert_eq!(connected, 0, "connect: {}", std::io::Error::last_os_error());
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    }
}

#[test]
fn one_peer_holding_every_socket_leaves_another_peer_served() {
    let dir = site();
    let server = serve(&dir, &[]);
    // 128 silent sockets from 127.0.0.1: as many as the server takes in all.
    let held: Vec<TcpStream> = (0..128).map(|_| connect(&server)).collect();
    // One more from the same peer is refused, so the server has seen all the others.
    let mut extra = connect(&server);
    let mut answer = String::new();
    let _ = extra.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503 "), "{answer}");
    // Another peer is still served.
    let other = connect_from([127, 0, 0, 2], &server);
    (&other)
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let (status, _, body) = read_response(&mut BufReader::new(other), false);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    drop(held);
}

#[test]
fn a_client_that_reads_slowly_is_cut_off_at_the_response_deadline() {
    let dir = site();
    // A 1 s deadline for the whole response and no allowance for bytes already sent.
    let server = serve(
        &dir,
        &[
            ("DATAPAGES_SERVE_RESPONSE_MS", "1000"),
            ("DATAPAGES_SERVE_MIN_RATE", "1099511627776"),
        ],
    );
    // Far more than the socket buffers hold, so the server must wait on the client.
    let path = dir.path().join("public/slow.bin");
    std::fs::write(&path, vec![b'x'; 64 * 1024 * 1024]).unwrap();
    let request = b"GET /slow.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (mut reader, (status, head, _)) = exchange_on(&server, request, true);
    assert_eq!(status, 200);
    let declared = content_length(&head) as u64;
    // 1 KiB every 100 ms for 2.5 s: each read lets the server write a little, but the
    // response as a whole is overdue after 1 s.
    let mut received = 0u64;
    let mut chunk = vec![0; 1024];
    for _ in 0..25 {
        received += reader.read(&mut chunk).unwrap() as u64;
        std::thread::sleep(Duration::from_millis(100));
    }
    // Then read fast: what the sockets hold arrives, then the end of a cut response.
    received += read_to_end_keeping_tail(&mut reader).0;
    assert!(
        received < declared,
        "the whole {declared}-byte response arrived: it was never cut off"
    );
    assert_eq!(get(&server, "/robots.txt", "").0, 200, "still serving");
}

#[test]
fn content_length_is_digits_only() {
    let dir = site();
    let server = serve(&dir, &[]);
    let body = "a".repeat(26);
    for length in ["+26", "-1", "2 6", "0x1a", "26, 26"] {
        let request = format!(
            "GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n{body}"
        );
        assert_eq!(exchange(&server, request.as_bytes()).0, 400, "{length}");
    }
    let twice = format!(
        "GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 26\r\nContent-Length: 27\r\n\r\n{body}"
    );
    assert_eq!(exchange(&server, twice.as_bytes()).0, 400);
    let plain =
        format!("GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 26\r\n\r\n{body}");
    assert_eq!(exchange(&server, plain.as_bytes()).0, 200);
}

/// Bytes the server process has read so far (files and sockets): `rchar` of /proc/PID/io.
fn bytes_read_by(server: &Server) -> u64 {
    let io = std::fs::read_to_string(format!("/proc/{}/io", server.child.id())).unwrap();
    io.lines()
        .find_map(|l| l.strip_prefix("rchar:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

#[test]
fn a_page_that_closes_its_body_near_the_top_starts_at_once() {
    let dir = site();
    let server = serve(&dir, &[]);
    // `</body>` near the top of a 128 MiB page: finding it by reading back from the end
    // reads the whole page before the first byte goes out.
    let path = dir.path().join("public/top.html");
    let size = 128 * 1024 * 1024;
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        file.write_all(b"<!DOCTYPE html><html><body><p>short</p></body></html>\n")
            .unwrap();
        let filler = format!("<!-- {} -->\n", "x".repeat(1014));
        for _ in 0..size / filler.len() {
            file.write_all(filler.as_bytes()).unwrap();
        }
    }
    let file_length = std::fs::metadata(&path).unwrap().len();
    let before = bytes_read_by(&server);
    let request = b"GET /top.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (mut reader, (status, head, _)) = exchange_on(&server, request, true);
    assert_eq!(status, 200);
    let mut first = [0; 15];
    reader.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"<!DOCTYPE html>");
    // Before its first bytes, the server read at most one window of the page; since then,
    // at most what the socket buffers hold (a few MiB). Not the page.
    let read = bytes_read_by(&server) - before;
    assert!(
        read < file_length / 4,
        "{read} bytes read to send the first bytes of a {file_length}-byte page"
    );
    // The page still arrives whole, with the script at its end.
    let (rest, tail) = read_to_end_keeping_tail(&mut reader);
    assert_eq!(first.len() as u64 + rest, content_length(&head) as u64);
    assert!(String::from_utf8_lossy(&tail).ends_with("</script>\n"));
}

#[test]
fn byte_ranges_of_files() {
    let dir = site();
    let server = serve(&dir, &[]);
    let csv = "/data/datasets/sata-sas-nvme-measured-throughput.csv";
    let whole = std::fs::read(
        dir.path()
            .join("public/data/datasets/sata-sas-nvme-measured-throughput.csv"),
    )
    .unwrap();
    let length = whole.len();
    for (range, first, last) in [
        ("bytes=0-9", 0, 9),
        ("bytes=10-", 10, length - 1),
        ("bytes=-5", length - 5, length - 1),
        ("bytes=5-999999999", 5, length - 1),
    ] {
        let (status, head, body) = get(&server, csv, &format!("Range: {range}\r\n"));
        assert_eq!(status, 206, "{range}");
        assert!(
            head.contains(&format!("content-range: bytes {first}-{last}/{length}")),
            "{range}: {head}"
        );
        assert_eq!(body, whole[first..=last], "{range}");
    }
    let (status, head, _) = get(&server, csv, &format!("Range: bytes={length}-\r\n"));
    assert_eq!(status, 416);
    assert!(
        head.contains(&format!("content-range: bytes */{length}")),
        "{head}"
    );
    let (status, _, body) = get(&server, csv, "Range: bytes=0-1,5-6\r\n");
    assert_eq!(
        (status, body.len()),
        (200, length),
        "several ranges: the whole file"
    );
    let (status, _, body) = get(&server, csv, "Range: bytes=0-1\r\nRange: bytes=5-6\r\n");
    assert_eq!(
        (status, body.len()),
        (200, length),
        "two Range headers: the whole file"
    );
    let (status, _, page) = get(&server, "/", "Range: bytes=0-9\r\n");
    assert_eq!(status, 200, "pages carry the script: no ranges");
    assert!(String::from_utf8_lossy(&page).contains("data-datapages-live-reload"));
}

#[test]
fn redirects_never_point_at_another_host() {
    let dir = site();
    let server = serve(&dir, &[]);
    std::fs::create_dir_all(dir.path().join("public/evil.example")).unwrap();
    std::fs::write(
        dir.path().join("public/evil.example/index.html"),
        "<body></body>",
    )
    .unwrap();
    let (status, head, _) = get(&server, "//evil.example", "");
    assert_eq!(status, 301);
    assert!(head.contains("location: /evil.example/\r\n"), "{head}");
    for target in [
        "//evil.example?x=1",
        "///evil.example",
        "//datasets",
        "/%2F%2Fevil.example",
        "/%2f/evil.example",
        "//./evil.example",
        "/.//evil.example",
    ] {
        let (status, head, _) = get(&server, target, "");
        let location = head.lines().find_map(|l| l.strip_prefix("location: "));
        if let Some(location) = location {
            assert!(
                location.starts_with('/') && !location.starts_with("//"),
                "{target} -> {location}"
            );
        }
        assert!(matches!(status, 301 | 400 | 404), "{target}: {status}");
    }
}
