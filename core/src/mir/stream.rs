//! A `.mir` file read in batches of whole documents, so that a reader
//! holds one batch of the file at a time rather than all of it.

use std::fs::File;
use std::io::{self, Read};

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
    /// Bytes read and not yet handed out.
    pending: Vec<u8>,
    /// Where in `pending` the search for a cut goes on (what comes before
    /// holds none).
    searched: usize,
    eof: bool,
}

/// How much is read at a time: little, so that what follows a batch's cut,
/// copied to start the next batch, is little too.
const CHUNK_BYTES: usize = 1 << 16;

impl DocumentBatches<File> {
    /// Batches of `path` of about `batch_bytes` each.
    pub fn open(path: &str, batch_bytes: usize) -> io::Result<Self> {
        Ok(DocumentBatches::new(File::open(path)?, batch_bytes))
    }
}

impl<R: Read> DocumentBatches<R> {
    /// Batches of what `reader` reads, of about `batch_bytes` each.
    pub fn new(reader: R, batch_bytes: usize) -> Self {
        let pending = Vec::with_capacity(batch_bytes + CHUNK_BYTES);
        DocumentBatches { reader, batch_bytes, offset: 0, pending, searched: 0, eof: false }
    }

    fn read_batch(&mut self) -> io::Result<Option<Batch>> {
        loop {
            if let Some(cut) = self.cut() {
                // What follows the cut starts the next batch, with room for
                // the whole batch so that it is copied only this once.
                let mut rest = Vec::with_capacity(self.pending.len() - cut + self.batch_bytes + CHUNK_BYTES);
                rest.extend_from_slice(&self.pending[cut..]);
                self.pending.truncate(cut);
                let bytes = std::mem::replace(&mut self.pending, rest);
                self.searched = 0;
                return self.batch(bytes).map(Some);
            }
            if self.eof {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                let bytes = std::mem::take(&mut self.pending);
                return self.batch(bytes).map(Some);
            }
            // `read_to_end` appends into spare capacity without zeroing it,
            // retries interrupted reads, and stops short only at the end.
            // Room for the whole chunk at once: no regrowth while reading.
            self.pending.reserve(CHUNK_BYTES);
            let want = CHUNK_BYTES as u64;
            let read = (&mut self.reader).take(want).read_to_end(&mut self.pending)?;
            self.eof = (read as u64) < want;
        }
    }

    /// Where the next batch ends: the start of the first document line at
    /// or past `batch_bytes` that follows a document start of the batch's
    /// own, once that line is read whole.
    fn cut(&mut self) -> Option<usize> {
        let bytes = &self.pending;
        if bytes.len() < self.batch_bytes {
            return None;
        }
        let first_document = line_starts(bytes, 0).find(|&at| bytes[at..].starts_with(b"---"))?;
        let from = self.searched.max(self.batch_bytes).max(first_document + 1);
        for at in line_starts(bytes, from) {
            let Some(end) = memchr::memchr(b'\n', &bytes[at..]) else {
                // The line is not read whole yet (or is the file's last).
                self.searched = at;
                return (self.eof && starts_document(&bytes[at..])).then_some(at);
            };
            if starts_document(&bytes[at..at + end + 1]) {
                return Some(at);
            }
        }
        self.searched = bytes.len();
        None
    }

    fn batch(&mut self, bytes: Vec<u8>) -> io::Result<Batch> {
        let offset = self.offset;
        self.offset += bytes.len();
        let text = String::from_utf8(bytes).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not UTF-8 at byte {}", offset + e.utf8_error().valid_up_to()),
            )
        })?;
        Ok(Batch { text, offset })
    }
}

/// The starts of the lines of `bytes` at or after `from` (a position that
/// is not itself a line start is skipped to the next one).
fn line_starts(bytes: &[u8], from: usize) -> impl Iterator<Item = usize> + '_ {
    let first = if from == 0 || bytes.get(from - 1) == Some(&b'\n') {
        Some(from)
    } else {
        memchr::memchr(b'\n', &bytes[from.min(bytes.len())..]).map(|i| from + i + 1)
    };
    let first = first.filter(|&at| at < bytes.len());
    std::iter::successors(first, move |&at| {
        memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i + 1).filter(|&next| next < bytes.len())
    })
}

impl<R: Read> Iterator for DocumentBatches<R> {
    type Item = io::Result<Batch>;

    fn next(&mut self) -> Option<io::Result<Batch>> {
        self.read_batch().transpose()
    }
}

/// The names of the machine functions in a batch after the first, found
/// without reading their headers: each document's first top-level `name: `
/// line, when it holds a plain name that YAML reads as written (a letter,
/// `_`, `.` or `$`, then those, digits and `-`). `None` when a document is
/// written otherwise (no such line, a quoted or commented name, one YAML
/// could read as another type): then only reading the headers tells.
pub fn plain_function_names(batch: &str) -> Option<Vec<&str>> {
    let bytes = batch.as_bytes();
    let document_lines = (bytes.starts_with(b"---").then_some(0).into_iter())
        .chain(memchr::memmem::find_iter(bytes, b"\n---").map(|at| at + 1));
    let documents: Vec<usize> = document_lines.filter(|&at| starts_document(line_at(bytes, at))).collect();
    let mut names = Vec::with_capacity(documents.len());
    for (k, &start) in documents.iter().enumerate() {
        let end = documents.get(k + 1).map_or(bytes.len(), |&next| next);
        // The document's first line is its `---`: the name comes after.
        let at = start + 1 + memchr::memmem::find(&bytes[start..end], b"\nname: ")?;
        let value = &batch[at + "name: ".len()..at + line_at(bytes, at).len()];
        names.push(plain_name(value.trim_end_matches([' ', '\t', '\r']).trim_start_matches(' '))?);
    }
    Some(names)
}

/// The line starting at `at`, without its line break.
fn line_at(bytes: &[u8], at: usize) -> &[u8] {
    let rest = &bytes[at..];
    &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
}

/// `value` when YAML reads it as this very string.
fn plain_name(value: &str) -> Option<&str> {
    let mut chars = value.chars();
    let first = chars.next()?;
    let plain = (first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '$'))
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'));
    let special = matches!(value.to_ascii_lowercase().as_str(), "null" | "true" | "false" | ".nan" | ".inf");
    (plain && !special).then_some(value)
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

    #[test]
    fn plain_names_are_found_and_anything_else_is_left_to_the_headers() {
        let doc = |name: &str| format!("---\nname:            {name}\nbody: |\n  bb.0:\n    name: x\n...\n");
        let text = [doc("f"), doc("_g.1$-2"), doc("main")].concat();
        assert_eq!(plain_function_names(&text), Some(vec!["f", "_g.1$-2", "main"]));
        assert_eq!(plain_function_names(""), Some(vec![]));
        assert_eq!(plain_function_names("---\nname:f\n...\n"), None, "a scalar, not a key");
        for odd in ["'f'", "\"f\"", "f # c", "1f", "null", "True", "f:g", "", "@f", "-f"] {
            assert_eq!(plain_function_names(&[doc("f"), doc(odd)].concat()), None, "{odd}");
        }
        assert_eq!(plain_function_names("---\nbody: |\n  bb.0:\n...\n"), None, "no name");
    }
}
