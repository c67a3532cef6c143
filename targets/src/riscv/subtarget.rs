//! The RISC-V subtarget: XLEN from the triple and the ISA extensions from
//! `-mattr`, with LLVM's implications (`m` implies `zmmul`, `d` implies
//! `f`, `v` implies `zve64d`, ...). Unknown features are ignored, as `llc`
//! does after its "not a recognized feature" warning.

/// One ISA extension or tuning feature the legalizer cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Feature {
    /// Integer multiply and divide.
    M,
    /// Integer multiply only.
    Zmmul,
    /// Atomics.
    A,
    /// Single-precision floating point.
    F,
    /// Double-precision floating point.
    D,
    /// Half-precision floating point.
    Zfh,
    /// Minimal half-precision (conversions, moves).
    Zfhmin,
    /// Additional floating-point instructions (`fround`, `fminm`, ...).
    Zfa,
    /// Address generation (`sh1add`, `add.uw`, ...).
    Zba,
    /// Basic bit manipulation.
    Zbb,
    /// Single-bit instructions (`bseti`, `bclri`, ...).
    Zbs,
    /// Bit manipulation for cryptography.
    Zbkb,
    /// The full vector extension (application profile).
    V,
    /// Embedded vectors: 32-bit integer elements.
    Zve32x,
    /// Embedded vectors: 32-bit float elements.
    Zve32f,
    /// Embedded vectors: 64-bit integer elements.
    Zve64x,
    /// Embedded vectors: 32-bit float elements, ELEN 64.
    Zve64f,
    /// Embedded vectors: 64-bit float elements.
    Zve64d,
    /// Unaligned scalar loads and stores are fast.
    UnalignedScalarMem,
    /// Vector loads and stores need not be aligned to their element.
    UnalignedVectorMem,
}

use super::mat_int::MatFeatures;
use Feature::*;

/// Feature names as `-mattr` spells them.
const NAMES: &[(&str, Feature)] = &[
    ("m", M),
    ("zmmul", Zmmul),
    ("a", A),
    ("f", F),
    ("d", D),
    ("zfh", Zfh),
    ("zfhmin", Zfhmin),
    ("zfa", Zfa),
    ("zba", Zba),
    ("zbb", Zbb),
    ("zbs", Zbs),
    ("zbkb", Zbkb),
    ("v", V),
    ("zve32x", Zve32x),
    ("zve32f", Zve32f),
    ("zve64x", Zve64x),
    ("zve64f", Zve64f),
    ("zve64d", Zve64d),
    ("unaligned-scalar-mem", UnalignedScalarMem),
    ("unaligned-vector-mem", UnalignedVectorMem),
];

/// What each feature implies directly (LLVM's `RISCVFeatures.td`).
fn implied(feature: Feature) -> &'static [Feature] {
    match feature {
        M => &[Zmmul],
        D => &[F],
        Zfh => &[Zfhmin],
        Zfhmin | Zfa => &[F],
        V => &[Zve64d],
        Zve64d => &[Zve64f, D],
        Zve64f => &[Zve32f, Zve64x],
        Zve32f => &[Zve32x, F],
        Zve64x => &[Zve32x],
        _ => &[],
    }
}

/// The floating-point calling convention `llc` picks when no ABI is given:
/// the widest hardware float type the features provide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatAbi {
    /// `ilp32`/`lp64`: floats travel in integer registers.
    Soft,
    /// `ilp32f`/`lp64f`: `float` in FP registers.
    Single,
    /// `ilp32d`/`lp64d`: `float` and `double` in FP registers.
    Double,
}

/// A RISC-V subtarget: XLEN and the enabled features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtarget {
    is_64bit: bool,
    features: u32,
    abi: Option<FloatAbi>,
}

impl Subtarget {
    /// The subtarget for `triple` (`riscv32...` or `riscv64...`) and the
    /// `-mattr` string (`+m,+d,-zbb`). Returns `None` for another triple.
    pub fn new(triple: &str, mattr: &str) -> Option<Subtarget> {
        let arch = triple.split('-').next().unwrap_or(triple);
        let is_64bit = match arch {
            a if a.starts_with("riscv64") => true,
            a if a.starts_with("riscv32") => false,
            _ => return None,
        };
        let mut st = Subtarget { is_64bit, features: 0, abi: None };
        for (enable, name) in crate::options::feature_items(mattr) {
            let Some(&(_, feature)) = NAMES.iter().find(|(n, _)| *n == name) else { continue };
            if enable { st.enable(feature) } else { st.disable(feature) }
        }
        Some(st)
    }

    /// Enables `feature` and everything it implies.
    pub fn enable(&mut self, feature: Feature) {
        self.features |= 1 << feature as u8;
        for &next in implied(feature) {
            self.enable(next);
        }
    }

