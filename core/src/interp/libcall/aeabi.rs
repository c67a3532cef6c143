//! The Arm run-time ABI's helpers (RTABI, chapter 4): `__aeabi_idiv`,
//! `__aeabi_idivmod` (quotient in `r0`, remainder in `r1`),
//! `__aeabi_ldivmod` (quotient in `r0:r1`, remainder in `r2:r3`),
//! `__aeabi_fadd`, `__aeabi_dcmplt` (1 or 0), `__aeabi_d2iz`,
//! `__aeabi_l2f`, ... Those that only rename a libgcc function are
//! looked up under that name. The flag-setting comparisons
//! (`__aeabi_cfcmpeq` and kin) are not interpreted: their result is the
//! processor's flags, which the interpreter does not model.

use super::{Cmp, Kind, Libcall, Op, lookup as libgcc};

/// The libgcc function each renaming helper stands for.
const RENAMED: &[(&str, &str)] = &[
    ("dadd", "__adddf3"),
    ("ddiv", "__divdf3"),
    ("dmul", "__muldf3"),
    ("dsub", "__subdf3"),
    ("fadd", "__addsf3"),
    ("fdiv", "__divsf3"),
    ("fmul", "__mulsf3"),
    ("fsub", "__subsf3"),
    ("d2iz", "__fixdfsi"),
    ("d2uiz", "__fixunsdfsi"),
    ("d2lz", "__fixdfdi"),
    ("d2ulz", "__fixunsdfdi"),
    ("f2iz", "__fixsfsi"),
    ("f2uiz", "__fixunssfsi"),
    ("f2lz", "__fixsfdi"),
    ("f2ulz", "__fixunssfdi"),
    ("d2f", "__truncdfsf2"),
    ("d2h", "__truncdfhf2"),
    ("f2h", "__truncsfhf2"),
    ("h2f", "__extendhfsf2"),
    ("f2d", "__extendsfdf2"),
    ("i2d", "__floatsidf"),
    ("ui2d", "__floatunsidf"),
    ("l2d", "__floatdidf"),
    ("ul2d", "__floatundidf"),
    ("i2f", "__floatsisf"),
    ("ui2f", "__floatunsisf"),
    ("l2f", "__floatdisf"),
    ("ul2f", "__floatundisf"),
    ("lmul", "__muldi3"),
    ("llsl", "__ashldi3"),
    ("llsr", "__lshrdi3"),
    ("lasr", "__ashrdi3"),
    ("idiv", "__divsi3"),
    ("uidiv", "__udivsi3"),
];

/// The AEABI helper `name`, if the interpreter knows it.
pub(super) fn lookup(name: &str) -> Option<Libcall> {
    let helper = name.strip_prefix("__aeabi_")?;
    if let Some((_, renamed)) = RENAMED.iter().find(|(h, _)| *h == helper) {
        return libgcc(renamed, 32, 64);
    }
    let divmod = [("idivmod", 32, true), ("uidivmod", 32, false), ("ldivmod", 64, true), ("uldivmod", 64, false)];
    if let Some((_, bits, signed)) = divmod.iter().find(|(h, ..)| *h == helper) {
        return Some(Libcall {
            params: vec![Kind::Int(*bits); 2],
            ret: Kind::Int(2 * bits),
            op: Op::DivMod { signed: *signed },
        });
    }
    let (bits, relation) = match (helper.strip_prefix("fcmp"), helper.strip_prefix("dcmp")) {
        (Some(r), _) => (32, r),
        (_, Some(r)) => (64, r),
        _ => return None,
    };
    let cmp = match relation {
        "eq" => Cmp::Eq,
        "lt" => Cmp::Lt,
        "le" => Cmp::Le,
        "ge" => Cmp::Ge,
        "gt" => Cmp::Gt,
        "un" => Cmp::Unord,
        _ => return None,
    };
    Some(Libcall { params: vec![Kind::Float(bits); 2], ret: Kind::Int(32), op: Op::Predicate(cmp) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::value::Value;

    fn float(x: f32) -> Value {
        Value::from_u128(32, u128::from(x.to_bits()))
    }

    #[test]
    fn division_returns_quotient_and_remainder() {
        let c = lookup("__aeabi_idivmod").expect("known");
        let r = c.call(&[Value::from_i128(32, -7), Value::from_i128(32, 2)]).expect("defined");
        assert_eq!(r, Value::concat(&[Value::from_i128(32, -3), Value::from_i128(32, -1)]));
        let c = lookup("__aeabi_uldivmod").expect("known");
        assert_eq!((c.params.clone(), c.ret), (vec![Kind::Int(64); 2], Kind::Int(128)));
        let r = c.call(&[Value::from_i128(64, -1), Value::from_i128(64, 16)]).expect("defined");
        assert_eq!(r, Value::concat(&[Value::from_u128(64, u128::from(u64::MAX >> 4)), Value::from_i128(64, 15)]));
    }

    #[test]
    fn comparisons_return_one_or_zero() {
        let lt = lookup("__aeabi_fcmplt").expect("known");
        assert_eq!(lt.call(&[float(1.0), float(2.0)]), Ok(Value::from_i128(32, 1)));
        assert_eq!(lt.call(&[float(2.0), float(1.0)]), Ok(Value::from_i128(32, 0)));
        assert_eq!(lt.call(&[float(f32::NAN), float(1.0)]), Ok(Value::from_i128(32, 0)));
        let un = lookup("__aeabi_fcmpun").expect("known");
        assert_eq!(un.call(&[float(f32::NAN), float(1.0)]), Ok(Value::from_i128(32, 1)));
        assert_eq!(un.call(&[float(0.0), float(1.0)]), Ok(Value::from_i128(32, 0)));
        let ge = lookup("__aeabi_dcmpge").expect("known");
        assert_eq!(ge.params, vec![Kind::Float(64); 2]);
        assert!(lookup("__aeabi_cfcmpeq").is_none(), "the flag-setting forms are not interpreted");
    }

    #[test]
    fn renamed_helpers_are_libgcc_functions() {
        let add = lookup("__aeabi_fadd").expect("known");
        assert_eq!(add.call(&[float(1.5), float(2.0)]), Ok(float(3.5)));
        let c = lookup("__aeabi_l2f").expect("known");
        assert_eq!((c.params.clone(), c.ret), (vec![Kind::Int(64)], Kind::Float(32)));
        let shl = lookup("__aeabi_llsl").expect("known");
        assert_eq!(shl.call(&[Value::from_i128(64, 3), Value::from_i128(32, 4)]), Ok(Value::from_i128(64, 48)));
        assert!(!shl.call(&[Value::from_i128(64, 3), Value::from_i128(32, 64)]).expect("runs").is_defined());
    }
}
