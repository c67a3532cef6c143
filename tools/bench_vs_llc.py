#!/usr/bin/env python3
"""Times `gisel llc -run-pass=legalizer` against llc 22's `-run-pass=legalizer`,
whole process, on the same input files, and prints one table: for each input
and core setting, the median wall time of each tool, the ratio llc time /
gisel time, and each tool's peak memory (max RSS), all measured in one run.

    python3 tools/bench_vs_llc.py [--target aarch64|riscv64] [--shape small|one]
                                  [--sizes 10000,100000] [--ops-per-function 100]
                                  [--runs 5] [--cores all|one|both] [--realcode DIR]
                                  [--gisel target/release/gisel]
                                  [--llc /usr/lib/llvm-22/bin/llc]

Generated inputs (the default): each of --sizes is a number of operations
mixing legal and illegal scalar widths (s8, s16, s24, s32, s48, s64, s96,
s128), s128 division (a libcall), shifts, compares, selects, and loads and
stores; AArch64 inputs add 128-bit vector additions. --shape small (the
default) cuts them into machine functions of --ops-per-function operations,
each result joining the values later operations may read and the last one
returned. --shape one puts them all in one machine function of a single
block: operations read from a bounded pool of values per type, a result
takes the place of its first operand, and the values left at the end are
stored or folded into the return value, so no instruction is trivially dead
however large the function. A row gives the median wall time and the median
peak RSS over --runs runs.

--realcode DIR times a real-code corpus instead (tools/realcode_corpus.py
builds one): DIR/<lib>/<target>/<file>.mir, listed in DIR/MANIFEST.tsv; the
.expected files are outputs, not inputs. For each target (aarch64, riscv64,
riscv32, x86_64, i686, armv7, mips, mipsel), a run legalizes every file once per tool with the manifest's
-mtriple, -mattr and other flags. A row gives the median over --runs of the
summed wall time and the max peak RSS of any file.

--cores all lets the tools use every core, --cores one pins each run to core
0 with `taskset -c 0`, --cores both gives a row for each. The two tools
alternate command by command, so a change in the machine's load touches both
alike. Peak RSS comes from wait4 on each process. A missing llc or gisel, or
a run exiting non-zero, stops the script with the command and the start of
its standard error. The outputs are not compared here (compare.py does that).
"""
import argparse
import csv
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from realcode_corpus import DEFAULT_TARGETS as REALCODE_TARGETS

TARGETS = {
    "aarch64": {
        "triple": "aarch64",
        "args": ["$x0", "$x1", "$x2", "$x3"],
        "ptr": "$x4",
        "ret": "RET_ReallyLR implicit $x0",
        "out": "$x0",
        "vec_args": ["$q0", "$q1"],
    },
    "riscv64": {
        "triple": "riscv64",
        "args": ["$x10", "$x11", "$x12", "$x13"],
        "ptr": "$x14",
        "ret": "PseudoRET implicit $x10",
        "out": "$x10",
        "vec_args": [],
    },
}

WIDTHS = [8, 16, 24, 32, 48, 64, 96, 128]
# One per entry of a target's vec_args, which it is first copied from.
VECTOR_TYPES = ["<4 x s32>", "<2 x s64>"]
OPERATIONS = ["G_ADD", "G_SUB", "G_AND", "G_OR", "G_XOR", "G_MUL", "G_SHL", "G_ICMP", "G_SELECT"]
# The operations written as a compare and a select: the compare's predicate.
PREDICATES = {"G_ICMP": "ult", "G_SELECT": "eq"}
# The values per type that the operations of --shape one read.
POOL_CAPACITY = 8
PINNING = {"all": [], "one": ["taskset", "-c", "0"]}
STDERR_SHOWN = 400


class Pool:
    """The values of one type that operations read.

    Unbounded (capacity None), every result joins the pool and most are
    read by nothing, as in any small generated function. Bounded, once
    the pool is full a result takes the slot of its first operand, so every
    value is read by the one after it in its slot or is still in the pool at
    the end.
    """

    def __init__(self, values, capacity):
        self.values = list(values)
        self.capacity = capacity
        self.slot = 0

    def first_operand(self, rng):
        """A value of the pool, whose slot the next add may reuse."""
        self.slot = rng.randrange(len(self.values))
        return self.values[self.slot]

    def operand(self, rng):
        return rng.choice(self.values)

    def add(self, value):
        if self.capacity is None or len(self.values) < self.capacity:
            self.values.append(value)
        else:
            self.values[self.slot] = value


