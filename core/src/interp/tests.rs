//! Unit tests of the interpreter, one group per opcode family, written as
//! small `.mir` bodies run on chosen inputs.

use super::*;
use crate::ir::InstOpcode;
use crate::mir::parse_body;

fn func(body: &str) -> Function {
    match parse_body("f", body, &[], &|_| 64) {
        Ok(f) => f,
        Err(e) => panic!("bad test body: {e:?}"),
    }
}

fn inputs(regs: &[(&str, Value)]) -> Inputs {
    Inputs { regs: regs.iter().map(|(n, v)| (n.to_string(), v.clone())).collect(), stack: Vec::new(), memory_seed: 1 }
}

fn run_on(body: &str, regs: &[(&str, Value)]) -> Result<Vec<Value>, InterpError> {
    let f = func(body);
    let out = run(&Program::new(&f), &Abi::aarch64(), &inputs(regs), &Options::default())?;
    Ok(out.results.into_iter().map(|(_, v)| v).collect())
}

fn x(v: i128) -> Value {
    Value::from_i128(64, v)
}

fn w(v: i128) -> Value {
    Value::from_i128(32, v)
}

/// `$x0 = op($x0, $x1)` computed at type `ty`, truncated from and
/// zero-extended back to 64 bits.
fn binop(op: &str, ty: &str, a: i128, b: i128) -> Result<Value, InterpError> {
    let bits: u32 = ty[1..].parse().unwrap_or(64);
    let (down, up) = match bits {
        64 => ("COPY", "COPY"),
        b if b < 64 => ("G_TRUNC", "G_ZEXT"),
        _ => ("G_SEXT", "G_TRUNC"),
    };
    let body = format!(
        "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_({ty}) = {down} %0\n  %3:_({ty}) = {down} %1\n  \
         %4:_({ty}) = {op} %2, %3\n  %5:_(s64) = {up} %4\n  $x0 = COPY %5\n  RET_ReallyLR implicit $x0\n"
    );
    Ok(run_on(&body, &[("x0", x(a)), ("x1", x(b))])?.remove(0))
}

fn u(v: &Value) -> Option<u128> {
    v.get().and_then(|b| b.to_u128())
}

#[test]
fn integer_arithmetic() {
    assert_eq!(u(&binop("G_ADD", "s7", 100, 100).unwrap()), Some(200 % 128));
    assert_eq!(u(&binop("G_SUB", "s8", 1, 2).unwrap()), Some(0xff));
    assert_eq!(u(&binop("G_MUL", "s64", -3, 5).unwrap()), Some((-15i64) as u64 as u128));
    assert_eq!(u(&binop("G_SDIV", "s8", -7, 2).unwrap()), Some(0xfd));
    assert_eq!(u(&binop("G_UREM", "s8", 250, 7).unwrap()), Some(250 % 7));
    assert_eq!(u(&binop("G_SREM", "s8", -7, 2).unwrap()), Some(0xff));
    assert!(matches!(binop("G_UDIV", "s8", 1, 0), Err(InterpError::Undefined(_))));
    assert!(matches!(binop("G_SDIV", "s8", -128, -1), Err(InterpError::Undefined(_))));
    assert_eq!(u(&binop("G_SMIN", "s8", -1, 1).unwrap()), Some(0xff));
    assert_eq!(u(&binop("G_UMIN", "s8", -1, 1).unwrap()), Some(1));
    assert_eq!(u(&binop("G_UMULH", "s64", -1, -1).unwrap()), Some(u128::from(u64::MAX - 1)));
    assert_eq!(u(&binop("G_SMULH", "s64", -1, -1).unwrap()), Some(0));
    assert_eq!(u(&binop("G_UADDSAT", "s8", 200, 100).unwrap()), Some(255));
    assert_eq!(u(&binop("G_SSUBSAT", "s8", -100, 100).unwrap()), Some(0x80));
    assert_eq!(u(&binop("G_USUBSAT", "s8", 1, 2).unwrap()), Some(0));
    assert_eq!(u(&binop("G_SHL", "s8", 1, 7).unwrap()), Some(0x80));
    assert_eq!(u(&binop("G_ASHR", "s8", -128, 7).unwrap()), Some(0xff));
    assert_eq!(u(&binop("G_LSHR", "s128", -1, 127).unwrap()), Some(1));
    // Shifting by the width or more is poison: the bits are undefined.
    let r = binop("G_SHL", "s8", 1, 8).unwrap();
    assert_eq!(r.extract(0, 8), Value::undef(8));
    assert!(r.extract(8, 56).is_defined(), "the zero-extension stays defined");
    assert_eq!(u(&binop("G_AND", "s200", -1, 5).unwrap()), Some(5));
}

#[test]
fn wide_division_and_multiplication() {
    let min = i128::from(i64::MIN);
    assert_eq!(binop("G_SDIV", "s128", min, 3).unwrap(), x(min / 3));
    assert_eq!(binop("G_SREM", "s96", min, 10).unwrap(), x(min % 10));
    assert_eq!(binop("G_UDIV", "s256", -1, 1 << 40).unwrap(), x(-1), "all ones / 2^40 keeps the low 64 bits set");
    let r = binop("G_MUL", "s65", 1 << 40, 1 << 30).unwrap();
    assert_eq!(u(&r), Some(0), "2^70 wraps to zero in 65 bits");
}

