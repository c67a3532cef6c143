#!/usr/bin/env python3
"""Builds the real-code corpus: C libraries from crates.io packages compiled
by clang 22 at -O2, turned into generic MIR by llc 22's IRTranslator, and
legalized by llc 22 for the expected outputs, in compare.py's format
(MANIFEST.tsv plus NAME.0.expected.mir beside each input).

    python3 tools/realcode_corpus.py OUT [--libs zlib lua] [--targets aarch64 riscv64 riscv32 x86_64 i686 armv7 mips mipsel]
                                         [--llvm /usr/lib/llvm-22/bin] [--opt 2] [--cflags "-g -march=x86-64-v3"]
                                         [--simd]

--opt 0 builds the unoptimized code AArch64 compiles with GlobalISel by
default: clang and the IRTranslator at -O0, and llc's legalizer at -O0
too (the manifest passes -O0 on), where it CSEs only constants and follows
known bits two levels deep. --cflags adds clang flags to every file, as a
real build's do: -g for debug locations, -march/-mcpu for the subtarget
features clang then writes into each function's attributes. --simd builds
for each target's vector unit as real builds enable it (SIMD_FLAGS: SVE2 on
AArch64, V on RISC-V 64, AVX2 on x86-64, NEON on ARMv7), where the
vectorizers make fixed and scalable vectors of every width.

The sources come from the cargo registry: a scratch crate depending on
libz-sys (zlib) and lua-src (Lua 5.4) is fetched with `cargo fetch`. Held-out
libraries, built only when named with --libs, check that what holds on the
default corpus holds beyond it: lua51 and lua53 (Lua 5.1 and 5.3, from the
same lua-src crate), mimalloc (from libmimalloc-sys: atomics, bit scans,
`!range` metadata), zstd, lz4, bzip2 and sqlite (the 257k-line amalgamation,
for scale), treesitter-c (a generated parser of 3.9 MB) and treesitter
(its runtime), brotli, libdeflate, expat, xz (liblzma), webp (libwebp),
pcre2 (PCRE2 with its JIT, from pcre2-sys) and oniguruma (from onig_sys). The
subtarget lives only in the IR function attributes, as clang writes it: the
manifest gives -mtriple and no -mattr. llc runs with -global-isel-abort=2,
so a function llc cannot legalize is kept as far as it got and the rest of
the file goes on.
"""
import argparse
import glob
import os
import resource
import shlex
import shutil
import subprocess
import sys

