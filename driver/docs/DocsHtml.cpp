//===- DocsHtml.cpp - docs/*.md as HTML pages, at build time --------------===//
//
// usage: warplint_docs_html SOURCE_DOCS_DIR OUT_DIR PAGE.md...
// Writes OUT_DIR/PAGE.html for each page: the Markdown that docs/ is written in
// (headings, paragraphs, lists with continuation lines, fenced code, tables, inline code,
// bold, italics and links; HTML comments dropped), with links to other pages' .md made
// .html. The report and SARIF link to these pages when no docs base URL is configured,
// so a browser shows a page instead of raw Markdown. Plain C++17: no LLVM.
//
//===----------------------------------------------------------------------===//
#include "driver/report/HtmlEscape.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using warplint::driver::htmlEscape;

/// A link target: another page's .md (with or without #anchor) becomes its .html.
std::string target(std::string T) {
  if (T.find("://") != std::string::npos)
    return T;
  size_t Hash = T.find('#');
  std::string Path = T.substr(0, Hash), Anchor = Hash == std::string::npos ? "" : T.substr(Hash);
  if (Path.size() > 3 && Path.compare(Path.size() - 3, 3, ".md") == 0)
    Path = Path.substr(0, Path.size() - 3) + ".html";
  return Path + Anchor;
}

/// Inline Markdown: `code`, **bold**, *italics*, [text](target).
std::string inlineHtml(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    if (S[I] == '`') {
      size_t Ticks = 0;
      while (I + Ticks < S.size() && S[I + Ticks] == '`')
        ++Ticks;
      size_t End = S.find(std::string(Ticks, '`'), I + Ticks);
      if (End != std::string::npos) {
        std::string Code = S.substr(I + Ticks, End - I - Ticks);
        if (Ticks > 1 && Code.size() >= 2 && Code.front() == ' ' && Code.back() == ' ')
          Code = Code.substr(1, Code.size() - 2);
        Out += "<code>" + htmlEscape(Code) + "</code>";
        I = End + Ticks;
        continue;
      }
    }
    if (S.compare(I, 2, "**") == 0) {
      size_t End = S.find("**", I + 2);
      if (End != std::string::npos && End > I + 2) {
        Out += "<strong>" + inlineHtml(S.substr(I + 2, End - I - 2)) + "</strong>";
        I = End + 2;
        continue;
      }
    }
    if (S[I] == '*' && I + 1 < S.size() && S[I + 1] != ' ') {
      size_t End = S.find('*', I + 1);
      if (End != std::string::npos && S[End - 1] != ' ') {
        Out += "<em>" + inlineHtml(S.substr(I + 1, End - I - 1)) + "</em>";
        I = End + 1;
        continue;
      }
    }
    if (S[I] == '[') {
      // The matching ], then (target).
      int Depth = 0;
      size_t Close = std::string::npos;
      for (size_t J = I; J < S.size(); ++J) {
        if (S[J] == '`') {
          size_t E = S.find('`', J + 1);
          if (E == std::string::npos)
            break;
          J = E;
          continue;
        }
        if (S[J] == '[')
          ++Depth;
        else if (S[J] == ']' && --Depth == 0) {
          Close = J;
          break;
        }
      }
      if (Close != std::string::npos && Close + 1 < S.size() && S[Close + 1] == '(') {
        size_t End = S.find(')', Close + 2);
        if (End != std::string::npos) {
          Out += "<a href=\"" + htmlEscape(target(S.substr(Close + 2, End - Close - 2))) + "\">" +
                 inlineHtml(S.substr(I + 1, Close - I - 1)) + "</a>";
          I = End + 1;
          continue;
        }
      }
    }
    if (S[I] == '\\' && I + 1 < S.size() && std::ispunct(static_cast<unsigned char>(S[I + 1]))) {
      Out += htmlEscape(std::string(1, S[I + 1]));
      I += 2;
      continue;
    }
    Out += htmlEscape(std::string(1, S[I]));
    ++I;
  }
  return Out;
}

/// GitHub's heading anchors: lower case, spaces to '-', other punctuation dropped.
std::string anchor(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if (std::isalnum(U) || C == '-' || C == '_')
      Out += static_cast<char>(std::tolower(U));
    else if (C == ' ')
      Out += '-';
  }
  return Out;
}

size_t indentOf(const std::string &L) {
  size_t N = 0;
  while (N < L.size() && L[N] == ' ')
    ++N;
  return N;
}

