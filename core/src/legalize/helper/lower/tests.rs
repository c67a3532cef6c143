//! Each lowering against `llc` 22 (`llc -mtriple=riscv64 -mattr=+m
//! -run-pass=legalizer`, `+zbb` where said): the input is the function given
//! to llc, the rules make the same decisions as RISC-V's for the opcode under
//! test and keep the s64 operations the expansion builds, and the expected
//! text is llc's output body with vregs renumbered in order of appearance.
//!
//! One adjustment: RISC-V widens s1 values (compare results, carries,
//! select conditions) to s64 afterwards, which is widening and artifact
//! combining, not lowering. The rules here keep s1 legal, so in the
//! expected texts those values are s1 where llc shows s64, and the s1
//! `G_TRUNC`/`G_ZEXT` in the inputs stay.

use crate::ir::Function;
use crate::legality::LegalizerInfo;
use crate::legalize::{DefaultTarget, LegalizeOptions, legalize};
use crate::mir::{parse_body, print_body};
use crate::opcode::Opcode::{self, *};

/// Opcodes the expansions produce, legal for every type in these tests.
const PLAIN: &[Opcode] = &[
    G_ADD,
    G_SUB,
    G_MUL,
    G_AND,
    G_OR,
    G_XOR,
    G_SHL,
    G_LSHR,
    G_ASHR,
    G_CONSTANT,
    G_SDIV,
    G_UDIV,
    G_SREM,
    G_UREM,
    G_UMULH,
    G_SMULH,
    G_PTR_ADD,
    G_LOAD,
    G_ZEXTLOAD,
    G_SEXTLOAD,
    G_STORE,
    G_TRUNC,
    G_ZEXT,
    G_SEXT,
    G_ANYEXT,
    G_IMPLICIT_DEF,
    G_BUILD_VECTOR,
    G_EXTRACT_VECTOR_ELT,
    G_INSERT_VECTOR_ELT,
    G_INTTOPTR,
    G_PTRTOINT,
    G_BITCAST,
    G_ASSERT_ZEXT,
    G_SEXT_INREG,
    G_CTPOP,
    G_BSWAP,
    G_UNMERGE_VALUES,
    G_MERGE_VALUES,
    G_SMIN,
    G_SMAX,
    G_UMIN,
    G_UMAX,
    G_FSHL,
    G_FSHR,
    G_ROTL,
    G_ROTR,
    G_CTLZ,
    G_CTTZ,
    G_CTLZ_ZERO_UNDEF,
    G_CTTZ_ZERO_UNDEF,
    G_UADDO,
    G_USUBO,
    G_SADDO,
    G_SSUBO,
    G_UADDE,
    G_USUBE,
    G_SADDE,
    G_SSUBE,
    G_SMULO,
    G_UMULO,
    G_ICMP,
    G_SELECT,
    G_FNEG,
    G_FADD,
    G_FMUL,
    G_INTRINSIC_ROUNDEVEN,
];

/// Rules lowering `lowered` and making the rest of [`PLAIN`] legal (for
/// every type: s1 compare results and conditions stay s1, see the module
/// documentation). Loads and stores of non-power-of-two sizes are lowered.
fn rules(lowered: &[Opcode]) -> LegalizerInfo {
    let mut info = LegalizerInfo::new().with_pointer_bits(64);
    if !lowered.is_empty() {
        info.rules_for(lowered).lower();
    }
    let memory = [G_LOAD, G_ZEXTLOAD, G_SEXTLOAD, G_STORE];
    if !memory.iter().any(|op| lowered.contains(op)) {
        info.rules_for(&memory).lower_if_mem_size_not_pow2().always_legal();
    }
    let rest: Vec<Opcode> = PLAIN
        .iter()
        .copied()
        .filter(|op| !lowered.contains(op) && !memory.contains(op) && op.is_legalizable())
        .collect();
    info.rules_for(&rest).always_legal();
    info.validate().unwrap_or_else(|e| panic!("{e:?}"));
    info
}

