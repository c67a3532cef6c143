//! `gisel llc` on inputs whose llc 22 output is recorded in
//! `tests/expected/`: the output matches up to register numbering, and
//! `--verify-semantics` runs every function and finds each still means
//! what it meant.

mod common;

use common::{gisel_llc, normalised};
use std::path::Path;

/// Legalizes `input` (under `tests/mir/Inputs/`) with the target options
/// `target` and compares the result with llc 22's output recorded as
/// `tests/expected/<recorded>`, then checks its semantics.
fn check_against_llc(input: &str, target: &[&str], recorded: &str) {
    let llc = check_output_against_llc(input, target, recorded);
    let semantics =
        String::from_utf8(run_gisel(input, target, &["--verify-semantics"]).stderr).expect("UTF-8 messages");
    let functions = llc.lines().filter(|l| l.starts_with("name:")).count();
    // Functions that define nothing observable (writing the stack
    // pointer, reading an undefined register) run but prove nothing.
    let run = |l: &&str| {
        l.starts_with("semantics of")
            && (l.contains(" inputs agree") || l.contains("not checked: no input defines anything observable"))
    };
    assert_eq!(semantics.lines().filter(run).count(), functions, "{semantics}");
}

/// The output comparison of [`check_against_llc`] alone, for inputs the
/// interpreter cannot run (scalable vectors); returns llc's output.
fn check_output_against_llc(input: &str, target: &[&str], recorded: &str) -> String {
    let (ours, llc) = outputs(input, target, recorded);
    pretty_assertions::assert_eq!(normalised(&ours), normalised(&llc));
    llc
}

/// The output comparison of [`check_output_against_llc`] for the machine
/// functions only, where llc re-prints the IR module differently.
fn check_functions_against_llc(input: &str, target: &[&str], recorded: &str) {
    let (ours, llc) = outputs(input, target, recorded);
    let functions = |mir: &str| normalised(&mir[mir.find("\n---\nname:").expect("a machine function")..]);
    pretty_assertions::assert_eq!(functions(&ours), functions(&llc));
}

/// The whole output, virtual register numbers included, is llc 22's
/// recorded as `tests/expected/<recorded>`, byte for byte.
fn check_exactly_as_llc(input: &str, target: &[&str], recorded: &str) {
    let (ours, llc) = outputs(input, target, recorded);
    pretty_assertions::assert_eq!(ours, llc);
}

/// gisel's output for `input` with the target options `target`, and llc
/// 22's recorded as `tests/expected/<recorded>`.
fn outputs(input: &str, target: &[&str], recorded: &str) -> (String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input_path = root.join("../tests/mir/Inputs").join(input);
    let ours = String::from_utf8(run_gisel(input, target, &[]).stdout).expect("UTF-8 output");
    let llc =
        std::fs::read_to_string(root.join("tests/expected").join(recorded)).expect("reads the recorded llc output");
    // Both name the module after the path they were given.
    (ours.replace(&input_path.display().to_string(), &format!("tests/mir/Inputs/{input}")), llc)
}

/// Runs `gisel llc` with the legalizer on `input` (under
/// `tests/mir/Inputs/`), asserting that it succeeds.
fn run_gisel(input: &str, target: &[&str], extra: &[&str]) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    gisel_llc(target, &root.join("../tests/mir/Inputs").join(input), extra)
}

/// Shifts of s256 on riscv32 split into eight parts at once, by constant
/// amounts of every kind (within a word, whole words, beyond the value)
/// and by a register.
#[test]
fn multiway_shifts_on_riscv32_are_what_llc_22_prints() {
    check_against_llc("multiway-shift-rv32.mir", &["-mtriple=riscv32"], "multiway-shift-rv32.llc22.mir");
}

/// A truncate of an extension reached through a copy folds to the
/// extension's source, where nothing else could legalize the s128 merge.
#[test]
fn truncate_of_extension_through_a_copy_folds_as_llc_22_does() {
    check_against_llc("trunc-of-ext-rv64.mir", &["-mtriple=riscv64"], "trunc-of-ext-rv64.llc22.mir");
}

