//! The pass on the toy 32-bit target: results are fully legal and have the
//! shapes LLVM's helper builds.

use super::{DefaultTarget, LegalizeOptions, describe, legalize};
use crate::legality::{LegalizeAction, examples::toy32};
use crate::mir::{parse_body, print_body, renumber_vregs};

/// Legalizes `body` for the toy target and returns the printed body.
fn run(body: &str) -> String {
    let mut func = parse_body("f", body, &[], &|_| 32).expect("parses");
    let info = toy32();
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for inst in func.all_insts() {
        if let Some(parts) = describe(&func, func.inst(inst)) {
            let step = info.action(&parts.query());
            assert_eq!(step.action, LegalizeAction::Legal, "{:?} left as {step}", parts.types);
        }
    }
    let mut out = String::new();
    print_body(&func, &mut out);
    out.lines().map(str::trim).collect::<Vec<_>>().join("\n")
}

#[test]
fn widens_an_s8_add_and_folds_the_casts() {
    let out = run("bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  %2:_(s8) = G_TRUNC %0(s32)\n  \
                   %3:_(s8) = G_TRUNC %1(s32)\n  %4:_(s8) = G_ADD %2, %3\n  %5:_(s32) = G_ANYEXT %4(s8)\n  $r0 = COPY %5(s32)\n");
    assert_eq!(out, "bb.0:\n%0:_(s32) = COPY $r0\n%1:_(s32) = COPY $r1\n%8:_(s32) = G_ADD %0, %1\n$r0 = COPY %8(s32)");
}

#[test]
fn narrows_s64_logic_and_memory_into_s32_parts() {
    // As llc 22 prints it for riscv32: the store is split first, so the
    // load's address is a CSE hit copied into its own register.
    let out = run("bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  %p:_(p0) = COPY $r2\n  \
                   %2:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  %3:_(s64) = G_LOAD %p(p0) :: (load (s64))\n  \
                   %4:_(s64) = G_XOR %2, %3\n  G_STORE %4(s64), %p(p0) :: (store (s64))\n");
    let expected = "bb.0:\n%0:_(s32) = COPY $r0\n%1:_(s32) = COPY $r1\n%p:_(p0) = COPY $r2\n\
                    %11:_(s32) = G_LOAD %p(p0) :: (load (s32), align 8)\n%12:_(s32) = G_CONSTANT i32 4\n\
                    %13:_(p0) = nuw inbounds G_PTR_ADD %p, %12(s32)\n%15:_(p0) = COPY %13(p0)\n\
                    %14:_(s32) = G_LOAD %15(p0) :: (load (s32) from unknown-address + 4)\n\
                    %9:_(s32) = G_XOR %0, %11\n%10:_(s32) = G_XOR %1, %14\n\
                    G_STORE %9(s32), %p(p0) :: (store (s32), align 8)\n\
                    G_STORE %10(s32), %13(p0) :: (store (s32) into unknown-address + 4)";
    assert_eq!(renumber_vregs(&out), renumber_vregs(expected));
}

#[test]
fn an_unsupported_instruction_is_a_clear_error() {
    let mut func = parse_body(
        "f",
        "bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = G_CTPOP %0(s32)\n  $r0 = COPY %1(s32)\n",
        &[],
        &|_| 32,
    )
    .expect("parses");
    let err = legalize(&mut func, &toy32(), &DefaultTarget, LegalizeOptions::default()).unwrap_err().to_string();
    assert!(err.starts_with("unable to legalize instruction: %1:_(s32) = G_CTPOP %0(s32) (in function: f)"), "{err}");
}

