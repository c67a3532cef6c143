//! Global values: what a global variable, function, alias or ifunc line
//! says about linkage, visibility and locality, which decides how code
//! may address it (`TargetMachine::shouldAssumeDSOLocal`).

use super::attributes::AttributeSet;
use super::lexer::{Token, skip_group};

/// A global value's linkage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Linkage {
    /// `external` (written only on declarations) or none written.
    #[default]
    External,
    /// `available_externally`.
    AvailableExternally,
    /// `linkonce`.
    LinkOnce,
    /// `linkonce_odr`.
    LinkOnceOdr,
    /// `weak`.
    Weak,
    /// `weak_odr`.
    WeakOdr,
    /// `common`.
    Common,
    /// `appending`.
    Appending,
    /// `internal`.
    Internal,
    /// `private`.
    Private,
    /// `extern_weak`.
    ExternWeak,
}

impl Linkage {
    fn from_keyword(word: &str) -> Option<Linkage> {
        Some(match word {
            "external" => Linkage::External,
            "available_externally" => Linkage::AvailableExternally,
            "linkonce" => Linkage::LinkOnce,
            "linkonce_odr" => Linkage::LinkOnceOdr,
            "weak" => Linkage::Weak,
            "weak_odr" => Linkage::WeakOdr,
            "common" => Linkage::Common,
            "appending" => Linkage::Appending,
            "internal" => Linkage::Internal,
            "private" => Linkage::Private,
            "extern_weak" => Linkage::ExternWeak,
            _ => return None,
        })
    }

    /// `internal` or `private`: invisible outside the module.
    pub fn is_local(self) -> bool {
        matches!(self, Linkage::Internal | Linkage::Private)
    }

    /// Another definition may replace this one at link time.
    pub fn is_weak_for_linker(self) -> bool {
        matches!(
            self,
            Linkage::Weak
                | Linkage::WeakOdr
                | Linkage::LinkOnce
                | Linkage::LinkOnceOdr
                | Linkage::Common
                | Linkage::ExternWeak
        )
    }
}

/// A global value's visibility.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Visibility {
    /// `default`.
    #[default]
    Default,
    /// `hidden`.
    Hidden,
    /// `protected`.
    Protected,
}

/// What kind of global value a name is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GlobalKind {
    /// `@g = global ...` or `@g = constant ...`.
    #[default]
    Variable,
    /// `define` or `declare`.
    Function,
    /// `@a = alias ...`.
    Alias,
    /// `@i = ifunc ...`.
    IFunc,
}

/// The properties of one global value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobalValue {
    /// Variable, function, alias or ifunc.
    pub kind: GlobalKind,
    /// The linkage.
    pub linkage: Linkage,
    /// The visibility.
    pub visibility: Visibility,
    /// `dso_local` written.
    pub dso_local: bool,
    /// `dllimport` written.
    pub dll_import: bool,
    /// `thread_local` written.
    pub thread_local: bool,
    /// A declaration: `declare`, or a variable with no initializer.
    pub is_declaration: bool,
    /// `sanitize_memtag`: the address carries an MTE tag.
    pub tagged: bool,
}

impl GlobalValue {
    /// LLVM's `isDSOLocal`: written `dso_local`, or implied by local
    /// linkage or a non-default visibility (not on `extern_weak`).
    pub fn is_dso_local(&self) -> bool {
        self.dso_local
            || self.linkage.is_local()
            || (self.visibility != Visibility::Default && self.linkage != Linkage::ExternWeak)
    }

    /// A definition the linker keeps whatever else it sees
    /// (`isStrongDefinitionForLinker`).
    pub fn is_strong_definition_for_linker(&self) -> bool {
        !self.is_declaration && self.linkage != Linkage::AvailableExternally && !self.linkage.is_weak_for_linker()
    }
}

/// The prefix keywords of a global or function: linkage, preemption,
/// visibility, DLL storage and thread-local model; returns the index of
/// the first token that is none of them.
fn read_prefix(tokens: &[Token<'_>], mut at: usize, global: &mut GlobalValue) -> usize {
    while let Some(&Token::Word(word)) = tokens.get(at) {
        if let Some(linkage) = Linkage::from_keyword(word) {
            global.linkage = linkage;
        } else {
            match word {
                "dso_local" => global.dso_local = true,
                "dso_preemptable"
                | "default"
                | "dllexport"
                | "unnamed_addr"
                | "local_unnamed_addr"
                | "externally_initialized" => {}
                "hidden" => global.visibility = Visibility::Hidden,
                "protected" => global.visibility = Visibility::Protected,
                "dllimport" => global.dll_import = true,
                "thread_local" => {
                    global.thread_local = true;
                    if tokens.get(at + 1) == Some(&Token::Punct(b'(')) {
                        at = skip_group(tokens, at + 1) - 1;
                    }
                }
                "addrspace" if tokens.get(at + 1) == Some(&Token::Punct(b'(')) => at = skip_group(tokens, at + 1) - 1,
                _ => return at,
            }
        }
        at += 1;
    }
    at
}

/// Reads `@name = ...` (a variable, alias or ifunc); `None` when the line
/// is not one.
pub fn read_global_line<'a>(tokens: &[Token<'a>]) -> Option<(&'a str, GlobalValue)> {
    let (Some(Token::Global(name)), Some(Token::Punct(b'='))) = (tokens.first(), tokens.get(1)) else {
        return None;
    };
    let mut global = GlobalValue::default();
    let at = read_prefix(tokens, 2, &mut global);
    global.kind = match tokens.get(at) {
        Some(Token::Word("global" | "constant")) => GlobalKind::Variable,
        Some(Token::Word("alias")) => GlobalKind::Alias,
        Some(Token::Word("ifunc")) => GlobalKind::IFunc,
        _ => return None,
    };
    global.is_declaration =
        global.kind == GlobalKind::Variable && matches!(global.linkage, Linkage::External | Linkage::ExternWeak) && {
            // `external` is written only on declarations; a definition with
            // external linkage has none.
            tokens[2..at].iter().any(|t| matches!(t, Token::Word("external" | "extern_weak")))
        };
    global.tagged = tokens[at..].contains(&Token::Word("sanitize_memtag"));
    Some((name, global))
}