#[test]
fn overflow_compare_select_extend() {
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = COPY $w1\n  %2:_(s32), %3:_(s1) = G_UADDO %0, %1\n  \
                %4:_(s32), %5:_(s1) = G_SMULO %0, %1\n  %6:_(s1) = G_ICMP intpred(slt), %0(s32), %1\n  \
                %7:_(s32) = G_SELECT %6(s1), %0, %1\n  %8:_(s32) = G_ZEXT %3(s1)\n  %9:_(s32) = G_ZEXT %5(s1)\n  \
                %10:_(s32) = G_SEXT_INREG %0, 4\n  %11:_(s32), %12:_(s1) = G_UADDE %0, %1, %3\n  \
                $w0 = COPY %2\n  $w1 = COPY %8\n  $w2 = COPY %9\n  $w3 = COPY %7\n  $w4 = COPY %10\n  $w5 = COPY %11\n  \
                RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3, implicit $w4, implicit $w5\n";
    let r = run_on(body, &[("w0", w(-1)), ("w1", w(2))]).unwrap();
    let got: Vec<Option<u128>> = r.iter().map(u).collect();
    assert_eq!(got, vec![Some(1), Some(1), Some(0), Some(0xffff_ffff), Some(0xffff_ffff), Some(2)]);
    let r = run_on(body, &[("w0", w(0x4000_0000)), ("w1", w(2))]).unwrap();
    assert_eq!(u(&r[2]), Some(1), "signed multiply overflow");
}

#[test]
fn undefined_bits_propagate() {
    // anyext leaves the high bits undefined; masking them makes them defined.
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s8) = G_TRUNC %0\n  %2:_(s32) = G_ANYEXT %1(s8)\n  \
                %3:_(s32) = G_CONSTANT i32 255\n  %4:_(s32) = G_AND %2, %3\n  %5:_(s32) = G_ADD %2, %2\n  \
                %6:_(s32) = G_IMPLICIT_DEF\n  %7:_(s32) = G_OR %6, %3\n  \
                $w0 = COPY %2\n  $w1 = COPY %4\n  $w2 = COPY %5\n  $w3 = COPY %7\n  \
                RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3\n";
    let r = run_on(body, &[("w0", w(0x1234_5681))]).unwrap();
    assert_eq!(r[0].to_string(), "0x??????81");
    assert_eq!(r[1], w(0x81));
    assert_eq!(r[2].to_string(), "0x??????02", "add keeps the low bits below the first undefined one");
    assert_eq!(r[3].to_string(), "0x??????ff", "or with a defined one is defined");
}

#[test]
fn carry_arithmetic_keeps_the_low_bits_of_partly_undefined_values() {
    // The high pieces of a narrowed add of any-extended values: the sum's
    // bits below the first undefined input bit are defined, the carry-out
    // is not.
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s8) = G_TRUNC %0\n  %2:_(s32) = G_ANYEXT %1(s8)\n  \
                %3:_(s32), %4:_(s1) = G_UADDO %2, %2\n  %5:_(s1) = G_CONSTANT i1 true\n  \
                %6:_(s32), %7:_(s1) = G_USUBE %2, %0, %5\n  %8:_(s32) = G_ZEXT %4(s1)\n  \
                $w0 = COPY %3\n  $w1 = COPY %6\n  $w2 = COPY %8\n  \
                RET_ReallyLR implicit $w0, implicit $w1, implicit $w2\n";
    let r = run_on(body, &[("w0", w(0x1234_5681))]).unwrap();
    assert_eq!(r[0].to_string(), "0x??????02");
    assert_eq!(r[1].to_string(), "0x??????ff", "0x81 - 0x81 - 1, borrowing from undefined bits");
    assert_eq!(r[2].to_string(), "0x0000000?", "the carry-out depends on every bit");
}

#[test]
fn bit_counting_and_permutation() {
    assert_eq!(u(&binop("G_ROTL", "s8", 0x81, 1).unwrap()), Some(0x03));
    assert_eq!(u(&binop("G_ROTR", "s8", 0x81, 9).unwrap()), Some(0xc0));
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s7) = G_TRUNC %0\n  %2:_(s7) = G_CTLZ %1(s7)\n  \
                %3:_(s32) = G_ZEXT %2\n  %4:_(s32) = G_CTTZ_ZERO_UNDEF %0(s32)\n  %5:_(s32) = G_BSWAP %0\n  \
                %6:_(s32) = G_BITREVERSE %0\n  %7:_(s32) = G_CTPOP %0(s32)\n  %8:_(s32) = G_FSHR %0, %5, %3\n  \
                $w0 = COPY %3\n  $w1 = COPY %4\n  $w2 = COPY %5\n  $w3 = COPY %6\n  $w4 = COPY %7\n  $w5 = COPY %8\n  \
                RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3, implicit $w4, implicit $w5\n";
    let r = run_on(body, &[("w0", w(0x0000_0104))]).unwrap();
    let got: Vec<Option<u128>> = r.iter().map(u).collect();
    assert_eq!(got, vec![Some(4), Some(2), Some(0x0401_0000), Some(0x2080_0000), Some(2), Some(0x4040_1000)]);
    let r = run_on(body, &[("w0", w(0))]).unwrap();
    assert!(!r[1].is_defined(), "cttz_zero_undef of zero is poison");
    assert_eq!(u(&r[0]), Some(7));
}

