//! gisel-targets: targets for the legalizer, each a rule set written with
//! the [`legalizer!`](gisel_macros::legalizer) macro plus its hooks
//! (custom legalization, calling convention), one module per target.
//!
//! ```
//! use gisel_core::legality::check;
//! let info = gisel_targets::toy::toy();
//! assert!(check::check_all(&info).is_clean());
//! ```

pub mod riscv;

pub mod aarch64;
pub mod arm;
pub mod mips;
mod names;
mod options;
pub mod toy;
pub mod x86;

use gisel_core::legality::LegalizerInfo;
use gisel_core::legalize::{DefaultTarget, LegalizeTarget};

pub use options::{TargetOptions, feature_items};

/// A target ready for the legalizer: its rules and its hooks.
pub struct Target {
    /// The rules.
    pub info: LegalizerInfo,
    /// Custom legalization, calling convention, lowering choices.
    pub hooks: Box<dyn LegalizeTarget + Send>,
}

/// The architectures gisel has rules for, as a triple names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// The toy 32-bit target of the guide.
    Toy32,
    /// `aarch64*` and `arm64`.
    AArch64,
    /// `riscv32*` and `riscv64*`.
    RiscV,
    /// `x86_64*`, `amd64*` and `i386*` to `i686*`.
    X86,
    /// 32-bit Arm and Thumb (`arm*`, `thumb*`).
    Arm,
    /// 32-bit Mips (`mips`, `mipsel`, `mipsisa32*`).
    Mips,
}

impl Arch {
    /// The architecture of `triple` (as `-mtriple` or the IR module gives
    /// it), or why gisel has no target for it.
    pub fn of(triple: &str) -> Result<Arch, String> {
        match triple.split('-').next().unwrap_or(triple) {
            "toy32" => Ok(Arch::Toy32),
            a if a.starts_with("aarch64") || a == "arm64" => Ok(Arch::AArch64),
            a if a.starts_with("riscv32") || a.starts_with("riscv64") => Ok(Arch::RiscV),
            "x86_64" | "amd64" | "i386" | "i486" | "i586" | "i686" => Ok(Arch::X86),
            a if (a.starts_with("arm") && !a.starts_with("arm64")) || a.starts_with("thumb") => Ok(Arch::Arm),
            "mips" | "mipsel" | "mipsallegrex" | "mipsallegrexel" => Ok(Arch::Mips),
            a if a.starts_with("mipsisa32") => Ok(Arch::Mips),
            _ => Err(format!("no legalizer rules for target '{triple}' yet")),
        }
    }

    /// Whether llc, without `-global-isel-abort`, goes on past a function
    /// it cannot legalize (marking it `failedISel`) instead of stopping:
    /// AArch64 at `-O0` uses GlobalISel with a SelectionDAG fallback.
    pub fn falls_back_by_default(self, options: &TargetOptions) -> bool {
        self == Arch::AArch64 && options.opt_level == 0
    }
}

/// The target for `triple` (as `-mtriple` or the IR module gives it); the
/// CPU's features ([`Arch::base_features`]) come before `options.features`,
/// as llc builds a subtarget.
pub fn target_for(triple: &str, options: &TargetOptions) -> Result<Target, String> {
    let arch = Arch::of(triple)?;
    let with_cpu;
    let options = match arch.base_features(options.cpu.as_deref()) {
        Some(cpu_features) => {
            with_cpu = TargetOptions { features: format!("{cpu_features},{}", options.features), ..options.clone() };
            &with_cpu
        }
        None => options,
    };
    match arch {
        Arch::Toy32 => Ok(Target { info: toy::toy(), hooks: Box::new(DefaultTarget) }),
        Arch::AArch64 => Ok(aarch64::target(triple, options)),
        Arch::RiscV => riscv::target(triple, options).ok_or_else(|| format!("bad RISC-V triple '{triple}'")),
        Arch::X86 => x86::target(triple, options).ok_or_else(|| format!("bad X86 triple '{triple}'")),
        Arch::Arm => Ok(arm::target(triple, options)),
        Arch::Mips => mips::target(triple, options),
    }
}
