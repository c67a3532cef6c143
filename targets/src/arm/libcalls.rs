//! Which runtime function a libcall names on Arm, and how floating-point
//! comparisons are made of them.
//!
//! The generic helper asks for the libgcc name (`__divsi3`, `__addsf3`,
//! `__fixdfsi`); an AEABI runtime (`*eabi*` environments, Android) has its
//! own helper for many of them (`__aeabi_idiv`, `__aeabi_fadd`,
//! `__aeabi_d2iz`, RTABI chapter 4), which LLVM 22's runtime-library table
//! prefers, always under the soft-float calling convention.

use gisel_core::ir::{FloatPredicate, IntPredicate};

/// The AEABI helper replacing libgcc routine `name`, if there is one.
pub fn aeabi_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "__adddf3" => "__aeabi_dadd",
        "__divdf3" => "__aeabi_ddiv",
        "__muldf3" => "__aeabi_dmul",
        "__subdf3" => "__aeabi_dsub",
        "__addsf3" => "__aeabi_fadd",
        "__divsf3" => "__aeabi_fdiv",
        "__mulsf3" => "__aeabi_fmul",
        "__subsf3" => "__aeabi_fsub",
        "__fixdfsi" => "__aeabi_d2iz",
        "__fixunsdfsi" => "__aeabi_d2uiz",
        "__fixdfdi" => "__aeabi_d2lz",
        "__fixunsdfdi" => "__aeabi_d2ulz",
        "__fixsfsi" => "__aeabi_f2iz",
        "__fixunssfsi" => "__aeabi_f2uiz",
        "__fixsfdi" => "__aeabi_f2lz",
        "__fixunssfdi" => "__aeabi_f2ulz",
        "__truncdfsf2" => "__aeabi_d2f",
        "__truncdfhf2" => "__aeabi_d2h",
        "__extendsfdf2" => "__aeabi_f2d",
        "__floatsidf" => "__aeabi_i2d",
        "__floatunsidf" => "__aeabi_ui2d",
        "__floatdidf" => "__aeabi_l2d",
        "__floatundidf" => "__aeabi_ul2d",
        "__floatsisf" => "__aeabi_i2f",
        "__floatunsisf" => "__aeabi_ui2f",
        "__floatdisf" => "__aeabi_l2f",
        "__floatundisf" => "__aeabi_ul2f",
        "__muldi3" => "__aeabi_lmul",
        "__ashldi3" => "__aeabi_llsl",
        "__lshrdi3" => "__aeabi_llsr",
        "__ashrdi3" => "__aeabi_lasr",
        "__divsi3" => "__aeabi_idiv",
        "__udivsi3" => "__aeabi_uidiv",
        _ => return None,
    })
}

/// The combined quotient-and-remainder routine for a 32-bit `G_SREM`
/// (`signed`) or `G_UREM` under the AEABI.
pub fn divmod_name(signed: bool) -> &'static str {
    if signed { "__aeabi_idivmod" } else { "__aeabi_uidivmod" }
}

/// The comparison routines of `pred` for `bits`-wide operands (32 or 64)
/// and how each answer becomes the boolean (LLVM's `FCmp32Libcalls` and
/// `FCmp64Libcalls`): `None` truncates an answer that is already 0 or 1,
/// `Some(p)` compares it with zero. Two routines are or-ed; none means
/// the predicate is a constant (`false`, `true`).
pub fn fcmp_routines(pred: FloatPredicate, bits: u32, aeabi: bool) -> Vec<(String, Option<IntPredicate>)> {
    use FloatPredicate as F;
    use IntPredicate as I;
    // (routine, AEABI result test, GNU result test), in LLVM's table order.
    let calls: &[(&str, Option<I>, I)] = match pred {
        F::False | F::True => &[],
        F::Oeq => &[("eq", None, I::Eq)],
        F::Oge => &[("ge", None, I::Sge)],
        F::Ogt => &[("gt", None, I::Sgt)],
        F::Ole => &[("le", None, I::Sle)],
        F::Olt => &[("lt", None, I::Slt)],
        F::Ord => &[("un", Some(I::Eq), I::Eq)],
        F::Uge => &[("lt", Some(I::Eq), I::Sge)],
        F::Ugt => &[("le", Some(I::Eq), I::Sgt)],
        F::Ule => &[("gt", Some(I::Eq), I::Sle)],
        F::Ult => &[("ge", Some(I::Eq), I::Slt)],
        F::Une => &[("ne", Some(I::Eq), I::Ne)],
        F::Uno => &[("un", None, I::Ne)],
        F::One => &[("gt", None, I::Sgt), ("lt", None, I::Slt)],
        F::Ueq => &[("eq", None, I::Eq), ("un", None, I::Ne)],
    };
    let (size, letter) = if bits == 64 { ("df", 'd') } else { ("sf", 'f') };
    calls
        .iter()
        .map(|&(routine, aeabi_test, gnu_test)| {
            if aeabi {
                // `une` is `__aeabi_?cmpeq` tested for zero.
                let routine = if routine == "ne" { "eq" } else { routine };
                (format!("__aeabi_{letter}cmp{routine}"), aeabi_test)
            } else {
                let routine = if routine == "un" { "unord" } else { routine };
                (format!("__{routine}{size}2"), Some(gnu_test))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aeabi_helpers_replace_libgcc_names() {
        assert_eq!(aeabi_name("__divsi3"), Some("__aeabi_idiv"));
        assert_eq!(aeabi_name("__fixunsdfsi"), Some("__aeabi_d2uiz"));
        assert_eq!(aeabi_name("fmodf"), None);
        assert_eq!(aeabi_name("__divdi3"), None, "64-bit division keeps its libgcc name");
    }

    #[test]
    fn comparisons_follow_llvm_tables() {
        let une = fcmp_routines(FloatPredicate::Une, 32, true);
        assert_eq!(une, [("__aeabi_fcmpeq".to_string(), Some(IntPredicate::Eq))]);
        let ueq = fcmp_routines(FloatPredicate::Ueq, 64, true);
        assert_eq!(ueq, [("__aeabi_dcmpeq".to_string(), None), ("__aeabi_dcmpun".to_string(), None)]);
        let uge = fcmp_routines(FloatPredicate::Uge, 32, false);
        assert_eq!(uge, [("__ltsf2".to_string(), Some(IntPredicate::Sge))]);
        assert_eq!(fcmp_routines(FloatPredicate::Uno, 64, false)[0].0, "__unorddf2");
        assert!(fcmp_routines(FloatPredicate::True, 32, true).is_empty());
    }
}
