//! Facts about opcodes the checks need beyond gisel-core's table: which
//! opcodes the legalizer helper can lower or turn into a library call
//! (§3.7 and §3.8 of the reference), and which type indices can only hold
//! a vector, never a vector, or only a pointer.

use gisel_core::opcode::Opcode;

/// Opcodes `LegalizerHelper::lower` has an expansion for (§3.7).
pub static LOWERABLE: &[&str] = &[
    "G_FCONSTANT",
    "G_BITCAST",
    "G_SREM",
    "G_UREM",
    "G_SDIVREM",
    "G_UDIVREM",
    "G_SADDO",
    "G_SSUBO",
    "G_SADDE",
    "G_SSUBE",
    "G_FMINIMUM",
    "G_FMAXIMUM",
    "G_UADDO",
    "G_UADDE",
    "G_USUBO",
    "G_USUBE",
    "G_SMULO",
    "G_UMULO",
    "G_SMULH",
    "G_UMULH",
    "G_FNEG",
    "G_FABS",
    "G_FSUB",
    "G_STRICT_FSUB",
    "G_FMAD",
    "G_FFLOOR",
    "G_INTRINSIC_ROUND",
    "G_FRINT",
    "G_LROUND",
    "G_LLROUND",
    "G_INTRINSIC_LRINT",
    "G_INTRINSIC_LLRINT",
    "G_FPOWI",
    "G_FMINNUM",
    "G_FMAXNUM",
    "G_FMINIMUMNUM",
    "G_FMAXIMUMNUM",
    "G_FCOPYSIGN",
    "G_IS_FPCLASS",
    "G_FPTRUNC",
    "G_UITOFP",
    "G_SITOFP",
    "G_FPTOUI",
    "G_FPTOSI",
    "G_FPTOSI_SAT",
    "G_FPTOUI_SAT",
    "G_SMIN",
    "G_SMAX",
    "G_UMIN",
    "G_UMAX",
    "G_SCMP",
    "G_UCMP",
    "G_ABS",
    "G_ABDS",
    "G_ABDU",
    "G_UADDSAT",
    "G_USUBSAT",
    "G_SADDSAT",
    "G_SSUBSAT",
    "G_SSHLSAT",
    "G_USHLSAT",
    "G_SEXT_INREG",
    "G_CTLZ_ZERO_UNDEF",
    "G_CTTZ_ZERO_UNDEF",
    "G_CTLZ",
    "G_CTTZ",
    "G_CTPOP",
    "G_BSWAP",
    "G_BITREVERSE",
    "G_FSHL",
    "G_FSHR",
    "G_ROTL",
    "G_ROTR",
    "G_SELECT",
    "G_LOAD",
    "G_SEXTLOAD",
    "G_ZEXTLOAD",
    "G_STORE",
    "G_ATOMIC_CMPXCHG_WITH_SUCCESS",
    "G_ATOMICRMW_SUB",
    "G_MERGE_VALUES",
    "G_UNMERGE_VALUES",
    "G_EXTRACT",
    "G_INSERT",
    "G_EXTRACT_VECTOR_ELT",
    "G_INSERT_VECTOR_ELT",
    "G_SHUFFLE_VECTOR",
    "G_VECTOR_COMPRESS",
    "G_ZEXT",
    "G_SEXT",
    "G_ANYEXT",
    "G_TRUNC",
    "G_VECREDUCE_FADD",
    "G_VECREDUCE_FMUL",
    "G_VECREDUCE_FMAX",
    "G_VECREDUCE_FMIN",
    "G_VECREDUCE_FMAXIMUM",
    "G_VECREDUCE_FMINIMUM",
    "G_VECREDUCE_ADD",
    "G_VECREDUCE_MUL",
    "G_VECREDUCE_AND",
    "G_VECREDUCE_OR",
    "G_VECREDUCE_XOR",
    "G_VECREDUCE_SMAX",
    "G_VECREDUCE_SMIN",
    "G_VECREDUCE_UMAX",
    "G_VECREDUCE_UMIN",
    "G_VAARG",
    "G_DYN_STACKALLOC",
    "G_STACKSAVE",
    "G_STACKRESTORE",
    "G_READ_REGISTER",
    "G_WRITE_REGISTER",
    "G_MEMCPY",
    "G_MEMMOVE",
    "G_MEMSET",
    "G_MEMCPY_INLINE",
];

