//===- Transport.h - JSON-RPC messages over a byte stream, as LSP frames them -*- C++ -*-===//
//
// The base protocol of the Language Server Protocol: a header block (Content-Length, an
// optional Content-Type) ended by an empty line, then exactly that many bytes of JSON.
// Reading is done by one thread; writing from any thread (one message at a time).
//
//===----------------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/JSON.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace warplint::driver::lsp {

/// What one read gave.
enum class ReadStatus {
  Message,   ///< Body holds one message's bytes
  Malformed, ///< a frame that cannot be read (Problem says why); reading can go on
  Eof,       ///< the input ended
};

class Transport {
public:
  Transport(std::FILE *In, std::FILE *Out) : In(In), Out(Out) {}

  /// Reads the next frame. A header block without a valid Content-Length is Malformed
  /// and skipped up to the next header block.
  ReadStatus read(std::string &Body, std::string &Problem);

  /// Writes one message (thread-safe).
  void send(const llvm::json::Value &Message);

  /// The largest body read (bytes); a larger one is skipped as Malformed.
  static constexpr size_t MaxBody = 256u << 20;

private:
  bool readLine(std::string &Line);
  std::FILE *In;
  std::FILE *Out;
  std::mutex WriteLock;
};

} // namespace warplint::driver::lsp
