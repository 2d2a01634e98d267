//===- warplint/trace.cuh - per-block SM and timing records of a kernel launch -===//
//
// Header-only; compiles with nvcc and with clang (CUDA mode), and its host part (the
// record layout and the JSON-lines writer) with any C++11 compiler.
//
// In a kernel, first statement:
//
//   __global__ void scale(float *p, warplint::trace::Slots trace) {
//     WARPLINT_TRACE_BLOCK(trace);
//     ...
//   }
//
// On the host:
//
//   warplint::trace::Buffer buf;
//   warplint::trace::allocate(buf, grid);                 // one record per block, zeroed
//   scale<<<grid, block>>>(p, buf.slots());
//   warplint::trace::save(buf, "scale", stdout);          // JSON lines, one per block
//   warplint::trace::release(buf);
//
// Each block gets one record: its index, the SM it ran on (%smid), its start and its end
// in %globaltimer nanoseconds (one clock for the whole GPU, so blocks on different SMs can
// be compared) and in clock64() cycles (per SM: comparable only within one SM). `warplint
// timeline` draws them.
//
// The start is read by the block's first thread (linear index 0) when it constructs the
// guard. The end is the time the LAST thread of the block reached the end of the guard's
// scope (any return of the kernel): every thread adds itself to the block's one counter
// with an atomic, warp-aggregated (the lanes that leave together add their number with one
// atomicAdd from their first lane), and the lane whose addition completes the block's
// thread count reads the clocks and writes the end. A __syncthreads() in the destructor
// would be simpler and is wrong: threads that return at different statements would reach
// it at different barriers, which is undefined behaviour (a hang or a barrier that
// releases early), and a kernel may legitimately let threads return early. Cost per
// thread: one guard constructor (a compare, and for thread 0 two clock reads and four
// stores), one atomicAdd per converged group of lanes at exit; per block: one 56-byte
// record. A thread that leaves through `asm("exit;")` or a trap skips the destructor: its
// block's record stays incomplete and the writer leaves it out (and counts it).
//
//===----------------------------------------------------------------------------===//
#ifndef WARPLINT_TRACE_CUH
#define WARPLINT_TRACE_CUH

#include <cstddef>
#include <cstdio>

// Compiled as CUDA: nvcc defines __CUDACC__; clang defines __CUDA__ in CUDA mode (and
// __CUDACC__ only through the toolkit's wrapper headers, absent with -nocudainc).
#if defined(__CUDACC__) || defined(__CUDA__)
#define WARPLINT_TRACE_CUDA 1
#endif

namespace warplint {
namespace trace {

/// One block's record (56 bytes). Zeroed before the launch; Finished counts the threads
/// that have left the guard's scope, Threads is the block's size (written at the start).
struct BlockRecord {
  unsigned long long StartNs;    ///< %globaltimer at the start, ns
  unsigned long long EndNs;      ///< %globaltimer when the last thread finished, ns
  unsigned long long StartClock; ///< clock64() at the start, cycles of that SM
  unsigned long long EndClock;   ///< clock64() at the end, cycles of that SM
  unsigned Block[3];             ///< blockIdx
  unsigned Sm;                   ///< %smid
  unsigned Threads;              ///< blockDim.x * blockDim.y * blockDim.z
  unsigned Finished;             ///< threads finished (the block's atomic counter)
};

/// What the kernel gets: where the records are, and how many there are.
struct Slots {
  BlockRecord *Records;
  unsigned long long Count;
};

/// Records a launch of `GridX * GridY * GridZ` blocks needs: one per block.
inline unsigned long long recordsFor(unsigned GridX, unsigned GridY = 1, unsigned GridZ = 1) {
  return static_cast<unsigned long long>(GridX) * GridY * GridZ;
}

namespace detail {

inline void writeJsonString(std::FILE *Out, const char *S) {
  std::fputc('"', Out);
  for (; *S; ++S) {
    unsigned char C = static_cast<unsigned char>(*S);
    if (C == '"' || C == '\\')
      std::fprintf(Out, "\\%c", C);
    else if (C < 0x20)
      std::fprintf(Out, "\\u%04x", C);
    else
      std::fputc(C, Out);
  }
  std::fputc('"', Out);
}

} // namespace detail

/// What writeJsonLines did: lines written, records left out because their block never
/// started (Finished 0: the grid was smaller than the buffer, or the launch failed) or
/// did not finish (fewer threads finished than the block has: a thread left through
/// exit/trap, or the launch was aborted).
struct WriteResult {
  unsigned long long Written;
  unsigned long long NotStarted;
  unsigned long long Incomplete;
};

/// Writes one JSON object per complete record, on its own line:
///   {"kernel": "scale", "launch": 0, "block": [3, 0, 0], "sm": 7, "start_ns": ...,
///    "end_ns": ..., "start_clock": ..., "end_clock": ...}
/// `Launch` tells apart several launches traced into one file.
inline WriteResult writeJsonLines(std::FILE *Out, const char *Kernel, const BlockRecord *Records,
                                  unsigned long long Count, unsigned Launch = 0) {
  WriteResult R = {0, 0, 0};
  for (unsigned long long I = 0; I < Count; ++I) {
    const BlockRecord &B = Records[I];
    if (B.Finished == 0) {
      ++R.NotStarted;
      continue;
    }
    if (B.Threads == 0 || B.Finished != B.Threads) {
      ++R.Incomplete;
      continue;
    }
    std::fputs("{\"kernel\": ", Out);
    detail::writeJsonString(Out, Kernel);
    std::fprintf(Out,
                 ", \"launch\": %u, \"block\": [%u, %u, %u], \"sm\": %u, \"start_ns\": %llu, "
                 "\"end_ns\": %llu, \"start_clock\": %llu, \"end_clock\": %llu}\n",
                 Launch, B.Block[0], B.Block[1], B.Block[2], B.Sm, B.StartNs, B.EndNs, B.StartClock,
                 B.EndClock);
    ++R.Written;
  }
  return R;
}

#if defined(WARPLINT_TRACE_CUDA)

/// The guard: construct it first thing in the kernel (WARPLINT_TRACE_BLOCK). Not copyable.
class BlockGuard {
public:
  __device__ explicit BlockGuard(Slots S) : Record(nullptr) {
    unsigned long long Index =
        blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                         (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    if (S.Records == nullptr || Index >= S.Count)
      return; // a buffer sized for a smaller grid: this block is not traced
    Record = S.Records + Index;
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      Record->StartNs = globalTimer();
      Record->StartClock = static_cast<unsigned long long>(clock64());
      Record->Block[0] = blockIdx.x;
      Record->Block[1] = blockIdx.y;
      Record->Block[2] = blockIdx.z;
      Record->Sm = smId();
      Record->Threads = blockDim.x * blockDim.y * blockDim.z;
    }
  }

