//===- ResultCache.h - a file's analysis, reused while nothing it read changed -*- C++ -*-===//
//
// An entry holds one translation unit's RunResult (findings, run messages, launch and
// kernel records) and the files the front end read for it, each with a digest of its
// contents. It is found by a key over everything else the result depends on (warplint's
// own binary, the compile command and directory, the effective clang-tidy options, the
// nvcc a register source would run, whether records are collected) and used only when
// every file still has the digest it had: exact invalidation, no timestamps. Entries are
// written atomically beside the register cache (CacheDir/results), each with a digest of
// its own contents: a damaged entry is removed and re-made, never trusted.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "driver/run/Findings.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warplint::driver {

/// The files a TU read: (absolute path, digest of the contents).
using FileDigests = std::vector<std::pair<std::string, std::string>>;

/// The digest recorded for warplint's own in-memory files (derived from the command and
/// from files that are in the list themselves): not checked on lookup.
inline constexpr const char *VirtualFileDigest = "virtual";

/// The digest warplint uses for a file's contents (XXH3-128, hex).
std::string contentDigest(std::string_view Contents);

/// The digest of an object file (a register source) without its debug sections,
/// "object:" + XXH3-128 over the other sections' names and contents: nvcc's objects of one
/// source differ from compile to compile only there (they name nvcc's tmpxft_<pid>
/// files), so a recompile keeps the digest while the code, and so the registers, stay the
/// same. contentDigest of the whole file when it is not an object LLVM reads.
std::string objectDigest(std::string_view Contents);

/// The key of a TU's result: SHA-256 over the parts, each length-prefixed.
std::string resultKey(const std::vector<std::string> &Parts);

/// The cached result of Key when every file it read still has its digest. An entry whose
/// own digest (stored with it, over its files and result) does not match, or that does
/// not parse, is damaged: it is removed, nullopt is returned and *Damaged says why.
std::optional<RunResult> lookupResult(const std::string &CacheDir, const std::string &Key,
                                      std::string *Damaged = nullptr);

/// Stores a result and its files (atomically; a failure to write is ignored: the cache
/// only saves time).
void storeResult(const std::string &CacheDir, const std::string &Key, const RunResult &Result,
                 const FileDigests &Files);

/// The JSON form of a result, and back (exposed for the tests: a round trip is the
/// identity).
std::string resultToJson(const RunResult &Result);
std::optional<RunResult> resultFromJson(std::string_view Text);

/// The same result as lines, one record a line (a tag letter, a space, the record's JSON
/// as resultToJson writes it): what a checking child sends its parent (run/Isolated.cpp).
/// Neither side builds a document of every record (llvm::json copies an array's values
/// each time it grows: 40,000 branch records of a generated file cost more there than
/// the records themselves), and FromCache and RegistersNotCached travel too. A round trip
/// is the identity; a line that does not read back, or a stream without its last line
/// ("e true"), gives nullopt.
std::string resultToLines(const RunResult &Result);
std::optional<RunResult> resultFromLines(std::string_view Text);

} // namespace warplint::driver
