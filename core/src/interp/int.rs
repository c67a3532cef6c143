//! Integer semantics: arithmetic, bitwise logic, shifts, division, min/max,
//! overflow and saturating operations, comparisons, select and extensions.
//!
//! Undefinedness: bitwise operations are exact per bit (`x & 0` is a defined
//! zero); `add`, `sub`, `mul` and left shifts keep the low bits below the
//! first undefined input bit (a low result bit depends only on lower input
//! bits); everything else is undefined as soon as any input bit is.

use super::InterpError;
use super::eval::Ctx;
use super::value::Value;
use crate::apint::ApInt;
use crate::ir::IntPredicate;
use crate::opcode::Opcode;
use std::cmp::Ordering;

type Out = Result<Option<Vec<Value>>, InterpError>;

fn one(v: Value) -> Out {
    Ok(Some(vec![v]))
}

/// `f` on the values with undefined bits read as zero, defined only below
/// the lowest undefined input bit.
pub(super) fn low_precise(a: &Value, b: &Value, f: impl Fn(&ApInt, &ApInt) -> ApInt) -> Value {
    let w = a.width();
    let low = a.defined_low_bits().min(b.defined_low_bits());
    let r = f(a.bits(), &b.bits().zext_or_trunc(w));
    Value::new(r, ApInt::bit_range(w, low, w))
}

/// `G_AND`/`G_OR`/`G_XOR` bit by bit: a result bit is defined when the
/// operation does not depend on an undefined input bit.
pub(super) fn bitwise(a: &Value, b: &Value, op: Opcode) -> Value {
    let (au, bu) = (a.undef_mask(), &b.undef_mask().zext_or_trunc(a.width()));
    let (av, bv) = (a.bits(), &b.bits().zext_or_trunc(a.width()));
    let any_undef = au.or(bu);
    match op {
        Opcode::G_AND => {
            // Defined when both are defined or either is a defined zero.
            let zero_a = au.or(av).not();
            let zero_b = bu.or(bv).not();
            Value::new(av.and(bv), any_undef.and(&zero_a.or(&zero_b).not()))
        }
        Opcode::G_OR => {
            let one_a = av.and(&au.not());
            let one_b = bv.and(&bu.not());
            Value::new(av.or(bv), any_undef.and(&one_a.or(&one_b).not()))
        }
        _ => Value::new(av.xor(bv), any_undef),
    }
}

/// A shift amount in `0..width`, or `None` (poison) when undefined or too big.
pub fn shift_amount(v: &Value, width: u32) -> Option<u32> {
    v.get()?.to_u32_below(width)
}

fn shift(op: Opcode, a: &Value, amount: u32) -> Value {
    match op {
        Opcode::G_SHL => Value::new(a.bits().shl(amount), a.undef_mask().shl(amount)),
        Opcode::G_LSHR => Value::new(a.bits().lshr(amount), a.undef_mask().lshr(amount)),
        _ => Value::new(a.bits().ashr(amount), a.undef_mask().ashr(amount)),
    }
}

fn int_compare(pred: IntPredicate, a: &ApInt, b: &ApInt) -> bool {
    use IntPredicate::*;
    let (u, s) = (a.ucmp(b), a.scmp(b));
    match pred {
        Eq => u == Ordering::Equal,
        Ne => u != Ordering::Equal,
        Ugt => u == Ordering::Greater,
        Uge => u != Ordering::Less,
        Ult => u == Ordering::Less,
        Ule => u != Ordering::Greater,
        Sgt => s == Ordering::Greater,
        Sge => s != Ordering::Less,
        Slt => s == Ordering::Less,
        Sle => s != Ordering::Greater,
    }
}

/// The integer comparison of two values: defined when both are, or for
/// `eq`/`ne` when some defined bit differs.
pub fn icmp(pred: IntPredicate, a: &Value, b: &Value) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.get(), b.get()) {
        return Some(int_compare(pred, x, y));
    }
    let both = a.undef_mask().or(b.undef_mask()).not();
    let differ = !a.bits().xor(b.bits()).and(&both).is_zero();
    match pred {
        IntPredicate::Eq if differ => Some(false),
        IntPredicate::Ne if differ => Some(true),
        _ => None,
    }
}

fn sat_add(a: &ApInt, b: &ApInt, signed: bool, sub: bool) -> ApInt {
    let w = a.bits();
    let (wa, wb) = if signed {
        (a.sext_or_trunc(w + 2), b.sext_or_trunc(w + 2))
    } else {
        (a.zext_or_trunc(w + 2), b.zext_or_trunc(w + 2))
    };
    let exact = if sub { wa.sub(&wb) } else { wa.add(&wb) };
    clamp(&exact, w, signed)
}