/// 64-bit constants that take more than five instructions to build are
/// loaded from the constant pool; the bit-manipulation extensions build
/// more of them in place.
#[test]
fn riscv64_pools_the_constants_llc_22_pools() {
    check_against_llc("riscv64-constants.mir", &["-mtriple=riscv64"], "riscv64-constants.llc22.mir");
    let zb = ["-mtriple=riscv64", "-mattr=+zba,+zbb,+zbs,+zbkb"];
    check_against_llc("riscv64-constants.mir", &zb, "riscv64-constants-zb.llc22.mir");
}

/// Scalable vectors on riscv64 with V: legal arithmetic, extensions,
/// splats and mask inserts, min/max and saturating adds lowered through
/// compares and selects, an under-aligned load done on bytes, mask
/// extensions and splats; and riscv32's split s64 splat. The interpreter
/// runs no scalable vectors, so only the output is compared.
#[test]
fn riscv64_vectors_are_what_llc_22_prints() {
    check_output_against_llc("riscv64-vector.mir", &["-mtriple=riscv64", "-mattr=+v"], "riscv64-vector.llc22.mir");
    let zve64x = ["-mtriple=riscv32", "-mattr=+zve64x"];
    check_output_against_llc("riscv32-zve64x-splat.mir", &zve64x, "riscv32-zve64x-splat.llc22.mir");
}

/// Truncations of values that G_ASSERT_SEXT declares sign-extended widen
/// back without a G_SEXT_INREG, as llc 22's sign-bit count allows.
#[test]
fn asserted_sign_extensions_widen_without_sext_inreg_as_llc_22_does() {
    let zbb = ["-mtriple=riscv64", "-mattr=+zbb"];
    check_against_llc("assert-sext-rv64.mir", &zbb, "assert-sext-rv64.llc22.mir");
}

/// Byte and half atomics on riscv64 with A: the registers widen while the
/// memory operand keeps the access size, a subtracting update adds the
/// negation and a compare-exchange reporting success compares the old
/// value. The interpreter runs no atomics, so only the output is compared.
#[test]
fn narrow_atomics_on_riscv64_are_what_llc_22_prints() {
    let atomics = ["-mtriple=riscv64", "-mattr=+a"];
    check_output_against_llc("atomics-narrow-rv64.mir", &atomics, "atomics-narrow-rv64.llc22.mir");
}

/// `G_BRJT` on riscv64 loads the entry at the scaled index: an address
/// for a `block-address` table, a sign-extended 32-bit offset from the
/// table for `label-difference32`. The interpreter follows no indirect
/// branches, so only the output is compared.
#[test]
fn riscv_jump_tables_are_what_llc_22_prints() {
    check_output_against_llc("jump-tables-riscv.mir", &["-mtriple=riscv64"], "jump-tables-rv64.llc22.mir");
}

/// `llvm.va_copy` on riscv32 copies the `va_list` pointer. The
/// interpreter runs no intrinsics, so only the output is compared.
#[test]
fn va_copy_on_riscv32_is_what_llc_22_prints() {
    check_output_against_llc("va-copy-rv32.mir", &["-mtriple=riscv32"], "va-copy-rv32.llc22.mir");
}

/// `G_VSCALE` on riscv64 with V reads `VLENB`: shifted for a power-of-two
/// multiplier, multiplied for a multiple of 8, otherwise vscale itself
/// multiplied; a narrow `G_VSCALE` widens to XLEN first. The interpreter
/// runs with vscale 2 (`VLENB` 16).
#[test]
fn vscale_on_riscv64_is_what_llc_22_prints() {
    check_against_llc("vscale-riscv.mir", &["-mtriple=riscv64", "-mattr=+v"], "vscale-rv64.llc22.mir");
}

/// PHIs of s64 and s96 on riscv32 split into one s32 PHI per part, the
/// incoming values unmerged at the end of their blocks.
#[test]
fn wide_phis_on_riscv32_split_as_llc_22_splits_them() {
    check_against_llc("phi-narrow-rv32.mir", &["-mtriple=riscv32"], "phi-narrow-rv32.llc22.mir");
}

/// `G_EXTRACT_SUBVECTOR` on riscv64 with V: a part filling whole vector
/// registers stays, another is slid down from the register of the group
/// that holds it, a mask part of a byte's worth of lanes is bitcast to
/// bytes and a smaller one compared back from bytes. The interpreter runs
/// no scalable vectors, so only the output is compared.
#[test]
fn riscv_subvector_extracts_are_what_llc_22_prints() {
    let v = ["-mtriple=riscv64", "-mattr=+v"];
    check_output_against_llc("extract-subvector-riscv.mir", &v, "extract-subvector-rv64.llc22.mir");
}

