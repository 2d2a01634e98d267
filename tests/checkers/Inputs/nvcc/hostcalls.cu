// A host function that calls a device function in nvcc's device pass only: a macro that
// __CUDA_ARCH__ chooses (ccminer's cuda_helper.h), used in CPU reference code. nvcc 13
// compiles this file; clang's device-side parse refuses each call in cpu_hash.
#include <stdint.h>

#if __CUDA_ARCH__ < 320
#define ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#else
#define ROTR32(x, n) __funnelshift_r((x), (x), (n))
#endif

__device__ __forceinline__ uint32_t swab32(uint32_t x) { return __byte_perm(x, x, 0x0123); }

// 24 refused calls: more than clang's error limit (20), which stopped the whole file.
void cpu_hash(uint32_t *h) {
  for (int i = 0; i < 4; i++) {
    h[0] = ROTR32(h[0] ^ h[4], 16); h[1] = ROTR32(h[1] ^ h[5], 12);
    h[2] = ROTR32(h[2] ^ h[6], 8);  h[3] = ROTR32(h[3] ^ h[7], 7);
    h[4] = ROTR32(h[4] ^ h[0], 16); h[5] = ROTR32(h[5] ^ h[1], 12);
    h[6] = ROTR32(h[6] ^ h[2], 8);  h[7] = ROTR32(h[7] ^ h[3], 7);
    h[8] = ROTR32(h[8] ^ h[4], 16); h[9] = ROTR32(h[9] ^ h[5], 12);
    h[10] = ROTR32(h[10] ^ h[6], 8); h[11] = ROTR32(h[11] ^ h[7], 7);
    h[12] = ROTR32(h[12] ^ h[8], 16); h[13] = ROTR32(h[13] ^ h[9], 12);
    h[14] = ROTR32(h[14] ^ h[10], 8); h[15] = ROTR32(h[15] ^ h[11], 7);
    h[16] = ROTR32(h[16] ^ h[12], 16); h[17] = ROTR32(h[17] ^ h[13], 12);
    h[18] = ROTR32(h[18] ^ h[14], 8); h[19] = ROTR32(h[19] ^ h[15], 7);
    h[20] = ROTR32(h[20] ^ h[16], 16); h[21] = ROTR32(h[21] ^ h[17], 12);
  }
#ifdef __CUDA_ARCH__
  h[22] = swab32(h[22]);
  h[23] = swab32(h[23]);
#endif
}

__global__ void hash_kernel(uint32_t *out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = swab32(ROTR32(out[i], 7));
}

void hash(uint32_t *d_out, uint32_t n) {
  uint32_t h[24] = {0};
  cpu_hash(h);
  hash_kernel<<<(n + 47) / 48, 48>>>(d_out, n);
}
