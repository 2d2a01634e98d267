// Branches and sync calls of launched kernels: tests/differential/check-one-answer.py
// holds each branch's figures (the JSON's branches, the finding's message, the report's
// kernel card) and each sync call's (the JSON's sync_calls, the finding, the card) against
// each other; tests/lsp/lsp-hover-records.py hovers on them.

// A lane-role split in every warp (a warning), behind a bounds guard (silent).
__global__ void split(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x % 32 < 8)
    a[i] = a[i] * 2.0f + 1.0f;
  else
    a[2 * i] = a[i] - 3.0f;
}

// A lane test against a parameter: a guard (silent, not evaluated).
__global__ void firstLanes(float *a, int m) {
  if (threadIdx.x % 32 < m)
    a[threadIdx.x] = a[threadIdx.x + 1] * 2.0f;
  else
    a[threadIdx.x + 64] = 0.0f;
}

// A barrier the last 28 threads of the block skip.
__global__ void tail(float *a) {
  __shared__ float s[128];
  s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < 100) {
    __syncthreads();
    a[threadIdx.x] = s[127 - threadIdx.x];
  }
}

// A full-mask shuffle half of each warp never reaches.
__global__ void halfWarp(float *a) {
  float v = a[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  a[threadIdx.x] = v;
}

// One condition at two places with the same figures: one finding with two places.
__global__ void twice(float *a) {
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x] += 1.0f;
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x + 128] += 1.0f;
}

// One warp in sixteen splits: a note.
__global__ void oneWarp(float *a) {
  if (threadIdx.x / 4 != 125)
    a[threadIdx.x] = a[threadIdx.x + 512] * 3.0f;
  else
    a[threadIdx.x + 1024] = 1.0f;
}

void launch(float *a, int n, int m) {
  split<<<(n + 255) / 256, 256>>>(a, n);
  split<<<(n + 95) / 96, 96>>>(a, n);
  firstLanes<<<1, 128>>>(a, m);
  tail<<<1, 128>>>(a);
  halfWarp<<<1, 64>>>(a);
  twice<<<1, 128>>>(a);
  oneWarp<<<1, 512>>>(a);
}
