//! The vector actions against llc 22's output (`llc -mtriple=aarch64
//! -run-pass=legalizer` on the sweep inputs `vec_*.mir`), with AArch64's
//! rules for the opcodes involved written with the builder API, and the
//! interpreter's check that the results keep their meaning.

use crate::legality::LegalizerInfo;
use crate::legality::predicates::{custom, scalar_or_elt_wider_than, type_in_set};
use crate::legalize::tests::renumber;
use crate::legalize::{DefaultTarget, LegalizeOptions, legalize};
use crate::mir::{parse_body, print_body};
use crate::opcode::Opcode::*;
use crate::ty::Llt;

mod cases;

fn v(count: u32, bits: u32) -> Llt {
    Llt::fixed_vector(count, Llt::scalar(bits))
}

/// AArch64's rules (NEON, no SVE, no FP16) for the opcodes the cases use;
/// custom hooks that leave these inputs alone are written as legal.
pub(super) fn aarch64() -> LegalizerInfo {
    let (s8, s16, s32, s64) = (Llt::scalar(8), Llt::scalar(16), Llt::scalar(32), Llt::scalar(64));
    let (v8s8, v16s8, v4s16, v8s16) = (v(8, 8), v(16, 8), v(4, 16), v(8, 16));
    let (v2s32, v4s32, v2s64) = (v(2, 32), v(4, 32), v(2, 64));
    let mut info = LegalizerInfo::new();
    let p0 = info.pointer(0);
    let v2p0 = Llt::fixed_vector(2, p0);
    let packed = [v8s8, v16s8, v4s16, v8s16, v2s32, v4s32, v2s64];
    info.rules_for(&[G_IMPLICIT_DEF, G_FREEZE])
        .legal_for([p0, s8, s16, s32, s64])
        .legal_for([v16s8, v8s16, v4s32, v2s64, v2p0, v8s8, v4s16, v2s32])
        .widen_scalar_to_next_pow2(0, 8)
        .clamp_scalar(0, s8, s64)
        .more_elements_to_next_pow2(0)
        .widen_vector_elts_to_vector_min_size(0, 64)
        .clamp_num_elements(0, v8s8, v16s8)
        .clamp_num_elements(0, v4s16, v8s16)
        .clamp_num_elements(0, v2s32, v4s32)
        .clamp_max_num_elements(0, s64, 2)
        .clamp_max_num_elements(0, p0, 2)
        .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);
    info.rules_for(&[G_ADD, G_SUB, G_AND, G_OR, G_XOR, G_MUL])
        .legal_for([s32, s64])
        .legal_for(packed)
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(0, s32, s64)
        .clamp_max_num_elements(0, s8, 16)
        .clamp_max_num_elements(0, s16, 8)
        .clamp_num_elements(0, v2s32, v4s32)
        .clamp_num_elements(0, v2s64, v2s64)
        .min_scalar_or_elt_if(custom("at most 2 elements", |q| q.ty(0).num_elements() <= 2), 0, s32)
        .min_scalar_or_elt_if(custom("at most 4 elements", |q| q.ty(0).num_elements() <= 4), 0, s16)
        .min_scalar_or_elt_if(custom("at most 16 elements", |q| q.ty(0).num_elements() <= 16), 0, s8)
        .scalarize_if(scalar_or_elt_wider_than(0, 64), 0)
        .more_elements_to_next_pow2(0);
    info.rules_for(&[G_CONSTANT])
        .legal_for([p0, s8, s16, s32, s64])
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(0, s8, s64);
    info.rules_for(&[G_PTR_ADD]).legal_for([(p0, s64), (v2p0, v(2, 64))]).clamp_scalar_or_elt(1, s64, s64);
    info.rules_for(&[G_BUILD_VECTOR])
        .legal_for([(v8s8, s8), (v16s8, s8), (v4s16, s16), (v8s16, s16), (v2s32, s32), (v4s32, s32), (v2s64, s64)])
        .legal_for([(v2p0, p0)])
        .clamp_num_elements(0, v4s32, v4s32)
        .clamp_num_elements(0, v2s64, v2s64)
        .min_scalar_or_elt(0, s8)
        .widen_vector_elts_to_vector_min_size(0, 64)
        .widen_scalar_or_elt_to_next_pow2(0, 0)
        .min_scalar_same_as(1, 0);
    info.rules_for(&[G_CONCAT_VECTORS]).legal_for([(v16s8, v8s8), (v8s16, v4s16), (v4s32, v2s32)]);
    for (opcode, big, lit) in [(G_MERGE_VALUES, 0u8, 1u8), (G_UNMERGE_VALUES, 1, 0)] {
        let sizes_ok = if big == 0 {
            custom("merge sizes", |q| {
                matches!(q.ty(0).size_in_bits(), 32 | 64 | 128) && matches!(q.ty(1).size_in_bits(), 8 | 16 | 32 | 64)
            })
        } else {
            custom("unmerge sizes", |q| {
                matches!(q.ty(1).size_in_bits(), 32 | 64 | 128) && matches!(q.ty(0).size_in_bits(), 8 | 16 | 32 | 64)
            })
        };
        info.rules_for(&[opcode])
            .widen_scalar_to_next_pow2(lit, 8)
            .widen_scalar_to_next_pow2(big, 32)
            .clamp_scalar(lit, s8, s64)
            .clamp_scalar(big, s32, Llt::scalar(128))
            .legal_if(sizes_ok);
    }
    info.rules_for(&[G_LOAD, G_STORE])
        .legal_if(type_in_set(0, &[s8, s16, s32, s64, p0, v8s8, v16s8, v4s16, v8s16, v2s32, v4s32, v2s64, v2p0]))
        .clamp_max_num_elements(0, s8, 16)
        .clamp_max_num_elements(0, s16, 8)
        .clamp_max_num_elements(0, s32, 4)
        .clamp_max_num_elements(0, s64, 2)
        .clamp_max_num_elements(0, p0, 2);
    info.rules_for(&[G_TRUNC, G_ANYEXT, G_ZEXT, G_SEXT]).always_legal();
    let same_elts = |q: &crate::legality::LegalityQuery<'_>| {
        q.ty(0).is_vector() && q.ty(0).scalar_size_in_bits() == q.ty(1).scalar_size_in_bits()
    };
    info.rules_for(&[G_ICMP])
        .legal_for([(s32, s32), (s32, s64), (s32, p0)])
        .widen_scalar_or_elt_to_next_pow2(1, 0)
        .clamp_scalar(1, s32, s64)
        .clamp_scalar(0, s32, s32)
        .scalarize_if(scalar_or_elt_wider_than(1, 64), 1)
        .more_elements_to_next_pow2(1)
        .clamp_num_elements(1, v8s8, v16s8)
        .clamp_num_elements(1, v4s16, v8s16)
        .clamp_num_elements(1, v2s32, v4s32)
        .clamp_num_elements(1, v2s64, v2s64)
        .legal_if(custom("vector compare (custom in AArch64)", same_elts));
    info.rules_for(&[G_SHL, G_ASHR, G_LSHR])
        .legal_for([(s32, s32), (s32, s64), (s64, s64)])
        .legal_for(packed.map(|t| (t, t)))
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(1, s32, s64)
        .clamp_scalar(0, s32, s64)
        .clamp_num_elements(0, v8s8, v16s8)
        .clamp_num_elements(0, v4s16, v8s16)
        .clamp_num_elements(0, v2s32, v4s32)
        .clamp_num_elements(0, v2s64, v2s64)
        .more_elements_to_next_pow2(0)
        .min_scalar_same_as(1, 0)
        .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);
    info.rules_for(&[G_SELECT])
        .legal_for([(s32, s32), (s64, s32), (p0, s32)])
        .legal_if(custom("vector select of a scalar", |q| q.ty(0).is_vector() && q.ty(1) == Llt::scalar(32)))
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(0, s32, s64)
        .clamp_scalar(1, s32, s32)
        .more_elements_to_next_pow2(0)
        .clamp_num_elements(0, v2s32, v4s32)
        .clamp_num_elements(0, v2s64, v2s64);
    info.rules_for(&[G_SHUFFLE_VECTOR])
        .legal_if(custom("same-type NEON shuffle", |q| {
            q.ty(0) == q.ty(1) && q.ty(0).is_vector() && matches!(q.ty(0).size_in_bits(), 64 | 128)
        }))
        .more_elements_if(
            custom("more result than source lanes", |q| q.ty(0).num_elements() > q.ty(1).num_elements()),
            crate::legality::mutations::change_to_type_of(1, 0),
        )
        .more_elements_to_next_pow2(0)
        .more_elements_if(
            custom("fewer result than source lanes", |q| q.ty(0).num_elements() < q.ty(1).num_elements()),
            crate::legality::mutations::change_to_type_of(0, 1),
        )
        .clamp_num_elements(0, v8s8, v16s8)
        .clamp_num_elements(0, v4s16, v8s16)
        .clamp_num_elements(0, v4s32, v4s32)
        .clamp_num_elements(0, v2s64, v2s64);
    info
}