#[test]
fn vectors_and_merges() {
    let body = "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = COPY $w1\n  %2:_(<2 x s32>) = G_BUILD_VECTOR %0(s32), %1(s32)\n  \
                %3:_(<2 x s32>) = G_ADD %2, %2\n  %4:_(<2 x s32>) = G_SHUFFLE_VECTOR %3(<2 x s32>), %2, shufflemask(1, 2)\n  \
                %5:_(s64) = G_CONSTANT i64 1\n  %6:_(s32) = G_EXTRACT_VECTOR_ELT %4(<2 x s32>), %5(s64)\n  \
                %7:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  %8:_(s16) = G_EXTRACT %7(s64), 24\n  \
                %9:_(s64) = G_INSERT %7, %8(s16), 0\n  %10:_(s16), %11:_(s16), %12:_(s32) = G_UNMERGE_VALUES %9(s64)\n  \
                %13:_(<2 x s1>) = G_ICMP intpred(ult), %2(<2 x s32>), %3\n  %14:_(s2) = G_BITCAST %13(<2 x s1>)\n  \
                %15:_(s32) = G_ZEXT %14(s2)\n  %16:_(s32) = G_ZEXT %10(s16)\n  \
                $w0 = COPY %6\n  $w1 = COPY %12\n  $w2 = COPY %15\n  $w3 = COPY %16\n  \
                RET_ReallyLR implicit $w0, implicit $w1, implicit $w2, implicit $w3\n";
    let r = run_on(body, &[("w0", w(0x0102_0304)), ("w1", w(-5))]).unwrap();
    let got: Vec<Option<u128>> = r.iter().map(u).collect();
    assert_eq!(got, vec![Some(0x0102_0304), Some(0xffff_fffb), Some(0b01), Some(0xfb01)]);
}

#[test]
fn floating_point() {
    let body = "bb.0:\n  %0:_(s32) = COPY $s0\n  %1:_(s32) = COPY $s1\n  %2:_(s32) = G_FADD %0, %1\n  \
                %3:_(s16) = G_FPTRUNC %2(s32)\n  %4:_(s16) = G_FMUL %3, %3\n  %5:_(s64) = G_FPEXT %4(s16)\n  \
                %6:_(s1) = G_FCMP floatpred(uno), %0(s32), %1\n  %7:_(s32) = G_ZEXT %6(s1)\n  \
                %8:_(s8) = G_FPTOSI %2(s32)\n  %9:_(s32) = G_ANYEXT %8(s8)\n  %10:_(s128) = G_CONSTANT i128 -3\n  \
                %11:_(s32) = G_SITOFP %10(s128)\n  \
                $d0 = COPY %5\n  $w0 = COPY %7\n  $w1 = COPY %9\n  $s1 = COPY %11\n  \
                RET_ReallyLR implicit $d0, implicit $w0, implicit $w1, implicit $s1\n";
    let f32v = |v: f32| Value::from_u128(32, u128::from(v.to_bits()));
    let r = run_on(body, &[("s0", f32v(1.5)), ("s1", f32v(1.5))]).unwrap();
    assert_eq!(u(&r[0]), Some(u128::from(9.0f64.to_bits())));
    assert_eq!(u(&r[1]), Some(0));
    assert_eq!(r[2].extract(0, 8), Value::from_u128(8, 3));
    assert_eq!(u(&r[3]), Some(u128::from((-3.0f32).to_bits())));
    let r = run_on(body, &[("s0", f32v(f32::NAN)), ("s1", f32v(1e30))]).unwrap();
    assert_eq!(u(&r[1]), Some(1), "unordered");
    assert!(!r[0].is_defined() && r[0].extract(52, 11).is_defined(), "a NaN, payload undefined");
    let r = run_on(body, &[("s0", f32v(200.0)), ("s1", f32v(0.0))]).unwrap();
    assert!(!r[2].extract(0, 8).is_defined(), "fptosi out of range is poison");
    let neg = "bb.0:\n  %0:_(s64) = COPY $d0\n  %1:_(s64) = G_FNEG %0\n  %2:_(s64) = G_FABS %1\n  \
               %3:_(s64) = G_FCOPYSIGN %2, %1(s64)\n  $d0 = COPY %3\n  RET_ReallyLR implicit $d0\n";
    let r = run_on(neg, &[("d0", x(2.0f64.to_bits() as i128))]).unwrap();
    assert_eq!(u(&r[0]), Some(u128::from((-2.0f64).to_bits())));
}

#[test]
fn memory_accesses() {
    let body = "bb.0:\n  %0:_(p0) = COPY $x0\n  %1:_(s32) = COPY $w1\n  %2:_(s24) = G_TRUNC %1\n  \
                G_STORE %2(s24), %0(p0) :: (store (s24), align 1)\n  %3:_(s32) = G_SEXTLOAD %0(p0) :: (load (s16))\n  \
                %4:_(s1) = G_TRUNC %1\n  %5:_(s64) = G_CONSTANT i64 8\n  %6:_(p0) = G_PTR_ADD %0, %5(s64)\n  \
                G_STORE %4(s1), %6(p0) :: (store (s1))\n  %7:_(s8) = G_LOAD %6(p0) :: (load (s8))\n  \
                %8:_(s32) = G_ZEXT %7(s8)\n  %9:_(s64) = G_LOAD %0(p0) :: (load (s32))\n  \
                $w0 = COPY %3\n  $w1 = COPY %8\n  $x2 = COPY %9\n  RET_ReallyLR implicit $w0, implicit $w1, implicit $x2\n";
    let f = func(body);
    let out = run(
        &Program::new(&f),
        &Abi::aarch64(),
        &inputs(&[("x0", x(0x1000)), ("w1", w(0x0012_80ff))]),
        &Options::default(),
    )
    .unwrap();
    let r: Vec<&Value> = out.results.iter().map(|(_, v)| v).collect();
    assert_eq!(u(r[0]), Some(0xffff_80ff));
    assert_eq!(u(r[1]), Some(1), "an s1 store writes a zero-extended byte");
    assert_eq!(r[2].extract(0, 24), Value::from_u128(24, 0x1280ff));
    assert!(r[2].extract(24, 8).is_defined(), "byte 3 is initial memory");
    assert!(!r[2].extract(32, 32).is_defined(), "an any-extending load");
    assert_eq!(out.memory.byte(0x1002), (0x12, 0));
    assert_eq!(out.memory.written_outside_stack(), vec![0x1000, 0x1001, 0x1002, 0x1008]);
}

