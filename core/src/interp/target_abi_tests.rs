//! Tests of the X86 and Arm calling conventions: functions as llc 22
//! legalizes them, with libcalls whose arguments travel in registers and
//! on the stack, checked equivalent to their input; and the same
//! functions with an argument or result misplaced, which must not be.

use super::*;
use crate::mir::parse_body;

fn func(body: &str, pointer_bits: u32) -> Function {
    match parse_body("f", body, &[], &|_| pointer_bits) {
        Ok(f) => f,
        Err(e) => panic!("bad test body: {e:?}"),
    }
}

/// Checks `after` against `before` on 64 random inputs: `Ok` with the
/// number of inputs compared, or the mismatch.
fn check(before: &str, after: &str, abi: &Abi) -> Result<usize, String> {
    let (before, after) = (func(before, abi.pointer_bits), func(after, abi.pointer_bits));
    let inputs = random_inputs(&Program::new(&before), abi, 64, 11);
    match check_equivalent(&Program::new(&before), &Program::new(&after), abi, &inputs) {
        Ok(checked) => Ok(checked.compared),
        Err(e) => Err(e.to_string()),
    }
}

const X86_64_SDIV_S128: &str = "bb.0:\n  liveins: $rdi, $rsi, $rdx, $rcx\n  %0:_(s64) = COPY $rdi\n  \
    %1:_(s64) = COPY $rsi\n  %2:_(s128) = G_MERGE_VALUES %0(s64), %1(s64)\n  %3:_(s64) = COPY $rdx\n  \
    %4:_(s64) = COPY $rcx\n  %5:_(s128) = G_MERGE_VALUES %3(s64), %4(s64)\n  %6:_(s128) = G_SDIV %2, %5\n  \
    %7:_(s64), %8:_(s64) = G_UNMERGE_VALUES %6(s128)\n  $rax = COPY %7(s64)\n  $rdx = COPY %8(s64)\n  \
    RET 0, implicit $rax, implicit $rdx\n";

/// `G_SDIV` of `s128` as `__divti3`, the divisor in `rdx:rcx` (`swap`
/// passes it in `rdi:rsi` instead).
fn x86_64_divti3(swap: bool) -> String {
    let (a, b) = if swap { ("%3", "%0") } else { ("%0", "%3") };
    let (c, d) = if swap { ("%4", "%1") } else { ("%1", "%4") };
    format!(
        "bb.0:\n  liveins: $rdi, $rsi, $rdx, $rcx\n  %0:_(s64) = COPY $rdi\n  %1:_(s64) = COPY $rsi\n  \
         %3:_(s64) = COPY $rdx\n  %4:_(s64) = COPY $rcx\n  \
         ADJCALLSTACKDOWN64 0, 0, 0, implicit-def $rsp, implicit-def $eflags, implicit-def $ssp, implicit $rsp, \
         implicit $ssp\n  $rdi = COPY {a}(s64)\n  $rsi = COPY {c}(s64)\n  $rdx = COPY {b}(s64)\n  \
         $rcx = COPY {d}(s64)\n  CALL64pcrel32 &__divti3, csr_64, implicit $rsp, implicit $ssp, implicit $rdi, \
         implicit $rsi, implicit $rdx, implicit $rcx, implicit-def $rax, implicit-def $rdx\n  \
         %10:_(s64) = COPY $rax\n  %11:_(s64) = COPY $rdx\n  \
         ADJCALLSTACKUP64 0, 0, implicit-def $rsp, implicit-def $eflags, implicit-def $ssp, implicit $rsp, \
         implicit $ssp\n  $rax = COPY %10(s64)\n  $rdx = COPY %11(s64)\n  RET 0, implicit $rax, implicit $rdx\n"
    )
}

