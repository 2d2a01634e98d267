// Seed kernels for the object-reader fuzzer (core/fuzz/run-fuzzer.sh): compiled with
// -nogpuinc, so the attributes are spelled out; the host stubs need hipLaunchKernel.
struct dim3 { unsigned x, y, z; };
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);
__attribute__((global)) void axpy(float *y, const float *x, float a, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  if (i < n)
    y[i] += a * x[i];
}
__attribute__((global)) void stage(float *out) {
  __attribute__((shared)) float tile[512];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  tile[t] = out[t];
  __builtin_amdgcn_s_barrier();
  out[t] = tile[511 - t];
}
