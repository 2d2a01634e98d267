//===- Version.cpp - warplint's version string ----------------------------===//
#include "warplint/core/Version.h"
// The commit, generated at build time (cmake/WriteCommit.cmake); a build outside CMake's
// (the fuzzers' script) defines it on its command line.
#ifndef WARPLINT_COMMIT
#include "WarplintCommit.h"
#endif

const char *warplint::versionString() { return WARPLINT_VERSION; }

const char *warplint::commitString() { return WARPLINT_COMMIT; }
