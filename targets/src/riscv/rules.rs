//! LLVM 22's RISC-V legality rules (`RISCVLegalizerInfo.cpp`), in LLVM's
//! rule order, parameterised by the [`Subtarget`]. LLVM's bool-gated
//! overloads (`customFor(ST.is64Bit(), {s32})`) become gated rules
//! (`custom_for(if st.is_64bit(), s32)`); `if` blocks remain where the
//! whole rule set differs per configuration.
//!
//! The V extension's rules cover LLVM's scalable integer/FP vectors
//! (`nxv{1..64}s{8..64}`, at most eight vector registers) and mask vectors
//! (`nxv{1..64}s1`), as the named type lists `int_vecs` and `bool_vecs`;
//! see their definitions for the ELEN condition.

use gisel_core::prelude::*;
use gisel_macros::legalizer;

use super::subtarget::Subtarget;

legalizer! {
    /// The RISC-V rules for `st`.
    pub fn riscv(st: &Subtarget) -> LegalizerInfo {
        custom = crate::riscv::hooks::RiscvHooks;
        pointer_bits = st.xlen();

        let xlen = if st.is_64bit() { s64 } else { s32 };
        let s2xlen = if st.is_64bit() { s128 } else { s64 };
        // Scalar memory accesses need natural alignment unless unaligned
        // scalar accesses are enabled.
        let unaligned = st.enable_unaligned_scalar_mem();
        let a16 = if unaligned { 8 } else { 16 };
        let a32 = if unaligned { 8 } else { 32 };
        let a64 = if unaligned { 8 } else { 64 };
        let axlen = if unaligned { 8 } else { u64::from(st.xlen()) };
        // The widest scalar a select or phi may keep: s64 with RV64 or D.
        let wide_fp_reg = if st.is_64bit() || st.has_d() { s64 } else { s32 };
        // Floating-point types per extension (see the FP section).
        let f16 = if st.has_zfh() { s16 } else { Llt::INVALID };
        let f32 = if st.has_f() { s32 } else { Llt::INVALID };
        let f64 = if st.has_d() { s64 } else { Llt::INVALID };
        let fp = [f32, f64, f16];
        let zfa16 = if st.has_zfa() && st.has_zfh() { s16 } else { Llt::INVALID };
        let zfa32 = if st.has_zfa() { s32 } else { Llt::INVALID };
        let zfa64 = if st.has_zfa() && st.has_d() { s64 } else { Llt::INVALID };
        let zfa_fp = [zfa32, zfa64, zfa16];

        // V extension types: LLVM's `IntOrFPVecTys` and `BoolVecTys`, by
        // element type; the rules that use them are gated on `v`. LLVM's
        // `typeIsLegalIntOrFPVec`/`typeIsLegalBoolVec` also refuse
        // one-per-vscale vectors without ELEN 64 and 64-bit elements without
        // `Zve64x` (which is what gives ELEN 64): those members are gated on
        // `e64`.
        let v = st.has_v_instructions();
        let e64 = st.has_v_instructions_i64();
        let s8_vecs = [[if e64, nxv1s8], nxv2s8, nxv4s8, nxv8s8, nxv16s8, nxv32s8, nxv64s8];
        let s16_vecs = [[if e64, nxv1s16], nxv2s16, nxv4s16, nxv8s16, nxv16s16, nxv32s16];
        let s32_vecs = [[if e64, nxv1s32], nxv2s32, nxv4s32, nxv8s32, nxv16s32];
        let s64_vecs = [if e64, nxv1s64, nxv2s64, nxv4s64, nxv8s64];
        let int_vecs = [s8_vecs, s16_vecs, s32_vecs, s64_vecs];
        let bool_vecs = [[if e64, nxv1s1], nxv2s1, nxv4s1, nxv8s1, nxv16s1, nxv32s1, nxv64s1];
        // Pointer vectors (LLVM's `typeIsLegalPtrVec`) need XLEN-sized
        // elements: one-per-vscale ones ELEN 64 as above, sixteen-per-vscale
        // ones 32-bit pointers (eight vector registers).
        let ptr_vectors = v && st.xlen() <= st.elen();
        let ptr_vecs = [[if e64, nxv1p0], nxv2p0, nxv4p0, nxv8p0, [if !st.is_64bit(), nxv16p0]];

        // ----- integer arithmetic -----

        G_ADD | G_SUB => legal_for(xlen)
            .legal_for(if v, int_vecs)
            .custom_for(if st.is_64bit(), s32)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, xlen, xlen);

        G_AND | G_OR | G_XOR => legal_for(xlen)
            .legal_for(if v, int_vecs)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, xlen, xlen);

        G_UADDE | G_UADDO | G_USUBE | G_USUBO => lower();
        G_READ_REGISTER | G_WRITE_REGISTER => lower();

        G_SADDE | G_SADDO | G_SSUBE | G_SSUBO => min_scalar(0, xlen).lower();

        G_UADDSAT | G_SADDSAT | G_USUBSAT | G_SSUBSAT => lower();
        G_SSHLSAT | G_USHLSAT => lower();

        G_SHL | G_ASHR | G_LSHR => legal_for((xlen, xlen))
            .custom_for(if st.is_64bit(), (s32, s32))
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(1, xlen, xlen)
            .clamp_scalar(0, xlen, xlen);

        G_ZEXT | G_SEXT | G_ANYEXT => legal_for((s32, s16))
            .legal_for(if st.is_64bit(), (s64, [s16, s32]))
            .legal_for_cartesian_product(if v, int_vecs, int_vecs)
            // A mask vector extends by a select between splats.
            .custom_for_cartesian_product(if v, int_vecs, bool_vecs)
            .max_scalar(0, xlen);

        G_TRUNC => always_legal();

        // Legal for `sext.w` (RV64, from 32 bits) and Zbb's `sext.b`/`sext.h`;
        // the hook lowers the rest to a shift pair.
        G_SEXT_INREG => custom_for(xlen).clamp_scalar(0, xlen, xlen).lower();

        // RV32 with D merges and splits s64 in FP registers.
        let rv32_d = !st.is_64bit() && st.has_d();
        G_MERGE_VALUES => legal_for(if rv32_d, (s64, s32))
            .widen_scalar_to_next_pow2(1, { st.xlen() })
            .widen_scalar_to_next_pow2(0, { st.xlen() })
            .clamp_scalar(1, xlen, xlen)
            .clamp_scalar(0, xlen, xlen);
        G_UNMERGE_VALUES => legal_for(if rv32_d, (s32, s64))
            .widen_scalar_to_next_pow2(0, { st.xlen() })
            .widen_scalar_to_next_pow2(1, { st.xlen() })
            .clamp_scalar(0, xlen, xlen)
            .clamp_scalar(1, xlen, xlen);

        G_FSHL | G_FSHR => lower();

        G_ROTR | G_ROTL => legal_for(if st.has_rotates(), (xlen, xlen))
            .custom_for(if st.is_64bit() && st.has_rotates(), (s32, s32))
            .lower();

        G_BITREVERSE => custom_for(if st.has_zbkb(), s8).max_scalar(0, xlen).lower();

        // Without V no bitcast is legal (LLVM's only rule is the vector one).
        if v {
            G_BITCAST => legal_for_cartesian_product([int_vecs, bool_vecs]);
        }

        if st.has_rotates() {
            G_BSWAP => legal_for(xlen).clamp_scalar(0, xlen, xlen);
        } else {
            G_BSWAP => max_scalar(0, xlen).lower();
        }

        if st.has_zbb() {
            G_CTLZ | G_CTTZ => legal_for((xlen, xlen))
                .custom_for((s32, s32))
                .clamp_scalar(0, s32, xlen)
                .widen_scalar_to_next_pow2(0)
                .scalar_same_size_as(1, 0);
            G_CTLZ_ZERO_UNDEF | G_CTTZ_ZERO_UNDEF => lower();
            G_CTPOP => legal_for((xlen, xlen))
                .clamp_scalar(0, xlen, xlen)
                .scalar_same_size_as(1, 0);
        } else {
            G_CTLZ | G_CTTZ => max_scalar(0, xlen).scalar_same_size_as(1, 0).lower();
            G_CTLZ_ZERO_UNDEF | G_CTTZ_ZERO_UNDEF => max_scalar(0, xlen).scalar_same_size_as(1, 0).lower();
            G_CTPOP => widen_scalar_to_next_pow2(0, 8)
                .clamp_scalar(0, s8, xlen)
                .scalar_same_size_as(1, 0)
                .lower();
        }

        G_CONSTANT => legal_for(p0)
            .legal_for(if !st.is_64bit(), s32)
            .custom_for(if st.is_64bit(), s64)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, xlen, xlen);

        G_FREEZE => legal_for(s16, s32, p0)
            .legal_for(if st.is_64bit(), s64)
            .legal_for(if v, bool_vecs, int_vecs)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s16, xlen);
        G_IMPLICIT_DEF | G_CONSTANT_FOLD_BARRIER => legal_for(s32, p0)
            .legal_for(if st.is_64bit(), s64)
            .legal_for(if v, bool_vecs, int_vecs)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, xlen);

        G_ICMP => legal_for((xlen, xlen), (xlen, p0))
            .legal_for_cartesian_product(if v, bool_vecs, int_vecs)
            .widen_scalar_or_elt_to_next_pow2_or_min_size(1, 8)
            .clamp_scalar(1, xlen, xlen)
            .clamp_scalar(0, xlen, xlen);

        G_SELECT => legal_for((s32, xlen), (p0, xlen))
            .legal_for_cartesian_product(if v, int_vecs, bool_vecs)
            .legal_for(if st.is_64bit() || st.has_d(), (s64, xlen))
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, wide_fp_reg)
            .clamp_scalar(1, xlen, xlen);

        // ----- memory -----

        G_LOAD => legal_for_types_with_mem_desc(
                (s16, p0, s8, 8),
                (s32, p0, s8, 8),
                (s16, p0, s16, { a16 }),
                (s32, p0, s16, { a16 }),
                (s32, p0, s32, { a32 }),
                (p0, p0, xlen, { axlen }),
            )
            .legal_for_types_with_mem_desc(
                if st.is_64bit(),
                (s64, p0, s8, 8),
                (s64, p0, s16, { a16 }),
                (s64, p0, s32, { a32 }),
                (s64, p0, s64, { a64 }),
            )
            .legal_for_types_with_mem_desc(if !st.is_64bit() && st.has_d(), (s64, p0, s64, { a64 }))
            // Vectors aligned to their element; the hook keeps other element-
            // aligned accesses (another memory type) and reads the rest as bytes.
            .legal_for_types_with_mem_desc(
                if v,
                (nxv2s8, p0, nxv2s8, 8), (nxv4s8, p0, nxv4s8, 8), (nxv8s8, p0, nxv8s8, 8), (nxv16s8, p0, nxv16s8, 8),
                (nxv32s8, p0, nxv32s8, 8), (nxv64s8, p0, nxv64s8, 8), (nxv2s16, p0, nxv2s16, 16),
                (nxv4s16, p0, nxv4s16, 16), (nxv8s16, p0, nxv8s16, 16), (nxv16s16, p0, nxv16s16, 16),
                (nxv32s16, p0, nxv32s16, 16), (nxv2s32, p0, nxv2s32, 32), (nxv4s32, p0, nxv4s32, 32),
                (nxv8s32, p0, nxv8s32, 32), (nxv16s32, p0, nxv16s32, 32),
            )
            .legal_for_types_with_mem_desc(
                if v && e64,
                (nxv1s8, p0, nxv1s8, 8), (nxv1s16, p0, nxv1s16, 16), (nxv1s32, p0, nxv1s32, 32),
                (nxv1s64, p0, nxv1s64, 64), (nxv2s64, p0, nxv2s64, 64), (nxv4s64, p0, nxv4s64, 64),
                (nxv8s64, p0, nxv8s64, 64),
            )
            .custom_for(if v, int_vecs)
            .custom_for(if ptr_vectors, ptr_vecs)
            .widen_scalar_to_next_pow2(0, 8)
            .lower_if_mem_size_not_byte_size_pow2()
            .clamp_scalar(0, s16, xlen)
            .lower();
        G_STORE => legal_for_types_with_mem_desc(
                (s16, p0, s8, 8),
                (s32, p0, s8, 8),
                (s16, p0, s16, { a16 }),
                (s32, p0, s16, { a16 }),
                (s32, p0, s32, { a32 }),
                (p0, p0, xlen, { axlen }),
            )
            .legal_for_types_with_mem_desc(
                if st.is_64bit(),
                (s64, p0, s8, 8),
                (s64, p0, s16, { a16 }),
                (s64, p0, s32, { a32 }),
                (s64, p0, s64, { a64 }),
            )
            .legal_for_types_with_mem_desc(if !st.is_64bit() && st.has_d(), (s64, p0, s64, { a64 }))
            // Vectors aligned to their element; the hook keeps other element-
            // aligned accesses (another memory type) and reads the rest as bytes.
            .legal_for_types_with_mem_desc(
                if v,
                (nxv2s8, p0, nxv2s8, 8), (nxv4s8, p0, nxv4s8, 8), (nxv8s8, p0, nxv8s8, 8), (nxv16s8, p0, nxv16s8, 8),
                (nxv32s8, p0, nxv32s8, 8), (nxv64s8, p0, nxv64s8, 8), (nxv2s16, p0, nxv2s16, 16),
                (nxv4s16, p0, nxv4s16, 16), (nxv8s16, p0, nxv8s16, 16), (nxv16s16, p0, nxv16s16, 16),
                (nxv32s16, p0, nxv32s16, 16), (nxv2s32, p0, nxv2s32, 32), (nxv4s32, p0, nxv4s32, 32),
                (nxv8s32, p0, nxv8s32, 32), (nxv16s32, p0, nxv16s32, 32),
            )
            .legal_for_types_with_mem_desc(
                if v && e64,
                (nxv1s8, p0, nxv1s8, 8), (nxv1s16, p0, nxv1s16, 16), (nxv1s32, p0, nxv1s32, 32),
                (nxv1s64, p0, nxv1s64, 64), (nxv2s64, p0, nxv2s64, 64), (nxv4s64, p0, nxv4s64, 64),
                (nxv8s64, p0, nxv8s64, 64),
            )
            .custom_for(if v, int_vecs)
            .custom_for(if ptr_vectors, ptr_vecs)
            .clamp_scalar(0, s16, xlen)
            .lower_if_mem_size_not_byte_size_pow2()
            .lower();
        G_SEXTLOAD | G_ZEXTLOAD => legal_for_types_with_mem_desc((xlen, p0, s8, 8), (xlen, p0, s16, { a16 }))
            .legal_for_types_with_mem_desc(if st.is_64bit(), (s64, p0, s32, { a32 }))
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, xlen, xlen)
            .lower();

        G_PTR_ADD | G_PTRMASK => legal_for((p0, xlen));
        G_PTRTOINT => legal_for((xlen, p0)).clamp_scalar(0, xlen, xlen);
        G_INTTOPTR => legal_for((p0, xlen)).clamp_scalar(1, xlen, xlen);

        // ----- control flow and addresses -----

        G_BR => always_legal();
        G_BRCOND => legal_for(xlen).min_scalar(0, xlen);
        G_BRJT => custom_for((p0, xlen));
        G_BRINDIRECT => legal_for(p0);
        G_PHI => legal_for(p0, s32)
            .legal_for(if st.is_64bit(), s64)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(0, s32, xlen);
        G_GLOBAL_VALUE | G_JUMP_TABLE | G_CONSTANT_POOL => legal_for(p0);
        G_FRAME_INDEX => legal_for(p0);

        // ----- multiply and divide -----

        if st.has_zmmul() {
            G_MUL => legal_for(xlen).widen_scalar_to_next_pow2(0).clamp_scalar(0, xlen, xlen);
            G_SMULH | G_UMULH => legal_for(xlen).lower();
            G_SMULO | G_UMULO => min_scalar(0, xlen).lower();
        } else {
            G_MUL => libcall_for(xlen, s2xlen)
                .widen_scalar_to_next_pow2(0)
                .clamp_scalar(0, xlen, s2xlen);
            G_SMULH | G_UMULH => lower_for(xlen);
            // Widen sXLen to s2XLen so that one libcall gives both the low
            // half and the high half for the overflow check.
            G_SMULO | G_UMULO => min_scalar(0, xlen)
                .widen_scalar_if(type_is(0, xlen), change_to(0, s2xlen))
                .lower();
        }

        if st.has_m() {
            G_SDIV | G_UDIV | G_UREM => legal_for(xlen)
                .custom_for(if st.is_64bit(), s32)
                .libcall_for(s2xlen)
                .clamp_scalar(0, s32, s2xlen)
                .widen_scalar_to_next_pow2(0);
            G_SREM => legal_for(xlen)
                .libcall_for(s2xlen)
                .clamp_scalar(0, xlen, s2xlen)
                .widen_scalar_to_next_pow2(0);
        } else {
            G_UDIV | G_SDIV | G_UREM | G_SREM => libcall_for(xlen, s2xlen)
                .clamp_scalar(0, xlen, s2xlen)
                .widen_scalar_to_next_pow2(0);
        }

        G_SDIVREM | G_UDIVREM => lower();

        if st.has_zbb() {
            G_ABS => custom_for(xlen).min_scalar(0, xlen).lower();
            G_ABDS | G_ABDU => min_scalar(0, xlen).lower();
            G_UMAX | G_UMIN | G_SMAX | G_SMIN => legal_for(xlen).min_scalar(0, xlen).lower();
        } else {
            G_ABS => lower();
            G_ABDS | G_ABDU => lower();
            G_UMAX | G_UMIN | G_SMAX | G_SMIN => lower();
        }

        G_SCMP | G_UCMP => lower();

        G_MEMCPY | G_MEMMOVE | G_MEMSET => libcall();
        G_MEMCPY_INLINE => lower();
        G_DYN_STACKALLOC => lower();
        G_STACKSAVE | G_STACKRESTORE => lower();

        // ----- floating point -----
        //
        // LLVM gates these rules on F, D and Zfh (`legalFor(ST.hasStdExtD(),
        // {s64})`); a missing extension binds its type to the invalid type,
        // which no query holds, so the rule is inert exactly as if absent.

        // Only RV64 calls the runtime for `fp128`.
        let rv64 = st.is_64bit();

        G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FMA | G_FSQRT | G_FMAXNUM | G_FMINNUM => legal_for(fp)
            .libcall_for(s32, s64)
            .libcall_for(if rv64, s128);

        // LLVM also calls `fmaximum_num`/`fminimum_num` for these; the
        // helper has no such library call yet.
        G_FMAXIMUMNUM | G_FMINIMUMNUM => legal_for(fp);

        G_FNEG | G_FABS => legal_for(fp).lower_for(s32, s64, s128);

        G_FREM => libcall_for(s32, s64).libcall_for(if rv64, s128).min_scalar(0, s32).scalarize(0);

        G_FCOPYSIGN => legal_for((fp, fp)).lower();

        G_FPTRUNC => legal_for((f32, f64))
            .legal_for((f16, f32))
            .legal_for((f16, f64))
            .libcall_for((s32, s64))
            .libcall_for(if rv64, ([s32, s64], s128));
        G_FPEXT => legal_for((f64, f32))
            .legal_for((f32, f16))
            .legal_for((f64, f16))
            .libcall_for((s64, s32))
            .libcall_for(if rv64, (s128, [s32, s64]));
        G_FCMP => legal_for((xlen, fp))
            .clamp_scalar(0, xlen, xlen)
            .libcall_for((xlen, [s32, s64]))
            .libcall_for(if rv64, (xlen, s128));

        G_IS_FPCLASS => custom_for((s1, fp)).lower_for((s1, [s32, s64]));

        G_FCONSTANT => legal_for(fp).custom_for(s32).custom_for(if rv64, s64).lower_for(s64, s128);

        G_FPTOSI | G_FPTOUI => legal_for((xlen, fp))
            .custom_for(if rv64, (s32, fp))
            .widen_scalar_to_next_pow2(0)
            .min_scalar(0, s32)
            .libcall_for(([s32, s64], [s32, s64]))
            .libcall_for(if rv64, ([s32, s64], s128), (s128, [s32, s64, s128]));
        G_SITOFP | G_UITOFP => legal_for((fp, xlen))
            .widen_scalar_to_next_pow2(1)
            // Promote to XLEN when the conversion from XLEN is legal.
            .widen_scalar_if(
                all(is_scalar(1), type_in_set(0, fp), scalar_narrower_than(1, { st.xlen() })),
                change_to(1, xlen),
            )
            .min_scalar(1, s32)
            .libcall_for(([s32, s64], [s32, s64]))
            .libcall_for(if rv64, (s128, [s32, s64]), ([s32, s64, s128], s128));

        G_FCEIL | G_FFLOOR | G_FRINT | G_FNEARBYINT | G_INTRINSIC_TRUNC | G_INTRINSIC_ROUND
            | G_INTRINSIC_ROUNDEVEN => legal_for(zfa_fp).libcall_for(s32, s64).libcall_for(if rv64, s128);
        G_FCOS | G_FSIN | G_FTAN | G_FPOW | G_FLOG | G_FLOG2 | G_FLOG10 | G_FEXP | G_FEXP2 | G_FEXP10 | G_FACOS
            | G_FASIN | G_FATAN | G_FATAN2 | G_FCOSH | G_FSINH | G_FTANH | G_FMODF => libcall_for(s32, s64)
            .libcall_for(if rv64, s128);
        G_FPOWI | G_FLDEXP => libcall_for(([s32, s64], s32)).libcall_for(if rv64, (s128, s32));
        G_FMAXIMUM | G_FMINIMUM => legal_for(zfa_fp);
        G_FCANONICALIZE => legal_for(fp);

        // ----- varargs, atomics, misc -----

        G_VASTART => custom_for(p0);
        G_VSCALE => clamp_scalar(0, xlen, xlen).custom_for(xlen);
        G_VAARG => clamp_scalar(0, xlen, xlen).lower_for_cartesian_product([xlen, p0], [p0]);

        G_ATOMIC_CMPXCHG_WITH_SUCCESS => lower_if(all(type_in_set(0, [s8, s16, s32, s64]), type_is(2, p0)));
        if st.has_a() {
            G_ATOMIC_CMPXCHG | G_ATOMICRMW_ADD => legal_for((xlen, p0)).clamp_scalar(0, xlen, xlen);
            G_ATOMICRMW_SUB => clamp_scalar(0, xlen, xlen).lower();
        } else {
            G_ATOMIC_CMPXCHG | G_ATOMICRMW_ADD => libcall_for(([s8, s16, s32, s64], p0)).clamp_scalar(0, xlen, xlen);
            G_ATOMICRMW_SUB => libcall_for(([s8, s16, s32, s64], p0))
                .clamp_scalar(0, xlen, xlen)
                .lower();
        }

        // ----- vector elements and splats -----

        if v {
            G_INSERT_VECTOR_ELT => legal_for(
                (s8_vecs, s8, xlen),
                (s16_vecs, s16, xlen),
                (s32_vecs, s32, xlen),
                (s64_vecs, s64, xlen),
                (bool_vecs, s1, xlen),
            );
        }

        // Mask subvectors of at least a byte's worth of elements are
        // extracted as bytes; the hook slides the others, and integer or
        // FP subvectors, into place.
        if v {
            G_EXTRACT_SUBVECTOR => bitcast_if(
                all(type_in_set(0, bool_vecs), type_in_set(1, bool_vecs), mask_extract_in_bytes),
                |q| (0, Llt::scalable_vector(q.ty(0).num_elements() / 8, Llt::scalar(8)))
            )
            .custom_if(any(
                all(type_in_set(0, bool_vecs), type_in_set(1, bool_vecs)),
                all(type_in_set(0, int_vecs), type_in_set(1, int_vecs))
            ));
        }

        // The hook inserts subvectors of legal types (mask ones through bytes).
        if v {
            G_INSERT_SUBVECTOR => custom_if(any(
                all(type_in_set(0, bool_vecs), type_in_set(1, bool_vecs)),
                all(type_in_set(0, int_vecs), type_in_set(1, int_vecs))
            ));
        }

        // On RV32 an s64 splat is legal when the element may be an f64 (V
        // with D), and split in two by the hook otherwise.
        let f64_elements = st.has_v_instructions_f64() && st.has_d();
        if v {
            G_SPLAT_VECTOR => legal_for_cartesian_product(int_vecs, [xlen])
                .custom_for_cartesian_product(bool_vecs, [s1])
                .legal_for_cartesian_product(if !st.is_64bit() && f64_elements, s64_vecs, [s64])
                .custom_for_cartesian_product(if !st.is_64bit() && !f64_elements, s64_vecs, [s64])
                .clamp_scalar(1, xlen, xlen);
        }

        G_FENCE => always_legal();
        G_TRAP | G_DEBUGTRAP | G_UBSANTRAP => always_legal();
    }
}

/// A mask subvector extract with at least eight elements on both sides,
/// which LLVM 22 bitcasts to bytes (`ExtractSubvecBitcastPred`).
fn mask_extract_in_bytes(q: &LegalityQuery<'_>) -> bool {
    q.ty(0).element_type() == Llt::scalar(1) && q.ty(0).num_elements() >= 8 && q.ty(1).num_elements() >= 8
}
