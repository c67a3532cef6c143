#!/usr/bin/env python3
"""Writes the CPU and feature names llc 22 knows for each target gisel has,
from `llc -mtriple=T -mattr=help`, into targets/data/<arch>-cpus.txt and
targets/data/<arch>-features.txt (one name per line, sorted), which gisel
reads to warn about a `-mcpu` or feature it does not recognize, as llc does;
and the features each non-generic CPU enables, as clang 22 expands `-mcpu`
into a function's "target-features", into targets/data/<arch>-cpu-features.txt
(`cpu<TAB>+f1,+f2,...`), which gisel puts before -mattr for `-mcpu` and a
function's "target-cpu". The generic CPUs are left out: they keep the
triple's defaults.

    python3 tools/target_names.py [--llc /usr/lib/llvm-22/bin/llc]
                                  [--clang /usr/lib/llvm-22/bin/clang]
"""
import argparse
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "targets", "data")
TRIPLES = {"aarch64": "aarch64", "riscv": "riscv64", "x86": "x86_64"}
# The triples clang may need for a CPU (an RV32 CPU refuses riscv64).
CLANG_TRIPLES = {"aarch64": ["aarch64-linux-gnu"], "riscv": ["riscv64-linux-gnu", "riscv32-linux-gnu"],
                 "x86": ["x86_64-linux-gnu", "i686-linux-gnu"]}
# The clang option naming a CPU (x86 takes -march; -mcpu is refused there).
CLANG_CPU_OPTION = {"x86": "-march"}
FEATURES = re.compile(r'"target-features"="([^"]*)"')
ENTRY = re.compile(r"^  (\S+)\s+- ")


def names(help_text, heading):
    """The names listed under `heading` in llc's -mattr=help text."""
    section = help_text.split(heading, 1)[1].split("\n\n", 2)[1]
    return sorted(m.group(1) for m in map(ENTRY.match, section.splitlines()) if m)


def cpu_features(clang, arch, cpu, source):
    """The features clang enables for `cpu`, or None when it refuses it."""
    for triple in CLANG_TRIPLES[arch]:
        done = subprocess.run([clang, f"--target={triple}", f"{CLANG_CPU_OPTION.get(arch, '-mcpu')}={cpu}", "-S", "-emit-llvm", "-o", "-", source],
                              capture_output=True, text=True)
        found = FEATURES.search(done.stdout) if done.returncode == 0 else None
        if found:
            return ",".join(f for f in found.group(1).split(",") if f.startswith("+"))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang")
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
        rows = []
        for cpu in cpus:
            features = None if cpu.startswith("generic") else cpu_features(args.clang, arch, cpu, source)
            if features:
                rows.append(f"{cpu}\t{features}\n")
        with open(os.path.join(DATA, f"{arch}-cpu-features.txt"), "w") as out:
            out.write("".join(rows))
        print(f"{arch}: features of {len(rows)} CPUs")


if __name__ == "__main__":
    main()
