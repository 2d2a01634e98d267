#!/usr/bin/env python3
"""Writes a CUDA file of K kernels with A shared accesses each in one barrier interval.

Each kernel fills two shared arrays, then, between the same two barriers, makes A/2
updates of the thread's own words of `s` and A/2 reads of `r` at other threads' words
(no race: `r` is not written in that interval), launched with 256-thread blocks.
The race check compares every access of an object with every other one in the interval
through one hash map of bytes per environment, so its cost should grow linearly in A.

  python3 bench/race/gen.py --kernels 20 --accesses 50 > /tmp/race50.cu
"""
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--kernels", type=int, default=20)
ap.add_argument("--accesses", type=int, default=50)
a = ap.parse_args()
out = []
for k in range(a.kernels):
    out.append(f"__global__ void k{k}(float *out, const float *in) {{")
    out.append("  __shared__ float s[1024];")
    out.append("  __shared__ float r[256];")
    out.append("  unsigned t = threadIdx.x;")
    out.append("  r[t] = in[blockIdx.x * blockDim.x + t];")
    out.append("  for (int q = 0; q < 4; ++q)")
    out.append("    s[t + 256 * q] = 0.f;")
    out.append("  __syncthreads();")
    out.append("  float acc = 0.f;")
    for j in range(a.accesses // 2):
        out.append(f"  s[t + 256 * {j % 4}] += {j}.f;")
        out.append(f"  acc += r[(t + {j * 7 + 1}) % 256];")
    out.append("  __syncthreads();")
    out.append("  out[blockIdx.x * blockDim.x + t] = acc + s[t];")
    out.append("}")
out.append("void launchAll(float *o, const float *i) {")
for k in range(a.kernels):
    out.append(f"  k{k}<<<64, 256>>>(o, i);")
out.append("}")
print("\n".join(out))
