//! Scratch measurement (not part of datapages): what would the src/ changes suggested in
//! BENCHMARKS.md buy? `cur_*` are copied from datapages src/dataset/schema.rs and scan.rs
//! at commit 23fa7df (type checks, cell formatting, row rendering; trimmed to the three
//! column types of the workload); `fast_*` are the proposed replacements. The program first
//! proves both render every row of the CSV identically and agree on every check, then times
//! them, with the floors (read, SHA-256, CSV parse alone) for scale.
//!
//!   CARGO_TARGET_DIR=/tmp/scan-proto-target cargo run --release --manifest-path \
//!     benches/scan-proto/Cargo.toml -- /tmp/datapages-bench/raw-n1-r1000000/datasets/dataset-00001.csv 5
//!
//! (the CSV comes from `python3 benches/run.py --cases rows1m`, or gen_synth.py directly).
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Read, Write};
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Debug)]
enum T {
    S,
    N,
    D,
}

// ---------------------------------------------------------------- current (verbatim)
fn is_integer(value: &str) -> bool {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
fn cur_is_number(value: &str) -> bool {
    let rest = value.strip_prefix(['-', '+']).unwrap_or(value);
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = all_digits(whole)
        && fraction.is_none_or(all_digits)
        && (!whole.is_empty() || fraction.is_some_and(|f| !f.is_empty()));
    let exponent_ok = exponent.is_none_or(is_integer);
    mantissa_ok && exponent_ok
}
fn cur_is_iso_date(value: &str) -> bool {
    let (date, time) = match value.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (value, None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    let number = |s: &str, len: usize| -> Option<u32> {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let date_ok = match parts.as_slice() {
        [y] => number(y, 4).is_some(),
        [y, m] => number(y, 4).is_some() && number(m, 2).is_some_and(|m| (1..=12).contains(&m)),
        [y, m, d] => match (number(y, 4), number(m, 2), number(d, 2)) {
            (Some(y), Some(m), Some(d)) => {
                (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
            }
            _ => false,
        },
        _ => false,
    };
    date_ok && time.is_none_or(|t| parts.len() == 3 && is_iso_time(t))
}
fn is_iso_time(value: &str) -> bool {
    let (clock, zone) = if let Some(clock) = value.strip_suffix('Z') {
        (clock, None)
    } else if let Some(i) = value.rfind(['+', '-']) {
        (&value[..i], Some(&value[i + 1..]))
    } else {
        (value, None)
    };
    let clock = clock.split('.').next().unwrap_or(clock);
    let fields: Vec<&str> = clock.split(':').collect();
    let two = |s: &str, max: u32| s.len() == 2 && s.parse::<u32>().is_ok_and(|v| v <= max);
    let clock_ok = match fields.as_slice() {
        [h, m] => two(h, 23) && two(m, 59),
        [h, m, s] => two(h, 23) && two(m, 59) && two(s, 60),
        _ => false,
    };
    let zone_ok = zone.is_none_or(|z| match z.split_once(':') {
        Some((h, m)) => two(h, 23) && two(m, 59),
        None => false,
    });
    clock_ok && zone_ok
}
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
fn cur_check(t: T, v: &str) -> bool {
    match t {
        T::S => true,
        T::N => cur_is_number(v),
        T::D => cur_is_iso_date(v),
    }
}
fn cur_format_cell(t: T, value: &str, out: &mut String) {
    if t == T::N && cur_check(t, value) && !value.contains(['e', 'E']) {
        group_thousands(value, out);
    } else {
        out.push_str(value);
    }
}
fn group_thousands(value: &str, out: &mut String) {
    let (sign, rest) = match value.strip_prefix(['-', '+']) {
        Some(rest) => (&value[..1], rest),
        None => ("", value),
    };
    let (whole, fraction) = match rest.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (rest, None),
    };
    if sign == "-" {
        out.push('-');
    }
    let len = whole.len();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (len - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if let Some(fraction) = fraction {
        let _ = write!(out, ".{fraction}");
    }
}
pub fn escape_html_into(text: &str, out: &mut String) {
    let mut last = 0;
    for (i, b) in text.bytes().enumerate() {
        let replacement = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&text[last..i]);
        out.push_str(replacement);
        last = i + 1;
    }
    out.push_str(&text[last..]);
}
fn cur_render(cols: &[T], record: &csv::ByteRecord, out: &mut String) -> bool {
    let mut had_empty = false;
    out.push_str("<tr>");
    for (index, field) in record.iter().enumerate() {
        let value = String::from_utf8_lossy(field);
        let column_type = cols.get(index).copied().unwrap_or(T::S);
        if value.is_empty() {
            had_empty = true;
            out.push_str("<td class=\"empty\">—</td>");
            continue;
        }
        out.push_str(if column_type == T::N {
            "<td class=\"num\">"
        } else {
            "<td>"
        });
        if column_type == T::N {
            let mut shown = String::new();
            cur_format_cell(column_type, &value, &mut shown);
            escape_html_into(&shown, out);
        } else {
            escape_html_into(&value, out);
        }
        out.push_str("</td>");
    }
    out.push_str("</tr>\n");
    had_empty
}

// ---------------------------------------------------------------- proposed
fn fast_is_number(v: &[u8]) -> bool {
    let n = v.len();
    let mut i = 0;
    if i < n && (v[i] == b'-' || v[i] == b'+') {
        i += 1;
    }
    let ws = i;
    while i < n && v[i].is_ascii_digit() {
        i += 1;
    }
    let whole = i - ws;
    let mut frac = 0;
    if i < n && v[i] == b'.' {
        i += 1;
        let fs = i;
        while i < n && v[i].is_ascii_digit() {
            i += 1;
        }
        frac = i - fs;
    }
    if whole == 0 && frac == 0 {
        return false;
    }
    if i < n && (v[i] == b'e' || v[i] == b'E') {
        i += 1;
        if i < n && (v[i] == b'-' || v[i] == b'+') {
            i += 1;
        }
        let es = i;
        while i < n && v[i].is_ascii_digit() {
            i += 1;
        }
        if i == es {
            return false;
        }
    }
    i == n
}
fn fast_is_iso_date(v: &str) -> bool {
    let b = v.as_bytes();
    if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
        let d = |r: std::ops::Range<usize>| -> Option<u32> {
            let mut x = 0u32;
            for &c in &b[r] {
                if !c.is_ascii_digit() {
                    return None;
                }
                x = x * 10 + (c - b'0') as u32;
            }
            Some(x)
        };
        return match (d(0..4), d(5..7), d(8..10)) {
            (Some(y), Some(m), Some(dd)) => {
                (1..=12).contains(&m) && dd >= 1 && dd <= days_in_month(y, m)
            }
            _ => false,
        };
    }
    cur_is_iso_date(v) // every other shape: the general parser
}
fn fast_check(t: T, v: &str) -> bool {
    match t {
        T::S => true,
        T::N => fast_is_number(v.as_bytes()),
        T::D => fast_is_iso_date(v),
    }
}
/// For a cell that passed the number check: same output as format_cell, no fmt, no allocation.
fn fast_format_number(value: &str, out: &mut String) {
    let b = value.as_bytes();
    if b.iter().any(|&c| c == b'e' || c == b'E') {
        out.push_str(value);
        return;
    }
    let (neg, rest) = match b.first() {
        Some(b'-') => (true, &value[1..]),
        Some(b'+') => (false, &value[1..]),
        _ => (false, value),
    };
    let dot = rest.bytes().position(|c| c == b'.').unwrap_or(rest.len());
    let whole = &rest[..dot];
    if neg {
        out.push('-');
    }
    let len = whole.len();
    if len <= 3 {
        out.push_str(whole);
    } else {
        let first = len % 3;
        if first > 0 {
            out.push_str(&whole[..first]);
        }
        let mut i = first;
        while i < len {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&whole[i..i + 3]);
            i += 3;
        }
    }
    out.push_str(&rest[dot..]);
}
fn fast_escape(text: &str, out: &mut String) {
    if !text
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\''))
    {
        out.push_str(text);
    } else {
        escape_html_into(text, out);
    }
}
/// One UTF-8 check per record; fields must start and end on char boundaries.
fn record_str(record: &csv::ByteRecord) -> Option<&str> {
    let s = std::str::from_utf8(record.as_slice()).ok()?;
    for i in 0..record.len() {
        let r = record.range(i)?;
        if !s.is_char_boundary(r.start) || !s.is_char_boundary(r.end) {
            return None;
        }
    }
    Some(s)
}
fn fast_render(cols: &[T], record: &csv::ByteRecord, out: &mut String) -> bool {
    let Some(line) = record_str(record) else {
        return cur_render(cols, record, out);
    };
    let mut had_empty = false;
    out.push_str("<tr>");
    for index in 0..record.len() {
        let value = &line[record.range(index).unwrap()];
        let t = cols.get(index).copied().unwrap_or(T::S);
        if value.is_empty() {
            had_empty = true;
            out.push_str("<td class=\"empty\">—</td>");
            continue;
        }
        if t == T::N {
            out.push_str("<td class=\"num\">");
            if fast_is_number(value.as_bytes()) {
                fast_format_number(value, out);
            } else {
                fast_escape(value, out);
            }
        } else {
            out.push_str("<td>");
            fast_escape(value, out);
        }
        out.push_str("</td>");
    }
    out.push_str("</tr>\n");
    had_empty
}

