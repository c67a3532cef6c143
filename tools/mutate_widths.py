#!/usr/bin/env python3
"""Runs `gisel llc` over the sweep corpus with its scalar widths changed
(s96 -> s97, s256 -> s513, s32 -> s33, ...), three changes per file, and
fails if any run panics, hangs or exits with a code other than 0 or 1.
The changed files are often invalid machine IR or not legalizable; what
is checked is that gisel says so instead of crashing.

    python3 tools/mutate_widths.py [--gisel target/release/gisel]
                                   [--corpus ../shared/conformance] [--seed 1]

Without the corpus the check is skipped with a message, as on a user's
clone.
"""
import argparse
import csv
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHANGES = [("s96", "s97"), ("s128", "s129"), ("s256", "s257"), ("s65", "s66"), ("s128", "s200"),
           ("s256", "s513"), ("s64", "s63"), ("s32", "s33"), ("s16", "s15"), ("s8", "s9")]


def run(gisel, row, path):
    cmd = [gisel, "llc", f"-mtriple={row['mtriple']}"]
    if row["mattr"]:
        cmd.append(f"-mattr={row['mattr']}")
    cmd += row["other_flags"].split() + ["-run-pass=legalizer", "-global-isel-abort=2", path, "-o", os.devnull]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "timed out after 20 s"
    if done.returncode in (0, 1) and "panicked" not in done.stderr:
        return None
    return f"exit {done.returncode}: {done.stderr.strip()[-400:]}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gisel", default=os.path.join(HERE, "..", "target", "release", "gisel"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "conformance"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sweep = os.path.join(args.corpus, "sweep")
    if not os.path.isdir(sweep):
        print(f"mutate_widths: no corpus at {sweep}; skipped")
        return 0
    with open(os.path.join(sweep, "MANIFEST.tsv")) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if not r["file"].startswith("failures/")]
    rng = random.Random(args.seed)
    runs, failures = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            source = open(os.path.join(sweep, row["target_dir"], row["file"])).read()
            for old, new in rng.sample(CHANGES, 3):
                changed = re.sub(rf"\b{old}\b", new, source)
                if changed == source:
                    continue
                path = os.path.join(tmp, f"{row['target_dir']}-{old}-{new}-{os.path.basename(row['file'])}")
                with open(path, "w") as out:
                    out.write(changed)
                runs += 1
                problem = run(args.gisel, row, path)
                if problem:
                    failures.append(f"{row['target_dir']}/{row['file']} with {old} -> {new}: {problem}")
    print(f"mutate_widths: {runs} runs, {len(failures)} crashed")
    for failure in failures:
        print(f"mutate_widths: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
