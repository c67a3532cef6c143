#!/usr/bin/env python3
"""Writes the machine instruction names LLVM 22 defines for each target gisel
has into core/data/<arch>-instructions.txt (one per line, sorted), which the
.mir reader uses to reject an instruction name the target does not have, as
llc does ("unknown machine instruction name"). The names come from
llvm-tblgen 22 over the target's TableGen sources of the same release.

    python3 tools/target_instructions.py LLVM_DIR [--tblgen /usr/lib/llvm-22/bin/llvm-tblgen]

LLVM_DIR is the `llvm` directory of LLVM 22's sources (include/ and
lib/Target/ are enough); tools/llvm_tests_corpus.py downloads the Debian
source tarball they are in.
"""
import argparse
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "core", "data")
TARGETS = {"aarch64": "AArch64", "riscv": "RISCV", "x86": "X86", "arm": "ARM", "mips": "Mips"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("llvm_dir")
    ap.add_argument("--tblgen", default="/usr/lib/llvm-22/bin/llvm-tblgen")
    args = ap.parse_args()
    for arch, target in TARGETS.items():
        target_dir = os.path.join(args.llvm_dir, "lib", "Target", target)
        done = subprocess.run(
            [args.tblgen, "-print-enums", "-class=Instruction", "-I", os.path.join(args.llvm_dir, "include"),
             "-I", target_dir, os.path.join(target_dir, f"{target}.td")],
            capture_output=True, text=True, check=True)
        names = sorted({name.rstrip(",") for name in done.stdout.split()} - {""})
        with open(os.path.join(DATA, f"{arch}-instructions.txt"), "w") as out:
            out.write("".join(f"{name}\n" for name in names))
        print(f"{arch}: {len(names)} instructions")


if __name__ == "__main__":
    main()
