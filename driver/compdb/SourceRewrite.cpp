//===- SourceRewrite.cpp - token-level rewrites that give clang nvcc's program ===//
#include "driver/compdb/SourceRewrite.h"

#include "llvm/Support/MemoryBuffer.h"

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
    if (mayHaveSpacedChevrons(Text) && Text.find('\0') == llvm::StringRef::npos)
      if (std::optional<std::string> Joined = joinSpacedChevrons(Text);
          Joined && Joined->size() == Text.size())
        *Buffer = llvm::MemoryBuffer::getMemBufferCopy(*Joined, Name);
    return std::unique_ptr<llvm::vfs::File>(new TextFile(*St, std::move(*Buffer)));
  }
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
chevronJoiningFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Under) {
  return llvm::makeIntrusiveRefCnt<ChevronJoiningFS>(std::move(Under));
}

} // namespace warplint::driver
