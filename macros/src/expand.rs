//! Code generation: the checked model becomes a function that builds the
//! `LegalizerInfo` through gisel-core's plain builder API (rules are
//! data). On any error the function is still emitted, with the same
//! signature and an `unreachable!()` body, beside the errors, so the
//! user sees only the real errors (thiserror's fallback).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::ast::Input;
use crate::ctxt::Ctxt;
use crate::options::{Bits, parse_options};
use crate::resolve::{FnKind, FnVal, RCall, Val};
use crate::types::{Env, PointerBits, pointer_bits_ident};
use crate::validate::{self, CStmt};

/// Expands one invocation.
pub fn expand(input: &Input) -> TokenStream {
    let cx = Ctxt::new();
    let (options, custom_at) = parse_options(&input.body, &cx);
    let pointer_bits = match &options.pointer_bits {
        Some(Bits::Known(bits)) => PointerBits::Known(*bits),
        Some(Bits::Runtime(_)) => PointerBits::Runtime,
        None => PointerBits::Known(64),
    };
    let env = Env::new(pointer_bits);
    let model = validate::check(input, &options, custom_at, env, &cx);
    let generated = (!cx.has_errors()).then(|| body(&model, &options));
    match (cx.check(), generated) {
        (Ok(()), Some(body)) => {
            let Input { attrs, vis, sig, .. } = input;
            quote!(#(#attrs)* #vis #sig { #body })
        }
        (result, _) => fallback(input, result.err()),
    }
}

/// The function with the same signature and no body, beside the errors.
fn fallback(input: &Input, error: Option<syn::Error>) -> TokenStream {
    let Input { attrs, vis, sig, .. } = input;
    let errors = error.map(|e| e.to_compile_error());
    quote! {
        #errors
        #(#attrs)*
        #[allow(dead_code, unused_variables)]
        #vis #sig { ::core::unreachable!() }
    }
}

fn info_ident() -> syn::Ident {
    syn::Ident::new("__gisel_info", Span::mixed_site())
}

fn body(model: &[CStmt<'_>], options: &crate::options::Options) -> TokenStream {
    let info = info_ident();
    let bits_ident = pointer_bits_ident();
    let (bits_binding, bits) = match &options.pointer_bits {
        Some(Bits::Runtime(expr)) => (quote!(let #bits_ident: u32 = #expr;), quote!(#bits_ident)),
        Some(Bits::Known(bits)) => (TokenStream::new(), quote!(#bits)),
        None => (TokenStream::new(), quote!(64)),
    };
    let hook = options.custom.as_ref().map(|hook| {
        let path = &hook.0;
        quote!(#[allow(unused_imports)] use #path as _;)
    });
    let stmts = stmts(model);
    quote! {
        #hook
        #bits_binding
        let mut #info = ::gisel_core::legality::LegalizerInfo::new().with_pointer_bits(#bits);
        #stmts
        #info
    }
}

fn stmts(model: &[CStmt<'_>]) -> TokenStream {
    let info = info_ident();
    let mut out = TokenStream::new();
    for stmt in model {
        out.extend(match stmt {
            CStmt::Let(name, value) => quote!(let #name = #value;),
            CStmt::Bind(bindings) => {
                let (names, values): (Vec<_>, Vec<_>) = bindings.iter().cloned().unzip();
                quote!(#(let #names = #values;)*)
            }
            CStmt::If(cond, then, otherwise) => {
                let then = stmts(then);
                let otherwise = otherwise.as_deref().map(|o| {
                    let o = stmts(o);
                    quote!(else { #o })
                });
                quote!(if #cond { #then } #otherwise)
            }
            CStmt::Rules(ops, calls) => {
                let names = ops.iter().map(|op| syn::Ident::new(op.name(), Span::call_site()));
                let calls = calls.iter().map(call);
                quote!(#info.rules_for(&[#(::gisel_core::opcode::Opcode::#names),*]) #(.#calls)*;)
            }
        });
    }
    out
}

/// One builder call; one that may be left out (a gate, or a list whose
/// members may all be gated out) goes through `when`.
fn call(call: &RCall<'_>) -> TokenStream {
    let name = &call.call.name;
    let args = call.args.iter().map(|v| val(v, false));
    let paren = call.call.paren;
    let conditions = call.conditions();
    if conditions.is_empty() {
        quote_spanned!(paren=> #name(#(#args),*))
    } else {
        quote_spanned!(paren=> when(#(#conditions)&&*, |rules| rules.#name(#(#args),*)))
    }
}

fn val(v: &Val, in_fn: bool) -> TokenStream {
    match v {
        Val::Idx(i, _) | Val::MemIdx(i, _) => {
            let lit = proc_macro2::Literal::u8_unsuffixed(*i);
            quote!(#lit)
        }
        Val::Num(_, tokens, _) => tokens.clone(),
        Val::Ty(ty) => ty.tokens.clone(),
        Val::Pred(f) => fun(f, "predicates"),
        Val::Mut(f) => fun(f, "mutations"),
        Val::Types(l) => l.tokens(in_fn),
        Val::Ordering(ident) => quote!(::gisel_core::legality::AtomicOrdering::#ident),
        Val::Preds(ps) => {
            let ps = ps.iter().map(|p| fun(p, "predicates"));
            quote!([#(#ps),*])
        }
        Val::Lists(lists) => {
            let lists = lists.iter().map(|l| {
                let list = l.tokens(false);
                quote!(&#list[..])
            });
            quote!(&[#(#lists),*])
        }
        Val::MemDescs(entries) => {
            let entries = entries.iter().map(|e| {
                let tys = e.types.iter().map(|t| &t.tokens);
                let align = &e.align;
                quote!(::gisel_core::legality::TypePairAndMemDesc::new(#(#tys,)* #align))
            });
            quote!(&[#(#entries),*])
        }
    }
}

fn fun(f: &FnVal, module: &str) -> TokenStream {
    let module = syn::Ident::new(module, Span::call_site());
    match &f.kind {
        FnKind::Call(fun, args) => {
            let name = syn::Ident::new(fun.name, f.range.start);
            let args = args.iter().map(|v| val(v, true));
            quote!(::gisel_core::legality::#module::#name(#(#args),*))
        }
        FnKind::Custom(tokens) => {
            let text = &f.text;
            quote!(::gisel_core::legality::#module::custom(#text, #tokens))
        }
        FnKind::Runtime(tokens) => tokens.clone(),
    }
}