#[test]
fn control_flow_and_phis() {
    // Sum 1..=n with a loop.
    let body = "bb.0:\n  successors: %bb.1\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = G_CONSTANT i32 0\n  \
                %2:_(s32) = G_CONSTANT i32 1\n  G_BR %bb.1\n\nbb.1:\n  successors: %bb.1, %bb.2\n  \
                %3:_(s32) = G_PHI %1(s32), %bb.0, %5(s32), %bb.1\n  %4:_(s32) = G_PHI %2(s32), %bb.0, %6(s32), %bb.1\n  \
                %5:_(s32) = G_ADD %3, %4\n  %6:_(s32) = G_ADD %4, %2\n  %7:_(s1) = G_ICMP intpred(ule), %6(s32), %0\n  \
                G_BRCOND %7(s1), %bb.1\n\nbb.2:\n  $w0 = COPY %5\n  RET_ReallyLR implicit $w0\n";
    assert_eq!(u(&run_on(body, &[("w0", w(10))]).unwrap()[0]), Some(55));
    let f = func(body);
    let opts = Options { step_limit: 100, ..Options::default() };
    let r = run(&Program::new(&f), &Abi::aarch64(), &inputs(&[("w0", w(-1))]), &opts);
    assert_eq!(r.err(), Some(InterpError::StepLimit));
    let r = run_on(body, &[]);
    assert!(matches!(r, Err(InterpError::Undefined(_))), "branch on an undefined condition");
}

#[test]
fn divrem_gives_quotient_and_remainder() {
    let body = "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s64), %3:_(s64) = G_SDIVREM %0, %1\n  \
                %4:_(s64), %5:_(s64) = G_UDIVREM %0, %1\n  $x0 = COPY %2\n  $x1 = COPY %3\n  $x2 = COPY %4\n  $x3 = COPY %5\n  \
                RET_ReallyLR implicit $x0, implicit $x1, implicit $x2, implicit $x3\n";
    let out = run_on(body, &[("x0", x(-7)), ("x1", x(2))]).expect("runs");
    assert_eq!(out, vec![x(-3), x(-1), x(((-7i128 as u64) / 2) as i128), x(1)]);
}

#[test]
fn libcalls_and_equivalence() {
    let before = func(
        "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s64) = COPY $x2\n  %3:_(s64) = COPY $x3\n  \
         %4:_(s128) = G_MERGE_VALUES %0(s64), %1(s64)\n  %5:_(s128) = G_MERGE_VALUES %2(s64), %3(s64)\n  \
         %6:_(s128) = G_SDIV %4, %5\n  %7:_(s64), %8:_(s64) = G_UNMERGE_VALUES %6(s128)\n  \
         $x0 = COPY %7\n  $x1 = COPY %8\n  RET_ReallyLR implicit $x0, implicit $x1\n",
    );
    let call = |callee: &str| {
        func(&format!(
            "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s64) = COPY $x2\n  %3:_(s64) = COPY $x3\n  \
             ADJCALLSTACKDOWN 0, 0, implicit-def $sp, implicit $sp\n  $x0 = COPY %0\n  $x1 = COPY %1\n  $x2 = COPY %2\n  $x3 = COPY %3\n  \
             BL &{callee}, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit $x0, implicit $x1, implicit $x2, implicit $x3, implicit-def $x0, implicit-def $x1\n  \
             ADJCALLSTACKUP 0, 0, implicit-def $sp, implicit $sp\n  %4:_(s64) = COPY $x0\n  %5:_(s64) = COPY $x1\n  \
             $x0 = COPY %4\n  $x1 = COPY %5\n  RET_ReallyLR implicit $x0, implicit $x1\n"
        ))
    };
    let abi = Abi::aarch64();
    let ins = random_inputs(&Program::new(&before), &abi, 32, 7);
    assert_eq!(ins, random_inputs(&Program::new(&before), &abi, 32, 7), "inputs are deterministic");
    let good = call("__divti3");
    let checked = check_equivalent(&Program::new(&before), &Program::new(&good), &abi, &ins).unwrap();
    assert!(checked.compared > 16, "{checked:?}");
    let bad = call("__udivti3");
    assert!(matches!(
        check_equivalent(&Program::new(&before), &Program::new(&bad), &abi, &ins),
        Err(CheckError::Mismatch(_))
    ));
    let unknown = call("__frobnicate");
    let err = check_equivalent(&Program::new(&before), &Program::new(&unknown), &abi, &ins).unwrap_err();
    assert!(err.to_string().contains("__frobnicate"), "{err}");
}

