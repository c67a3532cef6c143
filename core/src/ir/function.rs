//! A machine function: blocks, instructions and virtual registers in
//! index-based arenas (an erased instruction's slot is taken again once
//! the pass lets go of it), each block's instructions in a doubly linked
//! list (O(1) insert and erase), and def/use lists kept in sync by every
//! mutation that goes through [`Function`].

use super::arena::Slots;
use super::node::Node;
use super::{Block, ConstantPool, Inst, InstData, JumpTableKind, Names, Operand, Reg, StackFrame, Symbol, VReg};
use crate::llvm_ir::{FreshAtomGroups, IrModule, highest_atom_group};
use crate::opcode::Opcode;
use crate::ty::Llt;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::Arc;

/// The distance between sequence numbers of instructions appended to a
/// block, or numbered afresh.
const STRIDE: u32 = 16;

/// How many following instructions an insertion may renumber before the
/// whole block is numbered afresh.
const LOCAL_LIMIT: u32 = 64;

/// A virtual register's attributes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VRegInfo {
    /// Its LLT (`Llt::INVALID` for a register with a class and no type).
    pub ty: Llt,
    /// Register class or bank (`gpr64`, `gpr`); `None` prints as `_`.
    pub class: Option<Symbol>,
    /// The number llc gives it (`%N`), [`NO_NUMBER`] once dropped (see
    /// [`Function::drop_vreg_number`]).
    number: u32,
    /// Instructions defining it (one in SSA form).
    defs: SmallVec<[Inst; 2]>,
    /// Instructions using it, once per use operand, with their opcodes.
    uses: SmallVec<[Use; 2]>,
}

/// An entry of a register's use list: the using instruction and its
/// opcode (`None` for a target instruction), kept beside it so that a
/// search of a long use list for users of some opcodes reads the list,
/// not every user.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Use {
    inst: Inst,
    opcode: Option<Opcode>,
}

/// The number of a virtual register llc never makes.
const NO_NUMBER: u32 = u32::MAX;

impl VRegInfo {
    /// Whether an instruction defines the register.
    pub fn is_defined(&self) -> bool {
        !self.defs.is_empty()
    }
}

/// A successor edge with its branch probability numerator (out of
/// 0x80000000), if one was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Successor {
    /// The successor block.
    pub block: Block,
    /// Probability numerator.
    pub probability: Option<u32>,
}

/// A basic block's data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockData {
    /// The number in `bb.N`.
    pub number: u32,
    /// The IR block name (`bb.0.entry` has `entry`), as written.
    pub ir_name: Option<Box<str>>,
    /// Attributes between parentheses (`address-taken`, `align 4`), as written.
    pub attributes: Vec<Box<str>>,
    /// Successors, in order.
    pub successors: Vec<Successor>,
    /// The successor list was written explicitly.
    pub explicit_successors: bool,
    /// Live-in physical registers, with an optional lane mask as written.
    pub liveins: Vec<(Symbol, Option<Box<str>>)>,
    first: Option<Inst>,
    last: Option<Inst>,
}

impl BlockData {
    /// The first instruction.
    pub fn first(&self) -> Option<Inst> {
        self.first
    }

    /// The last instruction.
    pub fn last(&self) -> Option<Inst> {
        self.last
    }
}

/// A point in the creation of a function's instructions (see
/// [`Function::creation_mark`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreationMark(usize);