/// Legalizes `body`, checks with the interpreter that it kept its meaning,
/// and returns it printed, trimmed and renumbered.
fn run(body: &str, info: &LegalizerInfo) -> String {
    let before = parse_body("f", body, &[], &|_| 64).expect("parses");
    let mut func = before.clone();
    legalize(&mut func, info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_same_meaning(&before, &func);
    let mut out = String::new();
    print_body(&func, &mut out);
    normalize(&out)
}

/// Runs both functions on the same random RV64 inputs: a defined result
/// that differs fails the test. Functions using what the interpreter does
/// not model (calls without a model, unseeded memory) are compared by text
/// only.
fn assert_same_meaning(before: &Function, after: &Function) {
    use crate::interp::{Abi, CheckError, Program, check_equivalent, random_inputs};
    let abi = Abi::riscv64();
    let inputs = random_inputs(&Program::new(before), &abi, 32, 7);
    if let Err(CheckError::Mismatch(mismatch)) =
        check_equivalent(&Program::new(before), &Program::new(after), &abi, &inputs)
    {
        panic!("legalizing changed the meaning: {mismatch}");
    }
}

/// Trimmed lines with vregs renumbered in order of appearance.
fn normalize(text: &str) -> String {
    let trimmed: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let text = trimmed.join("\n");
    let mut seen: Vec<String> = Vec::new();
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at + 1]);
        rest = &rest[at + 1..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            continue;
        }
        let index = seen.iter().position(|d| *d == digits).unwrap_or_else(|| {
            seen.push(digits.clone());
            seen.len() - 1
        });
        out.push_str(&index.to_string());
        rest = &rest[digits.len()..];
    }
    out.push_str(rest);
    out
}

/// The three argument copies every input starts with.
const ARGS: &str = "bb.0:\n%0:_(s64) = COPY $x10\n%1:_(s64) = COPY $x11\n%2:_(s64) = COPY $x12\n";

/// `ARGS`, then `lines`, then the return.
fn body(lines: &str) -> String {
    format!("{ARGS}{lines}\nPseudoRET implicit $x10\n")
}

/// Checks that lowering `input` under `info` gives llc's `expected`.
fn check(info: &LegalizerInfo, input: &str, expected: &str) {
    assert_eq!(run(&body(input), info), normalize(&body(expected)));
}

