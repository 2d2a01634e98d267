//===- Transport.cpp - LSP's base protocol: Content-Length frames -----------===//
#include "driver/lsp/Transport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint::driver::lsp {

bool Transport::readLine(std::string &Line) {
  Line.clear();
  for (;;) {
    int C = std::fgetc(In);
    if (C == EOF)
      return !Line.empty();
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    if (Line.size() < 64 * 1024) // a header line longer than this is junk: keep its start
      Line.push_back(static_cast<char>(C));
  }
}

ReadStatus Transport::read(std::string &Body, std::string &Problem) {
  std::string Line;
  std::optional<uint64_t> Length;
  std::string BadLength;
  bool AnyHeader = false;
  // The header block: lines up to an empty one. A line that is not a header (junk
  // between frames) is skipped, but a Content-Length found anywhere in it counts, so
  // reading finds its way back to the next frame.
  for (;;) {
    if (!readLine(Line))
      return AnyHeader ? (Problem = "the input ended inside a message header",
                          ReadStatus::Malformed)
                       : ReadStatus::Eof;
    if (Line.empty()) {
      if (AnyHeader)
        break;
      continue; // blank lines between frames
    }
    AnyHeader = true;
    llvm::StringRef L(Line);
    size_t At = L.lower().find("content-length:");
    if (At == std::string::npos)
      continue; // Content-Type or another header
    llvm::StringRef Value = L.drop_front(At + 15).trim();
    uint64_t N;
    if (Value.getAsInteger(10, N)) {
      BadLength = Value.str();
      continue;
    }
    Length = N;
  }
  if (!Length) {
    Problem = BadLength.empty() ? "a message header without Content-Length was skipped"
                                : "a message header with Content-Length '" + BadLength +
                                      "', not a number, was skipped";
    return ReadStatus::Malformed;
  }
  if (*Length > MaxBody) {
    for (uint64_t I = 0; I < *Length && std::fgetc(In) != EOF; ++I) {
    }
    Problem = "a message of " + std::to_string(*Length) + " bytes (over " +
              std::to_string(MaxBody) + ") was skipped";
    return ReadStatus::Malformed;
  }
  Body.resize(*Length);
  size_t Got = *Length ? std::fread(Body.data(), 1, *Length, In) : 0;
  if (Got != *Length) {
    Problem = "the input ended inside a message (" + std::to_string(Got) + " of " +
              std::to_string(*Length) + " bytes)";
    return ReadStatus::Malformed;
  }
  return ReadStatus::Message;
}

void Transport::send(const llvm::json::Value &Message) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Message;
  OS.flush();
  std::lock_guard<std::mutex> Lock(WriteLock);
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", Text.size());
  std::fwrite(Text.data(), 1, Text.size(), Out);
  std::fflush(Out);
}

} // namespace warplint::driver::lsp