/// A machine function.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// The function's name.
    pub name: String,
    /// Interned physical registers, target opcodes, classes and banks.
    pub names: Names,
    /// The stack objects passes see and create.
    pub frame: StackFrame,
    /// The constant-pool entries passes add.
    pub constant_pool: ConstantPool,
    /// The encoding of the function's jump-table entries, if it has tables.
    pub jump_table_kind: Option<JumpTableKind>,
    /// The facts of the IR module the function belongs to (global values,
    /// function attributes, module flags, the one-string metadata nodes
    /// `G_READ_REGISTER` and `G_WRITE_REGISTER` name their register with),
    /// shared by every function of the module.
    pub module: Arc<IrModule>,
    vregs: Slots<VRegInfo>,
    /// The names of named vregs (`%ptr`), few enough to keep aside.
    vreg_names: FxHashMap<VReg, Box<str>>,
    /// How many virtual registers llc never makes (see
    /// [`Function::drop_vreg_number`]).
    unnumbered: u32,
    /// The first register whose number may be out of creation order since
    /// [`Function::number_before`] (`None` when every number follows it).
    renumbered_from: Option<usize>,
    /// Whether some register was ever numbered out of creation order.
    numbers_reordered: bool,
    /// The fresh atom groups location merges have taken (placeholders
    /// until the function is written).
    fresh_atom_groups: FreshAtomGroups,
    insts: Slots<InstData>,
    /// Each instruction's place in the layout, by index.
    nodes: Slots<Node>,
    /// Slots of instructions erased since the last
    /// [`Function::recycle_erased`], their handles and data still valid.
    erased: Vec<Inst>,
    /// Slots new instructions take before the arena grows.
    free: Vec<Inst>,
    /// The instructions created since the last [`Function::recycle_erased`],
    /// in creation order.
    created: Vec<Inst>,
    blocks: Vec<BlockData>,
    layout: Vec<Block>,
}

impl Function {
    /// An empty function.
    pub fn new(name: impl Into<String>) -> Function {
        Function { name: name.into(), ..Function::default() }
    }

    // ----- virtual registers -----

    /// Creates a virtual register of type `ty`.
    pub fn new_vreg(&mut self, ty: Llt) -> VReg {
        let number = self.vregs.len() as u32 - self.unnumbered;
        self.vregs.push(VRegInfo { ty, number, ..VRegInfo::default() });
        VReg::new(self.vregs.len() - 1)
    }

    /// Makes room for `additional` more virtual registers at once, for a
    /// reader that knows about how many it will create.
    pub fn reserve_vregs(&mut self, additional: usize) {
        self.vregs.reserve(additional);
    }

    /// Number of virtual registers ever created.
    pub fn num_vregs(&self) -> usize {
        self.vregs.len()
    }

    /// Every virtual register.
    pub fn vregs(&self) -> impl Iterator<Item = VReg> + use<> {
        (0..self.vregs.len()).map(VReg::new)
    }

    /// Takes `v`'s number away: `v`, no longer used, was made for an
    /// instruction LLVM's builder never makes (CSE found an equal one
    /// already built), so llc numbers the registers made after it one
    /// lower, and so does [`Function::vreg_number`].
    /// (It is one of the last made, so few numbers move.)
    pub fn drop_vreg_number(&mut self, v: VReg) {
        let dropped = self.vregs[v.index()].number;
        if dropped == NO_NUMBER {
            return;
        }
        self.vregs[v.index()].number = NO_NUMBER;
        self.unnumbered += 1;
        let from = self.renumbered_from.map_or(v.index() + 1, |r| r.min(v.index() + 1));
        for later in self.vregs.iter_mut_from(from) {
            if later.number != NO_NUMBER && later.number > dropped {
                later.number -= 1;
            }
        }
    }

    /// Numbers `made`, the registers made last, right before `v`, whose
    /// number and every later one move up: as llc numbers registers its
    /// builder makes while it builds the instruction `v` was made for
    /// (a folded constant vector's elements, made before the vector).
    /// Until [`Function::settle_numbers`], numbers need not follow the
    /// order registers were made in.
    pub fn number_before(&mut self, v: VReg, made: &[VReg]) {
        let first = self.vregs[v.index()].number;
        if first == NO_NUMBER || made.is_empty() {
            return;
        }
        let moved = made.len() as u32;
        let is_made = |i: usize| made.iter().any(|m| m.index() == i);
        for (i, info) in (v.index()..).zip(self.vregs.iter_mut_from(v.index())) {
            if info.number != NO_NUMBER && info.number >= first && !is_made(i) {
                info.number += moved;
            }
        }
        for (offset, m) in made.iter().enumerate() {
            self.vregs[m.index()].number = first + offset as u32;
        }
        self.renumbered_from = Some(self.renumbered_from.map_or(v.index(), |r| r.min(v.index())));
        self.numbers_reordered = true;
    }