#[test]
fn x86_64_passes_integers_in_registers() {
    let abi = Abi::x86_64();
    let compared = check(X86_64_SDIV_S128, &x86_64_divti3(false), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    let err = check(X86_64_SDIV_S128, &x86_64_divti3(true), &abi).unwrap_err();
    assert!(err.contains("mismatch"), "{err}");
}

const I386_SDIV_S64: &str = "bb.0:\n  liveins: $eax, $ecx, $edx, $ebx\n  %0:_(s32) = COPY $eax\n  \
    %1:_(s32) = COPY $ecx\n  %2:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  %3:_(s32) = COPY $edx\n  \
    %4:_(s32) = COPY $ebx\n  %5:_(s64) = G_MERGE_VALUES %3(s32), %4(s32)\n  %6:_(s64) = G_SDIV %2, %5\n  \
    %7:_(s32), %8:_(s32) = G_UNMERGE_VALUES %6(s64)\n  $eax = COPY %7(s32)\n  $edx = COPY %8(s32)\n  \
    RET 0, implicit $eax, implicit $edx\n";

/// `G_SDIV` of `s64` as `__divdi3`, llc 22's output: the four halves
/// stored at `$esp` + 0, 4, 8 and 12 (`offsets` moves them).
fn i386_divdi3(offsets: [u32; 4]) -> String {
    let mut body = "bb.0:\n  liveins: $eax, $ecx, $edx, $ebx\n  %0:_(s32) = COPY $eax\n  %1:_(s32) = COPY $ecx\n  \
                    %3:_(s32) = COPY $edx\n  %4:_(s32) = COPY $ebx\n  \
                    ADJCALLSTACKDOWN32 16, 0, 0, implicit-def $esp, implicit-def $eflags, implicit-def $ssp, \
                    implicit $esp, implicit $ssp\n"
        .to_owned();
    for (i, (value, offset)) in ["%0", "%1", "%3", "%4"].iter().zip(offsets).enumerate() {
        body += &format!(
            "  %{sp}:_(p0) = COPY $esp\n  %{k}:_(s32) = G_CONSTANT i32 {offset}\n  \
             %{addr}:_(p0) = G_PTR_ADD %{sp}, %{k}(s32)\n  \
             G_STORE {value}(s32), %{addr}(p0) :: (store (s32) into stack + {offset}, align 1)\n",
            sp = 10 + 3 * i,
            k = 11 + 3 * i,
            addr = 12 + 3 * i,
        );
    }
    body + "  CALLpcrel32 &__divdi3, csr_32, implicit $esp, implicit $ssp, implicit-def $eax, implicit-def $edx\n  \
            %25:_(s32) = COPY $eax\n  %26:_(s32) = COPY $edx\n  \
            ADJCALLSTACKUP32 16, 0, implicit-def $esp, implicit-def $eflags, implicit-def $ssp, implicit $esp, \
            implicit $ssp\n  $eax = COPY %25(s32)\n  $edx = COPY %26(s32)\n  RET 0, implicit $eax, implicit $edx\n"
}

#[test]
fn i386_passes_libcall_arguments_on_the_stack() {
    let abi = Abi::i386();
    let compared = check(I386_SDIV_S64, &i386_divdi3([0, 4, 8, 12]), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    // The dividend's halves swapped on the stack.
    let err = check(I386_SDIV_S64, &i386_divdi3([4, 0, 8, 12]), &abi).unwrap_err();
    assert!(err.contains("mismatch"), "{err}");
}

const ARM_SREM_S32: &str = "bb.0:\n  liveins: $r0, $r1\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  \
    %2:_(s32) = G_SREM %0, %1\n  $r0 = COPY %2(s32)\n  BX_RET 14 /* CC::al */, $noreg, implicit $r0\n";

/// `G_SREM` as `__aeabi_idivmod`, the remainder taken from `result`.
fn arm_idivmod(result: &str) -> String {
    format!(
        "bb.0:\n  liveins: $r0, $r1\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = COPY $r1\n  \
         ADJCALLSTACKDOWN 0, 0, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
         $r0 = COPY %0(s32)\n  $r1 = COPY %1(s32)\n  \
         tBL 14 /* CC::al */, $noreg, &__aeabi_idivmod, csr_aapcs, implicit-def $lr, implicit $sp, \
         implicit $r0, implicit $r1, implicit-def $r0, implicit-def $r1\n  %2:_(s32) = COPY ${result}\n  \
         ADJCALLSTACKUP 0, -1, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
         $r0 = COPY %2(s32)\n  tBX_RET 14 /* CC::al */, $noreg, implicit $r0\n"
    )
}

#[test]
fn arm_divmod_returns_the_remainder_in_r1() {
    let abi = Abi::arm();
    let compared = check(ARM_SREM_S32, &arm_idivmod("r1"), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    let err = check(ARM_SREM_S32, &arm_idivmod("r0"), &abi).unwrap_err();
    assert!(err.contains("mismatch"), "{err}");
}

const ARM_FMA_S32: &str = "bb.0:\n  liveins: $s0, $s1, $s2\n  %0:_(s32) = COPY $s0\n  %1:_(s32) = COPY $s1\n  \
    %2:_(s32) = COPY $s2\n  %3:_(s32) = G_FMA %0, %1, %2\n  $s0 = COPY %3(s32)\n  \
    BX_RET 14 /* CC::al */, $noreg, implicit $s0\n";

/// `G_FMA` as `fmaf` under AAPCS-VFP, its operands written to
/// `registers` in that order.
fn arm_fmaf(registers: [&str; 3]) -> String {
    let [a, b, c] = registers;
    format!(
        "bb.0:\n  liveins: $s0, $s1, $s2\n  %0:_(s32) = COPY $s0\n  %1:_(s32) = COPY $s1\n  %2:_(s32) = COPY $s2\n  \
         ADJCALLSTACKDOWN 0, 0, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
         ${a} = COPY %0(s32)\n  ${b} = COPY %1(s32)\n  ${c} = COPY %2(s32)\n  \
         BL &fmaf, csr_aapcs, implicit-def $lr, implicit $sp, implicit $s0, implicit $s1, implicit $s2, \
         implicit-def $s0\n  %3:_(s32) = COPY $s0\n  \
         ADJCALLSTACKUP 0, -1, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
         $s0 = COPY %3(s32)\n  BX_RET 14 /* CC::al */, $noreg, implicit $s0\n"
    )
}

#[test]
fn arm_single_registers_are_halves_of_one_unit() {
    let abi = Abi::arm();
    // `s1` is written after `s0` and `s2` after both: each keeps the others.
    let compared = check(ARM_FMA_S32, &arm_fmaf(["s0", "s1", "s2"]), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    let err = check(ARM_FMA_S32, &arm_fmaf(["s0", "s2", "s1"]), &abi).unwrap_err();
    assert!(err.contains("mismatch"), "{err}");
}

#[test]
fn call_frames_lower_the_stack_pointer_below_allocations() {
    // A block allocated before the call keeps its contents while the
    // call's stack arguments are stored.
    let body = "bb.0:\n  liveins: $r0, $r1\n  %0:_(s32) = COPY $r0\n  %1:_(s32) = G_CONSTANT i32 8\n  \
                %2:_(p0) = G_DYN_STACKALLOC %1(s32), 8\n  G_STORE %0(s32), %2(p0) :: (store (s32))\n  \
                ADJCALLSTACKDOWN 4, 0, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
                %3:_(p0) = COPY $sp\n  %4:_(s32) = G_CONSTANT i32 0\n  G_STORE %4(s32), %3(p0) :: (store (s32))\n  \
                ADJCALLSTACKUP 4, -1, 14 /* CC::al */, $noreg, implicit-def $sp, implicit $sp\n  \
                %5:_(s32) = G_LOAD %2(p0) :: (load (s32))\n  $r0 = COPY %5(s32)\n  \
                BX_RET 14 /* CC::al */, $noreg, implicit $r0\n";
    let f = func(body, 32);
    let ins = Inputs { regs: vec![("r0".into(), Value::from_u128(32, 5))], stack: Vec::new(), memory_seed: 1 };
    let out = run(&Program::new(&f), &Abi::arm(), &ins, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.results, vec![("r0".to_owned(), Value::from_u128(32, 5))]);
}

const X86_64_FPEXT_S80: &str = "bb.0:\n  liveins: $fp0\n  %0:_(s80) = COPY $fp0\n  %1:_(s128) = G_FPEXT %0(s80)\n  \
    %2:_(s64), %3:_(s64) = G_UNMERGE_VALUES %1(s128)\n  $rax = COPY %2(s64)\n  $rdx = COPY %3(s64)\n  \
    RET 0, implicit $rax, implicit $rdx\n";

/// `G_FPEXT` of `x86_fp80` as `__extendxftf2`, llc 22's output: the
/// operand in 16 bytes of stack (`offset` moves it), the result in `xmm0`.
fn x86_64_extendxftf2(offset: u32) -> String {
    format!(
        "bb.0:\n  liveins: $fp0\n  %0:_(s80) = COPY $fp0\n  \
         ADJCALLSTACKDOWN64 16, 0, 0, implicit-def $rsp, implicit-def $eflags, implicit-def $ssp, implicit $rsp, \
         implicit $ssp\n  %4:_(p0) = COPY $rsp\n  %5:_(s64) = G_CONSTANT i64 {offset}\n  \
         %6:_(p0) = G_PTR_ADD %4, %5(s64)\n  G_STORE %0(s80), %6(p0) :: (store (s80) into stack, align 1)\n  \
         CALL64pcrel32 &__extendxftf2, csr_64, implicit $rsp, implicit $ssp, implicit-def $xmm0\n  \
         %1:_(s128) = COPY $xmm0\n  \
         ADJCALLSTACKUP64 16, 0, implicit-def $rsp, implicit-def $eflags, implicit-def $ssp, implicit $rsp, \
         implicit $ssp\n  %2:_(s64), %3:_(s64) = G_UNMERGE_VALUES %1(s128)\n  $rax = COPY %2(s64)\n  \
         $rdx = COPY %3(s64)\n  RET 0, implicit $rax, implicit $rdx\n"
    )
}

#[test]
fn x86_64_passes_x87_values_on_the_stack() {
    let abi = Abi::x86_64();
    let compared = check(X86_64_FPEXT_S80, &x86_64_extendxftf2(0), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    let err = check(X86_64_FPEXT_S80, &x86_64_extendxftf2(2), &abi).unwrap_err();
    assert!(err.contains("mismatch"), "{err}");
}

const I386_MEMSET: &str = "bb.0:\n  liveins: $eax, $ecx\n  %0:_(s32) = COPY $eax\n  %1:_(s8) = G_TRUNC %0(s32)\n  \
    %2:_(s32) = COPY $ecx\n  %3:_(p0) = G_INTTOPTR %2(s32)\n  %4:_(s32) = G_CONSTANT i32 16\n  \
    G_MEMSET %3(p0), %1(s8), %4(s32), 0 :: (store unknown-size)\n  RET 0\n";

/// `G_MEMSET` as a call of `memset`, its destination, byte and length
/// stored at `$esp` + 0, 4 and 8 (`order` permutes the values).
fn i386_memset(order: [&str; 3]) -> String {
    let mut body = "bb.0:\n  liveins: $eax, $ecx\n  %0:_(s32) = COPY $eax\n  %2:_(s32) = COPY $ecx\n  \
                    %3:_(p0) = G_INTTOPTR %2(s32)\n  %4:_(s32) = G_CONSTANT i32 16\n  \
                    ADJCALLSTACKDOWN32 12, 0, 0, implicit-def $esp, implicit-def $eflags, implicit-def $ssp, \
                    implicit $esp, implicit $ssp\n"
        .to_owned();
    for (i, value) in order.iter().enumerate() {
        let ty = if *value == "%3" { "p0" } else { "s32" };
        body += &format!(
            "  %{sp}:_(p0) = COPY $esp\n  %{k}:_(s32) = G_CONSTANT i32 {offset}\n  \
             %{addr}:_(p0) = G_PTR_ADD %{sp}, %{k}(s32)\n  \
             G_STORE {value}({ty}), %{addr}(p0) :: (store ({ty}) into stack + {offset}, align 1)\n",
            sp = 10 + 3 * i,
            k = 11 + 3 * i,
            addr = 12 + 3 * i,
            offset = 4 * i,
        );
    }
    body + "  CALLpcrel32 &memset, csr_32, implicit $esp, implicit $ssp, implicit-def $eax\n  \
            ADJCALLSTACKUP32 12, 0, implicit-def $esp, implicit-def $eflags, implicit-def $ssp, implicit $esp, \
            implicit $ssp\n  RET 0\n"
}

#[test]
fn i386_memory_functions_take_their_arguments_from_the_stack() {
    let abi = Abi::i386();
    let compared = check(I386_MEMSET, &i386_memset(["%3", "%0", "%4"]), &abi).unwrap_or_else(|e| panic!("{e}"));
    assert!(compared >= 32, "{compared} inputs compared");
    // The byte and the length swapped: a 16-byte fill becomes a fill of
    // up to 4 KiB of byte 16, or a step limit.
    assert!(check(I386_MEMSET, &i386_memset(["%3", "%4", "%0"]), &abi).is_err());
}

#[test]
fn x86_immediate_moves_set_registers() {
    let body = "bb.0:\n  $al = MOV8ri 3\n  $ecx = MOV32ri -1\n  RET 0, implicit $al, implicit $ecx\n";
    let f = func(body, 64);
    let ins = Inputs { regs: Vec::new(), stack: Vec::new(), memory_seed: 1 };
    let out = run(&Program::new(&f), &Abi::x86_64(), &ins, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let values: Vec<Value> = out.results.into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, [Value::from_u128(8, 3), Value::from_i128(32, -1)]);
}

#[test]
fn incoming_stack_arguments_are_inputs() {
    // i386 passes every argument on the stack: a function reading one
    // compares defined values, not undefined ones.
    let body = "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %fixed-stack.0\n  \
                %1:_(s32) = G_LOAD %0(p0) :: (load (s32) from %fixed-stack.0)\n  %2:_(s32) = G_ADD %1, %1\n  \
                $eax = COPY %2(s32)\n  RET 0, implicit $eax\n";
    let f = func(body, 32);
    let ins = Inputs { regs: Vec::new(), stack: Vec::new(), memory_seed: 7 };
    let out = run(&Program::new(&f), &Abi::i386(), &ins, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.results[0].1.is_defined(), "{:?}", out.results);
}

/// An i386 function adding its `s64` argument (low half in `%fixed-stack`
/// `objects[0]`, high half in `objects[1]`) to itself as many times as its
/// `s32` argument (in `objects[2]`) says, comparing with `pred`.
fn i386_sum_to_stack_bound(objects: [u32; 3], pred: &str) -> Function {
    let [lo, hi, n] = objects;
    func(
        &format!(
            "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %fixed-stack.{lo}\n  \
             %1:_(s32) = G_LOAD %0(p0) :: (invariant load (s32) from %fixed-stack.{lo}, align 16)\n  \
             %2:_(p0) = G_FRAME_INDEX %fixed-stack.{hi}\n  \
             %3:_(s32) = G_LOAD %2(p0) :: (invariant load (s32) from %fixed-stack.{hi})\n  \
             %4:_(s64) = G_MERGE_VALUES %1(s32), %3(s32)\n  %5:_(p0) = G_FRAME_INDEX %fixed-stack.{n}\n  \
             %6:_(s32) = G_LOAD %5(p0) :: (invariant load (s32) from %fixed-stack.{n}, align 8)\n  \
             %7:_(s32) = G_CONSTANT i32 1\n  %8:_(s32) = G_CONSTANT i32 0\n  %9:_(s64) = G_CONSTANT i64 0\n\n\
             bb.1:\n  %10:_(s32) = G_PHI %8(s32), %bb.0, %13(s32), %bb.1\n  \
             %11:_(s64) = G_PHI %9(s64), %bb.0, %12(s64), %bb.1\n  %12:_(s64) = G_ADD %11, %4\n  \
             %13:_(s32) = G_ADD %10, %7\n  %14:_(s1) = G_ICMP intpred({pred}), %13(s32), %6\n  \
             G_BRCOND %14(s1), %bb.2\n  G_BR %bb.1\n\n\
             bb.2:\n  %15:_(s32), %16:_(s32) = G_UNMERGE_VALUES %12(s64)\n  $eax = COPY %15(s32)\n  \
             $edx = COPY %16(s32)\n  RET 0, implicit $eax, implicit $edx\n"
        ),
        32,
    )
}

/// `func` with its fixed objects at these offsets, as a `fixedStack:`
/// header places them.
fn with_offsets<'f>(func: &'f Function, offsets: [(u32, i64); 3]) -> Program<'f> {
    Program { fixed_objects: FixedObjects::new(offsets), ..Program::new(func) }
}

/// The objects as llc's IRTranslator numbers them (the first argument
/// last) and as llc and gisel print them after (renumbered in reverse).
const IRTRANSLATED: ([u32; 3], [(u32, i64); 3]) = ([2, 1, 0], [(0, 8), (1, 4), (2, 0)]);
const REPRINTED: ([u32; 3], [(u32, i64); 3]) = ([0, 1, 2], [(0, 0), (1, 4), (2, 8)]);

#[test]
fn stack_inputs_are_the_initial_contents_at_their_offsets() {
    let f = i386_sum_to_stack_bound(IRTRANSLATED.0, "uge");
    let stack = vec![(0, Value::from_u128(32, 5)), (4, Value::from_u128(32, 1)), (8, Value::from_u128(32, 3))];
    let ins = Inputs { regs: Vec::new(), stack, memory_seed: 7 };
    let program = with_offsets(&f, IRTRANSLATED.1);
    let out = run(&program, &Abi::i386(), &ins, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let sum = 3 * ((1u128 << 32) + 5);
    let values: Vec<Value> = out.results.into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, [Value::from_u128(32, sum & 0xffff_ffff), Value::from_u128(32, sum >> 32)]);
}

#[test]
fn a_loop_bounded_by_a_stack_argument_is_checked() {
    // The bound is a chosen input: 0, -1, 1 first, then small numbers,
    // powers of two and edge values, so many inputs end within the limit
    // (as random memory, none did).
    let abi = Abi::i386();
    let before = i386_sum_to_stack_bound(IRTRANSLATED.0, "uge");
    let before = with_offsets(&before, IRTRANSLATED.1);
    let inputs = random_inputs(&before, &abi, 64, 11);
    let bounds: Vec<&Value> =
        inputs.iter().take(3).map(|i| &i.stack.iter().find(|(o, _)| *o == 8).unwrap().1).collect();
    assert_eq!(bounds, [&Value::from_u128(32, 0), &Value::from_i128(32, -1), &Value::from_u128(32, 1)]);
    // Renumbered objects are the same arguments: the function agrees
    // with itself as printed again.
    let same = i386_sum_to_stack_bound(REPRINTED.0, "uge");
    let checked =
        check_equivalent(&before, &with_offsets(&same, REPRINTED.1), &abi, &inputs).unwrap_or_else(|e| panic!("{e}"));
    assert!(checked.compared >= 16, "{checked:?}");
    // One more iteration: the mismatch names the stack input that shows it.
    let wrong = i386_sum_to_stack_bound(REPRINTED.0, "ugt");
    let err = check_equivalent(&before, &with_offsets(&wrong, REPRINTED.1), &abi, &inputs).unwrap_err();
    assert!(err.to_string().contains("stack+8="), "{err}");
}
