//! The AArch64 hooks: the AAPCS calling convention for library calls,
//! booleans, and the dispatch of custom actions to [`super::custom`].

use std::sync::OnceLock;

use gisel_core::ir::Inst;
use gisel_core::legality::{CustomOutcome, LegalizeStep};
use gisel_core::legalize::call::{CallConvention, RegisterSequence};
use gisel_core::legalize::{BooleanContent, Helper, LegalizeTarget, LibcallRequest, RuntimeFunction};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::custom;
use super::subtarget::Subtarget;

/// AArch64's legalizer hooks for one subtarget.
#[derive(Clone, Debug)]
pub struct AArch64Hooks {
    /// The subtarget the rules were built for.
    pub subtarget: Subtarget,
}

impl AArch64Hooks {
    /// Hooks for `subtarget`.
    pub fn new(subtarget: Subtarget) -> AArch64Hooks {
        AArch64Hooks { subtarget }
    }
}

/// The AAPCS64 register convention for calls: `x0`-`x7` (`w0`-`w7` for
/// 32-bit values, narrower integers any-extended to 32 bits) for integers
/// and pointers, `q0`-`q7` (as `h`, `s`, `d` or `q` by size) for
/// floating-point values; calls in tail position become `TCRETURNdi`.
/// Darwin's variant differs in its register masks.
pub fn aapcs(darwin: bool) -> &'static CallConvention {
    static ELF: OnceLock<CallConvention> = OnceLock::new();
    static DARWIN: OnceLock<CallConvention> = OnceLock::new();
    if darwin {
        DARWIN.get_or_init(|| convention("csr_darwin_aarch64_aapcs", "csr_darwin_aarch64_aapcs_thisreturn"))
    } else {
        ELF.get_or_init(|| convention("csr_aarch64_aapcs", "csr_aarch64_aapcs_thisreturn"))
    }
}

fn convention(register_mask: &'static str, this_return_mask: &'static str) -> CallConvention {
    const X: [&str; 8] = ["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"];
    const W: [&str; 8] = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"];
    const H: [&str; 8] = ["h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"];
    const S: [&str; 8] = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"];
    const D: [&str; 8] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"];
    const Q: [&str; 8] = ["q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7"];
    CallConvention {
        frame_setup: "ADJCALLSTACKDOWN",
        frame_destroy: "ADJCALLSTACKUP",
        stack_pointer: "sp",
        call: "BL",
        callee_flags: None,
        register_mask,
        this_return_mask: Some(this_return_mask),
        tail_call: Some("TCRETURNdi"),
        returns: &["RET_ReallyLR", "RET"],
        link_register: "lr",
        call_uses_stack_pointer: true,
        int_registers: RegisterSequence { slots: (0..8).map(|i| vec![(32, W[i]), (64, X[i])]).collect() },
        int_register_bits: 64,
        min_int_bits: 32,
        float_registers: RegisterSequence {
            slots: (0..8).map(|i| vec![(16, H[i]), (32, S[i]), (64, D[i]), (128, Q[i])]).collect(),
        },
    }
}

impl LegalizeTarget for AArch64Hooks {
    fn legalize_intrinsic(&self, helper: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
        super::intrinsics::legalize(helper, inst, &self.subtarget)
    }

    fn legalize_custom(&self, helper: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = step;
        let Some(opcode) = helper.func.inst(inst).known_opcode() else { return CustomOutcome::Failed };
        let st = &self.subtarget;
        let done = match opcode {
            Opcode::G_SHL | Opcode::G_ASHR | Opcode::G_LSHR => custom::shift(helper, inst),
            Opcode::G_GLOBAL_VALUE => custom::global_value(helper, inst, st),
            Opcode::G_SBFX | Opcode::G_UBFX => custom::bitfield_extract(helper, inst),
            Opcode::G_FSHL | Opcode::G_FSHR => custom::funnel_shift(helper, inst),
            Opcode::G_ROTR => custom::rotate(helper, inst),
            Opcode::G_CTPOP => custom::ctpop(helper, inst, st),
            Opcode::G_CTTZ => custom::cttz(helper, inst),
            Opcode::G_ABS => custom::abs_to_cneg(helper, inst),
            Opcode::G_ICMP => custom::vector_icmp(helper, inst),
            Opcode::G_LOAD | Opcode::G_STORE => custom::load_store(helper, inst),
            Opcode::G_EXTRACT_VECTOR_ELT => custom::extract_vector_elt(helper, inst),
            Opcode::G_MEMSET => custom::memset(helper, inst),
            Opcode::G_PREFETCH => custom::prefetch(helper, inst),
            Opcode::G_DYN_STACKALLOC => custom::dyn_stack_alloc(helper, inst),
            Opcode::G_VAARG => custom::va_arg(helper, inst),
            Opcode::G_FPTRUNC => custom::fptrunc(helper, inst),
            Opcode::G_BITCAST => custom::bool_vector_to_scalar(helper, inst),
            _ => false,
        };
        if done { CustomOutcome::Done } else { CustomOutcome::Failed }
    }

    fn emit_libcall(&self, helper: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        aapcs(self.subtarget.darwin).emit(helper, inst, call)
    }

    fn has_runtime_function(&self, function: RuntimeFunction) -> bool {
        match function {
            RuntimeFunction::Bzero => self.subtarget.darwin,
            RuntimeFunction::OutlineAtomics => true,
        }
    }

    fn stack_pointer(&self) -> Option<&'static str> {
        Some("sp")
    }

    fn boolean_content(&self, vector: bool) -> BooleanContent {
        if vector { BooleanContent::ZeroOrNegativeOne } else { BooleanContent::ZeroOrOne }
    }

    /// Scalars and scalable vectors compare with selects; NEON vectors
    /// subtract, which avoids a bit-select or unrolling.
    fn prefer_selects_over_boolean_arithmetic(&self, ty: Llt) -> bool {
        !ty.is_fixed_vector()
    }
}
