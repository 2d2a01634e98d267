// Helpers the bench/gpu programs share: the median time of a launch over repetitions, and
// a launch configuration with a thread block cluster.
#ifndef WARPLINT_BENCH_GPU_COMMON_CUH
#define WARPLINT_BENCH_GPU_COMMON_CUH

#include <algorithm>
#include <vector>

/// Times Launch() with CUDA events Reps times (after one untimed call), Prepare() before
/// each, outside the timed window; the milliseconds of each in All when given, the median
/// returned (-1 when the device failed).
template <typename P, typename F>
float medianMs(int Reps, P Prepare, F Launch, std::vector<float> *All = nullptr) {
  cudaEvent_t A, B;
  cudaEventCreate(&A);
  cudaEventCreate(&B);
  Prepare();
  Launch();
  std::vector<float> Ms;
  for (int R = 0; R < Reps; ++R) {
    Prepare();
    cudaEventRecord(A);
    Launch();
    cudaEventRecord(B);
    if (cudaEventSynchronize(B) != cudaSuccess)
      break;
    float T = 0;
    cudaEventElapsedTime(&T, A, B);
    Ms.push_back(T);
  }
  cudaEventDestroy(A);
  cudaEventDestroy(B);
  if (All)
    *All = Ms;
  if (Ms.empty())
    return -1;
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}

/// A 1-D launch of Grid blocks of Threads with Dynamic bytes of shared memory, in clusters
/// of Cluster blocks along x (Attr holds the cluster attribute the configuration points to).
inline cudaLaunchConfig_t clusterConfig(unsigned Grid, int Threads, size_t Dynamic, int Cluster,
                                        cudaLaunchAttribute &Attr) {
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Grid);
  Config.blockDim = dim3(Threads);
  Config.dynamicSmemBytes = Dynamic;
  Attr.id = cudaLaunchAttributeClusterDimension;
  Attr.val.clusterDim.x = Cluster;
  Attr.val.clusterDim.y = 1;
  Attr.val.clusterDim.z = 1;
  Config.attrs = &Attr;
  Config.numAttrs = 1;
  return Config;
}

#endif
