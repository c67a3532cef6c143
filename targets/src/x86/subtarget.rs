//! The X86 subtarget: 32- or 64-bit mode from the triple and the features
//! the legalizer looks at, from the CPU and `-mattr`, with LLVM's
//! implications (`avx2` implies `avx`, ..., `sse2` implies `sse`;
//! `avx512bw` implies `avx512f`). llc's default CPU, `generic`, has x87
//! and `cx8`; a 64-bit triple adds `sse2` (LLVM's `ParseX86Triple`).
//! Unknown features are ignored, as `llc` does after its warning.

/// One feature the legalizer (or a feature implying one) cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Feature {
    /// x87 floating point.
    X87,
    /// Conditional moves.
    Cmov,
    /// SSE.
    Sse1,
    /// SSE2.
    Sse2,
    /// SSE3.
    Sse3,
    /// SSSE3.
    Ssse3,
    /// SSE4.1.
    Sse41,
    /// SSE4.2.
    Sse42,
    /// AMD's SSE4a.
    Sse4a,
    /// AVX.
    Avx,
    /// AVX2.
    Avx2,
    /// Fused multiply-add (implies AVX).
    Fma,
    /// Half-precision conversions (implies AVX).
    F16c,
    /// AVX-512 foundation.
    Avx512f,
    /// AVX-512 doubleword and quadword instructions.
    Avx512dq,
    /// AVX-512 byte and word instructions.
    Avx512bw,
    /// AVX-512 vector length extensions.
    Avx512vl,
    /// AVX-512 conflict detection.
    Avx512cd,
    /// `popcnt`.
    Popcnt,
    /// `lzcnt`.
    Lzcnt,
    /// BMI (`tzcnt`, ...).
    Bmi,
    /// Floating point in software (no x87 or SSE instructions used).
    SoftFloat,
}

use Feature::*;

/// Feature names as `-mattr` spells them.
const NAMES: &[(&str, Feature)] = &[
    ("x87", X87),
    ("cmov", Cmov),
    ("sse", Sse1),
    ("sse2", Sse2),
    ("sse3", Sse3),
    ("ssse3", Ssse3),
    ("sse4.1", Sse41),
    ("sse4.2", Sse42),
    ("sse4a", Sse4a),
    ("avx", Avx),
    ("avx2", Avx2),
    ("fma", Fma),
    ("f16c", F16c),
    ("avx512f", Avx512f),
    ("avx512dq", Avx512dq),
    ("avx512bw", Avx512bw),
    ("avx512vl", Avx512vl),
    ("avx512cd", Avx512cd),
    ("popcnt", Popcnt),
    ("lzcnt", Lzcnt),
    ("bmi", Bmi),
    ("soft-float", SoftFloat),
];

/// What each feature implies directly (LLVM's `X86.td`).
fn implied(feature: Feature) -> &'static [Feature] {
    match feature {
        Sse2 => &[Sse1],
        Sse3 => &[Sse2],
        Ssse3 | Sse4a => &[Sse3],
        Sse41 => &[Ssse3],
        Sse42 => &[Sse41],
        Avx => &[Sse42],
        Avx2 | Fma | F16c => &[Avx],
        Avx512f => &[Avx2, Fma, F16c],
        Avx512dq | Avx512bw | Avx512vl | Avx512cd => &[Avx512f],
        _ => &[],
    }
}

/// Features outside [`Feature`] that imply some of them, as (name, what it
/// implies directly): enabling one enables those.
const IMPLYING: &[(&str, &[Feature])] = &[
    ("avx512fp16", &[Avx512bw, Avx512dq, Avx512vl]),
    ("avx512vbmi", &[Avx512bw]),
    ("avx512vbmi2", &[Avx512bw]),
    ("avx512bitalg", &[Avx512bw]),
    ("avx512bf16", &[Avx512bw]),
    ("avx512ifma", &[Avx512f]),
    ("avx512vnni", &[Avx512f]),
    ("avx512vpopcntdq", &[Avx512f]),
    ("avx512vp2intersect", &[Avx512f]),
    ("avx10.1", &[Avx512bw, Avx512dq, Avx512vl, Avx512cd]),
    ("avx10.1-512", &[Avx512bw, Avx512dq, Avx512vl, Avx512cd]),
    ("fma4", &[Avx, Sse4a]),
    ("xop", &[Avx, Sse4a]),
    ("aes", &[Sse2]),
    ("pclmul", &[Sse2]),
    ("sha", &[Sse2]),
    ("gfni", &[Sse2]),
    ("vaes", &[Avx]),
    ("vpclmulqdq", &[Avx]),
    ("avxvnni", &[Avx2]),
    ("avxifma", &[Avx2]),
];

