#!/usr/bin/env python3
"""Differential testing against llc 22 on random programs: multi-block LLVM
IR functions with a loop and PHIs, mixed and odd integer widths, vectors,
floating point, memory and calls, with the subtarget in the function
attributes as clang writes it. llc's IRTranslator makes generic MIR; then
`llc -run-pass=legalizer` and `gisel llc -run-pass=legalizer` legalize it
and compare.py's rule (bodies, virtual registers renumbered) compares them.
A function that differs is then run by `gisel equiv` against the generic
MIR both were given, once as llc legalized it and once as gisel did.

    python3 tools/random_diff.py [--count 200] [--seed 1]
                                 [--targets aarch64 riscv64 riscv32 x86_64 i686 armv7 mips mipsel]
                                 [--gisel target/release/gisel] [--llvm /usr/lib/llvm-22/bin]
                                 [--keep DIR]

Prints per target: programs, functions identical, different, gisel
errors where llc legalized, and crashes, and the share identical apart
for programs llc legalizes whole and those where it gives up part-way
(with -global-isel-abort=2 the comparison is then of how far each got).
Then what each function that differs means: differ-but-llc-wrong (gisel's
output means the input, llc's does not: a deliberate correction),
differ-both-agree (both mean the input: a difference of fidelity to llc,
still not identical), gisel-wrong (gisel's output does not mean the input,
whatever llc's does) and unchecked (the interpreter could not tell whether
gisel's output, or llc's where gisel's agrees, means the input). The
interpreter compares what a run leaves in memory, so a wrong byte that a
later store overwrites is not seen. The run fails on a crash or a
gisel-wrong function. --keep writes each differing program's input, both
outputs and what `gisel equiv` said of each to DIR for reduction.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TARGETS = {
    "aarch64": ("aarch64-unknown-linux-gnu", "generic", "+fp-armv8,+neon,+v8a"),
    "riscv64": ("riscv64-unknown-linux-gnu", "generic-rv64", "+64bit,+a,+c,+d,+f,+m,+zicsr,+zifencei"),
    "riscv32": ("riscv32-unknown-linux-gnu", "generic-rv32", "+32bit,+a,+c,+d,+f,+m,+zicsr,+zifencei"),
    "x86_64": ("x86_64-unknown-linux-gnu", "x86-64", "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87"),
    "i686": ("i686-unknown-linux-gnu", "pentium4", "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87"),
    # What clang 22 writes for --target=armv7-linux-gnueabihf (VFPv3-D16,
    # no NEON) and mips(el)-linux-gnu (MIPS32r2, FPXX), as
    # tools/realcode_corpus.py compiles them.
    "armv7": ("armv7-unknown-linux-gnueabihf", "generic",
              "+armv7-a,+dsp,+fp64,+read-tp-tpidruro,+vfp2,+vfp2sp,+vfp3d16,+vfp3d16sp,-aes,-d32,-fp-armv8,"
              "-fp-armv8d16,-fp-armv8d16sp,-fp-armv8sp,-fp16,-fp16fml,-fullfp16,-neon,-sha2,-thumb-mode,-vfp3,"
              "-vfp3sp,-vfp4,-vfp4d16,-vfp4d16sp,-vfp4sp"),
    "mips": ("mips-unknown-linux-gnu", "mips32r2", "+fpxx,+mips32r2,+nooddspreg,-noabicalls"),
    "mipsel": ("mipsel-unknown-linux-gnu", "mips32r2", "+fpxx,+mips32r2,+nooddspreg,-noabicalls"),
}
WIDTHS = [1, 8, 16, 24, 32, 48, 64, 65, 128]
# Widths llc 22 often cannot legalize on a target (i65 on RISC-V, i48 on
# RV32: it then gives up part-way and the comparison is of how far each
# tool got): only a share of the programs use them, so that the others test
# what llc legalizes whole.
RARE_WIDTHS = {"aarch64": [65], "riscv64": [65], "riscv32": [48, 65], "x86_64": [65], "i686": [48, 65],
               "armv7": [24, 48, 64, 65, 128], "mips": [48, 65, 128], "mipsel": [48, 65, 128]}
# Targets whose GlobalISel in llc 22 takes no i64 argument or result and
# legalizes no integer wider than 32 bits, no s24 load or store and no
# float-to-i16 conversion (armv7): their programs take an i32 first argument,
# call and return 32 bits at most, convert floats to i32 only, and load and
# store only integers of the program's widths.
NARROW_TARGETS = ("armv7",)
# llc 22's IRTranslator refuses big-endian Mips ("unable to translate in big
# endian mode"): a program for such a target is translated for its
# little-endian twin, and the generic MIR then given the target's triple and
# a big-endian data layout. O32 passes arguments in the same registers
# either way, so the function keeps its shape (the halves of its i64
# argument trade places).
TRANSLATED_AS = {"mips": "mipsel"}
# Targets whose programs use vectors (the others have them in few or no
# configurations of LLVM 22's GlobalISel).
VECTOR_TARGETS = ("aarch64", "x86_64")
RARE_SHARE = 0.2
INT_BINARY = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv", "urem", "srem"]
FP_BINARY = ["fadd", "fsub", "fmul", "fdiv"]
PREDICATES = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


class Program:
    """One random function: values by type, built block by block."""

    def __init__(self, rng, vectors, rare_widths, narrow):
        self.rng = rng
        self.vectors = vectors
        self.narrow = narrow
        # The width of the first argument, and of results and call
        # arguments at most.
        self.word = 32 if narrow else 64
        self.lines = []
        self.counter = 0
        self.values = {}  # type -> [names]
        self.declares = set()
        rare = rng.random() < RARE_SHARE
        self.widths = [w for w in WIDTHS if rare or w not in rare_widths]

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def add(self, ty, name):
        self.values.setdefault(ty, []).append(name)

    def pick(self, ty):
        names = self.values.get(ty)
        if names and self.rng.random() < 0.95:
            return self.rng.choice(names)
        if ty.startswith("i"):
            return str(self.rng.randint(-(1 << 10), 1 << 10)) if ty != "i1" else self.rng.choice(["true", "false"])
        if ty in ("float", "double"):
            return self.rng.choice(["1.5", "-0.0", "3.0", "0.25"])
        return self.rng.choice(self.values.get(ty, ["zeroinitializer"]))

    def int_type(self):
        return f"i{self.rng.choice(self.widths)}"

    def memory_ints(self, types):
        """The integer `types` the program loads and stores: on a narrow
        target those of its widths."""
        return [t for t in types if int(t[1:]) in self.widths] if self.narrow else types

    def word_ints(self, types):
        """The integer `types` a call passes or returns."""
        return [t for t in types if int(t[1:]) <= self.word]

    def emit(self, text):
        self.lines.append(f"  {text}")

    def step(self):
        """One instruction of a random kind."""
        rng = self.rng
        kind = rng.random()
        if kind < 0.35:
            ty = self.int_type()
            op = rng.choice(INT_BINARY if ty != "i1" else ["and", "or", "xor"])
            name = self.fresh()
            rhs = self.pick(ty)
            if op in ("udiv", "sdiv", "urem", "srem") and not rhs.startswith("%"):
                rhs = "7"
            self.emit(f"{name} = {op} {ty} {self.pick(ty)}, {rhs}")
            self.add(ty, name)
        elif kind < 0.5:
            src, dst = self.int_type(), self.int_type()
            if src == dst:
                return
            name = self.fresh()
            src_bits, dst_bits = int(src[1:]), int(dst[1:])
            op = "trunc" if dst_bits < src_bits else rng.choice(["zext", "sext"])
            self.emit(f"{name} = {op} {src} {self.pick(src)} to {dst}")
            self.add(dst, name)
        elif kind < 0.62:
            ty = self.int_type()
            cond = self.fresh()
            self.emit(f"{cond} = icmp {rng.choice(PREDICATES)} {ty} {self.pick(ty)}, {self.pick(ty)}")
            self.add("i1", cond)
            name = self.fresh()
            other = self.int_type()
            self.emit(f"{name} = select i1 {cond}, {other} {self.pick(other)}, {other} {self.pick(other)}")
            self.add(other, name)
        elif kind < 0.72:
            ty = rng.choice(["float", "double"])
            name = self.fresh()
            self.emit(f"{name} = {rng.choice(FP_BINARY)} {ty} {self.pick(ty)}, {self.pick(ty)}")
            self.add(ty, name)
            if rng.random() < 0.5:
                conv = self.fresh()
                ity = rng.choice(["i32"] if self.narrow else ["i32", "i64", "i16"])
                self.emit(f"{conv} = {rng.choice(['fptosi', 'fptoui'])} {ty} {name} to {ity}")
                self.add(ity, conv)
        elif kind < 0.82:
            scalars = self.memory_ints(["i8", "i16", "i32", "i64", "i24", "i48"])
            ty = rng.choice(scalars + (["<4 x i32>", "<8 x i16>", "<2 x i64>"] if self.vectors else []))
            offset = rng.randint(0, 16)
            ptr = self.fresh()
            self.emit(f"{ptr} = getelementptr i8, ptr %mem, i64 {offset}")
            if rng.random() < 0.5 or ty not in self.values:
                name = self.fresh()
                self.emit(f"{name} = load {ty}, ptr {ptr}, align 1")
                self.add(ty, name)
            else:
                self.emit(f"store {ty} {self.pick(ty)}, ptr {ptr}, align 1")
        elif kind < 0.9:
            ty = rng.choice(["<4 x i32>", "<8 x i16>", "<2 x i64>", "<16 x i8>"])
            if not self.vectors or ty not in self.values:
                return
            name = self.fresh()
            self.emit(f"{name} = {rng.choice(['add', 'sub', 'mul', 'and', 'xor'])} {ty} {self.pick(ty)}, {self.pick(ty)}")
            self.add(ty, name)
        else:
            ty = rng.choice(self.word_ints(["i32", "i64", "i8"]))
            name = self.fresh()
            self.declares.add(f"declare {ty} @ext_{ty}({ty}, ptr)")
            self.emit(f"{name} = call {ty} @ext_{ty}({ty} {self.pick(ty)}, ptr %mem)")
            self.add(ty, name)

    def build(self, cpu, features):
        """The IR module text."""
        rng = self.rng
        word = f"i{self.word}"
        self.add(word, "%a")
        self.add("i32", "%b")
        self.add("double", "%d")
        self.lines.append("entry:")
        # A value of every width, from the arguments, so that operations
        # work on unknown values rather than constants the IR folds.
        for bits in self.widths:
            name = self.fresh()
            if bits < self.word:
                self.emit(f"{name} = trunc {word} %a to i{bits}")
            elif bits == self.word:
                self.emit(f"{name} = mul {word} %a, %a")
            else:
                self.emit(f"{name} = sext {word} %a to i{bits}")
            self.add(f"i{bits}", name)
        for _ in range(rng.randint(3, 10)):
            self.step()
        ret_ty = rng.choice(self.word_ints(["i64", "i32", "i16", "i8"]))
        start = self.pick(ret_ty)
        self.emit("br label %loop")
        self.lines.append("loop:")
        phi, acc, count = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{phi} = phi i32 [ 0, %entry ], [ {count}, %loop ]")
        self.emit(f"{acc} = phi {ret_ty} [ {start}, %entry ], [ %acc.next, %loop ]")
        self.add("i32", phi)
        self.add(ret_ty, acc)
        for _ in range(rng.randint(3, 12)):
            self.step()
        # Every value computed in the loop is stored, so none is dead.
        for ty, names in sorted(self.values.items()):
            for name in names[-2:]:
                if name.startswith("%v") and ty != "i1":
                    self.emit(f"store volatile {ty} {name}, ptr %mem, align 1")
        self.emit(f"%acc.next = add {ret_ty} {acc}, {self.pick(ret_ty)}")
        self.emit(f"{count} = add i32 {phi}, 1")
        done = self.fresh()
        self.emit(f"{done} = icmp eq i32 {count}, %b")
        self.emit(f"br i1 {done}, label %exit, label %loop")
        self.lines.append("exit:")
        self.emit(f"ret {ret_ty} %acc.next")
        body = "\n".join(self.lines)
        declares = "\n".join(sorted(self.declares))
        return (f"define {ret_ty} @f({word} %a, i32 %b, double %d, ptr %mem) #0 {{\n{body}\n}}\n"
                f"{declares}\n"
                f'attributes #0 = {{ nounwind "target-cpu"="{cpu}" "target-features"="{features}" }}\n')


def bodies(text):
    """Each function's body, normalised as compare.py does."""
    out = {}
    for doc in text.split("\n---\n"):
        m = re.search(r"^name:\s+(\S+)", doc, re.M)
        if not m or "body:" not in doc:
            continue
        lines = [l.rstrip() for l in doc.split("body:", 1)[1].splitlines()[1:]]
        lines = [l for l in lines if l.strip() and not l.strip().startswith(";") and l.strip() != "..."]
        numbering = {}

        def renumber(match):
            return "%" + str(numbering.setdefault(match.group(1), len(numbering)))

        out[m.group(1)] = [re.sub(r"%(\d+)\b", renumber, l) for l in lines]
    return out


