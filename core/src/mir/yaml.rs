//! A small YAML tree with byte spans, read with `serde-saphyr`, and the
//! pieces of LLVM's YAML writer (`llvm::yaml::Output`) that `.mir` headers
//! use: padded keys, quoting and wrapped flow mappings.
//!
//! Scalars are kept as text, as LLVM's YAML I/O keeps them: `0x10` stays
//! `0x10` and `yes` stays `yes`, so the typed conversion in
//! [`super::header`] decides what is a number or a boolean, with LLVM's
//! messages ("invalid number", "invalid boolean").

use super::MirError;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// One YAML node with its byte span in the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node<'t> {
    pub kind: NodeKind<'t>,
    pub span: Range<usize>,
}

/// The shape of a [`Node`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NodeKind<'t> {
    /// A scalar, as text (quotes removed, escapes decoded): borrowed from
    /// the file where it is written as it reads.
    Scalar(Cow<'t, str>),
    /// An empty value or `~`/`null`.
    Null,
    Seq(Vec<Node<'t>>),
    Map(Vec<(Node<'t>, Node<'t>)>),
}

impl Node<'_> {
    /// The scalar text, or `None` for collections. Null reads as "".
    pub fn scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar(s) => Some(s),
            NodeKind::Null => Some(""),
            _ => None,
        }
    }
}

/// What serde-saphyr hands us before spans are turned into byte offsets.
enum Raw {
    Str(String),
    /// A plain scalar the YAML crate typed (number, boolean); its text is
    /// taken back from the source.
    Typed(String),
    Null,
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Typed(v.to_string()))
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

/// Maps YAML (line, column) pairs of one document to byte offsets in the file.
struct Locator<'a> {
    text: &'a str,
    base: usize,
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Locator { text, base, line_starts }
    }

    /// Byte range in the file of `loc` (1-based, character columns).
    fn range(&self, loc: &Location) -> Range<usize> {
        let span = loc.span();
        if let (Some(off), Some(len)) = (span.byte_offset(), span.byte_len()) {
            let start = usize::try_from(off).unwrap_or(usize::MAX).min(self.text.len());
            let len = usize::try_from(len).unwrap_or(0);
            let end = start.saturating_add(len).min(self.text.len());
            return self.base + start..self.base + end;
        }
        let start = self.offset_of(loc.line(), loc.column());
        let len = usize::try_from(span.len()).unwrap_or(0);
        let end = self.text[start..].char_indices().nth(len).map_or(self.text.len(), |(i, _)| start + i);
        self.base + start..self.base + end.max(start)
    }

    /// Byte offset in the document of a 1-based (line, character column).
    fn offset_of(&self, line: u64, column: u64) -> usize {
        let line = usize::try_from(line.max(1) - 1).unwrap_or(usize::MAX);
        let Some(&start) = self.line_starts.get(line) else {
            return self.text.len();
        };
        let column = usize::try_from(column.max(1) - 1).unwrap_or(usize::MAX);
        let rest = &self.text[start..];
        let line_len = rest.find('\n').unwrap_or(rest.len());
        rest[..line_len].char_indices().nth(column).map_or(start + line_len, |(i, _)| start + i)
    }

    fn convert(&self, raw: Spanned<Raw>) -> Node<'static> {
        let span = self.range(&raw.referenced);
        let kind = match raw.value {
            Raw::Str(s) => NodeKind::Scalar(Cow::Owned(s)),
            Raw::Typed(fallback) => {
                let text = self.base_text(&span).map(str::trim).filter(|t| !t.is_empty());
                NodeKind::Scalar(Cow::Owned(text.map_or(fallback, str::to_owned)))
            }
            Raw::Null => NodeKind::Null,
            Raw::Seq(items) => NodeKind::Seq(items.into_iter().map(|i| self.convert(i)).collect()),
            Raw::Map(entries) => {
                NodeKind::Map(entries.into_iter().map(|(k, v)| (self.convert(k), self.convert(v))).collect())
            }
        };
        Node { kind, span }
    }

    fn base_text(&self, span: &Range<usize>) -> Option<&'a str> {
        self.text.get(span.start.checked_sub(self.base)?..span.end.checked_sub(self.base)?)
    }
}

/// Parses one YAML document (`text`, found at byte `base` of the file).
pub(crate) fn parse_yaml(text: &str, base: usize) -> Result<Node<'static>, MirError> {
    let locator = Locator::new(text, base);
    match serde_saphyr::from_str::<Spanned<Raw>>(text) {
        Ok(raw) => Ok(locator.convert(raw)),
        Err(err) => {
            let plain = err.without_snippet().to_string();
            let message = match plain.rfind(" at line ") {
                Some(i) => plain[..i].to_owned(),
                None => plain,
            };
            let span = match err.location() {
                Some(loc) if loc.line() > 0 => locator.range(&loc),
                _ => base..base,
            };
            Err(MirError::new(message, span))
        }
    }
}

