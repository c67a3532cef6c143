//! Walks the body in order: resolves every statement, runs the per-call
//! checks (`checks.rs`) and the checks that span calls or statements
//! (unreachable rules, min/max crossings, coverage, an opcode given two
//! rule sets, custom actions without a hook, names defined twice, type
//! lists never used). Produces the checked model that `expand.rs` turns
//! into code.

use std::collections::BTreeMap;
use std::rc::Rc;

use gisel_core::opcode::Opcode;

use crate::ast::{Else, IfStmt, Input, ListStmt, RuleStmt, Stmt, compact};
use crate::checks::{check_call, is_always};
use crate::ctxt::{Ctxt, SpanRange};
use crate::lists::{Binding, ListDef, TypeList, define};
use crate::options::Options;
use crate::resolve::{RCall, resolve_call};
use crate::sigs::{Act, Cover};
use crate::types::{Env, rewrite_let_value};

/// A checked statement.
pub enum CStmt<'a> {
    /// `let name = value;` with literals rewritten.
    Let(&'a syn::Ident, syn::Expr),
    /// The hidden locals of a named list's gates and run-time types.
    Bind(Vec<Binding>),
    /// One rule set.
    Rules(Vec<Opcode>, Vec<RCall<'a>>),
    /// `if cond { .. } else { .. }`.
    If(&'a syn::Expr, Vec<CStmt<'a>>, Option<Vec<CStmt<'a>>>),
}

/// Where a rule set sits: the `if` arms it is inside.
type BranchPath = Vec<(usize, usize)>;

struct Walker<'c> {
    cx: &'c Ctxt,
    env: Env,
    next_if: usize,
    defined: BTreeMap<Opcode, Vec<(SpanRange, BranchPath)>>,
    first_custom: Option<SpanRange>,
    lists: Vec<Rc<ListDef>>,
}

/// Checks the body and returns the model to expand.
pub fn check<'a>(
    input: &'a Input,
    options: &Options,
    custom_at: Option<SpanRange>,
    env: Env,
    cx: &Ctxt,
) -> Vec<CStmt<'a>> {
    let mut walker = Walker { cx, env, next_if: 0, defined: BTreeMap::new(), first_custom: None, lists: Vec::new() };
    let stmts = walker.stmts(&input.body, &Vec::new());
    for list in walker.lists.iter().filter(|l| !l.used.get()) {
        cx.error_at(list.name.span(), format!("type list `{}` is never used", list.name));
    }
    match (&options.custom, walker.first_custom, custom_at) {
        (None, Some(first), _) => cx.error(
            first,
            "a custom action needs the target's hook: add `custom = path::to::legalize_custom;` at the top of the body",
        ),
        (Some(_), None, Some(at)) => cx.error(at, "a custom hook is given but no rule uses a custom action"),
        _ => {}
    }
    stmts
}

/// Two places are exclusive when they sit in different arms of one `if`.
fn exclusive(a: &BranchPath, b: &BranchPath) -> bool {
    a.iter().any(|(id, arm)| b.iter().any(|(id2, arm2)| id == id2 && arm != arm2))
}

