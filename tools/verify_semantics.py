#!/usr/bin/env python3
"""Legalizes every function of the sweep corpus, and of the real-code
corpus when given (tools/realcode_corpus.py), with
`gisel llc --verify-semantics` and checks that each one gisel legalizes
still means what its input meant: the interpreter runs both on the same
random inputs.

    python3 tools/verify_semantics.py [--gisel target/release/gisel]
                                      [--corpus ../shared/conformance]
                                      [--realcode target/realcode] [--jobs 2]
                                      [--config x86_64 ...]

A function whose meaning changes fails the check. The corpus's expected
failures (functions llc 22 cannot legalize) are run too: where gisel also
refuses, nothing is checked; where it legalizes one (docs/src/llvm.md,
"Where llc 22 is wrong"), the result must agree like any other. A function
the interpreter cannot run is counted as unchecked. Figures are printed
per configuration, with the reasons functions went unchecked.
Configurations of targets the interpreter does not model are left
out and counted.
Without the corpus the check is skipped with a message, as on a user's
clone.

With --realcode, every function of the real-code corpus (zlib and Lua, for
each target) is checked too, and each group reports how many functions
were checked (agree, differ) and how many were not, with the
interpreter's reasons, and how many gisel gave up on part-way, as llc
does with -global-isel-abort=2. A difference fails the check, like one in the sweep
corpus.
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Architectures (the triple's first component) the interpreter models (prefixes:
# "arm" and "thumb" take in armv7 and thumbv7, "mips" mipsel and mipsisa32*).
SUPPORTED = ("aarch64", "arm64", "riscv32", "riscv64", "x86_64", "i386", "i686", "arm", "thumb", "mips")


def modelled(row):
    """Whether the interpreter models the target of a manifest row (both
    byte orders of Mips: gisel splits big-endian accesses in memory order,
    docs/src/llvm.md)."""
    return row["mtriple"].split("-")[0].startswith(SUPPORTED)


def modelled_rows(every_row, what):
    """The manifest rows `modelled` keeps; says how many `what` were left out."""
    rows = [r for r in every_row if modelled(r)]
    left = len(every_row) - len(rows)
    print(f"verify_semantics: {left} {what} left out (targets the interpreter does not model)")
    return rows


def unchecked_reason(text):
    """An unchecked note's reason without what varies between functions
    (counts, addresses): the kind of reason is what counts."""
    return re.sub(r"0x[0-9a-f]+", "0x…", re.sub(r" \(\d+ skipped\)", "", text))


def print_reasons(reasons):
    """Prints, per group, how many functions went unchecked for each reason."""
    for group in sorted(reasons):
        for reason, n in reasons[group].most_common():
            print(f"verify_semantics:   {group}: {n} unchecked: {reason}")


def verify(gisel, corpus, row):
    """Runs `gisel llc --verify-semantics` on one manifest row of `corpus`."""
    cmd = [gisel, "llc", f"-mtriple={row['mtriple']}"]
    if row["mattr"]:
        cmd.append(f"-mattr={row['mattr']}")
    cmd += row["other_flags"].split()
    cmd += ["-run-pass=legalizer", "--verify-semantics", os.path.join(corpus, row["target_dir"], row["file"])]
    cmd += ["-o", os.devnull]
    return subprocess.run(cmd, capture_output=True, text=True)


def check_file(gisel, sweep, row):
    done = verify(gisel, sweep, row)
    llc_failed = row["llc_exit_code"] != "0"
    if llc_failed and done.returncode != 0 and "unable to legalize" in done.stderr:
        return row["target_dir"], llc_failed, 0, ""
    return row["target_dir"], llc_failed, done.returncode, done.stderr


def realcode_file(gisel, realcode, row):
    """Checks one real-code file; returns its group and, per function,
    ("agree" | "differ" | "unchecked" | "other", detail)."""
    done = verify(gisel, realcode, row)
    group = f"{row['target_dir']}/{row['file'].split('/')[0]}"
    results = []
    for line in done.stderr.splitlines():
        # A function gisel, like llc with -global-isel-abort=2, gives up
        # on: nothing to check (the remark, then its rule trail).
        if line.startswith("  rules:"):
            continue
        if line.startswith("remark: unable to legalize"):
            results.append(("given up", line))
            continue
        unchecked = re.match(r"semantics of '.*' not checked: (.*)", line)
        if unchecked:
            results.append(("unchecked", unchecked_reason(unchecked.group(1))))
        elif line.startswith("semantics of '") and " agree " in line:
            results.append(("agree", line))
        elif "changed its meaning" in line:
            results.append(("differ", line))
        elif line.strip():
            results.append(("other", line))
    if done.returncode != 0 and not done.stderr.strip():
        results.append(("other", f"exit {done.returncode} without a message"))
    return group, results


def check_realcode(gisel, realcode, jobs):
    """Runs the real-code corpus; prints each group's figures and returns
    the failures."""
    with open(os.path.join(realcode, "MANIFEST.tsv")) as f:
        every_row = list(csv.DictReader(f, delimiter="\t"))
    rows = modelled_rows(every_row, "real-code files")
    counts = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for group, results in pool.map(lambda r: realcode_file(gisel, realcode, r), rows):
            for kind, detail in results:
                counts[group][kind] += 1
                if kind == "unchecked":
                    reasons[group][detail] += 1
                elif kind in ("differ", "other"):
                    failures.append(f"{group}: {detail}")
    print(
        f"verify_semantics: real code {'group':<14} {'checked':>7} {'agree':>6} {'differ':>6} {'unchecked':>9} "
        "given up"
    )
    for group in sorted(counts):
        c = counts[group]
        print(
            f"verify_semantics: real code {group:<14} {c['agree'] + c['differ']:>7} {c['agree']:>6} "
            f"{c['differ']:>6} {c['unchecked']:>9} {c['given up']:>8}"
        )
    print_reasons(reasons)
    return failures


def check_sweep(gisel, corpus, jobs, configs=None):
    """Runs the sweep corpus; prints each configuration's figures (agree,
    differ, unchecked, with the interpreter's reasons) and returns the
    failures."""
    sweep = os.path.join(corpus, "sweep")
    if not os.path.isdir(sweep):
        print(f"verify_semantics: no corpus at {sweep}; skipped")
        return []
    with open(os.path.join(sweep, "MANIFEST.tsv")) as f:
        every_row = list(csv.DictReader(f, delimiter="\t"))
    rows = modelled_rows(every_row, "runs")
    if configs:
        rows = [r for r in rows if r["target_dir"] in configs]
    counts = collections.defaultdict(collections.Counter)
    reasons = collections.defaultdict(collections.Counter)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for config, llc_failed, code, stderr in pool.map(lambda r: check_file(gisel, sweep, r), rows):
            for line in stderr.splitlines():
                unchecked = re.match(r"semantics of '.*' not checked: (.*)", line)
                if " agree " in line and line.startswith("semantics of"):
                    counts[config]["agree"] += 1
                    counts[config]["beyond_llc"] += llc_failed
                elif unchecked:
                    counts[config]["unchecked"] += 1
                    reasons[config][unchecked_reason(unchecked.group(1))] += 1
                elif line.strip():
                    differs = re.match(r"gisel: legalizing '(.*)' changed its meaning", line)
                    counts[config]["differ"] += differs is not None
                    failures.append(f"{config}: {line}")
            if code != 0 and not stderr.strip():
                failures.append(f"{config}: exit {code} without a message")
    print(
        f"verify_semantics: sweep {'configuration':<14} {'agree':>6} {'differ':>6} {'unchecked':>9} beyond llc"
    )
    for config in sorted(counts):
        c = counts[config]
        print(
            f"verify_semantics: sweep {config:<14} {c['agree']:>6} {c['differ']:>6} {c['unchecked']:>9} "
            f"{c['beyond_llc']:>10}"
        )
    print_reasons(reasons)
    total = sum((counts[c] for c in counts), collections.Counter())
    print(
        f"verify_semantics: {total['agree']} agree ({total['beyond_llc']} of them functions llc 22 cannot "
        f"legalize), {total['differ']} differ, {total['unchecked']} unchecked"
    )
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gisel", default=os.path.join(HERE, "..", "target", "release", "gisel"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "conformance"))
    parser.add_argument("--realcode", help="also check this built real-code corpus (tools/realcode_corpus.py)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--config", action="append", help="check only this sweep configuration (repeatable)")
    args = parser.parse_args()
    failures = check_sweep(args.gisel, args.corpus, args.jobs, args.config)
    if args.realcode:
        if os.path.exists(os.path.join(args.realcode, "MANIFEST.tsv")):
            failures += check_realcode(args.gisel, args.realcode, args.jobs)
        else:
            print(f"verify_semantics: real code skipped, {args.realcode} is not built (tools/realcode_corpus.py)")
    for failure in failures:
        print(f"verify_semantics: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