/// `G_INSERT_SUBVECTOR` on riscv64 with V: a part filling a whole register
/// stays, a part at the start of its register is moved in
/// (`G_VMV_V_V_VL`) and one further in is slid up, tail-agnostic when it
/// reaches the register's end; mask parts go through bytes. The
/// interpreter runs no scalable vectors, so only the output is compared.
#[test]
fn riscv_subvector_inserts_are_what_llc_22_prints() {
    let v = ["-mtriple=riscv64", "-mattr=+v"];
    check_output_against_llc("insert-subvector-riscv.mir", &v, "insert-subvector-rv64.llc22.mir");
}

/// `G_STACKSAVE`, `G_STACKRESTORE` and `G_DYN_STACKALLOC` through `$x2`,
/// and `G_VAARG` lowered to loads and a store of the list pointer.
#[test]
fn stack_operations_on_riscv64_are_what_llc_22_prints() {
    check_against_llc("stack-riscv64.mir", &["-mtriple=riscv64"], "stack-riscv64.llc22.mir");
}

/// The same on AArch64, where `G_DYN_STACKALLOC` and `G_VAARG` are custom.
#[test]
fn stack_operations_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("stack-aarch64.mir", &["-mtriple=aarch64"], "stack-aarch64.llc22.mir");
}

/// Registers read and written by the name a metadata node gives:
/// `G_READ_REGISTER` and `G_WRITE_REGISTER` become copies of `$x2`/`$x3`.
#[test]
fn named_registers_on_riscv64_are_what_llc_22_prints() {
    check_against_llc("named-register-riscv64.mir", &["-mtriple=riscv64"], "named-register-riscv64.llc22.mir");
}

/// `G_IS_FPCLASS` lowered to integer tests of the value's bits, for every
/// class and the groups the expansion tests together, on half, float,
/// double, quad and vectors.
#[test]
fn fp_class_tests_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("is-fpclass-aarch64.mir", &["-mtriple=aarch64"], "is-fpclass-aarch64.llc22.mir");
}

/// Saturating float-to-s128 conversions (a library call clamped by
/// compares and selects against the bounds, as `lowerFPTOINT_SAT` does)
/// and vector conversions of 64-bit integers to half.
#[test]
fn lowered_conversions_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("fp-int-conversions-aarch64.mir", &["-mtriple=aarch64"], "fp-int-conversions-aarch64.llc22.mir");
}

/// Doubles narrowed to halves in vectors: `G_FPTRUNC_ODD` to floats, then
/// one rounding to half; the interpreter runs the round-to-odd step.
#[test]
fn double_to_half_vectors_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("fptrunc-odd-aarch64.mir", &["-mtriple=aarch64"], "fptrunc-odd-aarch64.llc22.mir");
}

/// Vector extensions and truncations by more than a factor of two, in
/// halves (`lowerEXT`, `lowerTRUNC`).
#[test]
fn vector_extensions_and_truncations_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("vector-ext-trunc-aarch64.mir", &["-mtriple=aarch64"], "vector-ext-trunc-aarch64.llc22.mir");
}

/// Integer vector reductions split into trees of vector operations, scalar
/// trees or in-order combinations, and widened, as llc 22 does.
#[test]
fn integer_reductions_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("vector-reduce-int-aarch64.mir", &["-mtriple=aarch64"], "vector-reduce-int-aarch64.llc22.mir");
}

/// Floating-point reductions split or padded with the neutral element.
/// They may combine lanes in any order, so only the output is compared.
#[test]
fn floating_point_reductions_on_aarch64_are_what_llc_22_prints() {
    check_output_against_llc(
        "vector-reduce-fp-aarch64.mir",
        &["-mtriple=aarch64"],
        "vector-reduce-fp-aarch64.llc22.mir",
    );
}

/// Ordered floating-point reductions, lane by lane from the start value;
/// their order is fixed, so the interpreter checks them exactly.
#[test]
fn ordered_reductions_on_aarch64_are_what_llc_22_prints() {
    check_against_llc("vector-reduce-seq-aarch64.mir", &["-mtriple=aarch64"], "vector-reduce-seq-aarch64.llc22.mir");
}