/// Opcodes `LegalizerHelper::libcall` has a runtime routine for (§3.8).
pub static LIBCALLABLE: &[&str] = &[
    "G_MUL",
    "G_SDIV",
    "G_UDIV",
    "G_SREM",
    "G_UREM",
    "G_CTLZ_ZERO_UNDEF",
    "G_FADD",
    "G_FSUB",
    "G_FMUL",
    "G_FDIV",
    "G_FREM",
    "G_FPOW",
    "G_FMA",
    "G_FSIN",
    "G_FCOS",
    "G_FTAN",
    "G_FASIN",
    "G_FACOS",
    "G_FATAN",
    "G_FATAN2",
    "G_FSINH",
    "G_FCOSH",
    "G_FTANH",
    "G_FLOG",
    "G_FLOG2",
    "G_FLOG10",
    "G_FEXP",
    "G_FEXP2",
    "G_FEXP10",
    "G_FCEIL",
    "G_FFLOOR",
    "G_FMINNUM",
    "G_FMAXNUM",
    "G_FSQRT",
    "G_FRINT",
    "G_FNEARBYINT",
    "G_INTRINSIC_TRUNC",
    "G_INTRINSIC_ROUND",
    "G_INTRINSIC_ROUNDEVEN",
    "G_FSINCOS",
    "G_FMODF",
    "G_LROUND",
    "G_LLROUND",
    "G_INTRINSIC_LRINT",
    "G_INTRINSIC_LLRINT",
    "G_FPOWI",
    "G_FLDEXP",
    "G_FPEXT",
    "G_FPTRUNC",
    "G_FPTOSI",
    "G_FPTOUI",
    "G_SITOFP",
    "G_UITOFP",
    "G_FCMP",
    "G_ATOMICRMW_XCHG",
    "G_ATOMICRMW_ADD",
    "G_ATOMICRMW_SUB",
    "G_ATOMICRMW_AND",
    "G_ATOMICRMW_OR",
    "G_ATOMICRMW_XOR",
    "G_ATOMIC_CMPXCHG",
    "G_ATOMIC_CMPXCHG_WITH_SUCCESS",
    "G_MEMCPY",
    "G_MEMMOVE",
    "G_MEMSET",
    "G_BZERO",
    "G_GET_FPENV",
    "G_GET_FPMODE",
    "G_SET_FPENV",
    "G_SET_FPMODE",
    "G_RESET_FPENV",
    "G_RESET_FPMODE",
];

/// What a type index of an opcode can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexKind {
    /// Any type.
    Any,
    /// A scalar or a pointer, never a vector.
    NoVector,
    /// A (scalar) pointer only.
    Pointer,
    /// A vector only.
    Vector,
}

impl IndexKind {
    /// For messages: "is never a vector".
    pub fn describe(self) -> &'static str {
        match self {
            IndexKind::Any => "can be anything",
            IndexKind::NoVector => "is never a vector",
            IndexKind::Pointer => "is always a pointer",
            IndexKind::Vector => "is always a vector",
        }
    }
}

