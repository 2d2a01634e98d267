//===- BoundedJson.h - llvm::json::parse behind a nesting-depth limit -*- C++ -*-===//
//
// llvm::json::parse recurses once per nested array or object, so a line of 100000 '['
// overflows the stack. Every JSON reader of the driver (occupancy --batch lines, SARIF
// logs, compile_commands.json) parses through parseBoundedJson, which scans the depth
// first (skipping strings) and refuses what nests deeper than any real input does.
// jsonArray is the one loop the JSON format and the result cache write record lists with.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace warplint::driver {

/// The deepest nesting of arrays and objects accepted (a SARIF log nests about 10).
constexpr unsigned MaxJsonNesting = 256;

/// Empty when no array or object in Text nests deeper than MaxDepth (brackets inside
/// strings do not count), else why: "nesting deeper than 256 levels at byte 257".
std::string jsonNestingError(llvm::StringRef Text, unsigned MaxDepth = MaxJsonNesting);

/// llvm::json::parse, after jsonNestingError has found nothing.
llvm::Expected<llvm::json::Value> parseBoundedJson(llvm::StringRef Text,
                                                   unsigned MaxDepth = MaxJsonNesting);

/// The JSON array of Write(R, Extra...) for each R of Records: every record list of the
/// JSON format and of the result cache's entries is written through it (its readers
/// through resultFromJson's Records).
template <typename T, typename WriteFn, typename... ExtraArgs>
llvm::json::Array jsonArray(const std::vector<T> &Records, WriteFn Write,
                            const ExtraArgs &...Extra) {
  llvm::json::Array A;
  A.reserve(Records.size());
  for (const T &R : Records)
    A.push_back(Write(R, Extra...));
  return A;
}

} // namespace warplint::driver
