//! Files of the output folder for the preview: mapping request paths safely onto it, content
//! types, and streaming a file (or a page with the live-reload script spliced in before its
//! last `</body>`) in bounded chunks, so serving memory does not grow with file size.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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
/// backslashes, absolute-form URLs, and symbolic links anywhere under `root` (each component
/// is looked at without following links: a link inside the output could point anywhere).
/// A hidden name (`.git`, `.env`, the output's own marker) is not found, as a build never
/// publishes one: but `/.well-known/` (RFC 8615), which a site's `static/` may hold.
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
    let mut path = root.to_path_buf();
    // The root itself may be a link (the user's choice of output); nothing under it may.
    let Ok(mut metadata) = fs::metadata(root) else {
        return Target::NotFound;
    };
    let mut depth = 0;
    for segment in decoded.split('/') {
        match segment {
            "" | "." => continue,
            ".." => return Target::BadRequest,
            s if s.contains(':') => return Target::BadRequest,
            ".well-known" if depth == 0 => path.push(".well-known"),
            s if s.starts_with('.') => return Target::NotFound,
            s => path.push(s),
        }
        depth += 1;
        metadata = match fs::symlink_metadata(&path) {
            Ok(m) if !m.file_type().is_symlink() => m,
            _ => return Target::NotFound,
        };
    }
    if metadata.is_dir() {
        if !decoded.ends_with('/') {
            return Target::Redirect(folder_location(raw_path, request_target));
        }
        path.push("index.html");
        return match fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() => Target::File(path),
            _ => Target::NotFound,
        };
    }
    if metadata.is_file() {
        Target::File(path)
    } else {
        Target::NotFound
    }
}

/// Opens a file that [`resolve`] found, refusing it if it has been replaced by a symbolic
/// link since (or is one): the file opened must be the one the path names without
/// following links.
pub fn open(path: &Path) -> io::Result<File> {
    let refused = || io::Error::new(io::ErrorKind::NotFound, "not a plain file");
    let named = fs::symlink_metadata(path)?;
    if !named.is_file() {
        return Err(refused());
    }
    let file = File::open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let opened = file.metadata()?;
        let named = fs::symlink_metadata(path)?;
        if !named.is_file() || (opened.dev(), opened.ino()) != (named.dev(), named.ino()) {
            return Err(refused());
        }
    }
    Ok(file)
}

/// Where a folder requested without its trailing slash is redirected: its segments as sent,
/// joined by single slashes, so the Location never starts with `//` (which a browser reads
/// as another host: `//evil.example` must not send anyone to evil.example).
fn folder_location(raw_path: &str, request_target: &str) -> String {
    let query = request_target.strip_prefix(raw_path).unwrap_or_default();
    let segments: Vec<&str> = raw_path
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if segments.is_empty() {
        format!("/{query}")
    } else {
        format!("/{}/{query}", segments.join("/"))
    }
}

/// Decodes `%XX` escapes; `None` for malformed escapes or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
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
        Some("jsonld") => "application/ld+json",
        Some("ttl") => "text/turtle; charset=utf-8",
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

/// The unit of reading and writing: large enough for few system calls, small enough that
/// a hundred connections streaming at once stay within a few megabytes.
const CHUNK: usize = 64 * 1024;

/// Where the last `</body>` of the open file starts, when it lies in the file's last
/// `CHUNK` bytes, where a page closes its body: one bounded read whatever the page's size,
/// so its first bytes go out at once. A `</body>` further up (a page that closes its body
/// near the top of a 1 GB file) is not searched for: the script then goes at the very end,
/// where browsers run it just the same.
pub fn last_body_end<R: Read + Seek>(file: &mut R, length: u64) -> io::Result<Option<u64>> {
    const NEEDLE: &[u8] = b"</body>";
    let start = length.saturating_sub(CHUNK as u64);
    let mut window = vec![0; (length - start) as usize];
    file.seek(SeekFrom::Start(start))?;
    file.read_exact(&mut window)?;
    let found = window.windows(NEEDLE.len()).rposition(|w| w == NEEDLE);
    Ok(found.map(|at| start + at as u64))
}

/// Writes a response as a sequence of pieces through one bounded buffer: a small response
/// (head and body) leaves in a single write, which avoids the Nagle/delayed-ACK stall of a
/// head and body sent apart; a large file leaves in `CHUNK`-sized writes.
pub struct ChunkWriter<'a, W: Write> {
    out: &'a mut W,
    buffer: Vec<u8>,
}

impl<'a, W: Write> ChunkWriter<'a, W> {
    pub fn new(out: &'a mut W) -> Self {
        ChunkWriter {
            out,
            buffer: Vec::with_capacity(CHUNK),
        }
    }

