#!/usr/bin/env bash
# Real programs' memory and branch behaviour line by line (docs/measuring.md, "Real code,
# line by line"): Nsight Compute's SourceCounters section (per source line: instructions and
# thread instructions executed, predicated-on thread instructions, global sectors against
# the ideal, shared wavefronts against the ideal) on the first launch of each kernel of
# cuda-samples and llm.c programs, to hold warplint's uncoalesced-access,
# shared-bank-conflict and divergent-branch findings (and its silence) against the
# hardware with bench/gpu/lines-compare.py.
#
# Here (no GPU needed): bench/gpu/lines.sh --build CUDA_SAMPLES LLM_C BIN_DIR [HECBENCH]
#   builds the programs for sm_90 with -O3 -lineinfo, their ptxas logs, and copies the
#   sources they were built from into BIN_DIR/src (ncu reads them by the absolute paths
#   the line table names; BIN_DIR/src.paths says which).
# On the GPU machine: bench/gpu/lines.sh OUT_DIR BIN_DIR
#   puts the sources back at those paths, profiles each kernel of the plan below (one ncu
#   run per kernel, the first launch whose name matches, LIMIT s each, default 90), and exports each
#   report as CSV: the source page (CUDA, SASS, both), the raw page and the details page.
#   OUT_DIR gets one archive, lines.tar.gz, with those CSVs, the ncu logs and steps.txt.
set -u
# program|arguments|kernels (the plan; kernels with warplint findings first)
plan=(
  "transpose||transposeCoalesced transposeNaive transposeNoBankConflicts copySharedMem transposeDiagonal transposeFineGrained transposeCoarseGrained copy"
  "convolutionSeparable||convolutionRowsKernel convolutionColumnsKernel"
  "histogram||mergeHistogram256Kernel histogram256Kernel histogram64Kernel mergeHistogram64Kernel"
  "sortingNetworks||bitonicSortShared bitonicSortShared1 bitonicMergeShared bitonicMergeGlobal"
  "reduction|--kernel=0|reduce0"
  "reduction|--kernel=1|reduce1"
  "reduction|--kernel=2|reduce2"
  "reduction|--kernel=3|reduce3"
  "reduction|--kernel=4|reduce4"
  "reduction|--kernel=5|reduce5"
  "reduction|--kernel=6|reduce6"
  "llmc-attention_forward|1|attention_query_key_kernel1 attention_softmax_kernel1 attention_value_kernel1"
  "llmc-attention_forward|2|attention_forward_kernel2"
  "scan||scanExclusiveShared scanExclusiveShared2 uniformUpdate"
  "fastWalshTransform||fwtBatch1Kernel fwtBatch2Kernel modulateKernel"
  "matrixMul||MatrixMulCUDA"
  "mergeSort||mergeSortSharedKernel generateSampleRanksKernel mergeRanksAndIndicesKernel mergeElementaryIntervalsKernel"
  "BlackScholes||BlackScholesGPU"
  "quasirandomGenerator||quasirandomGeneratorKernel inverseCNDKernel"
  "vectorAdd||vectorAdd"
  "hec-laplace3d|128 128 128 2 0|laplace3d"
  "hec-dwconv|8 16 224 224 2|conv_depthwise2d_forward_kernel"
)
samples=(6_Performance/transpose 2_Concepts_and_Techniques/convolutionSeparable
  2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/sortingNetworks
  2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scan
  5_Domain_Specific/fastWalshTransform 0_Introduction/matrixMul 0_Introduction/mergeSort
  5_Domain_Specific/BlackScholes 5_Domain_Specific/quasirandomGenerator 0_Introduction/vectorAdd)
llmc=(attention_forward)
# HeCBench programs of divergent-branch's labelled places (issue 23), with HECBENCH given.
hecbench=(laplace3d dwconv)

