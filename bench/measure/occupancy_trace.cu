// Bench kernels for docs/measuring.md: measured blocks per SM against warplint's model.
//
//   regLimited<1|2|3>  256 threads, more live registers than fit, capped by
//                      __launch_bounds__(256, N) so that exactly N blocks fit per SM by
//                      registers (check with -Xptxas -v: 255, 128 and 80 registers on
//                      sm_80/sm_90); each block spins for a fixed number of cycles, so
//                      blocks of a wave start and end together. Grid: 4 full waves.
//   tail               regLimited<2> with 2 full waves and one block more: the last wave
//                      is one block on one SM, the other SMs idle through it.
//
// Each launch is traced with warplint/trace.cuh into trace.jsonl (launch 0..3), then run
// again untraced and traced, timed with events, for the cost of the trace (cost.txt).
// usage: occupancy_trace OUT_DIR   (bench/measure/measure.sh builds and runs it)
#include <warplint/trace.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>

constexpr int Threads = 256;
constexpr int Live = 160;                    // accumulators kept live per thread
constexpr long long SpinCycles = 2000000;    // about 1 ms per block at 1.7 GHz

template <int MinBlocks> __device__ void body(float *Out, float Seed) {
  float Acc[Live];
#pragma unroll
  for (int I = 0; I < Live; ++I)
    Acc[I] = Seed * (threadIdx.x + I);
  long long Start = clock64();
  while (clock64() - Start < SpinCycles) {
#pragma unroll
    for (int I = 0; I < Live; ++I)
      Acc[I] = Acc[I] * 0.999f + Acc[(I + 1) % Live] * 0.001f;
  }
  float Sum = 0;
#pragma unroll
  for (int I = 0; I < Live; ++I)
    Sum += Acc[I];
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Sum;
}

template <int MinBlocks, bool Traced>
__global__ void __launch_bounds__(Threads, MinBlocks)
    regLimited(float *Out, float Seed, warplint::trace::Slots Trace) {
  if constexpr (Traced) {
    WARPLINT_TRACE_BLOCK(Trace);
    body<MinBlocks>(Out, Seed);
  } else {
    body<MinBlocks>(Out, Seed);
  }
}

namespace {

bool ok(cudaError_t E, const char *What) {
  if (E != cudaSuccess)
    std::fprintf(stderr, "occupancy_trace: %s: %s\n", What, cudaGetErrorString(E));
  return E == cudaSuccess;
}

/// One configuration: traced once into the trace file, then timed untraced and traced.
template <int MinBlocks>
bool run(const char *Name, unsigned Launch, unsigned Grid, float *Out, std::FILE *Trace,
         std::FILE *Cost) {
  warplint::trace::Buffer Buf;
  if (!ok(warplint::trace::allocate(Buf, dim3(Grid)), "allocate"))
    return false;
  regLimited<MinBlocks, true><<<Grid, Threads>>>(Out, 1.0f, Buf.slots());
  cudaError_t E = cudaSuccess;
  warplint::trace::WriteResult W = warplint::trace::save(Buf, Name, Trace, Launch, &E);
  if (!ok(E, "trace") || W.Written != Grid) {
    std::fprintf(stderr, "occupancy_trace: %s: %llu of %u blocks traced\n", Name, W.Written, Grid);
    return false;
  }
  cudaEvent_t A, B;
  cudaEventCreate(&A);
  cudaEventCreate(&B);
  float Ms[2] = {0, 0};
  for (int Traced = 0; Traced < 2; ++Traced) {
    warplint::trace::reset(Buf);
    cudaEventRecord(A);
    if (Traced)
      regLimited<MinBlocks, true><<<Grid, Threads>>>(Out, 1.0f, Buf.slots());
    else
      regLimited<MinBlocks, false><<<Grid, Threads>>>(Out, 1.0f, Buf.slots());
    cudaEventRecord(B);
    if (!ok(cudaEventSynchronize(B), "timing"))
      return false;
    cudaEventElapsedTime(&Ms[Traced], A, B);
  }
  std::fprintf(Cost, "%s launch %u: grid %u, untraced %.3f ms, traced %.3f ms (%+.2f%%)\n", Name,
               Launch, Grid, Ms[0], Ms[1], 100.0 * (Ms[1] - Ms[0]) / Ms[0]);
  warplint::trace::release(Buf);
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Dir = Argc > 1 ? Argv[1] : ".";
  int Sms = 0;
  if (!ok(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0), "SM count"))
    return 1;
  std::FILE *Trace = std::fopen((Dir + "/trace.jsonl").c_str(), "w");
  std::FILE *Cost = std::fopen((Dir + "/cost.txt").c_str(), "w");
  if (!Trace || !Cost)
    return 1;
  float *Out = nullptr;
  unsigned MaxGrid = 4 * 3 * Sms;
  if (!ok(cudaMalloc(reinterpret_cast<void **>(&Out), sizeof(float) * Threads * MaxGrid), "malloc"))
    return 1;
  bool Ok = run<1>("regLimited<1, true>", 0, 4 * 1 * Sms, Out, Trace, Cost) &&
            run<2>("regLimited<2, true>", 1, 4 * 2 * Sms, Out, Trace, Cost) &&
            run<3>("regLimited<3, true>", 2, 4 * 3 * Sms, Out, Trace, Cost) &&
            run<2>("regLimited<2, true>", 3, 2 * 2 * Sms + 1, Out, Trace, Cost);
  std::fclose(Trace);
  std::fclose(Cost);
  cudaFree(Out);
  std::fprintf(stderr, "occupancy_trace: %d SMs, %s\n", Sms, Ok ? "traced" : "FAILED");
  return Ok ? 0 : 1;
}
