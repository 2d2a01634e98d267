//===- OccupancyInput.cpp - one occupancy question and its JSON answer ----===//
#include "driver/commands/OccupancyInput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace warplint::driver {

using llvm::StringRef;

namespace {

std::string lowerAscii(StringRef S) { return S.lower(); }

void writeValue(llvm::json::OStream &J, const llvm::json::Value &V) {
  if (const llvm::json::Object *O = V.getAsObject()) {
    std::vector<StringRef> Keys;
    for (const auto &KV : *O)
      Keys.push_back(KV.first);
    llvm::sort(Keys);
    J.object([&] {
      for (StringRef K : Keys) {
        J.attributeBegin(K);
        writeValue(J, *O->get(K));
        J.attributeEnd();
      }
    });
  } else if (const llvm::json::Array *A = V.getAsArray()) {
    J.array([&] {
      for (const llvm::json::Value &E : *A)
        writeValue(J, E);
    });
  } else if (V.kind() == llvm::json::Value::Number && !V.getAsInteger() && !V.getAsUINT64()) {
    // JSON has no infinity: an input number too large for a double (1e400) echoes as null.
    double D = *V.getAsNumber();
    if (std::isfinite(D))
      J.rawValue(fmt::format("{:.6g}", D));
    else
      J.value(nullptr);
  } else {
    J.value(V);
  }
}

/// Text trimmed, or nullopt with Error set when it is negative ("--regs: '-1' is
/// negative"): a count or a size says so before saying what else is wrong.
std::optional<StringRef> notNegative(StringRef Text, StringRef What, std::string &Error) {
  StringRef T = Text.trim();
  if (!T.starts_with("-"))
    return T;
  Error = fmt::format("{}: '{}' is negative", What.str(), Text.str());
  return std::nullopt;
}

} // namespace

std::optional<int64_t> parseCount(StringRef Text, StringRef What, int64_t Max, std::string &Error) {
  std::optional<StringRef> T = notNegative(Text, What, Error);
  if (!T)
    return std::nullopt;
  unsigned long long V = 0;
  if (T->empty() || T->getAsInteger(10, V)) {
    Error = fmt::format("{}: '{}' is not a whole number", What.str(), Text.str());
    return std::nullopt;
  }
  if (V > static_cast<unsigned long long>(Max)) {
    Error = fmt::format("{}: {} is implausibly large (at most {})", What.str(), Text.str(), Max);
    return std::nullopt;
  }
  return static_cast<int64_t>(V);
}

std::optional<uint64_t> parseSize(StringRef Text, StringRef What, std::string &Error) {
  std::optional<StringRef> Trimmed = notNegative(Text, What, Error);
  if (!Trimmed)
    return std::nullopt;
  StringRef T = *Trimmed;
  size_t DigitsEnd = 0;
  while (DigitsEnd < T.size() && T[DigitsEnd] >= '0' && T[DigitsEnd] <= '9')
    ++DigitsEnd;
  StringRef Digits = T.substr(0, DigitsEnd);
  std::string Suffix = lowerAscii(T.substr(DigitsEnd).trim());
  uint64_t Scale = 0;
  if (Suffix.empty() || Suffix == "b")
    Scale = 1;
  else if (Suffix == "k" || Suffix == "kb" || Suffix == "kib")
    Scale = 1024;
  else if (Suffix == "m" || Suffix == "mb" || Suffix == "mib")
    Scale = 1024 * 1024;
  unsigned long long V = 0;
  if (Digits.empty() || !Scale || Digits.getAsInteger(10, V)) {
    Error =
        fmt::format("{}: '{}' is not a size (bytes, or with K/KiB/M/MiB)", What.str(), Text.str());
    return std::nullopt;
  }
  if (V > MaxPlausibleBytes / Scale) {
    Error = fmt::format("{}: {} is implausibly large (at most 1 GiB)", What.str(), Text.str());
    return std::nullopt;
  }
  return V * Scale;
}

std::optional<Dim3> parseBlock(StringRef Text, std::string &Error) {
  llvm::SmallVector<StringRef, 3> Parts;
  Text.split(Parts, 'x');
  if (Parts.size() > 3) {
    Error = fmt::format("--block: '{}' has more than three dimensions", Text.str());
    return std::nullopt;
  }
  int64_t D[3] = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    auto V = parseCount(Parts[I], "--block", MaxPlausibleThreads, Error);
    if (!V)
      return std::nullopt;
    if (*V == 0) {
      Error = fmt::format("--block: '{}' has a zero dimension", Text.str());
      return std::nullopt;
    }
    D[I] = *V;
  }
  if (D[0] * D[1] * D[2] > MaxPlausibleThreads) {
    Error = fmt::format("--block: {} threads is implausibly large", D[0] * D[1] * D[2]);
    return std::nullopt;
  }
  return Dim3{D[0], D[1], D[2]};
}

std::string checkVendorFields(const OccupancyConfig &C) {
  if (C.Arch->isAmd() && C.NvidiaOnlyField)
    return fmt::format("registers/opt-in/carveout/barriers are NVIDIA inputs; for {} use "
                       "vgprs, sgprs and lds",
                       C.Arch->Name);
  if (C.Arch->isNvidia() && C.AmdOnlyField)
    return fmt::format("vgprs/sgprs are AMD inputs; for {} use registers", C.Arch->Name);
  return {};
}

llvm::json::Array limitersJson(const OccupancyResult &R) {
  llvm::json::Array A;
  for (unsigned I = 0; I < NumResources; ++I)
    if (R.Limiters & (1u << I))
      A.push_back(resourceName(static_cast<Resource>(I)));
  return A;
}

void addResultFields(llvm::json::Object &O, const OccupancyResult &R) {
  O["blocks_per_sm"] = R.BlocksPerSm;
  O["active_warps"] = R.ActiveWarpsPerSm;
  O["max_warps"] = R.MaxWarpsPerSm;
  O["warps_per_block"] = R.WarpsPerBlock;
  O["occupancy"] = R.Occupancy;
  O["limiters"] = limitersJson(R);
  if (R.Failure) {
    O["error"] = R.Failure->Message;
    O["error_kind"] = failureKindName(R.Failure->Kind);
  }
}

void writeOccupancyJson(llvm::raw_ostream &OS, const llvm::json::Value &V) {
  llvm::json::OStream J(OS);
  writeValue(J, V);
}

} // namespace warplint::driver