/// Legalizes `body` with `info` and compares with llc's body after
/// renumbering virtual registers.
fn check(info: &LegalizerInfo, body: &str, llc: &str) {
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    let strip = |t: &str| t.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
    pretty_assertions::assert_eq!(renumber(&strip(&out)), renumber(&strip(llc)));
}

/// The interpreter agrees with the legalized functions on random inputs
/// (AArch64 ABI): fewer elements with a leftover, more elements, a split
/// load and store, a widened shuffle.
#[test]
fn vector_legalization_keeps_its_meaning() {
    use crate::interp::{Abi, Program, check_equivalent, random_inputs};
    let abi = Abi::aarch64();
    let bodies = [
        "bb.0:\n  liveins: $x0, $x1, $x2, $x3, $x4, $x5\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  \
         %2:_(s64) = COPY $x2\n  %3:_(<3 x s64>) = G_BUILD_VECTOR %0(s64), %1(s64), %2(s64)\n  \
         %4:_(<3 x s64>) = G_BUILD_VECTOR %2(s64), %0(s64), %1(s64)\n  %5:_(<3 x s64>) = G_MUL %3, %4\n  \
         %6:_(s64), %7:_(s64), %8:_(s64) = G_UNMERGE_VALUES %5(<3 x s64>)\n  $x0 = COPY %6(s64)\n  \
         $x1 = COPY %7(s64)\n  $x2 = COPY %8(s64)\n  RET_ReallyLR implicit $x0, implicit $x1, implicit $x2\n",
        "bb.0:\n  liveins: $w0, $w1, $w2\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = COPY $w1\n  %2:_(s32) = COPY $w2\n  \
         %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)\n  \
         %4:_(<3 x s32>) = G_BUILD_VECTOR %2(s32), %2(s32), %1(s32)\n  %5:_(<3 x s32>) = G_LSHR %3, %4\n  \
         %6:_(<3 x s32>) = G_XOR %5, %3\n  %7:_(s32), %8:_(s32), %9:_(s32) = G_UNMERGE_VALUES %6(<3 x s32>)\n  \
         $w0 = COPY %7(s32)\n  $w1 = COPY %8(s32)\n  $w2 = COPY %9(s32)\n  \
         RET_ReallyLR implicit $w0, implicit $w1, implicit $w2\n",
        "bb.0:\n  liveins: $w0, $w1, $w2\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = COPY $w1\n  %2:_(s32) = COPY $w2\n  \
         %3:_(<3 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32), %2(s32)\n  \
         %4:_(<3 x s32>) = G_BUILD_VECTOR %2(s32), %1(s32), %0(s32)\n  \
         %5:_(<3 x s32>) = G_SHUFFLE_VECTOR %3(<3 x s32>), %4, shufflemask(5, 0, 3)\n  \
         %7:_(s32), %8:_(s32), %9:_(s32) = G_UNMERGE_VALUES %5(<3 x s32>)\n  \
         $w0 = COPY %7(s32)\n  $w1 = COPY %8(s32)\n  $w2 = COPY %9(s32)\n  \
         RET_ReallyLR implicit $w0, implicit $w1, implicit $w2\n",
    ];
    let info = aarch64();
    for source in bodies {
        let before = parse_body("f", source, &[], &|_| 64).expect("parses");
        let mut after = before.clone();
        legalize(&mut after, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let inputs = random_inputs(&before, &abi, 64, 7);
        let checked = check_equivalent(&Program::new(&before), &Program::new(&after), &abi, &inputs)
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
        assert!(checked.compared >= 32, "{checked:?}");
    }
}
