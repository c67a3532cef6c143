//! Gives each argument its meaning from the parameter it fills: type
//! literals become LLTs, `is_scalar(0)` a predicate constructor, a closure
//! a custom predicate. Reports unknown names (with "did you mean"), wrong
//! argument counts and arguments of the wrong kind.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Arg, Call};
use crate::ctxt::{Ctxt, SpanRange};
use crate::lists::{TypeList, type_list};
use crate::sigs::{self, Fun, METHODS, MUTATIONS, Method, ORDERINGS, P, PREDICATES};
use crate::types::{Env, TyVal, resolve_type};

/// A resolved argument.
pub enum Val {
    /// A type index.
    Idx(u8, SpanRange),
    /// A memory-operand index.
    MemIdx(u8, SpanRange),
    /// A number: its value when literal, and its expression.
    Num(Option<u64>, TokenStream, SpanRange),
    /// A type.
    Ty(TyVal),
    /// A predicate.
    Pred(FnVal),
    /// A mutation.
    Mut(FnVal),
    /// A list of types or tuples (one argument, or the rest).
    Types(TypeList),
    /// An atomic ordering variant.
    Ordering(syn::Ident),
    /// Predicates (the rest).
    Preds(Vec<FnVal>),
    /// Cartesian-product lists (the rest).
    Lists(Vec<TypeList>),
    /// Memory-descriptor entries (the rest).
    MemDescs(Vec<MemDescVal>),
}

/// `(type0, type1, memory type, align bits)`.
pub struct MemDescVal {
    /// The three types.
    pub types: Vec<TyVal>,
    /// The alignment in bits.
    pub align: TokenStream,
    /// Where it was written.
    pub range: SpanRange,
}

/// A predicate or mutation.
pub struct FnVal {
    /// What it is.
    pub kind: FnKind,
    /// Where it was written.
    pub range: SpanRange,
    /// As written.
    pub text: String,
}

/// The forms of a predicate or mutation.
pub enum FnKind {
    /// A gisel-core constructor.
    Call(&'static Fun, Vec<Val>),
    /// A closure or function path, wrapped in `custom(name, f)`.
    Custom(TokenStream),
    /// `{ expr }` of type `Predicate` / `Mutation`.
    Runtime(TokenStream),
}

/// A resolved builder call.
pub struct RCall<'a> {
    /// The method.
    pub method: &'static Method,
    /// Its arguments (defaults filled in).
    pub args: Vec<Val>,
    /// The call as written.
    pub call: &'a Call,
}

