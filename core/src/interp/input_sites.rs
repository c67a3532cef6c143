//! Where a function's inputs enter it: the live-in physical registers and
//! the incoming stack arguments (`%fixed-stack.N` objects the function
//! loads from), each with its width, its register file and the narrower
//! widths the function uses it at, for [`random_inputs`](super::random_inputs)
//! to choose values from.

use super::abi::{Abi, RegClass};
use crate::ir::{Function, InstData, Operand, Reg, VReg};
use crate::opcode::Opcode;

/// One place an input enters: how wide it is, whether it holds integers
/// or floating-point values, and the interesting widths up to `bits`.
pub struct Site {
    /// The width of the value written there.
    pub bits: u32,
    /// Integer or floating-point.
    pub class: RegClass,
    /// The widths the function reads it at, `bits` included, ascending.
    pub widths: Vec<u32>,
    /// What the caller promises of the value (`Some((signed, bits))`): that
    /// it is sign- or zero-extended from `bits`, as a `G_ASSERT_SEXT` or
    /// `G_ASSERT_ZEXT` on what the function reads says.
    pub promised: Option<(bool, u32)>,
}

impl Site {
    /// A site of `bits` bits whose value the function reads at `widths`
    /// (those above `bits` or zero are dropped; `bits` is added).
    fn new(bits: u32, class: RegClass, mut widths: Vec<u32>, promised: Option<(bool, u32)>) -> Site {
        widths.push(bits);
        widths.retain(|w| *w > 0 && *w <= bits);
        widths.sort_unstable();
        widths.dedup();
        Site { bits, class, widths, promised: promised.filter(|(_, from)| *from < bits) }
    }
}

/// The live-in physical registers of `func` by name: those the entry block
/// lists, then those it copies from before anything writes them. Registers
/// that read as zero and those the ABI ignores are left out.
pub fn live_ins(func: &Function, abi: &Abi) -> Vec<(String, Site)> {
    let mut names: Vec<String> = Vec::new();
    if let Some(entry) = func.blocks().first() {
        for (sym, _) in &func.block(*entry).liveins {
            names.push(func.names.resolve(*sym).to_owned());
        }
        for inst in func.block_insts(*entry) {
            let data = func.inst(inst);
            if data.is(Opcode::COPY)
                && let Some(Operand::Reg(r)) = data.uses().first()
                && let Reg::Physical(s) = r.reg
            {
                let name = func.names.resolve(s);
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_owned());
                }
            }
        }
    }
    let mut out = Vec::new();
    for name in names {
        let Some(view) = abi.view(&name) else { continue };
        if view.zero || abi.is_ignored_reg(&name) {
            continue;
        }
        let mut widths = Vec::new();
        let mut promised = None;
        for inst in func.all_insts() {
            let data = func.inst(inst);
            let reads_it = data.uses().iter().any(
                |o| matches!(o, Operand::Reg(r) if matches!(r.reg, Reg::Physical(s) if func.names.resolve(s) == name)),
            );
            if data.is(Opcode::COPY)
                && reads_it
                && let Some(dst) = def_vreg(data)
            {
                widths.push(func.ty(dst).size_in_bits() as u32);
                widths.extend(narrowed_widths(func, dst));
                promised = promised.or_else(|| asserted_extension(func, dst));
            }
        }
        out.push((name, Site::new(view.bits, view.class, widths, promised)));
    }
    out
}

/// The incoming stack arguments of `func` by `%fixed-stack` number: the
/// objects it loads from at their start, as wide as the widest such load
/// (or its result, for a load of a value the caller promises extended:
/// the caller wrote the extended value). A value a floating-point
/// operation reads is a float.
pub fn stack_slots(func: &Function) -> Vec<(u32, Site)> {
    // The slots' reads as they are found (`bits` is set at the end).
    let mut slots: Vec<(u32, Site)> = Vec::new();
    for inst in func.all_insts() {
        let data = func.inst(inst);
        let Some(Operand::Frame(frame)) = data.uses().first() else { continue };
        if !(data.is(Opcode::G_FRAME_INDEX) && frame.fixed) {
            continue;
        }
        let Some(address) = def_vreg(data) else { continue };
        for user in func.use_insts(address) {
            let load = func.inst(user);
            let is_load = [Opcode::G_LOAD, Opcode::G_SEXTLOAD, Opcode::G_ZEXTLOAD].into_iter().any(|op| load.is(op));
            let Some(size) = load.mem.first().and_then(|m| m.memory_type()).map(|t| t.size_in_bits() as u32) else {
                continue;
            };
            let Some(value) = def_vreg(load).filter(|_| is_load) else { continue };
            let index = match slots.iter().position(|(i, ..)| *i == frame.index) {
                Some(index) => index,
                None => {
                    let site = Site { bits: 0, class: RegClass::Int, widths: Vec::new(), promised: None };
                    slots.push((frame.index, site));
                    slots.len() - 1
                }
            };
            let site = &mut slots[index].1;
            site.widths.push(size);
            site.widths.extend(narrowed_widths(func, value));
            if let Some(extension) = asserted_extension(func, value) {
                site.widths.push(func.ty(value).size_in_bits() as u32);
                site.promised = Some(extension);
            }
            if func.use_insts(value).any(|u| reads_as_float(func.inst(u))) {
                site.class = RegClass::Float;
            }
        }
    }
    slots.sort_unstable_by_key(|(index, ..)| *index);
    slots
        .into_iter()
        .map(|(index, site)| {
            let bits = site.widths.iter().copied().max().unwrap_or(0);
            (index, Site::new(bits, site.class, site.widths, site.promised))
        })
        .collect()
}

