// warplint-divergent-branch on a kernel with many unknown uniforms (ten parameters) and
// nested loops whose bounds are parameters, as in ggml's conv_transpose_1d: the sampled
// environments are thinned to a budget, and the stride test is still found to split
// warps for some strides (and none for others, one warp at a time: a note). (The cost is measured in bench/check, not here.)
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

__global__ void convTranspose1d(const int S0, const int P0, const int D0, const int OutputSize,
                                const int Src0Ne0, const int Src0Ne1, const int Src0Ne2,
                                const int Src1Ne0, const int Src1Ne1, const int DstNe0,
                                const int DstNe1, const float *Src0, const float *Src1,
                                float *Dst) {
  int Index = threadIdx.x + blockIdx.x * blockDim.x;
  if (Index >= OutputSize)
    return;
  int OutT = Index % DstNe0;
  int OutCh = (Index / DstNe0) % DstNe1;
  int Plane = Index / (DstNe0 * DstNe1);
  float Acc = 0;
  for (int C = 0; C < Src0Ne2; C++) {
    int KernelOffset = Src0Ne0 * (OutCh + Src0Ne1 * C);
    int InputOffset = Src1Ne0 * (C + Src1Ne1 * Plane);
    for (int K = 0; K < Src0Ne0; K++) {
      int Numer = OutT + P0 - K * D0;
      if (Numer < 0 || Numer % S0 != 0)
        continue;
      // CHECK: :[[@LINE-2]]:11: remark: branch on 'Numer' diverges in up to {{[0-9]+}} of {{[0-9]+}} warp executions of kernel 'convTranspose1d' (block 256x1x1, {{[0-9]+}} iterations); predicted branch efficiency {{[0-9]+}}% to {{[0-9]+}}%, depending on {{.*}}'S0' [warplint-divergent-branch]
      // The sampled sizes leave one warp at the stride test, and some split none: a note
      // since AFTER 8, as darknet's col2im gather (the same gather).
      // CHECK: :[[@LINE-5]]:11: note: a note, not a warning: whether it diverges depends on {{.*}}'S0', which no launch in this file passes: it splits one warp of the block
      int InputT = Numer / S0;
      Acc += Src0[KernelOffset + K] * Src1[InputOffset + InputT % Src1Ne0];
    }
  }
  Dst[Index] = Acc;
}

// The sizes are run-time values here (constants at the launch would be used as such).
void run(const float *A, const float *B, float *D, int S0, int N, const int *P) {
  convTranspose1d<<<(N + 255) / 256, 256>>>(S0, P[0], P[1], N, P[2], P[3], P[4], P[5], P[6],
                                            P[7], P[8], A, B, D);
}

// The loop runs zero times for the first samples of N (N = 1, 2, 3): those samples have
// nothing to evaluate, the others find the split.
__global__ void zeroTrips(float *Out, int N) {
  for (int K = 0; K < N - 3; ++K)
    if ((threadIdx.x + K) % 2)
      Out[K] = 0;
  // CHECK: :[[@LINE-2]]:9: warning: branch on 'threadIdx.x' diverges in {{.*}} of kernel 'zeroTrips' (block 128x1x1{{.*}}); predicted branch efficiency 0% [warplint-divergent-branch]
}

void runZero(float *Out, int N) { zeroTrips<<<1, 128>>>(Out, N); }
