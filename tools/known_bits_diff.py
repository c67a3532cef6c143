#!/usr/bin/env python3
"""Differential testing of known bits against llc 22, on random generic
MIR for AArch64. The legalizer's artifact combiner turns
`G_ZEXT (G_TRUNC x)` into `x` when value tracking proves x's high bits
zero and into `G_AND x, mask` otherwise, so a probe

    %t:_(s16) = G_TRUNC %v(s64)
    %z:_(s64) = G_ZEXT %t(s16)

shows in the legalized output whether the known bits of %v cover the
mask. Each random function is one block: inputs `%x0..%x3:_(s64)` from
$x0..$x3, `%q0:_(<4 x s32>)` from $q0 and `%q1:_(<2 x s64>)` from $q1, 5-25
random operations (scalar arithmetic, logic, shifts by constants and by
masked values, multiplies and their high halves, byte and bit reversal, bit
counts, bit-field extracts, compares and selects, minimum and maximum,
extensions and truncations, G_SEXT_INREG, the G_ASSERT_* hints, pointers,
merges and unmerges, overflowing sums; vectors: G_BUILD_VECTOR of masked
scalars, operations with splat constants, G_SHUFFLE_VECTOR with undef
lanes, G_CONCAT_VECTORS, G_UNMERGE_VALUES into halves or lanes, vector
truncations and extensions), operands often masked by constants so that
the known bits are worth tracking, then 1-3 probes (s64 through s8, s16 or
s32; <4 x s32> through <4 x s16>; <2 x s64> through <2 x s32>) whose
results are combined and returned in $x0 and $q0.

    python3 tools/known_bits_diff.py [--count 600] [--seed 1] [--out DIR]
                                     [--gisel target/release/gisel]
                                     [--llc /usr/lib/llvm-22/bin/llc]
                                     [--reduce]

The functions are written to DIR (default: a temporary folder) as a
compare.py corpus: DIR/aarch64/kbNNNNN.mir, llc's output beside it as
kbNNNNN.0.expected.mir, and DIR/MANIFEST.tsv, so that

    python3 ../shared/conformance/compare.py --corpus DIR --jobs 1 --tool \\
      'gisel llc -mtriple={mtriple} -mattr={mattr} {flags} -run-pass=legalizer {file} -o -'

compares them again. Function N of seed S is the same on every run. llc
runs with -verify-machineinstrs: a function it rejects ("Bad machine code")
is a fault of this generator and is counted as invalid. The script runs
gisel on each file itself (one at a time), compares the bodies by
compare.py's rule (comments dropped, virtual registers renumbered) and
prints the counts: same, different, llc failed (it exits non-zero or gives
up, failedISel; gisel's output is then compared too and the count says
how many agreed), gisel failed (where llc legalized), invalid; then the
names of the functions that differ. With --reduce and DIR, each differing
function is reduced (an instruction at a time: its result replaced by one
of its operands or an input of the same type, or dropped when unused) to
one that still differs, written as DIR/reduced/kbNNNNN.mir. The exit
status is 1 when any function differs, gisel fails or a function is
invalid.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TRIPLE = "aarch64"
FLAGS = "-global-isel-abort=2"
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

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.lines = []
        self.counter = 0
        self.values = {}  # type -> [names], oldest first
        self.used = set()

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
        if ty == "s32":
            return self.define("s32", f"G_TRUNC {self.raw('s64')}(s64)")
        if ty == "s1":
            a = self.raw("s64")
            return self.define("s1", f"G_ICMP intpred({rng.choice(PREDICATES)}), {a}(s64), {self.raw('s64')}")
        if ty == "p0":
            return self.define("p0", f"G_INTTOPTR {self.raw('s64')}(s64)")
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

    def op_binary(self, ty):
        op = self.rng.choice(["G_AND", "G_OR", "G_XOR", "G_ADD", "G_SUB", "G_MUL"])
        self.define(ty, f"{op} {self.pick(ty)}, {self.pick(ty)}")

    def op_with_constant(self, ty):
        op = self.rng.choice(["G_OR", "G_XOR", "G_ADD", "G_MUL", "G_SUB"])
        value = self.rng.choice(MASKS[bits(ty)] + [1, 2, 3, 4, 8, 16, 0x100, 12, 24])
        self.define(ty, f"{op} {self.pick(ty)}, {self.constant(ty, value)}")

    def op_shift(self, ty):
        rng = self.rng
        op = rng.choice(["G_SHL", "G_LSHR", "G_ASHR"])
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
        op = self.rng.choice(["G_UMULH", "G_SMULH"])
        self.define(ty, f"{op} {self.pick(ty)}, {self.pick(ty)}")

    def op_reverse(self, ty):
        op = self.rng.choice(["G_BSWAP", "G_BITREVERSE"])
        self.define(ty, f"{op} {self.pick(ty)}")

    def op_count(self, ty):
        op = self.rng.choice(["G_CTPOP", "G_CTLZ", "G_CTTZ"])
        self.define(ty, f"{op} {self.pick(ty)}({ty})")

    def op_bitfield(self, ty):
        rng = self.rng
        ty = "s64"
        op = rng.choice(["G_UBFX", "G_SBFX"])
        value = self.pick(ty)
        if rng.random() < 0.9:
            lsb = rng.randrange(64)
            width = rng.randint(1, 64 - lsb)
            offset, size = self.constant(ty, lsb), self.constant(ty, width)
        else:
            # llc 22 selects only constant positions: it gives up on these
            # (failedISel), and so must gisel.
            offset = self.define(ty, f"G_AND {self.raw(ty)}, {self.constant(ty, rng.choice([7, 15, 31]))}")
            size = self.constant(ty, rng.randint(1, 32))
        self.define(ty, f"{op} {value}, {offset}({ty}), {size}")

    def op_select(self, ty):
        rng = self.rng
        if rng.random() < 0.7 or not self.values.get("s1"):
            cmp_ty = rng.choice(SCALARS)
            a, b = self.pick(cmp_ty), self.pick(cmp_ty)
            cond = self.define("s1", f"G_ICMP intpred({rng.choice(PREDICATES)}), {a}({cmp_ty}), {b}")
        else:
            cond = self.raw("s1")
        self.define(ty, f"G_SELECT {cond}(s1), {self.pick(ty)}, {self.pick(ty)}")

    def op_minmax(self, ty):
        op = self.rng.choice(["G_UMIN", "G_UMAX", "G_SMIN", "G_SMAX"])
        self.define(ty, f"{op} {self.pick(ty)}, {self.pick(ty)}")

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
        kind = rng.random()
        if kind < 0.3:
            self.define("p0", f"G_INTTOPTR {self.pick('s64')}(s64)")
        elif kind < 0.6:
            self.define("p0", f"G_PTR_ADD {self.raw('p0')}, {self.pick('s64')}(s64)")
        else:
            self.define("s64", f"G_PTRTOINT {self.raw('p0')}(p0)")

    def op_merge(self, ty):
        if self.rng.random() < 0.5:
            self.define("s64", f"G_MERGE_VALUES {self.pick('s32')}(s32), {self.pick('s32')}(s32)")
        else:
            lo, hi = self.fresh(), self.fresh()
            self.emit(f"{lo}:_(s32), {hi}:_(s32) = G_UNMERGE_VALUES {self.pick('s64')}(s64)")
            self.values.setdefault("s32", []).extend([lo, hi])

    def op_overflow(self, ty):
        op = self.rng.choice(["G_UADDO", "G_USUBO"])
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
        if ty is None:
            ty = ("s64" if rng.random() < 0.7 else "s32") if rng.random() < 0.65 else rng.choice(VECTORS)
        ops, weights = zip(*(self.SCALAR_OPS if ty in SCALARS else self.VECTOR_OPS))
        rng.choices(ops, weights)[0](self, ty)

    def probe(self):
        """A G_TRUNC and G_ZEXT pair of a recent value; returns the result and
        its type."""
        rng = self.rng
        if rng.random() < 0.6:
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
        self.emit(f"{z}:_({wide}) = G_ZEXT {t}({narrow})")
        return z, wide

    def build(self):
        """The function as a MIR document."""
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
        return document(self.name, self.lines)


def document(name, lines):
    return ("---\n"
            f"name:            {name}\n"
            "tracksRegLiveness: true\n"
            "body:             |\n"
            "  bb.0:\n"
            "    liveins: $x0, $x1, $x2, $x3, $q0, $q1\n"
            + "".join(line + "\n" for line in lines)
            + "...\n")


def generate(seed, index):
    """Function `index` of `seed`: the same text on every run."""
    name = f"kb{index:05d}"
    return name, Function(random.Random(f"known-bits:{seed}:{index}"), name).build()


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
    """The results of the G_TRUNC and G_ZEXT pairs of a generated function."""
    return re.findall(r"^\s*(%v\d+):_\([^)]*\) = G_TRUNC .*\n\s*(%v\d+):_\([^)]*\) = G_ZEXT \1\(", text, re.M)


def masks_kept(text, names):
    """How many of the probe results `names` a legalized function still
    defines by a G_AND (the mask kept: the high bits not known zero)."""
    return sum(1 for name in names if re.search(rf"^\s*{re.escape(name)}:_\([^)]*\) = G_AND ", text, re.M))


def failed_isel(text):
    return re.search(r"^failedISel:\s+true", text, re.M) is not None


def legalize(command, path):
    return subprocess.run(command + [f"-mtriple={TRIPLE}", FLAGS, "-run-pass=legalizer", path, "-o", "-"],
                          capture_output=True, text=True, timeout=60)


def run_pair(args, path):
    """llc's and gisel's runs of the file at `path`."""
    llc = legalize([args.llc, "-verify-machineinstrs"], path)
    gisel = legalize([args.gisel, "llc"], path)
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


# Reduction of a differing function.



def instruction_defs(line):
    """The registers a line defines, with their types."""
    head = line.split("=", 1)[0] if "=" in line else ""
    return re.findall(r"(%[\w.]+):_\(([^()]*)\)", head)


def uses(line):
    rhs = line.split("=", 1)[1] if "=" in line else line
    return re.findall(r"%[\w.]+", rhs)


def still_differs(args, lines, name, tmp):
    path = os.path.join(tmp, "reduce.mir")
    with open(path, "w") as f:
        f.write(document(name, lines))
    return outcome(*run_pair(args, path)) == "different"


def reduce(args, name, text, tmp):
    """The body lines of a smaller function that still differs."""
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
                if still_differs(args, candidate, name, tmp):
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
    ap.add_argument("--reduce", action="store_true", help="reduce each differing function into OUT/reduced")
    args = ap.parse_args()
    args.gisel = os.path.abspath(args.gisel)
    if args.reduce and not args.out:
        sys.exit("known_bits_diff: --reduce writes into the corpus folder: give --out DIR")
    if not os.path.exists(args.llc):
        sys.exit(f"known_bits_diff: {args.llc} not found (apt-get install llvm-22)")
    if not os.path.exists(args.gisel):
        sys.exit(f"known_bits_diff: {args.gisel} not found (cargo build --release)")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.abspath(args.out) if args.out else tmp
        folder = os.path.join(out, TRIPLE)
        os.makedirs(folder, exist_ok=True)
        tally = dict.fromkeys(["same", "different", "llc failed same", "llc failed different", "gisel failed",
                               "invalid"], 0)
        differing, others, rows = [], [], []
        probe_count = kept = 0
        for index in range(args.count):
            name, text = generate(args.seed, index)
            path = os.path.join(folder, name + ".mir")
            with open(path, "w") as f:
                f.write(text)
            llc, gisel = run_pair(args, path)
            with open(os.path.join(folder, name + ".0.expected.mir"), "w") as f:
                f.write(llc.stdout)
            if llc.stderr:
                with open(os.path.join(folder, name + ".0.expected.stderr"), "w") as f:
                    f.write(llc.stderr)
            rows.append(f"{TRIPLE}\t{name}.mir\t0\t{TRIPLE}\t\t{FLAGS}\t{llc.returncode}\t"
                        f"{len(bodies(llc.stdout))}\tna\n")
            kind = outcome(llc, gisel)
            tally[kind] += 1
            if kind in ("same", "different"):
                names = [z for _, z in probes(text)]
                probe_count += len(names)
                kept += masks_kept(llc.stdout, names)
            if kind == "different":
                differing.append((name, text))
            elif kind in ("llc failed different", "gisel failed", "invalid"):
                others.append(f"{name} ({kind})")
        with open(os.path.join(out, "MANIFEST.tsv"), "w") as f:
            f.write(MANIFEST_HEADER)
            f.writelines(rows)
        llc_failed = tally["llc failed same"] + tally["llc failed different"]
        print(f"known bits: {args.count} functions (seed {args.seed}): {tally['same']} same, "
              f"{tally['different']} different, {llc_failed} llc failed (gisel the same in "
              f"{tally['llc failed same']}), {tally['gisel failed']} gisel failed, {tally['invalid']} invalid")
        print(f"probes in functions llc legalized: {probe_count}, llc kept the mask in {kept} and dropped it "
              f"in {probe_count - kept}")
        if differing:
            print("different: " + " ".join(name for name, _ in differing))
        if others:
            print("also: " + " ".join(others))
        if args.reduce and differing:
            reduced = os.path.join(out, "reduced")
            os.makedirs(reduced, exist_ok=True)
            for name, text in differing:
                lines = reduce(args, name, text, tmp)
                with open(os.path.join(reduced, name + ".mir"), "w") as f:
                    f.write(document(name, lines))
                print(f"reduced {name}: {len(lines)} lines")
    bad = tally["different"] + tally["llc failed different"] + tally["gisel failed"] + tally["invalid"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
