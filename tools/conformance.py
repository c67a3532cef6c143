#!/usr/bin/env python3
"""Runs the shared conformance corpus, and the real-code and LLVM-tests
corpora when they have been built (tools/realcode_corpus.py,
tools/llvm_tests_corpus.py), through `gisel llc -run-pass=legalizer` with
compare.py and checks the results against the figures recorded in
tools/conformance-ratchet.tsv: the number of passing functions per corpus
and target may only go up. For the real-code corpus it also counts, per
target, the output files that are llc 22's byte for byte, virtual register
numbers included (group realcode-exact), which may only go up too. The
real-code corpus built at -O0 (realcode_corpus.py --opt 0), when given,
has the same two kinds of groups (realcode-o0, realcode-o0-exact), and so
has the one built at -O3 for each target's vector unit (realcode_corpus.py
--opt 3 --simd: realcode-simd, realcode-simd-exact) and the one built with
debug information (--cflags=-g: realcode-debug, realcode-debug-exact).

    python3 tools/conformance.py [--gisel target/release/gisel]
                                 [--corpus ../shared/conformance]
                                 [--realcode target/realcode]
                                 [--realcode-o0 target/realcode-o0]
                                 [--realcode-simd target/realcode-simd]
                                 [--realcode-debug target/realcode-debug]
                                 [--llvm-tests target/llvm-tests] [--record]

--record writes the figures of this run into the ratchet file (do it when
they improved). Without ../shared/conformance the check is skipped with a
message, as on a user's clone; without a built real-code or LLVM-tests
corpus its groups are skipped (and kept in the ratchet file as recorded).
"""
import argparse
import csv
import os
import re
import subprocess
import sys

import llvm_tests_corpus
import realcode_corpus

HERE = os.path.dirname(os.path.abspath(__file__))
RATCHET = os.path.join(HERE, "conformance-ratchet.tsv")
GROUPS = [
    ("llvm", "^aarch64/"),
    ("llvm", "^riscv/"),
    ("sweep", "^aarch64/"),
    ("sweep", "^riscv32/"),
    ("sweep", "^riscv32-m/"),
    ("sweep", "^riscv32-mfd/"),
    ("sweep", "^riscv64/"),
    ("sweep", "^riscv64-m/"),
    ("sweep", "^riscv64-m-zbb/"),
    ("sweep", "^riscv64-mfd/"),
    ("sweep", "^x86_64/"),
    ("sweep", "^x86_64-avx2/"),
    ("sweep", "^x86_64-avx512/"),
    ("sweep", "^i386/"),
    ("sweep", "^i686-sse2/"),
    ("sweep", "^arm-hf/"),
    ("sweep", "^arm-soft/"),
    ("sweep", "^arm-hwdiv/"),
    ("sweep", "^thumb2/"),
    ("sweep", "^mips/"),
    ("sweep", "^mipsel/"),
    ("sweep", "^mipsel-fp64/"),
    ("sweep", "^mipsel-msa/"),
]


