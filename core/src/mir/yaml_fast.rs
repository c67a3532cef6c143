//! A fast reader for machine-function headers as LLVM's YAML writer prints
//! them: block mappings and sequences, flow mappings and sequences (wrapped
//! over lines or not), plain, single- and double-quoted scalars, full-line
//! comments, and a last line `body: |`. It builds exactly the tree
//! [`parse_yaml`](super::yaml::parse_yaml) builds for such text, spans
//! included, and declines anything else (with `None`: anchors, tags,
//! multi-line scalars, trailing comments, tabs, duplicate keys, ...), which
//! then goes through the YAML crate.

use super::header::RegisterDecl;
use super::register_list::read_register_list;
use super::yaml::{Node, NodeKind};
use std::borrow::Cow;

/// A header the fast reader read.
#[derive(Debug)]
pub(crate) struct FastHeader<'t> {
    /// The header as YAML reads it, except that a `registers:` list
    /// written as llc writes it is a null here and read into `registers`.
    pub tree: Node<'t>,
    /// The `registers:` list, when it was read directly.
    pub registers: Option<Vec<RegisterDecl>>,
}

/// Reads `text` (found at byte `base` of the file) if it is a header of
/// the shape above ending in `body: |`; `None` for any other shape.
pub(crate) fn parse_header(text: &str, base: usize) -> Option<FastHeader<'_>> {
    let mut reader = Reader { bytes: text.as_bytes(), text, base, pos: 0, finished_body: false, registers: None };
    // The text starts after `---`: the rest of that line must be blank.
    reader.skip_spaces();
    if reader.eat(b'\n').is_none() && reader.pos != 0 {
        return None;
    }
    let (start, indent) = reader.next_content_line()?;
    if indent != 0 {
        return None;
    }
    reader.pos = start;
    let tree = reader.block_map(0)?;
    reader.finished_body.then_some(FastHeader { tree, registers: reader.registers })
}

struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    base: usize,
    pos: usize,
    /// Set by the `body: |` entry, which must be the last line.
    finished_body: bool,
    /// The top-level `registers:` list, when read directly.
    registers: Option<Vec<RegisterDecl>>,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
    }

    /// The start and indentation of the next line holding content, from
    /// the start of a line, past blank lines and full-line comments.
    /// `None` at the end of the text or on a tab or `\r`.
    fn next_content_line(&self) -> Option<(usize, usize)> {
        let mut at = self.pos;
        loop {
            let indent = self.bytes[at..].iter().take_while(|&&b| b == b' ').count();
            match self.bytes.get(at + indent)? {
                b'\n' => at += indent + 1,
                b'#' => at += indent + memchr::memchr(b'\n', &self.bytes[at + indent..])? + 1,
                b'\t' | b'\r' => return None,
                _ => return Some((at + indent, indent)),
            }
        }
    }

    fn node(&self, kind: NodeKind<'t>, start: usize, end: usize) -> Node<'t> {
        Node { kind, span: self.base + start..self.base + end }
    }

    /// A block mapping whose first key is at `pos`, in column `indent`.
    fn block_map(&mut self, indent: usize) -> Option<Node<'t>> {
        let start = self.pos;
        let mut entries: Vec<(Node<'t>, Node<'t>)> = Vec::new();
        loop {
            let key = self.plain(Context::BlockKey)?;
            if entries.iter().any(|(k, _)| k.kind == key.kind) {
                return None;
            }
            let colon = self.pos;
            self.eat(b':')?;
            let value = match self.register_list(indent, &key, colon) {
                Some(null) => null,
                None => self.block_value(indent, colon)?,
            };
            entries.push((key, value));
            if self.finished_body {
                break;
            }
            match self.next_content_line() {
                Some((at, column)) if column == indent => self.pos = at,
                Some((_, column)) if column > indent => return None,
                _ => break,
            }
        }
        Some(self.node(NodeKind::Map(entries), start, start))
    }

    /// The top-level `registers:` list read directly (a null in the tree),
    /// when `key` is that key, nothing follows its `:` and the list is
    /// written as llc writes it; leaves `pos` at the next line. `None`
    /// otherwise, with `pos` unchanged.
    fn register_list(&mut self, indent: usize, key: &Node<'t>, colon: usize) -> Option<Node<'t>> {
        if indent != 0 || key.scalar() != Some("registers") || self.peek() != Some(b'\n') {
            return None;
        }
        let (registers, next) = read_register_list(self.bytes, self.pos + 1, self.base)?;
        self.registers = Some(registers);
        self.pos = next;
        Some(self.node(NodeKind::Null, colon, colon))
    }

    /// The value after a block key's `:` (at `colon`), through the end of
    /// its line or its nested block; leaves `pos` at the next line.
    fn block_value(&mut self, indent: usize, colon: usize) -> Option<Node<'t>> {
        let after = self.pos;
        self.skip_spaces();
        match self.peek() {
            // Spaces after the colon and nothing else: declined.
            None | Some(b'\n') if self.pos != after => None,
            None | Some(b'\n') => {
                self.pos = (self.pos + 1).min(self.bytes.len());
                self.nested_block(indent, colon)
            }
            Some(b'|') => {
                let bar = self.pos;
                self.pos += 1;
                self.eat(b'\n')?;
                // The block itself is the next document's business: here
                // it must be the last line, an empty block scalar.
                (self.pos == self.bytes.len()).then_some(())?;
                self.finished_body = true;
                Some(self.node(NodeKind::Scalar(Cow::Borrowed("")), bar, self.bytes.len()))
            }
            Some(_) => {
                let value = self.inline_value(Context::BlockValue)?;
                self.end_of_line()?;
                Some(value)
            }
        }
    }

    /// What follows a key with nothing after it on its line: a block
    /// sequence or mapping indented deeper, or null.
    fn nested_block(&mut self, indent: usize, colon: usize) -> Option<Node<'t>> {
        match self.next_content_line() {
            Some((at, column)) if column > indent => {
                self.pos = at;
                if self.is_sequence_entry() { self.block_seq(column) } else { self.block_map(column) }
            }
            Some((at, column)) if column == indent && self.bytes[at..].starts_with(b"- ") => None,
            _ => Some(self.node(NodeKind::Null, colon, colon)),
        }
    }

    fn is_sequence_entry(&self) -> bool {
        self.peek() == Some(b'-') && matches!(self.bytes.get(self.pos + 1), Some(b' ' | b'\n'))
    }

    /// A block sequence whose first `-` is at `pos`, in column `indent`.
    fn block_seq(&mut self, indent: usize) -> Option<Node<'t>> {
        let start = self.pos;
        let mut items = Vec::new();
        loop {
            self.pos += 1;
            self.eat(b' ')?;
            self.skip_spaces();
            let item_column = self.pos - self.line_start();
            let item = if self.starts_block_key() {
                self.block_map(item_column)?
            } else {
                let value = self.inline_value(Context::BlockValue)?;
                self.end_of_line()?;
                value
            };
            items.push(item);
            match self.next_content_line() {
                Some((at, column)) if column == indent && self.bytes[at..].starts_with(b"- ") => self.pos = at,
                Some((_, column)) if column >= indent => return None,
                _ => break,
            }
        }
        Some(self.node(NodeKind::Seq(items), start, start))
    }

    fn line_start(&self) -> usize {
        memchr::memrchr(b'\n', &self.bytes[..self.pos]).map_or(0, |i| i + 1)
    }

    /// True when `pos` is at `key:` (a plain key and a `:` ending it).
    fn starts_block_key(&self) -> bool {
        let rest = &self.bytes[self.pos..];
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        !matches!(line.first(), Some(b'{' | b'[' | b'\'' | b'"'))
            && (line.windows(2).any(|w| w == b": ") || line.last() == Some(&b':'))
    }

    /// The rest of a line after a value: spaces, then a line break (or the
    /// end of the text).
    fn end_of_line(&mut self) -> Option<()> {
        self.skip_spaces();
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.pos += 1;
                Some(())
            }
            _ => None,
        }
    }

    /// A scalar or flow collection starting at `pos`.
    fn inline_value(&mut self, context: Context) -> Option<Node<'t>> {
        match self.peek()? {
            b'{' => self.flow_map(),
            b'[' => self.flow_seq(),
            b'\'' => self.single_quoted(),
            b'"' => self.double_quoted(),
            _ => self.plain(context),
        }
    }

    /// Skips spaces and line breaks inside a flow collection.
    fn skip_flow_space(&mut self) -> Option<()> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\n' => self.pos += 1,
                b'#' | b'\t' | b'\r' => return None,
                _ => return Some(()),
            }
        }
        None
    }

    fn flow_map(&mut self) -> Option<Node<'t>> {
        let start = self.pos;
        let mut entries: Vec<(Node<'t>, Node<'t>)> = Vec::new();
        self.flow_items(b'}', |reader| {
            let key = reader.plain(Context::FlowKey)?;
            if entries.iter().any(|(k, _)| k.kind == key.kind) {
                return None;
            }
            reader.eat(b':')?;
            reader.eat(b' ')?;
            reader.skip_flow_space()?;
            if matches!(reader.peek(), Some(b',' | b'}')) {
                return None;
            }
            let value = reader.inline_value(Context::Flow)?;
            entries.push((key, value));
            Some(())
        })?;
        Some(self.node(NodeKind::Map(entries), start, start + 1))
    }

    fn flow_seq(&mut self) -> Option<Node<'t>> {
        let start = self.pos;
        let mut items = Vec::new();
        self.flow_items(b']', |reader| {
            items.push(reader.inline_value(Context::Flow)?);
            Some(())
        })?;
        Some(self.node(NodeKind::Seq(items), start, start + 1))
    }

    /// The items of the flow collection opening at `pos`, up to `close`,
    /// each read by `item`; declines anything but commas between items (a
    /// missing, doubled or trailing one).
    fn flow_items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.pos += 1;
        self.skip_flow_space()?;
        if self.eat(close).is_some() {
            return Some(());
        }
        loop {
            if self.peek() == Some(b',') || self.peek() == Some(close) {
                return None;
            }
            item(self)?;
            self.skip_flow_space()?;
            match self.peek()? {
                b',' => {
                    self.pos += 1;
                    self.skip_flow_space()?;
                }
                byte if byte == close => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A plain scalar on one line, ended as `context` says; declines the
    /// spellings of null and anything YAML could read another way.
    fn plain(&mut self, context: Context) -> Option<Node<'t>> {
        let start = self.pos;
        let first = self.peek()?;
        let indicator = matches!(
            first,
            b'-' | b'?'
                | b':'
                | b','
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'#'
                | b'&'
                | b'*'
                | b'!'
                | b'|'
                | b'>'
                | b'\''
                | b'"'
                | b'%'
                | b'@'
                | b'`'
        );
        let dash_number = first == b'-' && self.bytes.get(start + 1).is_some_and(u8::is_ascii_alphanumeric);
        if indicator && !dash_number {
            return None;
        }
        let mut end = start;
        loop {
            end += self.bytes[end..].iter().take_while(|&&b| !PLAIN_STOPS[usize::from(b)]).count();
            let Some(&b) = self.bytes.get(end) else { break };
            let next = self.bytes.get(end + 1).copied();
            match b {
                b'\n' => break,
                b'\t' | b'\r' => return None,
                b':' if matches!(next, None | Some(b' ' | b'\n')) => break,
                b':' if context.is_flow() && matches!(next, Some(b',' | b'}' | b']')) => return None,
                b',' | b'[' | b']' | b'{' | b'}' if context.is_flow() => break,
                b'#' if self.bytes[end - 1] == b' ' => return None,
                _ => {}
            }
            end += 1;
        }
        let text = self.text[start..end].trim_end_matches(' ');
        let stop = self.bytes.get(end).copied();
        let ended_right = match context {
            Context::BlockKey | Context::FlowKey => stop == Some(b':') && text.len() == end - start,
            Context::BlockValue => stop != Some(b':'),
            Context::Flow => matches!(stop, Some(b',' | b']' | b'}')),
        };
        if !ended_right || text.is_empty() || matches!(text, "~" | "null" | "Null" | "NULL") {
            return None;
        }
        self.pos = start + text.len();
        Some(self.node(NodeKind::Scalar(Cow::Borrowed(text)), start, self.pos))
    }

    fn single_quoted(&mut self) -> Option<Node<'t>> {
        let start = self.pos;
        let mut value = Cow::Borrowed("");
        let mut at = start + 1;
        loop {
            let close = at + memchr::memchr2(b'\'', b'\n', &self.bytes[at..])?;
            if self.bytes[close] == b'\n' {
                return None;
            }
            append(&mut value, &self.text[at..close]);
            if self.bytes.get(close + 1) == Some(&b'\'') {
                value.to_mut().push('\'');
                at = close + 2;
            } else {
                self.pos = close + 1;
                return Some(self.node(NodeKind::Scalar(value), start, self.pos));
            }
        }
    }

    fn double_quoted(&mut self) -> Option<Node<'t>> {
        let start = self.pos;
        let mut value = Cow::Borrowed("");
        let mut at = start + 1;
        loop {
            let stop = at + memchr::memchr3(b'"', b'\\', b'\n', &self.bytes[at..])?;
            append(&mut value, &self.text[at..stop]);
            match self.bytes[stop] {
                b'"' => {
                    self.pos = stop + 1;
                    return Some(self.node(NodeKind::Scalar(value), start, self.pos));
                }
                b'\\' => {
                    let (decoded, width) = self.escape(stop + 1)?;
                    value.to_mut().push(decoded);
                    at = stop + 1 + width;
                }
                _ => return None,
            }
        }
    }

    /// The character an escape after a backslash at `at` stands for, and
    /// how many bytes the escape takes.
    fn escape(&self, at: usize) -> Option<(char, usize)> {
        let simple = match *self.bytes.get(at)? {
            b'0' => '\0',
            b'a' => '\x07',
            b'b' => '\x08',
            b't' => '\t',
            b'n' => '\n',
            b'v' => '\x0b',
            b'f' => '\x0c',
            b'r' => '\r',
            b'e' => '\x1b',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'x' => return self.hex_escape(at + 1, 2),
            b'u' => return self.hex_escape(at + 1, 4),
            b'U' => return self.hex_escape(at + 1, 8),
            _ => return None,
        };
        Some((simple, 1))
    }

    fn hex_escape(&self, at: usize, digits: usize) -> Option<(char, usize)> {
        let hex = self.text.get(at..at + digits)?;
        let code = u32::from_str_radix(hex, 16).ok()?;
        Some((char::from_u32(code)?, digits + 1))
    }
}

