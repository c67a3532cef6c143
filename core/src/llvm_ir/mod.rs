//! The facts of the LLVM IR module a `.mir` file embeds that code
//! generation consults: each global value's linkage and locality, each
//! function's attributes (with its attribute groups resolved: the
//! subtarget's `"target-cpu"` and `"target-features"`, return attributes,
//! `"probe-stack"` ...), the module flags (`"target-abi"`, `"Code Model"`),
//! one-string metadata nodes and the integer ranges of `!range` nodes.
//!
//! Only module-level lines are read; function bodies are skipped. The IR
//! that `llc` prints puts one entity on each line, and so does every test
//! of LLVM's that gisel has seen.

mod attributes;
mod debug_info;
mod global;
mod lexer;
mod preds;

pub use attributes::AttributeSet;
pub use debug_info::{DebugInfo, FreshAtomGroups, highest_atom_group, number_fresh_atom_groups};
pub use global::{GlobalKind, GlobalValue, Linkage, Visibility};
pub use preds::reorder_predecessors;

use crate::apint::ApInt;
use lexer::{Lexer, Token, tokens};
use rustc_hash::{FxHashMap, FxHashSet};

/// A function's attributes, groups resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FunctionAttributes {
    /// Function attributes.
    pub function: AttributeSet,
    /// Attributes of the return value.
    pub ret: AttributeSet,
}

/// The value of a module flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagValue {
    /// `i32 2`.
    Int(i64),
    /// `!"lp64d"`.
    Str(Box<str>),
    /// Anything else (a node, a list).
    Other,
}

/// The module-level facts of an LLVM IR module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IrModule {
    globals: FxHashMap<Box<str>, GlobalValue>,
    functions: FxHashMap<Box<str>, FunctionAttributes>,
    module_flags: Vec<(Box<str>, FlagValue)>,
    string_metadata: Vec<(Box<str>, Box<str>)>,
    ranges: FxHashMap<Box<str>, Box<[IntRange]>>,
    debug_info: DebugInfo,
    /// The numbers of the metadata nodes the module defines (`!N = ...`).
    metadata_ids: FxHashSet<u32>,
}

/// One half-open range `[lower, upper)` of a `!range` node, wrapping
/// modulo 2^width (`!{i8 0, i8 2}` holds 0 and 1; `!{i8 -1, i8 1}` holds
/// 255 and 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntRange {
    /// The first value in the range.
    pub lower: ApInt,
    /// The first value past it.
    pub upper: ApInt,
}

/// What is gathered while the lines are read, before attribute groups
/// (printed last) are known.
#[derive(Default)]
struct Reading<'a> {
    module: IrModule,
    function_groups: Vec<(&'a str, Vec<&'a str>)>,
    groups: FxHashMap<&'a str, AttributeSet>,
    flag_ids: Vec<&'a str>,
    flag_nodes: FxHashMap<&'a str, (Box<str>, FlagValue)>,
}