/// A function's header: its name, properties, return attributes and
/// function attributes (with the groups it names).
pub struct FunctionHeader<'a> {
    /// The name, without `@`.
    pub name: &'a str,
    /// Its properties as a global value.
    pub global: GlobalValue,
    /// Attributes of the return value.
    pub ret: AttributeSet,
    /// Function attributes written inline.
    pub attributes: AttributeSet,
    /// The attribute groups named (`#0` gives `0`).
    pub groups: Vec<&'a str>,
}

/// Reads a `define ...` or `declare ...` line up to its body; `None` when
/// the line is not one.
pub fn read_function_header<'a>(tokens: &[Token<'a>]) -> Option<FunctionHeader<'a>> {
    let is_declaration = match tokens.first() {
        Some(Token::Word("define")) => false,
        Some(Token::Word("declare")) => true,
        _ => return None,
    };
    let mut global = GlobalValue { kind: GlobalKind::Function, is_declaration, ..GlobalValue::default() };
    let mut at = read_prefix(tokens, 1, &mut global);
    at = skip_calling_convention(tokens, at);
    let mut ret = AttributeSet::default();
    ret.read(tokens, at, &mut Vec::new());
    let name_at = tokens.iter().position(|t| matches!(t, Token::Global(_)))?;
    let Token::Global(name) = tokens[name_at] else { return None };
    let after_params = match tokens.get(name_at + 1) {
        Some(Token::Punct(b'(')) => skip_group(tokens, name_at + 1),
        _ => name_at + 1,
    };
    let (mut attributes, mut groups) = (AttributeSet::default(), Vec::new());
    attributes.read(tokens, after_params, &mut groups);
    Some(FunctionHeader { name, global, ret, attributes, groups })
}

/// Skips a calling convention keyword (`fastcc`, `cc 10`,
/// `aarch64_vector_pcs`, `riscv_vector_cc`).
fn skip_calling_convention(tokens: &[Token<'_>], at: usize) -> usize {
    match tokens.get(at) {
        Some(Token::Word("cc")) => at + 2,
        Some(Token::Word(w)) if w.ends_with("cc") || w.ends_with("_pcs") || w.starts_with("preserve_") => at + 1,
        _ => at,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokens;
    use super::*;

    #[test]
    fn variables() {
        let (name, g) =
            read_global_line(&tokens("@z_errmsg = external local_unnamed_addr constant [10 x ptr], align 8")).unwrap();
        assert_eq!(name, "z_errmsg");
        assert!(g.is_declaration && !g.is_dso_local());
        let (_, g) = read_global_line(&tokens("@t = internal unnamed_addr constant [2 x i8] c\"ab\"")).unwrap();
        assert!(!g.is_declaration && g.is_dso_local() && g.is_strong_definition_for_linker());
        let (_, g) = read_global_line(&tokens("@v = hidden thread_local(initialexec) global i32 0")).unwrap();
        assert!(g.thread_local && g.is_dso_local());
        let (_, g) = read_global_line(&tokens("@w = extern_weak hidden global i32")).unwrap();
        assert!(g.is_declaration && !g.is_dso_local());
        let (_, g) = read_global_line(&tokens("@c = common global i32 0, align 4")).unwrap();
        assert!(!g.is_strong_definition_for_linker());
        let (_, g) = read_global_line(&tokens("@m = global i32 0, sanitize_memtag")).unwrap();
        assert!(g.tagged);
        assert!(read_global_line(&tokens("%struct.s = type { i32 }")).is_none());
    }

    #[test]
    fn function_headers() {
        let line = "define internal fastcc range(i32 0, 4) i32 @deflate_huff(ptr noundef %0, i32 noundef range(i32 0, 6) %1) unnamed_addr #0 {";
        let f = read_function_header(&tokens(line)).unwrap();
        assert_eq!(f.name, "deflate_huff");
        assert!(f.global.linkage.is_local() && !f.global.is_declaration);
        assert!(f.ret.has("range"));
        assert_eq!(f.groups, ["0"]);
        let f = read_function_header(&tokens("declare ptr @zcalloc(ptr noundef, i32 noundef) #1")).unwrap();
        assert!(f.global.is_declaration && !f.global.is_dso_local() && f.ret.is_empty());
        let f = read_function_header(&tokens(r#"define zeroext i1 @g() "probe-stack"="inline-asm" {"#)).unwrap();
        assert!(f.ret.has("zeroext"));
        assert_eq!(f.attributes.string("probe-stack"), Some("inline-asm"));
        let f = read_function_header(&tokens("define ptr @test_global() { ret ptr undef }")).unwrap();
        assert!(f.ret.is_empty() && f.attributes.is_empty());
    }
}