if [ "${1:-}" = --build ]; then
  src=$(cd "$2" && pwd) llm=$(cd "$3" && pwd) bin=$4
  mkdir -p "$bin/src"
  : > "$bin/src.paths"
  keep() { # copy a source folder into BIN_DIR/src, remember its absolute path
    local d=$1 n
    n=$(printf '%s' "$d" | tr '/' '_')
    rm -rf "${bin:?}/src/$n"
    cp -r "$d" "$bin/src/$n"
    echo "$n $d" >> "$bin/src.paths"
  }
  keep "$src/Common"
  for d in "${samples[@]}"; do
    n=$(basename "$d")
    keep "$src/Samples/$d"
    nice nvcc -arch=sm_90 -O3 -lineinfo -I"$src/Common" -Xptxas -v -o "$bin/$n" \
      "$src/Samples/$d"/*.cu $(ls "$src/Samples/$d"/*.cpp 2>/dev/null) 2> "$bin/$n.ptxas.log" &&
      echo "built $n" || echo "FAILED $n"
  done
  keep "$llm/dev"
  for n in "${llmc[@]}"; do
    nice nvcc -arch=sm_90 -O3 --use_fast_math -std=c++17 -lineinfo -Xptxas -v \
      -o "$bin/llmc-$n" "$llm/dev/cuda/$n.cu" -lcublas -lcublasLt 2> "$bin/llmc-$n.ptxas.log" &&
      echo "built llmc-$n" || echo "FAILED llmc-$n"
  done
  if [ -n "${5:-}" ]; then
    hec=$(cd "$5" && pwd)
    for n in "${hecbench[@]}"; do
      keep "$hec/src/$n-cuda"
      nice nvcc -arch=sm_90 -O3 -std=c++17 -lineinfo -Xptxas -v -o "$bin/hec-$n" \
        -I"$hec/src/tensorAccessor-cuda" "$hec/src/$n-cuda/main.cu" 2> "$bin/hec-$n.ptxas.log" &&
        echo "built hec-$n" || echo "FAILED hec-$n"
    done
  fi
  exit 0
fi

out=$1 bin=$(cd "$2" && pwd)
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)}
# The work goes to a scratch folder (the reports are large); OUT_DIR gets the archive.
work=${WORK:-/tmp/warplint-lines}
rm -rf "$work"
mkdir -p "$out" "$work/lines"
res=$work/lines
steps=$res/steps.txt
: > "$steps"
# The sources, back where the line table says they were.
while read -r n path; do
  if [ ! -e "$path" ]; then
    mkdir -p "$(dirname "$path")"
    ln -s "$bin/src/$n" "$path"
  fi
done < "$bin/src.paths"
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1
  "$ncu" --version 2>&1 | tail -1
} > "$res/env.txt"
cp "$bin"/*.ptxas.log "$res/" 2>/dev/null
# Kernel-level figures beside the section's per-line ones.
metrics=launch__block_size,launch__grid_size,launch__registers_per_thread
metrics+=,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__sass_branch_targets.sum
metrics+=,smsp__sass_branch_targets_threads_divergent.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
# No kernel is started after BUDGET seconds (default 330), so that the archive is written
# inside a short lease; the plan's order says what comes first.
start=$(date +%s)
for entry in "${plan[@]}"; do
  IFS='|' read -r prog args kernels <<< "$entry"
  [ -x "$bin/$prog" ] || { echo "$prog: not built" >> "$steps"; continue; }
  for k in $kernels; do
    tag=$prog-$k
    # SKIP: tags (PROGRAM-KERNEL) already captured by an earlier run, one per word.
    case " ${SKIP:-} " in *" $tag "*) continue ;; esac
    # ONLY: the programs (or tags) to profile, one per word; all when unset.
    if [ -n "${ONLY:-}" ]; then
      case " $ONLY " in *" $prog "* | *" $tag "*) ;; *) continue ;; esac
    fi
    if [ $(( $(date +%s) - start )) -ge "${BUDGET:-330}" ]; then
      echo "$tag: not profiled (budget of ${BUDGET:-330} s spent)" >> "$steps"
      continue
    fi
    t0=$(date +%s)
    # The first launch whose name is K, K<...> or K(...), with or without a return type.
    (cd "$bin" && timeout --kill-after=5 "${LIMIT:-90}" "$ncu" --section SourceCounters --metrics "$metrics" \
      --import-source yes --clock-control none -k "regex:(^|[ :])$k(\$|[<(])" -c 1 -f \
      -o "$res/$tag" "./$prog" $args > "$res/$tag.log" 2>&1)
    rc=$?
    if [ -s "$res/$tag.ncu-rep" ]; then
      "$ncu" -i "$res/$tag.ncu-rep" --page source --csv --print-source cuda > "$res/$tag.cuda.csv" 2> "$res/$tag.export.err"
      "$ncu" -i "$res/$tag.ncu-rep" --page source --csv --print-source sass > "$res/$tag.sass.csv" 2>> "$res/$tag.export.err"
      "$ncu" -i "$res/$tag.ncu-rep" --page raw --csv --print-units base > "$res/$tag.raw.csv" 2>> "$res/$tag.export.err"
      "$ncu" -i "$res/$tag.ncu-rep" --page details --csv --print-units base --print-details all > "$res/$tag.details.csv" 2>> "$res/$tag.export.err" ||
        "$ncu" -i "$res/$tag.ncu-rep" --page details --csv --print-units base > "$res/$tag.details.csv" 2>> "$res/$tag.export.err"
      # Which source lines each SASS instruction came from, where the CUDA page lacks a column.
      "$ncu" -i "$res/$tag.ncu-rep" --page source --csv --print-source cuda,sass > "$res/$tag.both.csv" 2>> "$res/$tag.export.err"
    fi
    echo "$tag rc=$rc $(( $(date +%s) - t0 )) s, report $(stat -c %s "$res/$tag.ncu-rep" 2>/dev/null || echo none), cuda csv $(wc -l < "$res/$tag.cuda.csv" 2>/dev/null || echo none) lines" >> "$steps"
  done
done
# The reports themselves stay behind (large, and only ncu reads them); their CSVs and
# logs come back.
tar -czf "$out/lines.tar.gz" -C "$work" --exclude '*.ncu-rep' lines
cat "$steps"
ls -la "$out"
