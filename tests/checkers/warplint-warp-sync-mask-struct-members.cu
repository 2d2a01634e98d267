// warplint-warp-sync-mask: a thread's own struct written member by member, at any depth,
// through a reference parameter (issue 23, nineteenth session, from PhysX's
// PxsCachedTransform_ReadWarp: lanes 0-7 load the eight words of a transform, each member
// `res.transform.q.x = __shfl_sync(FULL_MASK, input, 0)` takes one lane's word, and the
// kernel tests `transf0.isValid()`). The struct holds what its members hold: broadcasts
// from fixed lanes make it the warp's, and a test on it splits no warp. A member given the
// lane's own word stays a warning.
// RUN: %clang_tidy --checks='-*,warplint-warp-sync-mask' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s

struct Vec {
  float x, y, z;
  __device__ bool isFinite() const { return x == x && y == y && z == z; }
};
struct Quat {
  float x, y, z, w;
  __device__ bool isUnit() const { return x * x + y * y + z * z + w * w > 0.99f; }
};
struct Xf {
  Quat q;
  Vec p;
  __device__ bool isValid() const { return p.isFinite() && q.isUnit(); }
};
struct Cached {
  Xf transform;
  int flags;
};

__device__ void readWarp(Cached &res, const Cached *ptr) {
  const unsigned lane = threadIdx.x & 31;
  float input;
  if (lane < 8)
    input = reinterpret_cast<const float *>(ptr)[lane];
  res.transform.q.x = __shfl_sync(0xffffffff, input, 0);
  res.transform.q.y = __shfl_sync(0xffffffff, input, 1);
  res.transform.q.z = __shfl_sync(0xffffffff, input, 2);
  res.transform.q.w = __shfl_sync(0xffffffff, input, 3);
  res.transform.p.x = __shfl_sync(0xffffffff, input, 4);
  res.transform.p.y = __shfl_sync(0xffffffff, input, 5);
  res.transform.p.z = __shfl_sync(0xffffffff, input, 6);
  res.flags = __shfl_sync(0xffffffff, int(input), 7);
}

// Every member broadcast: silent.
__global__ void broadcastTransform(const Cached *cache, const int *refs, float *out) {
  const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  Cached c0;
  readWarp(c0, cache + refs[w]);
  const Xf &t0 = c0.transform;
  if (t0.isValid()) {
    __syncwarp();
    out[threadIdx.x] = 1.f;
  }
}

// Twin: one member is the lane's own word.
__device__ void readOwn(Cached &res, const Cached *ptr) {
  const unsigned lane = threadIdx.x & 31;
  readWarp(res, ptr);
  res.transform.p.z = reinterpret_cast<const float *>(ptr)[lane];
}

__global__ void ownTransform(const Cached *cache, const int *refs, float *out) {
  const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  Cached c0;
  readOwn(c0, cache + refs[w]);
  const Xf &t0 = c0.transform;
  if (t0.isValid()) {
    __syncwarp();
    // CHECK: :[[@LINE-1]]:5: warning: mask 0xffffffff of '__syncwarp()' in kernel 'ownTransform'
    out[threadIdx.x] = 1.f;
  }
}

void launch(const Cached *c, const int *r, float *o) {
  broadcastTransform<<<64, 128>>>(c, r, o);
  ownTransform<<<64, 128>>>(c, r, o);
}
