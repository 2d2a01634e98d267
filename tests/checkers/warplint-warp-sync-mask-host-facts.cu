// warplint-warp-sync-mask when the host establishes a fact about a value it passes to the
// launch (issue 23, darknet's reduce_kernel, ggml's quantize_q8_1): an enclosing
// `if (n % 32 == 0)`, an early exit on `n % 32 != 0`, an assertion whose failing side does
// not return. The fact restricts the values of the parameter the argument is bound to
// (sampled as multiples of 32), so a bounds exit `i >= n` leaves whole warps. Reported as
// before: a guard on another variable, a guard that does not dominate the launch, one of
// two launches unguarded, a variable written after the test, a weaker multiple.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

[[noreturn]] void fail(const char *what);
#define CHECK_OR_DIE(x) if (!(x)) fail(#x)
#define ASSERT_LIKE(x) ((x) ? (void)0 : fail(#x))

// Silent: launched only inside `if (size % 32 == 0)`; i / size >= n leaves whole warps.
__global__ void inIf(const float *w, int n, int size, float *mean) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = i / size;
  if (f >= n)
    return;
  float s = w[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  if (i % 32 == 0)
    atomicAdd(&mean[f], s / size);
}
void launchInIf(const float *w, int n, int size, float *mean) {
  if (size % 32 == 0) {
    int blocks = (n * size + 511) / 512;
    inIf<<<blocks, 512>>>(w, n, size, mean);
  }
}

// Silent: an early return on `n % 32 != 0` before the launch.
__global__ void afterReturn(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  if (i % 32 == 0)
    out[i / 32] = s;
}
void launchAfterReturn(const float *in, float *out, int n) {
  if (n % 32 != 0)
    return;
  afterReturn<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Silent: ggml's form, `if (!(x)) abort-like`, with the multiple a macro.
#define QK 32
__global__ void asserted(const float *in, float *out, long ne0) {
  const long i0 = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i0 >= ne0)
    return;
  float s = in[i0];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  if (threadIdx.x % 32 == 0)
    out[i0 / 32] = s;
}
void launchAsserted(const float *in, float *out, const long ne0) {
  CHECK_OR_DIE(ne0 % QK == 0);
  asserted<<<(ne0 + 255) / 256, 256>>>(in, out, ne0);
}

// Silent: glibc's assert form, `c ? (void)0 : noreturn()`; and `n >= 32` for a block of
// one warp that returns below n.
__global__ void assertedConditional(const float *in, float *out, int n) {
  if (threadIdx.x >= n)
    return;
  float s = in[threadIdx.x];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  if (threadIdx.x == 0)
    *out = s;
}
void launchAssertedConditional(const float *in, float *out, int n) {
  ASSERT_LIKE(n >= 32);
  assertedConditional<<<1, 32>>>(in, out, n);
}

// Reported: the test is on another variable.
__global__ void otherVariable(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'otherVariable' names lanes that may not take part: the threads whose 'i' is at or past 'n'
  if (i % 32 == 0)
    out[i / 32] = s;
}
void launchOtherVariable(const float *in, float *out, int n, int m) {
  if (m % 32 == 0)
    otherVariable<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Reported: the test does not dominate the launch (its arm ends before it; a test whose
// arm falls through).
__global__ void notDominating(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'notDominating' names lanes that may not take part: the threads whose 'i' is at or past 'n'
  if (i % 32 == 0)
    out[i / 32] = s;
}
void report(const char *);
void launchNotDominating(const float *in, float *out, int n) {
  if (n % 32 == 0) {
    report("aligned");
  }
  if (n % 32 != 0)
    report("unaligned");
  notDominating<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Reported: one of two launches is unguarded.
__global__ void oneUnguarded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'oneUnguarded' names lanes that may not take part: the threads whose 'i' is at or past 'n'
  if (i % 32 == 0)
    out[i / 32] = s;
}
void launchGuarded(const float *in, float *out, int n) {
  if (n % 32 == 0)
    oneUnguarded<<<(n + 255) / 256, 256>>>(in, out, n);
}
void launchUnguarded(const float *in, float *out, int n) {
  oneUnguarded<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Reported: the variable is written after the test; and a multiple of 16 splits a warp.
__global__ void writtenAfter(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'writtenAfter' names lanes that may not take part: the threads whose 'i' is at or past 'n'
  if (i % 32 == 0)
    out[i / 32] = s;
}
void launchWrittenAfter(const float *in, float *out, int n) {
  if (n % 32 != 0)
    return;
  n += 1;
  writtenAfter<<<(n + 255) / 256, 256>>>(in, out, n);
}
__global__ void halfWarps(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'halfWarps' names lanes that may not take part: the threads whose 'i' is at or past 'n'
  if (i % 32 == 0)
    out[i / 32] = s;
}
void launchHalfWarps(const float *in, float *out, int n) {
  if (n % 16 == 0)
    halfWarps<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Silent: a launch through a helper that passes its arguments on (ggml's
// ggml_cuda_kernel_launch, with std::forward), asserted before the helper's call.
namespace std {
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T> T &&forward(typename remove_reference<T>::type &t) noexcept {
  return static_cast<T &&>(t);
}
} // namespace std
template <typename Kernel, typename... Args>
void launchVia(Kernel kernel, int blocks, Args &&...args) {
  kernel<<<blocks, 256>>>(std::forward<Args>(args)...);
}
__global__ void throughHelper(const float *in, float *out, long ne0) {
  const long i0 = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i0 >= ne0)
    return;
  float s = in[i0];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  if (threadIdx.x % 32 == 0)
    out[i0 / 32] = s;
}
void launchThroughHelper(const float *in, float *out, const long ne0) {
  CHECK_OR_DIE(ne0 % QK == 0);
  launchVia(throughHelper, int((ne0 + 255) / 256), in, out, ne0);
}

// Reported: the same helper, the assertion on a weaker multiple.
__global__ void throughHelperWeak(const float *in, float *out, long ne0) {
  const long i0 = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i0 >= ne0)
    return;
  float s = in[i0];
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  // CHECK: :[[@LINE-1]]:8: warning: mask 0xffffffff of '__shfl_xor_sync()' in kernel 'throughHelperWeak' names lanes that may not take part: the threads whose 'i0' is at or past 'ne0'
  if (threadIdx.x % 32 == 0)
    out[i0 / 32] = s;
}
void launchThroughHelperWeak(const float *in, float *out, const long ne0) {
  CHECK_OR_DIE(ne0 % 8 == 0);
  launchVia(throughHelperWeak, int((ne0 + 255) / 256), in, out, ne0);
}