    pub fn bytes(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            let room = CHUNK.saturating_sub(self.buffer.len()).max(1);
            let (now, rest) = bytes.split_at(room.min(bytes.len()));
            self.buffer.extend_from_slice(now);
            bytes = rest;
            if self.buffer.len() >= CHUNK {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Copies `length` bytes of `file` from `from`; a file that ends early (replaced while
    /// being sent) is an error, so the caller closes the connection rather than send a
    /// response shorter than its Content-Length.
    pub fn file(&mut self, file: &mut File, from: u64, length: u64) -> io::Result<()> {
        file.seek(SeekFrom::Start(from))?;
        let mut left = length;
        while left > 0 {
            if self.buffer.len() >= CHUNK {
                self.flush()?;
            }
            let filled = self.buffer.len();
            let want = (CHUNK - filled).min(usize::try_from(left).unwrap_or(CHUNK));
            self.buffer.resize(filled + want, 0);
            let read = match file.read(&mut self.buffer[filled..]) {
                Ok(read) => read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    self.buffer.truncate(filled);
                    continue;
                }
                Err(e) => {
                    self.buffer.truncate(filled);
                    return Err(e);
                }
            };
            self.buffer.truncate(filled + read);
            if read == 0 && want > 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the file got shorter while being sent",
                ));
            }
            left -= read as u64;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        if !self.buffer.is_empty() {
            self.out.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }
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
        let real = root.clone();
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
    fn hidden_files_in_the_output_are_not_found() {
        let dir = site();
        let root = dir.path().join("public");
        for folder in [".git", ".well-known", "datasets/.hidden", "datasets/x"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        for file in [
            ".git/config",
            ".datapages-output",
            ".env",
            "datasets/.hidden/index.html",
            "datasets/x/.env",
            ".well-known/security.txt",
            ".well-known/.secret",
        ] {
            std::fs::write(root.join(file), "x").unwrap();
        }
        for asked in [
            "/.git/config",
            "/.datapages-output",
            "/%2eenv",
            "/.env",
            "/datasets/.hidden/",
            "/datasets/x/.env",
            "/.well-known/.secret",
            "/datasets/.well-known/security.txt",
        ] {
            assert_eq!(resolve(&root, asked), Target::NotFound, "{asked}");
        }
        assert_eq!(
            resolve(&root, "/.well-known/security.txt"),
            Target::File(root.join(".well-known/security.txt"))
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
    fn symlinks_under_the_folder_are_not_followed() {
        use std::os::unix::fs::symlink;
        let dir = site();
        let root = dir.path().join("public");
        symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
        symlink(root.join("style.css"), root.join("inside.css")).unwrap();
        symlink(root.join("datasets"), root.join("linked")).unwrap();
        std::fs::create_dir(root.join("leak")).unwrap();
        symlink(dir.path().join("secret.txt"), root.join("leak/index.html")).unwrap();
        for target in ["/link.txt", "/inside.css", "/linked/x/", "/leak/"] {
            assert_eq!(resolve(&root, target), Target::NotFound, "{target}");
        }
        assert!(open(&root.join("link.txt")).is_err());
        // A link as the output folder itself is the user's choice, and served.
        symlink(&root, dir.path().join("out")).unwrap();
        let out = dir.path().join("out");
        assert_eq!(
            resolve(&out, "/style.css"),
            Target::File(out.join("style.css"))
        );
        assert!(open(&out.join("style.css")).is_ok());
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
    fn folder_redirects_never_leave_the_host() {
        let dir = site();
        let root = dir.path().join("public");
        std::fs::create_dir_all(root.join("evil.example")).unwrap();
        for (asked, location) in [
            ("//evil.example", "/evil.example/"),
            ("//evil.example?x=1", "/evil.example/?x=1"),
            ("///evil.example", "/evil.example/"),
            ("/./evil.example", "/evil.example/"),
            ("/.", "/"),
            ("/%2fevil.example", "/%2fevil.example/"),
        ] {
            assert_eq!(
                resolve(&root, asked),
                Target::Redirect(location.into()),
                "{asked}"
            );
        }
    }

    #[test]
    fn the_last_body_end_is_found_in_the_last_window_only() {
        for (text, expected) in [
            ("<body>x</body>".to_string(), Some(7)),
            ("no body".to_string(), None),
            ("</body></body>tail".to_string(), Some(7)),
            // The last window starts exactly at the needle, then one byte after it.
            (format!("a</body>{}", "b".repeat(CHUNK - 7)), Some(1)),
            (format!("a</body>{}", "b".repeat(CHUNK - 6)), None),
        ] {
            let found = last_body_end(&mut io::Cursor::new(&text), text.len() as u64).unwrap();
            assert_eq!(found, expected, "{}", &text[..text.len().min(30)]);
        }
    }

    /// Counts the bytes read through it.
    struct Counted<R> {
        inner: R,
        read: u64,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let read = self.inner.read(buffer)?;
            self.read += read as u64;
            Ok(read)
        }
    }

    impl<R: Seek> Seek for Counted<R> {
        fn seek(&mut self, position: SeekFrom) -> io::Result<u64> {
            self.inner.seek(position)
        }
    }

    #[test]
    fn finding_where_the_script_goes_reads_one_window_whatever_the_page() {
        // `</body>` near the top of a large page: reading back to it would delay the first
        // byte by the time it takes to read the whole page.
        let page = format!("<body></body>{}", "c".repeat(40 * CHUNK));
        let mut file = Counted {
            inner: io::Cursor::new(page.as_bytes()),
            read: 0,
        };
        assert_eq!(last_body_end(&mut file, page.len() as u64).unwrap(), None);
        assert!(file.read <= CHUNK as u64, "read {} bytes", file.read);
    }

    #[test]
    fn chunks_join_pieces_and_refuse_short_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        let data: Vec<u8> = (0..3 * CHUNK + 5).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let mut file = File::open(&path).unwrap();
        let mut out = Vec::new();
        let mut writer = ChunkWriter::new(&mut out);
        writer.bytes(b"head").unwrap();
        writer.file(&mut file, 10, (2 * CHUNK) as u64).unwrap();
        writer.bytes(b"middle").unwrap();
        writer.file(&mut file, 0, 3).unwrap();
        writer.flush().unwrap();
        let mut expected = b"head".to_vec();
        expected.extend_from_slice(&data[10..10 + 2 * CHUNK]);
        expected.extend_from_slice(b"middle");
        expected.extend_from_slice(&data[..3]);
        assert_eq!(out, expected);
        let mut sink = Vec::new();
        let mut writer = ChunkWriter::new(&mut sink);
        let error = writer
            .file(&mut file, 0, data.len() as u64 + 1)
            .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }
}