#[test]
fn refinement_of_undefined_bits() {
    let before = func(
        "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s8) = G_TRUNC %0\n  %2:_(s32) = G_ANYEXT %1(s8)\n  $w0 = COPY %2\n  RET_ReallyLR implicit $w0\n",
    );
    let refined = func(
        "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = G_CONSTANT i32 255\n  %2:_(s32) = G_AND %0, %1\n  $w0 = COPY %2\n  RET_ReallyLR implicit $w0\n",
    );
    let wrong = func(
        "bb.0:\n  %0:_(s32) = COPY $w0\n  %1:_(s32) = G_CONSTANT i32 127\n  %2:_(s32) = G_AND %0, %1\n  $w0 = COPY %2\n  RET_ReallyLR implicit $w0\n",
    );
    let abi = Abi::aarch64();
    let ins = random_inputs(&Program::new(&before), &abi, 16, 1);
    assert!(check_equivalent(&Program::new(&before), &Program::new(&refined), &abi, &ins).is_ok());
    assert!(check_equivalent(&Program::new(&before), &Program::new(&wrong), &abi, &ins).is_err());
    // ... but not the other way: the refined function defines bits the other leaves open.
    assert!(check_equivalent(&Program::new(&refined), &Program::new(&before), &abi, &ins).is_err());
}

#[test]
fn riscv_word_operations_and_unknown_target_instructions() {
    let mut f = parse_body(
        "f",
        "bb.0:\n  %0:_(s64) = COPY $x10\n  %1:_(s64) = COPY $x11\n  %2:_(s64) = G_ADD %0, %1\n  $x10 = COPY %2\n  PseudoRET implicit $x10\n",
        &[],
        &|_| 64,
    )
    .unwrap();
    let add = f.all_insts().find(|i| f.inst(*i).is(crate::opcode::Opcode::G_ADD)).unwrap();
    let divw = f.names.intern("G_DIVW");
    f.modify(add, |d| d.opcode = InstOpcode::Target(divw));
    let abi = Abi::riscv64();
    let ins = inputs(&[("x10", x(-7)), ("x11", x(0x1_0000_0002))]);
    let out = run(&Program::new(&f), &abi, &ins, &Options::default()).unwrap();
    assert_eq!(out.results[0].1, x(-3));
    let frob = f.names.intern("FROB");
    f.modify(add, |d| d.opcode = InstOpcode::Target(frob));
    let err = run(&Program::new(&f), &abi, &ins, &Options::default()).unwrap_err();
    assert_eq!(err, InterpError::Unsupported("FROB".into()));
    // RISC-V's x0 reads as zero.
    let zero = func("bb.0:\n  %0:_(s64) = COPY $x0\n  $x10 = COPY %0\n  PseudoRET implicit $x10\n");
    let out = run(&Program::new(&zero), &abi, &inputs(&[]), &Options::default()).unwrap();
    assert_eq!(out.results[0].1, x(0));
}

#[test]
fn constant_pool_entries() {
    assert_eq!(parse_constant("i64 -2"), Some(x(-2)));
    assert_eq!(parse_constant("double 1.0"), Some(x(1.0f64.to_bits() as i128)));
    let quad = parse_constant("fp128 0xL00000000000000003FFF000000000000").unwrap();
    assert_eq!(u(&quad), Some(0x3fff_u128 << 112), "fp128 1.0");
    assert!(parse_constant("<2 x i32> <i32 1, i32 2>").is_none());
}

#[test]
fn atomics_and_their_outline_helpers() {
    let before = func(
        "bb.0:\n  %0:_(p0) = COPY $x0\n  %1:_(s32) = COPY $w1\n  \
         %2:_(s32) = G_ATOMICRMW_AND %0(p0), %1 :: (load store acquire (s32))\n  \
         $w0 = COPY %2\n  RET_ReallyLR implicit $w0\n",
    );
    let helper = |operand: &str| {
        func(&format!(
            "bb.0:\n  %0:_(p0) = COPY $x0\n  %1:_(s32) = COPY $w1\n  {operand}\n  $w0 = COPY %9\n  $x1 = COPY %0\n  \
             BL &__aarch64_ldclr4_acq, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit $w0, implicit $x1, implicit-def $w0\n  \
             %3:_(s32) = COPY $w0\n  $w0 = COPY %3\n  RET_ReallyLR implicit $w0\n"
        ))
    };
    let abi = Abi::aarch64();
    let ins = random_inputs(&Program::new(&before), &abi, 32, 3);
    // ldclr clears the bits of its operand: an AND passes the complement.
    let good = helper("%8:_(s32) = G_CONSTANT i32 -1\n  %9:_(s32) = G_XOR %1, %8");
    let checked = check_equivalent(&Program::new(&before), &Program::new(&good), &abi, &ins).unwrap();
    assert!(checked.compared >= 16, "{checked:?}");
    let bad = helper("%9:_(s32) = COPY %1");
    assert!(matches!(
        check_equivalent(&Program::new(&before), &Program::new(&bad), &abi, &ins),
        Err(CheckError::Mismatch(_))
    ));
}

#[test]
fn memory_functions_and_tail_calls() {
    let before = func(
        "bb.0:\n  %0:_(p0) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s32) = COPY $w2\n  %3:_(s8) = G_TRUNC %2\n  \
         G_MEMSET %0(p0), %3(s8), %1(s64), 1 :: (store unknown-size)\n  $x0 = COPY %0\n  RET_ReallyLR implicit $x0\n",
    );
    let tail = |value: &str| {
        func(&format!(
            "bb.0:\n  %0:_(p0) = COPY $x0\n  %1:_(s64) = COPY $x1\n  %2:_(s32) = COPY $w2\n  {value}\n  \
             $x0 = COPY %0\n  $w1 = COPY %9\n  $x2 = COPY %1\n  \
             TCRETURNdi &memset, 0, csr_aarch64_aapcs, implicit $sp, implicit $x0, implicit $w1, implicit $x2\n"
        ))
    };
    let abi = Abi::aarch64();
    let ins = random_inputs(&Program::new(&before), &abi, 64, 5);
    let good = tail("%9:_(s32) = COPY %2");
    let checked = check_equivalent(&Program::new(&before), &Program::new(&good), &abi, &ins).unwrap();
    assert!(checked.compared >= 4, "{checked:?}");
    let bad = tail("%8:_(s32) = G_CONSTANT i32 1\n  %9:_(s32) = G_ADD %2, %8");
    assert!(matches!(
        check_equivalent(&Program::new(&before), &Program::new(&bad), &abi, &ins),
        Err(CheckError::Mismatch(_))
    ));
}

