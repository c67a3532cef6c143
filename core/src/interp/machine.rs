//! The interpreter proper: register and memory state, the walk over the
//! control-flow graph (`G_PHI`, `G_BR`, `G_BRCOND`, jump tables, indirect
//! branches, fall-through, return), copies between virtual and physical
//! registers, calls (to known runtime functions, and to anything else
//! through the oracle), and dispatch of every other instruction to its
//! family.

use super::abi::Abi;
use super::atomic::{self, Outline};
use super::call_args::{Assigner, Place};
use super::eval::{BoolExt, Ctx, VSCALE, eval_pure};
use super::external::{ExternalCall, Oracle, ResultReg};
use super::fp_state::{self, FpState, StateFunction};
use super::input_sites::asserted_extension;
use super::libcall::{self, Kind, StoresThrough};
use super::mem_calls::MemFn;
use super::memory::{FixedObjects, Memory, frame_address, incoming_address, stack_region, variadic_area};
use super::softfloat::Format;
use super::symbols::Symbols;
use super::value::Value;
use super::{InterpError, Program, float, mem_ops, target_ops, x87_ops};
use crate::apint::ApInt;
use crate::ir::{Block, FrameRef, Function, Inst, InstData, InstOpcode, MemOperand, Operand, Reg, RegOperand};
use crate::opcode::Opcode;
use crate::ty::Llt;
use rustc_hash::FxHashMap;

/// The inputs of one run: live-in physical registers by name (`w0`, `x10`,
/// `q1`, without `$`), incoming stack arguments by offset and the seed of
/// the rest of the initial memory contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Register values; each is written through the register's view.
    pub regs: Vec<(String, Value)>,
    /// Stack argument values by their offset in the caller's argument
    /// area (the `offset:` of the fixed object they are loaded from): each
    /// is the initial contents there.
    pub stack: Vec<(i64, Value)>,
    /// Seed of the bytes nobody wrote.
    pub memory_seed: u64,
}

/// Interpreter options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Instructions executed before giving up (loops).
    pub step_limit: u64,
    /// `G_FREEZE` turns undefined bits into zeros (one legal choice, for the
    /// function under test) instead of keeping them undefined (every choice,
    /// for the reference).
    pub freeze_picks_zero: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { step_limit: 1_000_000, freeze_picks_zero: false }
    }
}

/// What a run observably produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The registers the return reads, in its operand order, with values.
    pub results: Vec<(String, Value)>,
    /// Memory at the return.
    pub memory: Memory,
    /// The calls the oracle answered, in order.
    pub calls: Vec<ExternalCall>,
}

/// Runs `program` on `inputs` as a reference: calls the interpreter cannot
/// run get results hashed from their arguments (see [`ExternalCall`]).
pub fn run(program: &Program<'_>, abi: &Abi, inputs: &Inputs, options: &Options) -> Result<Outcome, InterpError> {
    Machine::new(program, abi, inputs, options, Oracle::recording())?.run()
}

/// Runs `program` on `inputs` replaying the calls of a reference run on the
/// same inputs: each call must refine the reference's call at the same
/// position and gets its results, or the run stops with
/// [`InterpError::Diverged`].
pub fn replay(
    program: &Program<'_>,
    abi: &Abi,
    inputs: &Inputs,
    options: &Options,
    reference: &[ExternalCall],
) -> Result<Outcome, InterpError> {
    Machine::new(program, abi, inputs, options, Oracle::replaying(reference))?.run()
}

struct Machine<'a> {
    func: &'a Function,
    /// The instruction being run.
    current: Option<Inst>,
    oracle: Oracle<'a>,
    /// The size of the call frame the last `ADJCALLSTACKDOWN` set up: the
    /// outgoing stack arguments.
    call_frame: u64,
    abi: &'a Abi,
    symbols: &'a Symbols,
    fixed_objects: &'a FixedObjects,
    /// The function's blocks by number, for branches to code addresses.
    blocks: FxHashMap<u32, Block>,
    options: &'a Options,
    vregs: Vec<Option<Value>>,
    units: FxHashMap<String, Value>,
    memory: Memory,
    constants: FxHashMap<u32, u64>,
    stack_pointer: u64,
    fp_env: Value,
    fp_mode: Value,
    steps: u64,
}

fn unsupported(what: impl Into<String>) -> InterpError {
    InterpError::Unsupported(what.into())
}

fn malformed(what: impl Into<String>) -> InterpError {
    InterpError::Malformed(what.into())
}

impl<'a> Machine<'a> {
    fn new(
        program: &'a Program<'a>,
        abi: &'a Abi,
        inputs: &Inputs,
        options: &'a Options,
        oracle: Oracle<'a>,
    ) -> Result<Self, InterpError> {
        let func = program.func;
        let mut m = Machine {
            func,
            current: None,
            oracle,
            call_frame: 0,
            abi,
            symbols: &program.symbols,
            fixed_objects: &program.fixed_objects,
            blocks: func.blocks().iter().map(|b| (func.block(*b).number, *b)).collect(),
            options,
            vregs: vec![None; func.num_vregs()],
            units: FxHashMap::default(),
            memory: Memory::new(inputs.memory_seed, abi.pointer_bits),
            constants: FxHashMap::default(),
            // Dynamic allocations grow down from here, below the frame
            // objects and above the constant pool.
            stack_pointer: stack_region(abi.pointer_bits).0 + 0x40_0000,
            fp_env: fp_state::default_state(),
            fp_mode: fp_state::default_state(),
            steps: 0,
        };
        m.memory.set_big_endian(abi.big_endian);
        let (base, _) = stack_region(abi.pointer_bits);
        for (id, value) in &program.constant_pool {
            let addr = base + u64::from(*id) * 0x1000;
            m.memory.write(addr, value);
            m.constants.insert(*id, addr);
        }
        program.symbols.preset_jump_tables(&mut m.memory, abi.pointer_bits);
        for (name, value) in &inputs.regs {
            m.write_phys(name, value)?;
        }
        for (offset, value) in &inputs.stack {
            m.memory.preset(incoming_address(abi.pointer_bits, *offset), value);
        }
        Ok(m)
    }

