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

/// PTX special registers named with one `%` in inline assembly strings (`asm("mov.u32 %0,
/// %laneid;" ...)`: nvcc hands the string to PTX as written, clang refuses the escape)
/// written `%%laneid`, as clang wants; the space just before it after an operand's comma
/// (`, %laneid`) is given up for the added `%`, so the line's columns stay (elsewhere the
/// `%` is added, and the rest of that line moves one column).
/// Only string literals inside `asm`/`__asm__` operands are touched. nullopt when nothing
/// changes.
std::optional<std::string> escapePtxSpecialRegisters(std::string_view Source);

/// An object-like macro whose body is a pragma, `#define PRAGMA_UNROLL #pragma unroll`
/// (moderngpu), written `_Pragma("unroll")`: nvcc's device pass reads the expansion as the
/// pragma, clang as a stray `#`. Only that line changes. nullopt when nothing changes.
std::optional<std::string> pragmaInMacroBodies(std::string_view Source);

/// The files of Under, each source file (not a binary: no NUL byte) read as nvcc reads it:
/// spaced chevrons joined (joinSpacedChevrons, size and columns unchanged), PTX special
/// registers escaped (escapePtxSpecialRegisters) and pragmas in macro bodies made
/// `_Pragma` (pragmaInMacroBodies), in the headers a file includes too
/// (xmrig-cuda's RandomX `hash.hpp`, included by five `.cu` files; tiny-cuda-nn's
/// `common_device.h`, included by nine).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
chevronJoiningFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Under);

} // namespace warplint::driver
