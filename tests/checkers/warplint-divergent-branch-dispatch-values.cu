// Real values before sampled ones, through a dispatcher that recurses over a list of
// template values (issue 23, eighteenth session: ginkgo's implementation selection, which
// tries sub-warp sizes 1, 2, 4, ..., 32 by calling itself once per size left, handing its
// argument pack on with std::forward, and launches generic_kernel_row_reduction_2d with
// `col_blocks` = 1 for every size under a warp). A parameter handed down such a chain keeps
// the value its first caller passed, however many sizes the chain tries; a forwarding
// reference handed on to the next call of the chain is written only where some call of it
// writes it. With col_blocks = 1 every sub-warp of a warp sweeps the same columns, and the
// loop splits its warps only in the last trip: a note. The same kernel reached with a
// run-time col_blocks (the second dispatcher) keeps the sampled figure: a warning.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
#include <utility>

template <int... V> struct value_list {};
template <typename... T> struct type_list {};

template <int S, int Tag>
__global__ void rowReduce(long rows, long cols, long col_blocks, const float *in, float *out) {
  const long idx = (threadIdx.x + long(blockIdx.x) * blockDim.x) / S;
  const long row = idx % rows;
  const long col_block = idx / rows;
  if (col_block >= col_blocks)
    return;
  const long per = ((cols + S - 1) / S + col_blocks - 1) / col_blocks * S;
  const long begin = per * col_block;
  const long end = begin + per < cols ? begin + per : cols;
  float p = 0;
  for (long col = begin + threadIdx.x % S; col < end; col += S)
    p += in[row * cols + col];
  // The run-time col_blocks (Tag 1) first, one warning for its four sizes:
  // CHECK: :[[@LINE-3]]:44: warning: loop condition on 'col' diverges in up to {{[0-9]+}} of 16 warps of kernel 'rowReduce' (block 512x1x1, lanes leave after different trip counts); predicted branch efficiency 50% to 100% over the loop's trips, depending on 'blockIdx.x', 'rows', 'col_blocks', 'cols'
  // CHECK: :[[@LINE-4]]:44: note: another instantiation of 'rowReduce': {{.*}}depending on 'blockIdx.x', 'rows', 'col_blocks', 'cols'
  // Then col_blocks = 1 (Tag 0; size 1 is warp-uniform): a note.
  // CHECK: :[[@LINE-6]]:44: remark: loop condition on 'col' diverges {{.*}}'col_blocks' = 1 as launched
  // CHECK: :[[@LINE-7]]:44: note: a note, not a warning: each lane runs its own chunk of the work
  // CHECK: :[[@LINE-8]]:44: note: another instantiation of 'rowReduce': {{.*}}'col_blocks' = 1 as launched
  // CHECK: :[[@LINE-9]]:44: note: another instantiation of 'rowReduce': {{.*}}'col_blocks' = 1 as launched
  // CHECK: :[[@LINE-10]]:44: note: another instantiation of 'rowReduce': {{.*}}'col_blocks' = 1 as launched
  // CHECK: :[[@LINE-11]]:44: note: another instantiation of 'rowReduce': {{.*}}depending on 'blockIdx.x', 'rows', 'col_blocks', 'cols'
  // CHECK: :[[@LINE-12]]:44: note: another instantiation of 'rowReduce': {{.*}}depending on 'blockIdx.x', 'rows', 'col_blocks', 'cols'
  if (threadIdx.x % S == 0)
    out[row + col_block * rows] = p;
  // CHECK: :[[@LINE-2]]:7: remark: branch on 'threadIdx.x' diverges
  // CHECK: :[[@LINE-3]]:7: note: a note, not a warning: the branch runs once per thread
  // CHECK: :[[@LINE-4]]:7: note: the arms are short
}

template <int Tag, int S>
void runRows(value_list<S>, long rows, long cols, long col_blocks, const float *in, float *out) {
  rowReduce<S, Tag><<<(rows * col_blocks * S + 511) / 512, 512>>>(rows, cols, col_blocks, in, out);
}

// ginkgo's GKO_ENABLE_IMPLEMENTATION_SELECTION, in our words.
#define SELECTION(name, callable)                                                            \
  template <typename P, int... I, typename... T, typename... A>                              \
  void name(value_list<>, P, value_list<I...>, type_list<T...>, A &&...) {}                  \
  template <int K, int... Rest, typename P, int... I, typename... T, typename... A>          \
  void name(value_list<K, Rest...>, P ok, value_list<I...> ints, type_list<T...> types,      \
            A &&...args) {                                                                   \
    if (ok(K))                                                                               \
      callable<I..., T...>(value_list<K>(), std::forward<A>(args)...);                       \
    else                                                                                     \
      name(value_list<Rest...>(), ok, ints, types, std::forward<A>(args)...);                \
  }

SELECTION(selectRows, runRows)

// col_blocks = 1 whatever the size chosen (sizes 1 to 16 are reached one to five calls
// down the chain).
void rowSums(long rows, long cols, const float *in, float *out) {
  selectRows(value_list<1, 2, 4, 8, 16>(), [cols](int s) { return s >= cols || s == 16; },
             value_list<0>(), type_list<>(), rows, cols, 1, in, out);
}

// A run-time col_blocks: the figure stays the sampled one.
void rowSumsSplit(long rows, long cols, long col_blocks, const float *in, float *out) {
  selectRows(value_list<2, 4, 8, 16>(), [cols](int s) { return s >= cols || s == 16; },
             value_list<1>(), type_list<>(), rows, cols, col_blocks, in, out);
}
