//! A fast reader for the simplest headers: one `key: value` a line, keys at
//! column 0, plain values of word characters, and a last line `body: |`.
//! It builds exactly the tree [`parse_yaml`](super::yaml::parse_yaml)
//! builds for such text, spans included, and declines anything else (with
//! `None`), which then goes through the YAML crate.

use super::yaml::{Node, NodeKind};

/// Reads `text` (found at byte `base` of the file) if it is a simple header
/// ending in `body: |`; `None` when it is any other shape.
pub(crate) fn parse_simple_header(text: &str, base: usize) -> Option<Node> {
    // The text starts after `---`: an empty rest of that line is allowed.
    let (body, mut at) = match text.strip_prefix('\n') {
        Some(rest) => (rest, 1),
        None => (text, 0),
    };
    let mut entries: Vec<(Node, Node)> = Vec::new();
    let mut lines = body.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let content = line.strip_suffix('\n')?;
        let (key, value, value_at) = split_entry(content)?;
        let last = lines.peek().is_none();
        if entries.iter().any(|(k, _)| matches!(&k.kind, NodeKind::Scalar(seen) if seen == key)) {
            return None;
        }
        let key_node = scalar(key, base + at);
        let value_node = if last {
            // The block scalar `|` is empty here: it runs to the end of the text.
            if key != "body" || value != "|" {
                return None;
            }
            Node { kind: NodeKind::Scalar(String::new()), span: base + at + value_at..base + text.len() }
        } else if is_plain_word(value) {
            scalar(value, base + at + value_at)
        } else {
            return None;
        };
        entries.push((key_node, value_node));
        at += line.len();
    }
    let start = entries.first()?.0.span.start;
    Some(Node { kind: NodeKind::Map(entries), span: start..start })
}

/// `key: value` with a plain key at column 0 and spaces after the colon;
/// returns the key, the value and the value's offset in the line.
fn split_entry(line: &str) -> Option<(&str, &str, usize)> {
    let (key, rest) = line.split_once(':')?;
    let first = key.bytes().next()?;
    if !first.is_ascii_alphabetic() || !key.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let value = rest.trim_start_matches(' ');
    if value.len() == rest.len() || value.is_empty() {
        return None;
    }
    Some((key, value, line.len() - value.len()))
}

/// A value YAML reads back as its own text: word characters and dots, not
/// one of the spellings of null.
fn is_plain_word(value: &str) -> bool {
    value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        && !matches!(value, "null" | "Null" | "NULL")
}

fn scalar(text: &str, start: usize) -> Node {
    Node { kind: NodeKind::Scalar(text.to_owned()), span: start..start + text.len() }
}

#[cfg(test)]
mod tests {
    use super::super::yaml::parse_yaml;
    use super::*;

    #[test]
    fn simple_headers_read_as_yaml_reads_them() {
        let texts = [
            "\nname:            f0\ntracksRegLiveness: true\nalignment: 4\nlegalized: yes\nbody:             |\n",
            "name: f0\nbody: |\n",
            "\nname: a.b_c\nisSSA: false\nnoPhis: 0x10\nbody: |\n",
            "\nname: f\nalignment: 1.5e3\nbody:   |\n",
        ];
        for text in texts {
            let fast = parse_simple_header(text, 100);
            assert!(fast.is_some(), "{text:?}");
            assert_eq!(fast, parse_yaml(text, 100).ok(), "{text:?}");
        }
    }

    #[test]
    fn anything_else_is_declined() {
        let texts = [
            "\nname: f\n",
            "\nname: f\nbody: |-\n",
            "\nname: 'f'\nbody: |\n",
            "\nname: f # note\nbody: |\n",
            "\nname: null\nbody: |\n",
            "\nname: f\nname: g\nbody: |\n",
            "\nname:\nbody: |\n",
            "\n name: f\nbody: |\n",
            "\nname: f\n\nbody: |\n",
            "\nname: f \nbody: |\n",
            "\nregisters:\n  - { id: 0, class: _ }\nbody: |\n",
            " # c\nname: f\nbody: |\n",
        ];
        for text in texts {
            assert_eq!(parse_simple_header(text, 0), None, "{text:?}");
        }
    }
}
