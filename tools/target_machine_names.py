#!/usr/bin/env python3
"""Writes the names LLVM 22 defines for each target gisel has into core/data:
<arch>-instructions.txt (machine instructions), <arch>-registers.txt
(physical registers), <arch>-register-classes.txt (register classes, as
TableGen spells them: llc's messages name them so; ` unallocatable` after
the name of a class no virtual register may take) and
<arch>-register-banks.txt (register banks), one per line and sorted
(registers and banks lower-cased, as the .mir syntax writes them, which
writes classes lower-cased too). The .mir reader uses them to reject what
the target does not have, as llc does: an instruction ("unknown machine
instruction name"), a register (`$x99`) or a class or bank (`%0:gpr99`),
and to tell a class from a bank.
The names come from llvm-tblgen 22 over the target's TableGen sources of
the same release: the instruction enum, and the register-info and
register-bank backends, so they include the registers and classes TableGen
makes up (register tuples such as `d0_d1`, classes such as
`gpr64common_and_gpr64noip`).

    python3 tools/target_machine_names.py LLVM_DIR [--tblgen /usr/lib/llvm-22/bin/llvm-tblgen]

LLVM_DIR is the `llvm` directory of LLVM 22's sources (include/ and
lib/Target/ are enough); tools/llvm_tests_corpus.py downloads the Debian
source tarball they are in.
"""
import argparse
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "core", "data")
TARGETS = {"aarch64": "AArch64", "riscv": "RISCV", "x86": "X86", "arm": "ARM", "mips": "Mips"}


def tablegen(tblgen, llvm_dir, target, backend, out_dir):
    """The text llvm-tblgen's `backend` writes for `target` (with the files it
    includes, which the register-info backend writes beside its output)."""
    target_dir = os.path.join(llvm_dir, "lib", "Target", target)
    out = os.path.join(out_dir, f"{target}{backend}.inc")
    subprocess.run([tblgen, backend, "-I", os.path.join(llvm_dir, "include"), "-I", target_dir,
                    os.path.join(target_dir, f"{target}.td"), "-o", out], check=True)
    stem = os.path.splitext(out)[0]
    parts = [out] + [p for p in (stem + "Enums.inc", stem + "MCDesc.inc") if os.path.exists(p)]
    return "".join(open(p).read() for p in parts)


def instruction_names(tblgen, llvm_dir, target):
    """The target's machine instructions."""
    target_dir = os.path.join(llvm_dir, "lib", "Target", target)
    done = subprocess.run(
        [tblgen, "-print-enums", "-class=Instruction", "-I", os.path.join(llvm_dir, "include"),
         "-I", target_dir, os.path.join(target_dir, f"{target}.td")],
        capture_output=True, text=True, check=True)
    return {name.rstrip(",") for name in done.stdout.split()} - {""}


def register_names(register_info, target):
    """The registers of the target's register enum (`NoRegister` left out)."""
    enum = register_info.split(f"namespace {target} {{\nenum : unsigned {{\n", 1)[1].split("NUM_TARGET_REGS", 1)[0]
    names = {line.strip().split(" ")[0].rstrip(",") for line in enum.splitlines()}
    return names - {"NoRegister", ""}


def class_names(register_info, target):
    """The register classes (made up ones included), ` unallocatable` after
    those the MC register class table marks so."""
    classes = set(re.findall(r"^\s*(\w+)RegClassID = \d+", register_info, re.M))
    # { Regs, Bits, NameIdx, RegsSize, RegSetSize, ID, SizeInBits, CopyCost, Allocatable, BaseClass }
    unallocatable = set(re.findall(rf"^\s*{{.*, {target}::(\w+)RegClassID, [^,]+, [^,]+, false, \w+ }},",
                                   register_info, re.M))
    assert unallocatable <= classes and unallocatable, f"{target}: no allocatable flags read"
    return {f"{name} unallocatable" if name in unallocatable else name for name in classes}


def bank_names(register_banks):
    """The register banks."""
    return set(re.findall(r'/\* Name \*/ "(\w+)"', register_banks))


def write(path, names):
    with open(path, "w") as out:
        out.write("".join(f"{name}\n" for name in sorted(names)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("llvm_dir")
    ap.add_argument("--tblgen", default="/usr/lib/llvm-22/bin/llvm-tblgen")
    args = ap.parse_args()
    for arch, target in TARGETS.items():
        with tempfile.TemporaryDirectory() as scratch:
            info = tablegen(args.tblgen, args.llvm_dir, target, "-gen-register-info", scratch)
            banks = tablegen(args.tblgen, args.llvm_dir, target, "-gen-register-bank", scratch)
        instructions = instruction_names(args.tblgen, args.llvm_dir, target)
        registers = {name.lower() for name in register_names(info, target)}
        classes = class_names(info, target)
        bank_set = {name.lower() for name in bank_names(banks)}
        write(os.path.join(DATA, f"{arch}-instructions.txt"), instructions)
        write(os.path.join(DATA, f"{arch}-registers.txt"), registers)
        write(os.path.join(DATA, f"{arch}-register-classes.txt"), classes)
        write(os.path.join(DATA, f"{arch}-register-banks.txt"), bank_set)
        print(f"{arch}: {len(instructions)} instructions, {len(registers)} registers, "
              f"{len(classes)} register classes, {len(bank_set)} register banks")


if __name__ == "__main__":
    main()