class Function:
    """One single-block machine function being generated."""

    def __init__(self, target, rng, capacity):
        self.target = TARGETS[target]
        self.rng = rng
        self.capacity = capacity
        self.lines = []
        self.count = 0
        args = [self.define("s64", f"COPY {reg}") for reg in self.target["args"]]
        self.ptr = self.define("p0", f"COPY {self.target['ptr']}")
        wide = self.define("s128", f"G_MERGE_VALUES {args[0]}(s64), {args[1]}(s64)")
        self.scalars = {64: Pool(args, capacity), 128: Pool([wide], capacity)}
        self.vectors = {ty: Pool([self.define(ty, f"COPY {reg}")], capacity)
                        for ty, reg in zip(VECTOR_TYPES, self.target["vec_args"])}
        # What a function of unbounded pools returns: its last arithmetic result.
        self.last = (args[0], 64)

    def emit(self, text):
        self.lines.append(f"    {text}")

    def define(self, ty, text):
        """Emits `%N:_(ty) = text` for a new virtual register %N; returns %N."""
        self.count += 1
        reg = f"%{self.count}"
        self.emit(f"{reg}:_({ty}) = {text}")
        return reg

    def operation(self):
        """Emits one randomly chosen operation."""
        kind = self.rng.random()
        if kind < 0.12 and self.vectors:
            ty = self.rng.choice(VECTOR_TYPES)
            pool = self.vectors[ty]
            a, b = pool.first_operand(self.rng), pool.operand(self.rng)
            pool.add(self.define(ty, f"G_ADD {a}, {b}"))
        elif kind < 0.2:
            pool = self.scalars[64]
            stored = pool.first_operand(self.rng)
            loaded = self.define("s64", f"G_LOAD {self.ptr}(p0) :: (load (s64))")
            self.emit(f"G_STORE {stored}(s64), {self.ptr}(p0) :: (store (s64))")
            pool.add(loaded)
        elif kind < 0.26:
            self.arithmetic(128, "G_SDIV")
        else:
            width = self.rng.choice(WIDTHS)
            self.last = (self.arithmetic(width, self.rng.choice(OPERATIONS)), width)

    def arithmetic(self, width, op):
        """Emits op on two values of `width` (the first of that width is
        truncated from a wider one); returns the result."""
        ty = f"s{width}"
        if width not in self.scalars:
            source_width = 64 if width < 64 else 128
            source = self.scalars[source_width].operand(self.rng)
            self.scalars[width] = Pool([self.define(ty, f"G_TRUNC {source}(s{source_width})")], self.capacity)
        pool = self.scalars[width]
        a, b = pool.first_operand(self.rng), pool.operand(self.rng)
        if op in PREDICATES:
            condition = self.define("s1", f"G_ICMP intpred({PREDICATES[op]}), {a}({ty}), {b}")
            result = self.define(ty, f"G_SELECT {condition}(s1), {a}, {b}")
        else:
            result = self.define(ty, f"{op} {a}, {b}")
        pool.add(result)
        return result

    def keep_live(self):
        """Stores the vectors left in bounded pools; returns the scalar values
        the return reads: every one left in a bounded pool, or with unbounded
        pools the last arithmetic result."""
        if self.capacity is None:
            return [self.last]
        for ty, pool in self.vectors.items():
            for value in pool.values:
                self.emit(f"G_STORE {value}({ty}), {self.ptr}(p0) :: (store ({ty}))")
        return [(value, width) for width, pool in sorted(self.scalars.items()) for value in pool.values]

    def to_s64(self, value, width):
        if width == 64:
            return value
        op = "G_ANYEXT" if width < 64 else "G_TRUNC"
        return self.define("s64", f"{op} {value}(s{width})")

    def text(self, name):
        """Ends the function, returning the XOR of keep_live's values, and
        gives its MIR."""
        result = None
        for value, width in self.keep_live():
            value = self.to_s64(value, width)
            result = value if result is None else self.define("s64", f"G_XOR {result}, {value}")
        self.emit(f"{self.target['out']} = COPY {result}(s64)")
        self.emit(self.target["ret"])
        liveins = ", ".join(self.target["args"] + [self.target["ptr"]] + self.target["vec_args"])
        return (f"---\nname:            {name}\ntracksRegLiveness: true\nbody:             |\n"
                f"  bb.0:\n    liveins: {liveins}\n\n" + "\n".join(self.lines) + "\n...\n")


