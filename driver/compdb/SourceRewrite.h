//===- SourceRewrite.h - token-level rewrites that give clang nvcc's program -*- C++ -*-===//
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <optional>
#include <string>
#include <string_view>

namespace warplint::driver {

/// Launch chevrons written with spaces, `k << < grid, block >> > (args)` (old
/// clang-format wrote them so; nvcc accepts them, clang does not), joined into `<<<` and
/// `>>>` with the spaces moved behind them, so every column stays where it was. Only a
/// `<<` followed by `<` opens a launch (no expression starts with `<`), and only the first
/// `>> >` before the argument list's `(` closes it: a template's `> >` is never touched.
/// Comments, string and character literals are skipped. nullopt when nothing changes.
std::optional<std::string> joinSpacedChevrons(std::string_view Source);

/// The files of Under, each source file (not a binary: no NUL byte) that launches with
/// spaced chevrons read joined (joinSpacedChevrons), its size and columns unchanged: the
/// headers a file includes launch as nvcc reads them too (xmrig-cuda's RandomX
/// `hash.hpp`, included by five `.cu` files).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
chevronJoiningFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Under);

} // namespace warplint::driver
