#!/usr/bin/env python3
"""Differential testing against llc 22 on random programs: multi-block LLVM
IR functions with a loop and PHIs, mixed and odd integer widths, vectors,
floating point, memory and calls, with the subtarget in the function
attributes as clang writes it. llc's IRTranslator makes generic MIR; then
`llc -run-pass=legalizer` and `gisel llc -run-pass=legalizer` legalize it
and compare.py's rule (bodies, virtual registers renumbered) compares them.

    python3 tools/random_diff.py [--count 200] [--seed 1] [--targets aarch64 riscv64 riscv32 x86_64 i686]
                                 [--gisel target/release/gisel] [--llvm /usr/lib/llvm-22/bin]
                                 [--keep DIR]

Prints per target: programs, functions identical, different, gisel
errors where llc legalized, and crashes, and the share identical apart
for programs llc legalizes whole and those where it gives up part-way
(with -global-isel-abort=2 the comparison is then of how far each got); --keep writes each differing
program's input and both outputs to DIR for reduction.
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
}
WIDTHS = [1, 8, 16, 24, 32, 48, 64, 65, 128]
# Widths llc 22 often cannot legalize on a target (i65 on RISC-V, i48 on
# RV32: it then gives up part-way and the comparison is of how far each
# tool got): only a share of the programs use them, so that the others test
# what llc legalizes whole.
RARE_WIDTHS = {"aarch64": [65], "riscv64": [65], "riscv32": [48, 65], "x86_64": [65], "i686": [48, 65]}
# Targets whose programs use vectors (the others have them in few or no
# configurations of LLVM 22's GlobalISel).
VECTOR_TARGETS = ("aarch64", "x86_64")
RARE_SHARE = 0.2
INT_BINARY = ["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv", "urem", "srem"]
FP_BINARY = ["fadd", "fsub", "fmul", "fdiv"]
PREDICATES = ["eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge"]


class Program:
    """One random function: values by type, built block by block."""

    def __init__(self, rng, vectors, rare_widths):
        self.rng = rng
        self.vectors = vectors
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
                ity = rng.choice(["i32", "i64", "i16"])
                self.emit(f"{conv} = {rng.choice(['fptosi', 'fptoui'])} {ty} {name} to {ity}")
                self.add(ity, conv)
        elif kind < 0.82:
            scalars = ["i8", "i16", "i32", "i64", "i24", "i48"]
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
            ty = rng.choice(["i32", "i64", "i8"])
            name = self.fresh()
            self.declares.add(f"declare {ty} @ext_{ty}({ty}, ptr)")
            self.emit(f"{name} = call {ty} @ext_{ty}({ty} {self.pick(ty)}, ptr %mem)")
            self.add(ty, name)

    def build(self, cpu, features):
        """The IR module text."""
        rng = self.rng
        self.add("i64", "%a")
        self.add("i32", "%b")
        self.add("double", "%d")
        self.lines.append("entry:")
        # A value of every width, from the arguments, so that operations
        # work on unknown values rather than constants the IR folds.
        for bits in self.widths:
            name = self.fresh()
            if bits < 64:
                self.emit(f"{name} = trunc i64 %a to i{bits}")
            elif bits == 64:
                self.emit(f"{name} = mul i64 %a, %a")
            else:
                self.emit(f"{name} = sext i64 %a to i{bits}")
            self.add(f"i{bits}", name)
        for _ in range(rng.randint(3, 10)):
            self.step()
        ret_ty = rng.choice(["i64", "i32", "i16", "i8"])
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
        return (f"define {ret_ty} @f(i64 %a, i32 %b, double %d, ptr %mem) #0 {{\n{body}\n}}\n"
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


def run_one(args, target, seed, tmp):
    triple, cpu, features = TARGETS[target]
    rng = random.Random(seed)
    module = f'target triple = "{triple}"\n' + Program(rng, target in VECTOR_TARGETS, RARE_WIDTHS[target]).build(cpu, features)
    ll, mir = os.path.join(tmp, f"{target}-{seed}.ll"), os.path.join(tmp, f"{target}-{seed}.mir")
    with open(ll, "w") as f:
        f.write(module)
    llc = os.path.join(args.llvm, "llc")
    made = subprocess.run([llc, "-global-isel", "-global-isel-abort=2", "-stop-after=irtranslator", ll, "-o", mir],
                          capture_output=True, text=True)
    if made.returncode != 0 or re.search(r"failedISel:\s+true", open(mir).read()):
        return "skipped", None
    expected = subprocess.run([llc, f"-mtriple={triple}", "-global-isel-abort=2", "-run-pass=legalizer", mir,
                               "-o", "-"], capture_output=True, text=True)
    ours = subprocess.run([args.gisel, "llc", f"-mtriple={triple}", "-global-isel-abort=2", "-run-pass=legalizer",
                           mir, "-o", "-"], capture_output=True, text=True)
    if ours.returncode < 0:
        return "crash", (mir, expected.stdout, ours.stderr)
    if expected.returncode != 0:
        return "skipped", None
    if ours.returncode != 0:
        return "error", (mir, expected.stdout, ours.stderr)
    # llc gave up part-way (-global-isel-abort=2): what is compared is how
    # far each got, step by step.
    partial = "partial " if re.search(r"failedISel:\s+true", expected.stdout) else ""
    if bodies(expected.stdout) == bodies(ours.stdout):
        return partial + "same", None
    return partial + "different", (mir, expected.stdout, ours.stdout)


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
            for seed in range(args.seed, args.seed + args.count):
                outcome, detail = run_one(args, target, seed, tmp)
                tally[outcome] += 1
                if detail and args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    stem = os.path.join(args.keep, f"{target}-{seed}")
                    for suffix, text in zip((".mir", ".llc.mir", ".gisel.txt"), (open(detail[0]).read(), *detail[1:])):
                        with open(stem + suffix, "w") as f:
                            f.write(text)
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
            failed |= tally["crash"] > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