// ---------------------------------------------------------------- drivers
struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
}
impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}
/// Sends every block read to a hashing thread: SHA-256 runs on the second core.
struct TeeReader<R> {
    inner: R,
    tx: std::sync::mpsc::SyncSender<Vec<u8>>,
}
impl<R: Read> Read for TeeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let _ = self.tx.send(buf[..n].to_vec());
        Ok(n)
    }
}

const COLS: [T; 10] = [T::S, T::S, T::D, T::N, T::N, T::N, T::N, T::N, T::N, T::N];

fn scan_loop<R: Read>(r: R, fast: bool, render_rows: u64) -> (u64, usize, u64) {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .buffer_capacity(if fast { 256 * 1024 } else { 8 * 1024 })
        .from_reader(r);
    let mut rec = csv::ByteRecord::new();
    reader.read_byte_record(&mut rec).unwrap();
    let mut rows = 0u64;
    let mut html = String::new();
    let mut bad = 0u64;
    while reader.read_byte_record(&mut rec).unwrap() {
        rows += 1;
        let pos = rec.position().cloned().unwrap();
        std::hint::black_box(pos);
        if rows <= render_rows {
            if fast {
                fast_render(&COLS, &rec, &mut html);
            } else {
                cur_render(&COLS, &rec, &mut html);
            }
        }
        if fast {
            if let Some(line) = record_str(&rec) {
                for (i, t) in COLS.iter().enumerate() {
                    let v = &line[rec.range(i).unwrap()];
                    if !v.is_empty() && !fast_check(*t, v) {
                        bad += 1;
                    }
                }
                continue;
            }
        }
        for (field, t) in rec.iter().zip(COLS.iter()) {
            let v = std::str::from_utf8(field).unwrap();
            if !v.is_empty() && !cur_check(*t, v) {
                bad += 1;
            }
        }
    }
    (rows, html.len(), bad)
}