// ---------------------------------------------------------------------------
// Output, after llvm::yaml::Output.

/// Is `s` one of YAML's numeric spellings (as LLVM's `isNumeric` sees it)?
fn is_numeric(s: &str) -> bool {
    if s.is_empty() || s == "+" || s == "-" {
        return false;
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let tail = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(tail, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if let Some(hex) = s.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let b = tail.as_bytes();
    if b.first() == Some(&b'.') && b.get(1).is_none_or(|c| !c.is_ascii_digit()) {
        return false;
    }
    if matches!(b.first(), Some(b'e' | b'E')) {
        return false;
    }
    let digits = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count() + i;
    let mut i = digits(0);
    if i == b.len() {
        return true;
    }
    if b[i] == b'.' {
        i = digits(i + 1);
        if i == b.len() {
            return true;
        }
    }
    if !matches!(b[i], b'e' | b'E') {
        return false;
    }
    i += 1;
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    i < b.len() && digits(i) == b.len()
}

/// How a scalar must be quoted on output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Quoting {
    None,
    Single,
    Double,
}

fn needs_quotes(s: &str) -> Quoting {
    let Some(&first) = s.as_bytes().first() else {
        return Quoting::Single;
    };
    let mut q = Quoting::None;
    let last = s.as_bytes()[s.len() - 1];
    if first.is_ascii_whitespace() || last.is_ascii_whitespace() {
        q = Quoting::Single;
    }
    if matches!(s, "null" | "Null" | "NULL" | "~" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
        || is_numeric(s)
    {
        q = Quoting::Single;
    }
    if br#"-?:\,[]{}#&*!|>'"%@`"#.contains(&first) {
        q = Quoting::Single;
    }
    for c in s.bytes() {
        match c {
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            c if c.is_ascii_alphanumeric() => {}
            b'\n' | b'\r' | 0x7f => return Quoting::Double,
            c if c <= 0x1f || c & 0x80 != 0 => return Quoting::Double,
            _ => q = Quoting::Single,
        }
    }
    q
}

/// `s` as LLVM's YAML writer prints a string scalar; borrowed when it
/// prints as it is.
pub(crate) fn quoted(s: &str) -> Cow<'_, str> {
    // The commonest scalars (an empty preferred register, the `_` class),
    // answered before the full rules.
    match s {
        "" => return Cow::Borrowed("''"),
        "_" => return Cow::Borrowed("_"),
        _ => {}
    }
    match needs_quotes(s) {
        Quoting::None => Cow::Borrowed(s),
        Quoting::Single if s.is_empty() => Cow::Borrowed("''"),
        Quoting::Single => Cow::Owned(format!("'{}'", s.replace('\'', "''"))),
        Quoting::Double => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        out.push_str(&format!("\\x{:02X}", c as u32));
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
            Cow::Owned(out)
        }
    }
}

/// Writes `indent` spaces, `key:` and pads the value to column `indent + 17`
/// (one space when the key is 16 characters or longer), then `value`.
pub(crate) fn padded(out: &mut String, indent: usize, key: &str, value: &str) {
    push_spaces(out, indent);
    out.push_str(key);
    out.push(':');
    let pad = if key.len() < 16 { 16 - key.len() } else { 1 };
    push_spaces(out, pad);
    out.push_str(value);
    out.push('\n');
}

/// Appends `n` spaces.
fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                ";
    let mut left = n;
    while left > 0 {
        let step = left.min(SPACES.len());
        out.push_str(&SPACES[..step]);
        left -= step;
    }
}

/// A flow mapping `{ k: v, ... }` being written at the end of `out`, wrapped
/// as LLVM wraps it: before a key, when the line is already past column 70,
/// a new line indented two past the column of the `{`.
pub(crate) struct FlowMap<'a> {
    out: &'a mut String,
    start_column: usize,
    /// Where the last line started, as of the last key: only the text
    /// written since is searched for a line break.
    line_start: usize,
    first: bool,
}

impl<'a> FlowMap<'a> {
    /// Opens `{ ` at the current end of `out`.
    pub fn open(out: &'a mut String) -> Self {
        let line_start = out.rfind('\n').map_or(0, |i| i + 1);
        let start_column = out.len() - line_start;
        out.push_str("{ ");
        FlowMap { out, start_column, line_start, first: true }
    }

    /// Writes the key (with the separator and the wrapping), then `value`.
    pub fn entry(&mut self, key: &str, value: &str) {
        self.key(key);
        self.out.push_str(value);
    }

