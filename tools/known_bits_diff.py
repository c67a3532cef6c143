#!/usr/bin/env python3
"""Differential testing of known bits against llc 22, on random generic
MIR for AArch64, RISC-V (RV64 and RV32 with M), x86-64, i686, ARMv7 and
little-endian Mips. The legalizer's artifact combiner turns
`G_ZEXT (G_TRUNC x)` into `x` when value tracking proves x's high bits
zero and into `G_AND x, mask` otherwise, so a probe

    %t:_(s16) = G_TRUNC %v(s64)
    %z:_(s64) = G_ZEXT %t(s16)

shows in the legalized output whether the known bits of %v cover the
mask; likewise `G_SEXT (G_TRUNC x)` becomes `x` when x has more sign bits
than the truncation drops and `G_SEXT_INREG x` otherwise. Each random
function is one block. On AArch64: inputs `%x0..%x3:_(s64)` from $x0..$x3,
`%q0:_(<4 x s32>)` from $q0 and `%q1:_(<2 x s64>)` from $q1, 5-25 random
operations (scalar arithmetic, logic, shifts by constants and by masked
values, multiplies and their high halves, byte and bit reversal, bit counts,
bit-field extracts, compares and selects, minimum and maximum, extensions
and truncations, G_SEXT_INREG, the G_ASSERT_* hints, pointers, merges and
unmerges, overflowing sums; vectors: G_BUILD_VECTOR of masked scalars,
operations with splat constants, G_SHUFFLE_VECTOR with undef lanes,
G_CONCAT_VECTORS, G_UNMERGE_VALUES into halves or lanes, vector truncations
and extensions), operands often masked by constants so that the known bits
are worth tracking, then 1-3 G_ZEXT probes (s64 through s8, s16 or s32;
<4 x s32> through <4 x s16>; <2 x s64> through <2 x s32>) whose results are
combined and returned in $x0 and $q0. On the other targets (--target) the
functions are scalar: the four inputs are of the register's width (s64 on
riscv64 and x86_64, s32 on riscv32, i686, armv7 and mipsel, whose s64 values
are made by G_MERGE_VALUES, G_ZEXT and G_SEXT) in the registers of the
first arguments, the same scalar operations run mostly on that width, the
1-3 probes are G_ZEXT or G_SEXT of the register's width or of the other
one (s64 through s8, s16 or s32; s32 through s8 or s16), and the results
are returned in the first two result registers. Operations llc 22 cannot
legalize on a target (G_UBFX/G_SBFX but on AArch64, bit counts and
G_BITREVERSE on x86, minimum and maximum on ARM and Mips, most s64
arithmetic on ARM...) are generated seldom (see TARGETS), and those gisel
lowers differently from llc on purpose (G_BSWAP and G_BITREVERSE on
riscv64) never.

    python3 tools/known_bits_diff.py [--count 600] [--seed 1] [--out DIR]
                                     [--target aarch64|riscv64|riscv32|x86_64|i686|armv7|mipsel]
                                     [--gisel target/release/gisel]
                                     [--llc /usr/lib/llvm-22/bin/llc]
                                     [--reduce]

The functions are written to DIR (default: a temporary folder) as a
compare.py corpus: DIR/TARGET/kbNNNNN.mir, llc's output beside it as
kbNNNNN.0.expected.mir, and DIR/MANIFEST.tsv (rows of other targets
already there are kept), so that

    python3 ../shared/conformance/compare.py --corpus DIR --jobs 1 --tool \\
      'gisel llc -mtriple={mtriple} -mattr={mattr} {flags} -run-pass=legalizer {file} -o -'

compares them again. Function N of seed S for a target is the same on every
run (AArch64's are those of the first version of this script). llc runs with
-verify-machineinstrs: a function whose input the machine verifier rejects
is a fault of this generator and is counted as invalid; one whose input it
accepts but on which llc crashes or whose legalized output it rejects is a
fault of llc and is counted apart ("llc broke": on RV32 and Mips, where
G_BSWAP is lowered too, a G_BITREVERSE and a G_BSWAP of one value, or two
G_BITREVERSEs of it, share through llc 22's CSE the G_BSWAP the lowering
builds, and llc's output then reads a register nothing defines). The
script runs gisel on each file itself (one at a time), compares the bodies by
compare.py's rule (comments dropped, virtual registers renumbered) and
prints the counts: same, different, llc failed (it exits non-zero or gives
up, failedISel; gisel's output is then compared too and the count says
how many agreed), gisel failed (where llc legalized), invalid; then the
opcodes llc gave up on, and the names of the functions that differ. With
--reduce and DIR, each differing function is reduced (an instruction at a
time: its result replaced by one of its operands or an input of the same
type, or dropped when unused) to one that still differs (in one of the
probes that differed first, when some did), written as
DIR/reduced/kbNNNNN.mir (AArch64) or DIR/reduced/TARGET-kbNNNNN.mir. The
exit status is 1 when any function differs, gisel fails or a function is
invalid.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

FLAGS = "-global-isel-abort=2"


class Target:
    """A target's triple and features, its register width (`word`, the base
    scalar type; `other` is the second scalar type: s32 on 64-bit targets,
    s64, built by G_MERGE_VALUES, on 32-bit ones), the physical registers of
    the four inputs and of the results, the return instruction, and the
    operations llc 22 cannot legalize there: opcodes (or opcode and type
    pairs) in `avoid` are generated in RARE of the choices they are in, and
    an operation all of whose opcodes are avoided has the weight RARELY;
    opcodes (or pairs) in `never` are not generated at all, where gisel
    differs from llc 22 on purpose; `other_share` is the share of operations
    on values of the `other` type, `probe_other_share` that of probes."""

    def __init__(self, name, triple, mattr, word, inputs, results, ret, avoid=(), never=(), other_share=0.3,
                 probe_other_share=0.35):
        self.name, self.triple, self.mattr = name, triple, mattr
        self.word = word
        self.other = "s32" if word == "s64" else "s64"
        self.inputs, self.results, self.ret = inputs, results, ret
        self.avoid = set(avoid)
        self.never = set(never)
        self.other_share = other_share
        self.probe_other_share = probe_other_share

    def blocked(self, opcode, ty, never=False):
        """Whether `opcode` on values of `ty` is one the target avoids (or,
        with `never`, never generates)."""
        listed = self.never if never else self.avoid
        return opcode in listed or (opcode, ty) in listed

    def weight(self, operation, ty, weight):
        """The weight of `operation` (a Function.SCALAR_OPS name) on values of
        `ty`: RARELY when the target avoids all its opcodes, 0 when it never
        generates any."""
        opcodes = Function.OPCODES.get(operation)
        if not opcodes or not (self.avoid or self.never):
            return weight
        if operation == "op_bitfield":
            ty = self.word
        opcodes = [op for op in opcodes if not self.blocked(op, ty, never=True)]
        if not opcodes:
            return 0
        return RARELY if all(self.blocked(op, ty) for op in opcodes) else weight

    def liveins(self):
        return ", ".join(self.inputs)

    def ret_line(self):
        return self.ret.format(" ".join(f"implicit {r}," for r in self.results).rstrip(","))


# The share of choices among opcodes in which an opcode a target avoids is
# still generated (llc gives up on the function: gisel must give up too).
RARE = 0.03
RARELY = 0.02  # the weight of an operation whose every opcode is avoided
# What llc 22 does not legalize: G_UBFX and G_SBFX but on AArch64, bit
# counts on x86 (without its extensions; G_CTLZ is legal on ARM), minimum
# and maximum on ARM and Mips, G_UADDO and G_USUBO of s64 on RV32 and Mips
# (the G_MERGE_VALUES of the sum stays).
BITFIELD = ["G_UBFX", "G_SBFX"]
COUNTS = ["G_CTLZ", "G_CTPOP", "G_CTTZ"]
MINMAX = ["G_UMIN", "G_UMAX", "G_SMIN", "G_SMAX"]
OVERFLOW64 = [("G_UADDO", "s64"), ("G_USUBO", "s64")]

# The register names and return instructions are those of the corpora in
# ../shared/conformance/sweep (i686 takes its inputs in $eax, $ecx, $edx and
# $esi as the i386 corpus does). AArch64 alone has vectors (llc 22's
# GlobalISel legalizes few or none on the others) and alone keeps the probes
# of the first version of this script (G_ZEXT only); the others probe sign
# bits through G_SEXT (G_TRUNC x) as well.
TARGETS = {
    "aarch64": Target("aarch64", "aarch64", "", "s64", ["$x0", "$x1", "$x2", "$x3", "$q0", "$q1"], ["$x0", "$q0"],
                      "RET_ReallyLR {}"),
    "riscv64": Target("riscv64", "riscv64", "+m", "s64", ["$x10", "$x11", "$x12", "$x13"], ["$x10", "$x11"],
                      "PseudoRET {}", avoid=BITFIELD,
                      # llc 22 lowers an s64 G_BSWAP with the mask -16777216
                      # for byte 3 (0xFF << 24 sign-extended), a miscompile
                      # gisel does not copy (it uses 4278190080); an s32 one
                      # is widened to s64 and G_BITREVERSE is lowered through
                      # G_BSWAP, so neither is generated.
                      never=["G_BSWAP", "G_BITREVERSE"]),
    "riscv32": Target("riscv32", "riscv32", "+m", "s32", ["$x10", "$x11", "$x12", "$x13"], ["$x10", "$x11"],
                      "PseudoRET {}", avoid=BITFIELD + OVERFLOW64),
    "x86_64": Target("x86_64", "x86_64", "", "s64", ["$rdi", "$rsi", "$rdx", "$rcx"], ["$rax", "$rdx"],
                     "RET 0, {}", avoid=BITFIELD + COUNTS + ["G_BITREVERSE"]),
    "i686": Target("i686", "i686", "", "s32", ["$eax", "$ecx", "$edx", "$esi"], ["$eax", "$edx"], "RET 0, {}",
                   avoid=BITFIELD + COUNTS + ["G_BITREVERSE", ("G_SMULH", "s64")]),
    # llc 22 legalizes few operations on s64 for ARM (not G_SEXT to s64, so
    # not a probe's): they are rare, and no probe is of s64.
    "armv7": Target("armv7", "armv7-linux-gnueabihf", "", "s32", ["$r0", "$r1", "$r2", "$r3"], ["$r0", "$r1"],
                    "BX_RET 14 /* CC::al */, $noreg, {}",
                    avoid=BITFIELD + COUNTS[1:] + MINMAX + ["G_BITREVERSE", "G_BSWAP", "G_UMULH", "G_SMULH",
                                                            "G_UADDO", "G_USUBO"]
                    + [(op, "s64") for op in ("G_ADD", "G_SUB", "G_MUL", "G_SHL", "G_LSHR", "G_ASHR")],
                    other_share=0.02, probe_other_share=0),
    "mipsel": Target("mipsel", "mipsel", "", "s32", ["$a0", "$a1", "$a2", "$a3"], ["$v0", "$v1"], "RetRA {}",
                     avoid=BITFIELD + MINMAX + ["G_SMULH"] + OVERFLOW64),
}
MANIFEST_HEADER = ("target_dir\tfile\trun_index\tmtriple\tmattr\tother_flags\tllc_exit_code\tnum_functions\t"
                   "filecheck_ok\n")

# Masks that leave runs of known zeros (and, through G_OR, known ones).
MASKS = {
    64: [255, 65535, 0xff00, 127, 0xffffffff, 15, 0xf0, 0x7fff, 0xff0000, 0xffff0000, 0x7fffffff, 1, 3, -256,
         -65536, 0x00ff00ff00ff00ff, 0xff00000000000000, 0x0000ffffffff0000, 0x7fffffffffffffff, 0xfffffffff,
         0x80000000],
    32: [255, 65535, 0xff00, 127, 0x7fffffff, 15, 0xf0, 0x7fff, 0xff0000, 0xffff0000, 1, 3, -256, 0x00ff00ff,
         0x80000000, 0xfff],
}
SHIFT_MASKS = {64: [7, 15, 31, 63, 3], 32: [7, 15, 31, 3]}
PREDICATES = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]
SCALARS = ("s64", "s32")
VECTORS = ("<4 x s32>", "<2 x s64>", "<2 x s32>")
LANES = {"<4 x s32>": (4, "s32"), "<2 x s64>": (2, "s64"), "<2 x s32>": (2, "s32"), "<4 x s16>": (4, "s16")}


def bits(ty):
    """The scalar width of `ty` (of its lanes for a vector)."""
    return int(LANES[ty][1][1:]) if ty in LANES else int(ty[1:])


def signed(value, width):
    """`value` as the signed `width`-bit immediate MIR writes."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


