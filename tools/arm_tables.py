#!/usr/bin/env python3
"""Writes what gisel needs to know of LLVM 22's Arm target beyond its
instruction names, from llvm-tblgen 22 over ARM.td (`--dump-json`).

Into core/data:

  arm-predicates.txt        `instruction<TAB>index`: the operand of each
                            predicable instruction that holds its condition
                            code, which llc prints with a comment
                            (`14 /* CC::al */`)

into targets/data, the subtarget features:

  arm-features.txt          every feature name llc accepts in -mattr, sorted
  arm-cpus.txt              every CPU name llc accepts in -mcpu, sorted
  arm-cpu-features.txt      `cpu<TAB>+f1,+f2,...`: the features a CPU's
                            record lists (llc enables them, and what they
                            imply, before the feature string)
  arm-feature-implies.txt   `feature<TAB>i1,i2,...`: the features each one
                            implies directly (LLVM's `Implies` lists), for
                            enabling a feature with what it implies and
                            disabling one with what depends on it

    python3 tools/arm_tables.py LLVM_DIR [--tblgen /usr/lib/llvm-22/bin/llvm-tblgen]

LLVM_DIR is the `llvm` directory of LLVM 22's sources (include/ and
lib/Target/ARM are enough).

Debian's llc 22, gisel's oracle, is built with Debian's armhf baseline
patch: ARMv7-A brings VFPv3 instead of NEON (`llc -mtriple=armv7` prints
`.fpu vfpv3` and selects no NEON instruction; `armv7ve` and `armv8-a` keep
NEON). DEBIAN_IMPLIES applies that change to the upstream table.
"""
import argparse
import json
import os
import subprocess
import tempfile

# Features whose implied lists Debian's build changes: (removed, added).
DEBIAN_IMPLIES = {"armv7-a": ("neon", "vfp3")}
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "targets", "data")
CORE_DATA = os.path.join(HERE, "..", "core", "data")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("llvm_dir")
    ap.add_argument("--tblgen", default="/usr/lib/llvm-22/bin/llvm-tblgen")
    args = ap.parse_args()
    target_dir = os.path.join(args.llvm_dir, "lib", "Target", "ARM")
    out = os.path.join(tempfile.mkdtemp(), "arm.json")
    subprocess.run([args.tblgen, "--dump-json", "-I", os.path.join(args.llvm_dir, "include"), "-I", target_dir,
                    os.path.join(target_dir, "ARM.td"), "-o", out], check=True)
    with open(out) as f:
        records = json.load(f)
    name = lambda ref: records[ref["def"]]["Name"]
    features = {records[r]["Name"]: sorted(name(i) for i in records[r]["Implies"])
                for r in records["!instanceof"]["SubtargetFeature"]}
    for feature, (removed, added) in DEBIAN_IMPLIES.items():
        features[feature] = sorted(set(features[feature]) - {removed} | {added})
    cpus = {records[r]["Name"]: [name(f) for f in records[r]["Features"]]
            for r in records["!instanceof"]["Processor"]}
    predicates = {}
    for inst in records["!instanceof"]["Instruction"]:
        index = predicate_operand(records, records[inst])
        if index is not None:
            predicates[records[inst]["!name"]] = index
    with open(os.path.join(CORE_DATA, "arm-predicates.txt"), "w") as out:
        out.write("".join(f"{name}\t{predicates[name]}\n" for name in sorted(predicates)))
    os.makedirs(DATA, exist_ok=True)
    write("arm-features.txt", [f"{f}\n" for f in sorted(features)])
    write("arm-cpus.txt", [f"{c}\n" for c in sorted(cpus)])
    write("arm-cpu-features.txt",
          [f"{c}\t{','.join('+' + f for f in cpus[c])}\n" for c in sorted(cpus) if cpus[c]])
    write("arm-feature-implies.txt",
          [f"{f}\t{','.join(features[f])}\n" for f in sorted(features) if features[f]])
    print(f"arm: {len(features)} features, {len(cpus)} CPUs, {len(predicates)} predicable instructions")


def predicate_operand(records, inst):
    """The machine operand index of `inst`'s first predicate operand (its
    condition code), counting the sub-operands of complex operands, or
    None when it has none."""
    index = 0
    for operands in ("OutOperandList", "InOperandList"):
        for arg, _ in inst[operands]["args"]:
            operand = records.get(arg.get("def", ""), {})
            if "PredicateOp" in operand.get("!superclasses", []):
                return index
            sub = operand.get("MIOperandInfo", {}).get("args", [])
            index += max(1, len(sub))
    return None


def write(file, lines):
    with open(os.path.join(DATA, file), "w") as out:
        out.write("".join(lines))


if __name__ == "__main__":
    main()
