//! 32-bit Arm and Thumb-2: the subtarget from the triple, CPU and features
//! ([`subtarget`]), LLVM 22's `ARMLegalizerInfo` rules ([`rules`]), and the
//! hooks ([`hooks`]: custom legalization, AEABI and libgcc library calls
//! under the AAPCS and AAPCS-VFP conventions).

mod calls;
pub mod hooks;
mod libcalls;
pub mod rules;
pub mod subtarget;
#[cfg(test)]
mod tests;

pub use hooks::ArmHooks;
pub use subtarget::Subtarget;

use crate::{Target, TargetOptions};

/// The Arm target for `triple` and the llc options.
pub fn target(triple: &str, options: &TargetOptions) -> Target {
    let mut st = Subtarget::new(triple, options.cpu.as_deref(), &options.features);
    if options.soft_float {
        st.set("soft-float", true);
    }
    match options.float_abi.as_deref() {
        Some("hard") => st.set_hard_float_abi(true),
        Some("soft") => st.set_hard_float_abi(false),
        _ => {}
    }
    Target { info: rules::arm(&st), hooks: Box::new(ArmHooks::new(st)) }
}