/// G_GLOBAL_VALUE becomes ADRP + G_ADD_LOW only for globals the IR module
/// shows to be in this module (dso_local, internal, private, hidden);
/// preemptible and extern_weak ones go through the GOT and thread-local
/// ones are kept, as llc 22 decides from the same IR.
#[test]
fn globals_are_addressed_by_their_ir_properties_as_llc_22_does() {
    let target = ["-mtriple=aarch64-linux-gnu"];
    check_output_against_llc("global-values-aarch64.mir", &target, "global-values-aarch64.llc22.mir");
}

/// Each function's subtarget comes from its IR attributes (M or not, per
/// function), the call-preserved mask from the module's "target-abi"
/// flag, and `-mattr` is appended to every function's features.
#[test]
fn each_function_gets_the_subtarget_of_its_attributes_as_llc_22_does() {
    let input = "function-subtargets-riscv64.mir";
    check_against_llc(input, &["-mtriple=riscv64"], "function-subtargets-riscv64.llc22.mir");
    // llc also rewrites the printed attribute groups with -mattr; gisel
    // prints them as read, so only the machine functions are compared.
    let with_m = ["-mtriple=riscv64", "-mattr=+m"];
    check_functions_against_llc(input, &with_m, "function-subtargets-riscv64-m.llc22.mir");
}

/// G_VASTART on RISC-V stores the address of the variable-argument save
/// area, the fixed object the function's `varArgsFrameIndex` names, as
/// clang and llc 22 make it. The interpreter does not model the save
/// area yet, so only the output is compared.
#[test]
fn va_start_on_riscv64_is_what_llc_22_prints() {
    let target = ["-mtriple=riscv64-linux-gnu"];
    check_output_against_llc("va-start-riscv64.mir", &target, "va-start-riscv64.llc22.mir");
}

/// Libcall arguments narrower than XLEN on RISC-V are extended into a
/// register made first (LLVM's `buildCopyToRegs`), so CSE turns a second
/// identical extension into a COPY, as llc 22 prints it. (The interpreter
/// does not run riscv32's memset with a 64-bit length in a register pair,
/// so only that output is compared.)
#[test]
fn riscv_libcall_argument_extensions_are_what_llc_22_prints() {
    let input = "libcall-arg-extension-riscv.mir";
    check_output_against_llc(input, &["-mtriple=riscv32"], "libcall-arg-extension-riscv32.llc22.mir");
    check_against_llc(input, &["-mtriple=riscv64"], "libcall-arg-extension-riscv64.llc22.mir");
}

/// A library call in tail position is a tail call only when the caller's
/// return has no attribute but `noalias`/`nonnull`; llc 22 ignores
/// `"disable-tail-calls"` there. AArch64 prints the call frame size it
/// computes when it reads a function.
#[test]
fn libcall_tail_calls_follow_the_callers_ir_attributes_as_llc_22_does() {
    let target = ["-mtriple=aarch64-unknown-linux-gnu"];
    check_against_llc("libcall-tail-attributes-aarch64.mir", &target, "libcall-tail-attributes-aarch64.llc22.mir");
}

/// NEON intrinsics that have a generic counterpart become it, as LLVM 22's
/// `legalizeIntrinsic`; the saturating ones only on vectors. The
/// interpreter does not run target intrinsics, so only the output is
/// compared.
#[test]
fn neon_intrinsics_on_aarch64_are_what_llc_22_prints() {
    let target = ["-mtriple=aarch64-unknown-linux-gnu"];
    check_output_against_llc("neon-intrinsics-aarch64.mir", &target, "neon-intrinsics-aarch64.llc22.mir");
}

/// Vectors of booleans cast to scalars go through a stack slot
/// (`legalizeBitcast`); their stores widen the elements and pack the bits
/// into an integer (`scalarizeVectorBooleanStore`), as llc 22 does.
#[test]
fn boolean_vectors_on_aarch64_are_what_llc_22_prints() {
    let target = ["-mtriple=aarch64-unknown-linux-gnu"];
    check_against_llc("bool-vectors-aarch64.mir", &target, "bool-vectors-aarch64.llc22.mir");
}

/// `G_INSERT_SUBVECTOR` at index 0 on riscv64 with V: into an
/// undefined vector the part stays; into another vector it is moved in
/// (`G_VMV_V_V_VL`, through the register holding it in a group) unless it
/// fills whole registers, mask parts through bytes first. The interpreter
/// runs no scalable vectors, so only the output is compared.
#[test]
fn riscv_subvector_inserts_at_zero_are_what_llc_22_prints() {
    let v = ["-mtriple=riscv64", "-mattr=+v"];
    check_output_against_llc("insert-subvector-at-zero-riscv.mir", &v, "insert-subvector-at-zero-rv64.llc22.mir");
}