def generate(path, target, shape, operations, ops_per_function):
    """Writes `operations` operations to path, as functions of
    ops_per_function operations (shape small) or as one function (shape
    one); returns the number of functions."""
    rng = random.Random(operations)
    if shape == "one":
        sizes, capacity = [operations], POOL_CAPACITY
    else:
        sizes, capacity = [ops_per_function] * max(1, operations // ops_per_function), None
    with open(path, "w") as f:
        for i, size in enumerate(sizes):
            function = Function(target, rng, capacity)
            for _ in range(size):
                function.operation()
            f.write(function.text(f"f{i}"))
    return len(sizes)


def run(cmd):
    """Runs cmd; returns its wall time in seconds and its peak RSS in MB.
    Exits the script if cmd fails."""
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            message = stderr.read().decode(errors="replace")[:STDERR_SHOWN]
            sys.exit(f"bench_vs_llc: `{' '.join(cmd)}` exited with {process.returncode}:\n{message}")
    return seconds, usage.ru_maxrss / 1024


def measure(commands, runs, pinning):
    """Runs each (gisel, llc) pair of commands once per run, gisel then llc;
    returns for gisel and for llc the total wall time of each run and the
    peak RSS of each run's largest process."""
    seconds, megabytes = ([], []), ([], [])
    for _ in range(runs):
        samples = [[run(pinning + command) for command in pair] for pair in commands]
        for tool in (0, 1):
            seconds[tool].append(sum(pair[tool][0] for pair in samples))
            megabytes[tool].append(max(pair[tool][1] for pair in samples))
    return seconds, megabytes


def commands(args, flags, path):
    """The (gisel, llc) commands legalizing path with flags."""
    tail = flags + ["-run-pass=legalizer", path, "-o", "/dev/null"]
    return [args.gisel, "llc"] + tail, [args.llc] + tail


def generated_cases(args, folder):
    """Yields a label and the commands for each of --sizes, generating its
    input in folder."""
    for size in args.sizes:
        path = os.path.join(folder, f"bench-{args.target}-{args.shape}-{size}.mir")
        functions = generate(path, args.target, args.shape, size, args.ops_per_function)
        flags = ["-mtriple=" + TARGETS[args.target]["triple"]]
        unit = "function" if functions == 1 else "functions"
        yield f"{size} ops in {functions} {unit}", [commands(args, flags, path)]


def realcode_cases(args):
    """Yields a label and the commands for each real-code target."""
    by_target = {target: [] for target in REALCODE_TARGETS}
    with open(os.path.join(args.realcode, "MANIFEST.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            target = row["file"].split("/")[0]
            if ".expected" in row["file"] or target not in by_target:
                continue
            flags = ["-mtriple=" + row["mtriple"]] + (["-mattr=" + row["mattr"]] if row["mattr"] else [])
            path = os.path.join(args.realcode, row["target_dir"], row["file"])
            by_target[target].append(commands(args, flags + row["other_flags"].split(), path))
    for target, files in by_target.items():
        if files:
            yield f"{target}, {len(files)} files", files


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="aarch64", choices=sorted(TARGETS))
    ap.add_argument("--shape", default="small", choices=["small", "one"])
    ap.add_argument("--sizes", default="10000,100000", type=lambda s: [positive(n) for n in s.split(",")])
    ap.add_argument("--ops-per-function", type=positive, default=100)
    ap.add_argument("--runs", type=positive, default=5)
    ap.add_argument("--cores", default="all", choices=["all", "one", "both"])
    ap.add_argument("--realcode", metavar="DIR")
    ap.add_argument("--gisel", default="target/release/gisel")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    return ap.parse_args()


def check_tools(args):
    if not os.path.exists(args.llc):
        sys.exit(f"bench_vs_llc: {args.llc} not found (apt-get install llvm-22)")
    if not os.path.exists(args.gisel):
        sys.exit(f"bench_vs_llc: {args.gisel} not found (cargo build --release -p gisel-cli)")
    if args.cores != "all" and shutil.which("taskset") is None:
        sys.exit("bench_vs_llc: taskset not found, needed by --cores one|both")
    if args.realcode and not os.path.exists(os.path.join(args.realcode, "MANIFEST.tsv")):
        sys.exit(f"bench_vs_llc: {args.realcode}/MANIFEST.tsv not found (tools/realcode_corpus.py)")


def main():
    args = parse_args()
    check_tools(args)
    if args.realcode:
        print(f"real code in {args.realcode}, {args.runs} runs: median wall time summed over "
              "each target's files, max peak RSS")
        memory = max
    else:
        print(f"{args.target}, shape {args.shape}, {args.runs} runs: median whole-process wall time, "
              "median peak RSS")
        memory = statistics.median
    print(f"{'input':<30} {'cores':>5} {'gisel (s)':>9} {'llc (s)':>9} {'llc/gisel':>9} "
          f"{'gisel MB':>9} {'llc MB':>9}")
    pinnings = ["all", "one"] if args.cores == "both" else [args.cores]
    with tempfile.TemporaryDirectory() as folder:
        cases = realcode_cases(args) if args.realcode else generated_cases(args, folder)
        for label, case in cases:
            for pinning in pinnings:
                seconds, megabytes = measure(case, args.runs, PINNING[pinning])
                gisel, llc = (statistics.median(s) for s in seconds)
                gisel_mb, llc_mb = (memory(m) for m in megabytes)
                print(f"{label:<30} {pinning:>5} {gisel:>9.3f} {llc:>9.3f} {llc / gisel:>8.1f}x "
                      f"{gisel_mb:>9.1f} {llc_mb:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