# A library: its crate (name, version, features), the globs of its C files
# below the crate's folder, the files left out, and extra clang flags
# (paths in them are below the crate's folder).
LIBRARIES = {
    "zlib": (("libz-sys", '"1.1"', ', features = ["static"]'), ["src/zlib/*.c"], [], ["-DHAVE_UNISTD_H"]),
    "lua": (("lua-src", '"547"', ""), ["lua-5.4*/*.c"], ["lua.c", "luac.c"], ["-DLUA_USE_POSIX"]),
    "lua51": (("lua-src", '"547"', ""), ["lua-5.1*/*.c"], ["lua.c", "luac.c", "print.c"], ["-DLUA_USE_POSIX"]),
    "lua53": (("lua-src", '"547"', ""), ["lua-5.3*/*.c"], ["lua.c", "luac.c"], ["-DLUA_USE_POSIX"]),
    # static.c includes every other file; alloc.c, arena.c and page.c include
    # the files left out beside them.
    "mimalloc": (("libmimalloc-sys", '"0.1"', ""), ["c_src/mimalloc/v2/src/*.c", "c_src/mimalloc/v2/src/prim/prim.c"],
                 ["static.c", "alloc-override.c", "free.c", "arena-abandon.c", "page-queue.c"], ["-Ic_src/mimalloc/v2/include"]),
    "zstd": (("zstd-sys", '"2"', ""), [f"zstd/lib/{part}/*.c" for part in ("common", "compress", "decompress")], [],
             ["-Izstd/lib", "-Izstd/lib/common"]),
    "lz4": (("lz4-sys", '"1"', ""), ["liblz4/lib/*.c"], [], []),
    # The library, without its programs and tests.
    "bzip2": (("bzip2-sys", '"0.1"', ""), ["bzip2-*/*.c"],
              ["bzip2.c", "bzip2recover.c", "dlltest.c", "mk251.c", "spewG.c", "unzcrash.c"], []),
    # One file of 257k lines: the amalgamation.
    "sqlite": (("libsqlite3-sys", '"0.30"', ', features = ["bundled"]'), ["sqlite3/sqlite3.c"], [], []),
    # A generated parser of 3.9 MB: tables and one lexer function of
    # thousands of states.
    "treesitter-c": (("tree-sitter-c", '"0.23"', ""), ["src/parser.c"], [], ["-Isrc"]),
    # The tree-sitter runtime, as its amalgamation.
    "treesitter": (("tree-sitter", '"0.25"', ""), ["src/lib.c"], [], ["-Isrc", "-Iinclude"]),
    "brotli": (("brotli-sys", '"0.3"', ""), [f"brotli/{part}/*.c" for part in ("common", "dec", "enc")], [],
               ["-Ibrotli/include"]),
    "libdeflate": (("libdeflate-sys", '"1"', ""), ["libdeflate/lib/*.c", "libdeflate/lib/*/*.c"], [],
                   ["-Ilibdeflate"]),
    # liblzma (xz 5.2), configured by the crate's config.h.
    "xz": (("lzma-sys", '"0.1"', ""), [f"xz-5.2/src/liblzma/{part}/*.c" for part in
                                       ("common", "lzma", "lz", "check", "delta", "rangecoder", "simple")],
           ["crc32_small.c", "crc64_small.c", "crc32_tablegen.c", "crc64_tablegen.c"],
           ["-DHAVE_CONFIG_H", "-I.", "-Ixz-5.2/src/common"] + [f"-Ixz-5.2/src/liblzma/{part}" for part in
           ("api", "common", "lzma", "lz", "check", "delta", "rangecoder", "simple")]),
    # libwebp's codec with its SIMD kernels (each target compiles its own).
    "webp": (("libwebp-sys", '"0.9"', ""), [f"vendor/{part}/*.c" for part in
                                           ("src/dec", "src/dsp", "src/enc", "src/utils", "sharpyuv")], [],
             ["-Ivendor"]),
    # What expat's CMake configuration defines on Linux (the byte order
    # left to the code, which then serves either).
    "expat": (("expat-sys", '"2"', ""), [f"expat/lib/{name}.c" for name in ("xmlparse", "xmlrole", "xmltok")], [],
              ["-Iexpat/lib", "-DXML_POOR_ENTROPY", "-DHAVE_MEMMOVE", "-DXML_NS", "-DXML_DTD",
               "-DXML_CONTEXT_BYTES=1024"]),
    # PCRE2 with its JIT, configured by build.rs's defines and the shipped config.h and pcre2.h (the .generic ones).
    # On x86_64 llc 22 never finishes pcre2_jit_compile.c (a <4 x s8> G_BUILD_VECTOR widened again and again)
    # and grows until memory runs out: stop that llc, and its row records the signal.
    "pcre2": (("pcre2-sys", '"0.2"', ""), ["upstream/src/*.c"],
              ["pcre2_jit_match.c", "pcre2_jit_misc.c", "pcre2_ucptables.c"],
              ["-Iupstream/src", "-Iupstream/deps", "-Iupstream/include", "-DPCRE2_CODE_UNIT_WIDTH=8",
               "-DHAVE_STDLIB_H=1", "-DHAVE_MEMMOVE=1", "-DHAVE_CONFIG_H=1", "-DPCRE2_STATIC=1", "-DSTDC_HEADERS=1",
               "-DSUPPORT_PCRE2_8=1", "-DSUPPORT_UNICODE=1", "-DSUPPORT_JIT=1"]),
    # Oniguruma, configured by build.rs's Unix defines and files and the config.h it writes (GENERATED).
    "oniguruma": (("onig_sys", '"69"', ""), [f"oniguruma/src/{name}.c" for name in (
        "regexec", "regerror", "regparse", "regext", "regcomp", "reggnu", "regenc", "regsyntax", "regtrav",
        "regversion", "st", "onig_init", "unicode", "ascii", "utf8", "utf16_be", "utf16_le", "utf32_be",
        "utf32_le", "euc_jp", "sjis", "iso8859_1", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5",
        "iso8859_6", "iso8859_7", "iso8859_8", "iso8859_9", "iso8859_10", "iso8859_11", "iso8859_13",
        "iso8859_14", "iso8859_15", "iso8859_16", "euc_tw", "euc_kr", "big5", "gb18030", "koi8_r", "cp1251",
        "euc_jp_prop", "sjis_prop", "unicode_unfold_key", "unicode_fold1_key", "unicode_fold2_key",
        "unicode_fold3_key")], [],
        ["-Ioniguruma/src", "-DHAVE_UNISTD_H=1", "-DHAVE_SYS_TYPES_H=1", "-DHAVE_SYS_TIME_H=1", "-DHAVE_ALLOCA_H=1"]),
}
# Headers a library's build script writes, by library and name: written into
# OUT/shim/LIBRARY, which goes on that library's include path only.
# Oniguruma's config.h is build.rs's, the sizes of long and pointers left to
# clang so that one file serves every target (build.rs writes 4 or 8).
GENERATED = {
    "oniguruma": {"config.h": "#define HAVE_PROTOTYPES 1\n#define STDC_HEADERS 1\n#define HAVE_STRING_H 1\n"
                              "#define HAVE_STDARG_H 1\n#define HAVE_STDLIB_H 1\n#define HAVE_LIMITS_H 1\n"
                              "#define HAVE_INTTYPES_H 1\n#define SIZEOF_INT 4\n#define SIZEOF_SHORT 2\n"
                              "#define SIZEOF_LONG __SIZEOF_LONG__\n#define SIZEOF_VOIDP __SIZEOF_POINTER__\n"
                              "#define SIZEOF_LONG_LONG 8\n"},
}
CLANG_TARGET = {
    "aarch64": ["--target=aarch64-linux-gnu"],
    "riscv64": ["--target=riscv64-linux-gnu", "-march=rv64gc"],
    "riscv32": ["--target=riscv32-linux-gnu", "-march=rv32gc"],
    "x86_64": ["--target=x86_64-linux-gnu"],
    "i686": ["--target=i686-linux-gnu"],
    "armv7": ["--target=armv7-linux-gnueabihf"],
    "mips": ["--target=mips-linux-gnu"],
    "mipsel": ["--target=mipsel-linux-gnu"],
}
# The vector units --simd turns on, per target (a later -march wins over
# CLANG_TARGET's).
SIMD_FLAGS = {
    "aarch64": ["-mcpu=neoverse-v2"],
    "riscv64": ["-march=rv64gcv"],
    "x86_64": ["-march=x86-64-v3"],
    "armv7": ["-mfpu=neon", "-mcpu=cortex-a15"],
}
TRIPLE = {"aarch64": "aarch64-linux-gnu", "riscv64": "riscv64-linux-gnu", "riscv32": "riscv32-linux-gnu",
          "x86_64": "x86_64-linux-gnu", "i686": "i686-linux-gnu", "armv7": "armv7-linux-gnueabihf",
          "mips": "mips-linux-gnu", "mipsel": "mipsel-linux-gnu"}
