//! Where `gisel llc` writes its output. A file is written as functions are
//! done and removed if the run fails, as llc's `ToolOutputFile` removes it
//! (but `/dev/null`). Standard output (or the input file itself) gets the
//! text only once the run has succeeded, since llc prints nothing when it
//! fails: until then the text is spooled, in memory and past a size in an
//! unnamed temporary file, so that memory stays bounded.

use crate::temp_file;
use std::fs::{self, File};
use std::io::{self, IoSlice, Seek, Write};
use std::path::Path;

/// How much spooled text is kept in memory before it goes to a file.
const SPOOL_IN_MEMORY: usize = 16 << 20;

/// How much text a file is written in at a time, and in at most how many
/// pieces.
const FILE_WRITE_BYTES: usize = 1 << 16;
const FILE_WRITE_PIECES: usize = 64;

/// The output of one run; dropped without [`Sink::commit`], it leaves no
/// output behind.
pub struct Sink {
    target: Target,
    committed: bool,
}

enum Target {
    /// A file written as the run goes, a few texts at a time.
    File { file: File, pending: Pending, path: String },
    /// Text held back for stdout (`None`) or a file.
    Spool { spool: Spool, path: Option<String> },
}

impl Sink {
    /// The sink for `-o output` (`-` is stdout) of a run reading `input`.
    pub fn create(output: &str, input: &str) -> Result<Sink, String> {
        let target = if output == "-" {
            Target::Spool { spool: Spool::default(), path: None }
        } else if same_file(output, input) {
            Target::Spool { spool: Spool::default(), path: Some(output.to_owned()) }
        } else {
            let file = File::create(output).map_err(|e| cannot_write(output, &e))?;
            Target::File { file, pending: Pending::default(), path: output.to_owned() }
        };
        Ok(Sink { target, committed: false })
    }

    /// Appends `text`, which a file takes as it is, without a copy.
    pub fn write(&mut self, text: String) -> Result<(), String> {
        match &mut self.target {
            Target::File { file, pending, path } => pending.add(text, file).map_err(|e| cannot_write(path, &e)),
            Target::Spool { spool, .. } => spool.write(text.as_bytes()).map_err(|e| cannot_write("output", &e)),
        }
    }

    /// Ends a successful run: everything written is flushed or copied out.
    pub fn commit(mut self) -> Result<(), String> {
        self.committed = true;
        match &mut self.target {
            Target::File { file, pending, path } => pending.write_to(file).map_err(|e| cannot_write(path, &e)),
            Target::Spool { spool, path: None } => {
                spool.copy_to(&mut io::stdout().lock()).map_err(|e| cannot_write("output", &e))
            }
            Target::Spool { spool, path: Some(path) } => {
                let mut file = File::create(&*path).map_err(|e| cannot_write(path, &e))?;
                spool.copy_to(&mut file).map_err(|e| cannot_write(path, &e))
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Target::File { path, .. } = &self.target
            && !self.committed
            && path != "/dev/null"
        {
            // Nothing to report: the run is failing with its own error.
            let _ = fs::remove_file(path);
        }
    }
}

/// Texts not yet written to a file, written together (one system call,
/// no copy) once there are enough of them.
#[derive(Default)]
struct Pending {
    texts: Vec<String>,
    bytes: usize,
}

impl Pending {
    /// Adds `text`, writing everything pending to `file` once that is
    /// [`FILE_WRITE_BYTES`] or [`FILE_WRITE_PIECES`].
    fn add(&mut self, text: String, file: &mut File) -> io::Result<()> {
        self.bytes += text.len();
        self.texts.push(text);
        if self.bytes >= FILE_WRITE_BYTES || self.texts.len() >= FILE_WRITE_PIECES {
            self.write_to(file)?;
        }
        Ok(())
    }

    /// Writes every pending text to `file`, in order.
    fn write_to(&mut self, file: &mut File) -> io::Result<()> {
        let mut slices: Vec<IoSlice<'_>> = self.texts.iter().map(|t| IoSlice::new(t.as_bytes())).collect();
        let mut unwritten = &mut slices[..];
        IoSlice::advance_slices(&mut unwritten, 0);
        while !unwritten.is_empty() {
            match file.write_vectored(unwritten) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(written) => IoSlice::advance_slices(&mut unwritten, written),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.texts.clear();
        self.bytes = 0;
        Ok(())
    }
}

/// Text held in memory, then in an unnamed temporary file once it grows.
#[derive(Default)]
struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
}

impl Spool {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(file) = &mut self.file {
            return file.write_all(bytes);
        }
        self.memory.extend_from_slice(bytes);
        if self.memory.len() > SPOOL_IN_MEMORY {
            let mut file = temporary_file()?;
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(file);
        }
        Ok(())
    }

    fn copy_to(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.file {
            Some(file) => {
                file.rewind()?;
                io::copy(file, out)?;
            }
            None => out.write_all(&self.memory)?,
        }
        out.flush()
    }
}

/// A new file in the temporary directory, unlinked at once where the
/// system allows it, so nothing is left behind.
fn temporary_file() -> io::Result<File> {
    let (path, file) = temp_file::create("spool")?;
    let _ = fs::remove_file(&path);
    Ok(file)
}

/// True when `a` and `b` name the same existing file.
fn same_file(a: &str, b: &str) -> bool {
    match (fs::canonicalize(Path::new(a)), fs::canonicalize(Path::new(b))) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn cannot_write(path: &str, error: &io::Error) -> String {
    format!("gisel: cannot write '{path}': {error}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spool_keeps_everything_written_in_order_past_its_memory() {
        let mut spool = Spool::default();
        let piece = vec![b'x'; SPOOL_IN_MEMORY / 3 + 1];
        for _ in 0..4 {
            spool.write(&piece).expect("writes");
        }
        spool.write(b"end").expect("writes");
        assert!(spool.file.is_some());
        let mut out = Vec::new();
        spool.copy_to(&mut out).expect("copies");
        assert_eq!(out.len(), piece.len() * 4 + 3);
        assert!(out.ends_with(b"xend"));
    }

    #[test]
    fn an_uncommitted_file_is_removed_and_a_committed_one_kept() -> Result<(), String> {
        let dir = std::env::temp_dir().join(format!("gisel-sink-test-{}", std::process::id()));
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join("out.mir").to_string_lossy().into_owned();
        let mut sink = Sink::create(&path, "input.mir")?;
        sink.write("partial".to_owned())?;
        drop(sink);
        assert!(!Path::new(&path).exists());
        let mut sink = Sink::create(&path, "input.mir")?;
        sink.write("whole".to_owned())?;
        sink.commit()?;
        assert_eq!(fs::read_to_string(&path).map_err(|e| e.to_string())?, "whole");
        fs::remove_dir_all(&dir).map_err(|e| e.to_string())
    }
}