#[test]
fn global_addresses_split_into_page_and_offset() {
    let before = func(
        "bb.0:\n  %0:_(p0) = G_GLOBAL_VALUE @g + 4100\n  %1:_(s32) = G_LOAD %0(p0) :: (load (s32))\n  \
         $w0 = COPY %1\n  RET_ReallyLR implicit $w0\n",
    );
    let split = |low: &str| {
        func(&format!(
            "bb.0:\n  %2:gpr64(p0) = ADRP target-flags(aarch64-page) @g + 4100\n  \
             %0:_(p0) = G_ADD_LOW %2(p0), target-flags(aarch64-pageoff, aarch64-nc) {low}\n  \
             %1:_(s32) = G_LOAD %0(p0) :: (load (s32))\n  $w0 = COPY %1\n  RET_ReallyLR implicit $w0\n"
        ))
    };
    let abi = Abi::aarch64();
    let ins = random_inputs(&Program::new(&before), &abi, 8, 2);
    let checked = check_equivalent(&Program::new(&before), &Program::new(&split("@g + 4100")), &abi, &ins).unwrap();
    assert_eq!(checked.compared, 8);
    let other = split("@h + 4100");
    assert!(matches!(
        check_equivalent(&Program::new(&before), &Program::new(&other), &abi, &ins),
        Err(CheckError::Mismatch(_))
    ));
}

#[test]
fn stack_objects_have_fixed_addresses() {
    let body = |first: usize, second: usize| {
        func(&format!(
            "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %stack.{first}\n  %1:_(p0) = G_FRAME_INDEX %stack.{second}\n  \
             %2:_(s64) = G_PTRTOINT %0(p0)\n  %3:_(s64) = G_PTRTOINT %1(p0)\n  \
             $x0 = COPY %2\n  $x1 = COPY %3\n  RET_ReallyLR implicit $x0, implicit $x1\n"
        ))
    };
    let (before, swapped) = (body(0, 1), body(1, 0));
    let abi = Abi::aarch64();
    let (b, s) = (run_on_program(&before, &abi), run_on_program(&swapped, &abi));
    assert_eq!((&b[0], &b[1]), (&s[1], &s[0]), "an object's address does not depend on the order of first use");
}

fn run_on_program(f: &Function, abi: &Abi) -> Vec<Value> {
    let out = run(&Program::new(f), abi, &inputs(&[]), &Options::default()).expect("runs");
    out.results.into_iter().map(|(_, v)| v).collect()
}

#[test]
fn jump_tables_and_indirect_branches() {
    let cases = "bb.1:\n  %2:_(s64) = G_CONSTANT i64 11\n  $x10 = COPY %2\n  PseudoRET implicit $x10\n\
                 bb.2:\n  %3:_(s64) = G_CONSTANT i64 22\n  $x10 = COPY %3\n  PseudoRET implicit $x10\n\
                 bb.3:\n  %4:_(s64) = G_CONSTANT i64 33\n  $x10 = COPY %4\n  PseudoRET implicit $x10\n";
    let before = func(&format!(
        "bb.0:\n  %0:_(s64) = COPY $x10\n  %1:_(p0) = G_JUMP_TABLE %jump-table.0\n  \
         G_BRJT %1(p0), %jump-table.0, %0(s64)\n{cases}"
    ));
    // RISC-V's lowering: load a 32-bit entry, branch to it.
    let lowered = |index: &str| {
        func(&format!(
            "bb.0:\n  %0:_(s64) = COPY $x10\n  %1:_(p0) = G_JUMP_TABLE %jump-table.0\n  {index}\n  \
             %5:_(s64) = G_CONSTANT i64 2\n  %6:_(s64) = G_SHL %9, %5(s64)\n  %7:_(p0) = G_PTR_ADD %1, %6(s64)\n  \
             %8:_(s64) = G_SEXTLOAD %7(p0) :: (load (s32) from jump-table)\n  %10:_(p0) = G_INTTOPTR %8(s64)\n  \
             G_BRINDIRECT %10(p0)\n{cases}"
        ))
    };
    let tables = [(0, vec!["%bb.1".to_owned(), "%bb.2".to_owned(), "%bb.3".to_owned()])];
    let program = |f| {
        let mut p = Program::new(f);
        p.symbols = p.symbols.with_jump_tables(Some(crate::ir::JumpTableKind::Custom32), &tables);
        p
    };
    let abi = Abi::riscv64();
    let ins: Vec<Inputs> = (0..2).map(|i| inputs(&[("x10", x(i))])).collect();
    let good = lowered("%9:_(s64) = COPY %0");
    let checked = check_equivalent(&program(&before), &program(&good), &abi, &ins).unwrap();
    assert_eq!(checked.compared, 2);
    let off_by_one = lowered("%11:_(s64) = G_CONSTANT i64 1\n  %9:_(s64) = G_ADD %0, %11");
    assert!(matches!(
        check_equivalent(&program(&before), &program(&off_by_one), &abi, &ins),
        Err(CheckError::Mismatch(_))
    ));
    // Past the end of the table, G_BRJT is undefined behaviour.
    let past = [inputs(&[("x10", x(3))])];
    assert_eq!(check_equivalent(&program(&before), &program(&good), &abi, &past).unwrap().skipped, 1);
}

