//! Property: for random GMIR functions, print -> read -> print is the
//! identity on the body, and reading never loses an instruction.

use gisel_core::ir::{Builder, Function, InsertPoint, InstFlags, IntPredicate, MemFlags, MemOperand, Operand, VReg};
use gisel_core::mir::{print_body, read_mir, write_mir};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;
use proptest::prelude::*;

/// One step of a random program, over the values built so far.
#[derive(Debug, Clone)]
enum Step {
    Constant { bits: u32, value: i64 },
    Binary { opcode: u8, lhs: usize, rhs: usize, nsw: bool },
    Resize { value: usize, bits: u32, signed: bool },
    Compare { pred: u8, lhs: usize, rhs: usize },
    Load { bits: u32, offset: i64, align_log: u32 },
    Store { value: usize, offset: i64 },
    Split { value: usize },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u32..200, any::<i64>()).prop_map(|(bits, value)| Step::Constant { bits, value }),
        (0u8..6, any::<usize>(), any::<usize>(), any::<bool>()).prop_map(|(opcode, lhs, rhs, nsw)| Step::Binary {
            opcode,
            lhs,
            rhs,
            nsw
        }),
        (any::<usize>(), 1u32..300, any::<bool>()).prop_map(|(value, bits, signed)| Step::Resize {
            value,
            bits,
            signed
        }),
        (0u8..10, any::<usize>(), any::<usize>()).prop_map(|(pred, lhs, rhs)| Step::Compare { pred, lhs, rhs }),
        (1u32..129, -64i64..64, 0u32..5).prop_map(|(bits, offset, align_log)| Step::Load { bits, offset, align_log }),
        (any::<usize>(), -64i64..64).prop_map(|(value, offset)| Step::Store { value, offset }),
        any::<usize>().prop_map(|value| Step::Split { value }),
    ]
}

const BINARY: [Opcode; 6] = [Opcode::G_ADD, Opcode::G_SUB, Opcode::G_MUL, Opcode::G_AND, Opcode::G_OR, Opcode::G_XOR];

fn build(steps: &[Step]) -> Function {
    let mut func = Function::new("f");
    let block = func.add_block(0);
    let mut b = Builder::new(&mut func, InsertPoint::End(block));
    let pointer = b.copy_from_physical(Llt::pointer(0, 64), "x0");
    let mut values: Vec<VReg> = vec![b.copy_from_physical(Llt::scalar(64), "x1")];
    for step in steps {
        let pick = |i: usize| values[i % values.len()];
        let ty_of = |b: &mut Builder<'_>, v: VReg| b.func().ty(v);
        match *step {
            Step::Constant { bits, value } => values.push(b.constant(Llt::scalar(bits), i128::from(value))),
            Step::Binary { opcode, lhs, rhs, nsw } => {
                let (lhs, rhs) = (pick(lhs), pick(rhs));
                let ty = ty_of(&mut b, lhs);
                if ty_of(&mut b, rhs) == ty {
                    let v = b.build_op(BINARY[usize::from(opcode)], ty, &[lhs, rhs]);
                    if nsw {
                        let def = b.func().def_inst(v).expect("defined");
                        b.func().modify(def, |d| d.flags.insert(InstFlags::NSW));
                    }
                    values.push(v);
                }
            }
            Step::Resize { value, bits, signed } => {
                let v = pick(value);
                let from = ty_of(&mut b, v).scalar_size_in_bits();
                let opcode = match (bits.cmp(&from), signed) {
                    (std::cmp::Ordering::Less, _) => Opcode::G_TRUNC,
                    (std::cmp::Ordering::Greater, true) => Opcode::G_SEXT,
                    (std::cmp::Ordering::Greater, false) => Opcode::G_ZEXT,
                    (std::cmp::Ordering::Equal, _) => continue,
                };
                values.push(b.build_op(opcode, Llt::scalar(bits), &[v]));
            }
            Step::Compare { pred, lhs, rhs } => {
                let (lhs, rhs) = (pick(lhs), pick(rhs));
                if ty_of(&mut b, lhs) == ty_of(&mut b, rhs) {
                    values.push(b.icmp(Llt::scalar(1), IntPredicate::ALL[usize::from(pred)], lhs, rhs));
                }
            }
            Step::Load { bits, offset, align_log } => {
                let mut mem = MemOperand::new(MemFlags::LOAD, Llt::scalar(bits));
                mem.offset = offset;
                mem.base_align = 1 << align_log;
                values.push(b.load(Llt::scalar(bits.max(8)), pointer, mem));
            }
            Step::Store { value, offset } => {
                let v = pick(value);
                let mut mem = MemOperand::new(MemFlags::STORE, ty_of(&mut b, v));
                mem.offset = offset;
                b.store(v, pointer, mem);
            }
            Step::Split { value } => {
                let v = pick(value);
                let bits = ty_of(&mut b, v).scalar_size_in_bits();
                if bits % 2 == 0 {
                    let parts = b.unmerge(Llt::scalar(bits / 2), 2, v);
                    values.extend(parts);
                }
            }
        }
    }
    let last = *values.last().expect("a value");
    let last_ty = b.func().ty(last);
    b.build(Opcode::G_FREEZE, &[last_ty], vec![Operand::vreg_use(last)]);
    func
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn print_read_print_is_identity(steps in prop::collection::vec(step(), 1..40)) {
        let func = build(&steps);
        let mut body = String::new();
        print_body(&func, &mut body);
        let source = format!("---\nname: f\nbody: |\n{body}...\n");
        let module = read_mir(&source, "t.mir", Some("aarch64"), "").map_err(|e| TestCaseError::fail(e.render("t.mir", &source)))?;
        let reread = &module.functions[0].func;
        prop_assert_eq!(reread.all_insts().count(), func.all_insts().count());
        let mut again = String::new();
        print_body(reread, &mut again);
        prop_assert_eq!(&again, &body);
        let whole = write_mir(&module);
        let module2 = read_mir(&whole, "t.mir", Some("aarch64"), "").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(write_mir(&module2), whole);
    }
}
