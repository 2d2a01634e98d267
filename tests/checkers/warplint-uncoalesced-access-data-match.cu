// warplint-uncoalesced-access: an access that runs under an `==` of data with another
// value (seventeenth session, NVIDIA/AMGX's compute_edge_weights_diag: `if (b_col_id ==
// a_row_id) s[k] = A_vals[block_size * b_row_it];`, b_col_id a column index each lane
// loads from its own element of a CSR row). Only the lanes whose data match make it, as
// many as the data decide: a search's hit is one lane and one sector. The figure takes
// every lane the rest of the path keeps, so the finding is a note that says so. A flag's
// test against a constant (`mask[i] == 1`: many lanes may hold it) and a comparison of
// two loaded values stay warnings.
// RUN: %clang_tidy --checks='-*,warplint-uncoalesced-access' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|error|remark}}:' %s

__global__ void searchRow(const int *cols, const double *vals, double *hit, int begin, int end,
                          int bs) {
  const int lane = threadIdx.x % 32, row = blockIdx.x * 4 + threadIdx.x / 32;
  for (int b = begin; b < end; b += 32) {
    int it = b + lane;
    int col = -1;
    if (it < end)
      col = cols[it];
    if (col == row)
      hit[row] = vals[bs * it];
    // CHECK: :[[@LINE-1]]:18: remark: each warp's load of 'vals[bs * it]' touches 32 sectors for 256 bytes (ideal 8): stride of 33 doubles between lanes {{.*}}[warplint-uncoalesced-access]
    // CHECK: :[[@LINE-2]]:18: note: said as a note: it runs only in the lanes for which 'col == row' (line 19) holds, a match on data loaded at a thread-dependent address: how many lanes match is the data's (one, for a search's hit, which costs one sector), and the figure takes every lane the rest of the path keeps
  }
}

__global__ void maskedCopy(const int *mask, const double *in, double *out, int bs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (mask[i] == 1)
    out[i] = in[bs * i];
  // CHECK: :[[@LINE-1]]:14: warning: each warp's load of 'in[bs * i]' touches 32 sectors for 256 bytes (ideal 8): stride of 33 doubles between lanes
}

__global__ void pairCopy(const int *a, const int *b, const double *in, double *out, int bs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (a[i] == b[i])
    out[i] = in[bs * i];
  // CHECK: :[[@LINE-1]]:14: warning: each warp's load of 'in[bs * i]' touches 32 sectors for 256 bytes (ideal 8): stride of 33 doubles between lanes
}

void run(const int *r, const int *c, const double *v, double *h) {
  searchRow<<<64, 128>>>(c, v, h, 0, 4096, 33);
  maskedCopy<<<64, 128>>>(r, v, h, 33);
  pairCopy<<<64, 128>>>(r, c, v, h, 33);
}