/// The clear cases; every other index is `Any`.
static KINDS: &[(&str, &[(u8, IndexKind)])] = {
    use IndexKind::{NoVector as N, Pointer as P, Vector as V};
    &[
        ("G_CONSTANT", &[(0, N)]),
        ("G_FCONSTANT", &[(0, N)]),
        ("G_FRAME_INDEX", &[(0, P)]),
        ("G_GLOBAL_VALUE", &[(0, P)]),
        ("G_BLOCK_ADDR", &[(0, P)]),
        ("G_CONSTANT_POOL", &[(0, P)]),
        ("G_JUMP_TABLE", &[(0, P)]),
        ("G_BRCOND", &[(0, N)]),
        ("G_BRINDIRECT", &[(0, P)]),
        ("G_BRJT", &[(0, P), (1, N)]),
        ("G_DYN_STACKALLOC", &[(0, P), (1, N)]),
        ("G_STACKSAVE", &[(0, P)]),
        ("G_STACKRESTORE", &[(0, P)]),
        ("G_VASTART", &[(0, P)]),
        ("G_VAARG", &[(1, P)]),
        ("G_LOAD", &[(1, P)]),
        ("G_SEXTLOAD", &[(1, P)]),
        ("G_ZEXTLOAD", &[(1, P)]),
        ("G_STORE", &[(1, P)]),
        ("G_ATOMIC_CMPXCHG", &[(1, P)]),
        ("G_ATOMIC_CMPXCHG_WITH_SUCCESS", &[(2, P)]),
        ("G_ATOMICRMW_XCHG", &[(1, P)]),
        ("G_ATOMICRMW_ADD", &[(1, P)]),
        ("G_ATOMICRMW_SUB", &[(1, P)]),
        ("G_ATOMICRMW_AND", &[(1, P)]),
        ("G_ATOMICRMW_OR", &[(1, P)]),
        ("G_ATOMICRMW_XOR", &[(1, P)]),
        ("G_MEMCPY", &[(0, P), (1, P), (2, N)]),
        ("G_MEMMOVE", &[(0, P), (1, P), (2, N)]),
        ("G_MEMCPY_INLINE", &[(0, P), (1, P), (2, N)]),
        ("G_MEMSET", &[(0, P), (1, N), (2, N)]),
        ("G_BZERO", &[(0, P), (1, N)]),
        ("G_BUILD_VECTOR", &[(0, V), (1, N)]),
        ("G_BUILD_VECTOR_TRUNC", &[(0, V), (1, N)]),
        ("G_CONCAT_VECTORS", &[(0, V), (1, V)]),
        ("G_EXTRACT_VECTOR_ELT", &[(0, N), (1, V), (2, N)]),
        ("G_INSERT_VECTOR_ELT", &[(0, V), (1, N), (2, N)]),
        ("G_SPLAT_VECTOR", &[(0, V), (1, N)]),
        ("G_INSERT_SUBVECTOR", &[(0, V), (1, V)]),
        ("G_EXTRACT_SUBVECTOR", &[(0, V), (1, V)]),
        ("G_STEP_VECTOR", &[(0, V)]),
        ("G_VECREDUCE_SEQ_FADD", &[(0, N), (1, N), (2, V)]),
        ("G_VECREDUCE_SEQ_FMUL", &[(0, N), (1, N), (2, V)]),
        ("G_VECREDUCE_FADD", &[(0, N), (1, V)]),
        ("G_VECREDUCE_FMUL", &[(0, N), (1, V)]),
        ("G_VECREDUCE_FMAX", &[(0, N), (1, V)]),
        ("G_VECREDUCE_FMIN", &[(0, N), (1, V)]),
        ("G_VECREDUCE_FMAXIMUM", &[(0, N), (1, V)]),
        ("G_VECREDUCE_FMINIMUM", &[(0, N), (1, V)]),
        ("G_VECREDUCE_ADD", &[(0, N), (1, V)]),
        ("G_VECREDUCE_MUL", &[(0, N), (1, V)]),
        ("G_VECREDUCE_AND", &[(0, N), (1, V)]),
        ("G_VECREDUCE_OR", &[(0, N), (1, V)]),
        ("G_VECREDUCE_XOR", &[(0, N), (1, V)]),
        ("G_VECREDUCE_SMAX", &[(0, N), (1, V)]),
        ("G_VECREDUCE_SMIN", &[(0, N), (1, V)]),
        ("G_VECREDUCE_UMAX", &[(0, N), (1, V)]),
        ("G_VECREDUCE_UMIN", &[(0, N), (1, V)]),
    ]
};

/// What type index `idx` of `opcode` can hold.
pub fn index_kind(opcode: Opcode, idx: u8) -> IndexKind {
    KINDS
        .iter()
        .find(|(name, _)| *name == opcode.name())
        .and_then(|(_, kinds)| kinds.iter().find(|(i, _)| *i == idx))
        .map_or(IndexKind::Any, |(_, kind)| *kind)
}

/// The helper can lower `opcode`.
pub fn lowerable(opcode: Opcode) -> bool {
    LOWERABLE.contains(&opcode.name())
}

/// The helper can turn `opcode` into a library call.
pub fn libcallable(opcode: Opcode) -> bool {
    LIBCALLABLE.contains(&opcode.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_an_opcode_and_every_index_exists() {
        for name in LOWERABLE.iter().chain(LIBCALLABLE) {
            assert!(Opcode::from_name(name).is_some_and(Opcode::is_legalizable), "{name}");
        }
        for (name, kinds) in KINDS {
            let opcode = Opcode::from_name(name).unwrap_or_else(|| panic!("{name}"));
            for (idx, _) in *kinds {
                assert!(usize::from(*idx) < opcode.num_type_indices(), "{name} type{idx}");
            }
        }
        assert_eq!(index_kind(Opcode::G_LOAD, 1), IndexKind::Pointer);
        assert_eq!(index_kind(Opcode::G_ADD, 0), IndexKind::Any);
    }
}
