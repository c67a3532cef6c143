//! Checks of one builder call against the opcodes of its rule set: index
//! ranges, tuple arity, memory operands, index kinds, clamp bounds,
//! duplicates, whether the helper can lower or libcall the opcode, and
//! mutations that cannot move toward legality.

use std::collections::BTreeMap;

use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use crate::ctxt::{Ctxt, SpanRange};
use crate::lists::Entry;
use crate::opcodes::{IndexKind, index_kind, libcallable, lowerable};
use crate::resolve::{FnKind, FnVal, RCall, Val};
use crate::sigs::{Act, Shape};
use crate::types::{TyVal, ty_error};

/// Calls `idx` for every type index and `mem` for every memory-operand
/// index in `vals`, nested predicates and mutations included.
pub fn visit_indices(vals: &[Val], idx: &mut dyn FnMut(u8, SpanRange), mem: &mut dyn FnMut(u8, SpanRange)) {
    for val in vals {
        match val {
            Val::Idx(i, r) => idx(*i, *r),
            Val::MemIdx(i, r) => mem(*i, *r),
            Val::Pred(f) | Val::Mut(f) => visit_fn(f, idx, mem),
            Val::Preds(fs) => fs.iter().for_each(|f| visit_fn(f, idx, mem)),
            _ => {}
        }
    }
}

fn visit_fn(f: &FnVal, idx: &mut dyn FnMut(u8, SpanRange), mem: &mut dyn FnMut(u8, SpanRange)) {
    if let FnKind::Call(_, args) = &f.kind {
        visit_indices(args, idx, mem);
    }
}

/// The predicate is `always()` (or a combination that is always true).
pub fn is_always(f: &FnVal) -> bool {
    match &f.kind {
        FnKind::Call(fun, args) => match fun.name {
            "always" => true,
            "all" | "any" => {
                let Some(Val::Preds(ps)) = args.first() else { return false };
                if fun.name == "all" { ps.iter().all(is_always) } else { ps.iter().any(is_always) }
            }
            _ => false,
        },
        _ => false,
    }
}

/// Every check of one call against the opcodes `ops` (which share their
/// type-index count; the first is the representative).
pub fn check_call(call: &RCall<'_>, ops: &[Opcode], cx: &Ctxt) {
    let rep = ops[0];
    let count = rep.num_type_indices();
    let text = &call.call.text;
    let mut bad_idx = false;
    visit_indices(
        &call.args,
        &mut |i, r| {
            if usize::from(i) >= count {
                bad_idx = true;
                let last = match count {
                    0 => format!("{rep} has no type index"),
                    1 => format!("{rep} has only type index 0"),
                    n => format!("{rep} has type indices 0..={}", n - 1),
                };
                cx.error(r, format!("type index {i} is past the last one: {last}"));
            }
        },
        &mut |i, r| {
            for &op in ops {
                let mems = op.info().mem_operands.count();
                if mems == 0 {
                    cx.error(r, format!("memory rule on {op}, which has no memory operands"));
                } else if usize::from(i) >= mems {
                    cx.error(r, format!("memory operand {i} is past the last one: {op} has {mems}"));
                }
            }
        },
    );
    if call.method.mem {
        for &op in ops.iter().filter(|op| op.info().mem_operands.count() == 0) {
            cx.error(call.call.range, format!("memory rule `{text}` on {op}, which has no memory operands"));
        }
    }
    check_support(call, ops, cx);
    check_lists(call, ops, cx);
    if !bad_idx {
        check_shape(call, ops, cx);
    }
    check_bounds(call, cx);
    check_direction(call, cx);
}

fn check_support(call: &RCall<'_>, ops: &[Opcode], cx: &Ctxt) {
    let text = &call.call.text;
    let name = call.call.name.span();
    match call.method.act {
        Act::Lower => {
            for &op in
                ops.iter().filter(|&&op| !(lowerable(op) || (call.method.mem && op.info().mem_operands.count() == 0)))
            {
                cx.error_at(
                    name,
                    format!(
                        "`{text}`: the legalizer helper has no lowering for {op}; use a custom action or another rule"
                    ),
                );
            }
        }
        Act::Libcall => {
            for &op in ops.iter().filter(|&&op| !libcallable(op)) {
                cx.error_at(name, format!("`{text}`: the legalizer helper has no library call for {op}; use lower, a custom action or another rule"));
            }
        }
        _ => {}
    }
}