    fn name(&self, r: &RegOperand) -> Option<&str> {
        match r.reg {
            Reg::Physical(s) => Some(self.func.names.resolve(s)),
            Reg::Virtual(_) => None,
        }
    }

    fn read_phys(&self, name: &str) -> Result<Value, InterpError> {
        if self.abi.is_stack_pointer(name) {
            return Ok(Value::from_u128(self.abi.pointer_bits, u128::from(self.stack_pointer)));
        }
        let view = self.abi.view(name).ok_or_else(|| unsupported(format!("physical register ${name}")))?;
        if view.zero {
            return Ok(Value::from_u128(view.bits, 0));
        }
        let unit = self.units.get(&view.unit).cloned().unwrap_or_else(|| Value::undef(view.unit_bits));
        Ok(unit.extract(view.offset, view.bits))
    }

    fn write_phys(&mut self, name: &str, value: &Value) -> Result<(), InterpError> {
        if self.abi.is_stack_pointer(name) {
            self.stack_pointer = mem_ops::address(value)?;
            return Ok(());
        }
        let view = self.abi.view(name).ok_or_else(|| unsupported(format!("physical register ${name}")))?;
        if !view.zero {
            let old = match self.units.get(&view.unit) {
                Some(unit) if view.keeps_rest => unit.clone(),
                _ => Value::undef(view.unit_bits),
            };
            let unit = old.inserted(view.offset, &value.anyext(view.bits));
            self.units.insert(view.unit, unit);
        }
        Ok(())
    }

    /// The address of stack object `f`.
    fn object_address(&self, f: &FrameRef) -> u64 {
        if f.fixed {
            incoming_address(self.abi.pointer_bits, self.fixed_objects.offset(f.index))
        } else {
            frame_address(self.abi.pointer_bits, f.index)
        }
    }

    fn reg_ty(&self, r: &RegOperand) -> Result<Llt, InterpError> {
        match r.reg {
            Reg::Virtual(v) => Ok(self.func.ty(v)),
            Reg::Physical(s) => {
                let name = self.func.names.resolve(s);
                let view = self.abi.view(name).ok_or_else(|| unsupported(format!("physical register ${name}")))?;
                Llt::try_scalar(u64::from(view.bits)).ok_or_else(|| malformed("zero-width register"))
            }
        }
    }

    fn read(&self, r: &RegOperand) -> Result<Value, InterpError> {
        match r.reg {
            Reg::Virtual(v) => {
                self.vregs[v.index()].clone().ok_or_else(|| malformed(format!("{v:?} read before it is defined")))
            }
            Reg::Physical(s) => self.read_phys(self.func.names.resolve(s)),
        }
    }

    fn write(&mut self, r: &RegOperand, value: Value) -> Result<(), InterpError> {
        match r.reg {
            Reg::Virtual(v) => {
                let ty = self.func.ty(v);
                let value = if ty.is_valid() { value.anyext(ty.size_in_bits() as u32) } else { value };
                self.vregs[v.index()] = Some(value);
                Ok(())
            }
            Reg::Physical(s) => {
                let name = self.func.names.resolve(s).to_owned();
                self.write_phys(&name, &value)
            }
        }
    }

    fn run(mut self) -> Result<Outcome, InterpError> {
        let results = self.run_to_return()?;
        Ok(Outcome { results, memory: self.memory, calls: self.oracle.into_calls() })
    }

    /// Runs from the entry block to a return; returns the returned
    /// registers with their values.
    fn run_to_return(&mut self) -> Result<Vec<(String, Value)>, InterpError> {
        let blocks = self.func.blocks();
        let mut block = *blocks.first().ok_or_else(|| malformed("function without blocks"))?;
        let mut prev: Option<Block> = None;
        loop {
            match self.run_block(block, prev)? {
                Next::Jump(to) => {
                    prev = Some(block);
                    block = to;
                }
                Next::FallThrough => {
                    // A block without successors ends in a call that does
                    // not return; falling off the last block ends the run
                    // too (LLVM's tests often omit the return). Either
                    // way no register is returned.
                    if self.func.block(block).successors.is_empty() {
                        return Ok(Vec::new());
                    }
                    let pos = blocks.iter().position(|b| *b == block).unwrap_or(usize::MAX);
                    prev = Some(block);
                    match blocks.get(pos.wrapping_add(1)) {
                        Some(next) => block = *next,
                        None => return Ok(Vec::new()),
                    }
                }
                Next::Return(results) => return Ok(results),
            }
        }
    }

    fn run_block(&mut self, block: Block, prev: Option<Block>) -> Result<Next, InterpError> {
        let insts: Vec<Inst> = self.func.block_insts(block).collect();
        // PHIs read their inputs together, before any of them is written.
        let mut phis = Vec::new();
        for &inst in &insts {
            let data = self.func.inst(inst);
            if !(data.is(Opcode::G_PHI) || data.is(Opcode::PHI)) {
                continue;
            }
            let pred = prev.ok_or_else(|| malformed("PHI in the entry block"))?;
            let uses = data.uses();
            let incoming = uses
                .chunks(2)
                .find(|pair| matches!(pair.get(1), Some(Operand::Block(b)) if *b == pred))
                .and_then(|pair| pair[0].as_reg())
                .ok_or_else(|| malformed("PHI without a value for the predecessor"))?;
            let def = data.defs().first().and_then(Operand::as_reg).ok_or_else(|| malformed("PHI without a def"))?;
            phis.push((def.clone(), self.read(incoming)?));
        }
        for (def, value) in phis {
            self.write(&def, value)?;
        }
        for inst in insts {
            self.steps += 1;
            if self.steps > self.options.step_limit {
                return Err(InterpError::StepLimit);
            }
            self.current = Some(inst);
            if let Some(next) = self.step(self.func.inst(inst))? {
                return Ok(next);
            }
        }
        Ok(Next::FallThrough)
    }