impl<'c> Walker<'c> {
    fn stmts<'a>(&mut self, stmts: &'a [Stmt], path: &BranchPath) -> Vec<CStmt<'a>> {
        let mut out = Vec::new();
        for stmt in stmts {
            match stmt {
                Stmt::Option(_) => {}
                Stmt::Let(binding) => {
                    let mut value = binding.value.clone();
                    rewrite_let_value(&mut value, &self.env, self.cx);
                    self.not_a_list(&binding.name);
                    self.env.lets.insert(binding.name.to_string(), binding.name.span());
                    out.push(CStmt::Let(&binding.name, value));
                }
                Stmt::List(list) => out.extend(self.list(list)),
                Stmt::If(if_stmt) => out.push(self.if_stmt(if_stmt, path)),
                Stmt::Rules(rules) => {
                    if let Some((ops, calls)) = self.rules(rules, path) {
                        out.push(CStmt::Rules(ops, calls));
                    }
                }
            }
        }
        out
    }

    fn if_stmt<'a>(&mut self, if_stmt: &'a IfStmt, path: &BranchPath) -> CStmt<'a> {
        let id = self.next_if;
        self.next_if += 1;
        let mut then_path = path.clone();
        then_path.push((id, 0));
        let saved = (self.env.lets.clone(), self.env.lists.clone());
        let then = self.stmts(&if_stmt.then, &then_path);
        (self.env.lets, self.env.lists) = saved.clone();
        let mut else_path = path.clone();
        else_path.push((id, 1));
        let otherwise = if_stmt.otherwise.as_deref().map(|e| match e {
            Else::Block(stmts) => self.stmts(stmts, &else_path),
            Else::If(nested) => vec![self.if_stmt(nested, &else_path)],
        });
        (self.env.lets, self.env.lists) = saved;
        CStmt::If(&if_stmt.cond, then, otherwise)
    }

    /// `let name = [..];`: the list joins the scope; its hidden locals
    /// are bound here.
    fn list<'a>(&mut self, stmt: &'a ListStmt) -> Option<CStmt<'a>> {
        let name = stmt.name.to_string();
        let earlier = self.env.lists.get(&name);
        // The earlier list is reported as shadowed, not as unused too.
        earlier.inspect(|list| list.used.set(true));
        if let Some(first) = self.env.lets.get(&name).copied().or_else(|| earlier.map(|l| l.name.span())) {
            self.defined_twice(&stmt.name, first);
        }
        let (def, bindings) = match define(stmt, &self.env, self.cx) {
            Some((def, bindings)) => (def, Some(CStmt::Bind(bindings))),
            None => (ListDef::reported(&stmt.name), None),
        };
        let def = Rc::new(def);
        self.env.lists.insert(name, Rc::clone(&def));
        self.lists.push(def);
        bindings
    }

    /// A `let` may not take the name of a type list in scope.
    fn not_a_list(&self, name: &syn::Ident) {
        if let Some(list) = self.env.lists.get(&name.to_string()) {
            self.defined_twice(name, list.name.span());
        }
    }

    fn defined_twice(&self, name: &syn::Ident, first: proc_macro2::Span) {
        self.cx.error_with_note(
            SpanRange::one(name.span()),
            format!("`{name}` is defined twice; a type list needs a name of its own"),
            SpanRange::one(first),
            "first defined here",
        );
    }

    fn opcodes(&mut self, rules: &RuleStmt, path: &BranchPath) -> Option<Vec<Opcode>> {
        let cx = self.cx;
        let mut ops: Vec<(Opcode, SpanRange)> = Vec::new();
        let mut ok = true;
        for ident in &rules.opcodes {
            let name = ident.to_string();
            let range = SpanRange::one(ident.span());
            let Some(op) = Opcode::from_name(&name) else {
                let hint = match Opcode::suggest(&name).first() {
                    Some(best) => format!("; did you mean `{best}`?"),
                    None => String::new(),
                };
                cx.error(range, format!("unknown opcode `{name}`{hint}"));
                ok = false;
                continue;
            };
            if !op.is_legalizable() {
                cx.error(
                    range,
                    format!("{op} is not an opcode the legalizer visits; rules for it are never consulted"),
                );
                ok = false;
                continue;
            }
            if let Some((_, first)) = ops.iter().find(|(o, _)| *o == op) {
                cx.error_with_note(
                    range,
                    format!("{op} is listed twice in this rule set"),
                    *first,
                    "first listed here",
                );
                ok = false;
                continue;
            }
            if let Some((rep, _)) = ops.first()
                && rep.num_type_indices() != op.num_type_indices()
            {
                let message = format!(
                    "{op} has {} type indices but {rep} has {}: opcodes sharing a rule set must have the same type indices",
                    op.num_type_indices(),
                    rep.num_type_indices()
                );
                cx.error(range, message);
                ok = false;
                continue;
            }
            for (first, first_path) in self.defined.get(&op).into_iter().flatten() {
                if !exclusive(first_path, path) {
                    cx.error_with_note(
                        range,
                        format!("{op} is given a second rule set; an opcode has one rule set"),
                        *first,
                        format!("first rule set of {op} here"),
                    );
                    ok = false;
                }
            }
            self.defined.entry(op).or_default().push((range, path.clone()));
            ops.push((op, range));
        }
        ok.then(|| ops.into_iter().map(|(o, _)| o).collect())
    }

    fn rules<'a>(&mut self, rules: &'a RuleStmt, path: &BranchPath) -> Option<(Vec<Opcode>, Vec<RCall<'a>>)> {
        let cx = self.cx;
        let ops = self.opcodes(rules, path);
        if rules.calls.is_empty() {
            let names: Vec<String> = rules.opcodes.iter().map(ToString::to_string).collect();
            cx.error(
                rules.range,
                format!("empty rule set for {}: add rules, or `fallback()` for the legacy answer", names.join(" | ")),
            );
            return None;
        }
        let calls: Vec<Option<RCall<'a>>> = rules.calls.iter().map(|c| resolve_call(c, &self.env, cx)).collect();
        for call in calls.iter().flatten() {
            if call.method.act == Act::Custom && self.first_custom.is_none() {
                self.first_custom = Some(call.call.range);
            }
        }
        let ops = ops?;
        let calls: Vec<RCall<'a>> = calls.into_iter().collect::<Option<_>>()?;
        for call in &calls {
            check_call(call, &ops, cx);
            check_gate(call, cx);
        }
        unreachable_rules(&calls, cx);
        crossings(&calls, cx);
        coverage(rules, &ops, &calls, cx);
        Some((ops, calls))
    }
}