/// A function that calls `callee` (`@f`, or `%p` for the pointer in `$x2`)
/// with `$x0` plus `addend` and `$w1`, and returns what it returns plus
/// one.
fn calling(callee: &str, addend: i64, call: &str) -> Function {
    func(&format!(
        "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = COPY $w1\n  %2:_(p0) = COPY $x2\n  \
         %3:_(s64) = G_CONSTANT i64 {addend}\n  %4:_(s64) = G_ADD %0, %3\n  \
         ADJCALLSTACKDOWN 0, 0, implicit-def $sp, implicit $sp\n  $x0 = COPY %4\n  $w1 = COPY %1\n  \
         {call} {callee}, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit $x0, implicit $w1, implicit-def $x0\n  \
         ADJCALLSTACKUP 0, 0, implicit-def $sp, implicit $sp\n  %5:_(s64) = COPY $x0\n  \
         %6:_(s64) = G_CONSTANT i64 1\n  %7:_(s64) = G_ADD %5, %6\n  $x0 = COPY %7\n  RET_ReallyLR implicit $x0\n"
    ))
}

#[test]
fn calls_to_unknown_functions_are_an_oracle() {
    let abi = Abi::aarch64();
    for (callee, call) in [("@f", "BL"), ("%2(p0)", "BLR")] {
        let before = calling(callee, 1, call);
        let ins = random_inputs(&Program::new(&before), &abi, 16, 4);
        // The same call made from a differently computed argument agrees.
        let same = func(&format!(
            "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(s32) = COPY $w1\n  %2:_(p0) = COPY $x2\n  \
             %3:_(s64) = G_CONSTANT i64 -1\n  %4:_(s64) = G_SUB %0, %3\n  $x0 = COPY %4\n  $w1 = COPY %1\n  \
             ADJCALLSTACKDOWN 0, 0, implicit-def $sp, implicit $sp\n  \
             {call} {callee}, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit $x0, implicit $w1, implicit-def $x0\n  \
             %5:_(s64) = COPY $x0\n  %6:_(s64) = G_CONSTANT i64 1\n  %7:_(s64) = G_ADD %6, %5\n  \
             $x0 = COPY %7\n  RET_ReallyLR implicit $x0\n"
        ));
        let checked = check_equivalent(&Program::new(&before), &Program::new(&same), &abi, &ins).unwrap();
        assert_eq!(checked.compared, 16, "{call}");
        // Another argument is another call.
        let other = calling(callee, 2, call);
        let err = check_equivalent(&Program::new(&before), &Program::new(&other), &abi, &ins).unwrap_err();
        assert!(err.to_string().contains("call #0") && err.to_string().contains("$x0 differs"), "{err}");
    }
    // Another callee, and a call left out.
    let g = calling("@g", 1, "BL");
    let before = calling("@f", 1, "BL");
    let ins = random_inputs(&Program::new(&before), &abi, 4, 4);
    let err = check_equivalent(&Program::new(&before), &Program::new(&g), &abi, &ins).unwrap_err();
    assert!(err.to_string().contains("another callee"), "{err}");
    let none = func("bb.0:\n  %0:_(s64) = COPY $x0\n  $x0 = COPY %0\n  RET_ReallyLR implicit $x0\n");
    let err = check_equivalent(&Program::new(&before), &Program::new(&none), &abi, &ins).unwrap_err();
    assert!(err.to_string().contains("made before but not after"), "{err}");
}

#[test]
fn calls_clobber_caller_saved_registers_and_see_memory() {
    let abi = Abi::aarch64();
    let body = |after_call: &str, store_first: bool| {
        let store = "%1:_(s64) = G_CONSTANT i64 5\n  G_STORE %1(s64), %0(p0) :: (store (s64))\n  ";
        let (early, late) = if store_first { (store, "") } else { ("", store) };
        func(&format!(
            "bb.0:\n  %0:_(p0) = COPY $x0\n  $x9 = COPY %0\n  $x19 = COPY %0\n  {early}\
             BL @f, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit $x0\n  {late}\
             %2:_(s64) = COPY ${after_call}\n  $x0 = COPY %2\n  RET_ReallyLR implicit $x0\n"
        ))
    };
    let ins = [inputs(&[("x0", x(0x1000))])];
    let out = run(&Program::new(&body("x9", true)), &abi, &ins[0], &Options::default()).unwrap();
    assert_eq!(out.results[0].1, Value::undef(64), "x9 is caller-saved");
    let out = run(&Program::new(&body("x19", true)), &abi, &ins[0], &Options::default()).unwrap();
    assert_eq!(out.results[0].1, x(0x1000), "x19 is callee-saved");
    assert_eq!(out.calls.len(), 1);
    // The callee may read what was stored before the call: a store moved
    // past it changes what it sees.
    let before = body("x19", true);
    let moved = body("x19", false);
    let err = check_equivalent(&Program::new(&before), &Program::new(&moved), &abi, &ins).unwrap_err();
    assert!(err.to_string().contains("memory at 0x1000"), "{err}");
}

