//! The input file of a run, named as llc names it. `-` is standard input,
//! which llc reads with `-x mir` and calls `<stdin>`; since a run reads
//! its file more than once (later headers, an error's line), standard
//! input is first copied to a file of its own, removed when the run ends.

use crate::temp_file;
use std::fs;
use std::io;
use std::path::PathBuf;

/// Where a run reads its input, and the name it gives it.
pub struct Input {
    /// The file read.
    pub path: String,
    /// The name in the module's ID, `source_filename` and messages.
    pub name: String,
    /// The copy of standard input, removed on drop.
    spool: Option<PathBuf>,
}

impl Input {
    /// The input the argument `arg` names: a file, or `-` for standard
    /// input.
    pub fn open(arg: &str) -> Result<Input, String> {
        if arg != "-" {
            return Ok(Input { path: arg.to_owned(), name: arg.to_owned(), spool: None });
        }
        let cannot = |e: io::Error| format!("gisel: cannot read standard input: {e}");
        let (spool, mut file) = temp_file::create("stdin.mir").map_err(cannot)?;
        // The spool is removed on every path from here, by drop.
        let input =
            Input { path: spool.to_string_lossy().into_owned(), name: "<stdin>".to_owned(), spool: Some(spool) };
        io::copy(&mut io::stdin().lock(), &mut file).map_err(cannot)?;
        Ok(input)
    }
}

impl Drop for Input {
    fn drop(&mut self) {
        if let Some(spool) = &self.spool {
            // Nothing to report: the file is only a copy, in the
            // temporary directory.
            let _ = fs::remove_file(spool);
        }
    }
}
