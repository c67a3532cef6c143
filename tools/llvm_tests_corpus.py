#!/usr/bin/env python3
"""Builds the LLVM-tests corpus: LLVM's own AArch64, RISC-V, Arm, X86 and Mips
GlobalISel legalizer tests (every llvm/test/CodeGen/{AArch64,RISCV,ARM,X86,Mips}/GlobalISel/**.mir
with an `llc ... -run-pass=legalizer` RUN line) of the release the
installed llc 22 was built from, with llc 22's outputs as the expected
results, in compare.py's format (MANIFEST.tsv plus
NAME.<run>.expected.mir beside each input).

    python3 tools/llvm_tests_corpus.py OUT [--llc /usr/lib/llvm-22/bin/llc] [--jobs N]
                                           [--targets aarch64 riscv arm x86 mips]
                                           [--download-timeout SECONDS]

The tests come from the Debian source package of llc's binary package
(llvm-toolchain-22 for llvm-22; package and version from dpkg). Its
upstream tarball (~200 MB) is fetched with apt's own tools through a
private configuration in OUT/apt: deb-src entries for the archives and
suites the system installs from, plus unstable (the system's security
archive does not always serve the tarball; the same upstream version has
the same tarball in every suite). The system's apt configuration is not
touched. The tarball's sha256 is checked against the signed Sources index,
and it is kept in OUT/download for later builds. A run that finds OUT
complete for the same source package, llc and script does nothing.

Files are named as in ../shared/conformance/llvm: aarch64/<path below
AArch64/GlobalISel/>, riscv/<path below RISCV/GlobalISel/legalizer/> (a
file directly in RISCV/GlobalISel/ keeps its bare name), arm/<path below
ARM/GlobalISel/>, x86/<path below X86/GlobalISel/>, mips/<path below
Mips/GlobalISel/legalizer/>. The fifth of
them that the shared corpus holds out (int(sha1("<target>/<file>"), 16)
% 5 == 0) is never written, not even while unpacking. Each distinct llc
argument list among a file's RUN lines is one run (run_index in file
order); llc runs it with -o -, and a run enters MANIFEST.tsv when llc
exits 0 or fails with "unable to legalize". Other failures (a -debug-only
flag a release build lacks, a test that expects llc to crash) are listed
in EXCLUDED.tsv with llc's error. FileCheck is not run (filecheck_ok is
na): the expected outputs are llc's, whatever the test checks.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile

# Where the tests are in the tarball, and the folders their names are
# relative to (the first that contains the file).
TEST_DIRS = {
    "aarch64": ("llvm/test/CodeGen/AArch64/GlobalISel/", ["llvm/test/CodeGen/AArch64/GlobalISel/"]),
    "riscv": ("llvm/test/CodeGen/RISCV/GlobalISel/",
              ["llvm/test/CodeGen/RISCV/GlobalISel/legalizer/", "llvm/test/CodeGen/RISCV/GlobalISel/"]),
    "arm": ("llvm/test/CodeGen/ARM/GlobalISel/", ["llvm/test/CodeGen/ARM/GlobalISel/"]),
    "x86": ("llvm/test/CodeGen/X86/GlobalISel/", ["llvm/test/CodeGen/X86/GlobalISel/"]),
    "mips": ("llvm/test/CodeGen/Mips/GlobalISel/legalizer/", ["llvm/test/CodeGen/Mips/GlobalISel/legalizer/"]),
}
# The targets built unless --targets says otherwise (those the ratchet checks).
DEFAULT_TARGETS = ["aarch64", "riscv", "arm", "x86", "mips"]
HEADER = "target_dir\tfile\trun_index\tmtriple\tmattr\tother_flags\tllc_exit_code\tnum_functions\tfilecheck_ok\n"
APT_HELPER = "/usr/lib/apt/apt-helper"
LLC_TIMEOUT = 120


def fail(message):
    sys.exit(f"llvm-tests: {message}")


def run_bounded(argv, timeout, what):
    """Runs a network command with a time limit; on timeout its whole
    process group (apt's download methods too) is killed. Returns the
    CompletedProcess."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        fail(f"{what} took longer than {timeout:g} s; stopped")
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


# --- Which source package, and the stamp of a finished corpus ------------

def source_package(llc):
    """(source package, version) of the Debian package that installed llc."""
    owner = subprocess.run(["dpkg-query", "-S", os.path.realpath(llc)], capture_output=True, text=True)
    if owner.returncode != 0:
        fail(f"{llc} does not belong to a Debian package (apt-get install llvm-22)")
    binary = owner.stdout.split(":", 1)[0]
    query = ["dpkg-query", "-W", "-f", "${source:Package}\t${source:Version}", binary]
    package, version = subprocess.run(query, capture_output=True, text=True, check=True).stdout.split("\t")
    return package, version


def stamp_text(llc, package, version):
    """What a finished corpus records; a later run with the same text skips."""
    llc_version = subprocess.run([llc, "--version"], capture_output=True, text=True).stdout
    llc_version = next((line.strip() for line in llc_version.splitlines() if "version" in line), "")
    with open(__file__, "rb") as f:
        script = hashlib.sha256(f.read()).hexdigest()
    return f"source\t{package} {version}\nllc\t{llc_version}\nscript\t{script}\n"


# --- The tarball, through a private apt configuration --------------------

def apt_options(apt_dir):
    return [
        "-o", f"Dir::Etc::SourceList={apt_dir}/sources.list",
        "-o", f"Dir::Etc::SourceParts={apt_dir}/sources.list.d",
        "-o", f"Dir::State::Lists={apt_dir}/lists",
        "-o", f"Dir::Cache={apt_dir}/cache",
        "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache=",
        "-o", "APT::Sandbox::User=root",
        "-o", "Acquire::http::Timeout=60", "-o", "Acquire::https::Timeout=60",
        "-o", "Acquire::Retries=2",
    ]


def write_source_list(apt_dir):
    """deb-src entries for the archives and suites of the system's own apt
    sources (those apt knows of even before its first update), plus
    unstable of each archive but the security one."""
    targets = subprocess.run(
        ["apt-get", "indextargets", "--no-release-info", "--format", "$(REPO_URI)\t$(RELEASE)\t$(COMPONENT)",
         "Identifier: Packages"], capture_output=True, text=True, check=True).stdout
    entries = []
    for line in targets.splitlines():
        uri, release, component = line.split("\t")
        entries.append((uri, release, component))
        if not release.endswith("-security"):
            entries.append((uri, "unstable", "main"))
    entries = list(dict.fromkeys(entries))
    if not entries:
        fail("the system's apt configuration has no sources")
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    options = f"[signed-by={keyring}] " if os.path.exists(keyring) else ""
    for folder in ("sources.list.d", "lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(apt_dir, folder), exist_ok=True)
    with open(os.path.join(apt_dir, "sources.list"), "w") as f:
        f.writelines(f"deb-src {options}{uri} {release} {component}\n" for uri, release, component in entries)


def source_stanzas(apt_dir, package):
    """(repository URI, Sources stanza as a dict) for every stanza of
    `package` in the downloaded Sources indexes."""
    indexes = subprocess.run(
        ["apt-get", *apt_options(apt_dir), "indextargets", "--format", "$(REPO_URI)\t$(FILENAME)",
         "Identifier: Sources"], capture_output=True, text=True, check=True).stdout
    found = []
    for line in indexes.splitlines():
        uri, filename = line.split("\t")
        if not os.path.exists(filename):
            continue
        with subprocess.Popen([APT_HELPER, "cat-file", filename], stdout=subprocess.PIPE, text=True) as cat:
            found += [(uri, stanza) for stanza in parse_stanzas(cat.stdout)
                      if stanza.get("Package") == package]
    return found


def parse_stanzas(lines):
    """The stanzas of a Debian control file, read line by line, as dicts
    (continuation lines joined with newlines)."""
    fields, key = {}, None
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if fields:
                yield fields
            fields, key = {}, None
        elif line.startswith((" ", "\t")) and key:
            fields[key] += "\n" + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    if fields:
        yield fields


def upstream_version(version):
    """1:22.1.8-1~deb12u1 -> 22.1.8"""
    return version.split(":", 1)[-1].rsplit("-", 1)[0]


def locate_tarball(apt_dir, package, version, timeout):
    """The upstream tarball's name, sha256 and the URLs that should serve
    it, from the Sources indexes of the private configuration."""
    update = run_bounded(["apt-get", *apt_options(apt_dir), "-q", "update"], timeout,
                         "apt-get update (private source list)")
    stanzas = source_stanzas(apt_dir, package)
    if not stanzas:
        fail(f"apt-get update (private source list {apt_dir}/sources.list) found no {package}; "
             f"its messages:\n{update.stderr.strip() or update.stdout.strip()}")
    wanted = upstream_version(version)
    tarballs = {}
    for uri, fields in stanzas:
        if upstream_version(fields.get("Version", "")) != wanted:
            continue
        for line in fields.get("Checksums-Sha256", "").splitlines():
            parts = line.split()
            if len(parts) == 3 and re.search(r"\.orig\.tar\.\w+$", parts[2]):
                url = f"{uri.rstrip('/')}/{fields['Directory']}/{parts[2]}"
                urls = tarballs.setdefault((parts[2], parts[0]), [])
                # The package's own version first.
                urls.insert(0 if fields["Version"] == version else len(urls), url)
    if not tarballs:
        fail(f"no Sources index of the private apt configuration lists {package} {wanted} "
             f"({os.path.join(apt_dir, 'sources.list')})")
    if len(tarballs) > 1:
        fail(f"the Sources indexes disagree on the {package} {wanted} tarball: {sorted(tarballs)}")
    (name, sha256), urls = tarballs.popitem()
    return name, sha256, list(dict.fromkeys(urls))


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_tarball(out, package, version, timeout):
    """Path of the verified upstream tarball, downloaded unless cached."""
    apt_dir = os.path.join(out, "apt")
    write_source_list(apt_dir)
    name, sha256, urls = locate_tarball(apt_dir, package, version, timeout)
    download = os.path.join(out, "download")
    os.makedirs(download, exist_ok=True)
    path = os.path.join(download, name)
    if os.path.exists(path) and file_sha256(path) == sha256:
        print(f"llvm-tests: {name} already downloaded")
        return path
    partial = path + ".partial"
    errors = []
    for url in urls:
        print(f"llvm-tests: downloading {url}", flush=True)
        got = run_bounded([APT_HELPER, *apt_options(apt_dir), "download-file", url, partial,
                           f"SHA256:{sha256}"], timeout, f"downloading {url}")
        if got.returncode == 0 and file_sha256(partial) == sha256:
            os.replace(partial, path)
            return path
        messages = [line for line in got.stderr.splitlines() if line.startswith("E:")]
        errors.append(messages[0] if messages else f"{url}: exit {got.returncode}")
        if os.path.exists(partial):
            os.remove(partial)
    fail(f"could not download {name} (sha256 {sha256}):\n  " + "\n  ".join(errors))


# --- The tests: RUN lines, unpacking, llc --------------------------------

def run_lines(text):
    """The RUN commands of a test, continuation lines joined."""
    commands, current = [], None
    for line in text.splitlines():
        m = re.match(r"^\s*[#;]+\s*RUN:\s?(.*)$", line)
        if not m:
            if current is not None:
                commands.append(current)
                current = None
            continue
        body = m.group(1).rstrip()
        current = body if current is None else f"{current} {body}"
        if current.endswith("\\"):
            current = current[:-1].rstrip()
        else:
            commands.append(current)
            current = None
    if current:
        commands.append(current)
    return commands


def legalizer_args(command):
    """llc's arguments if `command` is an `[not [--crash]] llc ...
    -run-pass=legalizer` pipeline, else None."""
    try:
        words = shlex.split(command.split("|")[0])
    except ValueError:
        return None
    while words and words[0] in ("not", "--crash"):
        words = words[1:]
    if not words or words[0] != "llc":
        return None
    args = words[1:]
    for i, arg in enumerate(args):
        if re.match(r"^--?run-pass=legalizer$", arg) or (
                arg in ("-run-pass", "--run-pass") and args[i + 1:i + 2] == ["legalizer"]):
            return args
    return None


def split_args(args):
    """(mtriple, mattr, other flags) of a RUN line's llc arguments, without
    the input, the output and redirections."""
    mtriple = mattr = ""
    other = []
    i = 0
    while i < len(args):
        arg, value = args[i], args[i + 1] if i + 1 < len(args) else ""
        if arg in ("-mtriple", "--mtriple"):
            mtriple, i = value, i + 2
        elif arg in ("-mattr", "--mattr"):
            mattr, i = value, i + 2
        elif arg in ("-o", "<") or re.match(r"^\d?>$", arg) or (
                arg in ("-run-pass", "--run-pass") and value == "legalizer"):
            i += 2
        else:
            if arg.startswith(("-mtriple=", "--mtriple=")):
                mtriple = arg.split("=", 1)[1]
            elif arg.startswith(("-mattr=", "--mattr=")):
                mattr = arg.split("=", 1)[1]
            elif not (arg in ("%s", "-run-pass=legalizer", "--run-pass=legalizer")
                      or arg.startswith("-o=") or re.match(r"^\d?>", arg)):
                other.append(arg)
            i += 1
    return mtriple, mattr, other


def held_out(target, name):
    return int(hashlib.sha1(f"{target}/{name}".encode()).hexdigest(), 16) % 5 == 0


def corpus_name(path, targets):
    """(target, name) of a tarball member path without its top folder, or
    None when it is not one of the tests of `targets`."""
    if not path.endswith(".mir"):
        return None
    for target, (top, bases) in TEST_DIRS.items():
        if target in targets and path.startswith(top):
            base = next(b for b in bases if path.startswith(b))
            return target, path[len(base):]
    return None


def unpack_tests(tarball, out, targets):
    """Writes the legalizer tests of `targets` that are not held out to
    OUT/<target>/; returns ([(target, name, text)], number held out)."""
    tests, held = [], 0
    with tarfile.open(tarball, "r|*") as archive:
        for member in archive:
            inner = member.name.split("/", 1)[-1]
            named = corpus_name(inner, targets) if member.isfile() else None
            if not named:
                continue
            data = archive.extractfile(member).read()
            text = data.decode("utf-8", "surrogateescape")
            if not any(legalizer_args(command) for command in run_lines(text)):
                continue
            target, name = named
            if held_out(target, name):
                held += 1
                continue
            path = os.path.join(out, target, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            tests.append((target, name, text))
    return sorted(tests), held


def run_llc(llc, out, test):
    """Runs llc on each distinct RUN line of a test; returns (manifest
    rows, excluded rows)."""
    target, name, text = test
    runs = []
    for command in run_lines(text):
        args = legalizer_args(command)
        if args is not None and args not in runs:
            runs.append(args)
    path = os.path.join(out, target, name)
    stem = path[:-len(".mir")]
    rows, excluded = [], []
    for index, args in enumerate(runs):
        mtriple, mattr, other = split_args(args)
        argv = [llc, *other]
        argv += [f"-mtriple={mtriple}"] if mtriple else []
        argv += [f"-mattr={mattr}"] if mattr else []
        argv += ["-run-pass=legalizer", os.path.basename(path), "-o", "-"]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                                  timeout=LLC_TIMEOUT, cwd=os.path.dirname(path))
            code, stdout, stderr = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired:
            code, stdout, stderr = "timeout", "", f"llc took longer than {LLC_TIMEOUT} s"
        row = [target, name, str(index), mtriple, mattr, shlex.join(other), str(code)]
        if code == 0 or (code != "timeout" and 0 < code < 128 and "unable to legalize" in stderr):
            with open(f"{stem}.{index}.expected.mir", "w") as f:
                f.write(stdout)
            if stderr.strip():
                with open(f"{stem}.{index}.expected.stderr", "w") as f:
                    f.write(stderr)
            functions = len(re.findall(r"^name:\s", stdout, flags=re.M))
            rows.append("\t".join(row + [str(functions), "na"]) + "\n")
        else:
            lines = [line.strip() for line in stderr.splitlines() if line.strip()]
            error = next((line for line in lines if re.search(r"(?i)error|bad machine code|unknown command", line)),
                         lines[0] if lines else "")
            excluded.append("\t".join(row + [error.replace("\t", " ")[:300]]) + "\n")
    return rows, excluded


def build(args):
    llc = args.llc
    if not os.path.exists(llc):
        fail(f"{llc} not found (apt-get install llvm-22)")
    for tool in ("apt-get", "dpkg-query"):
        if shutil.which(tool) is None:
            fail(f"{tool} not found (a Debian system is needed)")
    out = os.path.abspath(args.out)
    package, version = source_package(llc)
    stamp = stamp_text(llc, package, version) + f"targets {' '.join(args.targets)}\n"
    stamp_path = os.path.join(out, "STAMP")
    if os.path.exists(stamp_path):
        with open(stamp_path) as f:
            if f.read() == stamp and os.path.exists(os.path.join(out, "MANIFEST.tsv")):
                print(f"llvm-tests: {out} is up to date ({package} {version})")
                return
    os.makedirs(out, exist_ok=True)
    for stale in ("STAMP", "MANIFEST.tsv", "EXCLUDED.tsv", *TEST_DIRS):
        path = os.path.join(out, stale)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    tarball = fetch_tarball(out, package, version, args.download_timeout)
    tests, held = unpack_tests(tarball, out, args.targets)
    if not tests:
        fail(f"{os.path.basename(tarball)} holds no legalizer tests")
    rows, excluded = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for got, left_out in pool.map(lambda test: run_llc(llc, out, test), tests):
            rows += got
            excluded += left_out
    with open(os.path.join(out, "EXCLUDED.tsv"), "w") as f:
        f.write("target_dir\tfile\trun_index\tmtriple\tmattr\tother_flags\tllc_exit_code\tllc_error\n")
        f.writelines(excluded)
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as f:
        f.write(HEADER)
        f.writelines(rows)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    print(f"llvm-tests: {len(tests)} test files (and {held} held out, not written), {len(rows)} runs in "
          f"{out}/MANIFEST.tsv, {len(excluded)} runs llc 22 cannot do in EXCLUDED.tsv")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--llc", default="/usr/lib/llvm-22/bin/llc")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--targets", nargs="+", choices=sorted(TEST_DIRS), default=DEFAULT_TARGETS,
                    help=f"the targets whose tests are built ({' '.join(DEFAULT_TARGETS)})")
    ap.add_argument("--download-timeout", type=float, default=600,
                    help="seconds allowed for apt-get update and for each download (600)")
    build(ap.parse_args())


if __name__ == "__main__":
    main()
