// The diagnostics of a device-side parse as nvcc's device pass gives them.
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <vector>

namespace warplint::driver {

/// nvcc compiles a .cu file twice. Its device pass reads a host function's body but does
/// not hold its calls to the execution spaces: code like ccminer's
///
///     #if __CUDA_ARCH__ < 320
///     #define ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
///     #else
///     #define ROTR32(x, n) __funnelshift_r((x), (x), (n))
///     #endif
///     void cpu_hash(uint32_t *h) { h[0] = ROTR32(h[0], 7); }   // a host function
///
/// compiles with nvcc 13, since the host pass, the one that compiles cpu_hash, sees the
/// shifts. clang's device-side parse refuses the call: "no matching function for call to
/// '__funnelshift_r'", its one candidate "not viable: call to __device__ function from
/// __host__ function". The file then counts errors nvcc does not give, and where there are
/// more than -ferror-limit allows, clang stops and the whole file fails.
///
/// This consumer sits between clang and the tool's own and drops exactly those errors: an
/// overload resolution with no viable candidate (a call, a constructor, an operator, a
/// conversion) among whose candidates one fails only because a __host__ function would
/// call a __device__ or __global__ one (the others fail on their arguments in either
/// pass; none on another pair of spaces, such as a kernel calling a host function), with
/// its notes; and a host constructor's "must explicitly initialize the member m", m's
/// class with default constructors that are all __device__ only. InfiniTAM's ORUtils
/// makes its vector and matrix functions __device__ where __CUDA_ARCH__ is defined, host
/// ones elsewhere: its host code, in nvcc's host pass, calls host functions. Every other
/// diagnostic passes through, unchanged and in order. A dropped error does not count
/// against the error limit. For the device-side parse of a command nvcc compiles.
class NvccDevicePassFilter : public clang::DiagnosticConsumer {
public:
  /// Next receives what passes; ErrorLimit is the parse's -ferror-limit (0: none).
  NvccDevicePassFilter(clang::DiagnosticConsumer &Next, unsigned ErrorLimit)
      : Next(Next), ErrorLimit(ErrorLimit) {}

  void BeginSourceFile(const clang::LangOptions &LangOpts,
                       const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override {
    flush();
    Next.EndSourceFile();
  }
  void finish() override {
    flush();
    Next.finish();
  }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  /// The errors dropped so far.
  unsigned dropped() const { return Dropped; }

private:
  struct Held {
    clang::DiagnosticsEngine::Level Level;
    clang::SourceLocation Loc;
    unsigned ID;
    std::string Message;
    std::vector<clang::CharSourceRange> Ranges;
    std::vector<clang::FixItHint> FixIts;
  };
  /// Decides the held error: dropped with its notes when every note says a host function
  /// called a device one, else passed on as it came.
  void flush();
  void setLimit(unsigned Extra);

  clang::DiagnosticConsumer &Next;
  unsigned ErrorLimit;
  unsigned Dropped = 0;
  clang::DiagnosticsEngine *Engine = nullptr;
  std::vector<Held> Holding; ///< a candidate error and the notes after it
  bool OnlyHostToDevice = false; ///< no candidate of another wrong pair of spaces
  bool SawHostToDevice = false;  ///< a candidate a host function could not call (device)
};

} // namespace warplint::driver
