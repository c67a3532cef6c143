#!/usr/bin/env python3
"""Legalizes every function of the sweep corpus that llc 22 legalizes with
`gisel llc --verify-semantics` and checks that each one still means what
its input meant: the interpreter runs both on the same random inputs.

    python3 tools/verify_semantics.py [--gisel target/release/gisel]
                                      [--corpus ../shared/conformance] [--jobs 2]

A function whose meaning changes fails the check, unless it is one of the
known llc 22 miscompiles that gisel follows on purpose
(tools/llc-miscompiles.tsv, explained in docs/src/llvm.md). A function the
interpreter cannot run is counted as unchecked. Without the corpus the
check is skipped with a message, as on a user's clone.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KNOWN = os.path.join(HERE, "llc-miscompiles.tsv")
CHANGED = re.compile(r"legalizing '([^']+)' changed its meaning")


def known_miscompiles():
    with open(KNOWN) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    return {(config, name) for config, name in rows}


def check_file(gisel, sweep, row):
    cmd = [gisel, "llc", f"-mtriple={row['mtriple']}"]
    if row["mattr"]:
        cmd.append(f"-mattr={row['mattr']}")
    cmd += row["other_flags"].split()
    cmd += ["-run-pass=legalizer", "--verify-semantics", os.path.join(sweep, row["target_dir"], row["file"])]
    cmd += ["-o", os.devnull]
    done = subprocess.run(cmd, capture_output=True, text=True)
    return row["target_dir"], done.returncode, done.stderr


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
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["llc_exit_code"] == "0"]
    known = known_miscompiles()
    agree, unchecked, followed, failures = 0, 0, 0, []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for config, code, stderr in pool.map(lambda r: check_file(args.gisel, sweep, r), rows):
            for line in stderr.splitlines():
                if " agree " in line and line.startswith("semantics of"):
                    agree += 1
                elif line.startswith("semantics of") and "not checked" in line:
                    unchecked += 1
                elif (m := CHANGED.search(line)) and (config, m.group(1)) in known:
                    followed += 1
                elif line.strip():
                    failures.append(f"{config}: {line}")
            if code != 0 and not stderr.strip():
                failures.append(f"{config}: exit {code} without a message")
    print(f"verify_semantics: {agree} agree, {unchecked} unchecked, {followed} known llc miscompiles followed")
    for failure in failures:
        print(f"verify_semantics: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
