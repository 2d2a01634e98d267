//===- Version.h - warplint's version string -------------------*- C++ -*-===//
#pragma once

namespace warplint {
/// The version of warplint, as "MAJOR.MINOR.PATCH".
const char *versionString();
/// The commit warplint was built from: `git describe --tags --always --dirty` of the
/// source tree when CMake configured it, or "unknown" (a source tree without git).
const char *commitString();
} // namespace warplint
