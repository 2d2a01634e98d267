// The CUDA runtime's own occupancy answers, for warplint's model to be held against
// (bench/gpu/run.sh on a GPU machine, bench/gpu/compare.py here; docs/measuring.md).
//
// For kernels that each hit a different limiter (registers, static shared memory,
// dynamic shared memory with and without the opt-in, the carveout, warps, block slots),
// it writes one JSON line per (kernel, block size, dynamic shared memory, carveout):
//   cudaFuncGetAttributes (numRegs, sharedSizeBytes, localSizeBytes, ...) and
//   cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// one line per kernel for cudaOccupancyMaxPotentialBlockSize, one line per cluster
// configuration for cudaOccupancyMaxActiveClusters (2-, 4-, 8-block clusters and, with
// cudaFuncAttributeNonPortableClusterSizeAllowed, 16), and the device's properties first.
// usage: occupancy_api OUT.jsonl
#include <cstdio>
#include <cuda_runtime.h>

#include "../../tests/checkers/Inputs/advice/heavy.cuh"
#include "common.cuh"

// Registers: the churn kernels of the verified-advice tests (about 70 registers on sm_90).
__global__ void regHeavy(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<26>(In, I, N);
}

// Few registers: warps and block slots limit it.
__global__ void light(float *Out) { Out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

// Static shared memory: Bytes per block.
template <int Bytes> __global__ void staticSmem(float *Out) {
  __shared__ float Tile[Bytes / sizeof(float)];
  Tile[threadIdx.x % (Bytes / sizeof(float))] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Tile[(threadIdx.x + 1) % (Bytes / sizeof(float))];
}

// Dynamic shared memory only.
__global__ void dynamicSmem(float *Out) {
  extern __shared__ float Dyn[];
  Dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Dyn[(threadIdx.x + 1) % blockDim.x];
}

// A min-blocks bound: ptxas caps the registers.
__global__ void __launch_bounds__(256, 4) bounded(const double *In, double *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = churn<26>(In, I, N);
}

// Cluster kernels: the cluster shape comes from the launch configuration.
__global__ void clustered(float *Out) {
  extern __shared__ float Dyn[];
  Dyn[threadIdx.x % 32] = threadIdx.x;
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Dyn[0];
}

namespace {

std::FILE *Out = nullptr;
bool Failed = false;

void fail(cudaError_t E, const char *What) {
  std::fprintf(stderr, "occupancy_api: %s: %s\n", What, cudaGetErrorString(E));
  Failed = true;
}

template <typename F> bool attributes(F *Fn, cudaFuncAttributes &A, const char *Name) {
  cudaError_t E = cudaFuncGetAttributes(&A, Fn);
  if (E != cudaSuccess) {
    fail(E, Name);
    return false;
  }
  return true;
}

/// One row: the runtime's resident blocks per SM for this kernel and launch.
template <typename F>
void blocksRow(F *Fn, const char *Name, int Threads, size_t Dynamic, int Carveout, int Optin) {
  cudaFuncAttributes A;
  if (Carveout >= 0)
    cudaFuncSetAttribute(Fn, cudaFuncAttributePreferredSharedMemoryCarveout, Carveout);
  if (Optin > 0)
    cudaFuncSetAttribute(Fn, cudaFuncAttributeMaxDynamicSharedMemorySize, Optin);
  if (!attributes(Fn, A, Name))
    return;
  int Blocks = -1;
  cudaError_t E = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, Fn, Threads, Dynamic);
  std::fprintf(Out,
               "{\"what\": \"blocks_per_sm\", \"kernel\": \"%s\", \"threads\": %d, "
               "\"dynamic_smem\": %zu, \"carveout\": %d, \"optin_smem\": %d, "
               "\"registers\": %d, \"static_smem\": %zu, \"local_bytes\": %zu, "
               "\"max_threads\": %d, \"max_dynamic_smem\": %d, \"blocks_per_sm\": %d, "
               "\"error\": \"%s\"}\n",
               Name, Threads, Dynamic, Carveout, Optin, A.numRegs, A.sharedSizeBytes,
               A.localSizeBytes, A.maxThreadsPerBlock, A.maxDynamicSharedSizeBytes, Blocks,
               E == cudaSuccess ? "" : cudaGetErrorString(E));
  // Back to the defaults for the next row.
  if (Carveout >= 0)
    cudaFuncSetAttribute(Fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
  if (Optin > 0)
    cudaFuncSetAttribute(Fn, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
}

template <typename F> void potentialRow(F *Fn, const char *Name, size_t Dynamic) {
  int MinGrid = -1, Block = -1;
  cudaError_t E = cudaOccupancyMaxPotentialBlockSize(&MinGrid, &Block, Fn, Dynamic, 0);
  std::fprintf(Out,
               "{\"what\": \"max_potential_block_size\", \"kernel\": \"%s\", "
               "\"dynamic_smem\": %zu, \"min_grid\": %d, \"block\": %d, \"error\": \"%s\"}\n",
               Name, Dynamic, MinGrid, Block, E == cudaSuccess ? "" : cudaGetErrorString(E));
}

void clusterRow(int Threads, int Cluster, size_t Dynamic, bool NonPortable) {
  cudaFuncAttributes A;
  if (!attributes(clustered, A, "clustered"))
    return;
  cudaFuncSetAttribute(clustered, cudaFuncAttributeNonPortableClusterSizeAllowed,
                       NonPortable ? 1 : 0);
  cudaFuncSetAttribute(clustered, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       static_cast<int>(Dynamic));
  cudaLaunchAttribute Attr;
  cudaLaunchConfig_t Config = clusterConfig(Cluster * 64, Threads, Dynamic, Cluster, Attr);
  int Clusters = -1;
  cudaError_t E = cudaOccupancyMaxActiveClusters(&Clusters, clustered, &Config);
  int Blocks = -1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, clustered, Threads, Dynamic);
  std::fprintf(Out,
               "{\"what\": \"max_active_clusters\", \"kernel\": \"clustered\", \"threads\": %d, "
               "\"cluster\": %d, \"dynamic_smem\": %zu, \"non_portable\": %s, "
               "\"registers\": %d, \"static_smem\": %zu, \"blocks_per_sm\": %d, "
               "\"max_active_clusters\": %d, \"error\": \"%s\"}\n",
               Threads, Cluster, Dynamic, NonPortable ? "true" : "false", A.numRegs,
               A.sharedSizeBytes, Blocks, Clusters, E == cudaSuccess ? "" : cudaGetErrorString(E));
  if (E != cudaSuccess)
    cudaGetLastError();
}

void device() {
  cudaDeviceProp P;
  cudaError_t E = cudaGetDeviceProperties(&P, 0);
  if (E != cudaSuccess) {
    fail(E, "cudaGetDeviceProperties");
    return;
  }
  int Driver = 0, Runtime = 0;
  cudaDriverGetVersion(&Driver);
  cudaRuntimeGetVersion(&Runtime);
  std::fprintf(Out,
               "{\"what\": \"device\", \"name\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, "
               "\"regs_per_sm\": %d, \"regs_per_block\": %d, \"smem_per_sm\": %zu, "
               "\"smem_per_block\": %zu, \"smem_per_block_optin\": %zu, "
               "\"reserved_smem_per_block\": %zu, \"max_threads_per_sm\": %d, "
               "\"max_blocks_per_sm\": %d, \"l2_bytes\": %d, \"driver\": %d, \"runtime\": %d}\n",
               P.name, P.major, P.minor, P.multiProcessorCount, P.regsPerMultiprocessor,
               P.regsPerBlock, P.sharedMemPerMultiprocessor, P.sharedMemPerBlock,
               P.sharedMemPerBlockOptin, P.reservedSharedMemPerBlock,
               P.maxThreadsPerMultiProcessor, P.maxBlocksPerMultiProcessor, P.l2CacheSize,
               Driver, Runtime);
}

} // namespace

int main(int Argc, char **Argv) {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::fprintf(stderr, "%s: no CUDA device\n", Argv[0]);
    return 1;
  }
  Out = Argc > 1 ? std::fopen(Argv[1], "w") : stdout;
  if (!Out)
    return 1;
  device();
  const int Sizes[] = {32, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1000, 1024};
  for (int T : Sizes) {
    blocksRow(regHeavy, "regHeavy", T, 0, -1, 0);
    blocksRow(light, "light", T, 0, -1, 0);
    blocksRow(staticSmem<12288>, "staticSmem<12288>", T, 0, -1, 0);
    blocksRow(staticSmem<40960>, "staticSmem<40960>", T, 0, -1, 0);
    if (T <= 256)
      blocksRow(bounded, "bounded", T, 0, -1, 0);
  }
  // Dynamic shared memory: within 48 KiB, and above it with the opt-in.
  const size_t Dyn[] = {0, 1024, 8192, 20000, 32768, 49152};
  for (size_t D : Dyn)
    for (int T : {128, 256, 512, 1024})
      blocksRow(dynamicSmem, "dynamicSmem", T, D, -1, 0);
  const size_t Big[] = {65536, 100000, 116736, 232448};
  for (size_t D : Big)
    for (int T : {128, 256})
      blocksRow(dynamicSmem, "dynamicSmem", T, D, -1, 232448);
  // The carveout: the shared-memory share the program prefers.
  for (int C : {0, 10, 25, 50, 75, 100})
    for (int T : {128, 256})
      blocksRow(staticSmem<12288>, "staticSmem<12288>", T, 0, C, 0);
  for (size_t D : {size_t(0), size_t(8192), size_t(40000)}) {
    potentialRow(regHeavy, "regHeavy", D);
    potentialRow(light, "light", D);
    potentialRow(dynamicSmem, "dynamicSmem", D);
  }
  potentialRow(staticSmem<12288>, "staticSmem<12288>", 0);
  potentialRow(staticSmem<40960>, "staticSmem<40960>", 0);
  // Clusters.
  for (int T : {128, 256, 512, 1024})
    for (int C : {1, 2, 4, 8})
      for (size_t D : {size_t(0), size_t(65536), size_t(116736)})
        clusterRow(T, C, D, false);
  for (int T : {128, 256, 1024})
    for (size_t D : {size_t(0), size_t(116736)})
      clusterRow(T, 16, D, true);
  if (Out != stdout)
    std::fclose(Out);
  return Failed ? 1 : 0;
}
