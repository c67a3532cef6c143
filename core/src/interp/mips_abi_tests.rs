//! Tests of Mips O32: `G_SDIV` of `s64` as llc 22 legalizes it for
//! `mipsel` (`__divdi3`, the dividend in `a0`/`a1`, the divisor in
//! `a2`/`a3`, the quotient in `v0`/`v1`) checked equivalent to its input,
//! and the same call with its halves in big-endian order, which is
//! equivalent only on a big-endian target.

use super::libcall::Kind;
use super::*;
use crate::mir::parse_body;

fn func(body: &str) -> Function {
    match parse_body("f", body, &[], &|_| 32) {
        Ok(f) => f,
        Err(e) => panic!("bad test body: {e:?}"),
    }
}

/// Checks `after` against `before` on 64 random inputs: `Ok` with the
/// number of inputs compared, or the mismatch.
fn check(before: &str, after: &str, abi: &Abi) -> Result<usize, String> {
    let (before, after) = (func(before), func(after));
    let inputs = random_inputs(&Program::new(&before), abi, 64, 11);
    match check_equivalent(&Program::new(&before), &Program::new(&after), abi, &inputs) {
        Ok(checked) => Ok(checked.compared),
        Err(e) => Err(e.to_string()),
    }
}

const SDIV_S64: &str = "bb.0:\n  liveins: $a0, $a1, $a2, $a3\n  %0:_(s32) = COPY $a0\n  %1:_(s32) = COPY $a1\n  \
    %2:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  %3:_(s32) = COPY $a2\n  %4:_(s32) = COPY $a3\n  \
    %5:_(s64) = G_MERGE_VALUES %3(s32), %4(s32)\n  %6:_(s64) = G_SDIV %2(s64), %5(s64)\n  \
    %7:_(s32), %8:_(s32) = G_UNMERGE_VALUES %6(s64)\n  $v0 = COPY %7(s32)\n  $v1 = COPY %8(s32)\n  \
    RetRA implicit $v0, implicit $v1\n";

/// `__divdi3` with each value's low half in `low` and its high half in
/// `high` (`a0`/`a1` little-endian, `a1`/`a0` big-endian), the quotient's
/// likewise in `v0`/`v1`.
fn divdi3(big_endian: bool) -> String {
    let [a, b, c, d, v, w] =
        if big_endian { ["a1", "a0", "a3", "a2", "v1", "v0"] } else { ["a0", "a1", "a2", "a3", "v0", "v1"] };
    format!(
        "bb.0:\n  liveins: $a0, $a1, $a2, $a3\n  %0:_(s32) = COPY $a0\n  %1:_(s32) = COPY $a1\n  \
         %3:_(s32) = COPY $a2\n  %4:_(s32) = COPY $a3\n  ADJCALLSTACKDOWN 16, 0, implicit-def $sp, implicit $sp\n  \
         ${a} = COPY %0(s32)\n  ${b} = COPY %1(s32)\n  ${c} = COPY %3(s32)\n  ${d} = COPY %4(s32)\n  \
         JAL &__divdi3, csr_o32, implicit-def $ra, implicit-def $sp, implicit ${a}, implicit ${b}, implicit ${c}, \
         implicit ${d}, implicit-def ${v}, implicit-def ${w}\n  %13:_(s32) = COPY ${v}\n  %14:_(s32) = COPY ${w}\n  \
         ADJCALLSTACKUP 16, 0, implicit-def $sp, implicit $sp\n  $v0 = COPY %13(s32)\n  $v1 = COPY %14(s32)\n  \
         RetRA implicit $v0, implicit $v1\n"
    )
}

/// Each byte order passes a 64-bit argument's halves in its own order: the
/// call in that order is the division, the other order is caught.
#[test]
fn each_byte_order_passes_its_own_half_first() {
    for big_endian in [false, true] {
        let abi = Abi::mips(false, 64, big_endian);
        let compared = check(SDIV_S64, &divdi3(big_endian), &abi).unwrap_or_else(|e| panic!("{e}"));
        assert!(compared >= 32, "big-endian {big_endian}: {compared} inputs compared");
        let err = check(SDIV_S64, &divdi3(!big_endian), &abi).unwrap_err();
        assert!(err.contains("mismatch"), "big-endian {big_endian}: {err}");
    }
}

#[test]
fn fpu_register_views() {
    let place = |abi: &Abi, name: &str| abi.view(name).map(|v| (v.unit, v.offset, v.bits));
    let fp32 = Abi::mips(false, 64, false);
    assert_eq!(place(&fp32, "f13"), Some(("d6".into(), 32, 32)));
    assert_eq!(place(&fp32, "d6"), Some(("d6".into(), 0, 64)));
    assert!(fp32.view("d12_64").is_none() && fp32.view("w0").is_none());
    assert!(fp32.view("zero").is_some_and(|v| v.zero));
    assert_eq!((fp32.call_preserved_bits("s0"), fp32.call_preserved_bits("d10")), (u32::MAX, u32::MAX));
    assert_eq!((fp32.call_preserved_bits("a0"), fp32.call_preserved_bits("d6")), (0, 0));
    let fp64 = Abi::mips(true, 64, false);
    assert_eq!(place(&fp64, "f12"), Some(("w12".into(), 0, 32)));
    assert_eq!(place(&fp64, "d12_64"), Some(("w12".into(), 0, 64)));
    assert_eq!(place(&fp64, "w31"), Some(("w31".into(), 0, 128)));
    assert!(fp64.view("d6").is_none());
    assert_eq!((fp64.call_preserved_bits("w20"), fp64.call_preserved_bits("w21")), (64, 0));
    assert_eq!(Abi::mips(false, 64, true).result_regs(Kind::Int(64)), ["v1", "v0"]);
}