  __device__ ~BlockGuard() {
    if (Record == nullptr)
      return;
    // The lanes leaving together add themselves with one atomic from their first lane.
    unsigned Mask = __activemask();
    unsigned Lane = laneId();
    unsigned Leader = static_cast<unsigned>(__ffs(static_cast<int>(Mask))) - 1;
    if (Lane != Leader)
      return;
    unsigned Group = static_cast<unsigned>(__popc(static_cast<int>(Mask)));
    unsigned BlockThreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned Before = atomicAdd(&Record->Finished, Group);
    if (Before + Group == BlockThreads) {
      // The last group of the block: every other thread has finished.
      Record->EndClock = static_cast<unsigned long long>(clock64());
      Record->EndNs = globalTimer();
    }
  }

  BlockGuard(const BlockGuard &) = delete;
  BlockGuard &operator=(const BlockGuard &) = delete;

  /// %globaltimer: nanoseconds, one clock for the whole GPU. `%%` in the asm string is
  /// the spelling nvcc and clang both take for a register name in an asm with operands.
  static __device__ unsigned long long globalTimer() {
    unsigned long long T;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
    return T;
  }
  /// %smid: the SM this thread runs on.
  static __device__ unsigned smId() {
    unsigned Id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(Id));
    return Id;
  }
  /// %laneid: the lane of this thread in its warp.
  static __device__ unsigned laneId() {
    unsigned Id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(Id));
    return Id;
  }

private:
  BlockRecord *Record;
};

#endif // WARPLINT_TRACE_CUDA

#if defined(WARPLINT_TRACE_CUDA) || defined(CUDART_VERSION)

/// The device buffer of one traced launch and its host copy's size.
struct Buffer {
  BlockRecord *Device;
  unsigned long long Count;
  Slots slots() const {
    Slots S = {Device, Count};
    return S;
  }
};

/// Allocates and zeroes one record per block of `Grid`. cudaSuccess, or the CUDA error.
inline cudaError_t allocate(Buffer &B, dim3 Grid) {
  B.Device = nullptr;
  B.Count = recordsFor(Grid.x, Grid.y, Grid.z);
  size_t Bytes = static_cast<size_t>(B.Count) * sizeof(BlockRecord);
  cudaError_t E = cudaMalloc(reinterpret_cast<void **>(&B.Device), Bytes);
  if (E != cudaSuccess)
    return E;
  return cudaMemset(B.Device, 0, Bytes);
}

/// Zeroes the records again, to trace another launch into the same buffer.
inline cudaError_t reset(Buffer &B) {
  return cudaMemset(B.Device, 0, static_cast<size_t>(B.Count) * sizeof(BlockRecord));
}

/// Waits for the device, copies the records back and writes them as JSON lines. On a CUDA
/// error nothing is written and the error is returned in *Error (when given).
inline WriteResult save(const Buffer &B, const char *Kernel, std::FILE *Out, unsigned Launch = 0,
                        cudaError_t *Error = nullptr) {
  WriteResult R = {0, 0, 0};
  cudaError_t E = cudaDeviceSynchronize();
  BlockRecord *Host = nullptr;
  if (E == cudaSuccess) {
    Host = new BlockRecord[B.Count];
    E = cudaMemcpy(Host, B.Device, static_cast<size_t>(B.Count) * sizeof(BlockRecord),
                   cudaMemcpyDeviceToHost);
  }
  if (E == cudaSuccess)
    R = writeJsonLines(Out, Kernel, Host, B.Count, Launch);
  delete[] Host;
  if (Error)
    *Error = E;
  return R;
}

inline void release(Buffer &B) {
  cudaFree(B.Device);
  B.Device = nullptr;
  B.Count = 0;
}

#endif // WARPLINT_TRACE_CUDA || CUDART_VERSION

} // namespace trace
} // namespace warplint

#if defined(WARPLINT_TRACE_CUDA)
/// Traces the enclosing kernel's block into `slots` (a warplint::trace::Slots).
#define WARPLINT_TRACE_BLOCK(slots) ::warplint::trace::BlockGuard warplint_trace_guard_(slots)
#endif

#endif // WARPLINT_TRACE_CUH