#[test]
fn oscillating_rules_end_in_a_clear_error() {
    use crate::legality::predicates::type_is;
    use crate::legality::{LegalizerInfo, mutations::change_to};
    use crate::opcode::Opcode::*;
    use crate::ty::Llt;
    let (s32, s64) = (Llt::scalar(32), Llt::scalar(64));
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_AND])
        .widen_scalar_if(type_is(0, s32), change_to(0, s64))
        .narrow_scalar_if(type_is(0, s64), change_to(0, s32));
    info.rules_for(&[G_ANYEXT, G_TRUNC, G_MERGE_VALUES, G_UNMERGE_VALUES]).always_legal();
    let mut func = parse_body(
        "f",
        "bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = G_AND %0, %0\n  $r0 = COPY %1(s32)\n",
        &[],
        &|_| 32,
    )
    .expect("parses");
    let started = std::time::Instant::now();
    let err = legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_err().to_string();
    assert!(started.elapsed().as_secs() < 10, "took {:?}", started.elapsed());
    assert!(err.contains("does not terminate"), "{err}");
    assert!(err.contains("widen_scalar_if") || err.contains("narrow_scalar_if"), "{err}");
}

#[test]
fn uneven_narrowing_splits_off_a_leftover_and_remerges_through_the_gcd() {
    use crate::legality::predicates::type_is;
    use crate::legality::{LegalizerInfo, mutations::change_to};
    use crate::opcode::Opcode::*;
    use crate::ty::Llt;
    let (s32, s64, s96) = (Llt::scalar(32), Llt::scalar(64), Llt::scalar(96));
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_XOR]).legal_for([s32, s64]).narrow_scalar_if(type_is(0, s96), change_to(0, s64));
    info.rules_for(&[G_EXTRACT, G_MERGE_VALUES, G_UNMERGE_VALUES, G_IMPLICIT_DEF]).always_legal();
    let body = "bb.0:\n  %0:_(s96) = G_IMPLICIT_DEF\n  %1:_(s96) = G_XOR %0, %0\n  %2:_(s32), %3:_(s32), %4:_(s32) = G_UNMERGE_VALUES %1(s96)\n  \
                $w0 = COPY %2(s32)\n";
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let expected = [
        // Each operand gets its own extracts (LLVM never CSEs them). Extracts
        // of an undefined value fold to undefined values built into the
        // extracts' registers, which CSE turns into COPYs of the first built
        // (the second operand's: artifacts are combined last first); the
        // leftover half, unused once the remerge folds, is erased with its
        // operands.
        "%7:_(s64) = G_IMPLICIT_DEF",
        "%5:_(s64) = COPY %7(s64)",
        "%9:_(s64) = G_XOR %5, %7",
        // The unmerge of the remerged s96 folds away: its users read the pieces.
        "$w0 = COPY %11(s32)",
    ];
    for line in expected {
        assert!(lines.contains(&line), "missing `{line}` in\n{out}");
    }
    assert!(!out.contains("(s32) = G_XOR"), "the dead leftover XOR is erased:\n{out}");
}

#[test]
fn unmerged_pieces_of_an_insert_are_read_from_the_inserted_value() {
    use crate::legality::LegalizerInfo;
    use crate::opcode::Opcode::*;
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_INSERT, G_UNMERGE_VALUES]).always_legal();
    let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = COPY $w1\n  %2:_(s64) = G_INSERT %0, %1(s32), 32\n  \
                %3:_(s32), %4:_(s32) = G_UNMERGE_VALUES %2(s64)\n  $w0 = COPY %3(s32)\n  $w1 = COPY %4(s32)\n";
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    // The high half is the inserted %1; the low half still needs the unmerge.
    assert!(out.contains("$w1 = COPY %1(s32)"), "{out}");
    assert!(out.contains("$w0 = COPY %3(s32)"), "{out}");
}