# What a differing function's two outputs mean, in the order they are
# reported.
MEANINGS = ("differ-but-llc-wrong", "differ-both-agree", "gisel-wrong", "unchecked")


def equiv(args, triple, before, after_text):
    """`gisel equiv` of the generic MIR at `before` against `after_text`:
    each function's verdict (agree, differ or not checked) and the report."""
    after = before + ".after.mir"
    with open(after, "w") as f:
        f.write(after_text)
    run = subprocess.run([args.gisel, "equiv", f"-mtriple={triple}", before, after], capture_output=True, text=True)
    verdicts = {}
    for line in run.stdout.splitlines():
        m = re.match(r"(.*): (agree|differ|not checked)\b", line)
        if m:
            verdicts[m.group(1)] = m.group(2)
    return verdicts, run.stdout + run.stderr


def meanings(args, triple, mir, llc_text, gisel_text):
    """The meaning (one of MEANINGS) of each function whose bodies differ,
    and what `gisel equiv` said of both outputs."""
    gisel, gisel_report = equiv(args, triple, mir, gisel_text)
    llc, llc_report = equiv(args, triple, mir, llc_text)
    theirs, ours = bodies(llc_text), bodies(gisel_text)
    found = []
    for name in sorted(set(theirs) | set(ours)):
        if theirs.get(name) == ours.get(name):
            continue
        verdict = (gisel.get(name), llc.get(name))
        if verdict[0] == "differ":
            found.append("gisel-wrong")
        elif verdict == ("agree", "differ"):
            found.append("differ-but-llc-wrong")
        elif verdict == ("agree", "agree"):
            found.append("differ-both-agree")
        else:
            found.append("unchecked")
    report = f"# gisel equiv INPUT GISEL-OUTPUT\n{gisel_report}# gisel equiv INPUT LLC-OUTPUT\n{llc_report}"
    return found, report


