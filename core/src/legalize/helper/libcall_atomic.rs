//! Atomic read-modify-write and compare-and-swap through AArch64's outline
//! atomics (LLVM's `createAtomicLibcall`): `__aarch64_<op><bytes>_<order>`
//! takes the operands with the address last and returns the old value.
//! `and` becomes `ldclr` of the complement, `sub` becomes `ldadd` of the
//! negation. A compare-and-swap with a success flag compares the old value
//! with the expected one after the call: the helpers return no flag
//! (LLVM 22 instead gives the call an `{iN, i1}` result, whose flag the
//! convention would read from the second result register).

use super::{Helper, StepResult};
use crate::ir::{AtomicOrdering, Inst, IntPredicate, Operand, Reg};
use crate::legalize::target::{LibcallRequest, LibcallValue, RuntimeFunction};
use crate::opcode::Opcode;

/// Replaces the atomic `inst` by its outline-atomics call.
pub(super) fn atomic_libcall(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    if !h.target.has_runtime_function(RuntimeFunction::OutlineAtomics) {
        return StepResult::Unable(format!("the target's runtime has no library call for {opcode}"));
    }
    let symbol = match outline_name(h, inst, opcode) {
        Ok(symbol) => symbol,
        Err(why) => return StepResult::Unable(why),
    };
    let data = h.func.inst(inst);
    let mut regs = Vec::with_capacity(data.operands.len());
    for operand in &data.operands {
        match operand.as_reg().map(|r| r.reg) {
            Some(Reg::Virtual(v)) => regs.push(v),
            _ => return StepResult::Unable(format!("{opcode} with an operand that is not a virtual register")),
        }
    }
    let value = |h: &Helper<'_>, reg| LibcallValue::plain(reg, h.func.ty(reg));
    // The success flag of a compare-and-swap, compared after the call.
    let mut success = None;
    let args = match (opcode, regs.as_slice()) {
        (Opcode::G_ATOMIC_CMPXCHG, [_, address, expected, new]) => {
            vec![value(h, *expected), value(h, *new), value(h, *address)]
        }
        (Opcode::G_ATOMIC_CMPXCHG_WITH_SUCCESS, [_, flag, address, expected, new]) => {
            success = Some((*flag, *expected));
            vec![value(h, *expected), value(h, *new), value(h, *address)]
        }
        (Opcode::G_ATOMIC_CMPXCHG | Opcode::G_ATOMIC_CMPXCHG_WITH_SUCCESS, _) => {
            return StepResult::Unable(format!("malformed {opcode}"));
        }
        (_, [_, address, operand]) => {
            let ty = h.func.ty(*operand);
            let operand = match opcode {
                Opcode::G_ATOMICRMW_AND => {
                    let all_ones = h.builder().constant(ty, -1);
                    h.build(Opcode::G_XOR, ty, &[all_ones, *operand])
                }
                Opcode::G_ATOMICRMW_SUB => {
                    let zero = h.builder().constant(ty, 0);
                    h.build(Opcode::G_SUB, ty, &[zero, *operand])
                }
                _ => *operand,
            };
            vec![value(h, operand), value(h, *address)]
        }
        _ => return StepResult::Unable(format!("malformed {opcode}")),
    };
    let request = LibcallRequest::new(symbol.clone(), args, vec![value(h, regs[0])]);
    let target = h.target;
    match target.emit_libcall(h, inst, &request) {
        Ok(()) => {
            if let Some((flag, expected)) = success {
                h.set_insert_before(inst);
                let uses =
                    vec![Operand::IntPred(IntPredicate::Eq), Operand::vreg_use(regs[0]), Operand::vreg_use(expected)];
                h.build_with(Opcode::G_ICMP, &[flag], uses);
            }
            h.func.erase(inst);
            StepResult::Legalized
        }
        Err(why) => StepResult::Unable(format!("calling {symbol}: {why}")),
    }
}

/// `__aarch64_cas16_acq_rel`, `__aarch64_ldadd4_relax`, ...: the operation,
/// the access size in bytes and the ordering (success and failure orderings
/// merged).
fn outline_name(h: &Helper<'_>, inst: Inst, opcode: Opcode) -> Result<String, String> {
    use Opcode::*;
    let operation = match opcode {
        G_ATOMIC_CMPXCHG | G_ATOMIC_CMPXCHG_WITH_SUCCESS => "cas",
        G_ATOMICRMW_XCHG => "swp",
        G_ATOMICRMW_ADD | G_ATOMICRMW_SUB => "ldadd",
        G_ATOMICRMW_AND => "ldclr",
        G_ATOMICRMW_OR => "ldset",
        G_ATOMICRMW_XOR => "ldeor",
        _ => return Err(format!("no outline atomic for {opcode}")),
    };
    let mem = h.func.inst(inst).mem.first().ok_or_else(|| format!("{opcode} without a memory operand"))?;
    let ty = mem
        .memory_type()
        .filter(|t| !t.is_vector())
        .ok_or_else(|| format!("no outline atomic for {opcode} of this memory type"))?;
    let bytes = ty.size_in_bytes();
    let sized = matches!(bytes, 1 | 2 | 4 | 8) || (bytes == 16 && operation == "cas");
    if !sized {
        return Err(format!("no outline atomic for {opcode} of {bytes} bytes"));
    }
    let order = match merged(mem.ordering, mem.failure_ordering) {
        AtomicOrdering::Monotonic => "relax",
        AtomicOrdering::Acquire => "acq",
        AtomicOrdering::Release => "rel",
        AtomicOrdering::AcquireRelease | AtomicOrdering::SequentiallyConsistent => "acq_rel",
        other => return Err(format!("no outline atomic for {opcode} with ordering '{}'", other.name())),
    };
    Ok(format!("__aarch64_{operation}{bytes}_{order}"))
}

/// The ordering a compare-and-swap needs for both outcomes: acquire and
/// release together make acq_rel, otherwise the stronger one.
fn merged(success: AtomicOrdering, failure: AtomicOrdering) -> AtomicOrdering {
    use AtomicOrdering::*;
    match (success, failure) {
        (Acquire, Release) | (Release, Acquire) => AcquireRelease,
        _ => success.max(failure),
    }
}
