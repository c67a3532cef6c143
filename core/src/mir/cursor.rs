//! A character cursor over one line of a machine-function body, with the
//! small lexical helpers the body parser needs. Positions are byte offsets
//! into the body text; [`Cursor::error`] builds a located [`MirError`].

use super::MirError;
use std::ops::Range;

/// A cursor over `text[start..end]` of the body.
pub(super) struct Cursor<'a> {
    /// The whole body, which positions index.
    text: &'a str,
    /// The body's bytes up to the end of the line: what the cursor reads,
    /// so that one bounds check keeps it on the line.
    line: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str, start: usize, end: usize) -> Cursor<'a> {
        Cursor { text, line: &text.as_bytes()[..end.min(text.len())], pos: start }
    }

    #[inline]
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    #[inline]
    pub(super) fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    #[inline]
    pub(super) fn rest(&self) -> &'a str {
        &self.text[self.pos..self.line.len()]
    }

    /// The rest without its leading whitespace (as [`str::trim_start`]
    /// has it), at once when the cursor is on printable ASCII.
    #[inline]
    pub(super) fn rest_trimmed(&self) -> &'a str {
        trim_start(self.rest())
    }

    /// The rest as bytes: what the lexical helpers below compare, every
    /// token being ASCII (a byte of a multi-byte character never equals
    /// one), without checking for character boundaries at each step.
    #[inline]
    pub(super) fn rest_bytes(&self) -> &'a [u8] {
        &self.line[self.pos..]
    }

    #[inline(always)]
    pub(super) fn at_end(&mut self) -> bool {
        self.skip_spaces();
        self.pos >= self.line.len()
    }

    #[inline(always)]
    pub(super) fn skip_spaces(&mut self) {
        while let Some(b' ' | b'\t') = self.line.get(self.pos) {
            self.pos += 1;
        }
    }

    #[inline(always)]
    pub(super) fn peek(&mut self) -> Option<char> {
        self.skip_spaces();
        match self.rest_bytes().first() {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    /// The byte at the cursor (after spaces).
    #[inline(always)]
    pub(super) fn peek_byte(&mut self) -> Option<u8> {
        self.skip_spaces();
        self.rest_bytes().first().copied()
    }

    /// Consumes `token` if the rest starts with it (after spaces).
    #[inline(always)]
    pub(super) fn eat(&mut self, token: &str) -> bool {
        self.skip_spaces();
        if self.rest_bytes().starts_with(token.as_bytes()) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    /// Consumes `byte` if it comes right at the cursor, with no space
    /// before it (the `.` of a subregister, the `(` of a type).
    #[inline(always)]
    pub(super) fn eat_attached(&mut self, byte: u8) -> bool {
        if self.rest_bytes().first() == Some(&byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `word` if it is followed by a non-identifier char.
    #[inline]
    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        self.skip_spaces();
        let rest = self.rest_bytes();
        if rest.starts_with(word.as_bytes()) && !rest.get(word.len()).is_some_and(|&b| is_ident_byte(b)) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    #[inline]
    pub(super) fn expect(&mut self, token: &str, what: &str) -> Result<(), MirError> {
        if self.eat(token) { Ok(()) } else { Err(self.expected(token, what)) }
    }

    /// The error of a missing `token`, kept out of line so that
    /// [`Cursor::expect`]'s success path inlines.
    #[cold]
    fn expected(&mut self, token: &str, what: &str) -> MirError {
        self.error_here(format!("expected '{token}' {what}"))
    }

    /// The identifier at the cursor (after spaces), without consuming it.
    #[inline]
    pub(super) fn peek_ident(&mut self) -> Option<&'a str> {
        self.skip_spaces();
        let first = *self.rest_bytes().first()?;
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return None;
        }
        Some(&self.text[self.pos..self.pos + self.ident_len()])
    }

    /// The length of the run of identifier bytes at the cursor.
    #[inline]
    fn ident_len(&self) -> usize {
        let rest = self.rest_bytes();
        rest.iter().position(|&b| !is_ident_byte(b)).unwrap_or(rest.len())
    }

    /// Consumes `len` bytes.
    #[inline]
    pub(super) fn advance(&mut self, len: usize) {
        self.pos += len;
    }

    /// An identifier: letters, digits, `_`, `.`, `-` and `$` after the first.
    #[inline]
    pub(super) fn ident(&mut self) -> Option<&'a str> {
        self.ident_spanned().map(|(word, _)| word)
    }

    /// [`Self::ident`] with where it was read: from its first byte, past
    /// the spaces before it, so that an error about the word points at it.
    #[inline]
    pub(super) fn ident_spanned(&mut self) -> Option<(&'a str, Range<usize>)> {
        let word = self.peek_ident()?;
        let start = self.pos;
        self.pos += word.len();
        Some((word, start..self.pos))
    }

    /// A name after a sigil: an identifier, a number, or a quoted string
    /// (returned with its quotes).
    #[inline]
    pub(super) fn name_after_sigil(&mut self) -> Option<&'a str> {
        let rest = self.rest();
        if rest.starts_with('"') {
            let close = quoted_len(rest)?;
            self.pos += close;
            return Some(&rest[..close]);
        }
        let len = self.ident_len();
        if len == 0 {
            return None;
        }
        self.pos += len;
        Some(&rest[..len])
    }

    /// A run of decimal digits right at the cursor.
    #[inline]
    pub(super) fn digits(&mut self) -> Option<&'a str> {
        let len = self.rest_bytes().iter().take_while(|b| b.is_ascii_digit()).count();
        (len > 0).then(|| {
            let digits = &self.text[self.pos..self.pos + len];
            self.pos += len;
            digits
        })
    }

    /// A decimal integer with an optional sign.
    pub(super) fn integer(&mut self) -> Option<i128> {
        self.skip_spaces();
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-') || rest.starts_with('+'));
        let digits = rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let value = rest[..sign + digits].parse().ok()?;
        self.pos += sign + digits;
        Some(value)
    }

    /// An unsigned integer, decimal or `0x` hex.
    pub(super) fn unsigned(&mut self) -> Option<u64> {
        self.skip_spaces();
        let rest = self.rest();
        if let Some(hex) = rest.strip_prefix("0x") {
            let len = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
            let value = u64::from_str_radix(&hex[..len], 16).ok()?;
            self.pos += 2 + len;
            return Some(value);
        }
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let value = rest[..len].parse().ok()?;
        self.pos += len;
        Some(value)
    }

    /// The text up to the matching `)` of an already consumed `(`.
    pub(super) fn balanced(&mut self) -> Result<&'a str, MirError> {
        let start = self.pos;
        let mut depth = 1usize;
        let mut quoted = false;
        for (i, &b) in self.rest_bytes().iter().enumerate() {
            match b {
                b'"' => quoted = !quoted,
                b'(' if !quoted => depth += 1,
                b')' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = start + i + 1;
                        return Ok(&self.text[start..start + i]);
                    }
                }
                _ => {}
            }
        }
        Err(self.error(start..self.line.len(), "unbalanced parentheses"))
    }

    /// The text from `start` to the current position.
    pub(super) fn rest_from(&self, start: usize) -> &'a str {
        &self.text[start..self.pos]
    }

    /// The text up to the `)` matching an already consumed `(`, leaving the
    /// cursor on that `)`.
    pub(super) fn balanced_until_close(&mut self) -> Result<&'a str, MirError> {
        let inner = self.balanced()?;
        self.pos -= 1;
        Ok(inner)
    }

    /// A word of non-space, non-separator characters (for error messages).
    pub(super) fn word_span(&mut self) -> Range<usize> {
        self.skip_spaces();
        let len = self.rest().find([' ', ',', ')', '(']).unwrap_or(self.rest().len()).max(1);
        self.pos..(self.pos + len).min(self.line.len().max(self.pos + 1))
    }

    pub(super) fn error(&self, span: Range<usize>, message: impl Into<String>) -> MirError {
        MirError::new(message, span)
    }

    pub(super) fn error_here(&mut self, message: impl Into<String>) -> MirError {
        let span = self.word_span();
        MirError::new(message, span)
    }
}

/// `text` without its leading whitespace (as [`str::trim_start`] has it),
/// at once when it starts with printable ASCII.
#[inline]
pub(super) fn trim_start(text: &str) -> &str {
    match text.as_bytes().first() {
        Some(b) if b.is_ascii_graphic() => text,
        _ => text.trim_start(),
    }
}

/// `text` without its trailing whitespace (as [`str::trim_end`] has it),
/// at once when it ends with printable ASCII.
#[inline]
pub(super) fn trim_end(text: &str) -> &str {
    match text.as_bytes().last() {
        Some(b) if b.is_ascii_graphic() => text,
        _ => text.trim_end(),
    }
}

/// A byte of an identifier after its first: letters, digits, `_`, `.`, `-`
/// and `$` (no byte of a multi-byte character is one).
#[inline]
pub(super) fn is_ident_byte(b: u8) -> bool {
    IDENT_BYTES[usize::from(b)]
}

/// [`is_ident_byte`] by byte value: one load per byte of a name, which
/// the reader scans a great many of.
static IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'-' | b'$');
        b += 1;
    }
    table
};

/// Length of a leading `"..."` string including both quotes and escapes.
fn quoted_len(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(i + 1),
            _ => escaped = false,
        }
    }
    None
}