/// The bytes at which a plain scalar may end or be declined; any other
/// byte continues it.
const PLAIN_STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    let listed = b"\n\t\r:,[]{}#";
    let mut i = 0;
    while i < listed.len() {
        stops[listed[i] as usize] = true;
        i += 1;
    }
    stops
};

/// Where a scalar is, which decides what ends it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// A block mapping's key, ended by `: `.
    BlockKey,
    /// A value on a block key's (or sequence entry's) line.
    BlockValue,
    /// A flow mapping's key.
    FlowKey,
    /// A value inside a flow collection.
    Flow,
}

impl Context {
    fn is_flow(self) -> bool {
        matches!(self, Context::Flow | Context::FlowKey)
    }
}

/// Appends `piece` of the text to a scalar's `value`, which stays borrowed
/// while it is one piece.
fn append<'t>(value: &mut Cow<'t, str>, piece: &'t str) {
    if value.is_empty() {
        *value = Cow::Borrowed(piece);
    } else {
        value.to_mut().push_str(piece);
    }
}

/// Whether `fast` is what the YAML reader reads as `yaml`: the same tree
/// but for a directly read `registers:` list, which must hold what the
/// header reader reads from YAML's list.
#[cfg(test)]
pub(crate) fn agrees_with_yaml(fast: &FastHeader<'_>, yaml: &Node<'_>) -> bool {
    let Some(registers) = &fast.registers else { return fast.tree == *yaml };
    let (NodeKind::Map(fast_entries), NodeKind::Map(yaml_entries)) = (&fast.tree.kind, &yaml.kind) else {
        return false;
    };
    let is_registers = |(key, _): &&(Node<'_>, Node<'_>)| key.scalar() == Some("registers");
    let (Some((_, null)), Some((_, list))) =
        (fast_entries.iter().find(is_registers), yaml_entries.iter().find(is_registers))
    else {
        return false;
    };
    let mut nulled = yaml.clone();
    if let NodeKind::Map(entries) = &mut nulled.kind {
        for (key, value) in entries.iter_mut() {
            if key.scalar() == Some("registers") {
                *value = null.clone();
            }
        }
    }
    nulled == fast.tree && super::header_read::registers(Some(list)).ok().as_ref() == Some(registers)
}

