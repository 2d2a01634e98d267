//===- CompileDatabaseFuzzer.cpp - libFuzzer target for the compile database check ===//
#include "driver/compdb/CompileDatabaseCheck.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Any text as compile_commands.json, and as one command: no crash, every problem names
// an entry of the array and its reason.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<warplint::driver::CompileCommandProblem> Problems =
      warplint::driver::checkCompileCommandsJson(Text, "db");
  size_t Last = 0;
  for (const warplint::driver::CompileCommandProblem &P : Problems) {
    if (P.Message.rfind("db[" + std::to_string(P.Index) + "] (", 0) != 0)
      std::abort();
    if (P.Index < Last)
      std::abort(); // in array order
    Last = P.Index;
    if (warplint::driver::findCompileCommandProblem(Problems, P.File) == nullptr)
      std::abort();
  }
  (void)warplint::driver::commandSplitError(Text);
  return 0;
}
