#!/usr/bin/env python3
"""Records what llc 22 prints for `-run-pass=none` on every input of the
conformance corpus, as SHA-256 digests (core/tests/data/none/digests.tsv),
so that `cargo test` can check gisel's reader and writer against llc
without LLVM installed. Needs llc-22; run from the project root:

    python3 tools/gen_none_digests.py [--llc /usr/lib/llvm-22/bin/llc]
"""
import argparse, csv, hashlib, os, subprocess

ap = argparse.ArgumentParser()
ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
ap.add_argument("--corpus", default="../shared/conformance")
args = ap.parse_args()
rows = []
for corpus in ("llvm", "sweep"):
    with open(os.path.join(args.corpus, corpus, "MANIFEST.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            rel = f"{corpus}/{row['target_dir']}/{row['file']}"
            path = os.path.join(args.corpus, rel)
            cmd = [args.llc, "-run-pass=none", path, "-o", "-"]
            if row["mtriple"]:
                cmd.append("-mtriple=" + row["mtriple"])
            if row["mattr"]:
                cmd.append("-mattr=" + row["mattr"])
            out = subprocess.run(cmd, capture_output=True, check=True).stdout
            # llc prints the path it was given as the module ID; record the
            # output for the path relative to the corpus root.
            out = out.replace(path.encode(), rel.encode())
            rows.append((rel, row["mtriple"], row["mattr"], hashlib.sha256(out).hexdigest()))
rows = sorted(set(rows))
with open("core/tests/data/none/digests.tsv", "w") as f:
    f.write("file\tmtriple\tmattr\tsha256\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
print(len(rows), "digests written")