impl IrModule {
    /// Reads the module-level lines of `text` (an IR module as a `.mir`
    /// file embeds it, indentation removed or not).
    pub fn parse(text: &str) -> IrModule {
        let mut reading = Reading::default();
        let mut in_body = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if in_body {
                in_body = trimmed != "}";
                continue;
            }
            if let Some((id, node)) = metadata_node(trimmed) {
                if let Ok(number) = id.parse() {
                    reading.module.metadata_ids.insert(number);
                }
                if is_debug_info(node) {
                    reading.module.debug_info.read_node(id, node);
                    continue;
                }
            }
            let toks = match trimmed.as_bytes().first() {
                Some(b'@') => global_line_tokens(trimmed),
                Some(b'!') if !defines_node_list(trimmed) => continue,
                Some(b'!' | b'd' | b'a') => tokens(trimmed),
                _ => continue,
            };
            if reading.line(&toks) {
                in_body = trimmed.ends_with('{');
            }
        }
        reading.finish()
    }

    /// The global value named `name` (as written after `@`, quotes
    /// allowed).
    pub fn global(&self, name: &str) -> Option<&GlobalValue> {
        self.globals.get(unquote(name))
    }

    /// The names of every global value (variables, functions, aliases,
    /// ifuncs), unquoted, in no particular order.
    pub fn global_names(&self) -> impl Iterator<Item = &str> {
        self.globals.keys().map(|name| &**name)
    }

    /// The attributes of function `name`.
    pub fn function(&self, name: &str) -> Option<&FunctionAttributes> {
        self.functions.get(unquote(name))
    }

    /// The value of module flag `name`.
    pub fn module_flag(&self, name: &str) -> Option<&FlagValue> {
        self.module_flags.iter().find(|(n, _)| &**n == name).map(|(_, v)| v)
    }

    /// The string of a metadata node that holds one (`!0 = !{!"sp"}`:
    /// `string_metadata("!0")` is `sp`).
    pub fn string_metadata(&self, node: &str) -> Option<&str> {
        self.string_metadata.iter().find(|(id, _)| &**id == node).map(|(_, text)| &**text)
    }

    /// The ranges of metadata node `node` (`!5 = !{i8 0, i8 2}`:
    /// `ranges("!5")` is `[0, 2)`), all of one width; none unless the node
    /// is a list of integer pairs.
    pub fn ranges(&self, node: &str) -> Option<&[IntRange]> {
        self.ranges.get(node).map(|r| &**r)
    }

    /// Whether the module defines metadata node `!id`.
    pub fn defines_metadata(&self, id: u32) -> bool {
        self.metadata_ids.contains(&id)
    }

    /// The module's debug locations and their scopes.
    pub fn debug_info(&self) -> &DebugInfo {
        &self.debug_info
    }

    /// Adds the one-string metadata node `node` (`!0`) holding `text`.
    pub fn add_string_metadata(&mut self, node: &str, text: &str) {
        self.string_metadata.push((node.into(), text.into()));
    }
}

/// The tokens of a `@name = ...` line that say what kind of global it is
/// (up to `global`, `constant`, `alias` or `ifunc`), and the rest only
/// when the line mentions `sanitize_memtag`: an initializer (a table of
/// thousands of values, say) is not read.
fn global_line_tokens(line: &str) -> Vec<Token<'_>> {
    if memchr::memmem::find(line.as_bytes(), b"sanitize_memtag").is_some() {
        return tokens(line);
    }
    let mut toks = Vec::new();
    for token in Lexer::new(line) {
        toks.push(token);
        if matches!(token, Token::Word("global" | "constant" | "alias" | "ifunc")) {
            break;
        }
    }
    toks
}

/// Whether a `!...` line defines a node written `!{...}` (module flags,
/// one-string nodes, ranges), the only metadata read; the rest (debug
/// information, `distinct` nodes) is skipped unread.
fn defines_node_list(line: &str) -> bool {
    line.split_once('=').is_some_and(|(_, node)| node.trim_start().starts_with("!{"))
}

/// `(N, node)` of a line `!N = node` defining a metadata node.
fn metadata_node(line: &str) -> Option<(&str, &str)> {
    line.strip_prefix('!')?.split_once(" = ")
}

/// Whether `node` is a debug-information node (`!DI...`, `distinct` or
/// not).
fn is_debug_info(node: &str) -> bool {
    node.strip_prefix("distinct ").unwrap_or(node).starts_with("!DI")
}

/// A global's name as written after `@` without its quotes.
pub fn unquote(name: &str) -> &str {
    name.strip_prefix('"').and_then(|n| n.strip_suffix('"')).unwrap_or(name)
}

