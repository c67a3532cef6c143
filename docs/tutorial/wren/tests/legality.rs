//! Wren's legality, tested the way the guide's tutorial does it.

// ANCHOR: checks
use gisel_core::legality::check;

#[test]
fn passes_every_check() {
    let info = wren::wren();
    let report = check::check_all(&info);
    assert!(report.is_clean(), "{report}");
}
// ANCHOR_END: checks

// ANCHOR: answers
use gisel_core::assert_legality;

#[test]
fn answers() {
    let info = wren::wren();
    assert_legality!(info, G_ADD(s16) => Legal);
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s16));
    assert_legality!(info, G_ADD(s32) => NarrowScalar(0, s16));
    assert_legality!(info, G_MUL(s16) => Libcall);
    assert_legality!(info, G_LOAD(s16, p0; s8 @ 8) => Legal);
    assert_legality!(info, G_LOAD(s16, p0; s16 @ 8) => Lower);
}
// ANCHOR_END: answers

// ANCHOR: legalize
use gisel_core::legalize::{DefaultTarget, LegalizeOptions, legalize};
use gisel_core::mir::{parse_body, print_body};

/// Legalizes a function body for Wren and prints it back.
fn legalize_for_wren(body: &str) -> String {
    let pointer_bits = |_address_space| 16;
    let mut func = parse_body("f", body, &[], &pointer_bits).expect("the body parses");
    let info = wren::wren();
    legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).expect("Wren can legalize it");
    let mut out = String::new();
    print_body(&func, &mut out);
    out
}

#[test]
fn widens_a_byte_add() {
    let body = "
bb.0:
  liveins: $r0, $r1
  %0:_(s16) = COPY $r0
  %1:_(s16) = COPY $r1
  %2:_(s8) = G_TRUNC %0(s16)
  %3:_(s8) = G_TRUNC %1(s16)
  %4:_(s8) = G_ADD %2, %3
  %5:_(s16) = G_ANYEXT %4(s8)
  $r0 = COPY %5(s16)
";
    let expected = "  bb.0:
    liveins: $r0, $r1
  
    %0:_(s16) = COPY $r0
    %1:_(s16) = COPY $r1
    %8:_(s16) = G_ADD %0, %1
    $r0 = COPY %8(s16)
";
    assert_eq!(legalize_for_wren(body), expected);
}

#[test]
fn splits_a_32_bit_add() {
    let body = "
bb.0:
  liveins: $r0, $r1, $r2, $r3
  %0:_(s16) = COPY $r0
  %1:_(s16) = COPY $r1
  %2:_(s16) = COPY $r2
  %3:_(s16) = COPY $r3
  %4:_(s32) = G_MERGE_VALUES %0(s16), %1(s16)
  %5:_(s32) = G_MERGE_VALUES %2(s16), %3(s16)
  %6:_(s32) = G_ADD %4, %5
  %7:_(s16), %8:_(s16) = G_UNMERGE_VALUES %6(s32)
  $r0 = COPY %7(s16)
  $r1 = COPY %8(s16)
";
    let expected = "  bb.0:
    liveins: $r0, $r1, $r2, $r3
  
    %0:_(s16) = COPY $r0
    %1:_(s16) = COPY $r1
    %2:_(s16) = COPY $r2
    %3:_(s16) = COPY $r3
    %13:_(s16), %14:_(s1) = G_UADDO %0, %2
    %15:_(s16), %16:_(s1) = G_UADDE %1, %3, %14
    $r0 = COPY %13(s16)
    $r1 = COPY %15(s16)
";
    assert_eq!(legalize_for_wren(body), expected);
}
// ANCHOR_END: legalize