def retarget_big_endian(mir, little, big):
    """Gives the generic MIR file `mir`, translated for the triple `little`,
    the big-endian triple `big` and a big-endian data layout."""
    with open(mir) as f:
        text = f.read()
    text = text.replace(f'target triple = "{little}"', f'target triple = "{big}"')
    text = re.sub(r'(target datalayout = ")e-', r"\1E-", text)
    with open(mir, "w") as f:
        f.write(text)


def run_one(args, target, seed, tmp):
    """The outcome of one random program, what to keep of it (input, llc's
    output, gisel's output or errors, `gisel equiv`'s reports) and the
    meaning of each function that differs."""
    triple, cpu, features = TARGETS[target]
    rng = random.Random(seed)
    program = Program(rng, target in VECTOR_TARGETS, RARE_WIDTHS[target], target in NARROW_TARGETS)
    translated_for = TARGETS[TRANSLATED_AS.get(target, target)][0]
    module = f'target triple = "{translated_for}"\n' + program.build(cpu, features)
    ll, mir = os.path.join(tmp, f"{target}-{seed}.ll"), os.path.join(tmp, f"{target}-{seed}.mir")
    with open(ll, "w") as f:
        f.write(module)
    llc = os.path.join(args.llvm, "llc")
    made = subprocess.run([llc, "-global-isel", "-global-isel-abort=2", "-stop-after=irtranslator", ll, "-o", mir],
                          capture_output=True, text=True)
    if made.returncode != 0 or re.search(r"failedISel:\s+true", open(mir).read()):
        return "skipped", None, []
    if translated_for != triple:
        retarget_big_endian(mir, translated_for, triple)
    expected = subprocess.run([llc, f"-mtriple={triple}", "-global-isel-abort=2", "-run-pass=legalizer", mir,
                               "-o", "-"], capture_output=True, text=True)
    ours = subprocess.run([args.gisel, "llc", f"-mtriple={triple}", "-global-isel-abort=2", "-run-pass=legalizer",
                           mir, "-o", "-"], capture_output=True, text=True)
    if ours.returncode < 0:
        return "crash", (mir, expected.stdout, ours.stderr), []
    if expected.returncode != 0:
        return "skipped", None, []
    if ours.returncode != 0:
        return "error", (mir, expected.stdout, ours.stderr), []
    # llc gave up part-way (-global-isel-abort=2): what is compared is how
    # far each got, step by step.
    partial = "partial " if re.search(r"failedISel:\s+true", expected.stdout) else ""
    if bodies(expected.stdout) == bodies(ours.stdout):
        return partial + "same", None, []
    found, report = meanings(args, triple, mir, expected.stdout, ours.stdout)
    return partial + "different", (mir, expected.stdout, ours.stdout, report), found


