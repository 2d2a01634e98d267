//===- AmdgpuObjects.h - kernel resources from AMDGPU code objects -*- C++ -*-===//
//
// A HIP build's device code for AMD GPUs is an AMDGPU code object: an ELF image
// (EM_AMDGPU) whose NT_AMDGPU_METADATA note holds, as MessagePack, the same kernel map the
// device assembly prints as YAML (.name, .vgpr_count, .sgpr_count, .agpr_count,
// .group_segment_fixed_size, ...). clang wraps code objects in offload bundles
// (__CLANG_OFFLOAD_BUNDLE__, one entry per target; "CCOB" when compressed): the output of
// `--cuda-device-only -c`, and the .hip_fatbin section of a host object or executable of
// `hipcc -c` / `clang++ -x hip -c`. This reads all three.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "warplint/core/AmdgpuAsm.h"

#include "llvm/ADT/StringRef.h"

#include <deque>
#include <string>
#include <vector>

namespace warplint {

/// The kernels of one AMDGPU code object, from its metadata note; Target is the note's
/// amdhsa.target ("gfx90a"), else the ELF header's processor. BackendOccupancy stays
/// unset (the assembly's comment is not in the object). Error is set, and nothing
/// returned, for an image that is not a readable AMDGPU ELF, has no metadata note, or
/// whose note is not the expected MessagePack map.
std::vector<::warplint::AmdgpuKernel> readAmdgpuCodeObject(llvm::StringRef Image,
                                                           std::string &Error);

/// Whether \p Data starts like an AMDGPU ELF code object (ELF magic, EM_AMDGPU).
bool isAmdgpuCodeObject(llvm::StringRef Data);

/// Whether \p Data starts like a clang offload bundle, plain or compressed.
bool isOffloadBundle(llvm::StringRef Data);

/// One entry of an offload bundle: its target id ("hipv4-amdgcn-amd-amdhsa--gfx90a") and
/// contents (pointing into the bundle, or into Storage for a compressed one).
struct OffloadBundleEntry {
  std::string Id;
  llvm::StringRef Contents;
};

/// The entries of the offload bundles in \p Data (several may follow each other, as in a
/// linked executable's .hip_fatbin; zero padding between them is skipped). A compressed
/// bundle is decompressed into \p Storage (which must outlive the entries). Error is set
/// for a malformed bundle (entries read before it are kept).
std::vector<OffloadBundleEntry> readOffloadBundles(llvm::StringRef Data,
                                                   std::deque<std::string> &Storage,
                                                   std::string &Error);

} // namespace warplint
