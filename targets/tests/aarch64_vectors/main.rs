//! The vector actions of the AArch64 target against llc 22's output
//! (`llc -mtriple=aarch64 -run-pass=legalizer` on the sweep inputs
//! `vec_*.mir`), and the interpreter's check that the results keep their
//! meaning.

use gisel_core::interp::{Abi, Program, check_equivalent, random_inputs};
use gisel_core::legalize::{LegalizeOptions, legalize};
use gisel_core::mir::{parse_body, print_body, renumber_vregs};
use gisel_targets::{Target, TargetOptions, target_for};

mod cases;

/// AArch64 with its default features, at llc's default optimization level.
fn aarch64() -> Target {
    let options = TargetOptions { opt_level: 2, ..TargetOptions::default() };
    target_for("aarch64", &options).expect("AArch64 is registered")
}

/// Legalizes `body` and compares it with llc's output, up to the
/// numbering of virtual registers.
fn check(target: &Target, body: &str, llc: &str) {
    let mut func = parse_body("f", body, &[], &|_| 64).expect("parses");
    legalize(&mut func, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    let strip = |t: &str| t.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
    pretty_assertions::assert_eq!(renumber_vregs(&strip(&out)), renumber_vregs(&strip(llc)));
}

/// The interpreter agrees with the legalized functions on random inputs
/// (AArch64 ABI): fewer elements with a leftover, more elements, a split
/// load and store, a widened shuffle.
#[test]
fn vector_legalization_keeps_its_meaning() {
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
    let target = aarch64();
    for source in bodies {
        let before = parse_body("f", source, &[], &|_| 64).expect("parses");
        let mut after = before.clone();
        legalize(&mut after, &target.info, target.hooks.as_ref(), LegalizeOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let inputs = random_inputs(&Program::new(&before), &abi, 64, 7);
        let checked = check_equivalent(&Program::new(&before), &Program::new(&after), &abi, &inputs)
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
        assert!(checked.compared >= 32, "{checked:?}");
    }
}
