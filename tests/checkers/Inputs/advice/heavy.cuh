// Acc doubles live across the loop: register-limited kernels on sm_80 with 256-thread
// blocks (nvcc 13.0: churn<26> 68 registers, churn<28> 71).
template <int Acc> __device__ __forceinline__ double churn(const double *in, int i, int n) {
  double a[Acc];
#pragma unroll
  for (int k = 0; k < Acc; ++k)
    a[k] = in[i + k * n];
  for (int r = 0; r < n; ++r) {
#pragma unroll
    for (int k = 0; k < Acc; ++k)
      a[k] = a[k] * a[(k + 1) % Acc] + in[r * Acc + k];
  }
  double s = 0;
#pragma unroll
  for (int k = 0; k < Acc; ++k)
    s += a[k];
  return s;
}
