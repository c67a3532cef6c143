//! Attribute sets: the enum attributes (`nounwind`, `zeroext`,
//! `range(i32 0, 4)`) and string attributes (`"target-cpu"="generic"`) of
//! a function, its return value or an attribute group.

use super::lexer::{Token, skip_group};

/// A set of attributes as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttributeSet {
    /// Enum attributes by name (`align 8` and `range(...)` keep only the
    /// name).
    pub flags: Vec<Box<str>>,
    /// String attributes, `"key"="value"` (`"key"` alone has an empty
    /// value).
    pub strings: Vec<(Box<str>, Box<str>)>,
}

impl AttributeSet {
    /// Whether the enum attribute `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|f| &**f == name)
    }

    /// The value of the string attribute `key`, if present.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.strings.iter().rev().find(|(k, _)| &**k == key).map(|(_, v)| &**v)
    }

    /// Whether the set holds nothing.
    pub fn is_empty(&self) -> bool {
        self.flags.is_empty() && self.strings.is_empty()
    }

    /// Adds every attribute of `other` (later string values win).
    pub fn extend(&mut self, other: &AttributeSet) {
        self.flags.extend(other.flags.iter().cloned());
        self.strings.extend(other.strings.iter().cloned());
    }

    /// Reads attributes from `tokens` until one that cannot start an
    /// attribute, and returns the index of that token. Group references
    /// (`#0`) are pushed to `groups`.
    pub fn read<'a>(&mut self, tokens: &[Token<'a>], mut at: usize, groups: &mut Vec<&'a str>) -> usize {
        while let Some(token) = tokens.get(at) {
            match *token {
                Token::Group(id) => {
                    groups.push(id);
                    at += 1;
                }
                Token::Str(key) => {
                    let value = match (tokens.get(at + 1), tokens.get(at + 2)) {
                        (Some(Token::Punct(b'=')), Some(Token::Str(value))) => {
                            at += 2;
                            *value
                        }
                        _ => "",
                    };
                    self.strings.push((key.into(), value.into()));
                    at += 1;
                }
                Token::Word(name) if is_attribute_name(name) => {
                    self.flags.push(name.into());
                    at += 1;
                    if tokens.get(at) == Some(&Token::Punct(b'(')) {
                        at = skip_group(tokens, at);
                    } else if matches!(name, "align" | "alignstack")
                        && matches!(tokens.get(at), Some(Token::Word(n)) if n.bytes().all(|b| b.is_ascii_digit()))
                    {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        at
    }
}

/// Whether `word` can name an attribute: a lowercase identifier, not a
/// type (`i32`, `ptr`, `void`, `float` ...).
fn is_attribute_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !is_type_name(word)
}

/// Whether `word` is a first-class type keyword.
pub fn is_type_name(word: &str) -> bool {
    matches!(
        word,
        "void"
            | "ptr"
            | "half"
            | "bfloat"
            | "float"
            | "double"
            | "fp128"
            | "x86_fp80"
            | "ppc_fp128"
            | "label"
            | "metadata"
            | "token"
            | "x86_amx"
    ) || word.strip_prefix('i').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokens;
    use super::*;

    #[test]
    fn reads_enum_string_and_group_attributes() {
        let t = tokens(r#"nounwind memory(argmem: read) align 16 "target-cpu"="generic" "nokey" #3 {"#);
        let (mut set, mut groups) = (AttributeSet::default(), Vec::new());
        let end = set.read(&t, 0, &mut groups);
        assert_eq!(t[end], Token::Punct(b'{'));
        assert!(set.has("nounwind") && set.has("memory") && set.has("align"));
        assert_eq!(set.string("target-cpu"), Some("generic"));
        assert_eq!(set.string("nokey"), Some(""));
        assert_eq!(groups, ["3"]);
    }

    #[test]
    fn stops_at_a_type() {
        let t = tokens("noundef range(i32 -6, 1) i32 @f");
        let mut set = AttributeSet::default();
        let end = set.read(&t, 0, &mut Vec::new());
        assert_eq!(t[end], Token::Word("i32"));
        assert_eq!(set.flags.len(), 2);
    }
}
