// warplint-occupancy and warplint-occupancy-cliff: the kernels one launch site launches
// with the same figures (a template's instantiations that use the same shared memory and
// registers) are one finding, the others named in a note; an instantiation whose figures
// differ keeps a finding of its own.
// RUN: %clang_tidy --checks='-*,warplint-occupancy' %s -- %cuda_device --cuda-gpu-arch=sm_86 2>&1 | %FileCheck --implicit-check-not='{{warning|remark}}:' %s
// RUN: %clang_tidy --checks='-*,warplint-occupancy-cliff' %s --config="{CheckOptions: {warplint.PtxasLog: '%S/Inputs/occupancy/warplint-occupancy-same-figures.log'}}" -- %cuda_device --cuda-gpu-arch=sm_80 2>&1 | %FileCheck --check-prefix=CLIFF --implicit-check-not='{{warning|remark}}:' %s

template <class T, int Tile> __global__ void tiled(T *p) {
  __shared__ T tile[Tile]; // 48000 bytes of floats or ints: 2 blocks of 256 threads per SM on sm_86
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[255 - threadIdx.x];
}

template <class T, int Tile> void launchTiled(T *p) {
  tiled<T, Tile><<<64, 256>>>(p);
}

// 34 registers (the ptxas log) with 256-thread blocks on sm_80: 6 blocks/SM (75%); at 32,
// 8 blocks (100%). The unsigned instance uses 41: 5 blocks, a cliff of its own at 40.
template <class T> __global__ void regs(T *p) { p[threadIdx.x] += T(1); }
template <class T> void launchRegs(T *p) { regs<T><<<64, 256>>>(p); }

void run(float *f, int *i, unsigned *u) {
  launchRegs(f);
  launchRegs(i);
  launchRegs(u);
  launchTiled<float, 12000>(f);
  launchTiled<int, 12000>(i);
  launchTiled<unsigned, 12000>(u);
  launchTiled<float, 6000>(f); // 24000 bytes: 4 blocks, 66.7%: no finding
  launchTiled<int, 11000>(i);  // 44000 bytes: the same 2 blocks, the same figures
}
// CHECK: :[[TILED:16]]:3: warning: occupancy at most 33.3% for 'tiled<float, 12000>' on sm_86: at most 16 of 48 warps per SM with 256-thread blocks, below the 50% minimum; registers unknown, shared memory allows no more [warplint-occupancy]
// CHECK: :[[TILED]]:3: note: the same figures for 2 more kernels launched here: 'tiled<int, 12000>' and 'tiled<unsigned int, 12000>'
// CHECK: :[[TILED]]:3: warning: occupancy at most 33.3% for 'tiled<int, 11000>' on sm_86
// CLIFF: :[[REGS:22]]:44: warning: 'regs<float>' on sm_80 is 2 registers past an occupancy cliff: 34 registers/thread allow 6 blocks/SM (75%) with 256-thread blocks; at 32 it keeps 8 blocks/SM (100%) [warplint-occupancy-cliff]
// CLIFF: :[[REGS]]:44: note: the same figures for 1 more kernel launched here: 'regs<int>'
// CLIFF: :[[REGS]]:44: warning: 'regs<unsigned int>' on sm_80 is
