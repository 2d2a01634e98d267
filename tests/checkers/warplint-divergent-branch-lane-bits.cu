// warplint-divergent-branch: a lane's bit of a loaded word (seventeenth session, PhysX's
// markUpdatedPairsLaunch: `if ((mask & ~addedOrRemoved) & (1 << threadIndexInWarp))` with
// the words of changed-handle bitmaps). A flag per lane packed in a word is the data's
// choice of lanes, as `if (flag[lane])` is: silent unless ReportDataDependent, as that is.
// A constant word (`0xAAAAAAAA & (1 << lane)`) is a role fixed to lanes, not data.
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-divergent-branch' %s --config="{CheckOptions: {warplint-divergent-branch.ReportDataDependent: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefixes=DATA,CHECK %s

__global__ void markUpdated(const unsigned *changed, const unsigned *added, const float *in,
                            float *out, int n) {
  const unsigned lane = threadIdx.x & 31;
  for (unsigned h = threadIdx.x + blockIdx.x * blockDim.x; h < n; h += blockDim.x * gridDim.x) {
    const unsigned word = h / 32;
    const unsigned mask = changed[word] & ~added[word];
    if (mask & (1u << lane)) {
      // DATA: :[[@LINE-1]]:9: warning: branch in kernel 'markUpdated' depends on data: each lane tests its own bit of a word loaded from memory; it diverges where the bits differ between lanes
      float v = in[h] * 2.f + in[h + n];
      out[h] = v;
      out[h + n] = v * v;
    }
  }
}

__global__ void shiftedBits(const unsigned *bits, const float *in, float *out, int n) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned w = bits[i / 32];
  if (i < n && ((w >> lane) & 1u)) {
    // DATA: :[[@LINE-1]]:7: warning: branch in kernel 'shiftedBits' depends on data: each lane tests its own bit
    float v = in[i] * 2.f + in[i + n];
    out[i] = v;
    out[i + n] = v * v;
  }
}

__global__ void oddLanes(const float *in, float *out, int n) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  if (0xAAAAAAAAu & (1u << lane)) {
    // CHECK: :[[@LINE-1]]:7: remark: branch on 'lane' diverges in 8 of 8 warps of kernel 'oddLanes'
    // CHECK: :[[@LINE-2]]:7: note: a note, not a warning: the same lanes of each warp take the branch every time it runs
    float v = in[i] * 2.f + in[i + n];
    out[i] = v;
    out[i + n] = v * v;
  }
}

void run(const unsigned *c, const unsigned *a, const float *in, float *out) {
  markUpdated<<<64, 256>>>(c, a, in, out, 1 << 20);
  shiftedBits<<<4096, 256>>>(c, in, out, 1 << 20);
  oddLanes<<<4096, 256>>>(in, out, 1 << 20);
}
