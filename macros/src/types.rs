//! Type arguments: literals (`s32`, `p0`, `v4s32`, `nxv2s64`, `<4 x s32>`),
//! `let`-bound names and `{ expr }` escapes (lists of them are `lists.rs`). Literals are checked with
//! gisel-core's own LLT parser, so the macro and the runtime agree on what
//! `v4s32` means.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use gisel_core::ty::Llt;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::visit_mut::VisitMut;

use crate::ast::Arg;
use crate::ctxt::{Ctxt, SpanRange};
use crate::lists::ListDef;
use crate::sigs::did_you_mean;

/// The pointer size every `pN` literal gets.
#[derive(Clone, Copy)]
pub enum PointerBits {
    /// A literal: pointer types are known at compile time.
    Known(u32),
    /// A runtime expression, bound to a hidden local.
    Runtime,
}

/// What resolution needs to know about the function being expanded.
pub struct Env {
    /// The pointer size.
    pub pointer_bits: PointerBits,
    /// Names bound by `let` so far, and where.
    pub lets: BTreeMap<String, Span>,
    /// Type lists named so far.
    pub lists: BTreeMap<String, Rc<ListDef>>,
    /// The next number for hidden locals and list occurrences.
    pub next_id: Cell<usize>,
}

impl Env {
    /// An environment with nothing bound yet.
    pub fn new(pointer_bits: PointerBits) -> Env {
        Env { pointer_bits, lets: BTreeMap::new(), lists: BTreeMap::new(), next_id: Cell::new(0) }
    }

    /// A number not handed out before in this expansion.
    pub fn next_id(&self) -> usize {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        id
    }

    /// The closest `let` or list name to `name`, as a hint.
    fn suggest(&self, name: &str) -> String {
        did_you_mean(name, self.lets.keys().chain(self.lists.keys()).map(String::as_str))
    }
}

/// The hidden local holding a runtime pointer size.
pub fn pointer_bits_ident() -> syn::Ident {
    syn::Ident::new("__gisel_pointer_bits", Span::mixed_site())
}

/// A resolved type argument.
#[derive(Clone)]
pub struct TyVal {
    /// The exact type, when known at compile time.
    pub known: Option<Llt>,
    /// The shape (pointer sizes may be a placeholder), for literals.
    pub shape: Option<Llt>,
    /// The expression that builds it.
    pub tokens: TokenStream,
    /// Where it was written.
    pub range: SpanRange,
    /// As written.
    pub text: String,
    /// The named list it was spliced from, for messages.
    pub list: Option<ListOrigin>,
}

/// Where a type taken from a named list was written.
#[derive(Clone)]
pub struct ListOrigin {
    /// The list's name.
    pub name: String,
    /// The member in the list's definition.
    pub member: SpanRange,
}

/// Reports `message` at `ty`, with a note at its place in a named list
/// when it comes from one.
pub fn ty_error(ty: &TyVal, message: impl std::fmt::Display, cx: &Ctxt) {
    match &ty.list {
        Some(origin) => cx.error_with_note(
            ty.range,
            format!("{message} (a member of type list `{}`)", origin.name),
            origin.member,
            format!("`{}` is listed here", ty.text),
        ),
        None => cx.error(ty.range, message),
    }
}

/// Does `name` look like an attempt at a type literal (so that a
/// malformed one is reported as such, not as an unknown name)?
pub fn looks_like_literal(name: &str) -> bool {
    let rest = name.strip_prefix("nxv").or_else(|| name.strip_prefix('v'));
    match rest {
        Some(rest) => rest.starts_with(|c: char| c.is_ascii_digit()),
        None => {
            let mut chars = name.chars();
            matches!(chars.next(), Some('s' | 'p')) && chars.all(|c| c.is_ascii_digit())
        }
    }
}

/// Parses an identifier-style literal into LLVM's spelling and the type
/// (pointers of 64 bits as a placeholder).
fn parse_ident_literal(name: &str) -> Result<(String, Llt), String> {
    let (scalable, rest) = match name.strip_prefix("nxv") {
        Some(rest) => (true, Some(rest)),
        None => (false, name.strip_prefix('v')),
    };
    let text = match rest {
        None => name.to_owned(),
        Some(rest) => {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let (count, element) = rest.split_at(digits);
            if element.is_empty() {
                return Err(format!("ill-formed type literal `{name}`: the element type is missing (`v4s32`)"));
            }
            if scalable { format!("<vscale x {count} x {element}>") } else { format!("<{count} x {element}>") }
        }
    };
    parse_llvm(&text).map(|llt| (text, llt)).map_err(|e| format!("ill-formed type literal `{name}`: {e}"))
}

fn parse_llvm(text: &str) -> Result<Llt, String> {
    let llt = Llt::parse_with(text, |_| 64).map_err(|e| e.to_string())?;
    if llt.is_fixed_vector() && llt.num_elements() == 1 {
        let elt = llt.element_type();
        return Err(format!("a vector needs at least 2 elements (LLT has no one-element vectors); write `{elt}`"));
    }
    if text.starts_with('i') || text.starts_with('f') || text == "bf16" {
        return Err("write scalars as `sN`".to_owned());
    }
    Ok(llt)
}

