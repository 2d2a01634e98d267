#!/usr/bin/env bash
# Builds the libFuzzer targets of the driver's JSON readers (occupancy --batch lines, the
# SARIF merge, the compile-database check, the measured-data readers: block traces
# and Nsight Compute CSV, and the language server's frames and messages) with clang++-22 against the shared libLLVM and
# runs each briefly on seeds from the tests. Exit 77 (ctest SKIP) when clang++-22,
# libFuzzer or llvm-config-22 is absent.
# usage: run-json-fuzzers.sh <source-root> <work-dir> [runs | build]  (build: only build)
set -euo pipefail
src=$1 work=$2 runs=${3:-20000}
cxx=${WARPLINT_FUZZ_CXX:-clang++-22}
llvm_config=${WARPLINT_LLVM_CONFIG:-llvm-config-22}
mkdir -p "$work"
if ! command -v "$cxx" >/dev/null; then
  echo "SKIP: $cxx not found (libFuzzer needs clang)"; exit 77
fi
if ! command -v "$llvm_config" >/dev/null; then
  echo "SKIP: $llvm_config not found (the readers use llvm::json)"; exit 77
fi
probe="$work/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }' >"$probe"
if ! "$cxx" -fsanitize=fuzzer "$probe" -o "$work/probe" 2>/dev/null; then
  echo "SKIP: $cxx has no libFuzzer runtime (-fsanitize=fuzzer fails)"; exit 77
fi
# Rebuilt only when a source or header is newer than the binary (ctest runs this often).
stale() { # stale BINARY SOURCES...
  local bin=$1; shift
  [ ! -x "$bin" ] || [ -n "$(find "$@" -newer "$bin" 2>/dev/null | head -1)" ]
}
libdir=$("$llvm_config" --libdir)
build() { # build NAME SOURCES... (rebuilt when anything under driver/ or core/ changed)
  local name=$1; shift
  if stale "$work/$name" "$src/driver" "$src/core"; then
    "$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Wno-deprecated-declarations \
      -DWARPLINT_VERSION='"fuzz"' -DWARPLINT_COMMIT='"fuzz"' -I"$src" -I"$src/core/include" -I"$("$llvm_config" --includedir)" \
      "$src/driver/fuzz/$name.cpp" "$@" "$src/driver/formats/BoundedJson.cpp" \
      -L"$libdir" -Wl,-rpath,"$libdir" -lLLVM -lfmt -o "$work/$name"
  fi
}
build OccupancyBatchFuzzer "$src/driver/commands/OccupancyBatch.cpp" \
  "$src/driver/commands/OccupancyInput.cpp" "$src"/core/lib/*.cpp
build SarifMergeFuzzer "$src/driver/formats/SarifMerge.cpp"
build CompileDatabaseFuzzer "$src/driver/compdb/CompileDatabaseCheck.cpp"
build MeasuredReadersFuzzer "$src/driver/measure/BlockTrace.cpp" "$src/driver/measure/NcuCsv.cpp"
build LspReadersFuzzer "$src/driver/lsp/Transport.cpp"
[ "$runs" = build ] && { echo "built the JSON reader fuzzers in $work"; exit 0; }

# Seeds: the batch lines of the tests, one per file; a SARIF log and a compile database.
seeds="$work/seeds"
mkdir -p "$seeds/batch" "$seeds/sarif" "$seeds/compdb" "$seeds/measured" "$seeds/lsp"
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
printf 'Content-Length: %d\r\n\r\n%s' "${#init}" "$init" >"$seeds/lsp/initialize"
deep=$(printf '%.0s[' $(seq 1 300))
printf 'Content-Length: %d\r\n\r\n%s' "${#deep}" "$deep" >"$seeds/lsp/deep"
printf 'Content-Length: 99999999999\r\n\r\n{}' >"$seeds/lsp/huge-length"
cp "$src/tests/Inputs/timeline/tail.jsonl" "$src"/tests/Inputs/ncu/*.csv "$seeds/measured/"
printf '%s' '{"arch":"sm_86","threads":32,"big":-1e400}' >"$seeds/batch/infinity"
n=0
while IFS= read -r line; do
  n=$((n + 1)); printf '%s' "$line" >"$seeds/batch/line$n"
done <"$src/tests/checkers/Inputs/occupancy-batch.jsonl"
cat >"$seeds/sarif/log.sarif" <<'SARIF'
{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
 "runs": [{"tool": {"driver": {"name": "warplint", "version": "0.1.0",
   "rules": [{"id": "warplint-divergent-branch"}, {"id": "clang-diagnostic-error"}]}},
  "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///src/"}},
  "invocations": [{"executionSuccessful": false, "toolExecutionNotifications": [
    {"level": "error", "message": {"text": "could not analyse b.cu"}}]}],
  "results": [{"ruleId": "warplint-divergent-branch", "ruleIndex": 0, "level": "warning",
    "message": {"text": "branch diverges"}, "locations": [{"physicalLocation": {
      "artifactLocation": {"uri": "a.cu", "uriBaseId": "%SRCROOT%"},
      "region": {"startLine": 4, "startColumn": 7}}}]}]}]}
SARIF
# Two results that differ only in a stale ruleIndex (the merge once kept both).
cat >"$seeds/sarif/stale-rule-index.sarif" <<'SARIF'
{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "w", "rules": [{"id": "a"}]}},
 "results": [{"ruleId": "a", "ruleIndex": 0, "message": {"text": "m"}},
  {"ruleId": "a", "ruleIndex": 5, "message": {"text": "m"}}]}]}
SARIF
cat >"$seeds/compdb/compile_commands.json" <<'COMPDB'
[{"directory": "/p", "file": "a.cu", "command": "nvcc -DX=\"a b\" -c a.cu"},
 {"directory": "/p/b", "file": "../c.cu", "command": "clang++ -DY='q -c c.cu"},
 {"directory": "/p", "file": "d.cu", "arguments": ["clang++", "-c", "d.cu"]}]
COMPDB
for f in batch:OccupancyBatchFuzzer sarif:SarifMergeFuzzer compdb:CompileDatabaseFuzzer \
         measured:MeasuredReadersFuzzer lsp:LspReadersFuzzer; do
  corpus="$work/corpus-${f%%:*}"
  mkdir -p "$corpus"
  "$work/${f#*:}" -runs="$runs" -max_len=4096 -seed=1 -artifact_prefix="$work/${f#*:}-" \
    "$corpus" "$seeds/${f%%:*}" 2>&1 | tail -n 3
done
