//===- Version.h - warplint's version string -------------------*- C++ -*-===//
#pragma once

namespace warplint {
/// The version of warplint, as "MAJOR.MINOR.PATCH".
const char *versionString();
} // namespace warplint