    /// Ends the stretch in which [`Function::number_before`] may have
    /// numbered registers out of creation order: registers made from now
    /// on are numbered after all of them, so taking a number away moves
    /// only later ones again.
    pub fn settle_numbers(&mut self) {
        self.renumbered_from = None;
    }

    /// The number llc gives `v` (`%N`): its index less the numbers taken
    /// away before it.
    pub fn vreg_number(&self, v: VReg) -> u32 {
        self.vregs[v.index()].number
    }

    /// Every virtual register llc would make, with its number (see
    /// [`Function::drop_vreg_number`]), in order of number.
    pub fn numbered_vregs(&self) -> impl Iterator<Item = (VReg, u32)> + '_ {
        let numbered = || {
            self.vregs
                .iter()
                .enumerate()
                .filter(|(_, info)| info.number != NO_NUMBER)
                .map(|(i, info)| (VReg::new(i), info.number))
        };
        let sorted = self.numbers_reordered.then(|| {
            let mut all: Vec<_> = numbered().collect();
            all.sort_unstable_by_key(|&(_, number)| number);
            all
        });
        let in_order = (!self.numbers_reordered).then(numbered);
        sorted.into_iter().flatten().chain(in_order.into_iter().flatten())
    }

    /// A virtual register's attributes.
    pub fn vreg(&self, v: VReg) -> &VRegInfo {
        &self.vregs[v.index()]
    }

    /// A virtual register's attributes, mutably.
    pub fn vreg_mut(&mut self, v: VReg) -> &mut VRegInfo {
        &mut self.vregs[v.index()]
    }

    /// The name of a named vreg (`%ptr` has `ptr`).
    pub fn vreg_name(&self, v: VReg) -> Option<&str> {
        if self.vreg_names.is_empty() {
            return None;
        }
        self.vreg_names.get(&v).map(|name| &**name)
    }

    /// Names `v` (`%ptr`).
    pub fn set_vreg_name(&mut self, v: VReg, name: &str) {
        self.vreg_names.insert(v, name.into());
    }

    /// The type of a virtual register.
    pub fn ty(&self, v: VReg) -> Llt {
        self.vregs[v.index()].ty
    }

    /// The defining instruction of `v` (the first, if not in SSA form).
    pub fn def_inst(&self, v: VReg) -> Option<Inst> {
        self.vregs[v.index()].defs.first().copied()
    }

    /// Every instruction defining `v`.
    pub fn def_insts(&self, v: VReg) -> &[Inst] {
        &self.vregs[v.index()].defs
    }

    /// The instructions using `v`, once per use operand.
    pub fn use_insts(&self, v: VReg) -> impl ExactSizeIterator<Item = Inst> + Clone + '_ {
        self.vregs[v.index()].uses.iter().map(|u| u.inst)
    }

    /// The instructions using `v` with their opcodes (`None` for a
    /// target opcode), as [`Function::use_insts`] lists them.
    pub fn uses_with_opcodes(&self, v: VReg) -> impl Iterator<Item = (Inst, Option<Opcode>)> + '_ {
        self.vregs[v.index()].uses.iter().map(|u| (u.inst, u.opcode))
    }

    /// True when nothing uses `v`.
    pub fn has_no_uses(&self, v: VReg) -> bool {
        self.vregs[v.index()].uses.is_empty()
    }

    // ----- blocks -----

    /// Appends a block numbered `number` to the layout.
    pub fn add_block(&mut self, number: u32) -> Block {
        self.blocks.push(BlockData { number, ..BlockData::default() });
        let block = Block::new(self.blocks.len() - 1);
        self.layout.push(block);
        block
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> &[Block] {
        &self.layout
    }

    /// A block's data.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }

    /// A block's data, mutably.
    pub fn block_mut(&mut self, b: Block) -> &mut BlockData {
        &mut self.blocks[b.index()]
    }

    /// Instructions of block `b` in order.
    pub fn block_insts(&self, b: Block) -> BlockInsts<'_> {
        BlockInsts { func: self, next: self.blocks[b.index()].first }
    }

    // ----- instructions -----

    /// An instruction's data.
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i.index()]
    }

    /// The block holding an instruction (`None` once erased).
    pub fn inst_block(&self, i: Inst) -> Option<Block> {
        self.nodes[i.index()].block()
    }

    /// The next instruction in its block.
    pub fn next_inst(&self, i: Inst) -> Option<Inst> {
        self.nodes[i.index()].next()
    }

    /// The previous instruction in its block.
    pub fn prev_inst(&self, i: Inst) -> Option<Inst> {
        self.nodes[i.index()].prev()
    }

    /// True when `a` comes before `b`; both are placed in the same block.
    pub fn comes_before(&self, a: Inst, b: Inst) -> bool {
        debug_assert_eq!(self.inst_block(a), self.inst_block(b));
        self.nodes[a.index()].seq < self.nodes[b.index()].seq
    }

    /// Number of instruction slots: every instruction there is, and the
    /// erased ones whose slots no instruction has taken again.
    pub fn inst_capacity(&self) -> usize {
        self.insts.len()
    }

    /// Where the creation of instructions stands: what is created from
    /// now on is [`Function::created_since`] this mark, until the next
    /// [`Function::recycle_erased`].
    pub fn creation_mark(&self) -> CreationMark {
        CreationMark(self.created.len())
    }

    /// The instructions created since `mark`, in creation order (erased
    /// ones included).
    pub fn created_since(&self, mark: CreationMark) -> &[Inst] {
        &self.created[mark.0..]
    }

    /// Lets instructions created from now on take the slots of those
    /// erased so far, calling `release` with each, so that whoever still
    /// holds one of them lets it go; until then an erased instruction's
    /// handle and data stay as they were. Marks taken before no longer
    /// count. A function of many steps thus holds about as many slots as
    /// it ever has instructions at once, not every one it ever built.
    pub fn recycle_erased(&mut self, mut release: impl FnMut(Inst)) {
        for &inst in &self.erased {
            release(inst);
        }
        self.free.append(&mut self.erased);
        self.created.clear();
    }

    /// Makes room for `additional` more instructions at once, for a reader
    /// that knows about how many it will create.
    pub fn reserve_insts(&mut self, additional: usize) {
        self.insts.reserve(additional);
        self.nodes.reserve(additional);
    }

    /// Places `data` at the end of block `b`.
    pub fn append(&mut self, b: Block, data: InstData) -> Inst {
        let inst = self.create(data);
        let last = self.blocks[b.index()].last;
        self.link(inst, b, last, None);
        inst
    }

    /// Places `data` right before `at`.
    pub fn insert_before(&mut self, at: Inst, data: InstData) -> Inst {
        let block = self.inst_block(at).expect("insert before a placed instruction");
        let prev = self.prev_inst(at);
        let inst = self.create(data);
        self.link(inst, block, prev, Some(at));
        inst
    }

    /// Places `data` right after `at`.
    pub fn insert_after(&mut self, at: Inst, data: InstData) -> Inst {
        let block = self.inst_block(at).expect("insert after a placed instruction");
        let next = self.next_inst(at);
        let inst = self.create(data);
        self.link(inst, block, Some(at), next);
        inst
    }

    /// Moves placed instruction `i` right before `at` (any block).
    pub fn move_before(&mut self, i: Inst, at: Inst) {
        // Unlinking leaves its data as it was.
        self.unlink(i);
        let block = self.inst_block(at).expect("move before a placed instruction");
        let prev = self.prev_inst(at);
        self.link(i, block, prev, Some(at));
    }

    /// Removes `i` from its block and from the def/use lists; its slot
    /// waits for [`Function::recycle_erased`].
    pub fn erase(&mut self, i: Inst) {
        if self.unlink(i) {
            self.erased.push(i);
        }
    }

    /// Takes placed `i` out of its block and the def/use lists; false when
    /// it was not placed.
    fn unlink(&mut self, i: Inst) -> bool {
        let Some(block) = self.inst_block(i) else { return false };
        self.unregister_operands(i);
        let (prev, next) = (self.prev_inst(i), self.next_inst(i));
        match prev {
            Some(p) => self.nodes[p.index()].set_next(next),
            None => self.blocks[block.index()].first = next,
        }
        match next {
            Some(n) => self.nodes[n.index()].set_prev(prev),
            None => self.blocks[block.index()].last = prev,
        }
        self.nodes[i.index()] = Node::UNPLACED;
        true
    }

    /// Replaces operand `index` of `i`, keeping def/use lists in sync.
    pub fn set_operand(&mut self, i: Inst, index: usize, operand: Operand) {
        let placed = self.inst_block(i).is_some();
        if placed {
            let old = self.insts[i.index()].operands[index].clone();
            self.unregister(i, &old);
        }
        if placed {
            self.register(i, &operand);
        }
        self.insts[i.index()].operands[index] = operand;
    }

    /// Sets an instruction's debug location (which no def/use list holds).
    pub fn set_debug_loc(&mut self, i: Inst, loc: Option<Box<str>>) {
        self.insts[i.index()].debug_loc = loc;
    }

    /// The merge of the locations of `a` (the builder's) and `b` (the
    /// reused instruction's), as [`DebugInfo::merged`](crate::llvm_ir::DebugInfo::merged)
    /// makes it, taking a fresh atom group from the function's if it needs one.
    pub fn merged_debug_loc(&mut self, a: Inst, b: Inst) -> Option<Box<str>> {
        let (a, b) = (self.insts[a.index()].debug_loc.as_deref(), self.insts[b.index()].debug_loc.as_deref());
        self.module.debug_info().merged(a, b, &mut self.fresh_atom_groups)
    }

    /// The fresh atom groups the function's location merges have taken.
    pub fn fresh_atom_groups(&self) -> FreshAtomGroups {
        self.fresh_atom_groups
    }

    /// The highest atom group of the module's nodes and of the function's
    /// locations (0 for none), placeholders left out.
    pub fn highest_atom_group(&self) -> u64 {
        let locations = self.all_insts().filter_map(|i| self.inst(i).debug_loc.as_deref());
        locations.map(highest_atom_group).fold(self.module.debug_info().highest_atom_group(), u64::max)
    }

    /// Changes an instruction in place through `edit`; def/use lists are
    /// rebuilt for it afterwards.
    pub fn modify(&mut self, i: Inst, edit: impl FnOnce(&mut InstData)) {
        let placed = self.inst_block(i).is_some();
        if placed {
            self.unregister_operands(i);
        }
        edit(&mut self.insts[i.index()]);
        if placed {
            self.register_operands(i);
        }
    }

    /// Rewrites every use of `from` into a use of `to`: each user, in the
    /// order of `from`'s use list, joins the end of `to`'s once per
    /// rewritten operand, and the lists of its other operands are left as
    /// they are (as `MachineRegisterInfo::replaceRegWith` moves only the
    /// operands it changes), so the work is linear in `from`'s uses.
    pub fn replace_all_uses(&mut self, from: VReg, to: VReg) {
        if from == to {
            return;
        }
        // A user listed once per operand of `from` has them all rewritten
        // at its first entry; its later ones find nothing left.
        for entry in std::mem::take(&mut self.vregs[from.index()].uses) {
            for op in self.insts[entry.inst.index()].operands.iter_mut() {
                if let Operand::Reg(r) = op
                    && !r.is_def()
                    && r.reg == Reg::Virtual(from)
                {
                    r.reg = Reg::Virtual(to);
                    self.vregs[to.index()].uses.push(Use { inst: entry.inst, opcode: entry.opcode });
                }
            }
        }
    }

    fn create(&mut self, data: InstData) -> Inst {
        let inst = match self.free.pop() {
            Some(slot) => {
                self.insts[slot.index()] = data;
                self.nodes[slot.index()] = Node::UNPLACED;
                slot
            }
            None => {
                self.insts.push(data);
                self.nodes.push(Node::UNPLACED);
                Inst::new(self.insts.len() - 1)
            }
        };
        self.created.push(inst);
        inst
    }

    fn link(&mut self, inst: Inst, block: Block, prev: Option<Inst>, next: Option<Inst>) {
        self.nodes[inst.index()] = Node::placed(block, prev, next);
        match prev {
            Some(p) => self.nodes[p.index()].set_next(Some(inst)),
            None => self.blocks[block.index()].first = Some(inst),
        }
        match next {
            Some(n) => self.nodes[n.index()].set_prev(Some(inst)),
            None => self.blocks[block.index()].last = Some(inst),
        }
        self.number(inst, block, prev, next);
        self.register_operands(inst);
    }

    /// Gives a newly linked `inst` a sequence number between its
    /// neighbours', renumbering the instructions after it when there is no
    /// room (a few locally, or the whole block past a limit), as
    /// Cranelift's `Layout` does.
    fn number(&mut self, inst: Inst, block: Block, prev: Option<Inst>, next: Option<Inst>) {
        let lower = prev.map_or(0, |p| self.nodes[p.index()].seq);
        let upper = next.map(|n| self.nodes[n.index()].seq);
        match upper {
            None => match lower.checked_add(STRIDE) {
                Some(seq) => self.nodes[inst.index()].seq = seq,
                None => self.renumber_block(block),
            },
            Some(upper) if upper - lower >= 2 => self.nodes[inst.index()].seq = lower + (upper - lower) / 2,
            Some(_) => {
                // Push the following numbers up by one each until a gap.
                let mut seq = lower;
                let mut cursor = Some(inst);
                while let Some(i) = cursor {
                    if self.nodes[i.index()].seq > seq && i != inst {
                        return;
                    }
                    seq += 1;
                    if seq - lower > LOCAL_LIMIT {
                        self.renumber_block(block);
                        return;
                    }
                    self.nodes[i.index()].seq = seq;
                    cursor = self.next_inst(i);
                }
            }
        }
    }

    /// Numbers every instruction of `block` afresh, [`STRIDE`] apart.
    fn renumber_block(&mut self, block: Block) {
        let mut cursor = self.blocks[block.index()].first;
        let mut seq = 0u32;
        while let Some(i) = cursor {
            seq += STRIDE;
            self.nodes[i.index()].seq = seq;
            cursor = self.next_inst(i);
        }
    }

    fn register_operands(&mut self, i: Inst) {
        let data = &self.insts[i.index()];
        let opcode = data.known_opcode();
        for op in &data.operands {
            register(&mut self.vregs, i, opcode, op);
        }
    }

    fn unregister_operands(&mut self, i: Inst) {
        for op in &self.insts[i.index()].operands {
            unregister(&mut self.vregs, i, op);
        }
    }

    fn register(&mut self, i: Inst, op: &Operand) {
        let opcode = self.insts[i.index()].known_opcode();
        register(&mut self.vregs, i, opcode, op);
    }

    fn unregister(&mut self, i: Inst, op: &Operand) {
        unregister(&mut self.vregs, i, op);
    }

    /// Every placed instruction, block by block in layout order.
    pub fn all_insts(&self) -> impl Iterator<Item = Inst> + '_ {
        self.layout.iter().flat_map(move |b| self.block_insts(*b))
    }
}

