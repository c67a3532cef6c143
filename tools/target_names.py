#!/usr/bin/env python3
"""Writes the CPU and feature names llc 22 knows for each target gisel has,
from `llc -mtriple=T -mattr=help`, into targets/data/<arch>-cpus.txt and
targets/data/<arch>-features.txt (one name per line, sorted), which gisel
reads to warn about a `-mcpu` or feature it does not recognize, as llc does;
and the features each non-generic CPU enables, as clang 22 expands `-mcpu`
into a function's "target-features", into targets/data/<arch>-cpu-features.txt
(`cpu<TAB>+f1,+f2,...`), which gisel puts before -mattr for `-mcpu` and a
function's "target-cpu". The generic CPUs are left out: they keep the
triple's defaults. X86's and Mips's CPU features come from LLVM's own processor
definitions instead (X86.td through llvm-tblgen, with the features they
imply), since clang's expansion differs from llc's (clang 22 gives
pentium4 no SSE2; clang's Mips CPUs add ABI options): pass the `llvm` directory of LLVM 22's sources.

    python3 tools/target_names.py [--llc /usr/lib/llvm-22/bin/llc]
                                  [--clang /usr/lib/llvm-22/bin/clang]
                                  [--llvm-src LLVM_DIR] [--tblgen /usr/lib/llvm-22/bin/llvm-tblgen]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "targets", "data")
TRIPLES = {"aarch64": "aarch64", "riscv": "riscv64", "x86": "x86_64", "mips": "mipsel"}
# The triples clang may need for a CPU (an RV32 CPU refuses riscv64).
CLANG_TRIPLES = {"aarch64": ["aarch64-linux-gnu"], "riscv": ["riscv64-linux-gnu", "riscv32-linux-gnu"]}
# Targets whose CPU features come from their TableGen processor definitions.
TD_CPU_FEATURES = {"x86": "X86", "mips": "Mips"}
FEATURES = re.compile(r'"target-features"="([^"]*)"')
ENTRY = re.compile(r"^  (\S+)\s+- ")


def names(help_text, heading):
    """The names listed under `heading` in llc's -mattr=help text."""
    section = help_text.split(heading, 1)[1].split("\n\n", 2)[1]
    return sorted(m.group(1) for m in map(ENTRY.match, section.splitlines()) if m)


def cpu_features(clang, arch, cpu, source):
    """The features clang enables for `cpu`, or None when it refuses it."""
    for triple in CLANG_TRIPLES[arch]:
        done = subprocess.run([clang, f"--target={triple}", f"-mcpu={cpu}", "-S", "-emit-llvm", "-o", "-", source],
                              capture_output=True, text=True)
        found = FEATURES.search(done.stdout) if done.returncode == 0 else None
        if found:
            return ",".join(f for f in found.group(1).split(",") if f.startswith("+"))
    return None


def td_cpu_features(tblgen, llvm_dir, target):
    """{cpu: "+f1,+f2,..."} from the target's processor definitions, each
    with every feature its features imply."""
    target_dir = os.path.join(llvm_dir, "lib", "Target", target)
    dump = os.path.join(tempfile.mkdtemp(), "records.json")
    subprocess.run([tblgen, "-dump-json", "-I", os.path.join(llvm_dir, "include"), "-I", target_dir,
                    os.path.join(target_dir, f"{target}.td"), "-o", dump], check=True)
    with open(dump) as f:
        records = json.load(f)

    def closure(defs):
        seen, todo = set(), [d["def"] for d in defs]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(d["def"] for d in records[name]["Implies"])
        return sorted(records[name]["Name"] for name in seen)

    processors = (records[name] for name in records["!instanceof"]["Processor"])
    return {p["Name"]: ",".join(f"+{f}" for f in closure(p["Features"])) for p in processors}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang")
    ap.add_argument("--llvm-src", help="LLVM 22's llvm/ source directory, for X86's and Mips's CPU features")
    ap.add_argument("--tblgen", default="/usr/lib/llvm-22/bin/llvm-tblgen")
    args = ap.parse_args()
    source = os.path.join(tempfile.mkdtemp(), "f.c")
    with open(source, "w") as out:
        out.write("void f(void) {}\n")
    os.makedirs(DATA, exist_ok=True)
    for arch, triple in TRIPLES.items():
        done = subprocess.run([args.llc, f"-mtriple={triple}", "-mattr=help"], capture_output=True, text=True)
        text = done.stdout + done.stderr
        for kind, heading in (("cpus", "Available CPUs for this target:"),
                              ("features", "Available features for this target:")):
            listed = names(text, heading)
            with open(os.path.join(DATA, f"{arch}-{kind}.txt"), "w") as out:
                out.write("".join(f"{name}\n" for name in listed))
            print(f"{arch}: {len(listed)} {kind}")
        cpus = names(text, "Available CPUs for this target:")
        if arch in TD_CPU_FEATURES and not args.llvm_src:
            print(f"{arch}: CPU features kept (they need --llvm-src)")
            continue
        td = td_cpu_features(args.tblgen, args.llvm_src, TD_CPU_FEATURES[arch]) if arch in TD_CPU_FEATURES else None
        rows = []
        for cpu in cpus:
            if cpu.startswith("generic"):
                features = None
            elif td is not None:
                features = td.get(cpu)
            else:
                features = cpu_features(args.clang, arch, cpu, source)
            if features:
                rows.append(f"{cpu}\t{features}\n")
        with open(os.path.join(DATA, f"{arch}-cpu-features.txt"), "w") as out:
            out.write("".join(rows))
        print(f"{arch}: features of {len(rows)} CPUs")


if __name__ == "__main__":
    main()