/// The expression building `llt` (pointers with the target's size).
pub fn llt_tokens(llt: Llt, pointer_bits: PointerBits) -> TokenStream {
    let ty = quote!(::gisel_core::ty::Llt);
    if llt.is_vector() {
        let count = llt.num_elements();
        let elt = llt_tokens(llt.element_type(), pointer_bits);
        return if llt.is_scalable() {
            quote!(#ty::scalable_vector(#count, #elt))
        } else {
            quote!(#ty::fixed_vector(#count, #elt))
        };
    }
    if llt.is_pointer() {
        let space = llt.address_space();
        return match pointer_bits {
            PointerBits::Known(bits) => quote!(#ty::pointer(#space, #bits)),
            PointerBits::Runtime => {
                let bits = pointer_bits_ident();
                quote!(#ty::pointer(#space, #bits))
            }
        };
    }
    let bits = llt.scalar_size_in_bits();
    quote!(#ty::scalar(#bits))
}

/// `shape` with the target's pointer size, when known.
fn with_pointer_bits(shape: Llt, pointer_bits: PointerBits) -> Option<Llt> {
    let PointerBits::Known(bits) = pointer_bits else {
        return (!shape.scalar_type().is_pointer()).then_some(shape);
    };
    let scalar = shape.scalar_type();
    if !scalar.is_pointer() {
        return Some(shape);
    }
    let pointer = Llt::pointer(scalar.address_space(), bits);
    Some(if shape.is_vector() { shape.change_element_type(pointer) } else { pointer })
}

fn literal(text: &str, shape: Llt, range: SpanRange, env: &Env) -> TyVal {
    TyVal {
        known: with_pointer_bits(shape, env.pointer_bits),
        shape: Some(shape),
        tokens: llt_tokens(shape, env.pointer_bits),
        range,
        text: text.to_owned(),
        list: None,
    }
}

fn runtime(tokens: TokenStream, range: SpanRange, text: String) -> TyVal {
    TyVal { known: None, shape: None, tokens, range, text, list: None }
}

/// Resolves a type argument, reporting what is wrong with it.
pub fn resolve_type(arg: &Arg, env: &Env, cx: &Ctxt) -> Option<TyVal> {
    let range = arg.range();
    match arg {
        Arg::Ident(ident) => {
            let name = ident.to_string();
            if env.lets.contains_key(&name) {
                return Some(runtime(quote!(#ident), range, name));
            }
            if env.lists.contains_key(&name) {
                cx.error(range, format!("`{name}` is a type list, but one type is expected here"));
                return None;
            }
            if looks_like_literal(&name) {
                return match parse_ident_literal(&name) {
                    Ok((_, shape)) => Some(literal(&name, shape, range, env)),
                    Err(message) => {
                        cx.error(range, message);
                        None
                    }
                };
            }
            let hint = match name.strip_prefix(['i', 'u', 'f']) {
                Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    format!("; did you mean `s{digits}`?")
                }
                _ => match env.suggest(&name) {
                    hint if hint.is_empty() => {
                        "; use a literal (`s32`, `p0`, `v4s32`), a `let` binding or `{ expr }`".to_owned()
                    }
                    hint => hint,
                },
            };
            cx.error(range, format!("unknown type `{name}`{hint}"));
            None
        }
        Arg::Angle(angle) => match parse_llvm(&angle.text) {
            Ok(shape) => Some(literal(&angle.text, shape, range, env)),
            Err(message) => {
                cx.error(range, format!("ill-formed type literal `{}`: {message}", angle.text));
                None
            }
        },
        Arg::Block(block) => Some(runtime(crate::resolve::block_tokens(block), range, arg.text())),
        _ => {
            cx.error(range, format!("expected a type (`s32`, `p0`, `v4s32`, `<4 x s32>`), found `{}`", arg.text()));
            None
        }
    }
}

/// Rewrites type literals inside a `let` value into LLT constructors.
pub fn rewrite_let_value(expr: &mut syn::Expr, env: &Env, cx: &Ctxt) {
    struct Rewriter<'a> {
        env: &'a Env,
        cx: &'a Ctxt,
    }
    impl VisitMut for Rewriter<'_> {
        fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
            if let syn::Expr::Path(path) = expr
                && path.qself.is_none()
                && let Some(ident) = path.path.get_ident()
            {
                let name = ident.to_string();
                if !self.env.lets.contains_key(&name) && looks_like_literal(&name) {
                    let arg = Arg::Ident(ident.clone());
                    if let Some(ty) = resolve_type(&arg, self.env, self.cx) {
                        *expr = syn::Expr::Verbatim(ty.tokens);
                    }
                    return;
                }
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }
    }
    Rewriter { env, cx }.visit_expr_mut(expr);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert!(looks_like_literal("s32") && looks_like_literal("p") && looks_like_literal("v1s32"));
        assert!(looks_like_literal("nxv2s64") && !looks_like_literal("xlen") && !looks_like_literal("value"));
        assert_eq!(parse_ident_literal("v4s32").unwrap().0, "<4 x s32>");
        assert_eq!(parse_ident_literal("nxv2p0").unwrap().0, "<vscale x 2 x p0>");
        assert!(parse_ident_literal("s0").unwrap_err().contains("out of range"));
        assert!(parse_ident_literal("v1s32").unwrap_err().contains("at least 2"));
        assert!(parse_ident_literal("p").is_err());
        let shape = parse_llvm("<2 x p1>").unwrap();
        let exact = with_pointer_bits(shape, PointerBits::Known(32)).unwrap();
        assert_eq!(exact.to_string(), "<2 x p1>");
        assert_eq!(exact.element_type().size_in_bits(), 32);
        assert!(with_pointer_bits(shape, PointerBits::Runtime).is_none());
    }
}
