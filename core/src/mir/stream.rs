//! A `.mir` file read in batches of whole documents, so that a reader
//! holds one batch of the file at a time rather than all of it.

use std::fs::File;
use std::io::{self, BufRead, BufReader};

/// Whole YAML documents of a file, from the start of one `---` line to the
/// start of another (or the end of the file), at least some number of bytes
/// long unless the file ends first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The documents' text.
    pub text: String,
    /// Where the text starts in the file, in bytes.
    pub offset: usize,
}

/// An iterator over a file's [`Batch`]es. A batch is cut only at a `---`
/// line after one of its own, and never at an IR module's `--- |`, so the
/// first batch holds the IR module and what precedes it.
pub struct DocumentBatches<R> {
    reader: R,
    batch_bytes: usize,
    offset: usize,
    /// The `---` line that starts the next batch, already read.
    carried: Vec<u8>,
    done: bool,
}

impl DocumentBatches<BufReader<File>> {
    /// Batches of `path` of about `batch_bytes` each.
    pub fn open(path: &str, batch_bytes: usize) -> io::Result<Self> {
        Ok(DocumentBatches::new(BufReader::with_capacity(1 << 16, File::open(path)?), batch_bytes))
    }
}

impl<R: BufRead> DocumentBatches<R> {
    /// Batches of what `reader` reads, of about `batch_bytes` each.
    pub fn new(reader: R, batch_bytes: usize) -> Self {
        DocumentBatches { reader, batch_bytes, offset: 0, carried: Vec::new(), done: false }
    }

    fn read_batch(&mut self) -> io::Result<Option<Batch>> {
        if self.done {
            return Ok(None);
        }
        let mut bytes = std::mem::take(&mut self.carried);
        // A batch is cut only after a document of its own has started.
        let mut has_document = !bytes.is_empty();
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.reader.read_until(b'\n', &mut line)? == 0 {
                self.done = true;
                break;
            }
            if bytes.len() >= self.batch_bytes && has_document && starts_document(&line) {
                self.carried = std::mem::take(&mut line);
                break;
            }
            has_document |= line.starts_with(b"---");
            bytes.extend_from_slice(&line);
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        let offset = self.offset;
        self.offset += bytes.len();
        let text = String::from_utf8(bytes).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not UTF-8 at byte {}", offset + e.utf8_error().valid_up_to()),
            )
        })?;
        Ok(Some(Batch { text, offset }))
    }
}

impl<R: BufRead> Iterator for DocumentBatches<R> {
    type Item = io::Result<Batch>;

    fn next(&mut self) -> Option<io::Result<Batch>> {
        self.read_batch().transpose()
    }
}

/// A `---` document start, not an IR module's `--- |`.
fn starts_document(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"---") else { return false };
    let rest = rest.trim_ascii();
    rest.is_empty() || (rest.first() != Some(&b'|') && rest[0].is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batches(text: &str, size: usize) -> Vec<Batch> {
        DocumentBatches::new(text.as_bytes(), size).collect::<io::Result<_>>().expect("reads")
    }

    #[test]
    fn batches_are_whole_documents_that_add_up_to_the_file() {
        let text = "# RUN: llc\n--- |\n  define void @f() {\n  ret void\n  }\n...\n---\nname: f\nbody: |\n  bb.0:\n...\n\
                    ---\nname: g\nbody: |\n  bb.0:\n...\n---\nname: h\n...\n";
        for size in [0, 1, 20, 60, 1000] {
            let read = batches(text, size);
            let joined: String = read.iter().map(|b| b.text.as_str()).collect();
            assert_eq!(joined, text, "size {size}");
            let mut offset = 0;
            for batch in &read {
                assert_eq!(batch.offset, offset);
                assert!(batch.offset == 0 || batch.text.starts_with("---\n"), "{:?}", batch.text);
                offset += batch.text.len();
            }
            assert!(read[0].text.contains("ret void"), "size {size}");
        }
        assert_eq!(batches(text, 0).len(), 4);
        assert_eq!(batches(text, 1000).len(), 1);
    }

    #[test]
    fn an_empty_file_has_no_batch_and_bad_bytes_are_an_error() {
        assert!(batches("", 10).is_empty());
        let bad: &[u8] = b"---\nname: \xff\n";
        let error = DocumentBatches::new(bad, 10).next().expect("a batch").unwrap_err();
        assert!(error.to_string().contains("not UTF-8 at byte 10"), "{error}");
    }
}
