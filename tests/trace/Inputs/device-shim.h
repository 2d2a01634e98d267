// The device functions warplint/trace.cuh calls, for a device-only compile against
// warplint's mock CUDA header (tests/Inputs/cuda, no toolkit): each through a clang NVPTX
// builtin or one PTX instruction, so CI machines without CUDA still compile the header's
// inline assembly with clang (tests/trace/trace-compile.sh mock).
#pragma once

__device__ inline long long clock64() { return __nvvm_read_ptx_sreg_clock64(); }
__device__ inline unsigned __activemask() {
  unsigned Mask;
  asm volatile("activemask.b32 %0;" : "=r"(Mask));
  return Mask;
}
__device__ inline int __ffs(int X) { return __builtin_ffs(X); }
__device__ inline int __popc(unsigned X) { return __builtin_popcount(X); }
__device__ inline unsigned atomicAdd(unsigned *P, unsigned V) {
  return static_cast<unsigned>(__nvvm_atom_add_gen_i(reinterpret_cast<int *>(P), static_cast<int>(V)));
}
__host__ cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count);