/// Scalable-vector loads and stores on riscv with V: vectors of pointers
/// stay when aligned to their element (even with another memory type),
/// other vectors aligned below their element are accessed as bytes
/// unless `unaligned-vector-mem` allows them. Only the output is compared
/// (scalable vectors).
#[test]
fn riscv_vector_loads_and_stores_are_what_llc_22_prints() {
    let input = "vector-ptr-load-store-riscv.mir";
    check_output_against_llc(input, &["-mtriple=riscv32", "-mattr=+v"], "vector-ptr-load-store-rv32.llc22.mir");
    check_output_against_llc(input, &["-mtriple=riscv64", "-mattr=+v"], "vector-ptr-load-store-rv64.llc22.mir");
    let unaligned = ["-mtriple=riscv64", "-mattr=+v,+unaligned-vector-mem"];
    check_output_against_llc(input, &unaligned, "vector-ptr-load-store-rv64-unaligned.llc22.mir");
}

/// `-simplify-mir`: successor lists the branches predict with an even
/// split are left out, their probabilities alone when only the split is
/// even; uneven probabilities, a list the branches do not show, an empty
/// list where a block would fall through and a three-way split are kept.
#[test]
fn simplified_successor_lists_are_what_llc_22_prints() {
    let target = ["-mtriple=aarch64", "-simplify-mir"];
    check_against_llc("simplify-successors-aarch64.mir", &target, "simplify-successors-aarch64.llc22.mir");
}

/// `-simplify-mir` leaves out every header key at its default: flags,
/// empty lists, `frameInfo` keys, stack-object and live-in keys, a
/// constant's `isTargetSpecific`, an empty jump-table entry's blocks. The
/// interpreter does not run the call, so only the output is compared.
#[test]
fn simplified_headers_are_what_llc_22_prints() {
    let target = ["-mtriple=aarch64", "-simplify-mir"];
    check_output_against_llc("simplify-frame-aarch64.mir", &target, "simplify-frame-aarch64.llc22.mir");
    let target = ["-mtriple=riscv64-linux-gnu", "-simplify-mir"];
    check_output_against_llc("va-start-riscv64.mir", &target, "va-start-riscv64-simplified.llc22.mir");
    let target = ["-mtriple=riscv64", "-simplify-mir"];
    check_against_llc("riscv64-constants.mir", &target, "riscv64-constants-simplified.llc22.mir");
}

/// A CPU or feature llc 22 does not recognize gets its warning (llc repeats
/// it for each subtarget it builds, gisel says it once); with no CPU to
/// take features from, AArch64 has no floating point, so a half addition
/// cannot be legalized, as llc 22 reports too.
#[test]
fn unrecognized_cpus_and_features_get_llc_22_warnings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input = root.join("../tests/mir/Inputs/cpu-features-aarch64.mir");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gisel"))
        .args(["llc", "-mtriple=aarch64", "-mcpu=nope", "-mattr=foo,-bar", "-run-pass=legalizer", "-o", "-"])
        .arg(&input)
        .output()
        .expect("runs gisel");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let warnings = "'nope' is not a recognized processor for this target (ignoring processor)\n\
                    '+foo' is not a recognized feature for this target (ignoring feature)\n\
                    '-bar' is not a recognized feature for this target (ignoring feature)\n\
                    LLVM ERROR: unable to legalize instruction: %2:_(s16) = G_FADD";
    assert!(stderr.starts_with(warnings), "{stderr}");
}

/// `-mcpu` brings the CPU's features: the multiply and division of a
/// sifive-u74 (M) and the half addition of a Cortex-A75 (full FP16) are
/// legal, and the IR module llc makes up names the CPU.
#[test]
fn a_cpus_features_apply_as_llc_22_applies_them() {
    let u74 = ["-mtriple=riscv64", "-mcpu=sifive-u74"];
    check_against_llc("cpu-features-riscv64.mir", &u74, "cpu-features-riscv64-u74.llc22.mir");
    let a75 = ["-mtriple=aarch64", "-mcpu=cortex-a75"];
    check_against_llc("cpu-features-aarch64.mir", &a75, "cpu-features-aarch64-a75.llc22.mir");
}

