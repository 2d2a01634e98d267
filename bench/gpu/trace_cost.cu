// The trace header's own cost per block (docs/measuring.md): a short kernel (256 threads,
// a few hundred cycles of work) launched with and without WARPLINT_TRACE_BLOCK over many
// blocks, each timed with CUDA events (median of Reps), so the difference divided by the
// blocks is what one traced block adds. Grids of 1, 8 and 64 waves of 8 blocks per SM.
// One JSON line per grid: {"grid": ..., "untraced_ms": ..., "traced_ms": ..., "ns_per_block": ...}
// usage: trace_cost OUT.jsonl
#include <warplint/trace.cuh>

#include <cstdio>

#include "common.cuh"

template <bool Traced> __global__ void shortWork(float *Out, warplint::trace::Slots Trace) {
  if constexpr (Traced) {
    WARPLINT_TRACE_BLOCK(Trace);
    float V = threadIdx.x;
    for (int I = 0; I < 64; ++I)
      V = V * 0.999f + 1.0f;
    Out[blockIdx.x * blockDim.x + threadIdx.x] = V;
  } else {
    float V = threadIdx.x;
    for (int I = 0; I < 64; ++I)
      V = V * 0.999f + 1.0f;
    Out[blockIdx.x * blockDim.x + threadIdx.x] = V;
  }
}

template <bool Traced>
float median(unsigned Grid, float *Out, warplint::trace::Buffer &Buf, int Reps) {
  return medianMs(Reps, [&] { warplint::trace::reset(Buf); },
                  [&] { shortWork<Traced><<<Grid, 256>>>(Out, Buf.slots()); });
}

int main(int Argc, char **Argv) {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::fprintf(stderr, "%s: no CUDA device\n", Argv[0]);
    return 1;
  }
  std::FILE *Out = Argc > 1 ? std::fopen(Argv[1], "w") : stdout;
  if (!Out)
    return 1;
  int Sms = 0;
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0);
  for (unsigned Waves : {1u, 8u, 64u}) {
    unsigned Grid = Waves * 8 * Sms;
    float *Res = nullptr;
    cudaMalloc(&Res, size_t(Grid) * 256 * sizeof(float));
    warplint::trace::Buffer Buf;
    warplint::trace::allocate(Buf, dim3(Grid));
    float U = median<false>(Grid, Res, Buf, 21);
    float T = median<true>(Grid, Res, Buf, 21);
    std::fprintf(Out,
                 "{\"grid\": %u, \"threads\": 256, \"untraced_ms\": %.4f, \"traced_ms\": %.4f, "
                 "\"ns_per_block\": %.2f}\n",
                 Grid, U, T, 1e6 * (T - U) / Grid);
    warplint::trace::release(Buf);
    cudaFree(Res);
  }
  cudaError_t E = cudaDeviceSynchronize();
  if (Out != stdout)
    std::fclose(Out);
  if (E != cudaSuccess)
    std::fprintf(stderr, "trace_cost: %s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
