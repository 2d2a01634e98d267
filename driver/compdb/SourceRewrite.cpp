//===- SourceRewrite.cpp - token-level rewrites that give clang nvcc's program ===//
#include "driver/compdb/SourceRewrite.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cctype>
#include <cstring>
#include <set>

namespace warplint::driver {
namespace {

bool isSpace(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; }

/// The index just past the comment or literal starting at I, or I when none starts there.
size_t skipNonCode(std::string_view S, size_t I) {
  if (S.compare(I, 2, "//") == 0) {
    size_t E = S.find('\n', I);
    return E == std::string_view::npos ? S.size() : E;
  }
  if (S.compare(I, 2, "/*") == 0) {
    size_t E = S.find("*/", I + 2);
    return E == std::string_view::npos ? S.size() : E + 2;
  }
  if (S[I] == '"' || S[I] == '\'') {
    char Q = S[I];
    size_t J = I + 1;
    while (J < S.size() && S[J] != Q && S[J] != '\n')
      J += S[J] == '\\' ? 2 : 1;
    return std::min(J + 1, S.size());
  }
  return I;
}

/// At I: `A` + spaces + `B` (A, B two- and one-character strings); the index of B or npos.
size_t spacedPair(std::string_view S, size_t I, std::string_view A, char B) {
  if (S.compare(I, A.size(), A) != 0)
    return std::string_view::npos;
  size_t J = I + A.size();
  if (J >= S.size() || !isSpace(S[J]))
    return std::string_view::npos;
  while (J < S.size() && isSpace(S[J]))
    ++J;
  return J < S.size() && S[J] == B ? J : std::string_view::npos;
}

/// Moves the character at B to just after the two at I, the spaces behind it.
void join(std::string &Out, size_t I, size_t B) {
  char C = Out[B];
  for (size_t K = B; K > I + 2; --K)
    Out[K] = Out[K - 1];
  Out[I + 2] = C;
}

} // namespace

std::optional<std::string> joinSpacedChevrons(std::string_view Source) {
  std::string Out(Source);
  bool Changed = false;
  for (size_t I = 0; I < Out.size();) {
    size_t Skip = skipNonCode(Out, I);
    if (Skip != I) {
      I = Skip;
      continue;
    }
    size_t B = spacedPair(Out, I, "<<", '<');
    if (B == std::string_view::npos || (B + 1 < Out.size() && (Out[B + 1] == '<' || Out[B + 1] == '='))) {
      ++I;
      continue;
    }
    // The closer: the first `>>>` or `>> >` followed by `(`, outside comments and literals.
    size_t Close = std::string_view::npos, CloseB = 0;
    for (size_t J = B + 1; J < Out.size();) {
      size_t SkipJ = skipNonCode(Out, J);
      if (SkipJ != J) {
        J = SkipJ;
        continue;
      }
      if (Out.compare(J, 3, ">>>") == 0)
        break; // already joined
      size_t CB = spacedPair(Out, J, ">>", '>');
      if (CB != std::string_view::npos) {
        size_t P = CB + 1;
        while (P < Out.size() && isSpace(Out[P]))
          ++P;
        if (P < Out.size() && Out[P] == '(') {
          Close = J;
          CloseB = CB;
          break;
        }
      }
      if (Out[J] == ';' || Out[J] == '{' || Out[J] == '}')
        break; // the statement ended: not a launch
      ++J;
    }
    join(Out, I, B);
    if (Close != std::string_view::npos)
      join(Out, Close, CloseB);
    Changed = true;
    I = B + 1;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

namespace {

bool isIdent(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// PTX's special registers that inline assembly reads by name (`%laneid`).
bool specialRegisterAt(std::string_view S, size_t I, size_t &Len) {
  static const char *Names[] = {"laneid",      "warpid",      "nwarpid",     "smid",
                                "nsmid",       "gridid",      "tid",         "ntid",
                                "ctaid",       "nctaid",      "clock64",     "clock",
                                "globaltimer", "lanemask_eq", "lanemask_le", "lanemask_lt",
                                "lanemask_ge", "lanemask_gt", "dynamic_smem_size",
                                "total_smem_size"};
  for (const char *N : Names) {
    size_t L = std::strlen(N);
    if (S.compare(I, L, N) == 0 && (I + L >= S.size() || !isIdent(S[I + L]))) {
      Len = L;
      return true;
    }
  }
  return false;
}

} // namespace

std::optional<std::string> escapePtxSpecialRegisters(std::string_view Source) {
  std::string Out(Source);
  bool Changed = false;
  for (size_t I = 0; I < Out.size();) {
    size_t Skip = skipNonCode(Out, I);
    if (Skip != I) {
      I = Skip;
      continue;
    }
    // `asm`, `__asm`, `__asm__` as a word, then its parenthesised operands.
    size_t Kw = 0;
    for (const char *K : {"__asm__", "__asm", "asm"})
      if (Out.compare(I, std::strlen(K), K) == 0 && (I == 0 || !isIdent(Out[I - 1])) &&
          I + std::strlen(K) < Out.size() && !isIdent(Out[I + std::strlen(K)])) {
        Kw = std::strlen(K);
        break;
      }
    if (!Kw) {
      ++I;
      continue;
    }
    size_t J = I + Kw;
    // The registers the statement's PTX declares itself (`.reg .u16 %al, %ah;`, `.reg
    // .u32 %r<4>;`, CGBN's asm.cu): named with one `%` too.
    std::set<std::string> Declared;
    {
      int D = 0;
      std::string Text; // the statement's string literals, joined
      for (size_t K = J; K < Out.size(); ++K) {
        if (Out[K] == '(')
          ++D;
        else if ((Out[K] == ')' && --D <= 0) || (Out[K] == ';' && D == 0))
          break;
        else if (Out[K] == '"' && D > 0) {
          size_t End = skipNonCode(Out, K);
          Text.append(Out, K + 1, End > K + 2 ? End - K - 2 : 0);
          Text += ' ';
          K = End - 1;
        } else if (Out[K] == '\'') {
          K = skipNonCode(Out, K) - 1;
        }
      }
      for (size_t R = Text.find(".reg"); R != std::string::npos; R = Text.find(".reg", R + 4)) {
        size_t Semi = Text.find(';', R);
        std::string_view Decl(Text.data() + R, (Semi == std::string::npos ? Text.size() : Semi) - R);
        for (size_t P = Decl.find('%'); P != std::string_view::npos; P = Decl.find('%', P + 1)) {
          size_t E = P + 1;
          while (E < Decl.size() && Decl[E] == '%')
            ++E;
          size_t Start = E;
          while (E < Decl.size() && isIdent(Decl[E]))
            ++E;
          if (E > Start && !std::isdigit(static_cast<unsigned char>(Decl[Start])))
            Declared.insert(std::string(Decl.substr(Start, E - Start)) +
                            (E < Decl.size() && Decl[E] == '<' ? "<>" : ""));
          P = E - 1;
        }
      }
    }
    // `%name` names such a register: the name itself, or a parameterised one's base
    // followed by its number (`%r1` of `%r<4>`).
    auto DeclaredAt = [&](size_t P, size_t &Len) {
      if (Declared.empty())
        return false;
      size_t E = P;
      while (E < Out.size() && isIdent(Out[E]))
        ++E;
      if (E == P || std::isdigit(static_cast<unsigned char>(Out[P])))
        return false;
      std::string Name = Out.substr(P, E - P);
      if (Declared.count(Name) || Declared.count(Name + "<>")) {
        Len = E - P;
        return true;
      }
      size_t Digits = Name.find_last_not_of("0123456789");
      if (Digits + 1 < Name.size() && Declared.count(Name.substr(0, Digits + 1) + "<>")) {
        Len = E - P;
        return true;
      }
      return false;
    };
    int Depth = 0;
    for (; J < Out.size(); ++J) {
      if (Out[J] == '(')
        ++Depth;
      else if (Out[J] == ')' && --Depth <= 0)
        break;
      else if (Out[J] == ';' && Depth == 0)
        break;
      else if (Out[J] == '"' && Depth > 0) {
        size_t End = skipNonCode(Out, J); // just past the closing quote
        for (size_t P = J + 1; P + 1 < End; ++P) {
          if (Out[P] != '%' || Out[P - 1] == '%')
            continue;
          size_t Len = 0;
          if (!specialRegisterAt(Out, P + 1, Len) && !DeclaredAt(P + 1, Len))
            continue;
          // `, %laneid` -> `,%%laneid`: the space just before it given up for the second
          // `%`, so that the line's columns after it stay where they were (an operand's
          // separator, which PTX does not need).
          if (P > J + 1 && (Out[P - 1] == ' ' || Out[P - 1] == '\t') && P >= 2 &&
              (Out[P - 2] == ',' || Out[P - 2] == ' ' || Out[P - 2] == '\t')) {
            Out[P - 1] = '%';
          } else {
            Out.insert(P, "%");
            ++End;
          }
          ++P;
          Changed = true;
        }
        J = End - 1;
      } else if (Out[J] == '\'' ) {
        J = skipNonCode(Out, J) - 1;
      }
    }
    I = J < Out.size() ? J + 1 : J;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

std::optional<std::string> pragmaInMacroBodies(std::string_view Source) {
  std::string Out;
  Out.reserve(Source.size() + 16);
  bool Changed = false;
  size_t I = 0;
  auto Blank = [](char C) { return C == ' ' || C == '\t'; };
  while (I < Source.size()) {
    size_t E = Source.find('\n', I);
    if (E == std::string_view::npos)
      E = Source.size();
    std::string_view Line = Source.substr(I, E - I);
    // `#define NAME #pragma TEXT`: an object-like macro (no `(` right after NAME), one
    // line, no continuation.
    size_t P = 0;
    auto Skip = [&] {
      while (P < Line.size() && Blank(Line[P]))
        ++P;
    };
    auto Word = [&](std::string_view W) {
      if (Line.compare(P, W.size(), W) != 0 ||
          (P + W.size() < Line.size() && isIdent(Line[P + W.size()])))
        return false;
      P += W.size();
      return true;
    };
    bool Match = false;
    size_t Body = 0;
    Skip();
    if (P < Line.size() && Line[P] == '#') {
      ++P;
      Skip();
      if (Word("define")) {
        Skip();
        size_t Name = P;
        while (P < Line.size() && isIdent(Line[P]))
          ++P;
        if (P > Name && P < Line.size() && Blank(Line[P])) {
          Skip();
          Body = P;
          if (P < Line.size() && Line[P] == '#') {
            ++P;
            Skip();
            Match = Word("pragma") && !Line.empty() && Line.back() != '\\' &&
                    Line.find("//") == std::string_view::npos &&
                    Line.find("/*") == std::string_view::npos;
          }
        }
      }
    }
    if (Match) {
      Skip();
      std::string Text(Line.substr(P));
      while (!Text.empty() && (Blank(Text.back()) || Text.back() == '\r'))
        Text.pop_back();
      std::string Quoted;
      for (char C : Text) {
        if (C == '"' || C == '\\')
          Quoted += '\\';
        Quoted += C;
      }
      Out.append(Line.substr(0, Body));
      Out += "_Pragma(\"" + Quoted + "\")";
      if (!Line.empty() && Line.back() == '\r')
        Out += '\r';
      Changed = true;
    } else {
      Out.append(Line);
    }
    if (E < Source.size())
      Out += '\n';
    I = E + 1;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

namespace {

/// A `<<` followed, past spaces, by `<`: the only text joinSpacedChevrons can change.
bool mayHaveSpacedChevrons(llvm::StringRef S) {
  for (size_t I = S.find("<<"); I != llvm::StringRef::npos; I = S.find("<<", I + 2)) {
    size_t J = I + 2;
    if (J >= S.size() || !isSpace(S[J]))
      continue;
    while (J < S.size() && isSpace(S[J]))
      ++J;
    if (J < S.size() && S[J] == '<')
      return true;
  }
  return false;
}

/// One file's text as read, handed out by getBuffer.
class TextFile : public llvm::vfs::File {
public:
  TextFile(llvm::vfs::Status St, std::unique_ptr<llvm::MemoryBuffer> Text)
      : St(std::move(St)), Text(std::move(Text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return St; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name, int64_t,
                                                               bool, bool) override {
    if (Text)
      return std::move(Text);
    return llvm::MemoryBuffer::getMemBufferCopy("", Name);
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status St;
  std::unique_ptr<llvm::MemoryBuffer> Text;
};

class ChevronJoiningFS : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto F = ProxyFileSystem::openFileForRead(Path);
    if (!F)
      return F;
    llvm::ErrorOr<llvm::vfs::Status> St = (*F)->status();
    if (!St || St->getType() != llvm::sys::fs::file_type::regular_file)
      return F;
    std::string Name = Path.str();
    auto Buffer = (*F)->getBuffer(Name, St->getSize(), true, false);
    if (!Buffer)
      return Buffer.getError();
    llvm::StringRef Text = (*Buffer)->getBuffer();
    if (Text.find('\0') != llvm::StringRef::npos)
      return std::unique_ptr<llvm::vfs::File>(new TextFile(*St, std::move(*Buffer)));
    std::optional<std::string> Rewritten;
    if (mayHaveSpacedChevrons(Text))
      if (std::optional<std::string> Joined = joinSpacedChevrons(Text);
          Joined && Joined->size() == Text.size())
        Rewritten = std::move(Joined);
    if (Text.contains("define") && Text.contains("pragma"))
      if (std::optional<std::string> Pragmas =
              pragmaInMacroBodies(Rewritten ? *Rewritten : Text.str()))
        Rewritten = std::move(Pragmas);
    if (Text.contains("asm") && Text.contains('%'))
      if (std::optional<std::string> Escaped =
              escapePtxSpecialRegisters(Rewritten ? *Rewritten : Text.str()))
        Rewritten = std::move(Escaped);
    if (Rewritten) {
      llvm::vfs::Status Sized = llvm::vfs::Status::copyWithNewSize(*St, Rewritten->size());
      return std::unique_ptr<llvm::vfs::File>(
          new TextFile(Sized, llvm::MemoryBuffer::getMemBufferCopy(*Rewritten, Name)));
    }
    return std::unique_ptr<llvm::vfs::File>(new TextFile(*St, std::move(*Buffer)));
  }
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
chevronJoiningFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Under) {
  return llvm::makeIntrusiveRefCnt<ChevronJoiningFS>(std::move(Under));
}

} // namespace warplint::driver