    fn step(&mut self, data: &'a InstData) -> Result<Option<Next>, InterpError> {
        let op = match data.opcode {
            InstOpcode::Target(sym) => return self.target(data, self.func.names.resolve(sym)),
            InstOpcode::Known(op) => op,
        };
        use Opcode::*;
        let results = match op {
            G_PHI
            | PHI
            | DBG_VALUE
            | DBG_VALUE_LIST
            | DBG_INSTR_REF
            | DBG_LABEL
            | DBG_PHI
            | KILL
            | LIFETIME_START
            | LIFETIME_END
            | G_INVOKE_REGION_START
            | G_DEBUGTRAP => return Ok(None),
            G_BR => return Ok(Some(Next::Jump(block_operand(data)?))),
            G_BRCOND => {
                let cond = self.read(first_use(data)?)?;
                return match cond.bit(0) {
                    Some(true) => Ok(Some(Next::Jump(block_operand(data)?))),
                    Some(false) => Ok(None),
                    None => Err(InterpError::Undefined("branch on an undefined condition".into())),
                };
            }
            COPY => {
                let src = self.read(first_use(data)?)?;
                let def =
                    data.defs().first().and_then(Operand::as_reg).ok_or_else(|| malformed("COPY without a def"))?;
                let w = self.reg_ty(def).map_or(0, |t| t.size_in_bits() as u32);
                vec![if w == 0 { src } else { src.anyext(w) }]
            }
            G_IMPLICIT_DEF | IMPLICIT_DEF => vec![Value::undef(self.def_width(data, 0)?)],
            G_CONSTANT => {
                let c = data.uses().iter().find_map(|o| if let Operand::CImm(c) = o { Some(c) } else { None });
                let c = c.ok_or_else(|| malformed("G_CONSTANT without a value"))?;
                vec![Value::defined(c.as_ref().clone()).sext(self.def_width(data, 0)?)]
            }
            G_VSCALE => {
                let c = data.uses().iter().find_map(|o| if let Operand::CImm(c) = o { Some(c) } else { None });
                let c = c.ok_or_else(|| malformed("G_VSCALE without a multiplier"))?;
                let w = self.def_width(data, 0)?;
                let scaled = c.as_ref().sext_or_trunc(w).mul(&ApInt::from_u128(w, u128::from(VSCALE)));
                vec![Value::defined(scaled)]
            }
            G_FCONSTANT => {
                let c = data.uses().iter().find_map(|o| if let Operand::FpImm(c) = o { Some(**c) } else { None });
                let c = c.ok_or_else(|| malformed("G_FCONSTANT without a value"))?;
                let w = c.kind.bits();
                let bits = if w == 128 { c.bits.rotate_left(64) } else { c.bits };
                vec![Value::from_u128(w, bits)]
            }
            G_FREEZE => {
                let v = self.read(first_use(data)?)?;
                vec![if self.options.freeze_picks_zero { Value::defined(v.bits().clone()) } else { v }]
            }
            G_LOAD | G_SEXTLOAD | G_ZEXTLOAD => {
                let addr = self.read(first_use(data)?)?;
                let ty = self.def_ty(data, 0)?;
                vec![mem_ops::load(&self.memory, op, &addr, data.mem.first(), ty)?]
            }
            G_STORE => {
                let regs: Vec<&RegOperand> = data.uses().iter().filter_map(Operand::as_reg).collect();
                let (value, value_ty, addr) = match regs.as_slice() {
                    [v, a, ..] => (self.read(v)?, self.reg_ty(v)?, self.read(a)?),
                    _ => return Err(malformed("G_STORE needs a value and an address")),
                };
                mem_ops::store(&mut self.memory, &value, value_ty, &addr, data.mem.first())?;
                return Ok(None);
            }
            G_ATOMICRMW_XCHG | G_ATOMICRMW_ADD | G_ATOMICRMW_SUB | G_ATOMICRMW_AND | G_ATOMICRMW_NAND
            | G_ATOMICRMW_OR | G_ATOMICRMW_XOR | G_ATOMICRMW_MIN | G_ATOMICRMW_MAX | G_ATOMICRMW_UMIN
            | G_ATOMICRMW_UMAX => {
                let [addr, operand] = self.reg_uses(data)?;
                let (bits, width) = (atomic::memory_bits(data.mem.first())?, self.def_width(data, 0)?);
                vec![atomic::rmw(&mut self.memory, op, &addr, &operand, bits, width)?]
            }
            G_ATOMIC_CMPXCHG | G_ATOMIC_CMPXCHG_WITH_SUCCESS => {
                let [addr, expected, new] = self.reg_uses(data)?;
                let bits = atomic::memory_bits(data.mem.first())?;
                let width = self.def_width(data, 0)?;
                let (old, equal) = atomic::cmpxchg(&mut self.memory, &addr, &expected, &new, bits, width)?;
                if op == G_ATOMIC_CMPXCHG {
                    vec![old]
                } else {
                    vec![old, Value::from_bool(1, equal).anyext(self.def_width(data, 1)?)]
                }
            }
            G_MEMCPY | G_MEMCPY_INLINE | G_MEMMOVE | G_MEMSET | G_BZERO => {
                let f = MemFn::for_opcode(op).ok_or_else(|| unsupported(op.name()))?;
                let args: Vec<Value> = data
                    .uses()
                    .iter()
                    .filter_map(Operand::as_reg)
                    .take(f.arity())
                    .map(|r| self.read(r))
                    .collect::<Result<_, _>>()?;
                f.run(&mut self.memory, &args)?;
                return Ok(None);
            }
            G_READ_REGISTER => vec![self.read_phys(self.named_register(data, 1)?)?],
            G_WRITE_REGISTER => {
                let [value] = self.reg_uses(data)?;
                self.write_phys(self.named_register(data, 0)?, &value)?;
                return Ok(None);
            }
            G_GET_FPENV | G_GET_FPMODE => {
                let state = if op == G_GET_FPENV { &self.fp_env } else { &self.fp_mode };
                let w = self.def_width(data, 0)?;
                if w > fp_state::STATE_BITS {
                    return Err(unsupported(format!("{} wider than the modelled state", op.name())));
                }
                vec![state.extract(0, w)]
            }
            G_SET_FPENV | G_SET_FPMODE => {
                let [value] = self.reg_uses(data)?;
                let state = if op == G_SET_FPENV { &mut self.fp_env } else { &mut self.fp_mode };
                *state = state.inserted(0, &value.extract(0, value.width().min(fp_state::STATE_BITS)));
                return Ok(None);
            }
            G_RESET_FPENV => {
                self.fp_env = fp_state::default_state();
                return Ok(None);
            }
            G_RESET_FPMODE => {
                self.fp_mode = fp_state::default_state();
                return Ok(None);
            }
            G_STACKSAVE => vec![self.read_phys(self.abi.stack_pointer)?],
            G_STACKRESTORE => {
                let [saved] = self.reg_uses(data)?;
                self.write_phys(self.abi.stack_pointer, &saved)?;
                return Ok(None);
            }
            G_DYN_STACKALLOC => {
                let [size] = self.reg_uses(data)?;
                let size =
                    size.get().ok_or_else(|| InterpError::Undefined("allocation of an undefined size".into()))?;
                let align = imm_operand(data).unwrap_or(1).max(1) as u64;
                let bits = self.abi.pointer_bits;
                let mask = if bits >= 64 { u64::MAX } else { (1 << bits) - 1 };
                self.stack_pointer = (self.stack_pointer.wrapping_sub(size.low_u64()) & !(align - 1)) & mask;
                vec![self.read_phys(self.abi.stack_pointer)?]
            }
            G_VASTART => {
                let [list] = self.reg_uses(data)?;
                let bits = data.mem.first().and_then(MemOperand::memory_type).map_or(0, |t| t.size_in_bits() as u32);
                let area = match &self.func.frame.var_args {
                    Some(f) => self.object_address(f),
                    None => variadic_area(self.abi.pointer_bits),
                };
                let va_list =
                    self.abi.va_list(area, bits).ok_or_else(|| unsupported(format!("G_VASTART of s{bits}")))?;
                mem_ops::write_exact(&mut self.memory, &list, &va_list)?;
                return Ok(None);
            }
            G_VAARG => {
                let [list] = self.reg_uses(data)?;
                let align = imm_operand(data).unwrap_or(1).max(1) as u64;
                let (bits, slot) = (self.def_width(data, 0)?, self.abi.vararg_slot_bytes);
                vec![mem_ops::va_arg(&mut self.memory, &list, self.abi.pointer_bits, bits, align, slot)?]
            }
            G_FRAME_INDEX => {
                let Some(Operand::Frame(f)) = data.uses().first() else {
                    return Err(malformed("G_FRAME_INDEX operand"));
                };
                vec![self.pointer(self.def_width(data, 0)?, self.object_address(f))]
            }
            G_CONSTANT_POOL => {
                let Some(Operand::ConstantPool { index, offset }) = data.uses().first() else {
                    return Err(malformed("G_CONSTANT_POOL operand"));
                };
                let addr =
                    self.constants.get(index).ok_or_else(|| unsupported(format!("constant-pool entry {index}")))?;
                vec![Value::from_u128(self.def_width(data, 0)?, u128::from(addr.wrapping_add(*offset as u64)))]
            }
            G_GLOBAL_VALUE => {
                let Some(Operand::Global(global)) = data.uses().first() else {
                    return Err(malformed("G_GLOBAL_VALUE operand"));
                };
                let addr = self.symbols.address(&global.name, self.abi.pointer_bits).wrapping_add(global.offset as u64);
                vec![self.pointer(self.def_width(data, 0)?, addr)]
            }
            G_JUMP_TABLE => {
                let Some(Operand::JumpTable(id)) = data.uses().first() else {
                    return Err(malformed("G_JUMP_TABLE operand"));
                };
                vec![self.pointer(self.def_width(data, 0)?, self.symbols.jump_table(*id))]
            }
            G_BLOCK_ADDR => {
                let Some(Operand::BlockAddress(text)) = data.uses().first() else {
                    return Err(malformed("G_BLOCK_ADDR operand"));
                };
                let number = self.block_named(text).ok_or_else(|| unsupported(format!("blockaddress({text})")))?;
                vec![self.pointer(self.def_width(data, 0)?, Symbols::block_address(number))]
            }
            G_BRJT => {
                let Some(Operand::JumpTable(id)) = data.uses().get(1) else {
                    return Err(malformed("G_BRJT without a jump table"));
                };
                let [_, index] = self.reg_uses(data)?;
                let index = index.get().ok_or_else(|| InterpError::Undefined("G_BRJT on an undefined index".into()))?;
                let number = self
                    .symbols
                    .jump_table_target(*id, index.to_u128().and_then(|i| u64::try_from(i).ok()).unwrap_or(u64::MAX))
                    .ok_or_else(|| InterpError::Undefined(format!("G_BRJT past the end of jump table {id}")))?;
                return Ok(Some(Next::Jump(self.block_numbered(number)?)));
            }
            G_BRINDIRECT => {
                let [target] = self.reg_uses(data)?;
                let addr = mem_ops::address(&target)?;
                let number = Symbols::block_at(addr)
                    .ok_or_else(|| unsupported(format!("G_BRINDIRECT to {addr:#x}, not the address of a block")))?;
                return Ok(Some(Next::Jump(self.block_numbered(number)?)));
            }
            G_ASSERT_ALIGN => vec![self.read(first_use(data)?)?],
            _ => {
                let ctx = self.context(op, data)?;
                eval_pure(&ctx)?.ok_or_else(|| unsupported(op.name()))?
            }
        };
        self.write_defs(data, results)?;
        Ok(None)
    }

