//! `Libcall`: replace an operation by a call to the runtime function LLVM
//! uses for it (`__divti3`, `__addtf3`, `fmodf`, ...); the target's calling
//! convention emits the call.

use super::libcall_atomic::atomic_libcall;
use super::libcall_mem::mem_libcall;
use super::libcall_stack::stack_libcall;
use super::{Helper, StepResult};
use crate::ir::{FloatPredicate, Inst, IntPredicate, Operand, VReg};
use crate::legalize::target::{LibcallRequest, LibcallValue};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Replaces `inst` by a library call.
pub(super) fn libcall(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("not a generic instruction".into());
    };
    match opcode {
        Opcode::G_FCMP => return fcmp(h, inst),
        Opcode::G_MEMCPY | Opcode::G_MEMMOVE | Opcode::G_MEMSET | Opcode::G_BZERO => {
            return mem_libcall(h, inst, opcode);
        }
        Opcode::G_ATOMIC_CMPXCHG
        | Opcode::G_ATOMIC_CMPXCHG_WITH_SUCCESS
        | Opcode::G_ATOMICRMW_XCHG
        | Opcode::G_ATOMICRMW_ADD
        | Opcode::G_ATOMICRMW_SUB
        | Opcode::G_ATOMICRMW_AND
        | Opcode::G_ATOMICRMW_OR
        | Opcode::G_ATOMICRMW_XOR => return atomic_libcall(h, inst, opcode),
        Opcode::G_FMODF
        | Opcode::G_FSINCOS
        | Opcode::G_GET_FPENV
        | Opcode::G_SET_FPENV
        | Opcode::G_RESET_FPENV
        | Opcode::G_GET_FPMODE
        | Opcode::G_SET_FPMODE
        | Opcode::G_RESET_FPMODE => return stack_libcall(h, inst, opcode),
        _ => {}
    }
    let Some(request) = request_for(h, inst, opcode) else {
        return StepResult::Unable(format!("no library call for {opcode} on these types"));
    };
    let target = h.target;
    match target.emit_libcall(h, inst, &request) {
        Ok(()) => {
            h.func.erase(inst);
            StepResult::Legalized
        }
        Err(why) => StepResult::Unable(format!("calling {}: {why}", request.symbol)),
    }
}

fn value(h: &Helper<'_>, inst: Inst, index: usize, float: bool, signed: bool) -> LibcallValue {
    let reg = h.reg(inst, index);
    LibcallValue { reg, ty: h.func.ty(reg), float, signed, any_extend: false }
}

/// The call for `inst`: its symbol, arguments and results.
fn request_for(h: &Helper<'_>, inst: Inst, opcode: Opcode) -> Option<LibcallRequest> {
    use Opcode::*;
    let dst_ty = h.ty(inst, 0);
    if dst_ty.is_vector() {
        return None;
    }
    let operands = h.func.inst(inst).operands.len();
    let (symbol, float) = match opcode {
        G_MUL | G_SDIV | G_UDIV | G_SREM | G_UREM | G_CTLZ_ZERO_UNDEF => (integer_name(opcode, dst_ty)?, false),
        G_FADD | G_FSUB | G_FMUL | G_FDIV => (soft_float_name(opcode, dst_ty)?, true),
        _ => (libm_name(opcode, dst_ty).or_else(|| conversion_name(h, inst, opcode))?, true),
    };
    let rounds_to_int = matches!(opcode, G_LROUND | G_LLROUND | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT);
    let is_conversion =
        rounds_to_int || matches!(opcode, G_FPEXT | G_FPTRUNC | G_FPTOSI | G_FPTOUI | G_SITOFP | G_UITOFP);
    let (args, results) = if is_conversion {
        let src_float = rounds_to_int || matches!(opcode, G_FPEXT | G_FPTRUNC | G_FPTOSI | G_FPTOUI);
        let dst_float = matches!(opcode, G_FPEXT | G_FPTRUNC | G_SITOFP | G_UITOFP);
        (vec![value(h, inst, 1, src_float, opcode == G_SITOFP)], vec![value(h, inst, 0, dst_float, false)])
    } else if opcode == G_FPOWI || opcode == G_FLDEXP {
        (vec![value(h, inst, 1, true, false), value(h, inst, 2, false, true)], vec![value(h, inst, 0, true, false)])
    } else {
        let signed = matches!(opcode, G_SDIV | G_SREM);
        let args = (1..operands).map(|i| value(h, inst, i, float, signed)).collect();
        (args, vec![value(h, inst, 0, float, signed)])
    };
    Some(LibcallRequest::new(symbol, args, results))
}

fn int_suffix(ty: Llt) -> Option<&'static str> {
    match ty.size_in_bits() {
        32 => Some("si"),
        64 => Some("di"),
        128 => Some("ti"),
        _ => None,
    }
}

fn float_suffix(ty: Llt) -> Option<&'static str> {
    match ty.size_in_bits() {
        16 => Some("hf"),
        32 => Some("sf"),
        64 => Some("df"),
        128 => Some("tf"),
        80 => Some("xf"),
        _ => None,
    }
}

