//===- Version.cpp - warplint's version string ----------------------------===//
#include "warplint/core/Version.h"
#include "WarplintCommit.h" // generated at build time (cmake/WriteCommit.cmake)

const char *warplint::versionString() { return WARPLINT_VERSION; }

const char *warplint::commitString() { return WARPLINT_COMMIT; }
