// warplint-barrier-divergence: a kernel parameter that every launch also passes as the
// block's size (ggml's argsort: `dim3 block_dims(ncols_pad, 1, 1)` and the argument
// `ncols_pad`) is blockDim there, so `threadIdx.x >= ncols_pad` leaves no thread out.
// RUN: %clang_tidy --checks='-*,warplint-barrier-divergence' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

// The block and the argument read the same const variable. Silent.
__global__ void sortPad(const float *x, int *dst, int ncols, int ncols_pad) {
  extern __shared__ int s[];
  int col = threadIdx.x;
  if (col >= ncols_pad)
    return;
  s[col] = col;
  __syncthreads();
  dst[blockIdx.x * ncols + col] = s[ncols_pad - 1 - col];
}

// `k<<<1, n>>>(y, n)`: one variable read twice in the launch. Silent.
__global__ void direct(float *x, int n) {
  __shared__ float s[1024];
  int col = threadIdx.x;
  if (col >= n)
    return;
  s[col] = x[col];
  __syncthreads();
  x[col] = s[n - 1 - col];
}

// Two launches, one of them passes another value than its block. True.
__global__ void mixed(float *x, int n) {
  __shared__ float s[1024];
  int col = threadIdx.x;
  if (col >= n)
    return;
  s[col] = x[col];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'mixed' may be skipped by part of the block: the threads whose 'col' is at or past 'n'{{.*}}[warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'col' is at or past 'n'
  x[col] = s[n - 1 - col];
}

// The block is built from a variable that is changed before the launch passes it. True.
__global__ void changed(float *x, int n) {
  __shared__ float s[1024];
  int col = threadIdx.x;
  if (col >= n)
    return;
  s[col] = x[col];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'changed' may be skipped by part of the block: the threads whose 'col' is at or past 'n'{{.*}}[warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'col' is at or past 'n'
  x[col] = s[n - 1 - col];
}

// The argument narrowed to 8 bits: 256 threads pass 0. True.
__global__ void narrow(float *x, unsigned char n) {
  __shared__ float s[1024];
  int col = threadIdx.x;
  if (col >= n)
    return;
  s[col] = x[col];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'narrow' may be skipped by part of the block: the threads whose 'col' is at or past 'n'{{.*}}[warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'col' is at or past 'n'
  x[col] = s[n - 1 - col];
}

// Through a launch helper with the arguments forwarded (ggml's ggml_cuda_kernel_launch;
// mul_mat_vec_q_moe's block `(warp_size, ncols_dst)` and its argument `ncols_dst`): the
// y of the block is the parameter. Silent.
struct launch_params {
  dim3 grid, block;
  launch_params(const dim3 &g, const dim3 &b) : grid(g), block(b) {}
};
namespace std {
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> T &&forward(typename remove_reference<T>::type &t) noexcept {
  return static_cast<T &&>(t);
}
} // namespace std
template <typename Kernel, typename... Args>
static void launch(Kernel kernel, const launch_params &p, Args &&...args) {
  kernel<<<p.grid, p.block>>>(std::forward<Args>(args)...);
}
__global__ void tokens(float *x, int ncols_dst) {
  __shared__ float s[8][32];
  const int token = threadIdx.y;
  if (token >= ncols_dst)
    return;
  s[token][threadIdx.x] = x[token * 32 + threadIdx.x];
  __syncthreads();
  x[token * 32 + threadIdx.x] = s[ncols_dst - 1 - token][threadIdx.x];
}

// The same helper, the argument one less than the block's y. True.
__global__ void tokensOff(float *x, int ncols_dst) {
  __shared__ float s[8][32];
  const int token = threadIdx.y;
  if (token >= ncols_dst)
    return;
  s[token][threadIdx.x] = x[token * 32 + threadIdx.x];
  __syncthreads();
  // CHECK: :[[@LINE-1]]:3: warning: '__syncthreads()' in kernel 'tokensOff' may be skipped by part of the block: the threads whose 'token' is at or past 'ncols_dst'{{.*}}[warplint-barrier-divergence]
  // CHECK: :[[@LINE-4]]:5: note: the threads whose 'token' is at or past 'ncols_dst'
  x[token * 32 + threadIdx.x] = s[ncols_dst - 1 - token][threadIdx.x];
}

int next_pow2(int);
void run(const float *x, int *dst, float *y, int ncols, int m, int warp_size) {
  const int ncols_pad = next_pow2(ncols);
  const dim3 block_dims(ncols_pad, 1, 1);
  sortPad<<<4, block_dims, ncols_pad * sizeof(int)>>>(x, dst, ncols, ncols_pad);
  direct<<<1, m>>>(y, m);
  mixed<<<1, m>>>(y, m);
  mixed<<<1, m>>>(y, m - 1);
  int w = m;
  dim3 b(w);
  w = w / 2;
  changed<<<1, b>>>(y, w);
  narrow<<<1, m>>>(y, m);

  const unsigned ncols_dst = m;
  const dim3 tb(warp_size, ncols_dst);
  const launch_params p = launch_params(dim3(4), tb);
  launch(tokens, p, y, ncols_dst);
  launch(tokensOff, p, y, ncols_dst - 1);
}
