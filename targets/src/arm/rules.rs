//! LLVM 22's Arm legality rules (`ARMLegalizerInfo`'s constructor), builder
//! by builder in LLVM's order. LLVM extends the load/store and phi builders
//! after creating them; here each is one rule set with the later rules
//! gated on the floating-point configuration. Thumb-1-only subtargets get
//! no rules at all, as in LLVM (every typed instruction is then unable to
//! be legalized).

use gisel_core::prelude::*;
use gisel_macros::legalizer;

use super::subtarget::Subtarget;

legalizer! {
    /// The Arm and Thumb-2 rules for `st`.
    pub fn arm(st: &Subtarget) -> LegalizerInfo {
        custom = crate::arm::hooks::ArmHooks;
        pointer_bits = 32;

        let hard = st.hard_float_ops();
        let fma = !st.use_soft_float() && st.has_vfp4_base();
        let hw_div = st.has_hw_divide();
        let aeabi = st.is_aeabi();

        if !st.is_thumb1_only() {
            G_SEXT | G_ZEXT | G_ANYEXT => legal_for_cartesian_product([s8, s16, s32], [s1, s8, s16]);

            G_SEXT_INREG => lower();

            G_MUL | G_AND | G_OR | G_XOR => legal_for(s32).clamp_scalar(0, s32, s32);

            G_ADD | G_SUB => legal_for(s32).legal_for(if st.has("neon"), s64).min_scalar(0, s32);

            G_ASHR | G_LSHR | G_SHL => legal_for((s32, s32)).min_scalar(0, s32).clamp_scalar(1, s32, s32);

            // ANCHOR: division
            G_SDIV | G_UDIV => legal_for(if hw_div, s32).libcall_for(if !hw_div, s32).clamp_scalar(0, s32, s32);

            G_SREM | G_UREM => min_scalar(0, s32)
                .lower_for(if hw_div, s32)
                .custom_for(if !hw_div && aeabi, s32)
                .libcall_for(if !hw_div && !aeabi, s32);
            // ANCHOR_END: division

            G_INTTOPTR => legal_for((p0, s32)).min_scalar(1, s32);
            G_PTRTOINT => legal_for((s32, p0)).min_scalar(0, s32);

            G_CONSTANT => custom_for(s32, p0).clamp_scalar(0, s32, s32);

            G_CONSTANT_POOL => legal_for(p0);

            G_ICMP => legal_for_cartesian_product([s1], [s32, p0]).min_scalar(1, s32);

            G_SELECT => legal_for_cartesian_product([s32, p0], [s1]).min_scalar(0, s32);

            G_LOAD | G_STORE => legal_for_types_with_mem_desc(
                    (s8, p0, s8, 8), (s16, p0, s16, 8), (s32, p0, s32, 8), (p0, p0, p0, 8),
                )
                .unsupported_if_mem_size_not_pow2()
                .legal_for_types_with_mem_desc(if hard, (s64, p0, s64, 32))
                .max_scalar(0, s32)
                .lower();

            G_FRAME_INDEX => legal_for(p0);
            G_GLOBAL_VALUE => legal_for(p0);

            G_PHI => legal_for(s32, p0).min_scalar(0, s32).legal_for(if hard, s64);

            G_PTR_ADD => legal_for((p0, s32)).min_scalar(1, s32);

            G_BRCOND => legal_for(s1);

            if hard {
                G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FCONSTANT | G_FNEG => legal_for(s32, s64);

                G_FCMP => legal_for_cartesian_product([s1], [s32, s64]);

                G_MERGE_VALUES => legal_for((s64, s32));
                G_UNMERGE_VALUES => legal_for((s32, s64));

                G_FPEXT => legal_for((s64, s32));
                G_FPTRUNC => legal_for((s32, s64));

                G_FPTOSI | G_FPTOUI => legal_for_cartesian_product([s32], [s32, s64]);
                G_SITOFP | G_UITOFP => legal_for_cartesian_product([s32, s64], [s32]);

                G_GET_FPENV | G_SET_FPENV | G_GET_FPMODE => legal_for(s32);
                G_RESET_FPENV => always_legal();
                G_SET_FPMODE => custom_for(s32);
                G_RESET_FPMODE => custom();
            } else {
                G_FADD | G_FSUB | G_FMUL | G_FDIV => libcall_for(s32, s64);

                G_FNEG => lower_for(s32, s64);

                G_FCONSTANT => custom_for(s32, s64);

                G_FCMP => custom_for_cartesian_product([s1], [s32, s64]);

                G_FPEXT => libcall_for((s64, s32));
                G_FPTRUNC => libcall_for((s32, s64));

                G_FPTOSI | G_FPTOUI => libcall_for_cartesian_product([s32], [s32, s64]);
                G_SITOFP | G_UITOFP => libcall_for_cartesian_product([s32, s64], [s32]);

                G_GET_FPENV | G_SET_FPENV | G_GET_FPMODE | G_SET_FPMODE => libcall();
                G_RESET_FPENV | G_RESET_FPMODE => libcall();
            }

            if fma {
                G_FMA => legal_for(s32, s64);
            } else {
                G_FMA => libcall_for(s32, s64);
            }

            G_FREM | G_FPOW => libcall_for(s32, s64);

            if st.has("v5t") {
                G_CTLZ => legal_for(s32).clamp_scalar(1, s32, s32).clamp_scalar(0, s32, s32);
                G_CTLZ_ZERO_UNDEF => lower_for(s32).clamp_scalar(1, s32, s32).clamp_scalar(0, s32, s32);
            } else {
                // LLVM libcalls on the result type alone, so `__clzsi2` gets
                // a narrower source unextended (a wrong count); the source
                // is widened first here (docs/src/llvm.md).
                G_CTLZ_ZERO_UNDEF => clamp_scalar(1, s32, s32).libcall_for(s32).clamp_scalar(0, s32, s32);
                G_CTLZ => clamp_scalar(1, s32, s32).lower_for(s32).clamp_scalar(0, s32, s32);
            }
        }
    }
}
