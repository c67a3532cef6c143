//! Errors of the `.mir` reader: a message, a byte span in the file, and a
//! rendering with `file:line:column` and a caret.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};
use std::fmt;
use std::ops::Range;

/// An error at a place in a `.mir` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirError {
    /// What is wrong, in one line.
    pub message: String,
    /// Byte range in the whole file.
    pub span: Range<usize>,
    /// Further explanations ("expected one of ...").
    pub notes: Vec<String>,
}

impl MirError {
    /// An error covering `span`.
    pub fn new(message: impl Into<String>, span: Range<usize>) -> MirError {
        MirError { message: message.into(), span, notes: Vec::new() }
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> MirError {
        self.notes.push(note.into());
        self
    }

    /// 1-based line and column of the span start in `source`.
    pub fn line_column(&self, source: &str) -> (usize, usize) {
        let start = self.span.start.min(source.len());
        let before = &source[..floor_char_boundary(source, start)];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }

    /// Renders `file:line:column: error: message` with the source line and
    /// a caret, as rustc and clang do.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let file = SimpleFile::new(file_name, source);
        let start = floor_char_boundary(source, self.span.start.min(source.len()));
        let end = floor_char_boundary(source, self.span.end.clamp(start, source.len()));
        let diagnostic = Diagnostic::error()
            .with_message(&self.message)
            .with_labels(vec![Label::primary((), start..end)])
            .with_notes(self.notes.clone());
        let mut out = String::new();
        let (line, column) = self.line_column(source);
        out.push_str(&format!("{file_name}:{line}:{column}: error: {}\n", self.message));
        let mut rendered = String::new();
        if term::emit_to_string(&mut rendered, &Config::default(), &file, &diagnostic).is_ok() {
            out.push_str(&rendered);
        }
        out
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for MirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MirError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_and_caret() {
        let src = "name: f\nbody: |\n  bb.0:\n    %0:_(s33x) = COPY $x0\n";
        let at = src.find("s33x").unwrap();
        let err = MirError::new("unknown type 's33x'", at..at + 4);
        assert_eq!(err.line_column(src), (4, 10));
        let text = err.render("t.mir", src);
        assert!(text.starts_with("t.mir:4:10: error: unknown type 's33x'"), "{text}");
        assert!(text.contains("^^^^"), "{text}");
    }
}
