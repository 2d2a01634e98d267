#!/usr/bin/env python3
# Writes an nvcc compile_commands.json for one public CUDA corpus from a checkout of it.
#
# usage: bench/realcode/compdb.py cuda-samples|ggml|llm.c|rodinia CHECKOUT OUTDIR [--nvcc PATH]
#
# The commands are the ones the corpus's own build gives its .cu files:
#   cuda-samples  CMake's (configured into OUTDIR/cmake, nothing is built), and for the
#                 .cu files CMake leaves out (samples whose dependencies are missing,
#                 NVRTC/driver-API kernels read at run time, files #included by another
#                 .cu, Windows/Tegra-only samples) the command of a file of the same
#                 directory, else the samples' common flags with -I Common and the dir;
#   ggml          CMake's with -DGGML_CUDA=ON -DGGML_NATIVE=OFF, src/ggml-cuda/*.cu
#                 (--instances adds src/ggml-cuda/template-instances/*.cu);
#   llm.c         the Makefiles' nvcc lines with GPU_COMPUTE_CAPABILITY=86: the root
#                 Makefile's for train_gpt2.cu, dev/cuda/Makefile's for dev/cuda/*.cu.
#   rodinia       (yuhc/gpu-rodinia) no build file gives a database: every cuda/**/*.cu
#                 that no other .cu #includes, `nvcc -arch=sm_86 -std=c++17 -I<dir>
#                 -I<parent> -c FILE`, with -I lud/common and leukocyte/meschach_lib, the
#                 two APIs CUDA 12 removed defined to their successors
#                 (-DcudaThreadSynchronize=cudaDeviceSynchronize -DcudaThreadExit=
#                 cudaDeviceReset), and --common DIR (cuda-samples' Common/, which cfd
#                 includes) when given.
# Nothing from the checkout is copied; the database names its files where they are.
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys


def cmake_db(src, build, nvcc, extra):
    """Configures SRC into BUILD with compile commands exported; returns the entries."""
    args = ["cmake", "-S", src, "-B", build, "-G", "Ninja",
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + nvcc] + extra
    # A sample whose optional dependency is missing makes the generate step complain;
    # the database is written all the same.
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    path = os.path.join(build, "compile_commands.json")
    if not os.path.exists(path):
        sys.exit("compdb.py: cmake wrote no %s (see cmake -S %s -B %s)" % (path, src, build))
    with open(path) as f:
        return json.load(f)


def swap_file(entry, new_file):
    """ENTRY's command for NEW_FILE (input and object renamed)."""
    args = shlex.split(entry["command"])
    out = []
    for a in args:
        if os.path.realpath(os.path.join(entry["directory"], a)) == os.path.realpath(entry["file"]):
            out.append(new_file)
        else:
            out.append(a)
    return {"directory": entry["directory"], "file": new_file, "command": shlex.join(out)}


def cuda_samples(src, out, nvcc):
    entries = cmake_db(src, os.path.join(out, "cmake"), nvcc, [])
    by_file = {os.path.realpath(e["file"]): e for e in entries if e["file"].endswith(".cu")}
    by_dir = {}
    for f, e in sorted(by_file.items()):
        by_dir.setdefault(os.path.dirname(f), e)
    common = os.path.join(src, "Common")
    archs = [75, 80, 86, 87, 89, 90, 100, 110, 120]
    db = []
    for f in sorted(glob.glob(os.path.join(src, "Samples", "**", "*.cu"), recursive=True)):
        real = os.path.realpath(f)
        if real in by_file:
            db.append(by_file[real])
        elif os.path.dirname(real) in by_dir:
            db.append(swap_file(by_dir[os.path.dirname(real)], real))
        else:
            # The flags every sample's CMakeLists.txt sets (CMAKE_CUDA_FLAGS, --extended-lambda,
            # CUDA_SEPARABLE_COMPILATION, CMAKE_CUDA_ARCHITECTURES, include_directories(Common)).
            cmd = [nvcc, "-forward-unknown-to-host-compiler", "-I" + common,
                   "-I" + os.path.dirname(real), "-Wno-deprecated-gpu-targets", "-lineinfo",
                   "--extended-lambda"]
            cmd += ["--generate-code=arch=compute_%d,code=[compute_%d,sm_%d]" % (a, a, a)
                    for a in archs]
            cmd += ["-Xcompiler=-fPIE", "-std=c++17", "-x", "cu", "-rdc=true", "-c", real,
                    "-o", real + ".o"]
            db.append({"directory": out, "file": real, "command": shlex.join(cmd)})
    return db


