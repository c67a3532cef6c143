//! Splits a `.mir` file into its YAML documents (an optional LLVM IR module
//! `--- |`, then one document per machine function) and reads each machine
//! function's header; the `body: |` block is handed back as text with the
//! file offset of each of its lines, for the body parser.

use super::MirError;
use super::header::FunctionHeader;
use super::header_read::read_header;
use super::yaml::{Node, parse_yaml};
use super::yaml_fast::parse_header;
use rustc_hash::FxHashMap;
use std::ops::Range;

/// A parsed `.mir` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirFile {
    /// The dedented text of the IR module document, if the file has one.
    pub ir_module: Option<String>,
    /// Byte span of the IR module document (from its `---`).
    pub ir_module_span: Option<Range<usize>>,
    /// The machine functions, in file order.
    pub functions: Vec<FunctionDoc>,
}

/// One machine-function document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDoc {
    /// Every key but `body`.
    pub header: FunctionHeader,
    /// The `body` block, if present.
    pub body: Option<Body>,
    /// Byte span of the document, from `---` through `...` (or the next
    /// document).
    pub span: Range<usize>,
}

/// Where the text of a `body: |` block is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A block that YAML reads exactly as its lines stand in the file but
    /// for their common indentation (printable ASCII, no tabs), the usual
    /// shape: the byte range of its lines, read in place, without a copy.
    InFile {
        /// The lines of the block, from the first character of the line
        /// after `body: |` to the end of the document's last line.
        lines: Range<usize>,
        /// The indentation YAML removes from each line.
        indent: usize,
    },
    /// Any other block, as YAML reads it.
    Read(BodyText),
}

impl Body {
    /// The block's text as YAML reads it: [`Body::InFile`] lines dedented
    /// and clipped to one final newline. `source` is the whole file.
    pub fn text(&self, source: &str) -> BodyText {
        match self {
            Body::InFile { lines: range, indent } => block_body(source, &lines_in(source, range.clone()), *indent, ' '),
            Body::Read(text) => text.clone(),
        }
    }
}

/// The text of a `body: |` block, dedented, with where each line is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodyText {
    /// The body as YAML reads it (indentation removed, one final newline).
    pub text: String,
    /// For each line of `text`, the byte offset in the whole file of its
    /// first character (after the removed indentation).
    pub line_offsets: Vec<usize>,
}

impl BodyText {
    /// The file byte offset of a 0-based (line, byte column) of `text`.
    pub fn file_offset(&self, line: usize, column: usize) -> usize {
        match self.line_offsets.get(line) {
            Some(start) => start + column,
            None => self.line_offsets.last().map_or(0, |s| s + column),
        }
    }

    /// The file byte offset of a byte offset into `text`.
    pub fn file_offset_of(&self, text_offset: usize) -> usize {
        let before = &self.text.as_bytes()[..text_offset.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        self.file_offset(line, text_offset.min(self.text.len()) - line_start)
    }
}

/// One line of the source: byte range without the line break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line {
    start: usize,
    end: usize,
    next: usize,
}

impl Line {
    /// The line of `bytes` from `start` to the line feed at `feed`, or to
    /// the end of `bytes` without one; a `\r` before its end is no part of
    /// its text.
    fn new(bytes: &[u8], start: usize, feed: Option<usize>) -> Line {
        let (stop, next) = feed.map_or((bytes.len(), bytes.len()), |feed| (feed, feed + 1));
        let end = if stop > start && bytes[stop - 1] == b'\r' { stop - 1 } else { stop };
        Line { start, end, next }
    }
}

/// The lines of `source`.
fn lines(source: &str) -> Vec<Line> {
    let bytes = source.as_bytes();
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
    let mut start = 0;
    for feed in memchr::memchr_iter(b'\n', bytes) {
        out.push(Line::new(bytes, start, Some(feed)));
        start = feed + 1;
    }
    if start < bytes.len() {
        out.push(Line::new(bytes, start, None));
    }
    out
}

/// The lines of `source[range]`, placed in `source`; `range` starts at a
/// line start.
fn lines_in(source: &str, range: Range<usize>) -> Vec<Line> {
    let at = range.start;
    lines(&source[range])
        .into_iter()
        .map(|l| Line { start: at + l.start, end: at + l.end, next: at + l.next })
        .collect()
}

/// The line of `source` starting at byte `start`.
fn line_at(source: &str, start: usize) -> Line {
    let bytes = source.as_bytes();
    Line::new(bytes, start, memchr::memchr(b'\n', &bytes[start..]).map(|at| start + at))
}