/// Adds `i`, of opcode `opcode` (`None` for a target one), to the def or use list of the
/// virtual register `op` names. Inlined into the loops over an
/// instruction's operands, which call it for each one as instructions are
/// placed (every instruction the reader reads).
#[inline(always)]
fn register(vregs: &mut Slots<VRegInfo>, i: Inst, opcode: Option<Opcode>, op: &Operand) {
    if let Operand::Reg(r) = op
        && let Reg::Virtual(v) = r.reg
    {
        let info = &mut vregs[v.index()];
        if r.is_def() {
            info.defs.push(i);
        } else {
            info.uses.push(Use { inst: i, opcode });
        }
    }
}

/// Removes one entry for `i` from the def or use list of the virtual
/// register `op` names.
fn unregister(vregs: &mut Slots<VRegInfo>, i: Inst, op: &Operand) {
    if let Operand::Reg(r) = op
        && let Reg::Virtual(v) = r.reg
    {
        let info = &mut vregs[v.index()];
        if r.is_def() {
            if let Some(pos) = info.defs.iter().rposition(|x| *x == i) {
                remove_keeping_order(&mut info.defs, pos);
            }
        } else if let Some(pos) = info.uses.iter().rposition(|u| u.inst == i) {
            remove_keeping_order(&mut info.uses, pos);
        }
    }
}