/// The extension a `G_ASSERT_SEXT` or `G_ASSERT_ZEXT` of `value` asserts
/// (`(signed, bits)`).
pub(super) fn asserted_extension(func: &Function, value: VReg) -> Option<(bool, u32)> {
    func.use_insts(value).map(|i| func.inst(i)).find_map(|data| {
        let signed = match data.known_opcode()? {
            Opcode::G_ASSERT_SEXT => true,
            Opcode::G_ASSERT_ZEXT => false,
            _ => return None,
        };
        match data.uses().get(1) {
            Some(Operand::Imm(bits)) => Some((signed, u32::try_from(*bits).ok()?)),
            _ => None,
        }
    })
}

/// The virtual register `data` defines first.
fn def_vreg(data: &InstData) -> Option<VReg> {
    data.defs().first().and_then(Operand::as_reg).and_then(|r| r.vreg())
}

/// The widths the function narrows `value` to: the results of its
/// `G_TRUNC`s and `G_SEXT_INREG`s and the widths those extend from.
fn narrowed_widths(func: &Function, value: VReg) -> Vec<u32> {
    let mut widths = Vec::new();
    for user in func.use_insts(value) {
        let u = func.inst(user);
        if (u.is(Opcode::G_TRUNC) || u.is(Opcode::G_SEXT_INREG))
            && let Some(d) = def_vreg(u)
        {
            widths.push(func.ty(d).size_in_bits() as u32);
        }
        if u.is(Opcode::G_SEXT_INREG)
            && let Some(Operand::Imm(n)) = u.uses().get(1)
        {
            widths.push(*n as u32);
        }
    }
    widths
}

/// Whether `data` reads its operands as floating-point values: a
/// floating-point operation other than a conversion from an integer.
fn reads_as_float(data: &InstData) -> bool {
    data.known_opcode().is_some_and(|op| {
        let category = op.info().category;
        let fp = ["fp-arith", "fp-libm", "fp-compare", "fp-round", "fp-cast", "strict-fp"].contains(&category);
        fp && !matches!(op, Opcode::G_SITOFP | Opcode::G_UITOFP)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::parse_body;

    #[test]
    fn stack_slots_are_the_fixed_objects_loaded_from() {
        // %fixed-stack.1 holds an s32 the function truncates to s8,
        // %fixed-stack.0 a double; %fixed-stack.2 is only stored to and
        // %stack.0 is the function's own.
        let body = "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %fixed-stack.1\n  \
                    %1:_(s32) = G_LOAD %0(p0) :: (load (s32) from %fixed-stack.1)\n  %2:_(s8) = G_TRUNC %1(s32)\n  \
                    %3:_(p0) = G_FRAME_INDEX %fixed-stack.0\n  \
                    %4:_(s64) = G_LOAD %3(p0) :: (load (s64) from %fixed-stack.0)\n  %5:_(s64) = G_FADD %4, %4\n  \
                    %6:_(p0) = G_FRAME_INDEX %fixed-stack.2\n  G_STORE %1(s32), %6(p0) :: (store (s32) into %fixed-stack.2)\n  \
                    %7:_(p0) = G_FRAME_INDEX %stack.0\n  %8:_(s32) = G_LOAD %7(p0) :: (load (s32) from %stack.0)\n  \
                    RET 0\n";
        let f = parse_body("f", body, &[], &|_| 32).unwrap_or_else(|e| panic!("bad test body: {e:?}"));
        let slots: Vec<(u32, u32, RegClass, Vec<u32>)> =
            stack_slots(&f).into_iter().map(|(i, s)| (i, s.bits, s.class, s.widths)).collect();
        assert_eq!(slots, [(0, 64, RegClass::Float, vec![64]), (1, 32, RegClass::Int, vec![8, 32])]);
    }

    #[test]
    fn a_promised_extension_widens_its_site() {
        // An s8 argument the caller extended to its 32-bit slot (the
        // G_ASSERT_ZEXT after the any-extending load), and an s16 in $ecx
        // asserted sign-extended.
        let body = "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %fixed-stack.0\n  \
                    %1:_(s32) = G_LOAD %0(p0) :: (load (s8) from %fixed-stack.0)\n  \
                    %2:_(s32) = G_ASSERT_ZEXT %1, 1\n  %3:_(s32) = COPY $ecx\n  \
                    %4:_(s32) = G_ASSERT_SEXT %3, 16\n  RET 0\n";
        let f = parse_body("f", body, &[], &|_| 32).unwrap_or_else(|e| panic!("bad test body: {e:?}"));
        let slot = &stack_slots(&f)[0].1;
        assert_eq!((slot.bits, slot.promised), (32, Some((false, 1))));
        let abi = Abi::i386();
        let regs = live_ins(&f, &abi);
        assert_eq!(regs.iter().find(|(name, _)| name == "ecx").and_then(|(_, site)| site.promised), Some((true, 16)));
    }

    #[test]
    fn conversions_from_integers_read_integers() {
        let body = "bb.0:\n  %0:_(p0) = G_FRAME_INDEX %fixed-stack.0\n  \
                    %1:_(s32) = G_LOAD %0(p0) :: (load (s32) from %fixed-stack.0)\n  %2:_(s32) = G_SITOFP %1(s32)\n  \
                    RET 0\n";
        let f = parse_body("f", body, &[], &|_| 32).unwrap_or_else(|e| panic!("bad test body: {e:?}"));
        assert_eq!(stack_slots(&f)[0].1.class, RegClass::Int);
    }
}
