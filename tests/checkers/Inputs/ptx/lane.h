__device__ __forceinline__ unsigned lane() {
  unsigned r;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(r));
  return r;
}