/// A gate (`if cond,`) leaves a rule out; `imm_idx` adds none.
fn check_gate(call: &RCall<'_>, cx: &Ctxt) {
    let Some(cond) = &call.call.gate else { return };
    if call.method.act == Act::Meta {
        cx.error(
            SpanRange::of(cond),
            format!(
                "`{}` adds no rule (it marks an immediate index as handled), so it takes no `if` gate",
                call.call.name
            ),
        );
    }
}

/// Rules after one that always fires.
fn unreachable_rules(calls: &[RCall<'_>], cx: &Ctxt) {
    let fires = |c: &RCall<'_>| {
        c.call.gate.is_none() && c.method.always
            || (c.method.act != Act::Meta
                && c.pred().is_some_and(is_always)
                && c.method.cover == Cover::All
                && c.mutation().is_none())
    };
    let Some(first) = calls.iter().position(fires) else { return };
    let shadow = &calls[first].call;
    for later in calls[first + 1..].iter().filter(|c| c.method.act != Act::Meta) {
        cx.error_with_note(
            later.call.range,
            format!(
                "unreachable: rule `{}` comes after rule `{}` at {}, which always fires",
                later.call.text,
                shadow.text,
                shadow.range.location()
            ),
            shadow.range,
            format!("`{}` always fires, so the rules after it never apply", shadow.text),
        );
    }
}