# The targets built unless --targets says otherwise (those CI's ratchet
# and tools/bench_vs_llc.py read).
DEFAULT_TARGETS = ["aarch64", "riscv64", "riscv32", "x86_64", "i686", "armv7", "mips", "mipsel"]
HEADER = "target_dir\tfile\trun_index\tmtriple\tmattr\tother_flags\tllc_exit_code\tnum_functions\tfilecheck_ok\n"


def fetch_sources(scratch, libs):
    """Fetches the crates of `libs` into the cargo registry; returns the
    registry source folder."""
    os.makedirs(os.path.join(scratch, "src"), exist_ok=True)
    crates = {LIBRARIES[lib][0] for lib in libs}
    deps = "".join(f"{name} = {{ version = {version}{features} }}\n" for name, version, features in sorted(crates))
    with open(os.path.join(scratch, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "realcode-sources"\nversion = "0.0.0"\nedition = "2021"\n\n'
                f"[dependencies]\n{deps}\n[workspace]\n")
    with open(os.path.join(scratch, "src", "lib.rs"), "w") as f:
        f.write("")
    subprocess.run(["cargo", "fetch", "--quiet"], cwd=scratch, check=True)
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    registries = sorted(glob.glob(os.path.join(home, "registry", "src", "*")))
    if not registries:
        sys.exit("realcode: no cargo registry sources after cargo fetch")
    return registries


def crate_folder(registries, lib):
    """The newest folder of `lib`'s crate in the registry."""
    name = LIBRARIES[lib][0][0]
    for registry in registries:
        found = sorted(glob.glob(os.path.join(registry, f"{name}-[0-9]*")))
        if found:
            return found[-1]
    sys.exit(f"realcode: no sources of {lib} in the cargo registry")


def sources(folder, lib):
    """The C files of `lib` in its crate's `folder`."""
    _, patterns, left_out, _ = LIBRARIES[lib]
    found = sorted(f for pattern in patterns for f in glob.glob(os.path.join(folder, pattern))
                   if os.path.basename(f) not in left_out)
    if not found:
        sys.exit(f"realcode: no sources of {lib} in {folder}")
    return found


def clang_flags(folder, lib):
    """`lib`'s extra clang flags, with include paths made absolute."""
    return [f"-I{os.path.join(folder, flag[2:])}" if flag.startswith("-I") else flag for flag in LIBRARIES[lib][3]]


def generated_headers(shim, lib):
    """Writes `lib`'s GENERATED headers into shim/LIB; returns the -I for
    that folder (none when the library has none)."""
    if lib not in GENERATED:
        return []
    folder = os.path.join(shim, lib)
    os.makedirs(folder, exist_ok=True)
    for name, text in GENERATED[lib].items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    return [f"-I{folder}"]


def build(args):
    llvm = args.llvm
    for tool in ("clang", "llc"):
        if not os.path.exists(os.path.join(llvm, tool)):
            sys.exit(f"realcode: {llvm}/{tool} not found (apt-get install llvm-22 clang-22)")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    registries = fetch_sources(os.path.join(out, "scratch"), args.libs)
    # clang on a non-x86 target looks for a gnu/stubs-32.h (Mips:
    # gnu/stubs-o32_hard.h) the host lacks.
    shim = os.path.join(out, "shim")
    os.makedirs(os.path.join(shim, "gnu"), exist_ok=True)
    for stub in ("stubs-32.h", "stubs-o32_hard.h"):
        open(os.path.join(shim, "gnu", stub), "a").close()
    # The host's pthread.h marks cleanup functions regparm, which only x86
    # accepts (mimalloc includes it).
    os.makedirs(os.path.join(shim, "bits"), exist_ok=True)
    with open(os.path.join(shim, "bits", "pthreadtypes-arch.h"), "w") as f:
        f.write("#include_next <bits/pthreadtypes-arch.h>\n#if !defined(__i386__) && !defined(__x86_64__)\n"
                "#undef __cleanup_fct_attribute\n#define __cleanup_fct_attribute\n#endif\n")
    includes = [f"-I{shim}", "-I/usr/include/x86_64-linux-gnu"]
    rows = []
    for lib in args.libs:
        for target in args.targets:
            folder = os.path.join(out, lib, target)
            os.makedirs(folder, exist_ok=True)
            crate = crate_folder(registries, lib)
            flags = includes + generated_headers(shim, lib) + clang_flags(crate, lib) + shlex.split(args.cflags)
            if args.simd:
                flags += SIMD_FLAGS.get(target, [])
            for source in sources(crate, lib):
                name = os.path.splitext(os.path.basename(source))[0]
                rows.extend(build_one(llvm, lib, target, source, os.path.join(folder, name), flags, args.opt))
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as f:
        f.write(HEADER)
        f.writelines(rows)
    print(f"realcode: {len(rows)} files in {out}")


# llc 22 never finishes some files (the x86_64 `<4 x i8>` constant store of
# docs/src/llvm.md widens its G_BUILD_VECTOR until memory runs out: 17 GB
# in five minutes on pcre2_jit_compile.c), so each legalizer run is bounded:
# past the memory limit llc stops with `LLVM ERROR: out of memory`, past the
# time limit it is stopped and its file recorded with exit code 124, as
# `timeout` reports it. Either way the file keeps its manifest row.
LLC_SECONDS = 600
LLC_MEMORY = 6 << 30


def bounded_memory():
    resource.setrlimit(resource.RLIMIT_AS, (LLC_MEMORY, LLC_MEMORY))


def build_one(llvm, lib, target, source, stem, flags, opt):
    """Compiles one C file at optimization level `opt` (clang's and llc's);
    returns its manifest row (none when clang or the IRTranslator fail)."""
    ll, mir = stem + ".ll", stem + ".mir"
    level = f"-O{opt}"
    clang = [os.path.join(llvm, "clang"), *CLANG_TARGET[target], level, "-S", "-emit-llvm", *flags,
             "-w", source, "-o", ll]
    if subprocess.run(clang, capture_output=True).returncode != 0:
        print(f"realcode: skipped {lib}/{target}/{os.path.basename(source)} (clang failed)")
        return []
    translate = [os.path.join(llvm, "llc"), level, "-global-isel", "-global-isel-abort=2",
                 "-stop-after=irtranslator", ll, "-o", mir]
    translated = subprocess.run(translate, capture_output=True).returncode == 0
    os.remove(ll)
    if not translated:
        print(f"realcode: skipped {lib}/{target}/{os.path.basename(source)} (IRTranslator failed)")
        return []
    expected = stem + ".0.expected.mir"
    # llc's own default is -O2; -O0 changes what the legalizer does (no CSE
    # beyond constants, known bits two levels deep), so it is passed on.
    llc_flags = ([level] if opt == 0 else []) + ["-global-isel-abort=2"]
    legalize = [os.path.join(llvm, "llc"), f"-mtriple={TRIPLE[target]}", *llc_flags,
                "-run-pass=legalizer", mir, "-o", expected]
    try:
        done = subprocess.run(legalize, capture_output=True, text=True, timeout=LLC_SECONDS, preexec_fn=bounded_memory)
    except subprocess.TimeoutExpired as timeout:
        stderr = timeout.stderr.decode(errors="replace") if isinstance(timeout.stderr, bytes) else timeout.stderr or ""
        # What a stopped llc left written is no expected output.
        if os.path.exists(expected):
            os.remove(expected)
        done = subprocess.CompletedProcess(legalize, 124, "", stderr + f"realcode: llc stopped after {LLC_SECONDS} s\n")
    if done.stderr:
        with open(stem + ".0.expected.stderr", "w") as f:
            f.write(done.stderr)
    functions = 0
    if os.path.exists(expected):
        with open(expected) as f:
            functions = sum(1 for line in f if line.startswith("name:"))
    relative = f"{target}/{os.path.basename(mir)}"
    return [f"{lib}\t{relative}\t0\t{TRIPLE[target]}\t\t{' '.join(llc_flags)}\t{done.returncode}\t{functions}\tna\n"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--libs", nargs="+", default=["zlib", "lua"], choices=sorted(LIBRARIES))
    ap.add_argument("--targets", nargs="+", default=DEFAULT_TARGETS, choices=sorted(TRIPLE))
    ap.add_argument("--llvm", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--opt", type=int, default=2, choices=[0, 1, 2, 3],
                    help="clang's and llc's optimization level (-O0 is where AArch64 uses GlobalISel by default)")
    ap.add_argument("--cflags", default="", help="more clang flags for every file (-g, -march=..., -mcpu=...)")
    ap.add_argument("--simd", action="store_true", help="turn on each target's vector unit (SIMD_FLAGS)")
    args = ap.parse_args()
    if shutil.which("cargo") is None:
        sys.exit("realcode: cargo not found")
    build(args)


if __name__ == "__main__":
    main()