/// An X86 subtarget: the mode and the enabled features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtarget {
    is_64bit: bool,
    linux: bool,
    features: u32,
}

impl Subtarget {
    /// The subtarget for `triple` (`x86_64...`, `amd64...` or
    /// `i386...`..`i686...`) and the feature string `features` (the CPU's
    /// features first, then `-mattr`), or `None` for another triple. With
    /// no CPU features given, llc's `generic` CPU: x87, plus SSE2 in
    /// 64-bit mode.
    pub fn new(triple: &str, features: &str) -> Option<Subtarget> {
        let arch = triple.split('-').next().unwrap_or(triple);
        let is_64bit = match arch {
            "x86_64" | "amd64" => true,
            "i386" | "i486" | "i586" | "i686" => false,
            _ => return None,
        };
        let linux = triple.split('-').skip(1).any(|part| part.starts_with("linux"));
        let mut st = Subtarget { is_64bit, linux, features: 0 };
        st.enable(X87);
        if is_64bit {
            st.enable(Sse2);
        }
        for (enable, name) in crate::options::feature_items(features) {
            if let Some(&(_, feature)) = NAMES.iter().find(|(n, _)| *n == name) {
                if enable { st.enable(feature) } else { st.disable(feature) }
            } else if let Some((_, implies)) = IMPLYING.iter().find(|(n, _)| *n == name).filter(|_| enable) {
                implies.iter().for_each(|&feature| st.enable(feature));
            }
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

    /// 64-bit mode.
    pub fn is_64bit(&self) -> bool {
        self.is_64bit
    }

    /// The triple's OS is Linux (the only one whose calls LLVM 22's X86
    /// call lowering makes).
    pub fn is_linux(&self) -> bool {
        self.linux
    }

    /// The pointer and widest general-purpose register size in bits.
    pub fn pointer_bits(&self) -> u32 {
        if self.is_64bit { 64 } else { 32 }
    }

    /// Conditional moves are usable (LLVM's `canUseCMOV`: CMOV, SSE or
    /// 64-bit mode).
    pub fn can_use_cmov(&self) -> bool {
        self.has(Cmov) || self.has(Sse1) || self.is_64bit
    }

    /// x87 instructions are used (x87 without soft float).
    pub fn use_x87(&self) -> bool {
        self.has(X87) && !self.has(SoftFloat)
    }

    /// Floating point in software.
    pub fn use_soft_float(&self) -> bool {
        self.has(SoftFloat)
    }

    /// AVX-512 with `feature` (LLVM's `hasDQI`/`hasBWI` as the legalizer
    /// reads them: `hasAVX512() && ...`).
    pub fn has_avx512_with(&self, feature: Feature) -> bool {
        self.has(Avx512f) && self.has(feature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_give_the_generic_cpu() {
        let x64 = Subtarget::new("x86_64-unknown-linux-gnu", "").unwrap_or_else(|| panic!("x86_64"));
        assert!(x64.is_64bit() && x64.has(Sse2) && x64.has(Sse1) && !x64.has(Sse3) && x64.can_use_cmov());
        let i386 = Subtarget::new("i386", "").unwrap_or_else(|| panic!("i386"));
        assert!(!i386.is_64bit() && !i386.has(Sse1) && i386.use_x87() && !i386.can_use_cmov());
        assert!(Subtarget::new("riscv64", "").is_none());
    }

    #[test]
    fn implications_follow_llvm() {
        let avx512 = Subtarget::new("x86_64", "+avx512bw").unwrap_or_else(|| panic!("x86_64"));
        assert!([Avx512f, Avx2, Avx, Sse42, Sse41, Fma].iter().all(|f| avx512.has(*f)));
        let no_sse2 = Subtarget::new("x86_64", "+avx2,-sse2").unwrap_or_else(|| panic!("x86_64"));
        assert!(no_sse2.has(Sse1) && !no_sse2.has(Avx) && !no_sse2.has(Avx2));
        let fp16 = Subtarget::new("i686", "+avx512fp16").unwrap_or_else(|| panic!("i686"));
        assert!(fp16.has_avx512_with(Avx512vl) && fp16.can_use_cmov());
        let soft = Subtarget::new("i686", "+soft-float").unwrap_or_else(|| panic!("i686"));
        assert!(!soft.use_x87());
    }
}
