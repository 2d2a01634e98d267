#!/usr/bin/env python3
"""Compile databases of HIP code for docs/real-code.md.

usage: hip-compdb.py CHECKOUT OUTDIR [ARCH]
       hip-compdb.py ggml GGML_CHECKOUT OUTDIR --hipblas SRC --hipblas-common SRC
                     [--hip SRC --clr SRC] [--arch gfx90a] [--wave64]

First form: ROCm/rocm-examples. Every .hip file of HIP-Basic/, Applications/ and
Tutorials/, compiled as the examples' CMake files do: hipcc -std=c++17 -I Common -O3
--offload-arch=ARCH (default gfx90a); the reduction tutorial with -std=c++20, its include/
and the tool's own directory.

Second form: ggml's CUDA backend built as HIP, the commands ggml's src/ggml-hip/CMakeLists.txt
gives with -DGGML_HIP=ON and its defaults (CMake's HIP language: clang++ -x hip), for the
files it compiles: src/ggml-cuda/*.cu, template-instances/fattn-tile*, fattn-mma*, mmq*,
mmf* and the four fattn-vec instances of GGML_CUDA_FA_ALL_QUANTS=OFF.

ggml's vendors/hip.h includes <hipblas/hipblas.h>, which Debian 12 does not package, and
HIP headers of ROCm 6.1 or newer (hip/hip_bf16.h; its CMake stops below 6.1). Each SRC is
a checkout or a bare git directory (git archive HEAD, no network) of the public ROCm
repository: --hipblas ROCm/hipBLAS, --hipblas-common ROCm/hipBLAS-common, and with --hip
and --clr (ROCm/HIP and ROCm/clr) the HIP headers of that release instead of the installed
ones. OUTDIR/rocm/include is laid out as a ROCm installation would install them; the
headers that those projects' CMake generates at build time (hipblas-export.h,
hipblas-version.h, hip/hip_version.h, share/hip/version) are written here as small files with the values
their CMake would put in. OUTDIR/rocm/SOURCES.txt names the commit of each source.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import io


def rocm_examples(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    root, out = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    arch = argv[2] if len(argv) > 2 else "gfx90a"
    files = sorted(f for d in ("HIP-Basic", "Applications", "Tutorials")
                   for f in glob.glob(os.path.join(root, d, "**", "*.hip"), recursive=True))
    if not files:
        sys.exit("no .hip files under %s (a rocm-examples checkout?)" % root)
    db = []
    for f in files:
        args = ["hipcc", "-std=c++17", "-I", os.path.join(root, "Common")]
        if "/Tutorials/reduction/" in f:
            args[1] = "-std=c++20"
            args += ["-I", os.path.join(root, "Tutorials", "reduction", "include"),
                     "-I", os.path.dirname(f)]
        args += ["-O3", "--offload-arch=" + arch, "-c", f, "-o", os.path.join(out, "x.o")]
        db.append({"directory": os.path.dirname(f), "file": f, "arguments": args})
    return out, db


def copy_tree(src, sub, dest):
    """Copies SRC/SUB (a checkout, or HEAD of a bare git directory) into DEST; returns the
    commit (or "checkout")."""
    os.makedirs(dest, exist_ok=True)
    if os.path.isdir(os.path.join(src, "objects")) and os.path.isfile(os.path.join(src, "HEAD")):
        commit = subprocess.run(["git", "--git-dir", src, "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        tar = subprocess.run(["git", "--git-dir", src, "archive", "HEAD", sub], check=True,
                             capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            for m in t.getmembers():
                if not m.isfile():
                    continue
                rel = os.path.relpath(m.name, sub)
                path = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(t.extractfile(m).read())
        return commit
    d = os.path.join(src, sub)
    if not os.path.isdir(d):
        sys.exit("%s has no %s (the wrong repository?)" % (src, sub))
    shutil.copytree(d, dest, dirs_exist_ok=True)
    return "checkout " + os.path.abspath(src)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def repo_file(src, name):
    """One file of a checkout or of HEAD of a bare git directory."""
    if os.path.isdir(os.path.join(src, "objects")):
        return subprocess.run(["git", "--git-dir", src, "show", "HEAD:" + name], check=True,
                              capture_output=True, text=True).stdout
    with open(os.path.join(src, name)) as fh:
        return fh.read()


def rocm_include(out, a):
    rocm = os.path.join(out, "rocm")
    inc = os.path.join(rocm, "include")
    shutil.rmtree(rocm, ignore_errors=True)
    sources = []
    c = copy_tree(a.hipblas, "library/include", os.path.join(inc, "hipblas"))
    sources.append("ROCm/hipBLAS %s library/include -> include/hipblas" % c)
    m = re.search(r'VERSION_STRING\s+"(\d+)\.(\d+)\.(\d+)"', repo_file(a.hipblas, "CMakeLists.txt"))
    major, minor, patch = m.groups() if m else ("0", "0", "0")
    # What hipBLAS's CMake generates: generate_export_header() and hipblas-version.h.in.
    write(os.path.join(inc, "hipblas", "hipblas-export.h"),
          "/* Written by bench/realcode/hip-compdb.py in place of CMake's export header. */\n"
          "#pragma once\n#define HIPBLAS_EXPORT __attribute__((visibility(\"default\")))\n"
          "#define HIPBLAS_NO_EXPORT __attribute__((visibility(\"hidden\")))\n"
          "#define HIPBLAS_DEPRECATED __attribute__((__deprecated__))\n"
          "#define HIPBLAS_DEPRECATED_EXPORT HIPBLAS_EXPORT HIPBLAS_DEPRECATED\n")
    write(os.path.join(inc, "hipblas", "hipblas-version.h"),
          "/* Written by bench/realcode/hip-compdb.py: hipBLAS %s.%s.%s (CMakeLists.txt). */\n"
          "#pragma once\n#define hipblasVersionMajor %s\n#define hipblaseVersionMinor %s\n"
          "#define hipblasVersionMinor %s\n#define hipblasVersionPatch %s\n"
          "#define hipblasVersionTweak 0\n" % (major, minor, patch, major, minor, minor, patch))
    c = copy_tree(a.hipblas_common, "library/include", os.path.join(inc, "hipblas-common"))
    sources.append("ROCm/hipBLAS-common %s library/include -> include/hipblas-common" % c)
    if a.hip:
        c = copy_tree(a.hip, "include/hip", os.path.join(inc, "hip"))
        sources.append("ROCm/HIP %s include/hip -> include/hip" % c)
        c = copy_tree(a.clr, "hipamd/include/hip", os.path.join(inc, "hip"))
        sources.append("ROCm/clr %s hipamd/include/hip -> include/hip" % c)
        v = dict(re.findall(r"#(HIP_VERSION_\w+)\s*\n\s*(\d+)", repo_file(a.hip, "VERSION")))
        if len(v) < 3:
            sys.exit("%s: no HIP_VERSION_MAJOR/MINOR/PATCH in VERSION" % a.hip)
        # What clr's hipamd/CMakeLists.txt writes at build time.
        write(os.path.join(inc, "hip", "hip_version.h"),
              "/* Written by bench/realcode/hip-compdb.py from ROCm/HIP's VERSION. */\n"
              "#ifndef HIP_VERSION_H\n#define HIP_VERSION_H\n"
              "#define HIP_VERSION_MAJOR %s\n#define HIP_VERSION_MINOR %s\n"
              "#define HIP_VERSION_PATCH %s\n#define HIP_VERSION_GITHASH \"\"\n"
              "#define HIP_VERSION_BUILD_ID 0\n#define HIP_VERSION_BUILD_NAME \"\"\n"
              "#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 "
              "+ HIP_VERSION_PATCH)\n#define __HIP_HAS_GET_PCH 0\n#endif\n"
              % (v["HIP_VERSION_MAJOR"], v["HIP_VERSION_MINOR"], v["HIP_VERSION_PATCH"]))
        # clang takes a --hip-path as a HIP installation only with this file (clr's CMake
        # writes it as share/hip/version).
        write(os.path.join(rocm, "share", "hip", "version"),
              "# Written by bench/realcode/hip-compdb.py from ROCm/HIP's VERSION\n"
              "HIP_VERSION_MAJOR=%s\nHIP_VERSION_MINOR=%s\nHIP_VERSION_PATCH=%s\n"
              % (v["HIP_VERSION_MAJOR"], v["HIP_VERSION_MINOR"], v["HIP_VERSION_PATCH"]))
        sources.append("include/hip/hip_version.h, share/hip/version written for HIP %s.%s.%s" % (
            v["HIP_VERSION_MAJOR"], v["HIP_VERSION_MINOR"], v["HIP_VERSION_PATCH"]))
    else:
        sources.append("HIP headers: the installed ROCm's")
    sources.append("hipblas-export.h, hipblas-version.h written for hipBLAS %s.%s.%s"
                   % (major, minor, patch))
    write(os.path.join(rocm, "SOURCES.txt"), "\n".join(sources) + "\n")
    return rocm, sources


def ggml(argv):
    import argparse
    p = argparse.ArgumentParser(prog="hip-compdb.py ggml")
    p.add_argument("checkout")
    p.add_argument("outdir")
    p.add_argument("--hipblas", required=True, help="ROCm/hipBLAS checkout or bare git dir")
    p.add_argument("--hipblas-common", required=True, help="ROCm/hipBLAS-common")
    p.add_argument("--hip", help="ROCm/HIP (HIP headers of that release; needs --clr)")
    p.add_argument("--clr", help="ROCm/clr (hipamd/include/hip/amd_detail)")
    p.add_argument("--arch", default="gfx90a")
    p.add_argument("--wave64", action="store_true", help="-mwavefrontsize64 (RDNA)")
    a = p.parse_args(argv)
    if bool(a.hip) != bool(a.clr):
        p.error("--hip and --clr go together")
    src, out = os.path.abspath(a.checkout), os.path.abspath(a.outdir)
    cuda = os.path.join(src, "src", "ggml-cuda")
    if not os.path.isfile(os.path.join(cuda, "vendors", "hip.h")):
        sys.exit("%s has no src/ggml-cuda/vendors/hip.h (a ggml checkout?)" % src)
    rocm, sources = rocm_include(out, a)
    ti = os.path.join(cuda, "template-instances")
    files = sorted(glob.glob(os.path.join(cuda, "*.cu")))
    for fam in ("fattn-tile*", "fattn-mma*", "mmq*", "mmf*"):
        files += sorted(glob.glob(os.path.join(ti, fam + ".cu")))
    files += [f for f in (os.path.join(ti, "fattn-vec-instance-%s.cu" % q)
                          for q in ("f16-f16", "q4_0-q4_0", "q8_0-q8_0", "bf16-bf16"))
              if os.path.isfile(f)]
    # src/CMakeLists.txt (ggml_add_backend_library, _GNU_SOURCE, _XOPEN_SOURCE=600,
    # GGML_SCHED_MAX_COPIES=4), src/ggml-hip/CMakeLists.txt with its defaults: GGML_USE_HIP,
    # GGML_HIP_GRAPHS=ON, GGML_HIP_NO_VMM=ON, GGML_HIP_MMQ_MFMA=ON (no GGML_HIP_NO_MMQ_MFMA),
    # GGML_CUDA_FA=ON (no GGML_CUDA_NO_FA), GGML_HIP_RCCL=OFF, GGML_HIP_ROCWMMA_FATTN=OFF.
    defs = ["-DGGML_BACKEND_BUILD", "-DGGML_BACKEND_SHARED", "-DGGML_HIP_GRAPHS",
            "-DGGML_HIP_NO_VMM", "-DGGML_SCHED_MAX_COPIES=4", "-DGGML_SHARED", "-DGGML_USE_HIP",
            "-D_GNU_SOURCE", "-D_XOPEN_SOURCE=600", "-Dggml_hip_EXPORTS"]
    rocm_flags = ["-isystem", os.path.join(rocm, "include")]
    if a.hip:
        # clang's own HIP include path and wrapper then take the fetched headers.
        rocm_flags = ["--hip-path=" + rocm] + rocm_flags
    db = []
    build = os.path.join(out, "build")
    os.makedirs(build, exist_ok=True)
    for f in files:
        args = (["clang++"] + defs + ["-I" + os.path.join(src, "src"),
                                      "-I" + os.path.join(src, "include")] + rocm_flags +
                ["-O3", "-DNDEBUG", "-std=gnu++17", "--offload-arch=" + a.arch] +
                (["-mwavefrontsize64"] if a.wave64 else []) +
                ["-fPIC", "-x", "hip", "-c", f, "-o",
                 os.path.join(build, os.path.relpath(f, src) + ".o")])
        db.append({"directory": build, "file": f, "arguments": args})
    for s in sources:
        print(s)
    return out, db


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "ggml":
        out, db = ggml(sys.argv[2:])
    else:
        out, db = rocm_examples(sys.argv[1:])
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "compile_commands.json")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(db, fh, indent=1)
    os.replace(tmp, path)
    print("%d commands in %s" % (len(db), path))


if __name__ == "__main__":
    main()