#[test]
fn tail_calls_return_what_the_callee_returns() {
    let abi = Abi::aarch64();
    let tail = |arg: &str, call: &str| {
        func(&format!(
            "bb.0:\n  %0:_(s64) = COPY $x0\n  %1:_(p0) = COPY $x1\n  %2:_(s64) = G_CONSTANT i64 {arg}\n  \
             %3:_(s64) = G_AND %0, %2\n  $x0 = COPY %3\n  {call}, 0, csr_aarch64_aapcs, implicit $sp, implicit $x0\n"
        ))
    };
    for call in ["TCRETURNdi @f", "TCRETURNri %1(p0)"] {
        let before = tail("-1", call);
        let ins = random_inputs(&Program::new(&before), &abi, 8, 9);
        let out = run(&Program::new(&before), &abi, &ins[0], &Options::default()).unwrap();
        assert!(out.results.iter().any(|(r, v)| r == "x0" && v.is_defined()), "{call}: {:?}", out.results);
        assert!(check_equivalent(&Program::new(&before), &Program::new(&before), &abi, &ins).is_ok());
        let masked = tail("255", call);
        assert!(matches!(
            check_equivalent(&Program::new(&before), &Program::new(&masked), &abi, &ins),
            Err(CheckError::Mismatch(_))
        ));
    }
}

#[test]
fn va_start_writes_a_fixed_va_list() {
    // A field of the va_list G_VASTART initialises, read back.
    let field = |size: &str, offset: i64, ret: &str| {
        func(&format!(
            "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %stack.0\n  G_VASTART %0(p0) :: (store ({size}))\n  \
             %1:_(s64) = G_CONSTANT i64 {offset}\n  %2:_(p0) = G_PTR_ADD %0, %1(s64)\n  \
             %3:_(s64) = G_LOAD %2(p0) :: (load (s64))\n  {ret}\n"
        ))
    };
    let cases = [
        (Abi::aarch64(), "s256", "$x0 = COPY %3\n  RET_ReallyLR implicit $x0"),
        (Abi::riscv64(), "p0", "$x10 = COPY %3\n  PseudoRET implicit $x10"),
    ];
    for (abi, size, ret) in cases {
        let before = field(size, 0, ret);
        let ins = [inputs(&[])];
        let out = run(&Program::new(&before), &abi, &ins[0], &Options::default()).unwrap();
        assert!(out.results[0].1.is_defined(), "{}: the va_list points to the variadic arguments", abi.name);
        assert!(check_equivalent(&Program::new(&before), &Program::new(&field(size, 0, ret)), &abi, &ins).is_ok());
        // AArch64's offsets are zero: every argument comes from __stack.
        let other = field(size, if size == "p0" { 8 } else { 24 }, ret);
        assert!(matches!(
            check_equivalent(&Program::new(&before), &Program::new(&other), &abi, &ins),
            Err(CheckError::Mismatch(_))
        ));
    }
}

#[test]
fn stack_arguments_are_part_of_a_call() {
    let abi = Abi::aarch64();
    let passing = |value: i64| {
        func(&format!(
            "bb.0:\n  ADJCALLSTACKDOWN 8, 0, implicit-def $sp, implicit $sp\n  %0:_(p0) = COPY $sp\n  \
             %1:_(s64) = G_CONSTANT i64 {value}\n  G_STORE %1(s64), %0(p0) :: (store (s64) into stack)\n  \
             BL @f, csr_aarch64_aapcs, implicit-def $lr, implicit $sp, implicit-def $x0\n  \
             ADJCALLSTACKUP 8, 0, implicit-def $sp, implicit $sp\n  RET_ReallyLR implicit $x0\n"
        ))
    };
    let ins = [inputs(&[])];
    let out = run(&Program::new(&passing(7)), &abi, &ins[0], &Options::default()).unwrap();
    assert_eq!(out.calls[0].stack_args, Some(x(7)));
    assert!(check_equivalent(&Program::new(&passing(7)), &Program::new(&passing(7)), &abi, &ins).is_ok());
    let err = check_equivalent(&Program::new(&passing(7)), &Program::new(&passing(8)), &abi, &ins).unwrap_err();
    assert!(err.to_string().contains("stack arguments differ"), "{err}");
}

#[test]
fn a_block_without_successors_ends_in_a_call_that_does_not_return() {
    let body = |stored: i64| {
        func(&format!(
            "bb.0:\n  successors:\n  %0:_(p0) = COPY $x0\n  %1:_(s64) = G_CONSTANT i64 {stored}\n  \
             G_STORE %1(s64), %0(p0) :: (store (s64))\n  \
             BL @abort, csr_aarch64_aapcs, implicit-def $lr, implicit $sp\n\
             bb.1:\n  %2:_(s64) = G_CONSTANT i64 2\n  G_STORE %2(s64), %0(p0) :: (store (s64))\n  \
             RET_ReallyLR\n"
        ))
    };
    let abi = Abi::aarch64();
    let ins = [inputs(&[("x0", x(0x1000))])];
    let out = run(&Program::new(&body(1)), &abi, &ins[0], &Options::default()).expect("ends at the call");
    assert_eq!(out.memory.read(0x1000, 8), x(1), "the next block is not run");
    assert!(check_equivalent(&Program::new(&body(1)), &Program::new(&body(1)), &abi, &ins).is_ok());
    assert!(check_equivalent(&Program::new(&body(1)), &Program::new(&body(3)), &abi, &ins).is_err());
}

#[test]
fn an_undefined_comparison_is_still_zero_or_one() {
    let body = "bb.0:\n  %0:_(s64) = G_IMPLICIT_DEF\n  %1:_(s64) = G_CONSTANT i64 0\n  \
                %2:_(s64) = G_ICMP intpred(eq), %0(s64), %1\n  $x10 = COPY %2\n  PseudoRET implicit $x10\n";
    let out = run(&Program::new(&func(body)), &Abi::riscv64(), &inputs(&[]), &Options::default()).unwrap();
    let result = &out.results[0].1;
    assert!(!result.bit_defined(0) && result.extract(1, 63) == Value::from_u128(63, 0), "{result}");
}