/// Removes entry `pos` of `list`, the later ones moving down; the last
/// one, as an instruction erased after the ones after it usually is, is
/// popped without moving anything.
fn remove_keeping_order<A: smallvec::Array>(list: &mut SmallVec<A>, pos: usize) {
    if pos + 1 == list.len() {
        list.pop();
    } else {
        list.remove(pos);
    }
}

/// Iterator over a block's instructions.
pub struct BlockInsts<'f> {
    func: &'f Function,
    next: Option<Inst>,
}

impl Iterator for BlockInsts<'_> {
    type Item = Inst;

    fn next(&mut self) -> Option<Inst> {
        let current = self.next?;
        self.next = self.func.next_inst(current);
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::InstOpcode;
    use crate::opcode::Opcode;

    fn nop() -> InstData {
        InstData::new(InstOpcode::Known(Opcode::G_IMPLICIT_DEF))
    }

    /// Order queries agree with the list after inserts at one spot (no
    /// room left between numbers), at both ends and moves.
    #[test]
    fn order_follows_the_layout() {
        let mut func = Function::new("f");
        let block = func.add_block(0);
        let first = func.append(block, nop());
        let anchor = func.append(block, nop());
        for step in 0..500 {
            match step % 5 {
                0..=2 => {
                    func.insert_before(anchor, nop());
                }
                3 => {
                    func.insert_after(first, nop());
                }
                _ => {
                    let appended = func.append(block, nop());
                    func.move_before(appended, first);
                }
            }
        }
        let insts: Vec<Inst> = func.block_insts(block).collect();
        for (i, a) in insts.iter().enumerate() {
            for (j, b) in insts.iter().enumerate() {
                assert_eq!(func.comes_before(*a, *b), i < j, "{i} {j}");
            }
        }
    }

    /// An erased instruction keeps its slot until the slots are recycled;
    /// then the next instruction created takes it, and the creation log
    /// starts afresh.
    #[test]
    fn erased_slots_are_taken_again_once_recycled() {
        let mut func = Function::new("f");
        let block = func.add_block(0);
        let kept = func.append(block, nop());
        let erased = func.append(block, nop());
        let mark = func.creation_mark();
        func.erase(erased);
        let before_recycling = func.append(block, nop());
        assert_ne!(before_recycling, erased);
        assert_eq!(func.created_since(mark), [before_recycling]);
        let mut released = Vec::new();
        func.recycle_erased(|inst| released.push(inst));
        assert_eq!(released, [erased]);
        let mark = func.creation_mark();
        let reused = func.insert_before(kept, nop());
        assert_eq!(reused, erased);
        assert_eq!(func.created_since(mark), [reused]);
        assert_eq!(func.inst_capacity(), 3);
        assert_eq!(func.block_insts(block).collect::<Vec<_>>(), [reused, kept, before_recycling]);
    }

    /// Moving an instruction does not give its slot away.
    #[test]
    fn a_moved_instruction_keeps_its_slot() {
        let mut func = Function::new("f");
        let block = func.add_block(0);
        let first = func.append(block, nop());
        let moved = func.append(block, nop());
        func.move_before(moved, first);
        let mut released = Vec::new();
        func.recycle_erased(|inst| released.push(inst));
        assert!(released.is_empty());
        assert_eq!(func.block_insts(block).collect::<Vec<_>>(), [moved, first]);
    }
}
