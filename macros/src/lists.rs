//! Type lists: the entries of a type-list argument (`legal_for(s32, (s64,
//! p0))`), with named lists (`let int_vecs = [..];`) spliced in, gated
//! members (`[if cond, ..]`) that exist only when their condition holds,
//! and tuples of lists (`(xlen, [s32, s64])`) that stand for their
//! cartesian product.
//!
//! Everything is resolved while expanding: a list is its entries, each
//! with the gates it depends on, so the per-entry checks see every member
//! and a list without gates expands to the same array literal it would be
//! written as inline.

use std::cell::{Cell, RefCell};

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

use crate::ast::{Arg, ListLit, ListStmt, compact};
use crate::ctxt::{Ctxt, SpanRange};
use crate::types::{Env, ListOrigin, TyVal, resolve_type};

/// A condition an entry depends on.
#[derive(Clone)]
pub struct Gate {
    /// The `bool` expression (a hidden local for a named list's gate).
    pub tokens: TokenStream,
    /// The condition's identity: equal keys are the same condition.
    pub key: String,
}

/// One entry of a type list: a type per type index.
#[derive(Clone)]
pub struct Entry {
    /// One type per type index.
    pub items: Vec<TyVal>,
    /// Where it was written (the list's name for a spliced entry).
    pub range: SpanRange,
    /// As written (`s32`, `(s64, p0)`).
    pub text: String,
    /// The entry exists only when all of these hold.
    pub gates: Vec<Gate>,
    /// The occurrence of a named list it was spliced from, if any.
    pub splice: Option<usize>,
}

