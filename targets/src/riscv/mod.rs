//! RISC-V (RV32 and RV64): the subtarget from the triple and `-mattr`,
//! LLVM 22's legality rules, and the hooks (the `*W` forms of RV64, the
//! libcall ABI with its soft- and hard-float variants).

pub mod hooks;
mod jump_table;
mod mat_int;
pub mod rules;
pub mod subtarget;
mod subvector;

#[cfg(test)]
mod tests;

use crate::{Target, TargetOptions};
pub use subtarget::Subtarget;

/// The target for a `riscv32*`/`riscv64*` triple, or `None` for another.
pub fn target(triple: &str, options: &TargetOptions) -> Option<Target> {
    let mut st = Subtarget::new(triple, &options.features)?;
    if let Some(abi) = &options.abi {
        st.set_abi(abi);
    }
    let info = rules::riscv(&st);
    Some(Target { info, hooks: Box::new(hooks::RiscvHooks::new(st)) })
}
