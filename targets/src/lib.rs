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
mod options;
pub mod toy;

use gisel_core::legality::LegalizerInfo;
use gisel_core::legalize::{DefaultTarget, LegalizeTarget};

pub use options::TargetOptions;

/// A target ready for the legalizer: its rules and its hooks.
pub struct Target {
    /// The rules.
    pub info: LegalizerInfo,
    /// Custom legalization, calling convention, lowering choices.
    pub hooks: Box<dyn LegalizeTarget + Send>,
    /// Whether llc, without `-global-isel-abort`, goes on past a function
    /// it cannot legalize (marking it `failedISel`) instead of stopping:
    /// AArch64 at `-O0` uses GlobalISel with a SelectionDAG fallback.
    pub falls_back_by_default: bool,
}

/// The target for `triple` (as `-mtriple` or the IR module gives it).
pub fn target_for(triple: &str, options: &TargetOptions) -> Result<Target, String> {
    let arch = triple.split('-').next().unwrap_or(triple);
    match arch {
        "toy32" => Ok(Target { info: toy::toy(), hooks: Box::new(DefaultTarget), falls_back_by_default: false }),
        a if a.starts_with("aarch64") || a == "arm64" => Ok(aarch64::target(triple, options)),

        a if a.starts_with("riscv32") || a.starts_with("riscv64") => {
            riscv::target(triple, options).ok_or_else(|| format!("bad RISC-V triple '{triple}'"))
        }
        _ => {
            let _ = options;
            Err(format!("no legalizer rules for target '{triple}' yet"))
        }
    }
}