impl Entry {
    /// The expression of the entry: a type, or a tuple of types.
    fn tokens(&self) -> TokenStream {
        let items = self.items.iter().map(|t| &t.tokens);
        if self.items.len() == 1 { quote!(#(#items)*) } else { quote!((#(#items),*)) }
    }

    fn gate_key(&self) -> String {
        self.gates.iter().map(|g| g.key.as_str()).collect::<Vec<_>>().join(" && ")
    }
}

/// Entries of one arity: `s32, s64` or `(s32, p0), (s64, p0)`.
pub struct TypeList {
    /// The entries.
    pub entries: Vec<Entry>,
    /// Where the list was written (the call's parentheses when empty).
    pub range: SpanRange,
}

impl TypeList {
    /// The arity of the entries (1 for plain types), 0 when empty.
    pub fn arity(&self) -> usize {
        self.entries.first().map_or(0, |e| e.items.len())
    }

    /// Every entry is gated, so the list may have no members at run time.
    pub fn may_be_empty(&self) -> bool {
        !self.entries.is_empty() && self.entries.iter().all(|e| !e.gates.is_empty())
    }

    /// The condition under which the list has members, when it may have
    /// none: some entry's gates all hold.
    pub fn presence(&self) -> Option<TokenStream> {
        if !self.may_be_empty() {
            return None;
        }
        let mut keys = Vec::new();
        let mut alternatives = Vec::new();
        for entry in &self.entries {
            let key = entry.gate_key();
            if !keys.contains(&key) {
                keys.push(key);
                alternatives.push(conjunction(&entry.gates));
            }
        }
        Some(quote!(#((#alternatives))||*))
    }

    /// The list as an array (`slice`: a slice reference) when nothing is
    /// gated; else a `Vec` (a reference to one) built from the segments
    /// whose gates hold.
    pub fn tokens(&self, slice: bool) -> TokenStream {
        if self.entries.iter().all(|e| e.gates.is_empty()) {
            let entries = self.entries.iter().map(Entry::tokens);
            return if slice { quote!(&[#(#entries),*]) } else { quote!([#(#entries),*]) };
        }
        let mut segments = Vec::new();
        for group in self.entries.chunk_by(|a, b| a.gate_key() == b.gate_key()) {
            let entries = group.iter().map(Entry::tokens);
            let members = quote!(::std::vec![#(#entries),*]);
            segments.push(if group[0].gates.is_empty() {
                members
            } else {
                let cond = conjunction(&group[0].gates);
                quote!(if #cond { #members } else { ::std::vec::Vec::new() })
            });
        }
        let list = quote!([#(#segments),*].concat());
        if slice { quote!(&#list) } else { list }
    }
}

fn conjunction(gates: &[Gate]) -> TokenStream {
    let gates = gates.iter().map(|g| &g.tokens);
    quote!(#(#gates)&&*)
}

/// A named list, `let int_vecs = [..];`.
pub struct ListDef {
    /// The name.
    pub name: Ident,
    /// The members, with their gates bound to hidden locals; none when the
    /// definition had errors (its uses are then not reported again).
    pub entries: Vec<Entry>,
    /// Some rule or list names it.
    pub used: Cell<bool>,
}

impl ListDef {
    /// The stand-in for a list whose definition was reported: its uses
    /// resolve to nothing, without further errors.
    pub fn reported(name: &Ident) -> ListDef {
        ListDef { name: name.clone(), entries: Vec::new(), used: Cell::new(true) }
    }
}

/// A hidden local a named list's `let` binds: a gate or a run-time type,
/// evaluated once where the list is defined.
pub type Binding = (Ident, TokenStream);

/// Where a list is written.
enum Site<'a> {
    /// In a rule: gates and run-time types are evaluated in place.
    Rule,
    /// In a named list's `let`: gates and run-time types are bound once
    /// to hidden locals, so a later `let` cannot change what the list means.
    Def(&'a RefCell<Vec<Binding>>),
}

impl Site<'_> {
    fn bind(&self, value: TokenStream, env: &Env) -> Option<Ident> {
        let Site::Def(bindings) = self else { return None };
        let ident = Ident::new(&format!("__gisel_list_{}", env.next_id()), Span::mixed_site());
        bindings.borrow_mut().push((ident.clone(), value));
        Some(ident)
    }
}

/// The type list of a rule argument: `args` are its members.
pub fn type_list(args: &[Arg], range: SpanRange, env: &Env, cx: &Ctxt) -> Option<TypeList> {
    let entries = members(args, &[], &Site::Rule, env, cx)?;
    same_arity(&entries, cx).then_some(TypeList { entries, range })
}

/// Resolves `let name = [..];`: the list and the hidden locals to bind.
pub fn define(stmt: &ListStmt, env: &Env, cx: &Ctxt) -> Option<(ListDef, Vec<Binding>)> {
    let bindings = RefCell::new(Vec::new());
    let entries = list(&stmt.list, &[], &Site::Def(&bindings), env, cx)?;
    if entries.is_empty() {
        cx.error(stmt.list.range, format!("type list `{}` is empty; a named list needs members", stmt.name));
        return None;
    }
    if !same_arity(&entries, cx) {
        return None;
    }
    crate::checks::duplicates(&entries, cx);
    let def = ListDef { name: stmt.name.clone(), entries, used: Cell::new(false) };
    Some((def, bindings.into_inner()))
}

/// Reports the first entry whose arity differs from the first entry's.
fn same_arity(entries: &[Entry], cx: &Ctxt) -> bool {
    let Some(first) = entries.first() else { return true };
    let Some(other) = entries.iter().find(|e| e.items.len() != first.items.len()) else { return true };
    cx.error_with_note(
        other.range,
        format!("this entry names {} type indices but the first entry names {}", other.items.len(), first.items.len()),
        first.range,
        "the first entry",
    );
    false
}

fn members(args: &[Arg], gates: &[Gate], site: &Site<'_>, env: &Env, cx: &Ctxt) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    let mut ok = true;
    for arg in args {
        match member(arg, gates, site, env, cx) {
            Some(entries) => out.extend(entries),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// `[if cond, ..]`: the members, under the list's gate too.
fn list(list: &ListLit, gates: &[Gate], site: &Site<'_>, env: &Env, cx: &Ctxt) -> Option<Vec<Entry>> {
    let mut gates = gates.to_vec();
    if let Some(cond) = &list.gate {
        let key = compact(&quote!(#cond));
        gates.push(match site.bind(quote!(#cond), env) {
            Some(ident) => Gate { tokens: quote!(#ident), key: ident.to_string() },
            None => Gate { tokens: quote!((#cond)), key },
        });
    }
    members(&list.items, &gates, site, env, cx)
}

/// The entries one member stands for.
fn member(arg: &Arg, gates: &[Gate], site: &Site<'_>, env: &Env, cx: &Ctxt) -> Option<Vec<Entry>> {
    match arg {
        Arg::List(lit) => list(lit, gates, site, env, cx),
        Arg::Tuple(items, range) => product(items, *range, gates, site, env, cx),
        Arg::Ident(ident) if env.lists.contains_key(&ident.to_string()) => splice(ident, gates, env),
        _ => {
            let mut ty = resolve_type(arg, env, cx)?;
            if ty.known.is_none()
                && let Some(ident) = site.bind(ty.tokens.clone(), env)
            {
                ty.tokens = quote!(#ident);
            }
            Some(vec![Entry {
                items: vec![ty],
                range: arg.range(),
                text: arg.text(),
                gates: gates.to_vec(),
                splice: None,
            }])
        }
    }
}

/// The entries of the named list `ident`, as written at `ident`; `None`
/// for a list whose definition was reported.
fn splice(ident: &Ident, gates: &[Gate], env: &Env) -> Option<Vec<Entry>> {
    let def = &env.lists[&ident.to_string()];
    def.used.set(true);
    if def.entries.is_empty() {
        return None;
    }
    let range = SpanRange::one(ident.span());
    let splice = Some(env.next_id());
    let name = ident.to_string();
    let entries = def.entries.iter().map(|entry| {
        let items = entry.items.iter().map(|ty| {
            let member = ty.list.as_ref().map_or(ty.range, |origin| origin.member);
            TyVal { range, list: Some(ListOrigin { name: name.clone(), member }), ..ty.clone() }
        });
        let mut all = gates.to_vec();
        all.extend(entry.gates.iter().cloned());
        Entry { items: items.collect(), range, text: entry.text.clone(), gates: all, splice }
    });
    Some(entries.collect())
}

/// `(a, b)`: a tuple of types, or of lists for their cartesian product.
fn product(
    items: &[Arg],
    range: SpanRange,
    gates: &[Gate],
    site: &Site<'_>,
    env: &Env,
    cx: &Ctxt,
) -> Option<Vec<Entry>> {
    if !(1..=3).contains(&items.len()) {
        cx.error(range, format!("a tuple names 2 or 3 type indices, not {}", items.len()));
        return None;
    }
    let mut columns = Vec::new();
    for item in items {
        let entries = match item {
            Arg::Tuple(..) => {
                cx.error(item.range(), format!("a tuple's items are types or lists, not tuples: `{}`", item.text()));
                None
            }
            _ => member(item, &[], site, env, cx),
        };
        let Some(entries) = entries else { continue };
        if let Some(wide) = entries.iter().find(|e| e.items.len() != 1) {
            cx.error(
                item.range(),
                format!(
                    "a list in a tuple stands for one type index, but `{}` has the entry `{}`",
                    item.text(),
                    wide.text
                ),
            );
            continue;
        }
        columns.push(entries);
    }
    if columns.len() != items.len() {
        return None;
    }
    let mut rows: Vec<Vec<&Entry>> = vec![Vec::new()];
    for column in &columns {
        rows = rows.iter().flat_map(|row| column.iter().map(move |e| [row.as_slice(), &[e]].concat())).collect();
    }
    let entries = rows.into_iter().map(|row| {
        let mut all = gates.to_vec();
        for gate in row.iter().flat_map(|e| &e.gates) {
            if !all.iter().any(|g| g.key == gate.key) {
                all.push(gate.clone());
            }
        }
        let texts: Vec<&str> = row.iter().map(|e| e.text.as_str()).collect();
        let items = row.iter().map(|e| e.items[0].clone()).collect();
        Entry { items, range, text: format!("({})", texts.join(", ")), gates: all, splice: None }
    });
    Some(entries.collect())
}
