#!/usr/bin/env python3
"""Legalizes every function of the sweep corpus with
`gisel llc --verify-semantics` and checks that each one gisel legalizes
still means what its input meant: the interpreter runs both on the same
random inputs.

    python3 tools/verify_semantics.py [--gisel target/release/gisel]
                                      [--corpus ../shared/conformance] [--jobs 2]

A function whose meaning changes fails the check. The corpus's expected
failures (functions llc 22 cannot legalize) are run too: where gisel also
refuses, nothing is checked; where it legalizes one (docs/src/llvm.md,
"Where llc 22 is wrong"), the result must agree like any other. A function
the interpreter cannot run is counted as unchecked. Configurations of
targets gisel does not have yet (X86, ARM, Mips) are left out and counted.
Without the corpus the check is skipped with a message, as on a user's
clone.
"""
import argparse
import concurrent.futures
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Architectures (the triple's first component) gisel has targets for.
SUPPORTED = ("aarch64", "arm64", "riscv32", "riscv64")


def check_file(gisel, sweep, row):
    cmd = [gisel, "llc", f"-mtriple={row['mtriple']}"]
    if row["mattr"]:
        cmd.append(f"-mattr={row['mattr']}")
    cmd += row["other_flags"].split()
    cmd += ["-run-pass=legalizer", "--verify-semantics", os.path.join(sweep, row["target_dir"], row["file"])]
    cmd += ["-o", os.devnull]
    done = subprocess.run(cmd, capture_output=True, text=True)
    llc_failed = row["llc_exit_code"] != "0"
    if llc_failed and done.returncode != 0 and "unable to legalize" in done.stderr:
        return row["target_dir"], llc_failed, 0, ""
    return row["target_dir"], llc_failed, done.returncode, done.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gisel", default=os.path.join(HERE, "..", "target", "release", "gisel"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "conformance"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    sweep = os.path.join(args.corpus, "sweep")
    if not os.path.isdir(sweep):
        print(f"verify_semantics: no corpus at {sweep}; skipped")
        return 0
    with open(os.path.join(sweep, "MANIFEST.tsv")) as f:
        every_row = list(csv.DictReader(f, delimiter="\t"))
    rows = [r for r in every_row if r["mtriple"].split("-")[0].startswith(SUPPORTED)]
    print(f"verify_semantics: {len(every_row) - len(rows)} runs of targets gisel does not have yet left out")
    agree, beyond_llc, unchecked, failures = 0, 0, 0, []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for config, llc_failed, code, stderr in pool.map(lambda r: check_file(args.gisel, sweep, r), rows):
            for line in stderr.splitlines():
                if " agree " in line and line.startswith("semantics of"):
                    agree += 1
                    beyond_llc += llc_failed
                elif line.startswith("semantics of") and "not checked" in line:
                    unchecked += 1
                elif line.strip():
                    failures.append(f"{config}: {line}")
            if code != 0 and not stderr.strip():
                failures.append(f"{config}: exit {code} without a message")
    print(
        f"verify_semantics: {agree} agree ({beyond_llc} of them functions llc 22 cannot legalize), "
        f"{unchecked} unchecked"
    )
    for failure in failures:
        print(f"verify_semantics: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
