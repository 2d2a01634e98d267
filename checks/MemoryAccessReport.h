//===- MemoryAccessReport.h - what the two memory-access checks share -*- C++ -*-===//
#pragma once

#include "model/TuModel.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang::tidy::warplint {

/// A Severity option: "warning" or "note" (a clang remark, shown as a note by the driver),
/// and "none" where Off is allowed; nullopt for any other text.
std::optional<std::optional<DiagnosticIDs::Level>> parseSeverity(llvm::StringRef Text,
                                                                 bool AllowNone);

/// A ratio option (a number of at least 1); nullopt when not one.
std::optional<double> parseRatio(llvm::StringRef Text);

/// A ratio as an option or a message writes it: "2", "1.5".
std::string ratioText(double V);

/// "load", "store" or "load and store" (a compound assignment).
const char *accessVerb(const MemoryAccessSite &S);

/// The access as written ("in[i * 32]").
std::string accessText(const MemoryAccessSite &S, const ASTContext &Ctx);

/// "block 32x8x1" or "block 256x1x1 assumed", with the sampled unknowns of the quoted
/// warp ("n = 1000").
std::string shapeText(const AccessModel &A, const AccessShape &S, const WarpExecution &X);

/// The plural of a type's name in a message: "floats", "'Particle's".
std::string plural(const std::string &Type, int64_t N);

} // namespace clang::tidy::warplint