    /// The values of the first `N` register uses of `data`.
    fn reg_uses<const N: usize>(&self, data: &InstData) -> Result<[Value; N], InterpError> {
        let values: Vec<Value> =
            data.uses().iter().filter_map(Operand::as_reg).take(N).map(|r| self.read(r)).collect::<Result<_, _>>()?;
        values.try_into().map_err(|_| malformed(format!("expected {N} register uses")))
    }

    /// A pointer value `bits` wide holding `addr`.
    fn pointer(&self, bits: u32, addr: u64) -> Value {
        Value::from_u128(bits, u128::from(addr))
    }

    /// The block numbered `number`.
    fn block_numbered(&self, number: u32) -> Result<Block, InterpError> {
        self.blocks.get(&number).copied().ok_or_else(|| unsupported(format!("a branch to %bb.{number}, no block")))
    }

    /// The number of the block a `blockaddress(@f, %ir-block.name)` names,
    /// when `@f` is this function.
    fn block_named(&self, text: &str) -> Option<u32> {
        let (function, block) = text.split_once(',')?;
        let function = function.trim().strip_prefix('@')?;
        let block = block.trim().strip_prefix("%ir-block.")?;
        if crate::llvm_ir::unquote(function) != self.func.name.as_str() {
            return None;
        }
        self.func
            .blocks()
            .iter()
            .map(|b| self.func.block(*b))
            .find(|b| b.ir_name.as_deref() == Some(block))
            .map(|b| b.number)
    }

