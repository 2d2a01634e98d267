// warplint-data-race: a clamp written back (issue 23, fifteenth session: PhysX's
// sb_softbodyContactPrepareLaunch, where every thread reads tNumContacts =
// PxMin(maxContacts, *numContacts) and thread 0 of block 0 stores tNumContacts back). A
// reader that sees the old word and one that sees the new one compute the same clamp: a
// benign race (ReportBenign). A read of the word used any other way, a bound that varies
// by thread, or a store of another function of the word: still a race.
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %check_diags %s
// RUN: %clang_tidy --checks='-*,warplint-data-race' %s --config="{CheckOptions: {warplint-data-race.ReportBenign: true}}" -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --check-prefix=BENIGN %s

template <class T> __device__ T clampMin(T a, T b) { return a < b ? a : b; }

// Silent (benign with ReportBenign).
__global__ void clampBack(unsigned *numContacts, float *out, const unsigned maxContacts) {
  const unsigned tNum = clampMin(maxContacts, *numContacts);
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *numContacts = tNum;
  // BENIGN: :[[@LINE-1]]:5: warning: data race on global 'numContacts[0]': {{.*}}; the store writes back the clamp every reader computes from the word, so either order gives each thread the same value
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tNum)
    out[i] = 1.0f;
}

// The word read again after the store, raw: that read races. Reported.
__global__ void rawReadAfter(unsigned *numContacts, float *out, const unsigned maxContacts) {
  const unsigned tNum = clampMin(maxContacts, *numContacts);
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *numContacts = tNum;
  // BENIGN: :[[@LINE-1]]:5: warning: data race on global 'numContacts[0]': {{.*}}; the store writes back the clamp
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = float(*numContacts);
  // CHECK: :[[@LINE-1]]:18: warning: data race on global 'numContacts[0]': thread 0 writes it (*numContacts, line [[@LINE-4]]) and thread 32 reads it (*numContacts, line [[@LINE-1]])
  // BENIGN: :[[@LINE-2]]:18: warning: data race on global 'numContacts[0]': thread 0 writes it
}

// A store of another function of the word. Reported.
__global__ void sumBack(unsigned *numContacts, float *out, const unsigned extra) {
  const unsigned tNum = *numContacts + extra;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *numContacts = tNum;
  // CHECK: :[[@LINE-1]]:5: warning: data race on global 'numContacts[0]'
  // BENIGN: :[[@LINE-2]]:5: warning: data race on global 'numContacts[0]'
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tNum)
    out[i] = 1.0f;
}

// A bound that differs by thread: thread 5 stores min(5, old), which another thread
// clamps to a different value than its own min(t, old). Reported.
__global__ void threadBound(unsigned *numContacts, float *out) {
  const unsigned tNum = clampMin(unsigned(threadIdx.x), *numContacts);
  if (threadIdx.x == 5 && blockIdx.x == 0)
    *numContacts = tNum;
  // CHECK: :[[@LINE-1]]:5: warning: data race on global 'numContacts[0]'
  // BENIGN: :[[@LINE-2]]:5: warning: data race on global 'numContacts[0]'
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < tNum)
    out[i] = 1.0f;
}

void launchAll(unsigned *n, float *o, unsigned m) {
  clampBack<<<4, 256>>>(n, o, m);
  rawReadAfter<<<4, 256>>>(n, o, m);
  sumBack<<<4, 256>>>(n, o, m);
  threadBound<<<4, 256>>>(n, o);
}
