// A warp reduction in a header that two files include (llm.c's dev/cuda/common.h has
// one): each kernel that calls it after a bounds return has its own sync record and its
// own finding at the one place, and check-one-answer.py pairs them by kernel.
#pragma once
__device__ inline float warpSum(float V) {
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V += __shfl_xor_sync(0xffffffff, V, Offset);
  return V;
}
