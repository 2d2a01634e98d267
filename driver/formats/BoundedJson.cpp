//===- BoundedJson.cpp - llvm::json::parse behind a nesting-depth limit ---===//
#include "driver/formats/BoundedJson.h"

#include <fmt/format.h>

namespace warplint::driver {

std::string jsonNestingError(llvm::StringRef Text, unsigned MaxDepth) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I; // the escaped character, whatever it is
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return fmt::format("nesting deeper than {} levels at byte {}", MaxDepth, I + 1);
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return {};
}

llvm::Expected<llvm::json::Value> parseBoundedJson(llvm::StringRef Text, unsigned MaxDepth) {
  std::string Why = jsonNestingError(Text, MaxDepth);
  if (!Why.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  return llvm::json::parse(Text);
}

} // namespace warplint::driver