/// The last line of `source` before `end`, a line start (or the end of
/// `source`) after at least one line.
fn line_before(source: &str, end: usize) -> Line {
    let bytes = &source.as_bytes()[..end];
    let text_end = end - usize::from(bytes.ends_with(b"\n"));
    line_at(source, memchr::memrchr(b'\n', &bytes[..text_end]).map_or(0, |at| at + 1))
}

/// The text of `line`.
fn text(source: &str, line: Line) -> &str {
    &source[line.start..line.end]
}

/// True when the line `text` is the document marker `marker`.
fn is_marker(text: &str, marker: &str) -> bool {
    text.strip_prefix(marker).is_some_and(|rest| matches!(rest.as_bytes().first(), None | Some(b' ' | b'\t')))
}

/// True when the line `text` holds only blanks or a comment.
fn is_blank_or_comment(text: &str) -> bool {
    let t = text.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// A document, in byte offsets: its `---` line (if any), its first line
/// after that, and the line that ends it (or the end of the source), plus
/// whether `...` closed it.
#[derive(Debug, PartialEq, Eq)]
struct RawDoc {
    marker: Option<usize>,
    first: usize,
    end: usize,
    closed: bool,
    /// Its last line (after `---`) at column 0 holding more than blanks:
    /// where a plain body block's key must be.
    last_top_level: Option<usize>,
}

impl RawDoc {
    /// A document from line `first`, after a `---` line at `marker` or
    /// without one.
    fn new(source: &str, marker: Option<usize>, first: usize) -> RawDoc {
        RawDoc { marker, first, end: source.len(), closed: false, last_top_level: None }
    }

    /// Where the document starts: at its `---` line, or its first line.
    fn start(&self) -> usize {
        self.marker.unwrap_or(self.first)
    }

    /// Where YAML reads the document from: after `---`, or its first line.
    fn yaml_start(&self) -> usize {
        self.marker.map_or(self.first, |marker| marker + 3)
    }

    /// Where the document's span ends: after its `...` line, or where the
    /// line that ends it starts.
    fn span_end(&self, source: &str) -> usize {
        if self.closed { line_at(source, self.end).next } else { self.end }
    }
}

/// The documents of `source`: a `---` line starts one, a `...` line ends
/// one, and out of a document any line but blanks and comments starts one.
/// Within a document only the lines that start with neither a space nor a
/// line feed are looked at, as no other is a marker or at column 0.
fn split(source: &str) -> Vec<RawDoc> {
    let mut docs = Vec::new();
    let mut current: Option<RawDoc> = None;
    let mut at = 0;
    while at < source.len() {
        let line = line_at(source, at);
        let text = text(source, line);
        if is_marker(text, "---") {
            docs.extend(current.take().map(|doc| RawDoc { end: at, ..doc }));
            current = Some(RawDoc::new(source, Some(at), line.next));
        } else if is_marker(text, "...") {
            docs.extend(current.take().map(|doc| RawDoc { end: at, closed: true, ..doc }));
        } else if current.is_some() || !is_blank_or_comment(text) {
            let doc = current.get_or_insert_with(|| RawDoc::new(source, None, at));
            if !text.is_empty() && !text.starts_with(' ') {
                doc.last_top_level = Some(at);
            }
        }
        at = if current.is_some() { next_unindented_line(source.as_bytes(), line.next) } else { line.next };
    }
    docs.extend(current);
    docs
}

/// The start of the first line at or after `from` (a line start) that
/// starts with neither a space nor its line feed, or the end of `bytes`.
/// The lines between are skipped a chunk at a time, each looked at in one
/// pass that the compiler vectorizes.
fn next_unindented_line(bytes: &[u8], from: usize) -> usize {
    const CHUNK: usize = 256;
    let unindented = |a: u8, b: u8| (a == b'\n') & (b != b' ') & (b != b'\n');
    if bytes.get(from).is_none_or(|&b| unindented(b'\n', b)) {
        return from;
    }
    let mut at = from;
    while at + 1 < bytes.len() {
        // Chunks overlap by a byte, so that every pair is in one.
        let chunk = &bytes[at..bytes.len().min(at + CHUNK + 1)];
        let pairs = chunk.iter().zip(&chunk[1..]);
        if pairs.fold(false, |found, (&a, &b)| found | unindented(a, b))
            && let Some(feed) = chunk.windows(2).position(|pair| unindented(pair[0], pair[1]))
        {
            return at + feed + 1;
        }
        at += CHUNK;
    }
    bytes.len()
}

/// Dedents the lines of a block scalar: clip chomping (one final newline).
fn block_text(source: &str, lines: &[Line]) -> String {
    let indent = lines
        .iter()
        .map(|l| text(source, *l))
        .find(|t| !t.trim().is_empty())
        .map_or(0, |t| t.len() - t.trim_start_matches(' ').len());
    let mut out = String::new();
    for l in lines {
        let t = text(source, *l);
        out.push_str(t.get(indent..).unwrap_or("").trim_end_matches(' '));
        out.push('\n');
    }
    let trimmed = out.trim_end_matches('\n').len();
    out.truncate(trimmed);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The index of the line holding byte `offset` (its end included), found by
/// binary search: `lines` are in file order.
fn line_holding(lines: &[Line], offset: usize) -> Option<usize> {
    let index = lines.partition_point(|l| l.end < offset);
    lines.get(index).filter(|l| l.start <= offset).map(|_| index)
}

/// Reads the `body` block scalar from the raw source, starting at its key;
/// `lines` are the document's.
fn body_from_source(source: &str, lines: &[Line], key: &Node, value: &Node) -> BodyText {
    let fallback = || {
        let text = value.scalar().unwrap_or("").to_owned();
        let count = text.lines().count();
        BodyText { text, line_offsets: vec![value.span.start; count] }
    };
    let Some(key_line) = line_holding(lines, key.span.start) else {
        return fallback();
    };
    let line = lines[key_line];
    let parent_indent = key.span.start - line.start;
    let after_key = &source[key.span.end.min(line.end)..line.end];
    let Some(header) = after_key.trim_start().strip_prefix(':').map(str::trim_start) else {
        return fallback();
    };
    let Some(indicators) = header.strip_prefix('|') else {
        return fallback();
    };
    let indicators = indicators.split('#').next().unwrap_or("").trim();
    let mut chomp = ' ';
    let mut explicit = None;
    for c in indicators.chars() {
        match c {
            '+' | '-' => chomp = c,
            d @ '1'..='9' => explicit = d.to_digit(10).map(|d| parent_indent + d as usize),
            _ => return fallback(),
        }
    }
    let mut block: Vec<Line> = Vec::new();
    let mut indent = explicit;
    for l in &lines[key_line + 1..] {
        let t = text(source, *l);
        let spaces = t.len() - t.trim_start_matches(' ').len();
        if t.trim().is_empty() {
            block.push(*l);
            continue;
        }
        let need = *indent.get_or_insert(spaces);
        if spaces <= parent_indent || spaces < need {
            break;
        }
        block.push(*l);
    }
    let text = block_body(source, &block, indent.unwrap_or(0), chomp);
    if value.scalar() != Some(text.text.as_str()) {
        return fallback();
    }
    text
}

/// The text of the block scalar made of `block`'s lines with `indent`
/// columns removed, chomped as `chomp` (`+`, `-`, or ' ' to clip) says.
fn block_body(source: &str, block: &[Line], indent: usize, chomp: char) -> BodyText {
    let mut text_lines: Vec<(&str, usize)> = block
        .iter()
        .map(|l| {
            let t = text(source, *l);
            let cut = indent.min(t.len());
            (t.get(cut..).unwrap_or(""), l.start + cut)
        })
        .collect();
    if chomp != '+' {
        while text_lines.last().is_some_and(|(t, _)| t.is_empty()) {
            text_lines.pop();
        }
    }
    let mut text = String::new();
    for (t, _) in &text_lines {
        text.push_str(t);
        text.push('\n');
    }
    if chomp == '-' {
        text.pop();
    }
    BodyText { text, line_offsets: text_lines.iter().map(|(_, off)| *off).collect() }
}

/// A `body: |` block that YAML would read back exactly as its lines stand:
/// the key at column 0 with a bare `|`, the block running to the end of
/// the document, printable ASCII only (no tabs, no `\r`), every content
/// line indented at least as deep as the first, whitespace-only lines no
/// deeper. Returns the key's line and the block as [`Body::InFile`]; a
/// block of blank lines only, which YAML reads as the empty string (a
/// function whose instruction selection failed is printed so), is the
/// empty range after the key.
///
/// The block is checked in a few passes over its bytes, which the compiler
/// vectorizes; one these do not settle is looked at line by line.
fn plain_body_block(source: &str, doc: &RawDoc) -> Option<(Line, Body)> {
    let key = line_at(source, doc.last_top_level?);
    if !is_plain_body_key(text(source, key)) {
        return None;
    }
    // Every line below the key starts with a space or is blank. Lines end
    // in a bare `\n`: a `\r` before one is caught by the byte checks,
    // before the last line's break by its offsets.
    let last = line_before(source, doc.end);
    let bytes = source.as_bytes();
    if last.start == key.start {
        let plain = last.next <= last.end + 1 && printable_lines(&bytes[key.start..last.end]);
        return plain.then(|| (key, in_file_block(key, last.end, None)));
    }
    // The lines below the key, each after its line feed.
    let below = &bytes[key.next - 1..last.end];
    if last.next > last.end + 1 || !printable_lines(&bytes[key.start..key.next - 1]) || !regular_lines(below) {
        return plain_body_block_by_lines(source, doc.first..doc.end);
    }
    match first_indent(below) {
        None => Some((key, in_file_block(key, last.end, None))),
        Some(indent) if indent <= MAX_INDENT_CHECKED_AT_ONCE => {
            // Blank lines are empty: content lines must be indented enough.
            let indented = (3..=indent).all(|shift| !content_after_feed(below, shift));
            indented.then(|| (key, in_file_block(key, last.end, Some(indent))))
        }
        Some(_) => plain_body_block_by_lines(source, doc.first..doc.end),
    }
}

/// The deepest block indentation [`plain_body_block`] checks with a pass
/// per column; deeper blocks are checked line by line.
const MAX_INDENT_CHECKED_AT_ONCE: usize = 8;

/// True for the text of a line that is a top-level `body: |` key.
fn is_plain_body_key(text: &str) -> bool {
    text.strip_prefix("body:").is_some_and(|rest| rest.trim_matches(' ') == "|")
}

/// The block below the key on line `key`, its lines ending at `end`, as
/// [`Body::InFile`]; with no `indent` (blank lines only), the empty range.
fn in_file_block(key: Line, end: usize, indent: Option<usize>) -> Body {
    match indent {
        Some(indent) => Body::InFile { lines: key.next..end, indent },
        None => Body::InFile { lines: key.next..key.next, indent: 0 },
    }
}

/// True when some byte of `bytes` (printable ASCII lines) above a space
/// comes `shift` bytes after a line feed: a line holds content before
/// column `shift`. One pass, which the compiler vectorizes.
fn content_after_feed(bytes: &[u8], shift: usize) -> bool {
    let pairs = bytes.iter().zip(bytes.get(shift..).unwrap_or_default());
    pairs.fold(false, |found, (&feed, &b)| found | ((feed == b'\n') & (b > b' ')))
}

/// True when `bytes`, lines after a line feed each, are lines of printable
/// ASCII none of which ends in a space or holds content before column 2,
/// in one pass, which the compiler vectorizes.
fn regular_lines(bytes: &[u8]) -> bool {
    // A byte and the two after it (line feeds past the end).
    let regular = |a: u8, b: u8, c: u8| {
        ((b' '..=b'~').contains(&a) | (a == b'\n')) & !((a == b' ') & (b == b'\n')) & !((a == b'\n') & (c > b' '))
    };
    let triples = bytes.iter().zip(bytes.get(1..).unwrap_or_default()).zip(bytes.get(2..).unwrap_or_default());
    let tail = match bytes {
        [.., a, b] => regular(*a, *b, b'\n') & regular(*b, b'\n', b'\n'),
        [a] => regular(*a, b'\n', b'\n'),
        [] => true,
    };
    tail & triples.fold(true, |ok, ((&a, &b), &c)| ok & regular(a, b, c))
}

/// The indentation of the first line of `bytes` (printable ASCII lines,
/// after a line feed) holding more than spaces, if any; 2 or more for
/// [`regular_lines`].
fn first_indent(bytes: &[u8]) -> Option<usize> {
    let content = bytes.iter().position(|&b| b > b' ')?;
    let line_start = bytes[..content].iter().rposition(|&b| b == b'\n').map_or(0, |feed| feed + 1);
    Some(content - line_start)
}

/// [`plain_body_block`] line by line, for the lines of `range`: scanning
/// upwards, the last content line seen is the block's first.
fn plain_body_block_by_lines(source: &str, range: Range<usize>) -> Option<(Line, Body)> {
    let lines = lines_in(source, range);
    let (mut shallowest, mut first_indent, mut deepest_blank) = (usize::MAX, None, 0);
    for &l in lines.iter().rev() {
        let text = text(source, l);
        let spaces = text.bytes().take_while(|&b| b == b' ').count();
        if spaces == text.len() {
            deepest_blank = deepest_blank.max(spaces);
        } else if spaces > 0 {
            shallowest = shallowest.min(spaces);
            first_indent = Some(spaces);
        } else if is_plain_body_key(text) {
            let last = *lines.last()?;
            let plain = last.next <= last.end + 1 && printable_lines(&source.as_bytes()[l.start..last.end]);
            let indented = first_indent.is_none_or(|indent| indent == shallowest && deepest_blank <= indent);
            return (indented && plain).then(|| (l, in_file_block(l, last.end, first_indent)));
        } else {
            return None;
        }
    }
    None
}

/// True when `bytes` are lines of printable ASCII (no tab, no `\r`), in
/// one pass without early exit, which the compiler vectorizes.
fn printable_lines(bytes: &[u8]) -> bool {
    bytes.iter().fold(true, |ok, &b| ok & ((b' '..=b'~').contains(&b) | (b == b'\n')))
}

/// Splits and reads a `.mir` file. The first error is returned, with its
/// byte span in `source`. Target-specific checks (`machineFunctionInfo`
/// keys) are left to [`super::validate_machine_function_info`].
pub fn parse_document(source: &str) -> Result<MirFile, MirError> {
    let docs = split(source);
    let mut file = MirFile { ir_module: None, ir_module_span: None, functions: Vec::with_capacity(docs.len()) };
    // Where each function's name was first written, to reject a redefinition.
    let mut first_defined: FxHashMap<String, usize> = FxHashMap::default();
    for (index, doc) in docs.iter().enumerate() {
        let span = doc.start()..doc.span_end(source);
        // Text handed to YAML: from after `---` on its line to the end.
        let yaml_start = doc.yaml_start();
        let yaml_text = &source[yaml_start..doc.end.max(yaml_start)];
        if is_blank_or_comment_block(yaml_text) {
            continue;
        }
        let rest_of_marker = doc.marker.map(|m| source[m + 3..line_at(source, m).end].trim());
        if index == 0 && rest_of_marker.is_some_and(|r| r.starts_with('|')) {
            file.ir_module = Some(block_text(source, &lines_in(source, doc.first..doc.end)));
            file.ir_module_span = Some(span);
            continue;
        }
        let (header, body) = match read_plain(source, doc) {
            Some(read) => read,
            None => {
                let node = parse_yaml(yaml_text, yaml_start)?;
                let (header, body) = read_header(&node)?;
                let body = body.map(|(key, value)| {
                    let lines = lines_in(source, doc.start()..doc.end);
                    Body::Read(body_from_source(source, &lines, key, value))
                });
                (header, body)
            }
        };
        if let Some(first) = first_defined.get(header.name.as_str()) {
            let err =
                MirError::new(format!("redefinition of machine function '{}'", header.name), header.name_span.clone());
            return Err(err.with_note(format!("first defined at byte {first}")));
        }
        first_defined.insert(header.name.clone(), header.name_span.start);
        file.functions.push(FunctionDoc { header, body, span });
    }
    Ok(file)
}

/// The fast path for a document ending in a plain body block (see
/// [`plain_body_block`]): YAML reads only the header above the block, which
/// is taken from the source as it stands. `None` when the document is not
/// of that shape or the short read fails, so that the whole document is
/// read again and any error is the full parser's.
fn read_plain(source: &str, doc: &RawDoc) -> Option<(FunctionHeader, Option<Body>)> {
    let (key, body) = plain_body_block(source, doc)?;
    let yaml_start = doc.yaml_start();
    let text = source.get(yaml_start..key.next)?;
    let (tree, registers) = match parse_header(text, yaml_start) {
        Some(fast) => (fast.tree, fast.registers),
        None => (parse_yaml(text, yaml_start).ok()?, None),
    };
    let (mut header, Some((body_key, _))) = read_header(&tree).ok()? else {
        return None;
    };
    if let Some(registers) = registers {
        header.registers = registers;
    }
    // The body read must be the block found (not an earlier `body` key).
    (body_key.span.start == key.start).then_some((header, Some(body)))
}

fn is_blank_or_comment_block(text: &str) -> bool {
    text.lines().all(is_blank_or_comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "# RUN: llc\n--- |\n  define void @f() {\n    ret void\n  }\n\n...\n---\nname:            f\n\
        tracksRegLiveness: true\nregisters:\n  - { id: 0, class: _ }\nbody:             |\n  bb.0:\n    liveins: $x0\n\n    \
        %0:_(s64) = COPY $x0\n...\n---\nname: g\nbody: |\n  bb.0:\n    RET_ReallyLR\n";

    fn parse(src: &str) -> MirFile {
        parse_document(src).unwrap_or_else(|e| panic!("{}", e.render("t.mir", src)))
    }

    #[test]
    fn splits_module_and_functions() {
        let file = parse(SRC);
        assert_eq!(file.ir_module.as_deref(), Some("define void @f() {\n  ret void\n}\n"));
        assert_eq!(file.functions.len(), 2);
        let f = &file.functions[0];
        assert_eq!(f.header.name, "f");
        assert!(f.header.tracks_reg_liveness);
        assert_eq!(f.header.registers[0].class, "_");
        assert_eq!(&SRC[f.header.name_span.clone()], "f");
        assert!(SRC[f.span.clone()].starts_with("---\nname:") && SRC[f.span.clone()].ends_with("...\n"));
        assert_eq!(file.functions[1].header.name, "g");
    }

    #[test]
    fn body_lines_point_into_the_file() {
        let file = parse(SRC);
        let Some(body) = file.functions[0].body.as_ref().map(|b| b.text(SRC)) else { panic!("no body") };
        assert_eq!(body.text, "bb.0:\n  liveins: $x0\n\n  %0:_(s64) = COPY $x0\n");
        assert_eq!(body.line_offsets.len(), 4);
        for (i, line) in body.text.lines().enumerate() {
            let at = body.line_offsets[i];
            assert_eq!(&SRC[at..at + line.len()], line);
        }
        let copy = body.text.find("COPY").unwrap_or(0);
        assert_eq!(&SRC[body.file_offset_of(copy)..][..4], "COPY");
        let Some(g) = file.functions[1].body.as_ref().map(|b| b.text(SRC)) else { panic!("no body") };
        assert_eq!(g.text, "bb.0:\n  RET_ReallyLR\n");
    }

    /// The key line's text and the block [`plain_body_block`] finds in the
    /// first document of `src`, checked against the line by line reading.
    fn plain_block(src: &str) -> Option<(&str, Body)> {
        let doc = split(src).into_iter().next()?;
        let found = plain_body_block(src, &doc);
        assert_eq!(found, plain_body_block_by_lines(src, doc.first..doc.end), "{src:?}");
        found.map(|(key, body)| (text(src, key), body))
    }

    #[test]
    fn plain_body_blocks_read_as_yaml_reads_them() {
        let plain = "---\nname: f\nbody: |\n  bb.0:\n  \n    RET_ReallyLR\n\n...\n";
        let block = Body::InFile { lines: 20..48, indent: 2 };
        assert_eq!(plain_block(plain), Some(("body: |", block)));
        let moved = "---\nbody: |\n  bb.0:\n  \n    RET_ReallyLR\n\nname: f\n...\n";
        let body = |src: &str| parse(src).functions[0].body.as_ref().map(|b| b.text(src).text);
        assert_eq!(body(plain), body(moved));
        assert_eq!(body(plain).as_deref(), Some("bb.0:\n\n  RET_ReallyLR\n"));
        // A block of blank lines (a function whose selection failed) is the empty string.
        for empty in ["---\nname: f\nbody: |\n...\n", "---\nname: f\nbody:             |\n\n  \n    \n...\n"] {
            let Some((key, block)) = plain_block(empty) else { panic!("{empty:?}") };
            let after_key = empty.find(key).map_or(0, |at| at + key.len() + 1);
            assert_eq!(block, Body::InFile { lines: after_key..after_key, indent: 0 }, "{empty:?}");
            assert_eq!(body(empty), body("---\nbody: |\n\n  \nname: f\n...\n"), "{empty:?}");
        }
        for odd in ["---\nname: f\nbody: |\n  bb.0:\n\t\n", "---\nname: f\nbody: |\n    bb.0:\n  x\n"] {
            assert_eq!(plain_block(odd), None, "{odd:?}");
        }
    }

    #[test]
    fn plain_body_blocks_are_found_at_once_as_line_by_line() {
        let cases = [
            "---\nname: f\nbody: |\n  bb.0:\n    RET_ReallyLR\n...\n",
            "---\nname: f\nbody: |\n  bb.0:\n    RET_ReallyLR",
            "---\nname: f\nbody: |\n  bb.0:\n    RET_ReallyLR\r",
            "---\nname: f\nbody: |\n  bb.0:\r\n    RET_ReallyLR\n",
            "---\nname: f\nbody: |\n  bb.0:\n    RET_ReallyLR\r\n",
            "---\nname: f\nbody: |\n  bb.0:\n RET_ReallyLR\n",
            "---\nname: f\nbody: |\n\n\n         bb.0:\n          RET\n        x\n",
            "---\nname: f\nbody: |\n   bb.0:\n    RET \n",
            "---\nname: f\nbody: |\n  bb.0:\n    RET\n   ",
            "---\nname: f\nbody: |\n  bb.0:\nbody: |\n  bb.1:\n",
            "---\nname: f\nbody: |\n  bb.0:\n\tx\nbody: |\n  bb.1:\n",
            "---\nname: f\nbody: |\n  bb.0:\n\r\n  x\n",
            "---\nname: f\nbody: |-\n  bb.0:\n",
            "---\nname: f\nbody: |\n  bb.0:\nfoo: 1\n",
            "---\nname: f\n",
            "---\nname: f\nbody: |",
        ];
        for src in cases {
            plain_block(src);
        }
        for src in mutations(400) {
            for doc in split(&src) {
                let found = plain_body_block(&src, &doc);
                assert_eq!(found, plain_body_block_by_lines(&src, doc.first..doc.end), "{src:?}");
            }
        }
    }

    /// The documents of `source` found looking at every line, as [`split`]
    /// finds them.
    fn split_by_lines(source: &str) -> Vec<RawDoc> {
        let mut docs = Vec::new();
        let mut current: Option<RawDoc> = None;
        for l in lines(source) {
            let text = text(source, l);
            if is_marker(text, "---") {
                docs.extend(current.take().map(|doc| RawDoc { end: l.start, ..doc }));
                current = Some(RawDoc::new(source, Some(l.start), l.next));
            } else if is_marker(text, "...") {
                docs.extend(current.take().map(|doc| RawDoc { end: l.start, closed: true, ..doc }));
            } else if current.is_some() || !is_blank_or_comment(text) {
                let doc = current.get_or_insert_with(|| RawDoc::new(source, None, l.start));
                if text.bytes().next().is_some_and(|b| b != b' ') {
                    doc.last_top_level = Some(l.start);
                }
            }
        }
        docs.extend(current);
        docs
    }

    #[test]
    fn documents_are_found_at_once_as_line_by_line() {
        let cases = [
            "",
            "# c\n\nname: f\n...\nname: g\n--- |\n  x\n...\n... \n---\t\n--- \r\n---\r\r\n---x\n...",
            "---",
            "...\n---\r",
            "x\n  ---\n....\n--- \n",
            "---\nname: f\nbody: |\n  bb.0:\n \t---\n\n\r\n  ...\n\t...\n...\n  # c\n  x\n",
        ];
        // The line after a body at every offset from the chunk its search starts.
        let long: String = (0..150).map(|n| format!("---\nbody: |\n  {}\n   \n...\n", "x".repeat(n))).collect();
        for src in cases.into_iter().map(str::to_owned).chain([long]).chain(mutations(400)) {
            assert_eq!(split(&src), split_by_lines(&src), "{src:?}");
        }
    }

    #[test]
    fn unknown_key_points_at_the_key() {
        let src = "---\nname: f\nfoo: 1\nbody: |\n  bb.0:\n...\n";
        let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted"));
        assert_eq!(err.message, "unknown key 'foo'");
        assert_eq!(&src[err.span.clone()], "foo");
        let src = "---\nname: f\nregisters:\n  - { id: 0, class: _, zzz: 1 }\n...\n";
        let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted"));
        assert_eq!((err.message.as_str(), &src[err.span.clone()]), ("unknown key 'zzz'", "zzz"));
    }

    #[test]
    fn malformed_values() {
        let cases = [
            ("---\nname: f\nalignment: abc\n...\n", "invalid number", "abc"),
            ("---\nname: f\nalignment: 3\n...\n", "must be 0 or a power of two", "3"),
            ("---\nname: f\nlegalized: yes\n...\n", "invalid boolean", "yes"),
            ("---\nname: f\nframeInfo:\n  stackSize: -1\n...\n", "out of range number", "-1"),
            ("---\nalignment: 4\n...\n", "missing required key 'name'", ""),
        ];
        for (src, message, at) in cases {
            let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted {src}"));
            assert_eq!(err.message, message, "{src}");
            assert!(src[err.span.clone()].starts_with(at), "{src}: {:?}", err.span);
        }
    }

    #[test]
    fn yaml_syntax_errors_have_file_offsets() {
        let src = "---\nname: f\nregisters:\n  - { id: 0, class: _\nbody: |\n  x\n...\n";
        let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted"));
        let (line, _) = err.line_column(src);
        assert!(line >= 4, "{err:?}");
        let src = "---\nname: f\n  bad: 1\n...\n";
        let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted"));
        assert_eq!(err.line_column(src).0, 3, "{err:?}");
    }

    #[test]
    fn duplicate_function_names() {
        let src = "---\nname: f\n...\n---\nname: f\n...\n";
        let err = parse_document(src).err().unwrap_or_else(|| panic!("accepted"));
        assert_eq!(err.message, "redefinition of machine function 'f'");
        assert_eq!(err.span.start, src.rfind('f').unwrap_or(0));
    }

    /// `count` random byte flips, insertions and truncations of real inputs.
    fn mutations(count: usize) -> impl Iterator<Item = String> {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/yaml/");
        let seeds: Vec<String> = ["aarch64-frame.mir", "aarch64-frame2.mir", "global-ir-module.mir"]
            .iter()
            .filter_map(|f| std::fs::read_to_string(format!("{data}{f}")).ok())
            .chain([SRC.to_owned()])
            .collect();
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const BYTES: &[u8] = b"-:{}[]|>'\"#&*!% \n\t\r.,0129abz$@";
        (0..count).map(move |i| {
            let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
            for _ in 0..1 + next() % 4 {
                let at = (next() % (bytes.len() as u64 + 1)) as usize;
                match next() % 4 {
                    0 if at < bytes.len() => bytes[at] = BYTES[(next() % BYTES.len() as u64) as usize],
                    1 => bytes.insert(at, BYTES[(next() % BYTES.len() as u64) as usize]),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.truncate(at),
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }

    /// Random mutations of real inputs: every outcome is a value or an
    /// error, never a panic.
    #[test]
    fn mutations_never_panic() {
        let started = std::time::Instant::now();
        for text in mutations(1000) {
            if started.elapsed().as_secs() > 20 {
                break;
            }
            match parse_document(&text) {
                Ok(file) => {
                    for b in file.functions.iter().filter_map(|f| f.body.as_ref().map(|b| b.text(&text))) {
                        assert_eq!(b.line_offsets.len(), b.text.lines().count());
                        assert!(b.line_offsets.iter().all(|&o| o <= text.len()));
                    }
                }
                Err(e) => {
                    assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "{e:?}");
                    let _ = e.render("m.mir", &text);
                }
            }
        }
    }
}

/// The fast header reader against the YAML crate on every `.mir` header
/// in the repository (and, with `GISEL_HEADER_DIRS`, in more directories).
#[cfg(test)]
mod fast_header_tests {
    use super::super::yaml_fast::agrees_with_yaml;
    use super::*;
    use std::path::{Path, PathBuf};

    fn mir_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("target") {
                mir_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "mir") {
                out.push(path);
            }
        }
    }

    #[test]
    fn fast_header_reader_agrees_with_the_yaml_crate() {
        let mut dirs = vec![PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))];
        dirs.extend(std::env::var("GISEL_HEADER_DIRS").iter().flat_map(|d| d.split(':').map(PathBuf::from)));
        let mut files = Vec::new();
        for dir in &dirs {
            mir_files(dir, &mut files);
        }
        let (mut read, mut headers) = (0, 0);
        for path in files {
            let Ok(source) = std::fs::read_to_string(&path) else { continue };
            for doc in split(&source) {
                let Some((key, _)) = plain_body_block(&source, &doc) else { continue };
                let yaml_start = doc.yaml_start();
                let text = &source[yaml_start..key.next];
                let Ok(expected) = parse_yaml(text, yaml_start) else { continue };
                headers += 1;
                if let Some(fast) = parse_header(text, yaml_start) {
                    assert!(agrees_with_yaml(&fast, &expected), "{}: {text}", path.display());
                    read += 1;
                }
            }
        }
        eprintln!("fast header reader: {read} of {headers} headers");
        assert!(headers > 1000 && read * 100 >= headers * 95, "only {read} of {headers} headers read fast");
    }
}