fn stream(path: &str, fast: bool, out: &mut impl Write) -> u64 {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(File::open(path).unwrap());
    let mut rec = csv::ByteRecord::new();
    let mut chunk = String::with_capacity(64 * 1024);
    let mut n = 0;
    while reader.read_byte_record(&mut rec).unwrap() {
        if fast {
            fast_render(&COLS, &rec, &mut chunk);
        } else {
            cur_render(&COLS, &rec, &mut chunk);
        }
        n += 1;
        if chunk.len() > 60 * 1024 {
            out.write_all(chunk.as_bytes()).unwrap();
            chunk.clear();
        }
    }
    out.write_all(chunk.as_bytes()).unwrap();
    n
}

type Job<'a> = (&'static str, Box<dyn FnMut() -> String + 'a>);

/// Runs every job once per round, in a rotating order (alternating, as the harness does),
/// and prints medians.
fn time_all(reps: usize, mut jobs: Vec<Job>) {
    let mut ts: Vec<Vec<f64>> = vec![vec![]; jobs.len()];
    let mut last = vec![String::new(); jobs.len()];
    for round in 0..reps {
        for k in 0..jobs.len() {
            let j = (k + round) % jobs.len();
            let t = Instant::now();
            last[j] = (jobs[j].1)();
            ts[j].push(t.elapsed().as_secs_f64());
        }
    }
    for (j, (label, _)) in jobs.iter().enumerate() {
        let t = &mut ts[j];
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "{label:<52} median {:7.3} s  min {:7.3} s   {}",
            t[t.len() / 2],
            t[0],
            last[j]
        );
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("csv path");
    let reps: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(5);
    // equivalence on every cell of the file
    {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(File::open(&path).unwrap());
        let mut rec = csv::ByteRecord::new();
        let (mut a, mut b) = (String::new(), String::new());
        let mut n = 0;
        while r.read_byte_record(&mut rec).unwrap() {
            a.clear();
            b.clear();
            cur_render(&COLS, &rec, &mut a);
            fast_render(&COLS, &rec, &mut b);
            assert_eq!(a, b);
            for (f, t) in rec.iter().zip(COLS) {
                let v = std::str::from_utf8(f).unwrap();
                assert_eq!(cur_check(t, v), fast_check(t, v), "{v}");
            }
            n += 1;
        }
        for v in [
            "5.",
            ".5",
            ".",
            "1.2.3",
            "-3e5",
            "2.5E-3",
            "1e",
            "e5",
            "--1",
            "+7",
            "1 000",
            "",
            "-",
            "12345678.9",
            "-1234",
        ] {
            assert_eq!(cur_is_number(v), fast_is_number(v.as_bytes()), "{v}");
            if cur_is_number(v) && !v.contains(['e', 'E']) {
                let (mut x, mut y) = (String::new(), String::new());
                cur_format_cell(T::N, v, &mut x);
                fast_format_number(v, &mut y);
                assert_eq!(x, y, "{v}");
            }
        }
        for v in [
            "2021",
            "2021-04",
            "2024-02-29",
            "2021-02-29",
            "2021-13-01",
            "2021-4-1",
            "abcd-ef-gh",
            "2021-00-10",
            "2021-01-00",
        ] {
            assert_eq!(cur_is_iso_date(v), fast_is_iso_date(v), "{v}");
        }
        println!("equivalence: {n} rows rendered identically; checks agree");
    }
    let mut jobs: Vec<Job> = Vec::new();
    jobs.push((
        "floor: read file (no parse)",
        Box::new(|| {
            let mut f = File::open(&path).unwrap();
            let mut buf = vec![0u8; 256 * 1024];
            let mut n = 0;
            loop {
                let k = f.read(&mut buf).unwrap();
                if k == 0 {
                    break;
                }
                n += k;
            }
            format!("{n} bytes")
        }),
    ));
    jobs.push((
        "floor: SHA-256 alone",
        Box::new(|| {
            let mut f = File::open(&path).unwrap();
            let mut h = Sha256::new();
            io::copy(&mut f, &mut h).unwrap();
            format!("{:x}", h.finalize())[..8].to_string()
        }),
    ));
    jobs.push((
        "floor: csv read_byte_record alone",
        Box::new(|| {
            let mut r = csv::ReaderBuilder::new()
                .buffer_capacity(256 * 1024)
                .from_reader(File::open(&path).unwrap());
            let mut rec = csv::ByteRecord::new();
            let mut n = 0;
            while r.read_byte_record(&mut rec).unwrap() {
                n += 1;
            }
            format!("{n} rows")
        }),
    ));
    jobs.push((
        "scan, current code (sha inline, render 1000 rows)",
        Box::new(|| {
            let h = HashingReader {
                inner: File::open(&path).unwrap(),
                hasher: Sha256::new(),
            };
            format!("{:?}", scan_loop(h, false, 1000))
        }),
    ));
    jobs.push((
        "scan, fast checks (sha inline)",
        Box::new(|| {
            let h = HashingReader {
                inner: File::open(&path).unwrap(),
                hasher: Sha256::new(),
            };
            format!("{:?}", scan_loop(h, true, 1000))
        }),
    ));
    jobs.push((
        "scan, fast checks + SHA-256 on a second thread",
        Box::new(|| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(16);
            let hasher = std::thread::spawn(move || {
                let mut h = Sha256::new();
                for b in rx {
                    h.update(&b);
                }
                h.finalize()
            });
            let r = scan_loop(
                TeeReader {
                    inner: File::open(&path).unwrap(),
                    tx,
                },
                true,
                1000,
            );
            let d = hasher.join().unwrap();
            format!("{:?} {:x}", r, d)[..40].to_string()
        }),
    ));
    jobs.push((
        "stream 1M rows, current render (to io::sink)",
        Box::new(|| format!("{}", stream(&path, false, &mut io::sink()))),
    ));
    jobs.push((
        "stream 1M rows, fast render (to io::sink)",
        Box::new(|| format!("{}", stream(&path, true, &mut io::sink()))),
    ));
    time_all(reps, jobs);
}