/// Tuple arity against the opcode, empty lists, duplicate entries, and
/// literal kinds against what each index can hold.
fn check_lists(call: &RCall<'_>, ops: &[Opcode], cx: &Ctxt) {
    let rep = ops[0];
    let count = rep.num_type_indices();
    for val in &call.args {
        match val {
            Val::Types(list) => {
                let arity = list.arity();
                if list.entries.is_empty() {
                    cx.error(
                        list.range,
                        format!("`{}` has an empty type list, so the rule never applies", call.call.text),
                    );
                    continue;
                }
                if arity > count {
                    let entry = &list.entries[0];
                    cx.error(entry.range, format!("`{}` names {arity} type indices but {rep} has {count}", entry.text));
                } else if arity > 1 && arity < count {
                    let entry = &list.entries[0];
                    cx.error(
                        entry.range,
                        format!(
                            "`{}` names {arity} type indices but {rep} has {count}: name all of them, or only index 0",
                            entry.text
                        ),
                    );
                } else {
                    for entry in &list.entries {
                        for (i, ty) in entry.items.iter().enumerate() {
                            check_kind(ty, ops, i as u8, cx);
                        }
                    }
                }
                duplicates(&list.entries, cx);
            }
            Val::Lists(lists) => {
                let indices = lists.len().max(2);
                if lists.len() > 3 || indices > count {
                    cx.error(
                        call.call.range,
                        format!(
                            "a cartesian product of {} list(s) names {indices} type indices but {rep} has {count}",
                            lists.len()
                        ),
                    );
                    continue;
                }
                for (i, list) in lists.iter().enumerate() {
                    if list.entries.is_empty() {
                        cx.error(list.range, "empty type list: the rule never applies");
                    }
                    let both = [0, 1];
                    let one = [i as u8];
                    let idxs: &[u8] = if lists.len() == 1 { &both } else { &one };
                    for entry in &list.entries {
                        for &idx in idxs {
                            check_kind(&entry.items[0], ops, idx, cx);
                        }
                    }
                    duplicates(&list.entries, cx);
                }
            }
            Val::MemDescs(entries) => {
                if entries.is_empty() {
                    cx.error(call.call.range, "empty memory-descriptor list: the rule never applies");
                }
                let mut seen: BTreeMap<String, SpanRange> = BTreeMap::new();
                for entry in entries {
                    check_kind(&entry.types[0], ops, 0, cx);
                    check_kind(&entry.types[1], ops, 1, cx);
                    let text = format!(
                        "({}, {}, {}, {})",
                        entry.types[0].text, entry.types[1].text, entry.types[2].text, entry.align
                    );
                    let key = format!("{}|{}", key(&entry.types), entry.align);
                    if let Some(first) = seen.get(&key) {
                        duplicate(entry.range, &text, *first, cx);
                    } else {
                        seen.insert(key, entry.range);
                    }
                }
            }
            Val::Pred(f) => check_pred_lists(f, cx),
            _ => {}
        }
    }
}

fn check_pred_lists(f: &FnVal, cx: &Ctxt) {
    let FnKind::Call(fun, args) = &f.kind else { return };
    let want = match fun.name {
        "type_in_set" => 1,
        "type_pair_in_set" => 2,
        "type_tuple_in_set" => 3,
        _ => 0,
    };
    for arg in args {
        match arg {
            Val::Types(list) if want > 0 => {
                if let Some(entry) = list.entries.iter().find(|e| e.items.len() != want) {
                    cx.error(
                        entry.range,
                        format!(
                            "`{}` takes entries of {want} type(s), but `{}` has {}",
                            fun.name,
                            entry.text,
                            entry.items.len()
                        ),
                    );
                }
                duplicates(&list.entries, cx);
            }
            Val::Pred(p) => check_pred_lists(p, cx),
            Val::Preds(ps) => ps.iter().for_each(|p| check_pred_lists(p, cx)),
            _ => {}
        }
    }
}

