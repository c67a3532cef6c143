#!/usr/bin/env python3
"""Times `gisel llc -run-pass=legalizer` against `llc-22 -run-pass=legalizer`
on the same generated inputs, whole process, and reports medians and the
ratio measured in one run.

    python3 tools/bench_vs_llc.py [--target aarch64|riscv64] [--sizes 10000,100000]
                                  [--runs 5] [--gisel target/release/gisel]
                                  [--llc /usr/lib/llvm-22/bin/llc]

Each input is one machine function per 50 operations, mixing legal and
illegal scalar widths (s8, s16, s24, s48, s64, s96, s128), s128 division
(a libcall), shifts, compares, selects, and loads and stores; AArch64
inputs add 64/128-bit vector arithmetic. Both tools get exactly the same
file; the outputs are not compared here (compare.py does that).
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

OPS_PER_FUNCTION = 50

TARGETS = {
    "aarch64": {
        "triple": "aarch64",
        "args": ["$x0", "$x1", "$x2", "$x3"],
        "ptr": "$x4",
        "ret": "RET_ReallyLR implicit $x0",
        "out": "$x0",
        "vectors": ["<4 x s32>", "<2 x s64>", "<8 x s16>", "<2 x s32>"],
        "vec_args": ["$q0", "$q1"],
    },
    "riscv64": {
        "triple": "riscv64",
        "args": ["$x10", "$x11", "$x12", "$x13"],
        "ptr": "$x14",
        "ret": "PseudoRET implicit $x10",
        "out": "$x10",
        "vectors": [],
        "vec_args": [],
    },
}

WIDTHS = [8, 16, 24, 32, 48, 64, 96, 128]


def function(name, target, rng):
    t = TARGETS[target]
    lines = [f"  bb.0:", f"    liveins: {', '.join(t['args'] + [t['ptr']] + t['vec_args'])}", ""]
    n = 0

    def new():
        nonlocal n
        n += 1
        return f"%{n}"

    args = []
    for reg in t["args"]:
        v = new()
        lines.append(f"    {v}:_(s64) = COPY {reg}")
        args.append(v)
    ptr = new()
    lines.append(f"    {ptr}:_(p0) = COPY {t['ptr']}")
    wide = new()
    lines.append(f"    {wide}:_(s128) = G_MERGE_VALUES {args[0]}(s64), {args[1]}(s64)")
    values = {64: list(args), 128: [wide]}
    acc = None
    for _ in range(OPS_PER_FUNCTION):
        kind = rng.random()
        if kind < 0.12 and t["vectors"]:
            vt = rng.choice(["<4 x s32>", "<2 x s64>"])
            a, b = new(), new()
            reg = rng.choice(["$q0", "$q1"])
            lines.append(f"    {a}:_({vt}) = COPY {reg}")
            lines.append(f"    {b}:_({vt}) = G_ADD {a}, {a}")
            continue
        if kind < 0.2:
            v = new()
            lines.append(f"    {v}:_(s64) = G_LOAD {ptr}(p0) :: (load (s64))")
            values[64].append(v)
            st = rng.choice(values[64])
            lines.append(f"    G_STORE {st}(s64), {ptr}(p0) :: (store (s64))")
            continue
        if kind < 0.26:
            q = new()
            lines.append(f"    {q}:_(s128) = G_SDIV {wide}, {wide}")
            values[128].append(q)
            continue
        w = rng.choice(WIDTHS)
        if w not in values:
            src = rng.choice(values[64] if w < 64 else values[128])
            v = new()
            op = "G_TRUNC" if w < (64 if w < 64 else 128) else "G_ANYEXT"
            srcw = 64 if w < 64 else 128
            lines.append(f"    {v}:_(s{w}) = {op} {src}(s{srcw})")
            values[w] = [v]
        a, b = rng.choice(values[w]), rng.choice(values[w])
        op = rng.choice(["G_ADD", "G_SUB", "G_AND", "G_OR", "G_XOR", "G_MUL", "G_SHL", "G_ICMP", "G_SELECT"])
        v = new()
        if op == "G_ICMP":
            lines.append(f"    {v}:_(s1) = G_ICMP intpred(ult), {a}(s{w}), {b}")
            s = new()
            lines.append(f"    {s}:_(s{w}) = G_SELECT {v}(s1), {a}, {b}")
            values[w].append(s)
            v = s
        elif op == "G_SELECT":
            c = new()
            lines.append(f"    {c}:_(s1) = G_ICMP intpred(eq), {a}(s{w}), {b}")
            lines.append(f"    {v}:_(s{w}) = G_SELECT {c}(s1), {b}, {a}")
            values[w].append(v)
        else:
            lines.append(f"    {v}:_(s{w}) = {op} {a}, {b}")
            values[w].append(v)
        acc = (v, w)
    out = new()
    if acc and acc[1] < 64:
        lines.append(f"    {out}:_(s64) = G_ANYEXT {acc[0]}(s{acc[1]})")
    elif acc and acc[1] > 64:
        lines.append(f"    {out}:_(s64) = G_TRUNC {acc[0]}(s{acc[1]})")
    else:
        lines.append(f"    {out}:_(s64) = COPY {args[2]}")
    lines.append(f"    {t['out']} = COPY {out}(s64)")
    lines.append(f"    {t['ret']}")
    return f"---\nname:            {name}\ntracksRegLiveness: true\nbody:             |\n" + "\n".join(lines) + "\n...\n"


def generate(path, target, instructions, seed):
    rng = random.Random(seed)
    count = max(1, instructions // OPS_PER_FUNCTION)
    with open(path, "w") as f:
        for i in range(count):
            f.write(function(f"f{i}", target, rng))


def time_runs(cmd, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - start)
        if result.returncode != 0:
            return None, result.stderr.decode(errors="replace")[:400]
    return statistics.median(samples), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="aarch64", choices=sorted(TARGETS))
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--gisel", default="target/release/gisel")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    args = ap.parse_args()
    if not os.path.exists(args.llc):
        sys.exit(f"bench_vs_llc: {args.llc} not found (apt-get install llvm-22)")
    triple = TARGETS[args.target]["triple"]
    print(f"target {triple}, {args.runs} runs each, medians of whole-process wall time")
    print(f"{'instructions':>12} {'gisel (s)':>10} {'llc (s)':>10} {'llc/gisel':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(tmp, f"bench-{args.target}-{size}.mir")
            generate(path, args.target, size, seed=size)
            base = ["-mtriple=" + triple, "-run-pass=legalizer", path, "-o", "/dev/null"]
            g, g_err = time_runs([args.gisel, "llc"] + base, args.runs)
            l, l_err = time_runs([args.llc] + base, args.runs)
            if g is None or l is None:
                print(f"{size:>12} failed: {g_err or l_err}")
                continue
            print(f"{size:>12} {g:>10.3f} {l:>10.3f} {l / g:>9.1f}x")


if __name__ == "__main__":
    main()
