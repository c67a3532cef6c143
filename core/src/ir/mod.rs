//! GMIR, the generic machine IR: functions of blocks of instructions over
//! virtual registers typed by [`Llt`](crate::ty::Llt).

mod arena;
mod builder;
mod entity;
pub mod fpconst;
mod frame;
mod function;
mod inst;
mod jump_table;
mod mem;
mod names;
mod node;
mod operand;
mod target_insts;
mod verify;

pub use builder::{Builder, InsertPoint};
pub use entity::{Block, Inst, Symbol, VReg};
pub use fpconst::{FpConst, FpKind};
pub use frame::{ConstantPool, PoolConstant, StackFrame, StackTemporary};
pub use function::{BlockData, BlockInsts, CreationMark, Function, Successor, VRegInfo};
pub use inst::{INST_FLAG_NAMES, InstData, InstFlags, InstOpcode};
pub use jump_table::JumpTableKind;
pub use mem::{AtomicOrdering, MemFlags, MemOperand, MemSize, common_alignment, natural_alignment};
pub use names::Names;
pub use operand::{
    FlaggedOperand, FloatPredicate, FrameRef, IntPredicate, Operand, Reg, RegFlags, RegOperand, SymbolOffset,
};
pub use target_insts::{
    is_known_barrier, is_known_terminator, is_side_effect_free_target_generic, target_generic_layout,
};
pub use verify::{RegisterBits, TargetFacts, VerifyError, verify, verify_for_target};
