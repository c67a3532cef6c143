//! A direct reader for a header's `registers:` list as llc writes it, one
//! flow mapping a line (`  - { id: 3, class: _, preferred-register: '',
//! flags: [  ] }`). Real functions declare thousands of registers, and
//! reading each entry as a YAML tree and then out of it cost more than the
//! rest of the header. Anything not of that shape is declined (`None`), so
//! that the YAML reader reads it, errors included.

use super::header::RegisterDecl;

/// Reads the list whose first line starts at `at` in `bytes` (the text
/// starting at byte `base` of the file): lines of one indentation above
/// zero, each `- { id: N, class: C }` with optional `preferred-register:
/// 'P'` and empty `flags: [  ]` before the brace. Returns the
/// declarations and where the line after the list starts.
pub(super) fn read_register_list(bytes: &[u8], mut at: usize, base: usize) -> Option<(Vec<RegisterDecl>, usize)> {
    let indent = bytes[at..].iter().take_while(|&&b| b == b' ').count();
    if indent == 0 {
        return None;
    }
    let mut registers = Vec::new();
    loop {
        let line_end = at + memchr::memchr(b'\n', &bytes[at..])?;
        let line = &bytes[at + indent..line_end];
        let entry = line.strip_prefix(b"- ")?;
        let brace = line_end - entry.len();
        registers.push(read_entry(entry, base + brace)?);
        at = line_end + 1;
        let next_indent = bytes[at..].iter().take_while(|&&b| b == b' ').count();
        match bytes.get(at + next_indent) {
            // The next entry.
            Some(b'-') if next_indent == indent => {}
            // The next key of the header.
            Some(b) if next_indent == 0 && b.is_ascii_alphabetic() => return Some((registers, at)),
            // Blank or comment lines, deeper or shallower lines, the end:
            // the YAML reader decides.
            _ => return None,
        }
    }
}

/// One `{ id: N, class: C, ... }` entry (the whole rest of its line), its
/// `{` at file offset `brace`.
fn read_entry(entry: &[u8], brace: usize) -> Option<RegisterDecl> {
    let rest = entry.strip_prefix(b"{ id: ")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let id = decimal(&rest[..digits])?;
    let rest = rest[digits..].strip_prefix(b", class: ")?;
    let class_len = rest.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.').count();
    let class = &rest[..class_len];
    if !class.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') || is_null(class) {
        return None;
    }
    let mut rest = &rest[class_len..];
    let mut preferred_register = String::new();
    if let Some(quoted) = rest.strip_prefix(b", preferred-register: '") {
        let len = quoted.iter().position(|&b| b == b'\'')?;
        let name = &quoted[..len];
        if !name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'$' || b == b'_' || b == b'.') {
            return None;
        }
        preferred_register = std::str::from_utf8(name).ok()?.to_owned();
        rest = &quoted[len + 1..];
    }
    if let Some(after) = rest.strip_prefix(b", flags: [  ]") {
        rest = after;
    }
    if rest != b" }" {
        return None;
    }
    Some(RegisterDecl {
        id,
        class: std::str::from_utf8(class).ok()?.to_owned(),
        preferred_register,
        flags: Vec::new(),
        span: brace..brace + 1,
    })
}

/// A register number as the header reader takes it: `0`, or a decimal
/// without a leading zero (which would be octal) that fits in a `u32`.
fn decimal(digits: &[u8]) -> Option<u32> {
    match digits {
        [b'0'] => Some(0),
        [b'1'..=b'9', ..] if digits.len() <= 9 => Some(digits.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0'))),
        _ => None,
    }
}

/// The plain spellings YAML reads as null.
fn is_null(text: &[u8]) -> bool {
    matches!(text, b"null" | b"Null" | b"NULL")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Vec<(u32, String, String)>> {
        let (registers, next) = read_register_list(text.as_bytes(), 0, 0)?;
        assert!(text[next..].starts_with("body:"), "{text:?}");
        Some(registers.into_iter().map(|r| (r.id, r.class, r.preferred_register)).collect())
    }

    #[test]
    fn llc_entries_are_read() {
        let text = "  - { id: 0, class: _, preferred-register: '', flags: [  ] }\n  \
                    - { id: 12, class: gpr64, preferred-register: '$x0' }\n  - { id: 3, class: fpr.b }\nbody: |\n";
        let expected = [(0, "_", ""), (12, "gpr64", "$x0"), (3, "fpr.b", "")];
        let expected: Vec<_> = expected.iter().map(|&(id, c, p)| (id, c.to_owned(), p.to_owned())).collect();
        assert_eq!(read(text), Some(expected));
    }

    #[test]
    fn other_spellings_are_left_to_yaml() {
        for entry in [
            "- { id: 01, class: _ }",
            "- { id: 0, class: null }",
            "- { id: 0, class: _ } # note",
            "- { id: 0, class: _, flags: [ x ] }",
            "- { class: _, id: 0 }",
            "- { id: 0, class: '_' }",
            "- { id: 9999999999, class: _ }",
            "-   { id: 0, class: _ }",
        ] {
            assert_eq!(read(&format!("  {entry}\nbody: |\n")), None, "{entry}");
        }
        assert_eq!(read("- { id: 0, class: _ }\nbody: |\n"), None, "not indented");
        assert_eq!(read("  - { id: 0, class: _ }\n\nbody: |\n"), None, "a blank line");
    }
}
