//! Reading and writing a file at an offset, without moving a shared cursor, on every
//! system: `pread`/`pwrite` on Unix, `ReadFile`/`WriteFile` with an offset on Windows
//! (which also move the file's cursor; nothing here reads or writes through it).

use std::fs::File;
use std::io;

/// Fills `buffer` from the bytes of `file` starting at `offset`; fails past its end.
pub fn read_exact_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
    }
    #[cfg(windows)]
    {
        let (mut buffer, mut offset) = (buffer, offset);
        while !buffer.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(file, buffer, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buffer = &mut buffer[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Writes all of `bytes` into `file` at `offset` (from any thread, each at its own offset).
pub fn write_all_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
    }
    #[cfg(windows)]
    {
        let (mut bytes, mut offset) = (bytes, offset);
        while !bytes.is_empty() {
            match std::os::windows::fs::FileExt::seek_write(file, bytes, offset) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    bytes = &bytes[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes written at scattered offsets read back from where they were put, whatever the
    /// order; a read past the end fails instead of returning short.
    #[test]
    fn bytes_come_back_from_where_they_were_written() {
        let file = tempfile::tempfile().unwrap();
        write_all_at(&file, b"world", 6).unwrap();
        write_all_at(&file, b"hello ", 0).unwrap();
        let mut buffer = [0u8; 11];
        read_exact_at(&file, &mut buffer, 0).unwrap();
        assert_eq!(&buffer, b"hello world");
        let mut middle = [0u8; 3];
        read_exact_at(&file, &mut middle, 4).unwrap();
        assert_eq!(&middle, b"o w");
        let error = read_exact_at(&file, &mut [0u8; 4], 9).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }
}