#[test]
fn a_build_vector_of_leading_unmerged_lanes_becomes_an_unmerge_into_halves() {
    use crate::legality::LegalizerInfo;
    use crate::opcode::Opcode::*;
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_BUILD_VECTOR, G_UNMERGE_VALUES, G_CONCAT_VECTORS]).always_legal();
    let body = "bb.0:\n  %0:_(<4 x s32>) = COPY $q0\n  %1:_(s32), %2:_(s32), %3:_(s32), %4:_(s32) = G_UNMERGE_VALUES %0(<4 x s32>)\n  \
                %5:_(<2 x s32>) = G_BUILD_VECTOR %3(s32), %4(s32)\n  %6:_(<2 x s32>) = G_BUILD_VECTOR %1(s32), %2(s32)\n  \
                %7:_(<4 x s32>) = G_CONCAT_VECTORS %5(<2 x s32>), %6(<2 x s32>)\n  $d0 = COPY %5(<2 x s32>)\n  \
                $q1 = COPY %7(<4 x s32>)\n";
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    let out = renumber_vregs(&out.lines().map(str::trim).collect::<Vec<_>>().join("\n"));
    // Both halves come from one unmerge of %0; the concatenation of the
    // swapped halves stays a concatenation of them.
    let expected = "bb.0:\n%0:_(<4 x s32>) = COPY $q0\n%1:_(<2 x s32>), %2:_(<2 x s32>) = G_UNMERGE_VALUES %0(<4 x s32>)\n\
                    %3:_(<4 x s32>) = G_CONCAT_VECTORS %2(<2 x s32>), %1(<2 x s32>)\n$d0 = COPY %2(<2 x s32>)\n\
                    $q1 = COPY %3(<4 x s32>)";
    assert_eq!(out, renumber_vregs(expected));
}

#[test]
fn casts_combine_through_assert_hints() {
    use crate::legality::LegalizerInfo;
    use crate::opcode::Opcode::*;
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_TRUNC, G_ANYEXT, G_ASSERT_ZEXT]).always_legal();
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s8) = G_TRUNC %0(s32)\n  %2:_(s8) = G_ASSERT_ZEXT %1, 1\n  \
                %3:_(s32) = G_ANYEXT %2(s8)\n  $w0 = COPY %3(s32)\n";
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    assert!(out.contains("$w0 = COPY %0(s32)"), "{out}");
}

#[test]
fn the_cse_mode_decides_what_is_shared() {
    use crate::legalize::CseMode;
    // Two s64 zeros narrow to four s32 zeros.
    let body = "bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  %2:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  \
                %3:_(s64) = G_AND %2, %2\n  %4:_(s64) = G_AND %2, %2\n  %5:_(s64) = G_CONSTANT i64 0\n  \
                %6:_(s64) = G_CONSTANT i64 0\n  %7:_(s64) = G_OR %3, %5\n  %8:_(s64) = G_OR %4, %6\n  \
                %9:_(s32), %10:_(s32) = G_UNMERGE_VALUES %7(s64)\n  %11:_(s32), %12:_(s32) = G_UNMERGE_VALUES %8(s64)\n  \
                $r0 = COPY %9(s32)\n  $r1 = COPY %10(s32)\n  $r2 = COPY %11(s32)\n  $r3 = COPY %12(s32)\n";
    let count = |mode: CseMode, opcode: &str| {
        let mut func = parse_body("f", body, &[], &|_| 32).expect("parses");
        legalize(&mut func, &toy32(), &DefaultTarget, LegalizeOptions { cse: mode, ..LegalizeOptions::default() })
            .unwrap_or_else(|e| panic!("{e}"));
        let mut out = String::new();
        print_body(&func, &mut out);
        out.lines().filter(|l| l.contains(&format!("= {opcode} "))).count()
    };
    assert_eq!(count(CseMode::Full, "G_CONSTANT"), 1);
    assert_eq!(count(CseMode::ConstantsOnly, "G_CONSTANT"), 1);
    assert_eq!(count(CseMode::Off, "G_CONSTANT"), 4);
}

/// Rules under which LLVM 22's `s16` slice of an `s8` insert legalizes
/// (its extract widens its source) but an `s11` slice does not.
fn insert_slice_rules() -> crate::legality::LegalizerInfo {
    use crate::legality::LegalizerInfo;
    use crate::opcode::Opcode::*;
    use crate::ty::Llt;
    let (s8, s16, s32, s64) = (Llt::scalar(8), Llt::scalar(16), Llt::scalar(32), Llt::scalar(64));
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_INSERT]).legal_for([(s64, s8), (s64, s16)]).clamp_scalar(0, s64, s64);
    info.rules_for(&[G_EXTRACT]).legal_for([(s8, s64), (s16, s32)]).clamp_scalar(1, s32, s64);
    info.rules_for(&[G_MERGE_VALUES, G_UNMERGE_VALUES, G_TRUNC, G_ANYEXT]).always_legal();
    info
}