def keep(directory, target, seed, detail):
    """Writes a program's input, outputs and reports to `directory`."""
    os.makedirs(directory, exist_ok=True)
    stem = os.path.join(directory, f"{target}-{seed}")
    with open(detail[0]) as f:
        texts = (f.read(), *detail[1:])
    for suffix, text in zip((".mir", ".llc.mir", ".gisel.txt", ".equiv.txt"), texts):
        with open(stem + suffix, "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--targets", nargs="+", default=["aarch64", "riscv32", "riscv64"], choices=sorted(TARGETS))
    ap.add_argument("--gisel", default="target/release/gisel")
    ap.add_argument("--llvm", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--keep")
    args = ap.parse_args()
    args.gisel = os.path.abspath(args.gisel)
    if not os.path.exists(os.path.join(args.llvm, "llc")):
        sys.exit(f"random_diff: {args.llvm}/llc not found (apt-get install llvm-22)")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.targets:
            tally = {"same": 0, "different": 0, "partial same": 0, "partial different": 0, "error": 0, "crash": 0,
                     "skipped": 0}
            meaning = dict.fromkeys(MEANINGS, 0)
            for seed in range(args.seed, args.seed + args.count):
                outcome, detail, found = run_one(args, target, seed, tmp)
                tally[outcome] += 1
                for kind in found:
                    meaning[kind] += 1
                if detail and args.keep:
                    keep(args.keep, target, seed, detail)
            whole = tally["same"] + tally["different"]
            partial = tally["partial same"] + tally["partial different"]
            compared = whole + partial + tally["error"] + tally["crash"]
            same = tally["same"] + tally["partial same"]
            share = 100.0 * same / compared if compared else 0.0
            whole_share = 100.0 * tally["same"] / whole if whole else 0.0
            print(f"{target}: {compared} programs compared, {same} identical ({share:.1f} %), "
                  f"{tally['different'] + tally['partial different']} different, {tally['error']} gisel errors, "
                  f"{tally['crash']} crashes, {tally['skipped']} skipped (llc could not translate or legalize); "
                  f"where llc legalized everything {tally['same']} of {whole} identical ({whole_share:.1f} %), "
                  f"where it gave up part-way {tally['partial same']} of {partial}")
            print(f"{target}: functions that differ: " + ", ".join(f"{meaning[kind]} {kind}" for kind in MEANINGS))
            failed |= tally["crash"] > 0 or meaning["gisel-wrong"] > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
