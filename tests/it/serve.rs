//! `datapages serve` over real HTTP on loopback: pages, content types, the 404 page, path
//! escapes, symbolic links in the output, live edits, broken edits that keep the last good
//! pages, a port in use (before any build), `--bind localhost` and `::1`, the `Host` check,
//! Ctrl-C.

use crate::common;

use std::time::Duration;

use common::server::{raw_request, Server};

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_bundled_site(dir.path());
    dir
}

const FLAGSHIP: &str = "/datasets/sata-sas-nvme-measured-throughput/";
const FLAGSHIP_MD: &str = "content/datasets/sata-sas-nvme-measured-throughput.md";

#[test]
fn serves_pages_with_types_and_a_real_404() {
    let dir = site();
    let server = Server::start(dir.path());
    for (path, content_type) in [
        ("/", "text/html; charset=utf-8"),
        (FLAGSHIP, "text/html; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        (
            "/data/datasets/sata-sas-nvme-measured-throughput.csv",
            "text/csv; charset=utf-8",
        ),
        (
            "/data/datasets/sata-sas-nvme-measured-throughput.json",
            "application/json",
        ),
        ("/sitemap.xml", "application/xml"),
        ("/robots.txt", "text/plain; charset=utf-8"),
    ] {
        let (status, head, body) = server.raw("GET", path);
        assert_eq!(status, 200, "{path}");
        assert!(
            head.contains(&format!("content-type: {content_type}")),
            "{path}: {head}"
        );
        assert!(head.contains("cache-control: no-store"), "{path}: {head}");
        assert!(!body.is_empty());
    }
    let (_, _, page) = server.raw("GET", FLAGSHIP);
    let page = String::from_utf8(page).unwrap();
    assert!(
        page.contains("data-datapages-live-reload"),
        "served pages get the reload script"
    );
    let built = std::fs::read_to_string(
        dir.path()
            .join("public/datasets/sata-sas-nvme-measured-throughput/index.html"),
    )
    .unwrap();
    assert!(
        !built.contains("data-datapages-live-reload"),
        "the built file has no reload code"
    );

    let (status, head, body) = server.raw("GET", "/no/such/page/");
    assert_eq!(status, 404);
    assert!(head.contains("text/html"));
    assert!(
        String::from_utf8_lossy(&body).contains("Page not found"),
        "the site's own 404 page"
    );

    let (status, head, body) = server.raw("HEAD", FLAGSHIP);
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"));
    assert!(body.is_empty(), "HEAD has no body");

    let (status, head, _) = server.raw("GET", "/datasets");
    assert_eq!(status, 301);
    assert!(head.contains("location: /datasets/"), "{head}");
    let (status, _, _) = server.raw("POST", "/");
    assert_eq!(status, 405);
}

#[test]
fn requests_never_escape_the_output_folder() {
    let dir = site();
    std::fs::write(dir.path().join("secret.txt"), "do not serve").unwrap();
    let server = Server::start(dir.path());
    for attempt in [
        "/../secret.txt",
        "/../site.toml",
        "/%2e%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/..%2fsecret.txt",
        "/..%2Fsite.toml",
        "/datasets/../../secret.txt",
        "/style.css%00",
        "/%00",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "//etc/passwd",
        &format!("/{}", dir.path().join("secret.txt").display()),
        "http://127.0.0.1/../secret.txt",
    ] {
        let (status, _, body) = server.raw("GET", attempt);
        assert!(status == 400 || status == 404, "{attempt}: {status}");
        assert!(
            !String::from_utf8_lossy(&body).contains("do not serve"),
            "{attempt} leaked"
        );
        assert!(
            !String::from_utf8_lossy(&body).contains("base_url"),
            "{attempt} leaked site.toml"
        );
    }
}

