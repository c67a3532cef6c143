//! LLVM 22's X86 legality rules (`X86LegalizerInfo.cpp`), in LLVM's rule
//! order, parameterised by the [`Subtarget`]. LLVM's bool-gated overloads
//! (`legalFor(HasSSE2, {...})`) become gated rules; the feature levels
//! (SSE1 .. AVX-512, x87, CMOV, POPCNT, LZCNT, BMI) are read once at the
//! top. Opcodes LLVM gives no rules (`G_TRUNC`, `G_BR`, ...) keep the
//! legacy answer.

use gisel_core::legality::LegalityQuery;
use gisel_core::prelude::*;
use gisel_macros::legalizer;

use super::subtarget::Feature::*;
use super::subtarget::Subtarget;

legalizer! {
    /// The X86 rules for `st`.
    pub fn x86(st: &Subtarget) -> LegalizerInfo {
        custom = crate::x86::hooks::X86Hooks;
        pointer_bits = st.pointer_bits();

        let is64 = st.is_64bit();
        let cmov = st.can_use_cmov();
        let sse1 = st.has(Sse1);
        let sse2 = st.has(Sse2);
        let sse41 = st.has(Sse41);
        let avx = st.has(Avx);
        let avx2 = st.has(Avx2);
        let avx512 = st.has(Avx512f);
        let vlx = st.has(Avx512vl);
        let dqi = st.has_avx512_with(Avx512dq);
        let bwi = st.has_avx512_with(Avx512bw);
        let x87 = st.use_x87();
        let popcnt = st.has(Popcnt);
        let lzcnt = st.has(Lzcnt);
        let bmi = st.has(Bmi);

        let max_scalar = if is64 { s64 } else { s32 };
        // The most elements of each width a vector register holds.
        let max8 = if avx512 { 64 } else if avx { 32 } else { 16 };
        let max16 = max8 / 2;
        let max32 = max8 / 4;
        let max64 = max8 / 8;
        let s8_max_vector = Llt::fixed_vector(max8, Llt::scalar(8));
        let s16_max_vector = Llt::fixed_vector(max16, Llt::scalar(16));
        let s32_max_vector = Llt::fixed_vector(max32, Llt::scalar(32));
        let s64_max_vector = Llt::fixed_vector(max64, Llt::scalar(64));
        let max_pointers = if is64 { max64 } else { max32 };
        // Integer add and sub widen to 256 bits with AVX2, to 512 with
        // AVX-512 (bytes and words with BWI).
        let add8 = if bwi { 64 } else if avx2 { 32 } else { 16 };
        let add32 = if avx512 { 16 } else if avx2 { 8 } else { 4 };

        // ----- implicit values and constants -----

        G_IMPLICIT_DEF | G_PHI | G_FREEZE | G_CONSTANT_FOLD_BARRIER => legal_for(p0, s1, s8, s16, s32, s64)
            .legal_for(if x87, s80)
            .legal_for(if is64, s128)
            .legal_for(if sse2, v16s8, v8s16, v4s32, v2s64)
            .legal_for(if avx, v32s8, v16s16, v8s32, v4s64)
            .legal_for(if avx512, v64s8, v32s16, v16s32, v8s64)
            .widen_scalar_or_elt_to_next_pow2(0, 8)
            .clamp_scalar_or_elt(0, s8, max_scalar)
            .more_elements_to_next_pow2(0)
            .clamp_min_num_elements(0, s8, 16)
            .clamp_min_num_elements(0, s16, 8)
            .clamp_min_num_elements(0, s32, 4)
            .clamp_min_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, s8, { max8 })
            .clamp_max_num_elements(0, s16, { max16 })
            .clamp_max_num_elements(0, s32, { max32 })
            .clamp_max_num_elements(0, s64, { max64 })
            .clamp_max_num_elements(0, p0, { max_pointers })
            .scalarize_if(scalar_or_elt_wider_than(0, 64), 0);

        G_CONSTANT => legal_for(p0, s8, s16, s32)
            .legal_for(if is64, s64)
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, s8, max_scalar);

        G_LROUND | G_LLROUND => widen_scalar_if(type_is(1, s16), change_to(1, s32)).libcall();

        G_FCOS | G_FCOSH | G_FACOS | G_FSIN | G_FSINH | G_FASIN | G_FTAN | G_FTANH | G_FATAN | G_FATAN2
            | G_FPOW | G_FEXP | G_FEXP2 | G_FEXP10 | G_FLOG | G_FLOG2 | G_FLOG10 | G_FSINCOS | G_FCEIL
            | G_FFLOOR => libcall();
        G_FPOWI => libcall();

        // A rule set whose gated rules are all absent fails as an
        // unmatched one does; `unsupported()` says so where LLVM leaves it
        // implicit.
        G_FSQRT => legal_for(if sse1 || x87, s32)
            .legal_for(if sse2 || x87, s64)
            .legal_for(if x87, s80)
            .unsupported();

        G_GET_ROUNDING | G_SET_ROUNDING => custom_for(s32);

        // ----- merge and unmerge -----

        G_MERGE_VALUES => widen_scalar_to_next_pow2(1, 8)
            .widen_scalar_to_next_pow2(0, 16)
            .min_scalar(1, s8)
            .min_scalar(0, s32)
            .legal_if(merge_sizes_are_legal);
        G_UNMERGE_VALUES => widen_scalar_to_next_pow2(0, 8)
            .widen_scalar_to_next_pow2(1, 16)
            .min_scalar(0, s8)
            .min_scalar(1, s32)
            .legal_if(unmerge_sizes_are_legal);

        G_UMIN | G_UMAX | G_SMIN | G_SMAX => widen_scalar_to_next_pow2(0, 32).lower();

        // ----- integer arithmetic -----

        // ANCHOR: add_sub
        G_ADD | G_SUB => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .legal_for(if sse2, v16s8, v8s16, v4s32, v2s64)
            .legal_for(if avx2, v32s8, v16s16, v8s32, v4s64)
            .legal_for(if avx512, v16s32, v8s64)
            .legal_for(if bwi, v64s8, v32s16)
            .clamp_min_num_elements(0, s8, 16)
            .clamp_min_num_elements(0, s16, 8)
            .clamp_min_num_elements(0, s32, 4)
            .clamp_min_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, s8, { add8 })
            .clamp_max_num_elements(0, s16, { add8 / 2 })
            .clamp_max_num_elements(0, s32, { add32 })
            .clamp_max_num_elements(0, s64, { add32 / 2 })
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);
        // ANCHOR_END: add_sub

        G_UADDE | G_UADDO | G_USUBE | G_USUBO => legal_for((s8, s8), (s16, s8), (s32, s8))
            .legal_for(if is64, (s64, s8))
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s8, max_scalar)
            .clamp_scalar(1, s8, s8)
            .scalarize(0);

        G_MUL => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .legal_for(if sse2, v8s16)
            .legal_for(if sse41, v4s32)
            .legal_for(if avx2, v16s16, v8s32)
            .legal_for(if avx512, v16s32)
            .legal_for(if dqi, v8s64)
            .legal_for(if dqi && vlx, v2s64, v4s64)
            .legal_for(if bwi, v32s16)
            .clamp_min_num_elements(0, s16, 8)
            .clamp_min_num_elements(0, s32, 4)
            .clamp_min_num_elements(0, s64, { if vlx { 2 } else { 8 } })
            .clamp_max_num_elements(0, s16, { add8 / 2 })
            .clamp_max_num_elements(0, s32, { add32 })
            .clamp_max_num_elements(0, s64, 8)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);

        G_SMULH | G_UMULH => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);

        G_SDIV | G_SREM | G_UDIV | G_UREM => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .libcall_for(s64)
            .clamp_scalar(0, s8, max_scalar);

        G_SHL | G_LSHR | G_ASHR => legal_for((s8, s8), (s16, s8), (s32, s8))
            .legal_for(if is64, (s64, s8))
            .clamp_scalar(0, s8, max_scalar)
            .clamp_scalar(1, s8, s8);

        G_AND | G_OR | G_XOR => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .legal_for(if sse2, v16s8, v8s16, v4s32, v2s64)
            .legal_for(if avx, v32s8, v16s16, v8s32, v4s64)
            .legal_for(if avx512, v64s8, v32s16, v16s32, v8s64)
            .clamp_min_num_elements(0, s8, 16)
            .clamp_min_num_elements(0, s16, 8)
            .clamp_min_num_elements(0, s32, 4)
            .clamp_min_num_elements(0, s64, 2)
            .clamp_max_num_elements(0, s8, { max8 })
            .clamp_max_num_elements(0, s16, { max16 })
            .clamp_max_num_elements(0, s32, { max32 })
            .clamp_max_num_elements(0, s64, { max64 })
            .widen_scalar_to_next_pow2(0, 32)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);

        let int_types = [s8, s16, s32, [if is64, s64], p0];
        G_ICMP => legal_for_cartesian_product([s8], int_types)
            .clamp_scalar(0, s8, s8)
            .widen_scalar_to_next_pow2(1, 8)
            .clamp_scalar(1, s8, max_scalar);

        // ----- bit counting -----

        G_BSWAP => legal_for(s32).legal_for(if is64, s64).widen_scalar_to_next_pow2(0, 32).clamp_scalar(0, s32, max_scalar);

        G_CTPOP => legal_for(if popcnt, (s16, s16), (s32, s32))
            .legal_for(if popcnt && is64, (s64, s64))
            .widen_scalar_to_next_pow2(1, 16)
            .clamp_scalar(1, s16, max_scalar)
            .scalar_same_size_as(0, 1);

        G_CTLZ => legal_for(if lzcnt, (s16, s16), (s32, s32))
            .legal_for(if lzcnt && is64, (s64, s64))
            .widen_scalar_to_next_pow2(1, 16)
            .clamp_scalar(1, s16, max_scalar)
            .scalar_same_size_as(0, 1);

        G_CTTZ_ZERO_UNDEF => legal_for((s16, s16), (s32, s32))
            .legal_for(if is64, (s64, s64))
            .widen_scalar_to_next_pow2(1, 16)
            .clamp_scalar(1, s16, max_scalar)
            .scalar_same_size_as(0, 1);

        G_CTTZ => legal_for(if bmi, (s16, s16), (s32, s32))
            .legal_for(if bmi && is64, (s64, s64))
            .widen_scalar_to_next_pow2(1, 16)
            .clamp_scalar(1, s16, max_scalar)
            .scalar_same_size_as(0, 1);

        G_BRCOND => legal_for(s1);

        // ----- pointers -----

        let ptr_types = [s1, s8, s16, s32, [if is64, s64]];
        G_PTRTOINT => legal_for_cartesian_product(ptr_types, [p0])
            .max_scalar(0, max_scalar)
            .widen_scalar_to_next_pow2(0, 8);
        G_INTTOPTR => legal_for((p0, max_scalar));
        G_CONSTANT_POOL => legal_for(p0);
        G_PTR_ADD => legal_for((p0, s32))
            .legal_for(if is64, (p0, s64))
            .widen_scalar_to_next_pow2(1, 32)
            .clamp_scalar(1, s32, max_scalar);
        G_FRAME_INDEX | G_GLOBAL_VALUE => legal_for(p0);

        // ----- loads and stores -----
        //
        // Any alignment; extending loads but no truncating stores in
        // general-purpose registers (the hook gives a truncating store its
        // value's memory type).

        G_LOAD => legal_for_types_with_mem_desc(
                (s8, p0, s8, 8), (s16, p0, s16, 8), (s32, p0, s32, 8), (s80, p0, s80, 8), (p0, p0, p0, 8),
                (v4s8, p0, v4s8, 8),
            )
            .legal_for_types_with_mem_desc(if is64, (s64, p0, s64, 8), (v2s32, p0, v2s32, 8))
            .legal_for_types_with_mem_desc(if sse1, (v4s32, p0, v4s32, 8))
            .legal_for_types_with_mem_desc(
                if sse2,
                (v16s8, p0, v16s8, 8), (v8s16, p0, v8s16, 8), (v2s64, p0, v2s64, 8), (v2p0, p0, v2p0, 8),
            )
            .legal_for_types_with_mem_desc(
                if avx,
                (v32s8, p0, v32s8, 8), (v16s16, p0, v16s16, 8), (v8s32, p0, v8s32, 8), (v4s64, p0, v4s64, 8),
                (v4p0, p0, v4p0, 8),
            )
            .legal_for_types_with_mem_desc(
                if avx512,
                (v64s8, p0, v64s8, 8), (v32s16, p0, v32s16, 8), (v16s32, p0, v16s32, 8), (v8s64, p0, v8s64, 8),
            )
            .legal_for_types_with_mem_desc((s8, p0, s1, 8), (s16, p0, s8, 8), (s32, p0, s8, 8), (s32, p0, s16, 8))
            .legal_for_types_with_mem_desc(if is64, (s64, p0, s8, 8), (s64, p0, s16, 8), (s64, p0, s32, 8))
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);
        G_STORE => legal_for_types_with_mem_desc(
                (s8, p0, s8, 8), (s16, p0, s16, 8), (s32, p0, s32, 8), (s80, p0, s80, 8), (p0, p0, p0, 8),
                (v4s8, p0, v4s8, 8),
            )
            .legal_for_types_with_mem_desc(if is64, (s64, p0, s64, 8), (v2s32, p0, v2s32, 8))
            .legal_for_types_with_mem_desc(if sse1, (v4s32, p0, v4s32, 8))
            .legal_for_types_with_mem_desc(
                if sse2,
                (v16s8, p0, v16s8, 8), (v8s16, p0, v8s16, 8), (v2s64, p0, v2s64, 8), (v2p0, p0, v2p0, 8),
            )
            .legal_for_types_with_mem_desc(
                if avx,
                (v32s8, p0, v32s8, 8), (v16s16, p0, v16s16, 8), (v8s32, p0, v8s32, 8), (v4s64, p0, v4s64, 8),
                (v4p0, p0, v4p0, 8),
            )
            .legal_for_types_with_mem_desc(
                if avx512,
                (v64s8, p0, v64s8, 8), (v32s16, p0, v32s16, 8), (v16s32, p0, v16s32, 8), (v8s64, p0, v8s64, 8),
            )
            .custom_if(value_is_not_memory_type)
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, s8, max_scalar)
            .scalarize(0);

        G_SEXTLOAD | G_ZEXTLOAD => legal_for_types_with_mem_desc((s16, p0, s8, 8), (s32, p0, s8, 8), (s32, p0, s16, 8))
            .legal_for_types_with_mem_desc(if is64, (s64, p0, s8, 8), (s64, p0, s16, 8), (s64, p0, s32, 8));

        // ----- extensions -----

        G_ANYEXT => legal_for(s8, s16, s32, s128)
            .legal_for(if is64, s64)
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, s8, max_scalar)
            .widen_scalar_to_next_pow2(1, 8)
            .clamp_scalar(1, s8, max_scalar)
            .scalarize(0);

        G_SEXT | G_ZEXT => legal_for(s8, s16, s32)
            .legal_for(if is64, s64)
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, s8, max_scalar)
            .widen_scalar_to_next_pow2(1, 8)
            .clamp_scalar(1, s8, max_scalar)
            .scalarize(0);

        G_SEXT_INREG => lower();

        // ----- floating point -----

        G_FCONSTANT => legal_for(s32, s64).legal_for(if x87, s80);

        G_FADD | G_FSUB | G_FMUL | G_FDIV => legal_for(s32, s64)
            .legal_for(if sse1, v4s32)
            .legal_for(if sse2, v2s64)
            .legal_for(if avx, v8s32, v4s64)
            .legal_for(if avx512, v16s32, v8s64)
            .legal_for(if x87, s80);

        G_FABS => legal_for(if x87, s80).legal_for(if x87 && !is64, s64).lower();

        let widest_sse_fp = if sse2 { s64 } else { s32 };
        // LLVM lists single types here: any compare whose result is s8
        // (or s32) is legal, whatever its operands.
        G_FCMP => legal_for(if sse1 || x87, s8, s32)
            .legal_for(if sse2 || x87, s8, s64)
            .legal_for(if x87, s8, s80)
            .clamp_scalar(0, s8, s8)
            .clamp_scalar(1, s32, widest_sse_fp)
            .widen_scalar_to_next_pow2(1);

        G_FPEXT => legal_for(if sse2, (s64, s32))
            .legal_for(if avx, (v4s64, v4s32))
            .legal_for(if avx512, (v8s64, v8s32))
            .libcall();

        G_FPTRUNC => legal_for(if sse2, (s32, s64))
            .legal_for(if avx, (v4s32, v4s64))
            .legal_for(if avx512, (v8s32, v8s64))
            .unsupported();

        // Without SSE, x87 converts through memory (the hook's `G_FILD`
        // and `G_FIST`).
        let x87_int_min = if x87 && !sse1 { s16 } else { s32 };
        G_SITOFP => legal_for(if sse1, (s32, s32))
            .legal_for(if sse1 && is64, (s32, s64))
            .legal_for(if sse2, (s64, s32))
            .legal_for(if sse2 && is64, (s64, s64))
            .clamp_scalar(1, x87_int_min, max_scalar)
            .widen_scalar_to_next_pow2(1)
            .custom_for_cartesian_product(if x87, [s32, s64, s80], [s16, s32, s64])
            .clamp_scalar(0, s32, widest_sse_fp)
            .widen_scalar_to_next_pow2(0);

        G_FPTOSI => legal_for(if sse1, (s32, s32))
            .legal_for(if sse1 && is64, (s64, s32))
            .legal_for(if sse2, (s32, s64))
            .legal_for(if sse2 && is64, (s64, s64))
            .clamp_scalar(0, x87_int_min, max_scalar)
            .widen_scalar_to_next_pow2(0)
            .custom_for_cartesian_product(if x87, [s16, s32, s64], [s32, s64, s80])
            .clamp_scalar(1, s32, widest_sse_fp)
            .widen_scalar_to_next_pow2(1);

        // Without AVX-512, an unsigned conversion of a narrower integer is
        // a signed one of a wider integer (the hook), and from s64 the
        // generic lowering.
        let int_bits = if is64 { 64 } else { 32 };
        G_UITOFP => legal_for(if avx512, (s32, s32), (s32, s64), (s64, s32), (s64, s64))
            .custom_if(if !avx512 && sse1, all(type_is(0, s32), scalar_narrower_than(1, { int_bits })))
            .custom_if(if !avx512 && sse2, all(type_is(0, s64), scalar_narrower_than(1, { int_bits })))
            .lower_if(if !avx512 && sse1 && is64, all(type_is(0, s32), type_is(1, s64)))
            .lower_if(if !avx512 && sse2 && is64, all(type_is(0, s64), type_is(1, s64)))
            .clamp_scalar(0, s32, widest_sse_fp)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(1, s32, max_scalar)
            .widen_scalar_to_next_pow2(1);

        G_FPTOUI => legal_for(if avx512, (s32, s32), (s32, s64), (s64, s32), (s64, s64))
            .custom_if(if !avx512 && sse1, all(type_is(1, s32), scalar_narrower_than(0, { int_bits })))
            .custom_if(if !avx512 && sse2, all(type_is(1, s64), scalar_narrower_than(0, { int_bits })))
            .lower_if(if !avx512 && sse1 && is64, all(type_is(1, s32), type_is(0, s64)))
            .lower_if(if !avx512 && sse2 && is64, all(type_is(1, s64), type_is(0, s64)))
            .clamp_scalar(0, s32, max_scalar)
            .widen_scalar_to_next_pow2(0)
            .clamp_scalar(1, s32, widest_sse_fp)
            .widen_scalar_to_next_pow2(1);

        // ----- vectors -----

        // LLVM 22's AVX-512 clause tests the predicate object rather than
        // calling it, so with AVX-512 every build vector goes to the hook.
        if avx512 {
            G_BUILD_VECTOR => custom();
        } else {
            G_BUILD_VECTOR => custom_if(if sse1, type_is(0, v4s32))
                .custom_if(if sse2, type_in_set(0, [v2s64, v8s16, v16s8]))
                .custom_if(if avx, type_in_set(0, [v4s64, v8s32, v16s16, v32s8]))
                .clamp_num_elements(0, v16s8, s8_max_vector)
                .clamp_num_elements(0, v8s16, s16_max_vector)
                .clamp_num_elements(0, v4s32, s32_max_vector)
                .clamp_num_elements(0, v2s64, s64_max_vector)
                .more_elements_to_next_pow2(0)
                .unsupported();
        }

        let avx_halves = [(v16s8, v32s8), (v8s16, v16s16), (v4s32, v8s32), (v2s64, v4s64)];
        let avx512_parts = [
            (v16s8, v64s8), (v32s8, v64s8), (v8s16, v32s16), (v16s16, v32s16), (v4s32, v16s32), (v8s32, v16s32),
            (v2s64, v8s64), (v4s64, v8s64),
        ];
        G_EXTRACT => legal_if(if avx, type_pair_in_set(0, 1, avx_halves))
            .legal_if(if avx512, type_pair_in_set(0, 1, avx512_parts))
            .unsupported()
            .imm_idx(0);
        G_INSERT => legal_if(if avx, type_pair_in_set(1, 0, avx_halves))
            .legal_if(if avx512, type_pair_in_set(1, 0, avx512_parts))
            .unsupported()
            .imm_idx(0);

        G_CONCAT_VECTORS => legal_for(if sse1, (v32s8, v16s8), (v16s16, v8s16), (v8s32, v4s32), (v4s64, v2s64))
            .legal_for(
                if avx,
                (v64s8, v16s8), (v64s8, v32s8), (v32s16, v8s16), (v32s16, v16s16), (v16s32, v4s32),
                (v16s32, v8s32), (v8s64, v2s64), (v8s64, v4s64),
            )
            .unsupported();

        let select_min = if cmov { s16 } else { s8 };
        G_SELECT => legal_for((s16, s32), (s32, s32), (p0, s32))
            .legal_for(if !cmov, (s8, s32))
            .legal_for(if is64, (s64, s32))
            .legal_for(if x87, (s80, s32))
            .clamp_scalar(1, s32, s32)
            .widen_scalar_to_next_pow2(0, 8)
            .clamp_scalar(0, select_min, max_scalar);

        // ----- memory intrinsics, the stack, rounding -----

        G_MEMCPY | G_MEMMOVE | G_MEMSET => libcall();
        G_DYN_STACKALLOC => lower();
        G_STACKSAVE | G_STACKRESTORE => lower();
        G_INTRINSIC_ROUNDEVEN | G_INTRINSIC_TRUNC => scalarize(0).min_scalar(0, s32).libcall();
    }
}

/// Whether the sizes of a merge's wide (`big`) and narrow (`part`) types
/// are register sizes X86 merges and splits directly.
fn merge_sizes_legal(big: Llt, part: Llt) -> bool {
    matches!(big.size_in_bits(), 16 | 32 | 64 | 128 | 256 | 512)
        && matches!(part.size_in_bits(), 8 | 16 | 32 | 64 | 128 | 256)
}

/// `G_MERGE_VALUES`: the result is the wide type.
fn merge_sizes_are_legal(q: &LegalityQuery<'_>) -> bool {
    merge_sizes_legal(q.ty(0), q.ty(1))
}

/// `G_UNMERGE_VALUES`: the source is the wide type.
fn unmerge_sizes_are_legal(q: &LegalityQuery<'_>) -> bool {
    merge_sizes_legal(q.ty(1), q.ty(0))
}

/// A store whose value type differs from its memory type (a truncating
/// store).
fn value_is_not_memory_type(q: &LegalityQuery<'_>) -> bool {
    q.mem(0).is_some_and(|mem| mem.memory_ty != q.ty(0))
}