fn key(tys: &[TyVal]) -> String {
    tys.iter().map(|t| t.known.map_or_else(|| t.text.clone(), |l| l.to_string())).collect::<Vec<_>>().join(",")
}

fn duplicate(range: SpanRange, text: &str, first: SpanRange, cx: &Ctxt) {
    cx.error_with_note(range, format!("duplicate type `{text}` in the list"), first, "first listed here");
}

/// Entries listed twice: a later entry is redundant when an earlier one
/// has the same types and no gate the later one lacks. Entries spliced
/// from one named list were checked where it was defined.
pub fn duplicates(entries: &[Entry], cx: &Ctxt) {
    let mut seen: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for entry in entries {
        let earlier = seen.entry(key(&entry.items)).or_default();
        let first = earlier.iter().find(|earlier| {
            !(earlier.splice.is_some() && earlier.splice == entry.splice)
                && earlier.gates.iter().all(|g| entry.gates.iter().any(|h| h.key == g.key))
        });
        if let Some(first) = first {
            duplicate(entry.range, &entry.text, first.range, cx);
        }
        earlier.push(entry);
    }
}

fn check_kind(ty: &TyVal, ops: &[Opcode], idx: u8, cx: &Ctxt) {
    let Some(shape) = ty.shape else { return };
    for &op in ops {
        let kind = index_kind(op, idx);
        let wrong = match kind {
            IndexKind::Any => false,
            IndexKind::NoVector => shape.is_vector(),
            IndexKind::Pointer => !shape.is_pointer(),
            IndexKind::Vector => !shape.is_vector(),
        };
        if wrong {
            ty_error(ty, format!("`{}` cannot be type index {idx} of {op}, which {}", ty.text, kind.describe()), cx);
            return;
        }
    }
}

/// Vector-only actions on indices that are never vectors, and scalar-only
/// ones on indices that are always vectors or pointers.
fn check_shape(call: &RCall<'_>, ops: &[Opcode], cx: &Ctxt) {
    let Some((idx, range)) = call.idx() else { return };
    for &op in ops {
        let kind = index_kind(op, idx);
        let never = match call.method.shape {
            Shape::Any => false,
            Shape::Vector => matches!(kind, IndexKind::NoVector | IndexKind::Pointer),
            Shape::Scalar => matches!(kind, IndexKind::Vector | IndexKind::Pointer),
        };
        if never {
            let what = if call.method.shape == Shape::Vector { "vector-only" } else { "scalar-only" };
            cx.error(
                range,
                format!(
                    "`{}` is a {what} rule but type index {idx} of {op} {}, so it never applies",
                    call.call.text,
                    kind.describe()
                ),
            );
            return;
        }
    }
}

fn require(ty: &TyVal, ok: impl Fn(Llt) -> bool, what: &str, text: &str, cx: &Ctxt) -> bool {
    match ty.shape {
        Some(shape) if !ok(shape) => {
            cx.error(ty.range, format!("`{text}` needs {what}, but `{}` is not", ty.text));
            false
        }
        _ => true,
    }
}