/// Virtual registers are numbered as llc 22 numbers them: a register made
/// for an instruction that CSE finds already built (the second memset's
/// offsets and extension) takes no number, in the body or in the
/// `registers:` list, so the whole output is llc's byte for byte.
#[test]
fn registers_are_numbered_as_llc_22_numbers_them() {
    check_exactly_as_llc(
        "cse-numbering-i686.mir",
        &["-mtriple=i686-unknown-linux-gnu"],
        "cse-numbering-i686.llc22.mir",
    );
    check_against_llc("cse-numbering-i686.mir", &["-mtriple=i686-unknown-linux-gnu"], "cse-numbering-i686.llc22.mir");
}

/// An unaligned s64 load split down to bytes numbers its registers as
/// llc 22 does: each split builds the offset's constant before the
/// piece's address register.
#[test]
fn unaligned_loads_number_their_registers_as_llc_22_does() {
    check_exactly_as_llc(
        "unaligned-load-numbering-rv64.mir",
        &["-mtriple=riscv64-unknown-linux-gnu"],
        "unaligned-load-numbering-rv64.llc22.mir",
    );
}

/// Splitting vectors numbers registers as llc 22 does: a shuffle of wide
/// sources, a vector reduction (split three times, two unmerges left
/// dead) and a store of a pointer splat each split their sources with
/// unmerges of registers made up front, which CSE never shares.
#[test]
fn vector_splits_number_their_registers_as_llc_22_does() {
    let target = ["-mtriple=aarch64-unknown-linux-gnu"];
    let (ours, llc) =
        outputs("vector-split-numbering-aarch64.mir", &target, "vector-split-numbering-aarch64.llc22.mir");
    pretty_assertions::assert_eq!(ours, llc);
}

/// Padding a vector reduction (<12 x s32> to <16 x s32>) inserts its
/// neutral element, a typed constant that CSE finds already built (the
/// stored 0), with no copy, as llc 22 builds it.
#[test]
fn a_padded_reduction_reuses_its_neutral_constant_as_llc_22_does() {
    check_exactly_as_llc(
        "reduction-neutral-aarch64.mir",
        &["-mtriple=aarch64-unknown-linux-gnu"],
        "reduction-neutral-aarch64.llc22.mir",
    );
}

/// Widening an s16 byte swap and bit reversal builds what llc 22 builds,
/// in its order: the byte swap's shift amount goes into a register made
/// up front (a copy of the stored 16, which CSE finds), the bit
/// reversal's is a typed constant (no copy).
#[test]
fn widened_swaps_match_llc_22() {
    check_exactly_as_llc(
        "swap-widening-aarch64.mir",
        &["-mtriple=aarch64-unknown-linux-gnu"],
        "swap-widening-aarch64.llc22.mir",
    );
}

/// AArch64's population count numbers its registers as llc 22 does: the
/// `uaddlv` intrinsic it builds first gets an s32 register of its own,
/// numbered even where the intrinsic then defines the result itself.
#[test]
fn population_counts_number_their_registers_as_llc_22_does() {
    check_exactly_as_llc(
        "ctpop-numbering-aarch64.mir",
        &["-mtriple=aarch64-unknown-linux-gnu"],
        "ctpop-numbering-aarch64.llc22.mir",
    );
}

/// A function an earlier pass gave up on (`failedISel`) is left as it is,
/// yet marked legalized, as llc 22's pass manager marks it.
#[test]
fn functions_given_up_on_are_marked_legalized_as_by_llc_22() {
    check_exactly_as_llc("failed-isel-mips.mir", &["-mtriple=mips-linux-gnu"], "failed-isel-mips.llc22.mir");
}

/// A vector operation on constant vectors that the builder folds (here the
/// shift amounts of a funnel shift's lowering) numbers the new elements
/// before the vector they make, as llc 22's builder makes them while it
/// builds the operation, so the whole output is llc's byte for byte.
#[test]
fn folded_constant_vectors_number_their_elements_first_as_llc_22_does() {
    check_exactly_as_llc(
        "folded-vector-numbering-aarch64.mir",
        &["-mtriple=aarch64-unknown-linux-gnu"],
        "folded-vector-numbering-aarch64.llc22.mir",
    );
}
