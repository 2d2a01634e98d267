// warplint-launch-config-invalid: thread block clusters (sm_90 on): at most 8 blocks, 16
// REQUIRES: cluster-dims-attribute
// with cudaFuncAttributeNonPortableClusterSizeAllowed, a grid that is a whole number of
// clusters, and no clusters before sm_90.
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s -- %cuda_device --cuda-gpu-arch=sm_90 2>&1 | %check_diags %s
// Before sm_90 (clang refuses __cluster_dims__ there; the launch attribute is ours).
// RUN: %clang_tidy --checks='-*,warplint-launch-config-invalid' %s -- %cuda_device --cuda-gpu-arch=sm_86 -DPRE_HOPPER 2>&1 | %FileCheck --check-prefix=SM86 %s --implicit-check-not='warning:'

__global__ void kernel(float *p) { p[threadIdx.x] = 0; }
__global__ void wide(float *p) { p[threadIdx.x] = 0; }

#ifndef PRE_HOPPER
__global__ void __cluster_dims__(2, 1, 1) paired(float *p) { p[threadIdx.x] = 0; }

void compileTimeClusters(float *p) {
  paired<<<64, 128>>>(p);
  paired<<<33, 128>>>(p);
  // CHECK: :[[@LINE-1]]:3: warning: grid 33 of 'paired' is not a multiple of its cluster __cluster_dims__(2, 1, 1): dimension x is 33, not a multiple of 2 (the launch fails) [warplint-launch-config-invalid]
  // CHECK: :[[@LINE-6]]:17: note: cluster of 'paired' declared here
}
#endif

void launchAttribute(float *p, int n) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 16;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kernel, p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'kernel' has a cluster of 16 blocks (clusterDim(16, 1, 1)), over the portable maximum of 8; up to 16 needs cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) [warplint-launch-config-invalid]
  // SM86: :[[@LINE-2]]:3: warning: launch of 'kernel' uses a thread block cluster (clusterDim(16, 1, 1)), which needs sm_90 or newer; sm_86 cannot launch it [warplint-launch-config-invalid]
}

void nonPortable(float *p) {
  cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 16;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, wide, p);
  // SM86: :[[@LINE-1]]:3: warning: launch of 'wide' uses a thread block cluster
}

void overHardware(float *p) {
  cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64, 4);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 8;
  attr[0].val.clusterDim.y = 4;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, wide, p);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'wide' has a cluster of 32 blocks (clusterDim(8, 4, 1)), over the hardware maximum of 16 [warplint-launch-config-invalid]
  // SM86: :[[@LINE-2]]:3: warning: launch of 'wide' uses a thread block cluster
}

void gridNotMultiple(float *p) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(10, 3);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 2;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kernel, p);
  // CHECK: :[[@LINE-1]]:3: warning: grid dim3(10,3) of 'kernel' is not a multiple of its cluster clusterDim(2, 2, 1): dimension y is 3, not a multiple of 2 (the launch fails) [warplint-launch-config-invalid]
  // SM86: :[[@LINE-2]]:3: warning: launch of 'kernel' uses a thread block cluster
}

void unknownCluster(float *p, int n) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = n;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kernel, p);
  // SM86: :[[@LINE-1]]:3: warning: launch of 'kernel' uses a thread block cluster (clusterDim(n, 1, 1))
}
