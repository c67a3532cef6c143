//! New files in the temporary directory, named after the process.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::PathBuf;

/// A new file in the temporary directory, open for reading and writing,
/// named `gisel-<process>-<n>.<suffix>`.
pub fn create(suffix: &str) -> io::Result<(PathBuf, File)> {
    let dir = std::env::temp_dir();
    for attempt in 0..100u32 {
        let path = dir.join(format!("gisel-{}-{attempt}.{suffix}", std::process::id()));
        match OpenOptions::new().read(true).write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary file name"))
}