/// Clamps a wider exact result (two's complement in its own width) into `w` bits.
fn clamp(exact: &ApInt, w: u32, signed: bool) -> ApInt {
    let ew = exact.bits();
    let (lo, hi) = if signed {
        (ApInt::signed_min(w).sext_or_trunc(ew), ApInt::signed_max(w).sext_or_trunc(ew))
    } else {
        (ApInt::zero(ew), ApInt::all_ones(w).zext_or_trunc(ew))
    };
    let cmp = |x: &ApInt, y: &ApInt| if signed { x.scmp(y) } else { x.ucmp(y) };
    // Unsigned results below zero show as huge values in the wide width:
    // test the sign for the unsigned case too.
    if (!signed && exact.is_negative()) || (signed && cmp(exact, &lo) == Ordering::Less) {
        lo.zext_or_trunc(w)
    } else if cmp(exact, &hi) == Ordering::Greater {
        hi.zext_or_trunc(w)
    } else {
        exact.zext_or_trunc(w)
    }
}

fn extend(a: &ApInt, w: u32, signed: bool) -> ApInt {
    if signed { a.sext_or_trunc(w) } else { a.zext_or_trunc(w) }
}

/// `a op b (op carry)` computed exactly in `2w + 2` bits: the wrapped
/// result and whether it overflowed the signed or unsigned range.
fn exact_arith(a: &ApInt, b: &ApInt, carry: bool, signed: bool, kind: char) -> (ApInt, bool) {
    let w = a.bits();
    let ew = 2 * w + 2;
    let (x, y) = (extend(a, ew, signed), extend(b, ew, signed));
    let c = ApInt::from_u128(ew, u128::from(carry));
    let exact = match kind {
        '+' => x.add(&y).add(&c),
        '-' => x.sub(&y).sub(&c),
        _ => x.mul(&y),
    };
    let wrapped = exact.zext_or_trunc(w);
    (wrapped.clone(), extend(&wrapped, ew, signed) != exact)
}