#[test]
fn min_max_become_compare_and_select() {
    let info = rules(&[G_SMIN, G_UMAX]);
    check(
        &info,
        "%3:_(s64) = G_SMIN %0, %1\n$x10 = COPY %3(s64)",
        "%6:_(s1) = G_ICMP intpred(slt), %0(s64), %1\n%3:_(s64) = G_SELECT %6(s1), %0, %1\n$x10 = COPY %3(s64)",
    );
    check(
        &info,
        "%3:_(s64) = G_UMAX %0, %1\n$x10 = COPY %3(s64)",
        "%6:_(s1) = G_ICMP intpred(ugt), %0(s64), %1\n%3:_(s64) = G_SELECT %6(s1), %0, %1\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn abs_and_sext_inreg_use_shifts() {
    let info = rules(&[G_ABS, G_SEXT_INREG]);
    check(
        &info,
        "%3:_(s64) = G_ABS %0\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 63\n%5:_(s64) = G_ASHR %0, %4(s64)\n%6:_(s64) = G_ADD %0, %5\n\
         %3:_(s64) = G_XOR %6, %5\n$x10 = COPY %3(s64)",
    );
    check(
        &info,
        "%3:_(s64) = G_SEXT_INREG %0, 8\n$x10 = COPY %3(s64)",
        "%5:_(s64) = G_CONSTANT i64 56\n%4:_(s64) = G_SHL %0, %5(s64)\n%3:_(s64) = G_ASHR %4, %5(s64)\n\
         $x10 = COPY %3(s64)",
    );
}

#[test]
fn absolute_difference_by_select_or_by_min_max() {
    // Without Zbb (no legal min/max): select between both differences.
    let mut info = LegalizerInfo::new().with_pointer_bits(64);
    info.rules_for(&[G_ABDS]).lower();
    info.rules_for(&[G_SUB, G_ICMP, G_SELECT, G_CONSTANT]).always_legal();
    check(
        &info,
        "%3:_(s64) = G_ABDS %0, %1\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_SUB %0, %1\n%5:_(s64) = G_SUB %1, %0\n%8:_(s1) = G_ICMP intpred(sgt), %0(s64), %1\n\
         %3:_(s64) = G_SELECT %8(s1), %4, %5\n$x10 = COPY %3(s64)",
    );
    // With Zbb: max - min.
    check(
        &rules(&[G_ABDS]),
        "%3:_(s64) = G_ABDS %0, %1\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_SMAX %0, %1\n%5:_(s64) = G_SMIN %0, %1\n%3:_(s64) = G_SUB %4, %5\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn overflow_adds_and_subs() {
    let info = rules(&[G_UADDO, G_USUBO, G_SADDO, G_SSUBO]);
    let tail = "%5:_(s64) = G_ZEXT %4(s1)\n$x10 = COPY %3(s64)\n$x11 = COPY %5(s64)";
    let input = |op: &str| format!("%3:_(s64), %4:_(s1) = {op} %0, %1\n{tail}");
    check(
        &info,
        &input("G_UADDO"),
        &format!(
            "%6:_(s64) = G_ADD %0, %1\n%4:_(s1) = G_ICMP intpred(ult), %6(s64), %1\n%3:_(s64) = COPY %6(s64)\n{tail}"
        ),
    );
    check(
        &info,
        &input("G_USUBO"),
        &format!("%3:_(s64) = G_SUB %0, %1\n%4:_(s1) = G_ICMP intpred(ult), %0(s64), %1\n{tail}"),
    );
    check(
        &info,
        &input("G_SSUBO"),
        &format!(
            "%6:_(s64) = G_SUB %0, %1\n%7:_(s64) = G_CONSTANT i64 0\n%14:_(s1) = G_ICMP intpred(slt), %6(s64), %0\n\
             %13:_(s1) = G_ICMP intpred(sgt), %1(s64), %7\n%4:_(s1) = G_XOR %13, %14\n%3:_(s64) = COPY %6(s64)\n{tail}"
        ),
    );
}

#[test]
fn carry_chains_and_signed_carries() {
    let info = rules(&[G_UADDE, G_USUBE, G_SADDE, G_SSUBE]);
    let tail = "%5:_(s64) = G_ZEXT %4(s1)\n$x10 = COPY %3(s64)\n$x11 = COPY %5(s64)";
    let input = |op: &str| format!("%6:_(s1) = G_TRUNC %2(s64)\n%3:_(s64), %4:_(s1) = {op} %0, %1, %6\n{tail}");
    let carry = "%6:_(s1) = G_TRUNC %2(s64)";
    check(
        &info,
        &input("G_UADDE"),
        &format!(
            "{carry}\n%8:_(s64) = G_ADD %0, %1\n%21:_(s1) = G_ICMP intpred(ult), %8(s64), %0\n\
             %22:_(s64) = G_CONSTANT i64 1\n%10:_(s64) = G_AND %2, %22\n%7:_(s64) = G_ADD %8, %10\n%11:_(s64) = G_CONSTANT i64 0\n\
             %20:_(s1) = G_ICMP intpred(eq), %7(s64), %11\n%19:_(s1) = G_AND %20, %6\n%4:_(s1) = G_OR %21, %19\n\
             %3:_(s64) = COPY %7(s64)\n{tail}"
        ),
    );
    check(
        &info,
        &input("G_USUBE"),
        &format!(
            "{carry}\n%7:_(s64) = G_SUB %0, %1\n%20:_(s1) = G_ICMP intpred(ugt), %7(s64), %0\n\
             %21:_(s64) = G_CONSTANT i64 1\n%9:_(s64) = G_AND %2, %21\n%3:_(s64) = G_SUB %7, %9\n%10:_(s64) = G_CONSTANT i64 0\n\
             %19:_(s1) = G_ICMP intpred(eq), %7(s64), %10\n%18:_(s1) = G_AND %19, %6\n%4:_(s1) = G_OR %20, %18\n{tail}"
        ),
    );
    check(
        &info,
        &input("G_SADDE"),
        &format!(
            "%7:_(s64) = G_ADD %0, %1\n%15:_(s64) = G_CONSTANT i64 1\n%8:_(s64) = G_AND %2, %15\n%9:_(s64) = G_ADD %7, %8\n\
             %3:_(s64) = COPY %9(s64)\n%10:_(s64) = G_XOR %9, %0\n%11:_(s64) = G_XOR %9, %1\n\
             %12:_(s64) = G_AND %10, %11\n%13:_(s64) = G_CONSTANT i64 0\n\
             %4:_(s1) = G_ICMP intpred(slt), %12(s64), %13\n{tail}"
        ),
    );
    check(
        &info,
        &input("G_SSUBE"),
        &format!(
            "%15:_(s64) = G_CONSTANT i64 1\n%7:_(s64) = G_AND %2, %15\n%8:_(s64) = G_ADD %1, %7\n%9:_(s64) = G_SUB %0, %8\n\
             %3:_(s64) = COPY %9(s64)\n%10:_(s64) = G_XOR %0, %1\n%11:_(s64) = G_XOR %0, %9\n\
             %12:_(s64) = G_AND %10, %11\n%13:_(s64) = G_CONSTANT i64 0\n\
             %4:_(s1) = G_ICMP intpred(slt), %12(s64), %13\n{tail}"
        ),
    );
}

#[test]
fn multiply_with_overflow_becomes_mul_in_place() {
    let info = rules(&[G_UMULO, G_SMULO]);
    let tail = "%5:_(s64) = G_ZEXT %4(s1)\n$x10 = COPY %3(s64)\n$x11 = COPY %5(s64)";
    check(
        &info,
        &format!("%3:_(s64), %4:_(s1) = G_UMULO %0, %1\n{tail}"),
        &format!(
            "%6:_(s64) = G_UMULH %0, %1\n%7:_(s64) = G_CONSTANT i64 0\n%3:_(s64) = G_MUL %0, %1\n\
             %4:_(s1) = G_ICMP intpred(ne), %6(s64), %7\n{tail}"
        ),
    );
    // The unused zero of the signed form is erased as dead, as in llc.
    check(
        &info,
        &format!("%3:_(s64), %4:_(s1) = G_SMULO %0, %1\n{tail}"),
        &format!(
            "%6:_(s64) = G_SMULH %0, %1\n%3:_(s64) = G_MUL %0, %1\n%8:_(s64) = G_CONSTANT i64 63\n\
             %9:_(s64) = G_ASHR %3, %8(s64)\n%4:_(s1) = G_ICMP intpred(ne), %6(s64), %9\n{tail}"
        ),
    );
}

#[test]
fn divrem_splits_and_three_way_compare_subtracts() {
    let info = rules(&[G_SDIVREM, G_SCMP]);
    check(
        &info,
        "%3:_(s64), %4:_(s64) = G_SDIVREM %0, %1\n$x10 = COPY %3(s64)\n$x11 = COPY %4(s64)",
        "%3:_(s64) = G_SDIV %0, %1\n%4:_(s64) = G_SREM %0, %1\n$x10 = COPY %3(s64)\n$x11 = COPY %4(s64)",
    );
    // ZeroOrOne booleans: zext(gt) - zext(lt); llc folds the zexts into
    // the widened compares.
    check(
        &info,
        "%3:_(s64) = G_SCMP %0, %1\n$x10 = COPY %3(s64)",
        "%10:_(s1) = G_ICMP intpred(sgt), %0(s64), %1\n%9:_(s1) = G_ICMP intpred(slt), %0(s64), %1\n\
         %11:_(s64) = G_ZEXT %10(s1)\n%12:_(s64) = G_ZEXT %9(s1)\n%3:_(s64) = G_SUB %11, %12\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn saturating_arithmetic_by_overflow_or_by_min_max() {
    // No legal umin (RV64 without Zbb): uaddo + select; the uaddo is then
    // lowered in turn.
    let info = rules(&[G_UADDSAT, G_UADDO]);
    let mut plain = LegalizerInfo::new().with_pointer_bits(64);
    plain.rules_for(&[G_UADDSAT, G_UADDO]).lower();
    plain.rules_for(&[G_ADD, G_ICMP, G_SELECT, G_CONSTANT]).always_legal();
    check(
        &plain,
        "%3:_(s64) = G_UADDSAT %0, %1\n$x10 = COPY %3(s64)",
        "%8:_(s64) = G_ADD %0, %1\n%9:_(s1) = G_ICMP intpred(ult), %8(s64), %1\n%4:_(s64) = COPY %8(s64)\n\
         %6:_(s64) = G_CONSTANT i64 -1\n%3:_(s64) = G_SELECT %9(s1), %6, %4\n$x10 = COPY %3(s64)",
    );
    // Legal min/max (Zbb).
    check(
        &info,
        "%3:_(s64) = G_UADDSAT %0, %1\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 -1\n%5:_(s64) = G_XOR %0, %4\n%6:_(s64) = G_UMIN %5, %1\n\
         %3:_(s64) = G_ADD %0, %6\n$x10 = COPY %3(s64)",
    );
    let info = rules(&[G_SSUBSAT]);
    check(
        &info,
        "%3:_(s64) = G_SSUBSAT %0, %1\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 9223372036854775807\n%5:_(s64) = G_CONSTANT i64 -9223372036854775808\n\
         %6:_(s64) = G_CONSTANT i64 -1\n%7:_(s64) = G_SMAX %0, %6\n%8:_(s64) = G_SUB %7, %4\n\
         %9:_(s64) = G_SMIN %0, %6\n%10:_(s64) = G_SUB %9, %5\n%11:_(s64) = G_SMAX %8, %1\n\
         %12:_(s64) = G_SMIN %11, %10\n%3:_(s64) = G_SUB %0, %12\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn population_count_multiplies_or_shifts() {
    let ctpop = "%4:_(s64) = G_CONSTANT i64 1\n%5:_(s64) = G_LSHR %0, %4(s64)\n\
                 %6:_(s64) = G_CONSTANT i64 6148914691236517205\n%7:_(s64) = G_AND %5, %6\n%8:_(s64) = G_SUB %0, %7\n\
                 %9:_(s64) = G_CONSTANT i64 2\n%10:_(s64) = G_LSHR %8, %9(s64)\n\
                 %11:_(s64) = G_CONSTANT i64 3689348814741910323\n%12:_(s64) = G_AND %10, %11\n\
                 %13:_(s64) = G_AND %8, %11\n%14:_(s64) = G_ADD %12, %13\n%15:_(s64) = G_CONSTANT i64 4\n\
                 %16:_(s64) = G_LSHR %14, %15(s64)\n%17:_(s64) = G_ADD %16, %14\n\
                 %18:_(s64) = G_CONSTANT i64 1085102592571150095\n%19:_(s64) = G_AND %17, %18\n";
    check(
        &rules(&[G_CTPOP]),
        "%3:_(s64) = G_CTPOP %0\n$x10 = COPY %3(s64)",
        &format!(
            "{ctpop}%20:_(s64) = G_CONSTANT i64 72340172838076673\n%21:_(s64) = G_CONSTANT i64 56\n\
             %22:_(s64) = G_MUL %19, %20\n%3:_(s64) = G_LSHR %22, %21(s64)\n$x10 = COPY %3(s64)"
        ),
    );
    // Without a multiplier (RV64 without M) the byte sums are added by a
    // shift ladder; the unused multiplier constant is erased as dead.
    let mut info = LegalizerInfo::new().with_pointer_bits(64);
    info.rules_for(&[G_CTPOP]).lower();
    info.rules_for(&[G_MUL]).libcall();
    info.rules_for(&[G_ADD, G_SUB, G_AND, G_SHL, G_LSHR, G_CONSTANT]).always_legal();
    check(
        &info,
        "%3:_(s64) = G_CTPOP %0\n$x10 = COPY %3(s64)",
        &format!(
            "{ctpop}%21:_(s64) = G_CONSTANT i64 56\n%22:_(s64) = G_CONSTANT i64 8\n%23:_(s64) = G_SHL %19, %22(s64)\n\
             %24:_(s64) = G_ADD %19, %23\n%25:_(s64) = G_CONSTANT i64 16\n%26:_(s64) = G_SHL %24, %25(s64)\n\
             %27:_(s64) = G_ADD %24, %26\n%28:_(s64) = G_CONSTANT i64 32\n%29:_(s64) = G_SHL %27, %28(s64)\n\
             %30:_(s64) = G_ADD %27, %29\n%3:_(s64) = G_LSHR %30, %21(s64)\n$x10 = COPY %3(s64)"
        ),
    );
}

#[test]
fn leading_and_trailing_zero_counts() {
    // llc then lowers the G_CTPOP too (see the ctpop test); it is legal here.
    let mut ladder = String::new();
    for (i, shift) in [1, 2, 4, 8, 16, 32].iter().enumerate() {
        let (c, s, o, prev) = (4 + 3 * i, 5 + 3 * i, 6 + 3 * i, if i == 0 { 0 } else { 3 + 3 * i });
        ladder.push_str(&format!(
            "%{c}:_(s64) = G_CONSTANT i64 {shift}\n%{s}:_(s64) = G_LSHR %{prev}, %{c}(s64)\n\
             %{o}:_(s64) = G_OR %{prev}, %{s}\n"
        ));
    }
    check(
        &rules(&[G_CTLZ, G_CTLZ_ZERO_UNDEF]),
        "%3:_(s64) = G_CTLZ_ZERO_UNDEF %0\n$x10 = COPY %3(s64)",
        &format!(
            "{ladder}%22:_(s64) = G_CTPOP %21(s64)\n%23:_(s64) = G_CONSTANT i64 64\n%3:_(s64) = G_SUB %23, %22\n\
             $x10 = COPY %3(s64)"
        ),
    );
    check(
        &rules(&[G_CTTZ, G_CTTZ_ZERO_UNDEF]),
        "%3:_(s64) = G_CTTZ %0\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 -1\n%5:_(s64) = G_XOR %0, %4\n%6:_(s64) = G_ADD %0, %4\n\
         %7:_(s64) = G_AND %5, %6\n%3:_(s64) = G_CTPOP %7(s64)\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn byte_swap_shifts_masks_and_ors() {
    // llc 22 uses the mask -16777216 (0xFFFFFFFFFF000000) for byte 3, which
    // miscompiles: gisel uses 4278190080 (0xFF000000); see `bswap`.
    check(
        &rules(&[G_BSWAP]),
        "%3:_(s64) = G_BSWAP %0\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 56\n%5:_(s64) = G_SHL %0, %4(s64)\n%6:_(s64) = G_LSHR %0, %4(s64)\n\
         %7:_(s64) = G_OR %6, %5\n%8:_(s64) = G_CONSTANT i64 65280\n%9:_(s64) = G_CONSTANT i64 40\n\
         %10:_(s64) = G_AND %0, %8\n%11:_(s64) = G_SHL %10, %9(s64)\n%12:_(s64) = G_OR %7, %11\n\
         %13:_(s64) = G_LSHR %0, %9(s64)\n%14:_(s64) = G_AND %13, %8\n%15:_(s64) = G_OR %12, %14\n\
         %16:_(s64) = G_CONSTANT i64 16711680\n%17:_(s64) = G_CONSTANT i64 24\n%18:_(s64) = G_AND %0, %16\n\
         %19:_(s64) = G_SHL %18, %17(s64)\n%20:_(s64) = G_OR %15, %19\n%21:_(s64) = G_LSHR %0, %17(s64)\n\
         %22:_(s64) = G_AND %21, %16\n%23:_(s64) = G_OR %20, %22\n%24:_(s64) = G_CONSTANT i64 4278190080\n\
         %25:_(s64) = G_CONSTANT i64 8\n%26:_(s64) = G_AND %0, %24\n%27:_(s64) = G_SHL %26, %25(s64)\n\
         %28:_(s64) = G_OR %23, %27\n%29:_(s64) = G_LSHR %0, %25(s64)\n%30:_(s64) = G_AND %29, %24\n\
         %3:_(s64) = G_OR %28, %30\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn rotates_and_funnel_shifts_use_masked_shifts() {
    check(
        &rules(&[G_ROTL, G_ROTR, G_FSHL, G_FSHR]),
        "%3:_(s64) = G_ROTL %0, %1\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 0\n%5:_(s64) = G_CONSTANT i64 63\n%6:_(s64) = G_SUB %4, %1\n\
         %7:_(s64) = G_AND %1, %5\n%8:_(s64) = G_SHL %0, %7(s64)\n%9:_(s64) = G_AND %6, %5\n\
         %10:_(s64) = G_LSHR %0, %9(s64)\n%3:_(s64) = disjoint G_OR %8, %10\n$x10 = COPY %3(s64)",
    );
    check(
        &rules(&[G_ROTL, G_ROTR, G_FSHL, G_FSHR]),
        "%3:_(s64) = G_FSHR %0, %1, %2\n$x10 = COPY %3(s64)",
        "%4:_(s64) = G_CONSTANT i64 63\n%5:_(s64) = G_AND %2, %4\n%6:_(s64) = G_CONSTANT i64 -1\n\
         %7:_(s64) = G_XOR %2, %6\n%8:_(s64) = G_AND %7, %4\n%9:_(s64) = G_CONSTANT i64 1\n\
         %10:_(s64) = G_SHL %0, %9(s64)\n%11:_(s64) = G_SHL %10, %8(s64)\n%12:_(s64) = G_LSHR %1, %5(s64)\n\
         %3:_(s64) = disjoint G_OR %11, %12\n$x10 = COPY %3(s64)",
    );
}

#[test]
fn odd_sized_loads_and_stores_split_in_two() {
    let info = rules(&[]);
    check(
        &info,
        "%3:_(p0) = COPY $x13\n%4:_(s64) = G_LOAD %3(p0) :: (load (s48), align 8)\n$x10 = COPY %4(s64)",
        "%3:_(p0) = COPY $x13\n%5:_(s64) = G_ZEXTLOAD %3(p0) :: (load (s32), align 8)\n\
         %6:_(s64) = G_CONSTANT i64 4\n%7:_(p0) = nuw inbounds G_PTR_ADD %3, %6(s64)\n\
         %8:_(s64) = G_LOAD %7(p0) :: (load (s16) from unknown-address + 4, align 4)\n\
         %9:_(s64) = G_CONSTANT i64 32\n%10:_(s64) = G_SHL %8, %9(s64)\n%4:_(s64) = G_OR %10, %5\n\
         $x10 = COPY %4(s64)",
    );
    check(
        &info,
        "%3:_(p0) = COPY $x13\n%4:_(s64) = G_ZEXTLOAD %3(p0) :: (load (s24), align 4)\n$x10 = COPY %4(s64)",
        "%3:_(p0) = COPY $x13\n%5:_(s64) = G_ZEXTLOAD %3(p0) :: (load (s16), align 4)\n\
         %6:_(s64) = G_CONSTANT i64 2\n%7:_(p0) = nuw inbounds G_PTR_ADD %3, %6(s64)\n\
         %8:_(s64) = G_ZEXTLOAD %7(p0) :: (load (s8) from unknown-address + 2, align 2)\n\
         %9:_(s64) = G_CONSTANT i64 16\n%10:_(s64) = G_SHL %8, %9(s64)\n%4:_(s64) = G_OR %10, %5\n\
         $x10 = COPY %4(s64)",
    );
    check(
        &info,
        "%3:_(p0) = COPY $x13\nG_STORE %0(s64), %3(p0) :: (store (s48), align 8)\n$x10 = COPY %0(s64)",
        "%3:_(p0) = COPY $x13\n%4:_(s64) = COPY %0(s64)\n%5:_(s64) = G_CONSTANT i64 32\n\
         %6:_(s64) = G_LSHR %4, %5(s64)\n%7:_(s64) = G_CONSTANT i64 4\n%8:_(p0) = nuw inbounds G_PTR_ADD %3, %7(s64)\n\
         G_STORE %4(s64), %3(p0) :: (store (s32), align 8)\n\
         G_STORE %6(s64), %8(p0) :: (store (s16) into unknown-address + 4, align 4)\n$x10 = COPY %0(s64)",
    );
}

/// The interpreter agrees with each lowering on random inputs (RV64 ABI).
#[test]
fn lowerings_keep_their_meaning() {
    use crate::interp::{Abi, Program, check_equivalent, random_inputs};
    let one = |op: &str| format!("%3:_(s64) = {op} %0, %1\n$x10 = COPY %3(s64)");
    let unary = |op: &str| format!("%3:_(s64) = {op} %0\n$x10 = COPY %3(s64)");
    let carry = |op: &str| {
        format!(
            "%3:_(s64), %4:_(s1) = {op} %0, %1\n%5:_(s64) = G_ZEXT %4(s1)\n$x10 = COPY %3(s64)\n$x11 = COPY %5(s64)"
        )
    };
    let carry_in = |op: &str| {
        format!(
            "%6:_(s1) = G_TRUNC %2(s64)\n%3:_(s64), %4:_(s1) = {op} %0, %1, %6\n%5:_(s64) = G_ZEXT %4(s1)\n\
             $x10 = COPY %3(s64)\n$x11 = COPY %5(s64)"
        )
    };
    let narrow = |op: &str, bits: u32| {
        format!(
            "%3:_(s{bits}) = G_TRUNC %0(s64)\n%4:_(s{bits}) = G_TRUNC %1(s64)\n%5:_(s{bits}) = G_TRUNC %2(s64)\n\
             %6:_(s{bits}) = {op}\n%7:_(s64) = G_ZEXT %6(s{bits})\n$x10 = COPY %7(s64)"
        )
    };
    let mut cases: Vec<(Opcode, String)> = vec![
        (G_SMIN, one("G_SMIN")),
        (G_UMAX, one("G_UMAX")),
        (G_ABDS, one("G_ABDS")),
        (G_ABDU, one("G_ABDU")),
        (G_UADDSAT, one("G_UADDSAT")),
        (G_USUBSAT, one("G_USUBSAT")),
        (G_SADDSAT, one("G_SADDSAT")),
        (G_SSUBSAT, one("G_SSUBSAT")),
        (G_SCMP, one("G_SCMP")),
        (G_UCMP, one("G_UCMP")),
        (G_ROTL, one("G_ROTL")),
        (G_ROTR, one("G_ROTR")),
        (G_ABS, unary("G_ABS")),
        (G_CTPOP, unary("G_CTPOP")),
        (G_CTLZ, unary("G_CTLZ")),
        (G_CTTZ, unary("G_CTTZ")),
        (G_BSWAP, unary("G_BSWAP")),
        (G_BITREVERSE, unary("G_BITREVERSE")),
        (G_UADDO, carry("G_UADDO")),
        (G_USUBO, carry("G_USUBO")),
        (G_SADDO, carry("G_SADDO")),
        (G_SSUBO, carry("G_SSUBO")),
        (G_UMULO, carry("G_UMULO")),
        (G_SMULO, carry("G_SMULO")),
        (G_UADDE, carry_in("G_UADDE")),
        (G_USUBE, carry_in("G_USUBE")),
        (G_SADDE, carry_in("G_SADDE")),
        (G_SSUBE, carry_in("G_SSUBE")),
        (G_FSHL, "%3:_(s64) = G_FSHL %0, %1, %2\n$x10 = COPY %3(s64)".into()),
        (G_FSHR, "%3:_(s64) = G_FSHR %0, %1, %2\n$x10 = COPY %3(s64)".into()),
        (G_SEXT_INREG, "%3:_(s64) = G_SEXT_INREG %0, 13\n$x10 = COPY %3(s64)".into()),
        (G_SMULH, narrow("G_SMULH %3, %4", 32)),
        (G_UMULH, narrow("G_UMULH %3, %4", 32)),
        (G_FSHL, narrow("G_FSHL %3, %4, %5", 24)),
        (G_FSHR, narrow("G_FSHR %3, %4, %5", 24)),
        (G_ROTL, narrow("G_ROTL %3, %4", 24)),
        (G_BITREVERSE, narrow("G_BITREVERSE %3", 7)),
        (G_BITREVERSE, narrow("G_BITREVERSE %3", 8)),
        (G_CTLZ, narrow("G_CTLZ %3", 24)),
        (G_BSWAP, narrow("G_BSWAP %3", 32)),
        (G_SSHLSAT, narrow("G_SSHLSAT %3, %4", 8)),
        (G_USHLSAT, narrow("G_USHLSAT %3, %4", 8)),
    ];
    cases.push((G_SREM, "%9:_(s64) = G_CONSTANT i64 7\n%3:_(s64) = G_SREM %0, %9\n$x10 = COPY %3(s64)".into()));
    let abi = Abi::riscv64();
    for (opcode, lines) in cases {
        let source = body(&lines);
        let before = parse_body("f", &source, &[], &|_| 64).expect("parses");
        let mut after = before.clone();
        let lowered: &[Opcode] = match opcode {
            G_UADDSAT | G_USUBSAT => &[G_UADDSAT, G_USUBSAT, G_UMIN],
            G_CTLZ | G_CTTZ => &[G_CTLZ, G_CTTZ, G_CTLZ_ZERO_UNDEF, G_CTTZ_ZERO_UNDEF, G_CTPOP],
            G_BITREVERSE => &[G_BITREVERSE, G_BSWAP],
            G_UMULO | G_SMULO => &[G_UMULO, G_SMULO, G_UMULH, G_SMULH],
            _ => std::slice::from_ref(&opcode),
        };
        let info = rules(lowered);
        legalize(&mut after, &info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let inputs = random_inputs(&Program::new(&before), &abi, 64, 11);
        let checked = check_equivalent(&Program::new(&before), &Program::new(&after), &abi, &inputs)
            .unwrap_or_else(|e| panic!("{opcode}: {e}"));
        assert!(checked.compared >= 32, "{opcode}: {checked:?}");
    }
}
