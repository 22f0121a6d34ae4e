//! A file read through a window of its bytes, for rows read again by offset: seeking only
//! moves a position, and a read inside the window copies from memory, so rows asked for in
//! file order cost one read of the file per window instead of a seek and a read each.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

/// Bytes read at once: a window holds hundreds of short rows, and a row far from the
/// last one read costs one read of this size.
const WINDOW: u64 = 64 * 1024;

pub struct Window {
    file: File,
    bytes: Vec<u8>,
    /// The file offset of `bytes[0]`.
    start: u64,
    position: u64,
}

impl Window {
    pub fn new(file: File) -> Window {
        Window {
            file,
            bytes: Vec::new(),
            start: 0,
            position: 0,
        }
    }
}

impl Read for Window {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let end = self.start + self.bytes.len() as u64;
        if self.position < self.start || self.position >= end {
            self.file.seek(SeekFrom::Start(self.position))?;
            self.bytes.clear();
            (&self.file).take(WINDOW).read_to_end(&mut self.bytes)?;
            self.start = self.position;
        }
        let from = (self.position - self.start) as usize;
        let n = out.len().min(self.bytes.len() - from);
        out[..n].copy_from_slice(&self.bytes[from..from + n]);
        self.position += n as u64;
        Ok(n)
    }
}

impl Seek for Window {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let moved = match to {
            SeekFrom::Start(position) => Some(position),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
            SeekFrom::End(_) => None,
        };
        self.position = moved.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        Ok(self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_file_holds_wherever_it_seeks() {
        let data: Vec<u8> = (0..3 * WINDOW + 17).map(|i| (i % 251) as u8).collect();
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &data).unwrap();
        let mut window = Window::new(file);
        let mut whole = Vec::new();
        window.read_to_end(&mut whole).unwrap();
        assert_eq!(whole, data);
        for at in [WINDOW + 3, 5, 3 * WINDOW + 10, 3 * WINDOW + 17] {
            window.seek(SeekFrom::Start(at)).unwrap();
            let mut part = [0u8; 9];
            let n = window.read(&mut part).unwrap();
            assert_eq!(&part[..n], &data[at as usize..(at as usize + n)], "{at}");
        }
        window.seek(SeekFrom::Start(10)).unwrap();
        window.seek(SeekFrom::Current(-3)).unwrap();
        let mut one = [0u8; 1];
        window.read_exact(&mut one).unwrap();
        assert_eq!(one[0], data[7]);
    }
}