#[test]
fn edits_show_up_and_broken_edits_keep_the_last_good_page() {
    let dir = site();
    let server = Server::start(dir.path());
    let markdown = dir.path().join(FLAGSHIP_MD);
    let original = std::fs::read_to_string(&markdown).unwrap();
    let generation = poll_generation(&server);

    std::fs::write(
        &markdown,
        original.replacen("With 128K blocks", "LIVE EDIT: with 128K blocks", 1),
    )
    .unwrap();
    server.wait_for(FLAGSHIP, Duration::from_secs(10), |page| {
        page.contains("LIVE EDIT")
    });
    let answer = poll(&server, generation, FLAGSHIP);
    assert_eq!(answer["reload"], true, "{answer}");
    // The summary line travels through a pipe and a reader thread: it may trail the answer.
    server
        .wait_printed("content/datasets/sata-sas-nvme-measured-throughput.md changed: re-rendered");

    // A broken edit: the page keeps its last good version and the poll reports the error.
    let generation = answer["generation"].as_u64().unwrap();
    let broken = original
        .replacen("With 128K blocks", "LIVE EDIT: with 128K blocks", 1)
        .replacen("kicker = ", "kicker = = ", 1);
    std::fs::write(&markdown, broken).unwrap();
    let answer = poll(&server, generation, FLAGSHIP);
    let errors = answer["errors"].as_array().unwrap();
    assert!(!errors.is_empty(), "{answer}");
    assert!(
        errors[0]["location"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{FLAGSHIP_MD}:3:")),
        "{answer}"
    );
    assert!(
        errors[0]["text"].as_str().unwrap().contains("invalid TOML"),
        "{answer}"
    );
    let (status, _, page) = server.raw("GET", FLAGSHIP);
    assert_eq!(status, 200);
    assert!(
        String::from_utf8_lossy(&page).contains("LIVE EDIT"),
        "the last good page is still served"
    );
    server.wait_printed("still serving the last good build");

    // Fixing the Markdown while breaking the CSV: now the CSV's problem is reported.
    let csv = dir
        .path()
        .join("data/datasets/sata-sas-nvme-measured-throughput.csv");
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, format!("{csv_text}ragged,row\n")).unwrap();
    std::fs::write(
        &markdown,
        original.replacen("With 128K blocks", "FIXED: with 128K blocks", 1),
    )
    .unwrap();
    let mut generation = answer["generation"].as_u64().unwrap();
    let answer = loop {
        let answer = poll(&server, generation, FLAGSHIP);
        generation = answer["generation"].as_u64().unwrap();
        if answer["errors"].to_string().contains(".csv:13") {
            break answer;
        }
    };
    let text = answer["errors"].to_string();
    assert!(
        text.contains("row has 2 fields, the header has 17"),
        "{answer}"
    );
    assert!(
        !text.contains("invalid TOML"),
        "the fixed Markdown error is gone: {answer}"
    );
    let (_, _, page) = server.raw("GET", FLAGSHIP);
    assert!(
        !String::from_utf8_lossy(&page).contains("FIXED"),
        "nothing is published while the CSV is broken"
    );

    // Fixing the CSV clears the errors and reloads the page.
    std::fs::write(&csv, &csv_text).unwrap();
    server.wait_for(FLAGSHIP, Duration::from_secs(10), |page| {
        page.contains("FIXED")
    });
    // The two writes above may reach the watcher as two rebuilds, both failing: the
    // generation the loop stopped at can be followed by another one with the same errors.
    // Polls go on from there until the fix's generation; each answer covers every
    // generation since `since`, so `reload` also says whether the page changed on the way.
    let since = generation;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let answer = loop {
        let answer = poll(&server, generation, FLAGSHIP);
        generation = answer["generation"].as_u64().unwrap();
        if answer["errors"].as_array().unwrap().is_empty() || std::time::Instant::now() > deadline {
            break poll(&server, since, FLAGSHIP);
        }
    };
    assert!(answer["errors"].as_array().unwrap().is_empty(), "{answer}");
    assert_eq!(answer["reload"], true);
}

