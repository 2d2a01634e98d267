// Templates as nvcc 13 and g++ take them and clang 22 does not: a member template named
// after `typename` with no `template` keyword (C++23 makes the keyword optional there;
// BGHT's `typename std::allocator_traits<Allocator>::rebind_alloc<U>`), and a member
// template called with `template` and no argument list, its arguments deduced (CUB 1.x's
// `IterateThreadStore<0, N>::template Dereference(ptr, words)`).
#include <cuda_runtime.h>

template <class T> struct Pool {
  template <class U> using rebind = Pool<U>;
  T *base;
};

template <class A> struct Table {
  using Flags = typename A::rebind<bool>;
  Flags flags;
};

struct Store {
  template <class T> static __device__ void put(T *p, T v) { p[threadIdx.x] = v; }
};

template <class S> __global__ void fill(float *p) { S::template put(p, 1.0f); }

int run(float *p) {
  Table<Pool<int>> t;
  fill<Store><<<1, 48>>>(p);
  return sizeof(t);
}
