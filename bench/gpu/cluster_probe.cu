// Thread block clusters on the GPU at hand (docs/measuring.md, "Clusters"): what
// cudaOccupancyMaxActiveClusters answers for every cluster size 1..16 at 1 to 16 blocks per
// SM, and which SMs share a GPC, found by running clusters: the blocks of one cluster are
// always on one GPC, so SMs that ever hold blocks of one cluster are on the same GPC.
// Lines: {"what": "clusters", ...} per query, {"what": "cluster_blocks", "cluster": C,
// "launch": L, "sms": [[smid of each block of cluster 0], ...]} per launch.
// usage: cluster_probe OUT.jsonl
#include <cstdio>
#include <vector>

#include "common.cuh"

__global__ void probe(unsigned *Sm, int Spin) {
  extern __shared__ unsigned Pad[];
  unsigned Id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(Id));
  if (threadIdx.x == 0) {
    Pad[0] = Id;
    Sm[blockIdx.x] = Pad[0];
  }
  long long T0 = clock64();
  while (clock64() - T0 < Spin) {
  }
}

int main(int Argc, char **Argv) {
  std::FILE *Out = Argc > 1 ? std::fopen(Argv[1], "w") : stdout;
  int Devices = 0;
  if (!Out || cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::fprintf(stderr, "cluster_probe: no CUDA device\n");
    return 1;
  }
  int Sms = 0;
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncSetAttribute(probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  cudaFuncAttributes A;
  cudaFuncGetAttributes(&A, probe);
  // Blocks per SM from threads (warps) or dynamic shared memory.
  struct Shape {
    int Threads;
    int Dynamic;
  } Shapes[] = {{1024, 200 * 1024}, {1024, 0},      {512, 70 * 1024}, {512, 0},
                {256, 40 * 1024},   {256, 25 * 1024}, {256, 0},       {128, 0},
                {64, 0},            {32, 0}};
  for (const Shape &S : Shapes)
    for (int C = 1; C <= 16; ++C) {
      cudaLaunchAttribute Attr;
      cudaLaunchConfig_t Config = clusterConfig(C * 64, S.Threads, S.Dynamic, C, Attr);
      int Clusters = -1, Blocks = -1;
      cudaError_t E = cudaOccupancyMaxActiveClusters(&Clusters, probe, &Config);
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, probe, S.Threads, S.Dynamic);
      if (E != cudaSuccess)
        cudaGetLastError();
      std::fprintf(Out,
                   "{\"what\": \"clusters\", \"threads\": %d, \"dynamic_smem\": %d, "
                   "\"registers\": %d, \"static_smem\": %zu, \"cluster\": %d, "
                   "\"blocks_per_sm\": %d, \"max_active_clusters\": %d, \"error\": \"%s\"}\n",
                   S.Threads, S.Dynamic, A.numRegs, A.sharedSizeBytes, C, Blocks, Clusters,
                   E == cudaSuccess ? "" : cudaGetErrorString(E));
    }
  // Where clusters run: 1 block per SM (200 KiB of shared memory each), grids of 40
  // clusters' worth per GPU, each block spinning about 20 us.
  unsigned *Dev = nullptr;
  const int MaxGrid = 16 * 64;
  cudaMalloc(&Dev, MaxGrid * sizeof(unsigned));
  std::vector<unsigned> Host(MaxGrid);
  int Launch = 0;
  for (int C : {16, 8, 4, 2}) {
    for (int Rep = 0; Rep < 4; ++Rep) {
      int Grid = (MaxGrid / C) * C;
      cudaLaunchAttribute Attr;
      cudaLaunchConfig_t Config = clusterConfig(Grid, 128, 200 * 1024, C, Attr);
      cudaMemset(Dev, 0xff, MaxGrid * sizeof(unsigned));
      cudaError_t E = cudaLaunchKernelEx(&Config, probe, Dev, 40000 + 9000 * Rep);
      if (E == cudaSuccess)
        E = cudaDeviceSynchronize();
      if (E != cudaSuccess) {
        std::fprintf(stderr, "cluster_probe: cluster %d: %s\n", C, cudaGetErrorString(E));
        cudaGetLastError();
        continue;
      }
      cudaMemcpy(Host.data(), Dev, Grid * sizeof(unsigned), cudaMemcpyDeviceToHost);
      std::fprintf(Out, "{\"what\": \"cluster_blocks\", \"cluster\": %d, \"launch\": %d, \"sms\": [",
                   C, Launch++);
      for (int I = 0; I < Grid; I += C) {
        std::fprintf(Out, "%s[", I ? ", " : "");
        for (int J = 0; J < C; ++J)
          std::fprintf(Out, "%s%u", J ? ", " : "", Host[I + J]);
        std::fprintf(Out, "]");
      }
      std::fprintf(Out, "]}\n");
    }
  }
  cudaFree(Dev);
  std::fclose(Out);
  return 0;
}