bool blank(const std::string &L) { return indentOf(L) == L.size(); }

/// A list item's marker length ("- ", "* ", "12. "), 0 when the line is not an item.
size_t itemMarker(const std::string &L, size_t At, bool &Ordered) {
  if (At + 1 < L.size() && (L[At] == '-' || L[At] == '*') && L[At + 1] == ' ') {
    Ordered = false;
    return 2;
  }
  size_t D = At;
  while (D < L.size() && std::isdigit(static_cast<unsigned char>(L[D])))
    ++D;
  if (D > At && D + 1 < L.size() && L[D] == '.' && L[D + 1] == ' ') {
    Ordered = true;
    return D + 2 - At;
  }
  return 0;
}

std::vector<std::string> cells(std::string Row) {
  std::vector<std::string> Out;
  size_t B = Row.find('|'), E = Row.rfind('|');
  if (B == std::string::npos || E <= B)
    return Out;
  Row = Row.substr(B + 1, E - B - 1);
  std::string Cur;
  bool InCode = false;
  for (size_t I = 0; I < Row.size(); ++I) {
    if (Row[I] == '`')
      InCode = !InCode;
    if (Row[I] == '\\' && I + 1 < Row.size() && Row[I + 1] == '|') {
      Cur += '|';
      ++I;
      continue;
    }
    if (Row[I] == '|' && !InCode) {
      Out.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += Row[I];
  }
  Out.push_back(Cur);
  for (std::string &C : Out) {
    size_t F = C.find_first_not_of(' '), L = C.find_last_not_of(' ');
    C = F == std::string::npos ? "" : C.substr(F, L - F + 1);
  }
  return Out;
}

/// Renders Lines (one block of the page, at one indent) into Out.
void blocks(const std::vector<std::string> &Lines, std::string &Out) {
  size_t I = 0;
  while (I < Lines.size()) {
    const std::string &L = Lines[I];
    size_t Ind = indentOf(L);
    if (blank(L)) {
      ++I;
      continue;
    }
    std::string T = L.substr(Ind);
    if (T.compare(0, 4, "<!--") == 0) { // comments: skipped to their end
      while (I < Lines.size() && Lines[I].find("-->") == std::string::npos)
        ++I;
      ++I;
      continue;
    }
    if (T.compare(0, 3, "```") == 0) {
      std::string Lang = T.substr(3);
      Out += Lang.empty() ? "<pre><code>"
                          : "<pre><code class=\"language-" + htmlEscape(Lang) + "\">";
      for (++I; I < Lines.size(); ++I) {
        std::string C = Lines[I];
        if (C.substr(indentOf(C)).compare(0, 3, "```") == 0)
          break;
        Out += htmlEscape(C.substr(std::min(Ind, indentOf(C)))) + "\n";
      }
      Out += "</code></pre>\n";
      ++I;
      continue;
    }
    if (T[0] == '#') {
      size_t Level = 0;
      while (Level < T.size() && T[Level] == '#')
        ++Level;
      std::string Text = T.substr(std::min(T.size(), Level + 1));
      Out += "<h" + std::to_string(Level) + " id=\"" + anchor(Text) + "\">" + inlineHtml(Text) +
             "</h" + std::to_string(Level) + ">\n";
      ++I;
      continue;
    }
    if (T[0] == '|') {
      Out += "<table>\n";
      bool Head = true;
      for (; I < Lines.size() && !blank(Lines[I]) && Lines[I][indentOf(Lines[I])] == '|'; ++I) {
        std::vector<std::string> Row = cells(Lines[I]);
        if (!Row.empty() && Row[0].find_first_not_of("-: ") == std::string::npos &&
            !Row[0].empty())
          continue; // the |---|---| line
        Out += "<tr>";
        for (const std::string &C : Row)
          Out += (Head ? "<th>" : "<td>") + inlineHtml(C) + (Head ? "</th>" : "</td>");
        Out += "</tr>\n";
        Head = false;
      }
      Out += "</table>\n";
      continue;
    }
    bool Ordered = false;
    if (itemMarker(L, Ind, Ordered)) {
      const bool ListOrdered = Ordered;
      Out += ListOrdered ? "<ol>\n" : "<ul>\n";
      while (I < Lines.size()) {
        bool O2 = false;
        size_t M = blank(Lines[I]) ? 0 : itemMarker(Lines[I], indentOf(Lines[I]), O2);
        if (!M || indentOf(Lines[I]) != Ind || O2 != ListOrdered)
          break;
        // The item: its first line after the marker, then the lines indented under it.
        size_t Body = Ind + M;
        std::vector<std::string> Item{std::string(Body, ' ') + Lines[I].substr(Body)};
        for (++I; I < Lines.size(); ++I) {
          if (blank(Lines[I])) {
            if (I + 1 < Lines.size() && !blank(Lines[I + 1]) && indentOf(Lines[I + 1]) > Ind) {
              Item.push_back("");
              continue;
            }
            break;
          }
          bool O3;
          if (indentOf(Lines[I]) <= Ind && itemMarker(Lines[I], indentOf(Lines[I]), O3))
            break;
          if (indentOf(Lines[I]) < Body && indentOf(Lines[I]) <= Ind)
            break;
          Item.push_back(Lines[I]);
        }
        std::string Inner;
        blocks(Item, Inner);
        // A one-paragraph item without its <p>.
        if (Inner.compare(0, 3, "<p>") == 0 && Inner.find("<p>", 3) == std::string::npos &&
            Inner.size() >= 5 && Inner.compare(Inner.size() - 5, 5, "</p>\n") == 0 &&
            Inner.find('\n') == Inner.size() - 1)
          Inner = Inner.substr(3, Inner.size() - 8);
        Out += "<li>" + Inner + "</li>\n";
        while (I < Lines.size() && blank(Lines[I]) && I + 1 < Lines.size() &&
               !blank(Lines[I + 1]) && indentOf(Lines[I + 1]) == Ind &&
               itemMarker(Lines[I + 1], Ind, O2))
          ++I;
      }
      Out += ListOrdered ? "</ol>\n" : "</ul>\n";
      continue;
    }
    // A paragraph: up to a blank line or the start of another block.
    std::string Text;
    for (; I < Lines.size() && !blank(Lines[I]); ++I) {
      std::string U = Lines[I].substr(indentOf(Lines[I]));
      bool O4;
      if (!Text.empty() && (U[0] == '#' || U.compare(0, 3, "```") == 0 || U[0] == '|' ||
                            U.compare(0, 4, "<!--") == 0 || itemMarker(U, 0, O4)))
        break;
      Text += (Text.empty() ? "" : "\n") + U;
    }
    Out += "<p>" + inlineHtml(Text) + "</p>\n";
  }
}

std::string page(const std::string &Md, const std::string &Title, const std::string &Css) {
  std::vector<std::string> Lines;
  std::istringstream In(Md);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  std::string Body;
  blocks(Lines, Body);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         htmlEscape(Title) + "</title>\n<style>\n" + Css + "</style>\n</head>\n<body>\n<main>\n" +
         Body + "</main>\n</body>\n</html>\n";
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::cerr << "usage: warplint_docs_html SOURCE_DOCS_DIR OUT_DIR PAGE.md...\n";
    return 2;
  }
  const std::string Src = Argv[1], Dst = Argv[2];
  const std::string Css =
      "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; "
      "line-height: 1.45; color: #1f2933; }\n"
      "code, pre { font-family: monospace; background: #f4f6f8; }\n"
      "pre { padding: 0.6em; overflow-x: auto; }\n"
      "table { border-collapse: collapse; }\n"
      "th, td { border: 1px solid #d9dee4; padding: 0.2em 0.5em; text-align: left; "
      "vertical-align: top; }\n";
  for (int I = 3; I < Argc; ++I) {
    std::string Rel = Argv[I];
    std::ifstream In(Src + "/" + Rel, std::ios::binary);
    if (!In) {
      std::cerr << "warplint_docs_html: cannot read " << Src << "/" << Rel << "\n";
      return 1;
    }
    std::stringstream Md;
    Md << In.rdbuf();
    std::string Text = Md.str();
    std::string Title = Rel;
    if (Text.compare(0, 2, "# ") == 0)
      Title = Text.substr(2, Text.find('\n') - 2);
    std::string Out = Dst + "/" + Rel.substr(0, Rel.size() - 3) + ".html";
    std::ofstream O(Out, std::ios::binary);
    if (!O) {
      std::cerr << "warplint_docs_html: cannot write " << Out << "\n";
      return 1;
    }
    O << page(Text, Title, Css);
  }
  return 0;
}
