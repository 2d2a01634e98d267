//===- TrafficShare.h - an access's share of its kernel's memory traffic -*- C++ -*-===//
#pragma once

#include "checks/MemoryAccessReport.h"

#include <set>
#include <string>
#include <vector>

namespace clang::tidy::warplint {

/// Why a finding of one group of places overstates its weight by its share of the
/// kernel's accesses of one memory space, or "" when it does not: the places run fewer
/// times per thread than the kernel's most repeated access of that space and make under
/// MinShare (a fraction; 0: off) of the kernel's accesses of that space per thread, loops
/// counted by their trip counts (a constant count where the loop has one, or one the
/// values every launch passes give (Known: the kernel's TuModel values), 8 otherwise;
/// calls not followed). MinShareText is the option as given (a percentage), for the text.
/// Flagged: the kernel's other accesses the check flags; those in the places' innermost
/// loops (or, for places outside every loop, outside every loop too) count with the places:
/// a phase of several flagged accesses is weighed together. NeedsMain: the places are a
/// note only when a flagged access of the kernel runs more often than they do (the
/// kernel's main work has a finding of its own; the places are its edge).
std::string trafficShareDemotion(const std::vector<const AccessModel *> &Places,
                                 const FunctionDecl *Kernel, ASTContext &C, MemorySpace Space,
                                 double MinShare, const std::string &MinShareText,
                                 const std::set<const Expr *> &Flagged = {},
                                 bool NeedsMain = false, const ::warplint::KnownValues *Known = nullptr);

/// Why a finding of one group of places rests on lanes the data pick, or "" when it does
/// not: every place runs under an `==` of data loaded at a thread-dependent address with
/// another value (MemoryAccessSite::DataMatch; `if (col == row) v = vals[...]`, a search's
/// hit): the figures take every lane the rest of the path keeps, and how many match is
/// the data's.
std::string dataMatchDemotion(const std::vector<const AccessModel *> &Places, ASTContext &C);

} // namespace clang::tidy::warplint