/// `__divsi3`, `__umodti3`, `__clzdi2`, ...
fn integer_name(opcode: Opcode, ty: Llt) -> Option<String> {
    let base = match opcode {
        Opcode::G_MUL => "mul",
        Opcode::G_SDIV => "div",
        Opcode::G_UDIV => "udiv",
        Opcode::G_SREM => "mod",
        Opcode::G_UREM => "umod",
        _ => return Some(format!("__clz{}2", int_suffix(ty)?)),
    };
    Some(format!("__{base}{}3", int_suffix(ty)?))
}

/// `__addsf3`, `__divtf3`, ...
fn soft_float_name(opcode: Opcode, ty: Llt) -> Option<String> {
    let base = match opcode {
        Opcode::G_FADD => "add",
        Opcode::G_FSUB => "sub",
        Opcode::G_FMUL => "mul",
        _ => "div",
    };
    let suffix = float_suffix(ty).filter(|s| *s != "hf")?;
    Some(format!("__{base}{suffix}3"))
}

/// C's math library: `fmodf`, `fmod`, `fmodl`, `__powisf2`, ...
fn libm_name(opcode: Opcode, ty: Llt) -> Option<String> {
    use Opcode::*;
    let base = match opcode {
        G_FREM => "fmod",
        G_FPOW => "pow",
        G_FMA => "fma",
        G_FSIN => "sin",
        G_FCOS => "cos",
        G_FTAN => "tan",
        G_FASIN => "asin",
        G_FACOS => "acos",
        G_FATAN => "atan",
        G_FATAN2 => "atan2",
        G_FSINH => "sinh",
        G_FCOSH => "cosh",
        G_FTANH => "tanh",
        G_FLOG => "log",
        G_FLOG2 => "log2",
        G_FLOG10 => "log10",
        G_FEXP => "exp",
        G_FEXP2 => "exp2",
        G_FEXP10 => "exp10",
        G_FCEIL => "ceil",
        G_FFLOOR => "floor",
        G_FMINNUM => "fmin",
        G_FMAXNUM => "fmax",
        G_FSQRT => "sqrt",
        G_FRINT => "rint",
        G_FNEARBYINT => "nearbyint",
        G_INTRINSIC_TRUNC => "trunc",
        G_INTRINSIC_ROUND => "round",
        G_INTRINSIC_ROUNDEVEN => "roundeven",
        G_FLDEXP => "ldexp",
        G_FPOWI => return Some(format!("__powi{}2", float_suffix(ty).filter(|s| *s != "hf")?)),
        _ => return None,
    };
    let suffix = match ty.size_in_bits() {
        32 => "f",
        64 => "",
        80 | 128 => "l",
        _ => return None,
    };
    Some(format!("{base}{suffix}"))
}

/// `__extendsfdf2`, `__fixtfti`, `__floatunsidf`, ..., and the C
/// library's rounding conversions to `long` and `long long`: `lroundf`,
/// `llrint`, `lrintl`, ...
fn conversion_name(h: &Helper<'_>, inst: Inst, opcode: Opcode) -> Option<String> {
    use Opcode::*;
    let (dst, src) = (h.ty(inst, 0), h.ty(inst, 1));
    let libm_suffix = || match src.size_in_bits() {
        32 => Some("f"),
        64 => Some(""),
        80 | 128 => Some("l"),
        _ => None,
    };
    Some(match opcode {
        G_LROUND => format!("lround{}", libm_suffix()?),
        G_LLROUND => format!("llround{}", libm_suffix()?),
        G_INTRINSIC_LRINT => format!("lrint{}", libm_suffix()?),
        G_INTRINSIC_LLRINT => format!("llrint{}", libm_suffix()?),
        G_FPEXT | G_FPTRUNC if !has_fp_conversion(src.size_in_bits(), dst.size_in_bits()) => return None,
        G_FPEXT => format!("__extend{}{}2", float_suffix(src)?, float_suffix(dst)?),
        G_FPTRUNC => format!("__trunc{}{}2", float_suffix(src)?, float_suffix(dst)?),
        G_FPTOSI => format!("__fix{}{}", float_suffix(src)?, int_suffix(dst)?),
        G_FPTOUI => format!("__fixuns{}{}", float_suffix(src)?, int_suffix(dst)?),
        G_SITOFP => format!("__float{}{}", int_suffix(src)?, float_suffix(dst)?),
        G_UITOFP => format!("__floatun{}{}", int_suffix(src)?, float_suffix(dst)?),
        _ => return None,
    })
}

/// Whether LLVM 22's runtime has a conversion between IEEE (or x87)
/// formats of `from` and `to` bits (`RTLIB::getFPEXT`/`getFPROUND`): to
/// and from `fp128` and `half` for all, `float` and `double` between
/// themselves, and from `x86_fp80` down; nothing extends `float` or
/// `double` to `x86_fp80`.
fn has_fp_conversion(from: u64, to: u64) -> bool {
    let (narrow, wide) = (from.min(to), from.max(to));
    match (narrow, wide) {
        (16, 32 | 64 | 80 | 128) | (32, 64 | 128) | (64, 128) | (80, 128) => true,
        (32 | 64, 80) => from > to,
        _ => false,
    }
}