#[cfg(test)]
mod tests {
    use super::super::yaml::parse_yaml;
    use super::*;

    #[test]
    fn headers_read_as_yaml_reads_them() {
        let texts = [
            "\nname:            f0\ntracksRegLiveness: true\nalignment: 4\nlegalized: yes\nbody:             |\n",
            "name: f0\nbody: |\n",
            "\nname: a.b_c\nisSSA: false\nnoPhis: 0x10\nbody: |\n",
            "\nname: f\nalignment: 1.5e3\nbody:   |\n",
            "\nname: f\nregisters:\n  - { id: 0, class: _, preferred-register: '', flags: [  ] }\n  \
             - { id: 1, class: gpr64 }\nliveins:\n  - { reg: '$x0', virtual-reg: '' }\nframeInfo:\n  \
             maxAlignment:    8\n  stackProtector:  ''\nfixedStack:      []\nstack:\n  - { id: 0, name: x, \
             type: default, offset: -8, size: 4, alignment: 4, \n      stack-id: default, \
             callee-saved-register: '' }\nconstants:\n  - id:              0\n    value:           'double 1.0'\n    \
             isTargetSpecific: false\nmachineFunctionInfo: {}\nq: \"a\\tb\\x41\"\n# note\njumpTable:\n  kind: \
             block-address\n  entries:\n    - id: 0\n      blocks: [ '%bb.3', '%bb.4' ]\nempty:\ncallSites:\n  \
             - { bb: 0, offset: 1, fwdArgRegs: [ { arg: 0, reg: '$x0' } ] }\nname2: 'it''s'\nbody:             |\n",
        ];
        for text in texts {
            let fast = parse_header(text, 100).unwrap_or_else(|| panic!("declined: {text:?}"));
            let yaml = parse_yaml(text, 100).unwrap_or_else(|e| panic!("{e:?}"));
            assert!(agrees_with_yaml(&fast, &yaml), "{text:?}: {fast:?}");
        }
    }

