#!/usr/bin/env bash
# The `warplint` pre-commit hook (.pre-commit-hooks.yaml) run by the real pre-commit on a
# throwaway git repository, offline: once as a `repo: local` hook built from the manifest,
# once from this repository itself as a remote (`repo: <path>`, `rev: HEAD`).
# usage: precommit-test.sh SOURCE_DIR WARPLINT_BIN_DIR MOCK_CUDA_DIR
# Exit 77 (skip) when pre-commit is not installed.
set -euo pipefail
src=$(cd "$1" && pwd)
bindir=$(cd "$2" && pwd)
mock=$(cd "$3" && pwd)
command -v pre-commit >/dev/null || { echo "pre-commit is not installed: skipped"; exit 77; }
python=/usr/bin/python3
[ -x "$python" ] || python=python3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PRE_COMMIT_HOME=$tmp/pre-commit-cache PATH=$bindir:$PATH
export GIT_AUTHOR_NAME=warplint GIT_AUTHOR_EMAIL=warplint@example.invalid
export GIT_COMMITTER_NAME=warplint GIT_COMMITTER_EMAIL=warplint@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
mkdir -p "$HOME"
fail() { echo "FAIL: $*" >&2; exit 1; }

repo=$tmp/project
git init -q "$repo"
cd "$repo"
cat > divergent.cu <<'EOF'
__global__ void oddEven(float *Out) {
  unsigned Tid = threadIdx.x;
  if (Tid % 2 == 0)
    Out[Tid] *= 2.0f;
  else
    Out[Tid] += 1.0f;
}
EOF
cat > clean.cu <<'EOF'
__global__ void copy(float *Out, const float *In) {
  Out[threadIdx.x] = In[threadIdx.x];
}
EOF
cat > common.cuh <<'EOF'
// A header: not in the compile database, analysed with its neighbours' command.
#pragma once
__device__ inline float twice(float X) { return 2.0f * X; }
EOF
echo 'int main() { return 0; }' > host.cpp
# A compile database with the hermetic mock CUDA header, as a project's build would give.
"$python" - "$repo" "$mock" > compile_commands.json <<'EOF'
import json, sys
repo, mock = sys.argv[1], sys.argv[2]
print(json.dumps([{"directory": repo, "file": f"{repo}/{f}",
                   "arguments": ["clang++-22", "-x", "cuda", "--cuda-device-only",
                                 "--cuda-gpu-arch=sm_86", "-nocudainc", "-nocudalib",
                                 "-isystem", mock, "-include", "cuda_runtime.h",
                                 "-c", f"{repo}/{f}"]}
                  for f in ("divergent.cu", "clean.cu")], indent=1))
EOF

# 1. repo: local, the hook taken verbatim from the manifest, plus the project's args.
"$python" - "$src/.pre-commit-hooks.yaml" > .pre-commit-config.yaml <<'EOF'
import sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
assert [h["id"] for h in hooks] == ["warplint"], hooks
hooks[0]["args"] = ["-p", "."]
print(yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}, sort_keys=False))
EOF

set +e
out=$(pre-commit run --files divergent.cu clean.cu host.cpp 2>&1); rc=$?
set -e
echo "$out"
[ $rc -eq 1 ] || fail "pre-commit run on a divergent kernel exited $rc, expected 1"
grep -q 'divergent.cu:3:7: warning: .*warplint-divergent-branch' <<<"$out" ||
  fail "the hook's output lacks the divergence finding"
grep -q 'host.cpp' <<<"$out" && fail "the hook was given a non-CUDA file"

set +e
out=$(pre-commit run --files clean.cu common.cuh host.cpp 2>&1); rc=$?
set -e
echo "$out"
[ $rc -eq 0 ] || fail "pre-commit run on a clean kernel exited $rc, expected 0"
grep -q '^warplint\.*Passed' <<<"$out" || fail "the hook did not run on clean.cu"

out=$(pre-commit run --files host.cpp 2>&1)
grep -q '^warplint\.*(no files to check)Skipped' <<<"$out" ||
  fail "the hook ran with no CUDA file: $out"

# 2. As a git hook: the clean commit goes in, the divergent one is refused.
pre-commit install >/dev/null
git add .pre-commit-config.yaml compile_commands.json clean.cu common.cuh host.cpp
git commit -q -m "clean kernel" || fail "commit of a clean kernel was refused"
git add divergent.cu
set +e
out=$(git commit -q -m "divergent kernel" 2>&1); rc=$?
set -e
echo "$out"
[ $rc -ne 0 ] || fail "commit of a divergent kernel went through"
[ "$(git rev-list --count HEAD)" = 1 ] || fail "expected exactly one commit"

# 3. This repository as the hook's source (what users write), when it is a git checkout
#    whose HEAD has the manifest.
if git -C "$src" cat-file -e HEAD:.pre-commit-hooks.yaml 2>/dev/null; then
  rev=$(git -C "$src" rev-parse HEAD)
  cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: warplint
        args: [-p, .]
EOF
  set +e
  out=$(pre-commit run --files divergent.cu clean.cu 2>&1); rc=$?
  set -e
  echo "$out"
  [ $rc -eq 1 ] || fail "pre-commit with repo: $src exited $rc, expected 1"
  grep -q 'warplint-divergent-branch' <<<"$out" || fail "no finding with repo: $src"
else
  echo "note: $src is not a git checkout with the manifest at HEAD; remote-repo case skipped"
fi
echo "pre-commit hook: OK"
