#!/usr/bin/env python3
"""Writes the CPU and feature names llc 22 knows for each target gisel has,
from `llc -mtriple=T -mattr=help`, into targets/data/<arch>-cpus.txt and
targets/data/<arch>-features.txt (one name per line, sorted), which gisel
reads to warn about a `-mcpu` or feature it does not recognize, as llc does.

    python3 tools/target_names.py [--llc /usr/lib/llvm-22/bin/llc]
"""
import argparse
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "targets", "data")
TRIPLES = {"aarch64": "aarch64", "riscv": "riscv64"}
ENTRY = re.compile(r"^  (\S+)\s+- ")


def names(help_text, heading):
    """The names listed under `heading` in llc's -mattr=help text."""
    section = help_text.split(heading, 1)[1].split("\n\n", 2)[1]
    return sorted(m.group(1) for m in map(ENTRY.match, section.splitlines()) if m)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
