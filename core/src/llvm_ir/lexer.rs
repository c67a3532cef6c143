//! Tokens of one LLVM IR line, as far as the module-level facts need them:
//! words (keywords, types, attribute names, numbers), global and local
//! names, attribute group references, metadata references, quoted strings
//! and punctuation.

/// One token; text tokens borrow from the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// A keyword, type, attribute name or number (`internal`, `i32`, `-6`).
    Word(&'a str),
    /// `@name` or `@"name"`, without the `@` and quotes (escapes kept).
    Global(&'a str),
    /// `%name`, without the `%`.
    Local(&'a str),
    /// `#N`, the attribute group number.
    Group(&'a str),
    /// `!name` or `!N`, without the `!`; `!"text"` is [`Token::MetaString`].
    Meta(&'a str),
    /// `!"text"`, without the quotes.
    MetaString(&'a str),
    /// `"text"` (or `c"text"`), without the quotes.
    Str(&'a str),
    /// Any other character: `( ) { } [ ] < > = , * :`, and a sigil
    /// with no name after it (the `!` of `!{`).
    Punct(u8),
}

/// The tokens of `line` up to a `;` comment.
pub fn tokens(line: &str) -> Vec<Token<'_>> {
    Lexer::new(line).collect()
}

/// The tokens of one line, read one at a time, so that a reader needing
/// only the first few leaves the rest of a long line unread.
pub struct Lexer<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Lexer<'a> {
    /// Tokens of `line` from its start.
    pub fn new(line: &'a str) -> Lexer<'a> {
        Lexer { line, at: 0 }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let (line, bytes) = (self.line, self.line.as_bytes());
        while let Some(&b) = bytes.get(self.at) {
            let (token, next) = match b {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    self.at += 1;
                    continue;
                }
                b';' => break,
                b'"' => {
                    let (text, next) = quoted(line, self.at);
                    (Token::Str(text), next)
                }
                b'c' if bytes.get(self.at + 1) == Some(&b'"') => {
                    let (text, next) = quoted(line, self.at + 1);
                    (Token::Str(text), next)
                }
                b'@' | b'%' | b'!' | b'#' => sigiled(line, self.at),
                _ if is_word_byte(b) => {
                    let end = word_end(bytes, self.at);
                    (Token::Word(&line[self.at..end]), end)
                }
                _ => (Token::Punct(b), self.at + 1),
            };
            self.at = next;
            return Some(token);
        }
        self.at = bytes.len();
        None
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'$')
}

fn word_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..].iter().position(|&b| !is_word_byte(b)).map_or(bytes.len(), |n| from + n)
}

/// The text of the string whose opening quote is at `open`, and the index
/// after its closing quote (the end of the line when it is unclosed).
fn quoted(line: &str, open: usize) -> (&str, usize) {
    let rest = &line[open + 1..];
    match memchr::memchr(b'"', rest.as_bytes()) {
        Some(close) => (&rest[..close], open + 1 + close + 1),
        None => (rest, line.len()),
    }
}

/// A token that starts with `@`, `%`, `!` or `#` at `at`.
fn sigiled(line: &str, at: usize) -> (Token<'_>, usize) {
    let bytes = line.as_bytes();
    let sigil = bytes[at];
    if bytes.get(at + 1) == Some(&b'"') {
        let (text, next) = quoted(line, at + 1);
        let token = match sigil {
            b'@' => Token::Global(text),
            b'%' => Token::Local(text),
            b'!' => Token::MetaString(text),
            _ => Token::Str(text),
        };
        return (token, next);
    }
    let end = word_end(bytes, at + 1);
    let text = &line[at + 1..end];
    if text.is_empty() {
        return (Token::Punct(sigil), at + 1);
    }
    let token = match sigil {
        b'@' => Token::Global(text),
        b'%' => Token::Local(text),
        b'!' => Token::Meta(text),
        _ => Token::Group(text),
    };
    (token, end)
}

/// The index after the bracket that closes the one at `open` (`(`, `[`,
/// `{` or `<`), or the length of `tokens` when it is never closed.
pub fn skip_group(tokens: &[Token<'_>], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token {
            Token::Punct(b'(' | b'[' | b'{' | b'<') => depth += 1,
            Token::Punct(b')' | b']' | b'}' | b'>') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

#[cfg(test)]
mod tests {
    use super::Token::*;
    use super::*;

    #[test]
    fn a_global_line() {
        let line = r#"@"a b" = internal global [2 x i8] c"x\00", align 1 ; comment"#;
        let expected = vec![
            Global("a b"),
            Punct(b'='),
            Word("internal"),
            Word("global"),
            Punct(b'['),
            Word("2"),
            Word("x"),
            Word("i8"),
            Punct(b']'),
            Str("x\\00"),
            Punct(b','),
            Word("align"),
            Word("1"),
        ];
        assert_eq!(tokens(line), expected);
    }

    #[test]
    fn sigils_and_groups() {
        let t = tokens(r#"declare !dbg !7 i32 @f(ptr %p) #1 !"s""#);
        assert_eq!(t[1], Meta("dbg"));
        assert_eq!(t[2], Meta("7"));
        assert_eq!(t[4], Global("f"));
        assert_eq!(t[7], Local("p"));
        assert_eq!(t[9], Group("1"));
        assert_eq!(t[10], MetaString("s"));
        assert_eq!(skip_group(&t, 5), 9);
    }
}