/// Evaluates the integer family; `Ok(None)` for other opcodes.
pub fn eval(ctx: &Ctx<'_>) -> Out {
    use Opcode::*;
    let op = ctx.op;
    match op {
        G_ADD | G_SUB | G_MUL => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            one(low_precise(a, b, |x, y| match op {
                G_ADD => x.add(y),
                G_SUB => x.sub(y),
                _ => x.mul(y),
            }))
        }
        G_AND | G_OR | G_XOR => one(bitwise(ctx.arg(0)?, ctx.arg(1)?, op)),
        G_CONSTANT_FOLD_BARRIER => one(ctx.arg(0)?.clone()),
        G_SHL | G_LSHR | G_ASHR => {
            let a = ctx.arg(0)?;
            Ok(Some(vec![match shift_amount(ctx.arg(1)?, a.width()) {
                Some(n) => shift(op, a, n),
                None => a.to_undef(),
            }]))
        }
        G_UDIV | G_SDIV | G_UREM | G_SREM | G_UDIVREM | G_SDIVREM => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let divisor =
                b.get().ok_or_else(|| InterpError::Undefined(format!("{} by an undefined value", op.name())))?;
            if divisor.is_zero() {
                return Err(InterpError::Undefined(format!("{} by zero", op.name())));
            }
            let signed = matches!(op, G_SDIV | G_SREM | G_SDIVREM);
            let both = matches!(op, G_UDIVREM | G_SDIVREM);
            let Some(x) = a.get() else {
                return Ok(Some(if both { vec![a.to_undef(), a.to_undef()] } else { vec![a.to_undef()] }));
            };
            if signed && x == &ApInt::signed_min(x.bits()) && divisor.is_all_ones() {
                return Err(InterpError::Undefined(format!("{} overflow", op.name())));
            }
            let (q, r) = if signed { x.sdivrem(divisor) } else { x.udivrem(divisor) }
                .ok_or_else(|| InterpError::Undefined("division by zero".into()))?;
            match op {
                G_UDIVREM | G_SDIVREM => Ok(Some(vec![Value::defined(q), Value::defined(r)])),
                G_UDIV | G_SDIV => one(Value::defined(q)),
                _ => one(Value::defined(r)),
            }
        }
        G_SMIN | G_SMAX | G_UMIN | G_UMAX => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            one(Value::strict(a.width(), &[a, b], |v| {
                let ord = if matches!(op, G_SMIN | G_SMAX) { v[0].scmp(v[1]) } else { v[0].ucmp(v[1]) };
                let pick_first = (ord == Ordering::Less) == matches!(op, G_SMIN | G_UMIN);
                if pick_first { v[0].clone() } else { v[1].clone() }
            }))
        }
        G_ABS => {
            let a = ctx.arg(0)?;
            one(Value::strict(a.width(), &[a], |v| if v[0].is_negative() { v[0].negate() } else { v[0].clone() }))
        }
        G_UADDO | G_SADDO | G_USUBO | G_SSUBO | G_UMULO | G_SMULO | G_UADDE | G_SADDE | G_USUBE | G_SSUBE => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let carry_in = if matches!(op, G_UADDE | G_SADDE | G_USUBE | G_SSUBE) { Some(ctx.arg(2)?) } else { None };
            let w = a.width();
            let flag_w = ctx.def_width(1)?;
            let carry = match carry_in {
                Some(c) => match c.bit(0) {
                    Some(bit) => bit,
                    None => return Ok(Some(vec![Value::undef(w), Value::undef(flag_w)])),
                },
                None => false,
            };
            let signed = matches!(op, G_SADDO | G_SSUBO | G_SMULO | G_SADDE | G_SSUBE);
            let kind = match op {
                G_UADDO | G_SADDO | G_UADDE | G_SADDE => '+',
                G_USUBO | G_SSUBO | G_USUBE | G_SSUBE => '-',
                _ => '*',
            };
            let (Some(x), Some(y)) = (a.get(), b.get()) else {
                // A bit of the result depends only on the bits below it
                // (the high pieces of a narrowed value may be undefined
                // while its low bits are not); the flag on all of them.
                let sum = low_precise(a, b, |x, y| exact_arith(x, y, carry, signed, kind).0);
                return Ok(Some(vec![sum, Value::undef(flag_w)]));
            };
            let (r, overflow) = exact_arith(x, y, carry, signed, kind);
            Ok(Some(vec![Value::defined(r), ctx.boolean(flag_w, Some(overflow))]))
        }
        G_UMULH | G_SMULH => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let w = a.width();
            one(Value::strict(w, &[a, b], |v| {
                let signed = op == G_SMULH;
                extend(v[0], 2 * w, signed).mul(&extend(v[1], 2 * w, signed)).extract(w, w)
            }))
        }
        G_UADDSAT | G_SADDSAT | G_USUBSAT | G_SSUBSAT => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            let signed = matches!(op, G_SADDSAT | G_SSUBSAT);
            let sub = matches!(op, G_USUBSAT | G_SSUBSAT);
            one(Value::strict(a.width(), &[a, b], |v| sat_add(v[0], v[1], signed, sub)))
        }
        G_USHLSAT | G_SSHLSAT => {
            let a = ctx.arg(0)?;
            let w = a.width();
            let Some(n) = shift_amount(ctx.arg(1)?, w) else { return one(a.to_undef()) };
            let signed = op == G_SSHLSAT;
            one(Value::strict(w, &[a], |v| clamp(&extend(v[0], 2 * w + 1, signed).shl(n), w, signed)))
        }
        G_ICMP => {
            let w = ctx.def_width(0)?;
            let r = icmp(ctx.int_pred()?, ctx.arg(0)?, ctx.arg(1)?);
            one(ctx.boolean(w, r))
        }
        G_SELECT => {
            let c = ctx.arg(0)?;
            Ok(Some(vec![match c.bit(0) {
                Some(true) => ctx.arg(1)?.clone(),
                Some(false) => ctx.arg(2)?.clone(),
                None => ctx.arg(1)?.to_undef(),
            }]))
        }
        G_ZEXT => one(ctx.arg(0)?.zext(ctx.def_width(0)?)),
        G_SEXT => one(ctx.arg(0)?.sext(ctx.def_width(0)?)),
        G_ANYEXT => one(ctx.arg(0)?.anyext(ctx.def_width(0)?)),
        G_TRUNC => one(ctx.arg(0)?.extract(0, ctx.def_width(0)?)),
        G_SEXT_INREG => {
            let a = ctx.arg(0)?;
            let n = u32::try_from(ctx.imm(0)?).ok().filter(|n| (1..=a.width()).contains(n));
            let n = n.ok_or_else(|| InterpError::Malformed("G_SEXT_INREG: bad width".into()))?;
            one(a.extract(0, n).sext(a.width()))
        }
        G_ASSERT_ZEXT | G_ASSERT_SEXT => {
            let a = ctx.arg(0)?;
            let n = u32::try_from(ctx.imm(0)?).ok().filter(|n| (1..=a.width()).contains(n));
            let n = n.ok_or_else(|| InterpError::Malformed(format!("{}: bad width", op.name())))?;
            let low = a.extract(0, n);
            let promised = if op == G_ASSERT_ZEXT { low.zext(a.width()) } else { low.sext(a.width()) };
            one(a.asserted(&promised))
        }
        G_PTR_ADD => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            one(low_precise(a, &b.sext(a.width()), ApInt::add))
        }
        G_PTRMASK => {
            let (a, b) = (ctx.arg(0)?, ctx.arg(1)?);
            one(bitwise(a, &b.zext(a.width()), G_AND))
        }
        G_PTRTOINT | G_INTTOPTR | G_ADDRSPACE_CAST => {
            let a = ctx.arg(0)?;
            one(a.zext(ctx.def_width(0)?))
        }
        _ => Ok(None),
    }
}
