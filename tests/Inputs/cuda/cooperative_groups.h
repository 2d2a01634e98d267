// warplint's own minimal <cooperative_groups.h> for the checker tests: the group types and
// calls the sync checks know (declarations; the checks read names and types, not bodies).
#pragma once
#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long thread_rank() const;
};

class thread_block : public thread_group {
public:
  __device__ void sync() const;
  // Static, as CUDA's own header declares them: `cta.thread_rank()` calls a static member.
  static __device__ unsigned int thread_rank();
  static __device__ unsigned int size();
};

class grid_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long thread_rank() const;
};

class coalesced_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const;
  __device__ unsigned ballot(int pred) const;
};

template <unsigned Size> class thread_block_tile {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const { return Size; }
  __device__ unsigned long long meta_group_rank() const;
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_up(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned laneMask) const;
  __device__ unsigned ballot(int pred) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
};

template <typename T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
// cg::reduce(group, value, op): every thread of the group gets the group's result.
template <typename Group, typename T, typename Op> __device__ T reduce(const Group &, T, Op);

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size> __device__ thread_block_tile<Size> tiled_partition(const thread_block &);
__device__ void sync(const thread_block &);
__device__ void sync(const grid_group &);
template <unsigned Size> __device__ void sync(const thread_block_tile<Size> &);
// CUDA 9's spelling of g.sync().
__device__ void synchronize(const thread_block &);
__device__ void synchronize(const grid_group &);

} // namespace cooperative_groups