impl RCall<'_> {
    /// The first type-index argument.
    pub fn idx(&self) -> Option<(u8, SpanRange)> {
        self.args.iter().find_map(|v| match v {
            Val::Idx(i, r) => Some((*i, *r)),
            _ => None,
        })
    }

    /// The type arguments, in order.
    pub fn tys(&self) -> Vec<&TyVal> {
        self.args
            .iter()
            .filter_map(|v| match v {
                Val::Ty(t) => Some(t),
                _ => None,
            })
            .collect()
    }

    /// The literal number arguments, in order.
    pub fn nums(&self) -> Vec<(Option<u64>, SpanRange)> {
        self.args
            .iter()
            .filter_map(|v| match v {
                Val::Num(n, _, r) => Some((*n, *r)),
                _ => None,
            })
            .collect()
    }

    /// The type list argument, if any.
    pub fn types(&self) -> Option<&TypeList> {
        self.args.iter().find_map(|v| match v {
            Val::Types(t) => Some(t),
            _ => None,
        })
    }

    /// The predicate argument, if any.
    pub fn pred(&self) -> Option<&FnVal> {
        self.args.iter().find_map(|v| match v {
            Val::Pred(p) => Some(p),
            _ => None,
        })
    }

    /// The mutation argument, if any.
    pub fn mutation(&self) -> Option<&FnVal> {
        self.args.iter().find_map(|v| match v {
            Val::Mut(m) => Some(m),
            _ => None,
        })
    }

    /// The rule's type lists (not those of its predicates).
    pub fn lists(&self) -> impl Iterator<Item = &TypeList> {
        self.args.iter().flat_map(|v| match v {
            Val::Types(list) => std::slice::from_ref(list),
            Val::Lists(lists) => lists.as_slice(),
            _ => &[],
        })
    }

    /// The rule may be left out: it has a gate, or a list whose every
    /// member is gated.
    pub fn may_be_absent(&self) -> bool {
        self.call.gate.is_some() || self.lists().any(TypeList::may_be_empty)
    }

    /// The conditions under which the rule exists (none: always).
    pub fn conditions(&self) -> Vec<TokenStream> {
        let gate = self.call.gate.as_ref().map(|cond| quote!((#cond)));
        gate.into_iter().chain(self.lists().filter_map(|l| l.presence().map(|p| quote!((#p))))).collect()
    }
}

/// Resolves one builder call; `None` after reporting when it is unusable.
pub fn resolve_call<'a>(call: &'a Call, env: &Env, cx: &Ctxt) -> Option<RCall<'a>> {
    let name = call.name.to_string();
    let Some(method) = sigs::method(&name) else {
        let hint = sigs::did_you_mean(&name, METHODS.iter().map(|m| m.name));
        cx.error_at(call.name.span(), format!("unknown rule method `{name}`{hint}"));
        return None;
    };
    let args = resolve_args(&name, method.params, method.defaults, call, env, cx)?;
    Some(RCall { method, args, call })
}

fn count_error(name: &str, params: &[P], defaults: usize, call: &Call, cx: &Ctxt) {
    let want = params.len();
    let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
    let expected = match (want, defaults) {
        (0, _) => "no arguments".to_owned(),
        (n, 0) if params.last().is_some_and(|p| p.is_rest()) => format!("at least {} {}", n - 1, plural(n - 1)),
        (n, 0) => format!("{n} {}", plural(n)),
        (n, d) => format!("{} or {n} arguments", n - d),
    };
    let list: Vec<&str> = params.iter().map(|p| p.describe()).collect();
    let signature = if list.is_empty() { String::new() } else { format!(" ({})", list.join(", ")) };
    let got = call.args.len();
    let were = if got == 1 { "was" } else { "were" };
    cx.error(call.range, format!("`{name}` takes {expected}{signature}, but {got} {were} given"));
}

fn resolve_args(
    name: &str,
    params: &'static [P],
    defaults: usize,
    call: &Call,
    env: &Env,
    cx: &Ctxt,
) -> Option<Vec<Val>> {
    let rest = params.last().is_some_and(|p| p.is_rest());
    let fixed = if rest { params.len() - 1 } else { params.len() };
    let given = call.args.len();
    if (!rest && (given > fixed || given + defaults < fixed)) || (rest && given < fixed) {
        count_error(name, params, defaults, call, cx);
        return None;
    }
    let mut out = Vec::new();
    let mut ok = true;
    for (i, &param) in params.iter().enumerate() {
        if param.is_rest() {
            let args = &call.args[i..];
            let inner = paren_inner(call);
            match resolve_rest(param, args, inner, env, cx) {
                Some(v) => out.push(v),
                None => ok = false,
            }
            break;
        }
        match call.args.get(i) {
            Some(arg) => match resolve_one(param, arg, env, cx) {
                Some(v) => out.push(v),
                None => ok = false,
            },
            None => out.push(Val::Num(Some(0), quote!(0), call.range)),
        }
    }
    ok.then_some(out)
}

fn paren_inner(call: &Call) -> SpanRange {
    SpanRange::one(call.paren)
}

fn int(arg: &Arg, what: &str, max: u64, cx: &Ctxt) -> Option<u64> {
    let Arg::Int(lit) = arg else {
        cx.error(arg.range(), format!("expected {what} (an integer literal), found `{}`", arg.text()));
        return None;
    };
    match lit.base10_parse::<u64>() {
        Ok(v) if v <= max => Some(v),
        _ => {
            cx.error(arg.range(), format!("{what} `{}` is out of range (0..={max})", lit.base10_digits()));
            None
        }
    }
}

fn resolve_one(param: P, arg: &Arg, env: &Env, cx: &Ctxt) -> Option<Val> {
    let range = arg.range();
    Some(match param {
        P::Idx => Val::Idx(int(arg, "a type index", 255, cx)? as u8, range),
        P::MemIdx => Val::MemIdx(int(arg, "a memory-operand index", 255, cx)? as u8, range),
        P::Num => match arg {
            Arg::Block(block) => Val::Num(None, block_tokens(block), range),
            _ => {
                let v = int(arg, "a number", u64::from(u32::MAX), cx)?;
                let lit = proc_macro2::Literal::u64_unsuffixed(v);
                Val::Num(Some(v), quote!(#lit), range)
            }
        },
        P::Ty => Val::Ty(resolve_type(arg, env, cx)?),
        P::Pred => Val::Pred(resolve_fn(arg, PREDICATES, "predicate", env, cx)?),
        P::Mut => Val::Mut(resolve_fn(arg, MUTATIONS, "mutation", env, cx)?),
        P::TypeSet => Val::Types(one_list(arg, env, cx)?),
        P::Ordering => match arg {
            Arg::Ident(ident) if ORDERINGS.contains(&ident.to_string().as_str()) => Val::Ordering(ident.clone()),
            _ => {
                let hint = sigs::did_you_mean(&arg.text(), ORDERINGS.iter().copied());
                cx.error(range, format!("expected an atomic ordering (`Acquire`, ...), found `{}`{hint}", arg.text()));
                return None;
            }
        },
        P::Types | P::Lists | P::MemDescs | P::Preds => unreachable!("rest parameters are resolved together"),
    })
}

fn resolve_rest(param: P, args: &[Arg], parens: SpanRange, env: &Env, cx: &Ctxt) -> Option<Val> {
    match param {
        P::Types => {
            let range = match (args.first(), args.last()) {
                (Some(a), Some(b)) => a.range().to(b.range()),
                _ => parens,
            };
            type_list(args, range, env, cx).map(Val::Types)
        }
        P::Preds => {
            let mut preds = Vec::new();
            for arg in args {
                preds.push(resolve_fn(arg, PREDICATES, "predicate", env, cx));
            }
            preds.into_iter().collect::<Option<Vec<_>>>().map(Val::Preds)
        }
        P::Lists => {
            let lists: Vec<Option<TypeList>> = args.iter().map(|arg| product_list(arg, env, cx)).collect();
            lists.into_iter().collect::<Option<_>>().map(Val::Lists)
        }
        P::MemDescs => {
            let mut entries = Vec::new();
            for arg in args {
                entries.push(mem_desc(arg, env, cx));
            }
            entries.into_iter().collect::<Option<Vec<_>>>().map(Val::MemDescs)
        }
        _ => unreachable!("not a rest parameter"),
    }
}

/// One list of a cartesian product: single types, one type index.
fn product_list(arg: &Arg, env: &Env, cx: &Ctxt) -> Option<TypeList> {
    let list = one_list(arg, env, cx)?;
    if let Some(wide) = list.entries.iter().find(|e| e.items.len() != 1) {
        cx.error(
            arg.range(),
            format!(
                "a list in a cartesian product stands for one type index, but `{}` has the entry `{}`",
                arg.text(),
                wide.text
            ),
        );
        return None;
    }
    Some(list)
}

/// One list argument: `[..]` or a named list.
fn one_list(arg: &Arg, env: &Env, cx: &Ctxt) -> Option<TypeList> {
    match arg {
        Arg::List(_) => type_list(std::slice::from_ref(arg), arg.range(), env, cx),
        Arg::Ident(ident) if env.lists.contains_key(&ident.to_string()) => {
            type_list(std::slice::from_ref(arg), arg.range(), env, cx)
        }
        Arg::Ident(ident) => {
            let name = ident.to_string();
            let hint = sigs::did_you_mean(&name, env.lists.keys().map(String::as_str));
            cx.error(arg.range(), format!("unknown type list `{name}`{hint}"));
            None
        }
        _ => {
            cx.error(arg.range(), format!("expected a list of types `[s32, s64]`, found `{}`", arg.text()));
            None
        }
    }
}

fn mem_desc(arg: &Arg, env: &Env, cx: &Ctxt) -> Option<MemDescVal> {
    let Arg::Tuple(items, range) = arg else {
        cx.error(arg.range(), "expected `(type0, type1, memory type, align in bits)`, e.g. `(s32, p0, s8, 8)`");
        return None;
    };
    if items.len() != 4 {
        cx.error(
            *range,
            format!("a memory descriptor has 4 fields (type0, type1, memory type, align in bits), not {}", items.len()),
        );
        return None;
    }
    let types: Option<Vec<TyVal>> = items[..3].iter().map(|a| resolve_type(a, env, cx)).collect();
    let align = match &items[3] {
        Arg::Block(block) => Some(block_tokens(block)),
        other => int(other, "an alignment in bits", u64::from(u32::MAX), cx).map(|v| {
            let lit = proc_macro2::Literal::u64_unsuffixed(v);
            quote!(#lit)
        }),
    };
    Some(MemDescVal { types: types?, align: align?, range: *range })
}

fn resolve_fn(arg: &Arg, table: &'static [Fun], what: &str, env: &Env, cx: &Ctxt) -> Option<FnVal> {
    let range = arg.range();
    let text = arg.text();
    let kind = match arg {
        Arg::Call(call) => {
            let name = call.name.to_string();
            let Some(fun) = table.iter().find(|f| f.name == name) else {
                let hint = sigs::did_you_mean(&name, table.iter().map(|f| f.name));
                cx.error_at(call.name.span(), format!("unknown {what} `{name}`{hint}"));
                return None;
            };
            FnKind::Call(fun, resolve_args(&name, fun.params, fun.defaults, call, env, cx)?)
        }
        Arg::Closure(closure) => FnKind::Custom(quote!(#closure)),
        Arg::Path(path) => FnKind::Custom(quote!(#path)),
        Arg::Ident(ident) => FnKind::Custom(quote!(#ident)),
        Arg::Block(block) => FnKind::Runtime(block_tokens(block)),
        _ => {
            cx.error(
                range,
                format!(
                    "expected a {what} (`is_scalar(0)`, a closure, a function path or `{{ expr }}`), found `{text}`"
                ),
            );
            return None;
        }
    };
    Some(FnVal { kind, range, text })
}

/// `{ expr }` as the bare expression when it is one (no `unused_braces`
/// warning in the expansion), else the block.
pub fn block_tokens(block: &syn::ExprBlock) -> TokenStream {
    match block.block.stmts.as_slice() {
        [syn::Stmt::Expr(expr, None)] if block.attrs.is_empty() && block.label.is_none() => quote!(#expr),
        _ => quote!(#block),
    }
}
