#!/usr/bin/env python3
"""Writes OUTDIR/compile_commands.json for ROCm/rocm-examples' HIP examples (docs/real-code.md).

usage: hip-compdb.py CHECKOUT OUTDIR [ARCH]

Every .hip file of HIP-Basic/, Applications/ and Tutorials/, compiled as the examples'
CMake files do: hipcc -std=c++17 -I Common -O3 --offload-arch=ARCH (default gfx90a); the
reduction tutorial with -std=c++20, its include/ and the tool's own directory.
"""
import glob
import json
import os
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    arch = sys.argv[3] if len(sys.argv) > 3 else "gfx90a"
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
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w") as fh:
        json.dump(db, fh, indent=1)
    print("%d commands in %s" % (len(db), os.path.join(out, "compile_commands.json")))


if __name__ == "__main__":
    main()
