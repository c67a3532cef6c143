//! The option block at the top of the body (`custom = path;`,
//! `pointer_bits = 32;`), parsed with darling so unknown keys get a "did
//! you mean" and duplicates are reported.

use darling::FromMeta;
use darling::ast::NestedMeta;
use syn::{Expr, Path};

use crate::ast::{OptionItem, Stmt};
use crate::ctxt::{Ctxt, SpanRange};

/// The options of one `legalizer!`.
#[derive(Default, FromMeta)]
pub struct Options {
    /// The target's custom-legalization hook, required when a rule uses a
    /// custom action.
    pub custom: Option<Hook>,
    /// The pointer size of every address space (default 64).
    pub pointer_bits: Option<Bits>,
}

/// `custom = path::to::hook`.
pub struct Hook(pub Path);

impl FromMeta for Hook {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Path(p) if p.qself.is_none() => Ok(Hook(p.path.clone())),
            _ => Err(darling::Error::custom("expected a path to the custom-legalization hook").with_span(expr)),
        }
    }
}

/// `pointer_bits = 32` or `pointer_bits = { expr }`.
pub enum Bits {
    /// A literal, known while expanding.
    Known(u32),
    /// A runtime expression.
    Runtime(Expr),
}

impl FromMeta for Bits {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        if let Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(lit), .. }) = expr {
            return match lit.base10_parse::<u32>() {
                Ok(bits) if (1..=gisel_core::ty::MAX_SCALAR_BITS).contains(&bits) => Ok(Bits::Known(bits)),
                _ => Err(darling::Error::custom("pointer size out of range").with_span(expr)),
            };
        }
        Ok(Bits::Runtime(expr.clone()))
    }
}

/// The options of a body and where each was written.
pub fn parse_options(body: &[Stmt], cx: &Ctxt) -> (Options, Option<SpanRange>) {
    let items: Vec<&OptionItem> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::Option(o) => Some(o),
            _ => None,
        })
        .collect();
    let custom_at = items.iter().find(|o| o.key == "custom").map(|o| SpanRange::of(&o.key).to(SpanRange::of(&o.value)));
    let metas: Vec<NestedMeta> = items
        .iter()
        .map(|o| {
            NestedMeta::Meta(syn::Meta::NameValue(syn::MetaNameValue {
                path: o.key.clone().into(),
                eq_token: Default::default(),
                value: o.value.clone(),
            }))
        })
        .collect();
    match Options::from_list(&metas) {
        Ok(options) => (options, custom_at),
        Err(error) => {
            for e in error {
                cx.syn_error(e.into());
            }
            (Options::default(), custom_at)
        }
    }
}
