// Verified register advice, timed (issue 28's GPU item; docs/registers.md). warplint
// says, for the two kernels of tests/checkers/verified-advice-nvcc.cu on sm_90:
//   fits   (churn<26>, 70 registers, 3 blocks/SM): with __launch_bounds__(256, 4) nvcc 13.0
//          gives 62 registers and 0 bytes of spill: 4 blocks/SM, 50% (verified);
//   spills (churn<28>, 71 registers): with __launch_bounds__(256, 4) 64 registers and 64
//          bytes of spill stores: "measure before keeping it".
// Each is built as it is and with the bound, and each of the four is timed with CUDA
// events (the median of Reps launches after a warm-up), one line per kernel:
//   {"kernel": ..., "ms": [...], "median_ms": ...}
// usage: advice_timing OUT.jsonl [REPS]   (REPS default 15; ncu profiles it with 1)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../tests/checkers/Inputs/advice/heavy.cuh"
#include "common.cuh"

__global__ void fits(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<26>(In, I, N);
}
__global__ void __launch_bounds__(256, 4) fitsBounded(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<26>(In, I, N);
}
__global__ void spills(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<28>(In, I, N);
}
__global__ void __launch_bounds__(256, 4) spillsBounded(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<28>(In, I, N);
}

using Kernel = void (*)(const double *, double *, int);

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
  const int Threads = 256, N = 256, Reps = Argc > 2 ? std::atoi(Argv[2]) : 15;
  const int Grid = Sms * 4 * 8; // 8 waves at 4 blocks per SM
  const size_t Elems = size_t(Grid) * Threads + size_t(28) * N + 28;
  double *In = nullptr, *Res = nullptr;
  if (cudaMalloc(&In, Elems * sizeof(double)) != cudaSuccess ||
      cudaMalloc(&Res, size_t(Grid) * Threads * sizeof(double)) != cudaSuccess)
    return 1;
  cudaMemset(In, 0, Elems * sizeof(double));
  struct Case {
    const char *Name;
    Kernel Fn;
  } Cases[] = {{"fits", fits}, {"fitsBounded", fitsBounded}, {"spills", spills},
               {"spillsBounded", spillsBounded}};
  bool Ok = true;
  for (const Case &C : Cases) {
    cudaFuncAttributes Attr;
    cudaFuncGetAttributes(&Attr, C.Fn);
    int Blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, C.Fn, Threads, 0);
    std::vector<float> Ms;
    float Median = medianMs(Reps, [] {}, [&] { C.Fn<<<Grid, Threads>>>(In, Res, N); }, &Ms);
    if (Median < 0) {
      Ok = false;
      continue;
    }
    std::fprintf(Out,
                 "{\"kernel\": \"%s\", \"threads\": %d, \"grid\": %d, \"registers\": %d, "
                 "\"local_bytes\": %zu, \"blocks_per_sm\": %d, \"median_ms\": %.4f, \"ms\": [",
                 C.Name, Threads, Grid, Attr.numRegs, Attr.localSizeBytes, Blocks, Median);
    for (size_t I = 0; I < Ms.size(); ++I)
      std::fprintf(Out, "%s%.4f", I ? ", " : "", Ms[I]);
    std::fprintf(Out, "]}\n");
  }
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    std::fprintf(stderr, "advice_timing: %s\n", cudaGetErrorString(E));
    Ok = false;
  }
  if (Out != stdout)
    std::fclose(Out);
  return Ok ? 0 : 1;
}