def realcode_groups(name, folder):
    """The groups of a real-code corpus: its functions per library and
    target, and its byte-identical files per target (NAME-exact), for the
    libraries and targets its manifest lists."""
    with open(os.path.join(folder, "MANIFEST.tsv"), newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    libs = sorted({row["target_dir"] for row in rows}, key=list(realcode_corpus.LIBRARIES).index)
    built = {row["file"].split("/")[0] for row in rows}
    targets = [target for target in realcode_corpus.DEFAULT_TARGETS if target in built]
    return ([(name, f"^{lib}/{target}/") for lib in libs for target in targets]
            + [(f"{name}-exact", f"^{target}/") for target in targets])


LLVM_TESTS_GROUPS = [("llvm-tests", f"^{target}/") for target in llvm_tests_corpus.DEFAULT_TARGETS]


def run_group(compare, corpus, pattern, gisel, jobs):
    tool = f"{gisel} llc -mtriple={{mtriple}} -mattr={{mattr}} {{flags}} -run-pass=legalizer {{file}} -o -"
    cmd = [sys.executable, compare, "--tool", tool, "--corpus", corpus, "--filter", pattern, "--jobs", str(jobs)]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    if not m:
        sys.exit(f"conformance: could not read compare.py's result for {corpus} {pattern}:\n{out}")
    return int(m.group(1)), int(m.group(2))


def run_exact_group(corpus, pattern, gisel):
    """How many of the corpus's files under `pattern` (`^target/`) gisel
    prints exactly as llc's expected output, and how many there are."""
    identical = total = 0
    with open(os.path.join(corpus, "MANIFEST.tsv"), newline="") as f:
        rows = [row for row in csv.DictReader(f, delimiter="\t") if re.match(pattern, row["file"])]
    for row in rows:
        path = os.path.join(os.path.abspath(corpus), row["target_dir"], row["file"])
        expected = path[: -len(".mir")] + ".0.expected.mir"
        if not os.path.exists(expected):
            continue
        flags = [f"-mtriple={row['mtriple']}"] + ([f"-mattr={row['mattr']}"] if row["mattr"] else [])
        cmd = [gisel, "llc", *flags, *row["other_flags"].split(), "-run-pass=legalizer", path, "-o", "-"]
        out = subprocess.run(cmd, capture_output=True).stdout
        with open(expected, "rb") as e:
            identical += out == e.read()
        total += 1
    return identical, total - identical


def read_ratchet():
    figures = {}
    if os.path.exists(RATCHET):
        with open(RATCHET) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                corpus, pattern, passed, total = line.rstrip("\n").split("\t")
                figures[(corpus, pattern)] = (int(passed), int(total))
    return figures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gisel", default="target/release/gisel")
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "conformance"))
    ap.add_argument("--realcode", default=os.path.join(HERE, "..", "target", "realcode"))
    ap.add_argument("--realcode-o0", default=os.path.join(HERE, "..", "target", "realcode-o0"))
    ap.add_argument("--realcode-simd", default=os.path.join(HERE, "..", "target", "realcode-simd"))
    ap.add_argument("--realcode-debug", default=os.path.join(HERE, "..", "target", "realcode-debug"))
    ap.add_argument("--llvm-tests", default=os.path.join(HERE, "..", "target", "llvm-tests"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--record", action="store_true")
    args = ap.parse_args()
    gisel = os.path.abspath(args.gisel)
    if not os.path.exists(gisel):
        sys.exit(f"conformance: {gisel} not found (cargo build --release -p gisel-cli)")
    compare = os.path.join(args.corpus, "compare.py")
    if not os.path.exists(compare):
        print(f"conformance: skipped, {args.corpus} is absent")
        return
    recorded = read_ratchet()
    results = {}
    worse = []
    print(f"{'corpus':<10} {'group':<16} {'passed':>7} {'total':>6} {'recorded':>9}")
    groups = [(corpus, pattern, os.path.join(args.corpus, corpus)) for corpus, pattern in GROUPS]
    realcode = (
        ("realcode", args.realcode),
        ("realcode-o0", args.realcode_o0),
        ("realcode-simd", args.realcode_simd),
        ("realcode-debug", args.realcode_debug),
    )
    for name, folder in realcode:
        if os.path.exists(os.path.join(folder, "MANIFEST.tsv")):
            groups += [(corpus, pattern, folder) for corpus, pattern in realcode_groups(name, folder)]
        else:
            print(f"conformance: {name} groups skipped, {folder} is not built (tools/realcode_corpus.py)")
    if os.path.exists(os.path.join(args.llvm_tests, "MANIFEST.tsv")):
        groups += [(corpus, pattern, args.llvm_tests) for corpus, pattern in LLVM_TESTS_GROUPS]
    else:
        print(f"conformance: LLVM-tests groups skipped, {args.llvm_tests} is not built (tools/llvm_tests_corpus.py)")
    for corpus, pattern, folder in groups:
        if corpus.endswith("-exact"):
            passed, failed = run_exact_group(folder, pattern, gisel)
        else:
            passed, failed = run_group(compare, folder, pattern, gisel, args.jobs)
        results[(corpus, pattern)] = (passed, passed + failed)
        before = recorded.get((corpus, pattern), (0, 0))[0]
        mark = "  LOWER" if passed < before else ""
        print(f"{corpus:<10} {pattern:<16} {passed:>7} {passed + failed:>6} {before:>9}{mark}")
        if passed < before:
            worse.append((corpus, pattern, passed, before))
    functions = [figures for (corpus, _), figures in results.items() if not corpus.endswith("-exact")]
    print(f"total passed: {sum(p for p, _ in functions)} of {sum(t for _, t in functions)} functions")
    files = [figures for (corpus, _), figures in results.items() if corpus.endswith("-exact")]
    if files:
        print(f"real-code files byte-identical to llc 22's: {sum(p for p, _ in files)} of {sum(t for _, t in files)}")
    if args.record:
        # Groups not run this time keep their recorded figures.
        kept = {key: value for key, value in recorded.items() if key not in results}
        with open(RATCHET, "w") as f:
            f.write("# corpus\tfilter\tpassed\ttotal  (tools/conformance.py --record; may only go up)\n")
            for (corpus, pattern), (passed, all_) in {**results, **kept}.items():
                f.write(f"{corpus}\t{pattern}\t{passed}\t{all_}\n")
        print(f"recorded in {RATCHET}")
    if worse:
        for corpus, pattern, passed, before in worse:
            what = "files" if corpus.endswith("-exact") else "functions"
            print(f"conformance: {corpus} {pattern} passes {passed} {what}, fewer than the recorded {before}")
        sys.exit(1)


if __name__ == "__main__":
    main()