    /// Disables `feature` and every feature that implies it (LLVM's
    /// `ClearImpliedBits`).
    pub fn disable(&mut self, feature: Feature) {
        self.features &= !(1 << feature as u8);
        for &(_, other) in NAMES {
            if self.has(other) && implied(other).contains(&feature) {
                self.disable(other);
            }
        }
    }

    /// Whether `feature` is enabled.
    pub fn has(&self, feature: Feature) -> bool {
        self.features & (1 << feature as u8) != 0
    }

    /// RV64.
    pub fn is_64bit(&self) -> bool {
        self.is_64bit
    }

    /// XLEN in bits.
    pub fn xlen(&self) -> u32 {
        if self.is_64bit { 64 } else { 32 }
    }

    /// `M`.
    pub fn has_m(&self) -> bool {
        self.has(M)
    }

    /// `Zmmul` (implied by `M`).
    pub fn has_zmmul(&self) -> bool {
        self.has(Zmmul)
    }

    /// `A`.
    pub fn has_a(&self) -> bool {
        self.has(A)
    }

    /// `F`.
    pub fn has_f(&self) -> bool {
        self.has(F)
    }

    /// `D`.
    pub fn has_d(&self) -> bool {
        self.has(D)
    }

    /// `Zfh`.
    pub fn has_zfh(&self) -> bool {
        self.has(Zfh)
    }

    /// `Zfa`.
    pub fn has_zfa(&self) -> bool {
        self.has(Zfa)
    }

    /// `Zbb`.
    pub fn has_zbb(&self) -> bool {
        self.has(Zbb)
    }

    /// `Zbkb`.
    pub fn has_zbkb(&self) -> bool {
        self.has(Zbkb)
    }

    /// The extensions RV64 can use to build a constant in fewer
    /// instructions.
    pub fn mat_features(&self) -> MatFeatures {
        MatFeatures { zba: self.has(Zba), zbb: self.has(Zbb), zbs: self.has(Zbs), zbkb: self.has(Zbkb) }
    }

    /// Zbb or Zbkb: rotates and byte swaps.
    pub fn has_rotates(&self) -> bool {
        self.has_zbb() || self.has_zbkb()
    }

    /// Any vector instructions (`Zve32x`).
    pub fn has_v_instructions(&self) -> bool {
        self.has(Zve32x)
    }

    /// Vectors with 64-bit integer elements (`Zve64x`).
    pub fn has_v_instructions_i64(&self) -> bool {
        self.has(Zve64x)
    }

    /// Vectors with 64-bit float elements (`Zve64d`).
    pub fn has_v_instructions_f64(&self) -> bool {
        self.has(Zve64d)
    }

    /// The smallest VLEN in bits the features guarantee: 128 with `V`, 64
    /// with `Zve64x`, 32 with `Zve32x`, 0 without vectors.
    pub fn min_vlen(&self) -> u32 {
        if self.has(V) {
            128
        } else if self.has(Zve64x) {
            64
        } else if self.has(Zve32x) {
            32
        } else {
            0
        }
    }

    /// The maximum vector element width: 64 with `Zve64x`, else 32.
    pub fn elen(&self) -> u32 {
        if self.has(Zve64x) { 64 } else { 32 }
    }

    /// Unaligned scalar memory accesses are allowed.
    pub fn enable_unaligned_scalar_mem(&self) -> bool {
        self.has(UnalignedScalarMem)
    }

    /// Vector memory accesses aligned below their element are allowed.
    pub fn enable_unaligned_vector_mem(&self) -> bool {
        self.has(UnalignedVectorMem)
    }

    /// Sets the ABI by name (the module's `"target-abi"` flag: `lp64d`,
    /// `ilp32f`, `lp64` ...); an unknown name leaves the default.
    pub fn set_abi(&mut self, name: &str) {
        let float = name.strip_prefix(if self.is_64bit { "lp64" } else { "ilp32" });
        self.abi = match float {
            Some("" | "e") => Some(FloatAbi::Soft),
            Some("f") => Some(FloatAbi::Single),
            Some("d") => Some(FloatAbi::Double),
            _ => self.abi,
        };
    }

    /// The float ABI: the one set by name, which llc keeps for calls even
    /// when the features lack its registers; otherwise the default llc 22
    /// picks: `D` gives `lp64d`/`ilp32d`, `F` gives `lp64f`/`ilp32f`,
    /// otherwise soft float.
    pub fn float_abi(&self) -> FloatAbi {
        if let Some(abi) = self.abi {
            abi
        } else if self.has_d() {
            FloatAbi::Double
        } else if self.has_f() {
            FloatAbi::Single
        } else {
            FloatAbi::Soft
        }
    }
}
