//===- LspReadersFuzzer.cpp - libFuzzer target for the language server's readers ===//
#include "driver/formats/BoundedJson.h"
#include "driver/lsp/Transport.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

// Any bytes as the server's input stream: every frame is read (a body never larger than
// the limit, a problem always said), and every body parsed as JSON behind the depth limit
// (an error, never a crash: a 50000-deep message once killed the server).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Bytes(reinterpret_cast<const char *>(Data), Size);
  std::FILE *In = fmemopen(Bytes.data(), Bytes.size() ? Bytes.size() : 1, "r");
  std::FILE *Out = std::fopen("/dev/null", "w");
  if (!In || !Out)
    std::abort();
  if (Bytes.empty())
    std::fgetc(In); // an empty stream: fmemopen needs one byte
  warplint::driver::lsp::Transport T(In, Out);
  std::string Body, Problem;
  for (unsigned Frames = 0; Frames < 1000; ++Frames) {
    Body.clear();
    Problem.clear();
    warplint::driver::lsp::ReadStatus S = T.read(Body, Problem);
    if (S == warplint::driver::lsp::ReadStatus::Eof)
      break;
    if (S == warplint::driver::lsp::ReadStatus::Malformed) {
      if (Problem.empty())
        std::abort();
      continue;
    }
    if (Body.size() > warplint::driver::lsp::Transport::MaxBody)
      std::abort();
    llvm::Expected<llvm::json::Value> V = warplint::driver::parseBoundedJson(Body);
    if (!V)
      llvm::consumeError(V.takeError());
  }
  std::fclose(In);
  std::fclose(Out);
  return 0;
}