/// The comparison routine and how its `i32` answer compares with zero, for
/// the predicates that have one (LLVM's `getFCMPLibcallDesc`).
fn fcmp_routine(pred: FloatPredicate, ty: Llt) -> Option<(String, IntPredicate)> {
    let (base, compare) = match pred {
        FloatPredicate::Oeq => ("eq", IntPredicate::Eq),
        FloatPredicate::Une => ("ne", IntPredicate::Ne),
        FloatPredicate::Oge => ("ge", IntPredicate::Sge),
        FloatPredicate::Olt => ("lt", IntPredicate::Slt),
        FloatPredicate::Ole => ("le", IntPredicate::Sle),
        FloatPredicate::Ogt => ("gt", IntPredicate::Sgt),
        FloatPredicate::Uno => ("unord", IntPredicate::Ne),
        _ => return None,
    };
    let suffix = float_suffix(ty).filter(|s| matches!(*s, "sf" | "df" | "tf"))?;
    Some((format!("__{base}{suffix}2"), compare))
}

fn inverse_float(pred: FloatPredicate) -> FloatPredicate {
    use FloatPredicate::*;
    match pred {
        False => True,
        Oeq => Une,
        Ogt => Ule,
        Oge => Ult,
        Olt => Uge,
        Ole => Ugt,
        One => Ueq,
        Ord => Uno,
        Uno => Ord,
        Ueq => One,
        Ugt => Ole,
        Uge => Olt,
        Ult => Oge,
        Ule => Ogt,
        Une => Oeq,
        True => False,
    }
}

fn inverse_int(pred: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match pred {
        Eq => Ne,
        Ne => Eq,
        Ugt => Ule,
        Uge => Ult,
        Ult => Uge,
        Ule => Ugt,
        Sgt => Sle,
        Sge => Slt,
        Slt => Sge,
        Sle => Sgt,
    }
}

/// `G_FCMP` through the soft-float comparison routines: each returns an
/// `i32` compared with zero; UEQ and ONE combine two calls, the other
/// unordered predicates invert the call of their inverse.
fn fcmp(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let Operand::FloatPred(pred) = h.func.inst(inst).operands[1] else {
        return StepResult::Unable("G_FCMP without a predicate".into());
    };
    let (dst, lhs, rhs) = (h.reg(inst, 0), h.reg(inst, 2), h.reg(inst, 3));
    let ty = h.func.ty(lhs);
    if !matches!(ty.size_in_bits(), 32 | 64 | 128) || h.func.ty(rhs) != ty {
        return StepResult::Unable(format!("no comparison routine for {ty}"));
    }
    let dst_ty = h.func.ty(dst);
    let call = |h: &mut Helper<'_>, routine: Option<(String, IntPredicate)>, invert: bool, into: Option<VReg>| {
        let (symbol, compare) = routine.ok_or_else(|| format!("no comparison routine for {pred:?}"))?;
        let s32 = Llt::scalar(32);
        let temp = h.func.new_vreg(s32);
        let args =
            [lhs, rhs].map(|reg| LibcallValue { reg, ty, float: true, signed: false, any_extend: false }).to_vec();
        let results = vec![LibcallValue { reg: temp, ty: s32, float: false, signed: true, any_extend: false }];
        let target = h.target;
        target.emit_libcall(h, inst, &LibcallRequest::new(symbol, args, results))?;
        let zero = h.builder().constant(s32, 0);
        let compare = if invert { inverse_int(compare) } else { compare };
        let uses = vec![Operand::IntPred(compare), Operand::vreg_use(temp), Operand::vreg_use(zero)];
        Ok::<VReg, String>(match into {
            Some(dst) => {
                h.build_with(Opcode::G_ICMP, &[dst], uses);
                dst
            }
            None => h.builder().build(Opcode::G_ICMP, &[dst_ty], uses).1[0],
        })
    };
    let result = match pred {
        FloatPredicate::Ueq | FloatPredicate::One => {
            let one = pred == FloatPredicate::One;
            let eq = call(h, fcmp_routine(FloatPredicate::Oeq, ty), one, None);
            let uno = eq.and_then(|eq| call(h, fcmp_routine(FloatPredicate::Uno, ty), one, None).map(|u| (eq, u)));
            uno.map(|(eq, uno)| {
                h.build_into(if one { Opcode::G_AND } else { Opcode::G_OR }, dst, &[eq, uno]);
            })
        }
        FloatPredicate::Ult | FloatPredicate::Uge | FloatPredicate::Ugt | FloatPredicate::Ule | FloatPredicate::Ord => {
            call(h, fcmp_routine(inverse_float(pred), ty), true, Some(dst)).map(|_| ())
        }
        _ => call(h, fcmp_routine(pred, ty), false, Some(dst)).map(|_| ()),
    };
    match result {
        Ok(()) => {
            h.func.erase(inst);
            StepResult::Legalized
        }
        Err(why) => StepResult::Unable(format!("G_FCMP as a library call: {why}")),
    }
}