def ggml(src, out, nvcc, instances):
    entries = cmake_db(src, os.path.join(out, "cmake"), nvcc,
                       ["-DGGML_CUDA=ON", "-DGGML_NATIVE=OFF", "-DCMAKE_BUILD_TYPE=Release"])
    cuda_dir = os.path.realpath(os.path.join(src, "src", "ggml-cuda"))
    keep = []
    for e in entries:
        d = os.path.dirname(os.path.realpath(e["file"]))
        if e["file"].endswith(".cu") and (d == cuda_dir or (
                instances and d == os.path.join(cuda_dir, "template-instances"))):
            keep.append(e)
    return sorted(keep, key=lambda e: e["file"])


def llmc(src, out, nvcc):
    cc = "86"
    gencode = ["--generate-code", "arch=compute_%s,code=[compute_%s,sm_%s]" % (cc, cc, cc)]
    db = []
    # Makefile: NVCC_FLAGS (with -DMULTI_GPU where dpkg lists nccl, left out here),
    # train_gpt2cu: $(NVCC) $(NVCC_FLAGS) $(PFLAGS) $^ $(NVCC_LDFLAGS) ...
    root = [nvcc, "--threads=0", "-t=0", "--use_fast_math", "-std=c++17", "-O3"] + gencode
    for name in ["train_gpt2.cu"]:
        f = os.path.join(src, name)
        db.append({"directory": src, "file": f, "command": shlex.join(
            root + [f, "-lcublas", "-lcublasLt", "-o", os.path.join(out, name + ".bin")])})
    # dev/cuda/Makefile: $(NVCC) $(CFLAGS) $(NVCCFLAGS) $< -o $@, with -Xcompiler -fopenmp
    # for the matmul files and nccl_all_reduce's own line (MPI include path).
    dev = os.path.join(src, "dev", "cuda")
    for f in sorted(glob.glob(os.path.join(dev, "*.cu"))):
        base = os.path.basename(f)[:-3]
        if base == "nccl_all_reduce":
            cmd = [nvcc, "-lmpi", "-lnccl", "-lcublas", "-lcublasLt", "-std=c++17",
                   "-I/usr/lib/x86_64-linux-gnu/openmpi/include",
                   "-L/usr/lib/x86_64-linux-gnu/openmpi/lib/", f]
        else:
            cmd = [nvcc, "-O3", "--use_fast_math"] + gencode + [
                "-lcublas", "-lcublasLt", "-std=c++17"]
            if base in ("matmul_forward", "matmul_backward"):
                cmd += ["-Xcompiler", "-fopenmp"]
            cmd.append(f)
        cmd += ["-o", os.path.join(out, base)]
        db.append({"directory": dev, "file": f, "command": shlex.join(cmd)})
    return db


def rodinia(src, out, nvcc, common):
    root = os.path.join(src, "cuda")
    files = sorted(glob.glob(os.path.join(root, "**", "*.cu"), recursive=True))
    included = set()
    for f in files:
        with open(f, errors="replace") as fh:
            for line in fh:
                m = re.match(r'\s*#\s*include\s*"([^"]+\.cu)"', line)
                if m:
                    included.add(os.path.realpath(os.path.join(os.path.dirname(f), m.group(1))))
    extra = ["-I" + os.path.join(root, "lud", "common"),
             "-I" + os.path.join(root, "leukocyte", "meschach_lib"),
             "-DcudaThreadSynchronize=cudaDeviceSynchronize", "-DcudaThreadExit=cudaDeviceReset"]
    if common:
        extra.append("-I" + os.path.realpath(common))
    db = []
    for f in files:
        if os.path.realpath(f) in included:
            continue
        d = os.path.dirname(f)
        cmd = [nvcc, "-arch=sm_86", "-std=c++17", "-I" + d, "-I" + os.path.dirname(d)] + extra + [
            "-c", f, "-o", os.path.join(out, os.path.relpath(f, root).replace("/", "_") + ".o")]
        db.append({"directory": d, "file": f, "command": shlex.join(cmd)})
    return db


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("corpus", choices=["cuda-samples", "ggml", "llm.c", "rodinia"])
    p.add_argument("checkout")
    p.add_argument("outdir")
    p.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    p.add_argument("--common", help="rodinia: cuda-samples' Common/ directory (for cfd)")
    p.add_argument("--instances", action="store_true",
                   help="ggml: also src/ggml-cuda/template-instances/*.cu")
    a = p.parse_args()
    src = os.path.realpath(a.checkout)
    out = os.path.realpath(a.outdir)
    os.makedirs(out, exist_ok=True)
    if a.corpus == "cuda-samples":
        db = cuda_samples(src, out, a.nvcc)
    elif a.corpus == "ggml":
        db = ggml(src, out, a.nvcc, a.instances)
    elif a.corpus == "rodinia":
        db = rodinia(src, out, a.nvcc, a.common)
    else:
        db = llmc(src, out, a.nvcc)
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    print("%s: %d files -> %s" % (a.corpus, len(db), os.path.join(out, "compile_commands.json")))


if __name__ == "__main__":
    main()