    #[test]
    fn anything_else_is_declined() {
        let texts = [
            "\nname: f\n",
            "\nname: f\nbody: |-\n",
            "\nname: f # note\nbody: |\n",
            "\nname: null\nbody: |\n",
            "\nname: f\nname: g\nbody: |\n",
            "\n name: f\nbody: |\n",
            "\nname: f\n  more\nbody: |\n",
            "\nname: &a f\nbody: |\n",
            "\nname: !t f\nbody: |\n",
            "\nregisters:\n- { id: 0 }\nbody: |\n",
            "\nname:\tf\nbody: |\n",
            "\nname: f\nbody: |\n  bb.0:\n",
            "\nname: 'f\n  g'\nbody: |\n",
            "\nname: { a: b, a: c }\nbody: |\n",
            " x\nname: f\nbody: |\n",
        ];
        for text in texts {
            assert!(parse_header(text, 0).is_none(), "{text:?}");
        }
    }

    /// A header as llc writes it, edited at random with the characters
    /// YAML gives meaning to: the fast reader never panics, and whatever
    /// it accepts is what the YAML crate reads.
    mod edits {
        use super::*;
        use proptest::prelude::*;

        const HEADER: &str = "\nname:            f\nregisters:\n  - { id: 0, class: _, preferred-register: '', \
                              flags: [  ] }\nframeInfo:\n  maxAlignment:    8\nstack:\n  - { id: 0, name: x, \
                              offset: -8, size: 4, \n      stack-id: default }\nconstants:\n  - id:              0\n    \
                              value:           'double 1.0'\nq: \"a\\tb\"\nbody:             |\n";

        fn edited() -> impl Strategy<Value = String> {
            let symbol = prop::sample::select(vec![
                ' ', '\n', ':', '-', ',', '[', ']', '{', '}', '\'', '"', '#', '|', '\\', 'x', '\t', 'é',
            ]);
            prop::collection::vec((0..HEADER.len(), prop::option::of(symbol)), 1..4).prop_map(|edits| {
                let mut text: Vec<char> = HEADER.chars().collect();
                for (at, symbol) in edits {
                    let at = at % text.len();
                    match symbol {
                        Some(c) => text.insert(at, c),
                        None => {
                            text.remove(at);
                        }
                    }
                }
                text.into_iter().collect()
            })
        }

        proptest! {
            #[test]
            fn edited_headers_are_read_as_yaml_reads_them_or_declined(text in edited()) {
                if let Some(fast) = parse_header(&text, 7) {
                    let yaml = parse_yaml(&text, 7);
                    prop_assert!(yaml.as_ref().is_ok_and(|yaml| agrees_with_yaml(&fast, yaml)), "{:?}", yaml);
                }
            }
        }
    }
}
