//! Bits of a value known to be zero, for the combines that LLVM guards with
//! its value tracking (`zext(trunc x)` needs no mask when the high bits of
//! `x` are already zero). A small, conservative subset: constants,
//! booleans from compares, zero extensions and zero-extending loads, masks,
//! selects, shifts by constants, and copies.

use super::target::{BooleanContent, LegalizeTarget};
use crate::apint::ApInt;
use crate::ir::{Function, Operand, Reg, VReg};
use crate::opcode::Opcode;

/// How deep the analysis follows definitions (LLVM's limit).
const MAX_DEPTH: u32 = 6;

/// The bits of scalar `v` known to be zero (a mask of its width).
pub fn known_zero(func: &Function, target: &dyn LegalizeTarget, v: VReg) -> ApInt {
    zeros(func, target, v, 0)
}

fn reg(op: &Operand) -> Option<VReg> {
    match op.as_reg().map(|r| r.reg) {
        Some(Reg::Virtual(v)) => Some(v),
        _ => None,
    }
}

fn constant(func: &Function, v: VReg) -> Option<ApInt> {
    let def = func.def_inst(v)?;
    let data = func.inst(def);
    match &data.operands[..] {
        [_, Operand::CImm(c)] if data.is(Opcode::G_CONSTANT) => Some(c.clone()),
        _ => None,
    }
}

fn zeros(func: &Function, target: &dyn LegalizeTarget, v: VReg, depth: u32) -> ApInt {
    let ty = func.ty(v);
    let bits = ty.scalar_size_in_bits();
    let nothing = ApInt::zero(bits.max(1));
    if !ty.is_scalar() || depth >= MAX_DEPTH {
        return nothing;
    }
    let Some(def) = func.def_inst(v) else { return nothing };
    let data = func.inst(def);
    let Some(opcode) = data.known_opcode() else { return nothing };
    let operand = |i: usize| data.operands.get(i).and_then(reg);
    let high_zero = |low: u32| ApInt::all_ones(bits).shl(low.min(bits));
    match opcode {
        Opcode::G_CONSTANT => constant(func, v).map_or(nothing, |c| c.not()),
        Opcode::G_ICMP | Opcode::G_FCMP if bits > 1 => match target.boolean_content(false) {
            BooleanContent::ZeroOrOne => high_zero(1),
            _ => nothing,
        },
        Opcode::G_ZEXT => operand(1).map_or(nothing, |src| {
            let src_bits = func.ty(src).scalar_size_in_bits();
            let inner = zeros(func, target, src, depth + 1).zext_or_trunc(bits);
            inner.or(&high_zero(src_bits))
        }),
        Opcode::G_ZEXTLOAD => match data.mem.first().and_then(|m| m.memory_type()) {
            Some(mem) => high_zero(mem.size_in_bits() as u32),
            None => nothing,
        },
        Opcode::G_ASSERT_ZEXT => match data.operands.get(2) {
            Some(Operand::Imm(width)) => high_zero(*width as u32),
            _ => nothing,
        },
        Opcode::G_AND | Opcode::G_OR => match (operand(1), operand(2)) {
            (Some(a), Some(b)) => {
                let (za, zb) = (zeros(func, target, a, depth + 1), zeros(func, target, b, depth + 1));
                if opcode == Opcode::G_AND { za.or(&zb) } else { za.and(&zb) }
            }
            _ => nothing,
        },
        Opcode::G_SELECT => match (operand(2), operand(3)) {
            (Some(a), Some(b)) => zeros(func, target, a, depth + 1).and(&zeros(func, target, b, depth + 1)),
            _ => nothing,
        },
        Opcode::G_LSHR | Opcode::G_SHL => match (operand(1), operand(2).and_then(|a| constant(func, a))) {
            (Some(src), Some(amount)) => match amount.to_u32_below(bits) {
                Some(k) => {
                    let inner = zeros(func, target, src, depth + 1);
                    if opcode == Opcode::G_LSHR {
                        inner.lshr(k).or(&ApInt::all_ones(bits).shl(bits - k))
                    } else {
                        inner.shl(k).or(&ApInt::all_ones(bits).lshr(bits - k))
                    }
                }
                None => nothing,
            },
            _ => nothing,
        },
        Opcode::G_TRUNC => operand(1).map_or(nothing, |src| zeros(func, target, src, depth + 1).zext_or_trunc(bits)),
        Opcode::COPY => match operand(1) {
            Some(src) if func.ty(src) == ty => zeros(func, target, src, depth + 1),
            _ => nothing,
        },
        _ => nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legalize::DefaultTarget;
    use crate::mir::parse_body;

    fn zero_mask(body: &str, name: &str) -> u128 {
        let func = parse_body("f", body, &[], &|_| 64).expect("parses");
        let v = func.vregs().find(|v| func.vreg(*v).name.as_deref() == Some(name)).expect("named vreg");
        known_zero(&func, &DefaultTarget, v).to_u128().expect("fits")
    }

    #[test]
    fn knows_booleans_masks_and_extensions() {
        let body = "bb.0:\n  %a:_(s32) = COPY $w0\n  %c:_(s32) = G_ICMP intpred(eq), %a(s32), %a\n  \
                    %k:_(s32) = G_CONSTANT i32 255\n  %m:_(s32) = G_AND %a, %k\n  %t:_(s8) = G_TRUNC %a(s32)\n  \
                    %z:_(s32) = G_ZEXT %t(s8)\n  %four:_(s32) = G_CONSTANT i32 4\n  %s:_(s32) = G_LSHR %m, %four(s32)\n";
        assert_eq!(zero_mask(body, "c"), 0xffff_fffe);
        assert_eq!(zero_mask(body, "m"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "z"), 0xffff_ff00);
        assert_eq!(zero_mask(body, "s"), 0xffff_fff0);
        assert_eq!(zero_mask(body, "a"), 0);
    }
}