/// Clamp bounds and the kinds of type arguments.
fn check_bounds(call: &RCall<'_>, cx: &Ctxt) {
    let name = call.method.name;
    let text = &call.call.text;
    let tys = call.tys();
    let nums = call.nums();
    match name {
        "min_scalar" | "max_scalar" | "min_scalar_if" | "max_scalar_if" => {
            require(tys[0], Llt::is_scalar, "a scalar", text, cx);
        }
        "clamp_scalar" | "clamp_scalar_or_elt" => {
            let scalar = |t: Llt| if name == "clamp_scalar" { t.is_scalar() } else { !t.is_vector() };
            let what = if name == "clamp_scalar" { "scalars" } else { "scalars or pointers" };
            let ok = require(tys[0], scalar, what, text, cx) & require(tys[1], scalar, what, text, cx);
            if let (true, Some(min), Some(max)) = (ok, tys[0].known, tys[1].known)
                && min.scalar_size_in_bits() > max.scalar_size_in_bits()
            {
                cx.error(
                    tys[0].range.to(tys[1].range),
                    format!("`{text}`: minimum {min} is larger than maximum {max}"),
                );
            }
        }
        "clamp_num_elements" => {
            let fixed = |t: Llt| t.is_fixed_vector();
            let ok =
                require(tys[0], fixed, "fixed vectors", text, cx) & require(tys[1], fixed, "fixed vectors", text, cx);
            if let (true, Some(min), Some(max)) = (ok, tys[0].shape, tys[1].shape) {
                if min.element_type() != max.element_type() {
                    cx.error(tys[0].range.to(tys[1].range), format!("`{text}`: element types differ ({} and {}); both bounds must be vectors of one element type", min.element_type(), max.element_type()));
                } else if min.num_elements() > max.num_elements() {
                    cx.error(
                        tys[0].range.to(tys[1].range),
                        format!("`{text}`: minimum {min} has more elements than maximum {max}"),
                    );
                }
            }
        }
        "clamp_min_num_elements"
        | "clamp_max_num_elements"
        | "clamp_max_num_elements_strict"
        | "align_num_elements_to" => {
            require(tys[0], |t| !t.is_vector(), "an element type (a scalar or pointer)", text, cx);
            if let Some((Some(0), range)) = nums.first() {
                cx.error(*range, format!("`{text}`: an element count of 0 is not a vector"));
            }
        }
        _ => {}
    }
}

/// Mutations that cannot move toward legality: widening to a type that
/// is not wider, narrowing to one that is not narrower, rounding to a
/// multiple of 0 or 1.
fn check_direction(call: &RCall<'_>, cx: &Ctxt) {
    let text = &call.call.text;
    let name = call.method.name;
    if name == "widen_scalar_to_next_multiple_of"
        && let Some((Some(n @ (0 | 1)), range)) = call.nums().first().copied()
    {
        let why =
            if n == 0 { "a multiple of 0 is undefined" } else { "every size is a multiple of 1, so it never applies" };
        cx.error(range, format!("`{text}`: {why}"));
        return;
    }
    let widen = match call.method.act {
        Act::Widen => true,
        Act::Narrow => false,
        _ => return,
    };
    let Some(target) = call.mutation().and_then(change_to_target) else { return };
    let sources: Vec<&TyVal> = match (call.pred(), call.types()) {
        (Some(pred), _) => pred_types(pred, target.0),
        (None, Some(list)) if target.0 == 0 => list.entries.iter().map(|e| &e.items[0]).collect(),
        _ => Vec::new(),
    };
    for src in sources {
        let (Some(from), Some(to)) = (src.known, target.1.known) else { continue };
        let (f, t) = (from.scalar_size_in_bits(), to.scalar_size_in_bits());
        let bad = if widen { t <= f } else { t >= f };
        if bad {
            let (verb, cmp) = if widen { ("widens", "wider") } else { ("narrows", "narrower") };
            cx.error_with_note(
                target.1.range,
                format!(
                    "`{text}` {verb} `{}` to `{}`, which is not {cmp}: the rule cannot move toward legality",
                    src.text, target.1.text
                ),
                src.range,
                format!("`{}` matched here", src.text),
            );
        }
    }
}

fn change_to_target(m: &FnVal) -> Option<(u8, &TyVal)> {
    let FnKind::Call(fun, args) = &m.kind else { return None };
    match (fun.name, args.as_slice()) {
        ("change_to", [Val::Idx(i, _), Val::Ty(t)]) => Some((*i, t)),
        _ => None,
    }
}

fn pred_types(p: &FnVal, idx: u8) -> Vec<&TyVal> {
    let FnKind::Call(fun, args) = &p.kind else { return Vec::new() };
    match (fun.name, args.as_slice()) {
        ("type_is", [Val::Idx(i, _), Val::Ty(t)]) if *i == idx => vec![t],
        ("type_in_set", [Val::Idx(i, _), Val::Types(list)]) if *i == idx => {
            list.entries.iter().filter_map(|e| e.items.first()).collect()
        }
        _ => Vec::new(),
    }
}
