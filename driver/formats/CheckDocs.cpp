//===- CheckDocs.cpp - the check doc pages compiled in from docs/checks/ --===//
#include "driver/formats/Formats.h"

#include <algorithm>
#include <vector>

namespace warplint::driver {
namespace {

struct RawDoc {
  const char *Id;
  const char *Markdown;
};

const RawDoc RawDocs[] = {
#include "CheckDocs.inc"
    {nullptr, nullptr},
};

/// The first paragraph after the `# title` line, its lines joined by single spaces.
std::string firstParagraph(std::string_view Md) {
  std::string Out;
  bool SeenTitle = false;
  while (!Md.empty()) {
    size_t Eol = Md.find('\n');
    std::string_view Line = Md.substr(0, Eol);
    Md = Eol == std::string_view::npos ? std::string_view() : Md.substr(Eol + 1);
    while (!Line.empty() && (Line.back() == '\r' || Line.back() == ' '))
      Line.remove_suffix(1);
    if (!SeenTitle) {
      if (Line.substr(0, 2) == "# ")
        SeenTitle = true;
      continue;
    }
    if (Line.empty()) {
      if (!Out.empty())
        break;
      continue;
    }
    if (!Out.empty())
      Out += ' ';
    Out += Line;
  }
  return Out;
}

struct DocTable {
  std::vector<std::string> Summaries;
  std::vector<CheckDoc> Docs;
  DocTable() {
    for (const RawDoc *R = RawDocs; R->Id; ++R)
      Summaries.push_back(firstParagraph(R->Markdown));
    size_t I = 0;
    for (const RawDoc *R = RawDocs; R->Id; ++R, ++I)
      Docs.push_back({R->Id, Summaries[I], R->Markdown});
    std::sort(Docs.begin(), Docs.end(),
              [](const CheckDoc &A, const CheckDoc &B) { return A.Id < B.Id; });
  }
};

const DocTable &table() {
  static const DocTable T;
  return T;
}

} // namespace

const CheckDoc *findCheckDoc(std::string_view Id) {
  for (const CheckDoc &D : table().Docs)
    if (D.Id == Id)
      return &D;
  return nullptr;
}

const CheckDoc *checkDocsBegin() { return table().Docs.data(); }
const CheckDoc *checkDocsEnd() { return table().Docs.data() + table().Docs.size(); }

std::string checkDocUrl(std::string_view Id) {
  return std::string(WARPLINT_DOCS_URL) + std::string(Id) + ".md";
}

std::string projectUrl() {
  std::string Url = WARPLINT_DOCS_URL;
  for (std::string_view Tail : {"blob/main/docs/checks/", "docs/checks/"})
    if (Url.size() > Tail.size() && std::string_view(Url).substr(Url.size() - Tail.size()) == Tail)
      return Url.substr(0, Url.size() - Tail.size());
  return Url;
}

} // namespace warplint::driver