    /// Writes the separator, the wrapping and `key: `; the caller writes the
    /// value into [`FlowMap::out`].
    pub fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        if let Some(i) = self.out[self.line_start..].rfind('\n') {
            self.line_start += i + 1;
        }
        if self.out.len() - self.line_start > 70 {
            self.out.push('\n');
            self.line_start = self.out.len();
            self.out.extend(std::iter::repeat_n(' ', self.start_column + 2));
        }
        self.out.push_str(key);
        self.out.push_str(": ");
    }

    /// The output, to write a nested value.
    pub fn out(&mut self) -> &mut String {
        self.out
    }

    /// Writes ` }`.
    pub fn close(self) {
        self.out.push_str(" }");
    }
}

/// `[ a, b ]` for a flow sequence of strings (`[  ]` when empty, as llc
/// prints `flags`), quoting each item.
pub(crate) fn flow_seq(items: &[String]) -> Cow<'static, str> {
    if items.is_empty() {
        return Cow::Borrowed("[  ]");
    }
    let quoted: Vec<Cow<'_, str>> = items.iter().map(|s| quoted(s)).collect();
    Cow::Owned(format!("[ {} ]", quoted.join(", ")))
}

/// A flow sequence of already-quoted `items` whose `[` is at column
/// `start`, wrapped as LLVM's YAML writer wraps it: once a line passes
/// column 70, the next item goes on a new line indented two past `start`
/// (the `, ` before the break stays at the end of the line).
pub(crate) fn wrapped_flow_seq(items: &[Cow<'_, str>], start: usize) -> String {
    if items.is_empty() {
        return "[  ]".to_owned();
    }
    let mut out = String::from("[ ");
    let mut column = start + 2;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
            column += 2;
        }
        if column > 70 {
            out.push('\n');
            push_spaces(&mut out, start + 2);
            column = start + 2;
        }
        out.push_str(item);
        column += item.len();
    }
    out.push_str(" ]");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_flow_sequences_wrap_past_column_70() {
        let items: Vec<Cow<'_, str>> = (3..15).map(|n| Cow::Owned(format!("'%bb.{n}'"))).collect();
        let text = wrapped_flow_seq(&items, 23);
        let expected = "[ '%bb.3', '%bb.4', '%bb.5', '%bb.6', '%bb.7', '%bb.8', \n                         \
                        '%bb.9', '%bb.10', '%bb.11', '%bb.12', '%bb.13', \n                         '%bb.14' ]";
        assert_eq!(text, expected);
        assert_eq!(wrapped_flow_seq(&[], 23), "[  ]");
    }

    #[test]
    fn quoting_follows_llvm() {
        assert_eq!(quoted(""), "''");
        assert_eq!(quoted("_"), "_");
        assert_eq!(quoted("gpr32"), "gpr32");
        assert_eq!(quoted("$w0"), "'$w0'");
        assert_eq!(quoted("%bb.0"), "'%bb.0'");
        assert_eq!(quoted("i32 7"), "i32 7");
        assert_eq!(quoted("double 1.000000e+00"), "'double 1.000000e+00'");
        assert_eq!(quoted("<4 x i32> zeroinitializer"), "'<4 x i32> zeroinitializer'");
        assert_eq!(quoted("12"), "'12'");
        assert_eq!(quoted("true"), "'true'");
        assert_eq!(quoted("it's"), "'it''s'");
    }

    #[test]
    fn numeric_spellings() {
        for s in ["0", "-1", "1.5", ".5", "1e3", "1.0E-2", "0x1F", "0o17", ".inf", "-.Inf", ".nan"] {
            assert!(is_numeric(s), "{s}");
        }
        for s in ["", "-", "e3", "1e", "0x", "1.2.3", "abc", ".", ".e1"] {
            assert!(!is_numeric(s), "{s}");
        }
    }

    #[test]
    fn padded_keys() {
        let mut out = String::new();
        padded(&mut out, 0, "name", "f");
        padded(&mut out, 2, "hasStackMap", "false");
        padded(&mut out, 0, "tracksRegLiveness", "true");
        assert_eq!(out, "name:            f\n  hasStackMap:     false\ntracksRegLiveness: true\n");
    }

    #[test]
    fn spans_are_file_offsets() {
        let doc = "name: f\nalignment: 0x10\nregisters:\n  - { id: 0, class: '_' }\n";
        let node = parse_yaml(doc, 100).unwrap_or_else(|e| panic!("{e:?}"));
        let NodeKind::Map(entries) = &node.kind else { panic!("not a map") };
        assert_eq!(entries[1].1.scalar(), Some("0x10"));
        assert_eq!(entries[1].1.span, 100 + 19..100 + 23);
        let err = parse_yaml("a: 1\n  b: 2\n", 10).unwrap_err();
        assert_eq!(err.span.start, 10 + 8);
        assert!(!err.message.contains("line"), "{}", err.message);
    }
}
