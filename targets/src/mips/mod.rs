//! 32-bit Mips under the O32 ABI: the subtarget from the triple, CPU and
//! features ([`subtarget`]), LLVM 22's `MipsLegalizerInfo` rules
//! ([`rules`]), and the hooks ([`hooks`]: custom legalization, MSA
//! intrinsics, library calls).

mod calls;
pub mod hooks;
pub mod rules;
pub mod subtarget;
#[cfg(test)]
mod tests;

pub use hooks::MipsHooks;
pub use subtarget::Subtarget;

use crate::{Target, TargetOptions};

/// The Mips target for `triple` and the llc options, or llc's fatal error
/// about the subtarget.
pub fn target(triple: &str, options: &TargetOptions) -> Result<Target, String> {
    let mut st = Subtarget::new(triple, options.cpu.as_deref(), &options.features);
    if options.soft_float {
        st.set("soft-float", true);
    }
    st.check()?;
    Ok(Target { info: rules::mips(&st), hooks: Box::new(MipsHooks::new(st)) })
}