#[test]
fn an_insert_narrows_to_the_slice_the_value_covers_where_llvm_22_legalizes() {
    use crate::interp::{Abi, Program, check_equivalent, random_inputs};
    let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s128) = G_MERGE_VALUES %0(s64), %1(s64)\n  \
                %3:_(s64) = COPY $x2\n  %4:_(s8) = G_TRUNC %3(s64)\n  %5:_(s128) = G_INSERT %2, %4(s8), 8\n  \
                %6:_(s64), %7:_(s64) = G_UNMERGE_VALUES %5(s128)\n  $x0 = COPY %6(s64)\n  $x1 = COPY %7(s64)\n";
    let before = parse_body("f", body, &[], &|_| 64).expect("parses");
    let mut after = before.clone();
    legalize(&mut after, &insert_slice_rules(), &DefaultTarget, LegalizeOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&after, &mut out);
    assert!(out.contains("G_INSERT %0, %4(s8), 8"), "the s8 itself goes in, not LLVM's s16:\n{out}");
    let abi = Abi::aarch64();
    let inputs = random_inputs(&Program::new(&before), &abi, 32, 5);
    let checked = check_equivalent(&Program::new(&before), &Program::new(&after), &abi, &inputs)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(checked.compared >= 32, "{checked:?}");
}

#[test]
fn an_insert_fails_where_llvm_22s_slice_cannot_be_legalized() {
    let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s128) = G_MERGE_VALUES %0(s64), %1(s64)\n  \
                %3:_(s64) = COPY $x2\n  %4:_(s8) = G_TRUNC %3(s64)\n  %5:_(s128) = G_INSERT %2, %4(s8), 3\n  \
                %6:_(s64), %7:_(s64) = G_UNMERGE_VALUES %5(s128)\n  $x0 = COPY %6(s64)\n  $x1 = COPY %7(s64)\n";
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    let err =
        legalize(&mut func, &insert_slice_rules(), &DefaultTarget, LegalizeOptions::default()).unwrap_err().to_string();
    assert!(err.starts_with("unable to legalize instruction: %5:_(s128) = G_INSERT %2, %4(s8), 3"), "{err}");
    assert!(err.contains("LLVM 22 inserts an s11 slice of the s8 value at bit 3 of an s64 part"), "{err}");
}

#[test]
fn rules_that_keep_growing_a_type_end_in_a_clear_error() {
    use crate::legality::predicates::custom;
    use crate::legality::{LegalizerInfo, mutations};
    use crate::opcode::Opcode::*;
    use crate::ty::Llt;
    let mut info = LegalizerInfo::new();
    // Each step widens by one bit, so the function never settles.
    let one_more_bit = mutations::custom("one_more_bit", |q| {
        (0, Llt::try_scalar(u64::from(q.types[0].scalar_size_in_bits()) + 1).unwrap_or(q.types[0]))
    });
    info.rules_for(&[G_ADD]).widen_scalar_if(custom("always", |_| true), one_more_bit);
    info.rules_for(&[G_ANYEXT, G_TRUNC]).always_legal();
    let mut func = parse_body(
        "f",
        "bb.0:\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = G_ADD %0, %0\n  $r0 = COPY %1(s32)\n",
        &[],
        &|_| 32,
    )
    .expect("parses");
    let started = std::time::Instant::now();
    let err = legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_err().to_string();
    assert!(started.elapsed().as_secs() < 10, "took {:?}", started.elapsed());
    assert!(err.contains("does not terminate") && err.contains("one_more_bit"), "{err}");
}
