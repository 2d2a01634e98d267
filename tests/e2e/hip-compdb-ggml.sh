#!/usr/bin/env bash
# bench/realcode/hip-compdb.py ggml on a small tree shaped like ggml and the ROCm
# repositories (written here): the file list of ggml's HIP CMake, the commands' defines,
# the include tree laid out as ROCm installs it (from a bare git directory and from
# checkouts), the generated headers with the versions read from the sources; then, where
# Debian's ROCm headers and clang 22 are installed, warplint analyses the database.
# usage: hip-compdb-ggml.sh SOURCE_DIR WORK_DIR WARPLINT
set -euo pipefail
src=$1 work=$2 warplint=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p ggml/src/ggml-cuda/vendors ggml/src/ggml-cuda/template-instances ggml/include
cat > ggml/src/ggml-cuda/vendors/hip.h <<'H'
#pragma once
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
H
cat > ggml/src/ggml-cuda/k.cu <<'H'
#include "vendors/hip.h"
#ifndef GGML_USE_HIP
#error not a HIP build
#endif
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
void launch(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
H
for f in mmq-instance-q4_0 mmf-instance-ncols_1 fattn-tile-instance-dkq64-dv64 \
         fattn-mma-f16-instance-a fattn-vec-instance-f16-f16 fattn-vec-instance-q4_1-q4_1; do
  echo '#include "../vendors/hip.h"' > ggml/src/ggml-cuda/template-instances/$f.cu
done

# hipBLAS as a bare git directory (what the fetch tool gives), the others as checkouts.
mkdir -p hipblas-tree/library/include
echo 'set ( VERSION_STRING "2.4.0" )' > hipblas-tree/CMakeLists.txt
cat > hipblas-tree/library/include/hipblas.h <<'H'
#pragma once
#include "hipblas-export.h"
#include "hipblas-version.h"
#include <hipblas-common/hipblas-common.h>
static_assert(hipblasVersionMajor == 2 && hipblasVersionMinor == 4, "hipBLAS version");
HIPBLAS_EXPORT hipblasFakeStatus hipblasFake(void);
H
git -C hipblas-tree init -q && git -C hipblas-tree add -A &&
  git -C hipblas-tree -c user.name=t -c user.email=t@t commit -qm t
git clone -q --bare hipblas-tree hipblas.git
commit=$(git --git-dir=hipblas.git rev-parse HEAD)
mkdir -p hipblas-common/library/include
echo 'typedef int hipblasFakeStatus;' > hipblas-common/library/include/hipblas-common.h
mkdir -p HIP/include/hip clr/hipamd/include/hip/amd_detail
printf '#HIP_VERSION_MAJOR\n6\n#HIP_VERSION_MINOR\n3\n#HIP_VERSION_PATCH\n0\n' > HIP/VERSION
echo '/* api */' > HIP/include/hip/hip_runtime_api.h
echo '/* amd */' > clr/hipamd/include/hip/amd_detail/amd_hip_runtime.h

py=$src/bench/realcode/hip-compdb.py
python3 "$py" ggml ggml db63 --hipblas hipblas.git --hipblas-common hipblas-common \
  --hip HIP --clr clr > out63.txt
r=db63/rocm
for f in include/hipblas/hipblas.h include/hipblas/hipblas-export.h \
         include/hipblas/hipblas-version.h include/hipblas-common/hipblas-common.h \
         include/hip/hip_runtime_api.h include/hip/amd_detail/amd_hip_runtime.h \
         include/hip/hip_version.h share/hip/version SOURCES.txt; do
  [ -f "$r/$f" ] || fail "db63/rocm/$f missing"
done
grep -q '#define HIP_VERSION_MAJOR 6' $r/include/hip/hip_version.h || fail "hip_version.h"
grep -q '#define HIP_VERSION_MINOR 3' $r/include/hip/hip_version.h || fail "hip_version.h minor"
grep -q '^HIP_VERSION_MAJOR=6$' $r/share/hip/version || fail "share/hip/version"
grep -q '#define hipblasVersionMinor 4' $r/include/hipblas/hipblas-version.h || fail "version"
grep -q "ROCm/hipBLAS $commit" $r/SOURCES.txt || fail "SOURCES.txt lacks the commit $commit"
python3 - "$work" <<'PY' || fail "compile database"
import json, os, sys
w = sys.argv[1]
db = json.load(open(os.path.join(w, "db63", "compile_commands.json")))
names = sorted(os.path.relpath(e["file"], os.path.join(w, "ggml", "src", "ggml-cuda")) for e in db)
want = ["k.cu"] + ["template-instances/%s.cu" % n for n in (
    "fattn-mma-f16-instance-a", "fattn-tile-instance-dkq64-dv64", "fattn-vec-instance-f16-f16",
    "mmf-instance-ncols_1", "mmq-instance-q4_0")]
assert names == want, names                       # fattn-vec q4_1: GGML_CUDA_FA_ALL_QUANTS only
a = db[0]["arguments"]
for flag in ("-DGGML_USE_HIP", "-DGGML_HIP_NO_VMM", "-DGGML_HIP_GRAPHS", "--offload-arch=gfx90a",
             "-x", "hip", "--hip-path=" + os.path.join(w, "db63", "rocm")):
    assert flag in a, flag
assert "-DGGML_HIP_NO_MMQ_MFMA" not in a and "-DGGML_CUDA_NO_FA" not in a
assert os.path.isdir(db[0]["directory"])
PY
# A checkout instead of the bare directory, the installed HIP headers, another target.
python3 "$py" ggml ggml db52 --hipblas hipblas-tree --hipblas-common hipblas-common \
  --arch gfx1100 > out52.txt
[ ! -e db52/rocm/include/hip ] || fail "db52 has HIP headers of its own"
grep -q -- '--offload-arch=gfx1100' db52/compile_commands.json || fail "gfx1100"
! grep -q -- '--hip-path' db52/compile_commands.json || fail "--hip-path without --hip"
if python3 "$py" ggml ggml dbx --hipblas hipblas.git --hipblas-common hipblas-common \
    --hip HIP 2>err.txt; then fail "--hip without --clr accepted"; fi
grep -q -- '--hip and --clr go together' err.txt || fail "message: $(cat err.txt)"

if [ ! -f /usr/include/hip/hip_runtime.h ] || ! command -v clang++-22 >/dev/null; then
  echo "SKIP the analysis: Debian's ROCm headers or clang++-22 not installed"
  exit 0
fi
"$warplint" check -p db52 --files '/k\.cu$' --arch gfx90a --registers-from none --no-cache \
  --format json -o k.json || [ $? -eq 1 ] || fail "warplint check"
python3 - <<'PY' || fail "analysis of k.cu"
import json
d = json.load(open("k.json"))
assert len(d["files_analysed"]) == 1 and not d["files_failed"], d["files_failed"]
(l,) = d["launches"]
assert l["kernel"] == "scale" and l["block"] == [128, 1, 1] and l["wave_size"] == 64, l
PY
echo "hip-compdb-ggml: OK"