    fn context(&self, op: Opcode, data: &'a InstData) -> Result<Ctx<'a>, InterpError> {
        let mut args = Vec::new();
        let mut arg_tys = Vec::new();
        for r in data.uses().iter().filter_map(Operand::as_reg).filter(|r| !r.is_implicit()) {
            args.push(self.read(r)?);
            arg_tys.push(self.reg_ty(r)?);
        }
        let mut def_tys = Vec::new();
        for r in data.defs().iter().filter_map(Operand::as_reg) {
            def_tys.push(self.reg_ty(r)?);
        }
        let vector_bool = def_tys.first().is_some_and(|t| t.is_vector()) && self.abi.vector_bool_all_ones;
        let bool_ext = if vector_bool { BoolExt::ZeroOrAllOnes } else { BoolExt::ZeroOrOne };
        Ok(Ctx { op, inst: data, args, arg_tys, def_tys, bool_ext })
    }

    fn def_ty(&self, data: &InstData, i: usize) -> Result<Llt, InterpError> {
        let r = data.defs().get(i).and_then(Operand::as_reg).ok_or_else(|| malformed("missing def"))?;
        self.reg_ty(r)
    }

    fn def_width(&self, data: &InstData, i: usize) -> Result<u32, InterpError> {
        let w = self.def_ty(data, i)?.size_in_bits() as u32;
        if w == 0 { Err(malformed("def without a type")) } else { Ok(w) }
    }

    fn write_defs(&mut self, data: &InstData, results: Vec<Value>) -> Result<(), InterpError> {
        let defs: Vec<&RegOperand> = data.defs().iter().filter_map(Operand::as_reg).collect();
        if defs.len() != results.len() {
            return Err(malformed(format!("{} results for {} defs", results.len(), defs.len())));
        }
        for (def, value) in defs.into_iter().zip(results) {
            self.write(def, value)?;
        }
        Ok(())
    }

    /// Target instructions: returns, calls, no-ops and the target's generic
    /// opcodes the interpreter models.
    fn target(&mut self, data: &'a InstData, name: &str) -> Result<Option<Next>, InterpError> {
        let frame_setup = self.abi.call_frame_setup.contains(&name);
        if frame_setup || self.abi.call_frame_destroy.contains(&name) {
            self.adjust_call_frame(data, frame_setup);
            return Ok(None);
        }
        if self.abi.nop_opcodes.contains(&name) {
            return Ok(None);
        }
        if self.abi.return_opcodes.contains(&name) {
            let mut results = Vec::new();
            for r in data.operands.iter().filter_map(Operand::as_reg).filter(|r| !r.is_def()) {
                if let Some(reg) = self.name(r)
                    && !self.abi.is_ignored_reg(reg)
                {
                    results.push((reg.to_owned(), self.read_phys(reg)?));
                }
            }
            return Ok(Some(Next::Return(results)));
        }
        if self.abi.call_opcodes.contains(&name) {
            self.call(data, false)?;
            return Ok(None);
        }
        if self.abi.tail_call_opcodes.contains(&name) {
            return Ok(Some(Next::Return(self.call(data, true)?)));
        }
        if self.x87_memory_op(data, name)? {
            return Ok(None);
        }
        if let Some(value) = self.symbol_address_part(data, name)? {
            self.write_defs(data, vec![value])?;
            return Ok(None);
        }
        let ctx = self.context(Opcode::G_ADD, data)?;
        match target_ops::eval(self.abi, name, &ctx)? {
            Some(results) => {
                self.write_defs(data, results)?;
                Ok(None)
            }
            None => Err(unsupported(name)),
        }
    }

    /// Runs X86's `G_FILD` or `G_FIST` (see [`x87_ops`]); false for other
    /// instructions.
    fn x87_memory_op(&mut self, data: &InstData, name: &str) -> Result<bool, InterpError> {
        match name {
            "G_FILD" => {
                let [addr] = self.reg_uses(data)?;
                let value = x87_ops::fild(&self.memory, &addr, data.mem.first(), self.def_width(data, 0)?)?;
                self.write_defs(data, vec![value])?;
            }
            "G_FIST" => {
                let [value, addr] = self.reg_uses(data)?;
                x87_ops::fist(&mut self.memory, &value, &addr, data.mem.first())?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A call frame pseudo: setting up (`setup`) lowers the stack pointer
    /// by its first operand, the size of the outgoing stack arguments, and
    /// records the frame; tearing down raises it again and ends the frame.
    fn adjust_call_frame(&mut self, data: &InstData, setup: bool) {
        let size = imm_operand(data).and_then(|size| u64::try_from(size).ok()).unwrap_or(0);
        let bits = self.abi.pointer_bits;
        let mask = if bits >= 64 { u64::MAX } else { (1 << bits) - 1 };
        let moved = if setup { self.stack_pointer.wrapping_sub(size) } else { self.stack_pointer.wrapping_add(size) };
        self.stack_pointer = moved & mask;
        self.call_frame = if setup { size } else { 0 };
        // A call's stack arguments are what the caller writes into its
        // frame (see `call`).
        self.memory.watch(setup.then_some((self.stack_pointer, size)));
    }

    /// AArch64's two halves of a symbol's address: `ADRP` gives its 4 KiB
    /// page, `G_ADD_LOW` adds the offset within the page to its register
    /// operand. `None` for other instructions.
    fn symbol_address_part(&self, data: &InstData, name: &str) -> Result<Option<Value>, InterpError> {
        if !matches!(name, "ADRP" | "G_ADD_LOW") {
            return Ok(None);
        }
        let (symbol, offset) =
            data.uses().iter().find_map(symbol_of).ok_or_else(|| malformed(format!("{name} without a symbol")))?;
        let addr = self.symbols.address(symbol, self.abi.pointer_bits).wrapping_add(offset as u64);
        let width = self.def_width(data, 0)?;
        Ok(Some(if name == "ADRP" {
            self.pointer(width, addr & !0xfff)
        } else {
            let page = self.read(first_use(data)?)?;
            Value::strict(width, &[&page], |v| v[0].add(&ApInt::from_u128(width, u128::from(addr & 0xfff))))
        }))
    }

    /// Runs a call: its arguments are its implicit register uses, its
    /// results its implicit defs, or for a tail call the registers the
    /// callee returns in, which are returned with their values.
    fn call(&mut self, data: &InstData, tail: bool) -> Result<Vec<(String, Value)>, InterpError> {
        let mut arg_regs = Vec::new();
        let mut ret_regs = Vec::new();
        for r in data.operands.iter().filter_map(Operand::as_reg).filter(|r| r.is_implicit()) {
            if let Some(name) = self.name(r)
                && !self.abi.is_ignored_reg(name)
            {
                if r.is_def() { ret_regs.push(name.to_owned()) } else { arg_regs.push(name.to_owned()) }
            }
        }
        let (callee, declared) = match callee_of(data, |r| self.name(r).is_some_and(|n| self.abi.is_ignored_reg(n)))
            .ok_or_else(|| malformed("a call without a callee"))?
        {
            Callee::Symbol { name, declared } => (name, declared),
            Callee::Pointer(r) => {
                let target = self.read(r)?;
                return self.call_external(target, None, arg_regs, ret_regs, tail);
            }
        };
        if let Some(f) = MemFn::for_symbol(callee) {
            return self.call_memory_function(f, callee, arg_regs, ret_regs, tail);
        }
        if let Some((what, bits)) = atomic::outline_helper(callee) {
            self.call_outline_atomic(what, bits, &arg_regs, &ret_regs)?;
            return Ok(Vec::new());
        }
        if let Some(function) = StateFunction::for_symbol(callee) {
            let [pointer] =
                <[Value; 1]>::try_from(self.call_arguments(&[Kind::Int(self.abi.pointer_bits)], arg_regs, callee)?)
                    .map_err(|_| malformed("one pointer argument"))?;
            let state = match function {
                StateFunction::Get(FpState::Env) | StateFunction::Set(FpState::Env) => &mut self.fp_env,
                StateFunction::Get(FpState::Mode) | StateFunction::Set(FpState::Mode) => &mut self.fp_mode,
            };
            fp_state::call(function, state, &mut self.memory, &pointer)?;
            return Ok(Vec::new());
        }
        if let Some((function, bits)) = libcall::stores_through(callee, self.abi.long_double_bits) {
            self.call_storing_through(function, bits, callee, arg_regs, ret_regs)?;
            return Ok(Vec::new());
        }
        let Some(lib) = libcall::lookup(callee, self.abi.xlen, self.abi.long_double_bits) else {
            // A function of the IR is the oracle's; a runtime function
            // only the legalizer calls (`&name`) must be one the
            // interpreter knows.
            if !declared {
                return Err(unsupported(format!("call to {callee}")));
            }
            let addr = self.symbols.address(callee, self.abi.pointer_bits);
            let target = self.pointer(self.abi.pointer_bits, addr);
            return self.call_external(target, Some(callee), arg_regs, ret_regs, tail);
        };
        if tail {
            ret_regs = self.abi.result_regs(lib.ret);
        }
        let values = self.call_arguments(&lib.params, arg_regs, callee)?;
        let result = lib.call(&values)?;
        self.write_call_result(lib.ret, &result, ret_regs.clone(), callee)?;
        self.tail_call_results(tail, ret_regs)
    }

    /// A call the oracle answers (see [`ExternalCall`]): `callee` is the
    /// address called, `name` its symbol for a direct call; the results go
    /// to `ret_regs`, or for a tail call to every register a function may
    /// return in, and are returned for a tail call. Every register the
    /// calling convention does not preserve becomes undefined.
    fn call_external(
        &mut self,
        callee: Value,
        name: Option<&str>,
        arg_regs: Vec<String>,
        ret_regs: Vec<String>,
        tail: bool,
    ) -> Result<Vec<(String, Value)>, InterpError> {
        if !callee.is_defined() {
            return Err(InterpError::Undefined("a call through an undefined pointer".into()));
        }
        let args = arg_regs
            .into_iter()
            .map(|r| {
                let value = self.read_phys(&r)?;
                Ok((r, value))
            })
            .collect::<Result<_, InterpError>>()?;
        // Bytes of the frame the caller did not write for this call (what
        // an earlier call left, the rest of a slot a narrow argument does
        // not fill) are no argument's: undefined, which any value refines.
        let stack_args = (self.call_frame > 0).then(|| self.memory.read_watched(self.stack_pointer, self.call_frame));
        let ret_regs = if tail { self.abi.return_regs() } else { ret_regs };
        let result_regs = ret_regs
            .into_iter()
            .map(|name| {
                let bits = self.abi.view(&name).ok_or_else(|| unsupported(format!("physical register ${name}")))?.bits;
                let extended_from = self.asserted_extension(&name);
                Ok(ResultReg { name, bits, extended_from })
            })
            .collect::<Result<Vec<_>, InterpError>>()?;
        let call = ExternalCall {
            callee,
            name: name.map(str::to_owned),
            args,
            stack_args,
            stack_pointer: self.stack_pointer,
            memory: Vec::new(),
            results: Vec::new(),
        };
        let results = self.oracle.call(call, &self.memory, &result_regs)?;
        self.clobber_caller_saved();
        for (r, value) in &results {
            self.write_phys(r, value)?;
        }
        Ok(if tail { results } else { Vec::new() })
    }

    /// How the code after the current call relies on its result register
    /// `reg` being extended: the `G_ASSERT_SEXT` or `G_ASSERT_ZEXT` on the
    /// copy out of it, which the call lowering puts there for a `signext` or
    /// `zeroext` result (`Some((signed, bits))`).
    fn asserted_extension(&self, reg: &str) -> Option<(bool, u32)> {
        let func = self.func;
        let copies_reg = |data: &InstData| {
            data.is(Opcode::COPY)
                && data.uses().first().and_then(Operand::as_reg).and_then(|r| self.name(r)) == Some(reg)
        };
        let copy = std::iter::successors(self.current.and_then(|i| func.next_inst(i)), |i| func.next_inst(*i))
            .map(|i| func.inst(i))
            .take_while(|data| {
                !matches!(data.opcode, InstOpcode::Target(s) if self.abi.call_opcodes.contains(&func.names.resolve(s)))
            })
            .find(|data| copies_reg(data))?;
        let value = copy.defs().first().and_then(Operand::as_reg)?.vreg()?;
        asserted_extension(func, value)
    }

    /// After a call: the bits of registers the callee need not preserve
    /// become undefined.
    fn clobber_caller_saved(&mut self) {
        for (unit, value) in self.units.iter_mut() {
            let keep = self.abi.call_preserved_bits(unit).min(value.width());
            if keep < value.width() {
                let undef = Value::undef(value.width());
                *value = if keep == 0 { undef } else { undef.inserted(0, &value.extract(0, keep)) };
            }
        }
    }

    /// What a tail call returns: the values of its result registers (none
    /// for a call that is not a tail call).
    fn tail_call_results(&self, tail: bool, ret_regs: Vec<String>) -> Result<Vec<(String, Value)>, InterpError> {
        if !tail {
            return Ok(Vec::new());
        }
        ret_regs
            .into_iter()
            .map(|r| {
                let value = self.read_phys(&r)?;
                Ok((r, value))
            })
            .collect()
    }

    /// The register the metadata operand at `index` of `data` names.
    fn named_register(&self, data: &InstData, index: usize) -> Result<&'a str, InterpError> {
        let Some(Operand::Metadata(node)) = data.operands.get(index) else {
            return Err(malformed("a register name that is not a metadata operand"));
        };
        let func: &'a Function = self.func;
        func.module.string_metadata(node).ok_or_else(|| malformed(format!("{node} names no register")))
    }

    /// The values of a call's parameters of `kinds`, read from `arg_regs`
    /// in the order the convention assigns them.
    fn call_arguments(&self, kinds: &[Kind], arg_regs: Vec<String>, callee: &str) -> Result<Vec<Value>, InterpError> {
        let mut args = Assigner::new(self.abi, arg_regs, true)?;
        let mut values = Vec::new();
        for kind in kinds {
            let places = args.take(*kind, callee)?;
            let parts: Vec<Value> = places
                .iter()
                .map(|place| match place {
                    Place::Reg(r, bits) => Ok(self.read_phys(r)?.extract(0, *bits)),
                    Place::Stack { offset, bytes } => {
                        Ok(self.memory.read(self.stack_pointer.wrapping_add(*offset), *bytes))
                    }
                })
                .collect::<Result<_, InterpError>>()?;
            values.push(Value::concat(&parts).extract(0, kind.bits()));
        }
        args.finish(callee)?;
        Ok(values)
    }

    /// Writes a call's `result` of `kind` to `ret_regs`.
    fn write_call_result(
        &mut self,
        kind: Kind,
        result: &Value,
        ret_regs: Vec<String>,
        callee: &str,
    ) -> Result<(), InterpError> {
        let mut rets = Assigner::new(self.abi, ret_regs, false)?;
        let places = rets.take(kind, callee)?;
        rets.finish(callee)?;
        let mut lo = 0;
        for place in places {
            let Place::Reg(r, bits) = place else {
                return Err(malformed(format!("a result of {callee} on the stack")));
            };
            let part = if lo + bits > result.width() {
                result.sext(lo + bits).extract(lo, bits)
            } else {
                result.extract(lo, bits)
            };
            self.write_phys(&r, &part)?;
            lo += bits;
        }
        Ok(())
    }

    /// `modf` or `sincos` on a `bits`-wide float: the results stored
    /// through the pointer arguments (and `modf`'s fraction returned).
    fn call_storing_through(
        &mut self,
        function: StoresThrough,
        bits: u32,
        callee: &str,
        arg_regs: Vec<String>,
        ret_regs: Vec<String>,
    ) -> Result<(), InterpError> {
        let pointer = Kind::Int(self.abi.pointer_bits);
        let kinds = match function {
            StoresThrough::Modf => vec![Kind::Float(bits), pointer],
            StoresThrough::Sincos => vec![Kind::Float(bits), pointer, pointer],
        };
        let values = self.call_arguments(&kinds, arg_regs, callee)?;
        let f = Format::for_width(bits).ok_or_else(|| unsupported(format!("{callee} on f{bits}")))?;
        let (first, second) = match values[0].get() {
            Some(x) if function == StoresThrough::Modf => float::modf(f, x),
            Some(x) => float::sincos(f, x)?,
            None => (Value::undef(bits), Value::undef(bits)),
        };
        match function {
            StoresThrough::Modf => {
                mem_ops::write_exact(&mut self.memory, &values[1], &second)?;
                self.write_call_result(Kind::Float(bits), &first, ret_regs, callee)
            }
            StoresThrough::Sincos => {
                mem_ops::write_exact(&mut self.memory, &values[1], &first)?;
                mem_ops::write_exact(&mut self.memory, &values[2], &second)
            }
        }
    }

    /// An AArch64 outline-atomics helper: the operands (the compare value
    /// and the new one for `cas`, else the operand; split over two
    /// registers each for 16 bytes) then the address, in the argument
    /// registers; the old value in the result registers.
    fn call_outline_atomic(
        &mut self,
        what: Outline,
        bits: u32,
        arg_regs: &[String],
        ret_regs: &[String],
    ) -> Result<(), InterpError> {
        let args: Vec<Value> = arg_regs.iter().map(|r| self.read_phys(r)).collect::<Result<_, _>>()?;
        let per_value = if bits > 64 { 2 } else { 1 };
        let values: Vec<Value> = args.chunks(per_value).map(Value::concat).collect();
        let old = match (what, values.as_slice()) {
            (Outline::CompareExchange, [expected, new, addr]) => {
                atomic::cmpxchg(&mut self.memory, addr, expected, new, bits, bits)?.0
            }
            (Outline::Rmw(op), [operand, addr]) => atomic::rmw(&mut self.memory, op, addr, operand, bits, bits)?,
            (Outline::Clear, [operand, addr]) => {
                let complement = Value::new(operand.bits().not(), operand.undef_mask().clone());
                atomic::rmw(&mut self.memory, Opcode::G_ATOMICRMW_AND, addr, &complement, bits, bits)?
            }
            _ => return Err(unsupported(format!("an outline atomic with {} register arguments", args.len()))),
        };
        let mut lo = 0;
        for r in ret_regs {
            let width = self.abi.view(r).map_or(64, |v| v.bits);
            self.write_phys(r, &old.anyext(lo + width).extract(lo, width))?;
            lo += width;
        }
        Ok(())
    }

    /// `memcpy`, `memmove`, `memset` or `bzero`: pointer and length
    /// arguments (and `memset`'s `int`) where the convention passes them,
    /// the destination returned (in the first argument's register, which a
    /// `thisreturn` tail call keeps).
    fn call_memory_function(
        &mut self,
        f: MemFn,
        callee: &str,
        arg_regs: Vec<String>,
        ret_regs: Vec<String>,
        tail: bool,
    ) -> Result<Vec<(String, Value)>, InterpError> {
        let pointer = Kind::Int(self.abi.pointer_bits);
        let kinds = match f {
            MemFn::Set => vec![pointer, Kind::Int(32), pointer],
            MemFn::Zero => vec![pointer, pointer],
            MemFn::Copy | MemFn::Move => vec![pointer; 3],
        };
        let first = arg_regs.first().cloned();
        let args = self.call_arguments(&kinds, arg_regs, callee)?;
        f.run(&mut self.memory, &args)?;
        let ret_regs = match first {
            Some(r) if tail && f.returns_destination() => vec![r],
            _ => ret_regs,
        };
        for r in &ret_regs {
            self.write_phys(r, &args[0])?;
        }
        self.tail_call_results(tail, ret_regs)
    }
}

/// What a call calls.
enum Callee<'d> {
    /// A symbol: `@name` (`declared`, a global value of the IR) or `&name`
    /// (a runtime function the legalizer calls).
    Symbol { name: &'d str, declared: bool },
    /// The address a register holds (`BLR`, `PseudoCALLIndirect`).
    Pointer(&'d RegOperand),
}

/// The callee of call instruction `data`: its first symbol or explicit
/// register use but `ignored` ones (Arm's predicate register `$noreg`).
fn callee_of<'d>(data: &'d InstData, ignored: impl Fn(&RegOperand) -> bool) -> Option<Callee<'d>> {
    data.operands.iter().find_map(|op| {
        let op = match op {
            Operand::TargetFlags(flagged) => &flagged.operand,
            op => op,
        };
        match op {
            Operand::Global(global) => Some(Callee::Symbol { name: &global.name, declared: true }),
            Operand::ExternalSymbol(symbol) => Some(Callee::Symbol { name: &symbol.name, declared: false }),
            Operand::Reg(r) if !r.is_implicit() && !r.is_def() && !ignored(r) => Some(Callee::Pointer(r)),
            _ => None,
        }
    })
}

/// The symbol an operand names (`@g + 8`, `&memcpy`, flagged or not), with
/// its offset.
fn symbol_of(op: &Operand) -> Option<(&str, i64)> {
    match op {
        Operand::ExternalSymbol(symbol) | Operand::Global(symbol) => Some((&symbol.name, symbol.offset)),
        Operand::TargetFlags(flagged) => symbol_of(&flagged.operand),
        _ => None,
    }
}

fn first_use(data: &InstData) -> Result<&RegOperand, InterpError> {
    data.uses().iter().find_map(Operand::as_reg).ok_or_else(|| malformed("missing register operand"))
}

fn block_operand(data: &InstData) -> Result<Block, InterpError> {
    data.uses()
        .iter()
        .find_map(|o| if let Operand::Block(b) = o { Some(*b) } else { None })
        .ok_or_else(|| malformed("branch without a block"))
}

enum Next {
    Jump(Block),
    FallThrough,
    Return(Vec<(String, Value)>),
}

/// The first immediate operand of `data`.
fn imm_operand(data: &InstData) -> Option<i64> {
    data.uses().iter().find_map(|o| if let Operand::Imm(v) = o { Some(*v) } else { None })
}
