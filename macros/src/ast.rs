//! The syntax tree of a `legalizer!` invocation, as written: nothing here
//! is resolved or checked (that is `resolve.rs` and `validate.rs`).

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Expr, ExprBlock, ExprClosure, Ident, LitBool, LitInt, Path, Signature, Visibility};

use crate::ctxt::SpanRange;

/// The whole invocation: one function.
pub struct Input {
    /// Doc comments and other attributes, passed through.
    pub attrs: Vec<Attribute>,
    /// `pub`, `pub(crate)`, ...
    pub vis: Visibility,
    /// `fn name(args) -> LegalizerInfo`.
    pub sig: Signature,
    /// The statements of the body, in order.
    pub body: Vec<Stmt>,
}

/// One statement of the body.
pub enum Stmt {
    /// `key = value;` (top level only).
    Option(OptionItem),
    /// `let name = expr;`, a runtime value (types as literals inside).
    Let(Let),
    /// `let name = [..];`, a named type list.
    List(ListStmt),
    /// `G_ADD | G_SUB => legal_for(..).clamp_scalar(..);`
    Rules(RuleStmt),
    /// `if cond { .. } else { .. }`.
    If(IfStmt),
}

/// `key = value;`.
pub struct OptionItem {
    /// The key.
    pub key: Ident,
    /// The value.
    pub value: Expr,
}

/// `let name = expr;`.
pub struct Let {
    /// The bound name.
    pub name: Ident,
    /// The value, with type literals still as identifiers.
    pub value: Expr,
}

/// `let name = [..];`: a type list named for use in rules.
pub struct ListStmt {
    /// The name.
    pub name: Ident,
    /// The members.
    pub list: ListLit,
}

/// `[if cond, a, b, ..]`: types, tuples and other lists (spliced in),
/// present only when the optional gate holds.
pub struct ListLit {
    /// `if cond,`: the members exist only when `cond` holds.
    pub gate: Option<Box<Expr>>,
    /// The members as written.
    pub items: Vec<Arg>,
    /// `[` through `]`.
    pub range: SpanRange,
}

/// `if cond { .. } else if .. { .. } else { .. }`.
pub struct IfStmt {
    /// The condition, a Rust expression.
    pub cond: Expr,
    /// The statements when it holds.
    pub then: Vec<Stmt>,
    /// The `else` branch.
    pub otherwise: Option<Box<Else>>,
}

/// What follows `else`.
pub enum Else {
    /// `else { .. }`.
    Block(Vec<Stmt>),
    /// `else if ..`.
    If(IfStmt),
}

/// `G_ADD | G_SUB => call.call...;`.
pub struct RuleStmt {
    /// The opcode names, in order.
    pub opcodes: Vec<Ident>,
    /// The `=>` token's span.
    pub arrow: Span,
    /// The builder calls, in order (empty for `G_ADD => ;`).
    pub calls: Vec<Call>,
    /// Opcodes through the final `;`.
    pub range: SpanRange,
}

/// `name(args)`, a builder method, predicate or mutation.
pub struct Call {
    /// The name.
    pub name: Ident,
    /// The arguments.
    pub args: Vec<Arg>,
    /// The span of the parentheses.
    pub paren: Span,
    /// Name through `)`.
    pub range: SpanRange,
    /// The call as written, for messages (`clamp_scalar(0, s32, s64)`).
    pub text: String,
    /// `legal_for(if cond, ..)`: a gate on the rule, which then exists
    /// only when `cond` holds (LLVM's `legalFor(bool, ..)`).
    pub gate: Option<Box<Expr>>,
}

/// One argument, by its shape; what it means depends on the parameter.
pub enum Arg {
    /// `0`, `32`.
    Int(LitInt),
    /// `true`, `false`.
    Bool(LitBool),
    /// `s32`, `v4s32`, `xlen`, `Acquire`.
    Ident(Ident),
    /// `<4 x s32>`, `<vscale x 2 x s64>`.
    Angle(AngleType),
    /// `(s32, p0)`.
    Tuple(Vec<Arg>, SpanRange),
    /// `[s32, s64]`, `[if cond, s32, int_vecs]`.
    List(ListLit),
    /// `is_scalar(0)`.
    Call(Call),
    /// `|q| q.types[0].is_scalar()`.
    Closure(Box<ExprClosure>),
    /// `crate::toy::is_wide`.
    Path(Path),
    /// `{ expr }`: any Rust expression of the expected type.
    Block(Box<ExprBlock>),
}

/// A type in LLVM's angle-bracket spelling.
pub struct AngleType {
    /// The normalized text, `<4 x s32>`.
    pub text: String,
    /// `<` through `>`.
    pub range: SpanRange,
}

impl Arg {
    /// The source range of the argument.
    pub fn range(&self) -> SpanRange {
        match self {
            Arg::Int(lit) => SpanRange::one(lit.span()),
            Arg::Bool(lit) => SpanRange::one(lit.span),
            Arg::Ident(ident) => SpanRange::one(ident.span()),
            Arg::Angle(angle) => angle.range,
            Arg::Tuple(_, range) => *range,
            Arg::List(list) => list.range,
            Arg::Call(call) => call.range,
            Arg::Closure(closure) => SpanRange::of(closure),
            Arg::Path(path) => SpanRange::of(path),
            Arg::Block(block) => SpanRange::of(block),
        }
    }

    /// The argument as written, compacted (`(s32, p0)`).
    pub fn text(&self) -> String {
        match self {
            Arg::Int(lit) => lit.to_string(),
            Arg::Bool(lit) => lit.value.to_string(),
            Arg::Ident(ident) => ident.to_string(),
            Arg::Angle(angle) => angle.text.clone(),
            Arg::Tuple(items, _) => format!("({})", join(items)),
            Arg::List(list) => match &list.gate {
                Some(cond) => format!("[if {}, {}]", compact(&quote::quote!(#cond)), join(&list.items)),
                None => format!("[{}]", join(&list.items)),
            },
            Arg::Call(call) => call.text.clone(),
            Arg::Closure(closure) => {
                let inputs: Vec<String> = closure.inputs.iter().map(|p| compact(&quote::quote!(#p))).collect();
                let body = &closure.body;
                let capture = if closure.capture.is_some() { "move " } else { "" };
                format!("{capture}|{}| {}", inputs.join(", "), compact(&quote::quote!(#body)))
            }
            Arg::Path(path) => compact(&quote::quote!(#path)),
            Arg::Block(block) => compact(&quote::quote!(#block)),
        }
    }
}

/// `a, b, c` from the arguments' texts.
pub fn join(args: &[Arg]) -> String {
    args.iter().map(Arg::text).collect::<Vec<_>>().join(", ")
}

/// Rust tokens as text with the spaces `to_string` puts around
/// punctuation removed where a person would not write them.
pub fn compact(tokens: &TokenStream) -> String {
    let text = tokens.to_string();
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = out.chars().last().unwrap_or(' ');
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            let tight_after = matches!(prev, '(' | '[' | '.' | ':' | '!');
            let tight_before = matches!(next, ')' | ']' | '.' | ',' | '(' | '[' | ':' | ';' | '?');
            if tight_after || tight_before {
                continue;
            }
        }
        out.push(c);
    }
    out
}
