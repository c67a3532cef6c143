//! What the Mips rules answer, query by query, checked against what
//! `llc -run-pass=legalizer` (LLVM 22) does with the same types on a
//! MIPS32, a MIPS32r2 with 64-bit FPU registers, an MSA and a MIPS32r6
//! subtarget; and the accesses the hooks split, run by the interpreter in
//! either byte order's memory.

use gisel_core::assert_legality;
use gisel_core::legality::LegalizerInfo;

use super::rules::mips;
use super::subtarget::Subtarget;

fn rules(features: &str) -> LegalizerInfo {
    mips(&Subtarget::new("mipsel-unknown-linux-gnu", None, features))
}

#[test]
fn rules_validate() {
    for features in ["", "+mips32r2,+fp64", "+mips32r5,+fp64,+msa", "+mips32r6"] {
        let info = rules(features);
        assert!(info.validate().is_ok(), "{features}: {:?}", info.validate());
    }
}

#[test]
fn mips32() {
    let info = rules("");
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s32));
    assert_legality!(info, G_ADD(s64) => NarrowScalar(0, s32));
    assert_legality!(info, G_SDIV(s64) => Libcall);
    assert_legality!(info, G_BSWAP(s32) => Lower);
    assert_legality!(info, G_UITOFP(s64, s32) => Custom);
    assert_legality!(info, G_FPTOUI(s32, s64) => Lower);
    assert_legality!(info, G_LOAD(s32, p0; s32 @ 8) => Legal);
    assert_legality!(info, G_LOAD(s32, p0; s16 @ 8) => Custom);
    assert_legality!(info, G_LOAD(s32, p0; s16 @ 16) => Legal);
    assert_legality!(info, G_LOAD(s64, p0; s64 @ 32) => Custom);
    assert_legality!(info, G_STORE(s32, p0; s24 @ 32) => Custom);
    assert_legality!(info, G_ADD(v4s32) => Unsupported);
}

#[test]
fn revisions_and_msa() {
    assert_legality!(rules("+mips32r2,+fp64"), G_BSWAP(s32) => Legal);
    assert_legality!(rules("+mips32r6"), G_LOAD(s64, p0; s64 @ 8) => Legal);
    assert_legality!(rules("+mips32r6,+strict-align"), G_LOAD(s64, p0; s64 @ 8) => Custom);
    let msa = rules("+mips32r5,+fp64,+msa");
    assert_legality!(msa, G_ADD(v4s32) => Legal);
    assert_legality!(msa, G_LOAD(v8s16, p0; v8s16 @ 8) => Legal);
    assert_legality!(msa, G_UDIV(v2s64) => Legal);
}

#[test]
fn subtargets() {
    let st = |triple, cpu, features| Subtarget::new(triple, cpu, features);
    assert!(st("mips-unknown-linux-gnu", None, "").is_big_endian());
    assert!(!st("mipsel-unknown-linux-gnu", None, "").has_mips32r2());
    assert!(st("mipsisa32r6el-unknown-linux-gnu", None, "").is_fp64());
    assert!(!st("mipsel-unknown-linux-gnu", None, "+mips32r6,-mips32r2").has_mips32r6());
    assert_eq!(st("mipsel-unknown-linux-gnu", None, "+mips32r2,+fp64").call_preserved_mask(), "csr_o32_fp64");
    assert!(st("mipsel-unknown-linux-gnu", None, "+msa").check().is_err());
    assert!(st("mipsel-unknown-linux-gnu", None, "+fp64").check().is_err());
}

/// The accesses the hooks split or widen (a function body after the
/// pointer argument `%0`, up to its return), unaligned or of odd sizes up
/// to 8 bytes.
const SPLIT_ACCESSES: [&str; 8] = [
    "%1:_(s16) = G_LOAD %0(p0) :: (load (s16), align 1)\n%2:_(s32) = G_ANYEXT %1(s16)\n$v0 = COPY %2(s32)\n\
     RetRA implicit $v0",
    "%1:_(s32) = G_LOAD %0(p0) :: (load (s24), align 1)\n$v0 = COPY %1(s32)\nRetRA implicit $v0",
    "%1:_(s64) = G_LOAD %0(p0) :: (load (s40), align 1)\n%2:_(s32), %3:_(s32) = G_UNMERGE_VALUES %1(s64)\n\
     $v0 = COPY %2(s32)\n$v1 = COPY %3(s32)\nRetRA implicit $v0, implicit $v1",
    "%1:_(s64) = G_LOAD %0(p0) :: (load (s64), align 2)\n%2:_(s32), %3:_(s32) = G_UNMERGE_VALUES %1(s64)\n\
     $v0 = COPY %2(s32)\n$v1 = COPY %3(s32)\nRetRA implicit $v0, implicit $v1",
    "%1:_(s32) = COPY $a1\n%2:_(s16) = G_TRUNC %1(s32)\nG_STORE %2(s16), %0(p0) :: (store (s16), align 1)\nRetRA",
    "%1:_(s32) = COPY $a1\nG_STORE %1(s32), %0(p0) :: (store (s24), align 2)\nRetRA",
    "%1:_(s32) = COPY $a2\n%2:_(s32) = COPY $a3\n%3:_(s64) = G_MERGE_VALUES %1(s32), %2(s32)\n\
     %4:_(s56) = G_TRUNC %3(s64)\nG_STORE %4(s56), %0(p0) :: (store (s56), align 1)\nRetRA",
    "%1:_(s32) = COPY $a2\n%2:_(s32) = COPY $a3\n%3:_(s64) = G_MERGE_VALUES %1(s32), %2(s32)\n\
     G_STORE %3(s64), %0(p0) :: (store (s64), align 1)\nRetRA",
];

/// Each split access, legalized for little- and big-endian Mips, means
/// what it meant in that byte order's memory: the pieces are in memory
/// order (LLVM 22 splits big-endian ones in little-endian order).
#[test]
fn split_accesses_keep_their_meaning_in_either_byte_order() {
    use gisel_core::interp::{Abi, CheckError, Program, check_equivalent, random_inputs};
    use gisel_core::legalize::{LegalizeOptions, legalize};
    use gisel_core::mir::parse_body;

    for (triple, big_endian) in [("mipsel-unknown-linux-gnu", false), ("mips-unknown-linux-gnu", true)] {
        let target = super::target(triple, &Default::default()).expect("a Mips target");
        let abi = Abi::mips(false, 64, big_endian);
        for access in SPLIT_ACCESSES {
            let body = format!("bb.0:\n%0:_(p0) = COPY $a0\n{access}\n");
            let before = parse_body("f", &body, &[], &|_| 32).expect("parses");
            let mut after = before.clone();
            legalize(&mut after, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
                .unwrap_or_else(|e| panic!("{triple}: {e}\n{body}"));
            let (before, after) = (Program::new(&before), Program::new(&after));
            let inputs = random_inputs(&before, &abi, 32, 5);
            let checked = check_equivalent(&before, &after, &abi, &inputs);
            match checked {
                Ok(c) => assert!(c.compared > c.vacuous, "{triple}: nothing compared\n{body}"),
                Err(CheckError::Mismatch(m)) => panic!("{triple}: meaning changed: {m}\n{body}"),
                Err(e) => panic!("{triple}: not checked: {e}\n{body}"),
            }
        }
    }
}
