//===- HtmlEscape.h - the one HTML escaper of the report and the doc pages -*- C++ -*-===//
//
// Plain C++17 and header-only: the doc pages' renderer (driver/docs/DocsHtml.cpp, built
// without LLVM) and the report share it.
//
//===----------------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace warplint::driver {

/// Escapes & < > " ' for HTML text and attribute values.
inline std::string htmlEscape(std::string_view S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace warplint::driver