#[test]
fn created_renamed_and_deleted_files_are_picked_up() {
    let dir = site();
    let server = Server::start(dir.path());
    let limit = Duration::from_secs(10);
    // A new folder under data/, then a dataset that uses it.
    std::fs::create_dir_all(dir.path().join("data/extra")).unwrap();
    std::fs::write(
        dir.path().join("data/extra/extra-set.csv"),
        "label,value\nalpha,12345\n",
    )
    .unwrap();
    let front = common::SMALL_FRONT.replacen(
        "title = \"Sample\"",
        "title = \"Extra set\"\ndata = \"data/extra/extra-set.csv\"\nupdated = 2026-11-29",
        1,
    );
    let markdown = format!("+++\n{front}+++\n{}", common::SMALL_BODY);
    std::fs::write(dir.path().join("content/datasets/extra-set.md"), markdown).unwrap();
    server.wait_for("/datasets/extra-set/", limit, |page| {
        page.contains("12,345")
    });
    server.wait_for("/datasets/", limit, |page| page.contains("Extra set"));

    std::fs::rename(
        dir.path().join("content/datasets/extra-set.md"),
        dir.path().join("content/datasets/extra-renamed.md"),
    )
    .unwrap();
    server.wait_for("/datasets/extra-renamed/", limit, |page| {
        page.contains("12,345")
    });
    // A rebuild writes the new page before it removes the old one: wait for the removal.
    let started = std::time::Instant::now();
    while server.raw("GET", "/datasets/extra-set/").0 != 404 {
        assert!(started.elapsed() < limit, "the old name is still served");
        std::thread::sleep(Duration::from_millis(25));
    }

    std::fs::remove_file(dir.path().join("content/datasets/extra-renamed.md")).unwrap();
    let started = std::time::Instant::now();
    while server.raw("GET", "/datasets/extra-renamed/").0 != 404 {
        assert!(
            started.elapsed() < limit,
            "the deleted dataset is still served"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    server.wait_for("/datasets/", limit, |page| !page.contains("Extra set"));
}

/// The output folder deleted while serving: the next edit writes it whole again, marker
/// included, and a later `build` into it is not refused as a foreign folder.
#[test]
fn a_deleted_output_is_written_whole_at_the_next_edit() {
    let dir = site();
    let server = Server::start(dir.path());
    let limit = Duration::from_secs(20);
    let output = dir.path().join("public");
    assert!(output.join(".datapages-output").is_file());
    std::fs::remove_dir_all(&output).unwrap();
    let md = dir.path().join(FLAGSHIP_MD);
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(
        &md,
        text.replacen("title = \"", "title = \"Deleted then ", 1),
    )
    .unwrap();
    server.wait_for(FLAGSHIP, limit, |page| page.contains("Deleted then "));
    server.wait_for("/", limit, |page| page.contains("Deleted then "));
    assert!(
        output.join(".datapages-output").is_file(),
        "the marker is back"
    );
    assert!(output.join("style.css").is_file(), "the whole site is back");
    drop(server);
    let built = common::run(&["build", "--root", dir.path().to_str().unwrap()]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
}

#[test]
fn the_default_relative_root_is_watched_too() {
    let dir = site();
    let server = Server::start_in(dir.path());
    let markdown = dir.path().join(FLAGSHIP_MD);
    let text = std::fs::read_to_string(&markdown).unwrap();
    std::fs::write(
        &markdown,
        text.replacen(
            "With 128K blocks",
            "RELATIVE ROOT EDIT: with 128K blocks",
            1,
        ),
    )
    .unwrap();
    server.wait_for(FLAGSHIP, Duration::from_secs(10), |page| {
        page.contains("RELATIVE ROOT EDIT")
    });
}

#[test]
fn a_port_in_use_is_a_clear_error_before_any_build() {
    let dir = site();
    let first = Server::start(dir.path());
    // Another site on the same port: refused before its build writes an output folder.
    let other = site();
    let result = common::run(&[
        "serve",
        "--root",
        other.path().to_str().unwrap(),
        "--port",
        &first.port.to_string(),
    ]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("already in use") && stderr.contains("--port"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    assert!(
        !other.path().join("public").exists(),
        "the build ran before the port was tried"
    );
}

/// One request with the given `Host` line (or none) over HTTP/1.0 to `address`.
fn with_host(address: &str, host: Option<&str>) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    write!(stream, "GET / HTTP/1.0\r\n{host}\r\n").unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok());
    (status.unwrap_or(0), response)
}

#[test]
fn foreign_host_names_are_refused_against_dns_rebinding() {
    let dir = site();
    let server = Server::start_with(
        dir.path(),
        &["--port", "0", "--allow-host", "preview.example.test"],
    );
    let address = format!("127.0.0.1:{}", server.port);
    let port = server.port;
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
    ] {
        let (status, response) = with_host(&address, Some(&host));
        assert_eq!(status, 403, "{host}: {response}");
        assert!(
            response.contains("DNS rebinding") && response.contains("--allow-host"),
            "{response}"
        );
        assert!(!response.contains("<html"), "{response}");
    }
    for host in [
        "localhost".to_string(),
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("127.0.0.2:{port}"),
        format!("[::1]:{port}"),
        "preview.example.test".to_string(),
        format!("PREVIEW.example.test:{port}"),
    ] {
        assert_eq!(with_host(&address, Some(&host)).0, 200, "{host}");
    }
    assert_eq!(with_host(&address, None).0, 200, "HTTP/1.0 without Host");
}

#[test]
fn bind_accepts_localhost_and_ipv6_loopback() {
    let dir = site();
    let server = Server::start_with(dir.path(), &["--port", "0", "--bind", "localhost"]);
    let (status, _) = with_host(&format!("127.0.0.1:{}", server.port), Some("localhost"));
    assert_eq!(status, 200);
    drop(server);
    if std::net::TcpListener::bind("[::1]:0").is_err() {
        eprintln!("no IPv6 loopback here: --bind ::1 not tried");
        return;
    }
    for bind in ["::1", "[::1]"] {
        let server = Server::start_with(dir.path(), &["--port", "0", "--bind", bind]);
        let address = format!("[::1]:{}", server.port);
        assert_eq!(with_host(&address, Some(&address)).0, 200, "{bind}");
    }
    let result = common::run(&[
        "serve",
        "--root",
        dir.path().to_str().unwrap(),
        "--bind",
        "example.com",
    ]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("IP address"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn symbolic_links_inside_the_output_are_not_served() {
    use std::os::unix::fs::symlink;
    let dir = site();
    std::fs::write(dir.path().join("secret.txt"), "do not serve").unwrap();
    let server = Server::start(dir.path());
    let public = dir.path().join("public");
    std::fs::create_dir(public.join("leak")).unwrap();
    symlink(
        dir.path().join("secret.txt"),
        public.join("leak/index.html"),
    )
    .unwrap();
    symlink(public.join("style.css"), public.join("alias.css")).unwrap();
    symlink(public.join("datasets"), public.join("linked")).unwrap();
    for target in [
        "/leak/",
        "/leak/index.html",
        "/alias.css",
        &format!("/linked{}", &FLAGSHIP["/datasets".len()..]),
    ] {
        let (status, _, body) = server.raw("GET", target);
        assert_eq!(status, 404, "{target}");
        assert!(
            !String::from_utf8_lossy(&body).contains("do not serve"),
            "{target} leaked"
        );
    }
    assert_eq!(server.raw("GET", "/style.css").0, 200);
}

#[test]
fn ctrl_c_stops_cleanly() {
    let dir = site();
    let mut server = Server::start(dir.path());
    // SAFETY: sending SIGINT to our own child process.
    unsafe { libc::kill(server.child.id() as i32, libc::SIGINT) };
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "serve did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    server.wait_printed("Stopped.");
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn poll_generation(server: &Server) -> u64 {
    let (_, _, body) = raw_request(server.port, "GET", "/__datapages/poll?since=0&path=/");
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    answer["generation"].as_u64().unwrap()
}

/// Long-polls for the first generation after `since`.
fn poll(server: &Server, since: u64, path: &str) -> serde_json::Value {
    let (status, _, body) = raw_request(
        server.port,
        "GET",
        &format!("/__datapages/poll?since={since}&path={path}"),
    );
    assert_eq!(status, 200);
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn a_broken_csv_is_reported_before_any_warning_and_without_the_drafts_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let csv = b"label,value\nalpha,1\nbeta,2\n";
    common::write_small_site(dir.path(), common::SMALL_FRONT, common::SMALL_BODY, csv);
    for n in 1..=3 {
        let body = "\nTODO: the lede, saying what the rows hold, from [a source](#source-src).\n\n\
            ## Method\n\nTODO: how the rows were counted.\n\nTODO: what was left out.\n\n\
            ## Limits\n\nTODO: what the rows cannot tell.\n";
        std::fs::write(
            dir.path().join(format!("content/datasets/draft-{n}.md")),
            format!(
                "+++\ndraft = true\n{}+++\n{body}",
                common::SMALL_FRONT.replacen("Sample", &format!("Draft {n}"), 1)
            ),
        )
        .unwrap();
        std::fs::write(dir.path().join(format!("data/datasets/draft-{n}.csv")), csv).unwrap();
    }
    let server = Server::start(dir.path());
    // The first build lists the drafts' warnings; its summary line ends what it prints.
    server.wait_printed("a placeholder is still to be written");
    server.wait_printed("0 errors, ");
    assert!(server.printed().contains("content/datasets/draft-1.md"));
    let before = server.printed().len();

    std::fs::write(
        dir.path().join("data/datasets/sample.csv"),
        "label,value\nalpha,1\nbeta,2,3\n",
    )
    .unwrap();
    server.wait_printed("still serving the last good build");
    let printed = server.printed()[before..].to_string();
    let error = printed
        .find("error: ")
        .unwrap_or_else(|| panic!("the error is printed:\n{printed}"));
    assert!(
        printed
            .find("warning: ")
            .is_none_or(|warning| error < warning),
        "the error comes before any warning:\n{printed}"
    );
    assert!(printed.contains("data/datasets/sample.csv:3"), "{printed}");
    assert!(
        !printed.contains("draft-"),
        "no draft's warning is printed again:\n{printed}"
    );
}