class Function:
    """One random function: the values of each type, built in order."""

    def __init__(self, rng, name, target):
        self.rng = rng
        self.name = name
        self.target = target
        self.lines = []
        self.counter = 0
        self.values = {}  # type -> [names], oldest first
        self.used = set()

    # The opcodes of each scalar operation that has a choice of them.
    OPCODES = {
        "op_binary": ["G_AND", "G_OR", "G_XOR", "G_ADD", "G_SUB", "G_MUL"],
        "op_with_constant": ["G_OR", "G_XOR", "G_ADD", "G_MUL", "G_SUB"],
        "op_shift": ["G_SHL", "G_LSHR", "G_ASHR"],
        "op_mulh": ["G_UMULH", "G_SMULH"],
        "op_reverse": ["G_BSWAP", "G_BITREVERSE"],
        "op_count": ["G_CTPOP", "G_CTLZ", "G_CTTZ"],
        "op_bitfield": ["G_UBFX", "G_SBFX"],
        "op_minmax": ["G_UMIN", "G_UMAX", "G_SMIN", "G_SMAX"],
        "op_overflow": ["G_UADDO", "G_USUBO"],
    }

    def opcode(self, operation, ty):
        """One of the opcodes of `operation` (of OPCODES) for values of `ty`:
        one the target avoids only in RARE of the choices (or when all
        are), never one it never generates."""
        choices = self.OPCODES[operation]
        avoid = self.target.avoid
        if not avoid and not self.target.never:
            return self.rng.choice(choices)
        choices = [op for op in choices if not self.target.blocked(op, ty, never=True)]
        allowed = [op for op in choices if not self.target.blocked(op, ty)]
        if not allowed or (len(allowed) < len(choices) and self.rng.random() < RARE):
            allowed = choices
        return self.rng.choice(allowed)

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def emit(self, text):
        self.lines.append(f"    {text}")

    def define(self, ty, text):
        """Emits `NAME:_(ty) = text` and records NAME as a value of `ty`."""
        name = self.fresh()
        self.emit(f"{name}:_({ty}) = {text}")
        self.values.setdefault(ty, []).append(name)
        return name

    def constant(self, ty, value):
        width = bits(ty)
        name = self.fresh()
        self.emit(f"{name}:_({ty}) = G_CONSTANT i{width} {signed(value, width)}")
        return name

    def splat(self, ty, value):
        count, lane = LANES[ty]
        c = self.constant(lane, value)
        name = self.fresh()
        self.emit(f"{name}:_({ty}) = G_BUILD_VECTOR {', '.join([f'{c}({lane})'] * count)}")
        return name

    def raw(self, ty):
        """An existing value of `ty`, often one nothing uses yet or a recent
        one (deeper DAGs); one is made when there is none."""
        names = self.values.get(ty)
        sinks = [n for n in names or [] if n.startswith("%v") and n not in self.used]
        if not names:
            name = self.make(ty)
        elif sinks and self.rng.random() < 0.5:
            name = self.rng.choice(sinks)
        elif self.rng.random() < 0.6:
            name = self.rng.choice(names[-4:])
        else:
            name = self.rng.choice(names)
        self.used.add(name)
        return name

    def pick(self, ty, masked=0.4):
        """An operand of `ty`: an existing value, often masked by a constant."""
        value = self.raw(ty)
        if self.rng.random() < masked:
            if ty in SCALARS:
                mask = self.constant(ty, self.rng.choice(MASKS[bits(ty)]))
            else:
                mask = self.splat(ty, self.rng.choice(MASKS[bits(ty)]))
            return self.define(ty, f"G_AND {value}, {mask}")
        return value

    def make(self, ty):
        """A first value of `ty`, from the inputs."""
        rng = self.rng
        word = self.target.word
        if ty == "s32":
            return self.define("s32", f"G_TRUNC {self.raw('s64')}(s64)")
        if ty == "s64":
            # 32-bit targets: from two of the inputs' type.
            return self.define("s64", f"G_MERGE_VALUES {self.raw('s32')}(s32), {self.raw('s32')}(s32)")
        if ty == "s1":
            a = self.raw(word)
            return self.define("s1", f"G_ICMP intpred({rng.choice(PREDICATES)}), {a}({word}), {self.raw(word)}")
        if ty == "p0":
            return self.define("p0", f"G_INTTOPTR {self.raw(word)}({word})")
        if ty == "<2 x s32>":
            if rng.random() < 0.5:
                lo = self.fresh()
                hi = self.fresh()
                self.emit(f"{lo}:_(<2 x s32>), {hi}:_(<2 x s32>) = G_UNMERGE_VALUES {self.raw('<4 x s32>')}(<4 x s32>)")
                self.values.setdefault("<2 x s32>", []).extend([lo, hi])
                return lo
            return self.define("<2 x s32>", f"G_TRUNC {self.raw('<2 x s64>')}(<2 x s64>)")
        raise AssertionError(ty)

    # Scalar operations: each defines one value of `ty` (s32 or s64).

    def op_mask(self, ty):
        self.pick(ty, masked=1.0)

    def two_operands(self, operation, ty):
        """One of `operation`'s opcodes on two values of `ty`."""
        op = self.opcode(operation, ty)
        self.define(ty, f"{op} {self.pick(ty)}, {self.pick(ty)}")

    def one_operand(self, operation, ty, typed=False):
        """One of `operation`'s opcodes on a value of `ty` (written with
        its type when `typed`)."""
        op = self.opcode(operation, ty)
        self.define(ty, f"{op} {self.pick(ty)}" + (f"({ty})" if typed else ""))

    def op_binary(self, ty):
        self.two_operands("op_binary", ty)

    def op_with_constant(self, ty):
        op = self.opcode("op_with_constant", ty)
        value = self.rng.choice(MASKS[bits(ty)] + [1, 2, 3, 4, 8, 16, 0x100, 12, 24])
        self.define(ty, f"{op} {self.pick(ty)}, {self.constant(ty, value)}")

    def op_shift(self, ty):
        rng = self.rng
        op = self.opcode("op_shift", ty)
        width = bits(ty)
        value = self.pick(ty)
        # The amount is mostly of the value's type, sometimes of the other one.
        amount_ty = ty if rng.random() < 0.8 else ("s32" if ty == "s64" else "s64")
        if rng.random() < 0.55:
            amount = self.constant(amount_ty, rng.choice([1, 2, 3, 4, 7, 8, 12, 16, 24, width - 1, width // 2,
                                                          rng.randrange(width)]))
        else:
            raw = self.raw(amount_ty)
            mask = self.constant(amount_ty, rng.choice(SHIFT_MASKS[min(width, bits(amount_ty))]))
            amount = self.define(amount_ty, f"G_AND {raw}, {mask}")
        self.define(ty, f"{op} {value}, {amount}({amount_ty})")

    def op_mulh(self, ty):
        self.two_operands("op_mulh", ty)

    def op_reverse(self, ty):
        self.one_operand("op_reverse", ty)

    def op_count(self, ty):
        self.one_operand("op_count", ty, typed=True)

    def op_bitfield(self, ty):
        rng = self.rng
        ty = self.target.word
        width_bits = bits(ty)
        op = self.opcode("op_bitfield", ty)
        value = self.pick(ty)
        if rng.random() < 0.9:
            lsb = rng.randrange(width_bits)
            width = rng.randint(1, width_bits - lsb)
            offset, size = self.constant(ty, lsb), self.constant(ty, width)
        else:
            # llc 22 selects only constant positions on AArch64: it gives up
            # on these (failedISel), and so must gisel.
            offset = self.define(ty, f"G_AND {self.raw(ty)}, {self.constant(ty, rng.choice([7, 15, 31]))}")
            size = self.constant(ty, rng.randint(1, width_bits // 2))
        self.define(ty, f"{op} {value}, {offset}({ty}), {size}")

    def op_select(self, ty):
        rng = self.rng
        if rng.random() < 0.7 or not self.values.get("s1"):
            if self.target.name == "aarch64":
                cmp_ty = rng.choice(SCALARS)
            else:
                cmp_ty = self.target.other if rng.random() < self.target.other_share else self.target.word
            a, b = self.pick(cmp_ty), self.pick(cmp_ty)
            cond = self.define("s1", f"G_ICMP intpred({rng.choice(PREDICATES)}), {a}({cmp_ty}), {b}")
        else:
            cond = self.raw("s1")
        self.define(ty, f"G_SELECT {cond}(s1), {self.pick(ty)}, {self.pick(ty)}")

    def op_minmax(self, ty):
        self.two_operands("op_minmax", ty)

    def op_convert(self, ty):
        rng = self.rng
        if rng.random() < 0.12:
            self.define(ty, f"{rng.choice(['G_ZEXT', 'G_SEXT', 'G_ANYEXT'])} {self.raw('s1')}(s1)")
        elif ty == "s64":
            self.define("s64", f"{rng.choice(['G_ZEXT', 'G_SEXT', 'G_ANYEXT'])} {self.pick('s32')}(s32)")
        else:
            self.define("s32", f"G_TRUNC {self.pick('s64')}(s64)")

    def op_sext_inreg(self, ty):
        self.define(ty, f"G_SEXT_INREG {self.pick(ty)}, {self.rng.randint(1, bits(ty) - 1)}")

    def op_assert(self, ty):
        rng = self.rng
        if bits(ty) > bits(self.target.word):
            # llc 22 cannot narrow the hints: the G_MERGE_VALUES that makes
            # an s64 on a 32-bit target would stay.
            ty = self.target.word
        kind = rng.random()
        if kind < 0.4:
            self.define(ty, f"G_ASSERT_ZEXT {self.raw(ty)}, {rng.randint(1, bits(ty) - 1)}")
        elif kind < 0.75:
            self.define(ty, f"G_ASSERT_SEXT {self.raw(ty)}, {rng.randint(1, bits(ty) - 1)}")
        else:
            on = "p0" if rng.random() < 0.6 else ty
            self.define(on, f"G_ASSERT_ALIGN {self.raw(on)}, {rng.choice([2, 4, 8, 16, 64, 4096])}")

    def op_pointer(self, ty):
        rng = self.rng
        word = self.target.word
        kind = rng.random()
        if kind < 0.3:
            self.define("p0", f"G_INTTOPTR {self.pick(word)}({word})")
        elif kind < 0.6:
            self.define("p0", f"G_PTR_ADD {self.raw('p0')}, {self.pick(word)}({word})")
        else:
            self.define(word, f"G_PTRTOINT {self.raw('p0')}(p0)")

    def op_merge(self, ty):
        if self.rng.random() < 0.5:
            self.define("s64", f"G_MERGE_VALUES {self.pick('s32')}(s32), {self.pick('s32')}(s32)")
        else:
            lo, hi = self.fresh(), self.fresh()
            self.emit(f"{lo}:_(s32), {hi}:_(s32) = G_UNMERGE_VALUES {self.pick('s64')}(s64)")
            self.values.setdefault("s32", []).extend([lo, hi])

    def op_overflow(self, ty):
        op = self.opcode("op_overflow", ty)
        total, carry = self.fresh(), self.fresh()
        self.emit(f"{total}:_({ty}), {carry}:_(s1) = {op} {self.pick(ty)}, {self.pick(ty)}")
        self.values.setdefault(ty, []).append(total)
        self.values.setdefault("s1", []).append(carry)

    # Vector operations.

    def op_build_vector(self, ty):
        count, lane = LANES[ty]
        self.define(ty, f"G_BUILD_VECTOR {', '.join(f'{self.pick(lane, 0.7)}({lane})' for _ in range(count))}")

    def op_vector_constant(self, ty):
        op = self.rng.choice(["G_AND", "G_AND", "G_OR", "G_ADD", "G_XOR"])
        value = self.rng.choice(MASKS[bits(ty)] + [1, 4, 0x100])
        self.define(ty, f"{op} {self.raw(ty)}, {self.splat(ty, value)}")

    def op_vector_binary(self, ty):
        ops = ["G_AND", "G_OR", "G_XOR", "G_ADD", "G_SUB"] + (["G_MUL"] if ty != "<2 x s64>" else [])
        self.define(ty, f"{self.rng.choice(ops)} {self.pick(ty)}, {self.pick(ty)}")

    def op_vector_shift(self, ty):
        rng = self.rng
        op = rng.choice(["G_SHL", "G_LSHR", "G_ASHR"])
        self.define(ty, f"{op} {self.pick(ty)}, {self.splat(ty, rng.randrange(bits(ty)))}")

    def op_shuffle(self, ty):
        rng = self.rng
        src = rng.choice({"<4 x s32>": ["<4 x s32>", "<2 x s32>"], "<2 x s32>": ["<4 x s32>", "<2 x s32>"],
                          "<2 x s64>": ["<2 x s64>"]}[ty])
        src_count = LANES[src][0]
        a, b = self.pick(src, 0.3), self.pick(src, 0.3)
        mask = ["undef" if rng.random() < 0.15 else str(rng.randrange(2 * src_count)) for _ in range(LANES[ty][0])]
        self.define(ty, f"G_SHUFFLE_VECTOR {a}({src}), {b}, shufflemask({', '.join(mask)})")

    def op_concat(self, ty):
        self.define("<4 x s32>", f"G_CONCAT_VECTORS {self.pick('<2 x s32>')}(<2 x s32>), {self.pick('<2 x s32>')}(<2 x s32>)")

    def op_unmerge(self, ty):
        rng = self.rng
        if ty == "<4 x s32>" and rng.random() < 0.5:
            names = [self.fresh() for _ in range(2)]
            defs = ", ".join(f"{n}:_(<2 x s32>)" for n in names)
            self.emit(f"{defs} = G_UNMERGE_VALUES {self.pick(ty, 0.3)}({ty})")
            self.values.setdefault("<2 x s32>", []).extend(names)
            return
        count, lane = LANES[ty]
        names = [self.fresh() for _ in range(count)]
        defs = ", ".join(f"{n}:_({lane})" for n in names)
        self.emit(f"{defs} = G_UNMERGE_VALUES {self.pick(ty, 0.3)}({ty})")
        self.values.setdefault(lane, []).extend(names)

    def op_vector_convert(self, ty):
        rng = self.rng
        kind = rng.random()
        if kind < 0.35:
            self.define("<2 x s32>", f"G_TRUNC {self.pick('<2 x s64>')}(<2 x s64>)")
        elif kind < 0.7:
            self.define("<2 x s64>", f"{rng.choice(['G_ZEXT', 'G_SEXT', 'G_ANYEXT'])} {self.pick('<2 x s32>')}(<2 x s32>)")
        else:
            narrow = self.fresh()
            self.emit(f"{narrow}:_(<4 x s16>) = G_TRUNC {self.pick('<4 x s32>')}(<4 x s32>)")
            self.define("<4 x s32>", f"{rng.choice(['G_ZEXT', 'G_SEXT', 'G_ANYEXT'])} {narrow}(<4 x s16>)")

    SCALAR_OPS = [(op_mask, 2), (op_binary, 4), (op_with_constant, 2), (op_shift, 4), (op_mulh, 1),
                  (op_reverse, 2), (op_count, 1.5), (op_bitfield, 2), (op_select, 2), (op_minmax, 2),
                  (op_convert, 2), (op_sext_inreg, 1.5), (op_assert, 1.5), (op_pointer, 1.5), (op_merge, 2),
                  (op_overflow, 1)]
    VECTOR_OPS = [(op_build_vector, 2), (op_vector_constant, 2.5), (op_vector_binary, 2), (op_vector_shift, 1),
                  (op_shuffle, 2.5), (op_concat, 1), (op_unmerge, 2), (op_vector_convert, 2)]

    def step(self, ty=None):
        """One random operation, on values of `ty` when given."""
        rng = self.rng
        target = self.target
        if ty is None:
            if target.name == "aarch64":
                ty = ("s64" if rng.random() < 0.7 else "s32") if rng.random() < 0.65 else rng.choice(VECTORS)
            else:
                ty = target.other if rng.random() < target.other_share else target.word
        if ty in SCALARS:
            table = [(op, target.weight(op.__name__, ty, weight)) for op, weight in self.SCALAR_OPS]
        else:
            table = self.VECTOR_OPS
        ops, weights = zip(*table)
        rng.choices(ops, weights)[0](self, ty)

    def probe(self):
        """A G_TRUNC and G_ZEXT pair of a recent value (AArch64), or a
        G_TRUNC and G_ZEXT or G_SEXT pair (other targets); returns the
        result and its type."""
        rng = self.rng
        extend = "G_ZEXT"
        if self.target.name != "aarch64":
            source = self.target.other if rng.random() < self.target.probe_other_share else self.target.word
            narrow = f"s{rng.choice([8, 16, 32] if source == 's64' else [8, 16])}"
            wide = source
            extend = rng.choice(["G_ZEXT", "G_SEXT"])
        elif rng.random() < 0.6:
            source, narrow, wide = "s64", f"s{rng.choice([8, 16, 32])}", "s64"
        elif rng.random() < 0.5:
            source, narrow, wide = "<4 x s32>", "<4 x s16>", "<4 x s32>"
        else:
            source, narrow, wide = "<2 x s64>", "<2 x s32>", "<2 x s64>"
        # A value computed here, preferably one nothing uses yet, so that
        # most of the function feeds a probe.
        for _ in range(20):
            computed = [n for n in self.values.get(source, []) if n.startswith("%v")]
            if computed:
                break
            self.step(source)
        sinks = [n for n in computed if n not in self.used]
        value = self.rng.choice(sinks or computed or self.values[source])
        self.used.add(value)
        t, z = self.fresh(), self.fresh()
        self.emit(f"{t}:_({narrow}) = G_TRUNC {value}({source})")
        self.emit(f"{z}:_({wide}) = {extend} {t}({narrow})")
        return z, wide

    def build(self):
        """The function as a MIR document."""
        if self.target.name != "aarch64":
            return self.build_scalar()
        rng = self.rng
        for i in range(4):
            self.emit(f"%x{i}:_(s64) = COPY $x{i}")
            self.values.setdefault("s64", []).append(f"%x{i}")
        self.emit("%q0:_(<4 x s32>) = COPY $q0")
        self.emit("%q1:_(<2 x s64>) = COPY $q1")
        self.values["<4 x s32>"] = ["%q0"]
        self.values["<2 x s64>"] = ["%q1"]
        for _ in range(rng.randint(5, 25)):
            self.step()
        scalar, vector = [], []
        for _ in range(rng.randint(1, 3)):
            z, ty = self.probe()
            if ty == "s64":
                scalar.append(z)
            elif ty == "<4 x s32>":
                vector.append(z)
            else:
                cast = self.fresh()
                self.emit(f"{cast}:_(<4 x s32>) = G_BITCAST {z}(<2 x s64>)")
                vector.append(cast)
        result = scalar[0] if scalar else self.raw("s64")
        for other in scalar[1:]:
            name = self.fresh()
            self.emit(f"{name}:_(s64) = {rng.choice(['G_XOR', 'G_OR'])} {result}, {other}")
            result = name
        vresult = vector[0] if vector else self.raw("<4 x s32>")
        for other in vector[1:]:
            name = self.fresh()
            self.emit(f"{name}:_(<4 x s32>) = {rng.choice(['G_XOR', 'G_OR'])} {vresult}, {other}")
            vresult = name
        self.emit(f"$x0 = COPY {result}(s64)")
        self.emit(f"$q0 = COPY {vresult}(<4 x s32>)")
        self.emit("RET_ReallyLR implicit $x0, implicit $q0")
        return document(self.target, self.name, self.lines)

    def build_scalar(self):
        """The function as a MIR document, for a target without vectors: the
        probes' results of the register's type are combined and returned in
        the first result register; those of the other type are combined too
        and returned in the second (G_ANYEXT to s64 on 64-bit targets; on
        32-bit ones the s64 is unmerged, its low half combined into the
        first result and its high half returned in the second)."""
        rng = self.rng
        target = self.target
        word, other = target.word, target.other
        for i in range(4):
            self.emit(f"%x{i}:_({word}) = COPY {target.inputs[i]}")
            self.values.setdefault(word, []).append(f"%x{i}")
        for _ in range(rng.randint(5, 25)):
            self.step()
        results = {word: [], other: []}
        for _ in range(rng.randint(1, 3)):
            z, ty = self.probe()
            results[ty].append(z)

        def combine(ty, names):
            result = names[0]
            for name in names[1:]:
                result = self.define(ty, f"{rng.choice(['G_XOR', 'G_OR'])} {result}, {name}")
            return result

        first = combine(word, results[word]) if results[word] else self.raw(word)
        second = None
        if results[other]:
            rest = combine(other, results[other])
            if word == "s64":
                second = self.define("s64", f"G_ANYEXT {rest}(s32)")
            else:
                lo, hi = self.fresh(), self.fresh()
                self.emit(f"{lo}:_(s32), {hi}:_(s32) = G_UNMERGE_VALUES {rest}(s64)")
                first = self.define("s32", f"G_XOR {first}, {lo}")
                second = hi
        self.emit(f"{target.results[0]} = COPY {first}({word})")
        if second:
            self.emit(f"{target.results[1]} = COPY {second}({word})")
        else:
            # The second result is still returned: an input.
            self.emit(f"{target.results[1]} = COPY %x1({word})")
        self.emit(target.ret_line())
        return document(self.target, self.name, self.lines)


def document(target, name, lines):
    return ("---\n"
            f"name:            {name}\n"
            "tracksRegLiveness: true\n"
            "body:             |\n"
            "  bb.0:\n"
            f"    liveins: {target.liveins()}\n"
            + "".join(line + "\n" for line in lines)
            + "...\n")


def generate(seed, index, target=None):
    """Function `index` of `seed` for `target` (AArch64 by default): the same
    text on every run."""
    target = target or TARGETS["aarch64"]
    name = f"kb{index:05d}"
    key = f"known-bits:{seed}:{index}" if target.name == "aarch64" else f"known-bits:{target.name}:{seed}:{index}"
    return name, Function(random.Random(key), name, target).build()


VREG = re.compile(r"%([0-9]+)\b")


def bodies(text):
    """Each function's body, normalised as compare.py does (comments and
    blank lines dropped, trailing spaces stripped, numbered virtual
    registers renumbered in order of first appearance)."""
    out = {}
    for doc in re.split(r"^(?:---|\.\.\.)[^\n]*$", text, flags=re.M):
        m = re.search(r"^name:[ \t]*(.*?)[ \t]*$", doc, re.M)
        if not m or not re.search(r"^body:\s*\|", doc, re.M):
            continue
        numbering = {}

        def renumber(match):
            return "%" + str(numbering.setdefault(match.group(1), len(numbering)))

        lines = []
        for line in re.split(r"^body:\s*\|[^\n]*\n", doc, maxsplit=1, flags=re.M)[1].splitlines():
            line = line.split(";", 1)[0].rstrip()
            if line.strip():
                lines.append(VREG.sub(renumber, line))
        out[m.group(1).strip("'\"")] = lines
    return out


def probes(text):
    """The G_TRUNC and G_ZEXT (or G_SEXT) pairs of a generated function: the
    G_TRUNC's result, the extension's result and its type."""
    return re.findall(r"^\s*(%v\d+):_\([^)]*\) = G_TRUNC .*\n\s*(%v\d+):_\(([^)]*)\) = G_[ZS]EXT \1\(",
                      text, re.M)


def masks_kept(text, names):
    """How many of the probe results `names` a legalized function still
    defines by a G_AND or G_SEXT_INREG (the mask kept: the high bits not
    known zero, or not known copies of the sign bit)."""
    return sum(1 for name in names
               if re.search(rf"^\s*{re.escape(name)}:_\([^)]*\) = G_(?:AND|SEXT_INREG) ", text, re.M))


def failed_isel(text):
    return re.search(r"^failedISel:\s+true", text, re.M) is not None


def legalize(command, target, path):
    mattr = [f"-mattr={target.mattr}"] if target.mattr else []
    return subprocess.run(command + [f"-mtriple={target.triple}"] + mattr + [FLAGS, "-run-pass=legalizer", path,
                                                                             "-o", "-"],
                          capture_output=True, text=True, timeout=60)


def run_pair(args, path):
    """llc's and gisel's runs of the file at `path`."""
    llc = legalize([args.llc, "-verify-machineinstrs"], args.target, path)
    gisel = legalize([args.gisel, "llc"], args.target, path)
    return llc, gisel


def outcome(llc, gisel):
    """One of: invalid, llc failed same, llc failed different, gisel failed,
    same, different."""
    if "Bad machine code" in llc.stderr or (llc.returncode != 0 and "error:" in llc.stderr
                                            and "unable to legalize" not in llc.stderr):
        return "invalid"
    if llc.returncode != 0 or failed_isel(llc.stdout):
        agree = (gisel.returncode == llc.returncode and failed_isel(gisel.stdout) == failed_isel(llc.stdout)
                 and bodies(gisel.stdout) == bodies(llc.stdout))
        return "llc failed same" if agree else "llc failed different"
    if gisel.returncode != 0 or failed_isel(gisel.stdout):
        return "gisel failed"
    return "same" if bodies(llc.stdout) == bodies(gisel.stdout) else "different"


def llc_broke(llc):
    """Whether llc crashed or its output failed the machine verifier."""
    return "Bad machine code" in llc.stderr or "PLEASE submit a bug report" in llc.stderr or llc.returncode < 0


def verifies(args, path):
    """Whether the machine verifier passes the file at `path` as written (when
    llc crashes or its output fails the verifier on a valid input, the fault
    is llc's: it is counted as "llc broke", not as invalid or as a failure
    gisel should share)."""
    check = subprocess.run([args.llc, f"-mtriple={args.target.triple}", "-run-pass=machineverifier", path, "-o",
                            os.devnull], capture_output=True, text=True, timeout=60)
    return check.returncode == 0 and "Bad machine code" not in check.stderr


def failure(args, path):
    """What llc gave up on in the file at `path`: the opcode of the first
    instruction it could not legalize (as its missed-optimization remark
    says), or the first line of what it said."""
    llc = legalize([args.llc, "-pass-remarks-missed=gisel.*"], args.target, path)
    m = re.search(r"unable to legalize instruction: .*?= (G_\w+)", llc.stderr) or \
        re.search(r"unable to legalize instruction: (G_\w+)", llc.stderr)
    if m:
        return m.group(1)
    lines = [line for line in llc.stderr.splitlines() if line.strip()]
    return lines[0][:80] if lines else "failedISel"


# Reduction of a differing function.



def instruction_defs(line):
    """The registers a line defines, with their types."""
    head = line.split("=", 1)[0] if "=" in line else ""
    return re.findall(r"(%[\w.]+):_\(([^()]*)\)", head)


def uses(line):
    rhs = line.split("=", 1)[1] if "=" in line else line
    return re.findall(r"%[\w.]+", rhs)


def probe_mismatches(text, llc, gisel):
    """The probes of `text` whose results llc and gisel define differently
    (one keeps the G_AND or G_SEXT_INREG the other drops)."""
    def definition(out, name):
        m = re.search(rf"^\s*{re.escape(name)}:_\([^)]*\) = (\w+)", out, re.M)
        return m.group(1) if m else None

    return {z for _, z, _ in probes(text) if definition(llc.stdout, z) != definition(gisel.stdout, z)}


def still_differs(args, lines, name, tmp, wanted):
    """Whether the function of body `lines` still differs, and when
    `wanted` names probes, in at least one of them (so that the reduction
    keeps the difference of known bits it began with rather than drifting to
    another, such as the folding of an instruction whose operands it made
    constant)."""
    path = os.path.join(tmp, "reduce.mir")
    text = document(args.target, name, lines)
    with open(path, "w") as f:
        f.write(text)
    llc, gisel = run_pair(args, path)
    if outcome(llc, gisel) != "different":
        return False
    return not wanted or bool(probe_mismatches(text, llc, gisel) & wanted)


def reduce(args, name, text, tmp):
    """The body lines of a smaller function that still differs."""
    path = os.path.join(tmp, "reduce.mir")
    with open(path, "w") as f:
        f.write(text)
    wanted = probe_mismatches(text, *run_pair(args, path))
    lines = re.split(r"^    liveins:[^\n]*\n", text, flags=re.M)[1].split("...")[0].rstrip("\n").split("\n")
    changed = True
    while changed:
        changed = False
        i = len(lines) - 1
        while i >= 0:
            line = lines[i]
            defs = instruction_defs(line)
            if not defs or re.match(r"\s*%[xq]\d+:_", line) and "COPY $" in line:
                i -= 1
                continue
            later = lines[i + 1:]
            used = [d for d, _ in defs if any(d in uses(l) for l in later)]
            candidates = []
            if not used:
                candidates.append(lines[:i] + later)
            elif len(defs) == 1:
                reg, ty = defs[0]
                earlier = {}
                for l in lines[:i]:
                    for d, t in instruction_defs(l):
                        earlier[d] = t
                operands = [u for u in uses(line) if earlier.get(u) == ty]
                inputs = [d for d, t in earlier.items() if t == ty and re.match(r"%[xq]\d+$", d)]
                for repl in dict.fromkeys(operands + inputs):
                    pattern = re.compile(re.escape(reg) + r"\b(?![\w.])")
                    candidates.append(lines[:i] + [pattern.sub(repl, l) for l in later])
            for candidate in candidates:
                if still_differs(args, candidate, name, tmp, wanted):
                    lines = candidate
                    changed = True
                    break
            i = min(i, len(lines)) - 1
    # Inputs that nothing uses any more.
    lines = [l for k, l in enumerate(lines)
             if not (instruction_defs(l) and "COPY $" in l
                     and not any(instruction_defs(l)[0][0] in uses(m) for m in lines[k + 1:]))]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="folder for the corpus (default: a temporary one)")
    ap.add_argument("--gisel", default="target/release/gisel")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--target", default="aarch64", choices=list(TARGETS),
                    help="the target the functions are written for and legalized for (default aarch64)")
    ap.add_argument("--reduce", action="store_true", help="reduce each differing function into OUT/reduced")
    args = ap.parse_args()
    target = args.target = TARGETS[args.target]
    args.gisel = os.path.abspath(args.gisel)
    if args.reduce and not args.out:
        sys.exit("known_bits_diff: --reduce writes into the corpus folder: give --out DIR")
    if not os.path.exists(args.llc):
        sys.exit(f"known_bits_diff: {args.llc} not found (apt-get install llvm-22)")
    if not os.path.exists(args.gisel):
        sys.exit(f"known_bits_diff: {args.gisel} not found (cargo build --release)")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.abspath(args.out) if args.out else tmp
        folder = os.path.join(out, target.name)
        os.makedirs(folder, exist_ok=True)
        tally = dict.fromkeys(["same", "different", "llc failed same", "llc failed different", "gisel failed",
                               "invalid", "llc broke"], 0)
        differing, others, rows = [], [], []
        probe_count = kept = 0
        reasons = {}
        for index in range(args.count):
            name, text = generate(args.seed, index, target)
            path = os.path.join(folder, name + ".mir")
            with open(path, "w") as f:
                f.write(text)
            llc, gisel = run_pair(args, path)
            with open(os.path.join(folder, name + ".0.expected.mir"), "w") as f:
                f.write(llc.stdout)
            if llc.stderr:
                with open(os.path.join(folder, name + ".0.expected.stderr"), "w") as f:
                    f.write(llc.stderr)
            rows.append(f"{target.name}\t{name}.mir\t0\t{target.triple}\t{target.mattr}\t{FLAGS}\t{llc.returncode}\t"
                        f"{len(bodies(llc.stdout))}\tna\n")
            kind = outcome(llc, gisel)
            if kind in ("invalid", "llc failed different") and llc_broke(llc) and verifies(args, path):
                kind = "llc broke"
            tally[kind] += 1
            if kind.startswith("llc failed"):
                reason = failure(args, path)
                reasons[reason] = reasons.get(reason, 0) + 1
            if kind in ("same", "different"):
                # An s64 probe on a 32-bit target is narrowed: its result is
                # gone whether or not the mask is kept, so it is not counted.
                names = [z for _, z, ty in probes(text) if bits(ty) <= bits(target.word) or ty in LANES]
                probe_count += len(names)
                kept += masks_kept(llc.stdout, names)
            if kind == "different":
                differing.append((name, text))
            elif kind in ("llc failed different", "gisel failed", "invalid", "llc broke"):
                others.append(f"{name} ({kind})")
        manifest = os.path.join(out, "MANIFEST.tsv")
        if os.path.exists(manifest):
            with open(manifest) as f:
                rows = [row for row in f.readlines()[1:] if row.split("\t", 1)[0] != target.name] + rows
        with open(manifest, "w") as f:
            f.write(MANIFEST_HEADER)
            f.writelines(rows)
        llc_failed = tally["llc failed same"] + tally["llc failed different"]
        print(f"known bits on {target.name}: {args.count} functions (seed {args.seed}): {tally['same']} same, "
              f"{tally['different']} different, {llc_failed} llc failed (gisel the same in "
              f"{tally['llc failed same']}), {tally['gisel failed']} gisel failed, {tally['invalid']} invalid"
              + (f", {tally['llc broke']} where llc broke (it crashed or its output is bad machine code)"
                 if tally["llc broke"] else ""))
        print(f"probes in functions llc legalized: {probe_count}, llc kept the mask in {kept} and dropped it "
              f"in {probe_count - kept}")
        if reasons:
            print("llc failed on: " + ", ".join(f"{reason} {n}" for reason, n in
                                                sorted(reasons.items(), key=lambda item: -item[1])))
        if differing:
            print("different: " + " ".join(name for name, _ in differing))
        if others:
            print("also: " + " ".join(others))
        if args.reduce and differing:
            reduced = os.path.join(out, "reduced")
            os.makedirs(reduced, exist_ok=True)
            for name, text in differing:
                lines = reduce(args, name, text, tmp)
                prefix = "" if target.name == "aarch64" else target.name + "-"
                with open(os.path.join(reduced, prefix + name + ".mir"), "w") as f:
                    f.write(document(target, name, lines))
                print(f"reduced {name}: {len(lines)} lines")
    bad = tally["different"] + tally["llc failed different"] + tally["gisel failed"] + tally["invalid"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