impl<'a> Reading<'a> {
    /// Takes one module-level line; true when it opens a function body.
    fn line(&mut self, toks: &[Token<'a>]) -> bool {
        match toks {
            [Token::Word("define" | "declare"), ..] => {
                let Some(header) = global::read_function_header(toks) else { return false };
                let attributes = FunctionAttributes { function: header.attributes, ret: header.ret };
                self.module.functions.insert(header.name.into(), attributes);
                self.module.globals.insert(header.name.into(), header.global);
                self.function_groups.push((header.name, header.groups));
                toks[0] == Token::Word("define")
            }
            [Token::Word("attributes"), Token::Group(id), Token::Punct(b'='), Token::Punct(b'{'), rest @ ..] => {
                let mut set = AttributeSet::default();
                set.read(rest, 0, &mut Vec::new());
                self.groups.insert(id, set);
                false
            }
            [Token::Global(_), Token::Punct(b'='), ..] => {
                if let Some((name, global)) = global::read_global_line(toks) {
                    self.module.globals.insert(name.into(), global);
                }
                false
            }
            [Token::Meta("llvm.module.flags"), Token::Punct(b'='), Token::Punct(b'!'), rest @ ..] => {
                self.flag_ids.extend(rest.iter().filter_map(|t| match t {
                    Token::Meta(id) => Some(*id),
                    _ => None,
                }));
                false
            }
            [Token::Meta(id), Token::Punct(b'='), rest @ ..] => {
                self.metadata_node(id, rest);
                false
            }
            _ => false,
        }
    }

    /// `!N = !{...}`: a possible module flag, one-string node or list of
    /// ranges.
    fn metadata_node(&mut self, id: &'a str, node: &[Token<'a>]) {
        let [Token::Punct(b'!'), Token::Punct(b'{'), fields @ .., Token::Punct(b'}')] = node else { return };
        if let Some(ranges) = int_ranges(fields) {
            self.module.ranges.insert(format!("!{id}").into(), ranges);
            return;
        }
        match fields {
            [Token::MetaString(text)] => self.module.string_metadata.push((format!("!{id}").into(), (*text).into())),
            [
                Token::Word(_),
                Token::Word(_),
                Token::Punct(b','),
                Token::MetaString(name),
                Token::Punct(b','),
                value @ ..,
            ] => {
                let value = match value {
                    [Token::Word(_), Token::Word(n)] => n.parse().map_or(FlagValue::Other, FlagValue::Int),
                    [Token::MetaString(s)] => FlagValue::Str((*s).into()),
                    _ => FlagValue::Other,
                };
                self.flag_nodes.insert(id, ((*name).into(), value));
            }
            _ => {}
        }
    }

    fn finish(mut self) -> IrModule {
        for (name, groups) in self.function_groups {
            let Some(attributes) = self.module.functions.get_mut(name) else { continue };
            // Inline attributes and groups together, groups first.
            let mut merged = AttributeSet::default();
            for group in groups {
                if let Some(set) = self.groups.get(group) {
                    merged.extend(set);
                }
            }
            merged.extend(&attributes.function);
            attributes.function = merged;
        }
        for id in self.flag_ids {
            if let Some(flag) = self.flag_nodes.remove(id) {
                self.module.module_flags.push(flag);
            }
        }
        self.module
    }
}