/// A `max_scalar` below an earlier `min_scalar` on the same index (or the
/// reverse): widening and narrowing would chase each other forever.
fn crossings(calls: &[RCall<'_>], cx: &Ctxt) {
    let mut mins: BTreeMap<u8, (u32, usize)> = BTreeMap::new();
    let mut maxs: BTreeMap<u8, (u32, usize)> = BTreeMap::new();
    for (k, call) in calls.iter().enumerate() {
        let (min, max) = match call.method.name {
            "min_scalar" => (call.tys()[0].known, None),
            "max_scalar" => (None, call.tys()[0].known),
            "clamp_scalar" => (call.tys()[0].known, call.tys()[1].known),
            _ => continue,
        };
        let Some((idx, _)) = call.idx() else { continue };
        let report = |other: usize| {
            let other = &calls[other].call;
            cx.error_with_note(
                call.call.range,
                format!(
                    "`{}` crosses `{}` on type index {idx}: the maximum is below the minimum, so widening and narrowing never settle",
                    call.call.text, other.text
                ),
                other.range,
                format!("`{}` is here", other.text),
            );
        };
        if let Some(bits) = min.map(|t| t.scalar_size_in_bits()) {
            if let Some(&(max, other)) = maxs.get(&idx).filter(|(max, _)| *max < bits) {
                let _ = max;
                report(other);
            }
            mins.entry(idx).or_insert((bits, k));
        }
        if let Some(bits) = max.map(|t| t.scalar_size_in_bits()) {
            if let Some(&(_, other)) = mins.get(&idx).filter(|(min, other)| *min > bits && *other != k) {
                report(other);
            }
            maxs.entry(idx).or_insert((bits, k));
        }
    }
}

/// The type indices a rule marks covered (every bit for all).
fn covers(call: &RCall<'_>) -> u32 {
    match call.method.cover {
        Cover::All => u32::MAX,
        Cover::Idx => call.idx().map_or(0, |(i, _)| 1 << i.min(31)),
        Cover::List => (1 << call.types().map_or(0, |l| l.arity()).max(1)) - 1,
        Cover::Product => {
            let lists = call.args.iter().find_map(|v| match v {
                crate::resolve::Val::Lists(l) => Some(l.len()),
                _ => None,
            });
            (1 << lists.unwrap_or(0).clamp(2, 3)) - 1
        }
        Cover::Pair => 0b11,
        Cover::Nothing => 0,
    }
}

/// `a` is `!b` (or `!(b)`), as written.
fn negates(a: &str, b: &str) -> bool {
    a.strip_prefix('!')
        .is_some_and(|rest| rest == b || rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) == Some(b))
}

/// The indices covered whatever the conditions: by the rules that always
/// exist, and by rules gated on `c` and on `!c` together.
fn covered_indices(calls: &[RCall<'_>]) -> u32 {
    let mut covered = 0;
    let mut gated: BTreeMap<String, u32> = BTreeMap::new();
    for call in calls {
        match &call.call.gate {
            None if !call.may_be_absent() => covered |= covers(call),
            Some(cond) if !call.lists().any(TypeList::may_be_empty) => {
                *gated.entry(compact(&quote::quote!(#cond))).or_default() |= covers(call);
            }
            _ => {}
        }
    }
    for (cond, bits) in &gated {
        for (other, other_bits) in &gated {
            if negates(cond, other) {
                covered |= bits & other_bits;
            }
        }
    }
    covered
}

/// LLVM's type- and immediate-index coverage check, at compile time.
fn coverage(rules: &RuleStmt, ops: &[Opcode], calls: &[RCall<'_>], cx: &Ctxt) {
    let rep = ops[0];
    let covered = covered_indices(calls);
    if covered == u32::MAX {
        return;
    }
    let mut imms = 0u32;
    for call in calls.iter().filter(|c| !c.may_be_absent()) {
        match call.method.name {
            "imm_idx" => imms |= call.nums().first().and_then(|n| n.0).map_or(0, |i| 1 << i.min(31)),
            "legal_for_type_with_any_imm" => imms |= 1,
            _ => {}
        }
    }
    let range = SpanRange::one(rules.opcodes[0].span()).to(SpanRange::one(rules.arrow));
    let count = rep.num_type_indices() as u32;
    let first = covered.trailing_ones();
    if first < count {
        cx.error(
            range,
            format!(
                "{rep}: no rule mentions type index {first} (of {count}); add a rule for it or one that covers all"
            ),
        );
    }
    let count = u32::from(rep.info().num_imm_indices);
    let first = imms.trailing_ones();
    if first < count {
        cx.error(
            range,
            format!(
                "{rep}: no rule mentions immediate index {first}; add `imm_idx({first})` or a rule that covers all"
            ),
        );
    }
}