/// The fields of a `!range` node, `iW lo, iW hi` pairs of one width
/// separated by commas; `None` for anything else.
fn int_ranges(fields: &[Token<'_>]) -> Option<Box<[IntRange]>> {
    let mut values = Vec::new();
    let mut width = None;
    for (i, field) in fields.split(|t| *t == Token::Punct(b',')).enumerate() {
        let [Token::Word(ty), Token::Word(value)] = field else { return None };
        let bits: u32 = ty.strip_prefix('i')?.parse().ok()?;
        if i > 0 && width != Some(bits) {
            return None;
        }
        width = Some(bits);
        values.push(ApInt::parse(bits, value)?);
    }
    if values.is_empty() || values.len() % 2 != 0 {
        return None;
    }
    let mut values = values.into_iter();
    let mut ranges = Vec::new();
    while let (Some(lower), Some(upper)) = (values.next(), values.next()) {
        ranges.push(IntRange { lower, upper });
    }
    Some(ranges.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = r#"
; ModuleID = 'x.c'
target triple = "riscv64-unknown-linux-gnu"
@z_errmsg = external local_unnamed_addr constant [10 x ptr], align 8
@tls = dso_local thread_local global i32 0

define dso_local range(i32 -6, 1) i32 @f(ptr noundef %0) local_unnamed_addr #0 {
  %2 = load i32, ptr @z_errmsg, align 4
  ret i32 %2
}

declare ptr @zcalloc(ptr noundef, i32 noundef) #1

attributes #0 = { nounwind "target-cpu"="generic-rv64" "target-features"="+64bit,+m,-zbb" }
attributes #1 = { "target-features"="+a" }

!llvm.module.flags = !{!0, !1, !2}
!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 1, !"target-abi", !"lp64d"}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{!"sp"}
!4 = !{i8 0, i8 2}
!5 = !{i32 -1, i32 1, i32 4, i32 8}
!6 = !{i8 0, i16 2}
"#;

    #[test]
    fn reads_functions_globals_and_flags() {
        let m = IrModule::parse(MODULE);
        let f = m.function("f").unwrap();
        assert_eq!(f.function.string("target-cpu"), Some("generic-rv64"));
        assert_eq!(f.function.string("target-features"), Some("+64bit,+m,-zbb"));
        assert!(f.function.has("nounwind") && f.ret.has("range"));
        assert_eq!(m.function("\"zcalloc\"").unwrap().function.string("target-features"), Some("+a"));
        assert!(m.global("zcalloc").unwrap().is_declaration);
        assert!(m.global("f").unwrap().is_dso_local());
        assert!(m.global("tls").unwrap().thread_local);
        assert!(!m.global("z_errmsg").unwrap().is_dso_local());
        assert_eq!(m.module_flag("target-abi"), Some(&FlagValue::Str("lp64d".into())));
        assert_eq!(m.module_flag("PIC Level"), Some(&FlagValue::Int(2)));
        assert_eq!(m.module_flag("Code Model"), None);
        assert_eq!(m.string_metadata("!3"), Some("sp"));
        assert!(m.global("missing").is_none());
    }

    #[test]
    fn reads_what_a_global_line_says_before_its_initializer() {
        let module = r#"
@table = internal unnamed_addr constant [3 x i16] [i16 1, i16 2, i16 3], align 2
@text = dso_local global [20 x i8] c"sanitize_memtag xyz\00", align 1
@tagged = global i32 0, sanitize_memtag
@alias = hidden alias i32, ptr @tagged
!7 = distinct !{!7, !8}
!8 = !DILocation(line: 3, scope: !7)
!9 = !{!"sp"}
"#;
        let m = IrModule::parse(module);
        let table = m.global("table").unwrap();
        assert!(table.linkage.is_local() && !table.is_declaration && !table.tagged);
        assert!(!m.global("text").unwrap().tagged, "the name is in the initializer");
        assert!(m.global("tagged").unwrap().tagged);
        assert_eq!(m.global("alias").unwrap().kind, GlobalKind::Alias);
        assert_eq!(m.string_metadata("!9"), Some("sp"));
        assert_eq!(m.string_metadata("!7"), None);
    }

    #[test]
    fn reads_range_nodes() {
        let m = IrModule::parse(MODULE);
        let range = |bits, lower, upper| IntRange {
            lower: ApInt::from_i128(bits, lower),
            upper: ApInt::from_i128(bits, upper),
        };
        assert_eq!(m.ranges("!4"), Some(&[range(8, 0, 2)][..]));
        assert_eq!(m.ranges("!5"), Some(&[range(32, -1, 1), range(32, 4, 8)][..]));
        assert_eq!(m.ranges("!6"), None, "widths differ");
        assert_eq!(m.ranges("!0"), None, "a module flag");
        assert_eq!(m.ranges("!3"), None);
    }
}
