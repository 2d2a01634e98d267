//===- PtxasLog.cpp - parser of ptxas resource-usage reports ---------------===//
#include "warplint/core/PtxasLog.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace warplint {

namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

bool consume(std::string_view &S, std::string_view Prefix) {
  if (S.substr(0, Prefix.size()) != Prefix)
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

// Reads a non-negative decimal number at the start of S (after spaces) and consumes it.
std::optional<uint64_t> readNumber(std::string_view &S) {
  S = trim(S);
  uint64_t V = 0;
  auto [Ptr, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || Ptr == S.data())
    return std::nullopt;
  S.remove_prefix(static_cast<size_t>(Ptr - S.data()));
  return V;
}

std::optional<int> toInt(std::optional<uint64_t> V) {
  if (!V || *V > static_cast<uint64_t>(std::numeric_limits<int>::max()))
    return std::nullopt;
  return static_cast<int>(*V);
}

// Splits "a, b, c" into trimmed items.
std::vector<std::string_view> splitItems(std::string_view S) {
  std::vector<std::string_view> Items;
  while (!S.empty()) {
    size_t Comma = S.find(',');
    Items.push_back(trim(S.substr(0, Comma)));
    if (Comma == std::string_view::npos)
      break;
    S.remove_prefix(Comma + 1);
  }
  return Items;
}

// "N bytes cmem[B]" -> (B, N).
bool readConstantBank(std::string_view Item, uint64_t Bytes,
                      std::vector<std::pair<int, uint64_t>> &Out) {
  if (!consume(Item, "cmem["))
    return false;
  std::optional<int> Bank = toInt(readNumber(Item));
  if (!Bank || Item != "]")
    return false;
  Out.emplace_back(*Bank, Bytes);
  return true;
}

// A quoted name: 'abc' -> abc (the text between the first quote pair).
std::optional<std::string_view> quoted(std::string_view S) {
  size_t Open = S.find('\'');
  if (Open == std::string_view::npos)
    return std::nullopt;
  size_t Close = S.find('\'', Open + 1);
  if (Close == std::string_view::npos)
    return std::nullopt;
  return S.substr(Open + 1, Close - Open - 1);
}

class Parser {
public:
  PtxasLog Log;
  bool SawPtxas = false;

  void line(std::string_view Raw, int LineNo) {
    std::string_view L = trim(Raw);
    if (L.empty())
      return;
    std::string_view Rest = L;
    if (consume(Rest, "ptxas info")) {
      SawPtxas = true;
      Rest = trim(Rest);
      if (!consume(Rest, ":"))
        return malformed(LineNo, L);
      info(trim(Rest), LineNo, L);
      return;
    }
    if (consume(Rest, "ptxas warning") || consume(Rest, "ptxas error") ||
        consume(Rest, "ptxas fatal")) {
      SawPtxas = true;
      bool IsWarning = L.substr(0, 13) == "ptxas warning";
      Rest = trim(Rest);
      consume(Rest, ":");
      (IsWarning ? Log.Warnings : Log.Errors).emplace_back(trim(Rest));
      PendingProperties = nullptr;
      return;
    }
    // The indented line after "Function properties for X".
    if (PendingProperties && L.find("bytes stack frame") != std::string_view::npos) {
      properties(L, LineNo);
      PendingProperties = nullptr;
      return;
    }
    // Anything else (host compiler output, nvcc warnings) is not ours.
  }

private:
  PtxasFunction *PendingProperties = nullptr;
  // Index in the current block of the entry whose "Used" line is awaited.
  std::optional<size_t> CurrentEntry;

  PtxasArchBlock &current() {
    if (Log.Blocks.empty())
      Log.Blocks.emplace_back();
    return Log.Blocks.back();
  }

  static bool hasEntries(const PtxasArchBlock &B) {
    return std::any_of(B.Functions.begin(), B.Functions.end(),
                       [](const PtxasFunction &F) { return F.IsEntry; });
  }

  void malformed(int LineNo, std::string_view L) {
    Log.Malformed.push_back("line " + std::to_string(LineNo) + ": " + std::string(L));
  }

  PtxasFunction *findInCurrent(std::string_view Name) {
    if (Log.Blocks.empty())
      return nullptr;
    auto &Fs = Log.Blocks.back().Functions;
    for (auto It = Fs.rbegin(); It != Fs.rend(); ++It)
      if (It->Name == Name)
        return &*It;
    return nullptr;
  }

  void info(std::string_view S, int LineNo, std::string_view Whole) {
    std::string_view Rest = S;
    if (consume(Rest, "Compiling entry function")) {
      std::optional<std::string_view> Name = quoted(Rest);
      std::string_view AfterName = Rest;
      if (Name)
        AfterName = Rest.substr(Rest.find('\'') + Name->size() + 2);
      std::optional<std::string_view> Arch = quoted(AfterName);
      if (!Name || Name->empty())
        return malformed(LineNo, Whole);
      std::string ArchText = Arch ? std::string(*Arch) : std::string();
      // A new block starts when the arch changes (next -gencode without globals).
      if (!Log.Blocks.empty() && !current().Arch.empty() && current().Arch != ArchText)
        Log.Blocks.emplace_back();
      PtxasArchBlock &B = current();
      if (B.Arch.empty()) {
        B.Arch = ArchText;
        for (PtxasFunction &F : B.Functions)
          if (F.Arch.empty())
            F.Arch = ArchText;
      }
      PtxasFunction F;
      F.Name = std::string(*Name);
      F.Arch = ArchText;
      F.IsEntry = true;
      F.Line = LineNo;
      B.Functions.push_back(std::move(F));
      CurrentEntry = B.Functions.size() - 1;
      PendingProperties = nullptr;
      return;
    }
    if (consume(Rest, "Function properties for")) {
      std::string_view Name = trim(Rest);
      if (Name.empty())
        return malformed(LineNo, Whole);
      // The entry being compiled, or a non-inlined device function.
      PtxasFunction *F = nullptr;
      if (CurrentEntry && !Log.Blocks.empty() &&
          current().Functions[*CurrentEntry].Name == Name)
        F = &current().Functions[*CurrentEntry];
      if (!F) {
        PtxasArchBlock &B = current();
        PtxasFunction D;
        D.Name = std::string(Name);
        D.Arch = B.Arch;
        D.Line = LineNo;
        B.Functions.push_back(std::move(D));
        F = &B.Functions.back();
        CurrentEntry.reset();
      }
      PendingProperties = F;
      return;
    }
    if (consume(Rest, "Used")) {
      PendingProperties = nullptr;
      if (!CurrentEntry || Log.Blocks.empty())
        return malformed(LineNo, Whole);
      PtxasFunction &F = current().Functions[*CurrentEntry];
      CurrentEntry.reset();
      used(S, F, LineNo, Whole);
      return;
    }
    if (consume(Rest, "Compile time") || consume(Rest, "Overriding") ||
        consume(Rest, "Finalizing") || consume(Rest, "Function ")) {
      return;
    }
    // Module-level data: "12 bytes gmem, 256 bytes cmem[3], 8 bytes cmem[4]".
    if (S.find("bytes gmem") != std::string_view::npos ||
        S.find("bytes cmem[") != std::string_view::npos) {
      PendingProperties = nullptr;
      CurrentEntry.reset();
      // It opens the report of the next ptxas run when the current one has entries.
      if (Log.Blocks.empty() || hasEntries(current()))
        Log.Blocks.emplace_back();
      PtxasArchBlock &B = current();
      for (std::string_view Item : splitItems(S)) {
        std::optional<uint64_t> N = readNumber(Item);
        std::string_view Unit = trim(Item);
        if (!N || !consume(Unit, "bytes "))
          return malformed(LineNo, Whole);
        Unit = trim(Unit);
        if (Unit == "gmem")
          B.GlobalBytes += *N;
        else if (!readConstantBank(Unit, *N, B.ConstantBytes))
          return malformed(LineNo, Whole);
      }
      return;
    }
    // Other informational lines of newer ptxas versions are ignored.
  }

  void used(std::string_view S, PtxasFunction &F, int LineNo, std::string_view Whole) {
    for (std::string_view Item : splitItems(S)) {
      std::string_view I = Item;
      if (consume(I, "Used") || consume(I, "used")) {
        std::optional<uint64_t> N = readNumber(I);
        I = trim(I);
        if (!N)
          return malformed(LineNo, Whole);
        if (I == "registers" || I == "register")
          F.Registers = toInt(N);
        else if (I == "barriers" || I == "barrier")
          F.Barriers = toInt(N);
        // Other "used N things" are not resources we model.
        continue;
      }
      std::optional<uint64_t> N = readNumber(I);
      if (!N)
        return malformed(LineNo, Whole);
      I = trim(I);
      if (!consume(I, "bytes "))
        continue; // e.g. "N textures": counted objects we do not model
      I = trim(I);
      if (I == "smem")
        F.SharedBytes = *N;
      else if (I == "cumulative stack size")
        F.CumulativeStackBytes = *N;
      else if (I == "stack frame")
        F.StackFrameBytes = *N;
      else
        readConstantBank(I, *N, F.ConstantBytes);
    }
    if (!F.Registers)
      malformed(LineNo, Whole);
  }

  void properties(std::string_view L, int LineNo) {
    PtxasFunction &F = *PendingProperties;
    for (std::string_view Item : splitItems(L)) {
      std::string_view I = Item;
      std::optional<uint64_t> N = readNumber(I);
      I = trim(I);
      if (!N || !consume(I, "bytes "))
        return malformed(LineNo, L);
      I = trim(I);
      if (I == "stack frame")
        F.StackFrameBytes = *N;
      else if (I == "spill stores")
        F.SpillStoreBytes = *N;
      else if (I == "spill loads")
        F.SpillLoadBytes = *N;
    }
  }
};

} // namespace

const PtxasFunction *PtxasLog::findEntry(std::string_view Name, std::string_view Arch) const {
  for (const PtxasArchBlock &B : Blocks)
    for (const PtxasFunction &F : B.Functions)
      if (F.IsEntry && F.Arch == Arch && F.Name == Name)
        return &F;
  return nullptr;
}

std::vector<std::string> PtxasLog::archs() const {
  std::vector<std::string> Out;
  for (const PtxasArchBlock &B : Blocks)
    for (const PtxasFunction &F : B.Functions)
      if (F.IsEntry && !F.Arch.empty() &&
          std::find(Out.begin(), Out.end(), F.Arch) == Out.end())
        Out.push_back(F.Arch);
  return Out;
}

size_t PtxasLog::entryCount() const {
  size_t N = 0;
  for (const PtxasArchBlock &B : Blocks)
    for (const PtxasFunction &F : B.Functions)
      N += F.IsEntry;
  return N;
}

std::optional<PtxasLog> parsePtxasLog(std::string_view Text, std::string *Error) {
  Parser P;
  int LineNo = 0;
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    std::string_view Line = Text.substr(0, End);
    ++LineNo;
    P.line(Line, LineNo);
    if (End == std::string_view::npos)
      break;
    Text.remove_prefix(End + 1);
  }
  if (!P.SawPtxas) {
    if (Error)
      *Error = "no ptxas output found (expected the stderr of nvcc -Xptxas -v or "
               "--resource-usage)";
    return std::nullopt;
  }
  // Drop an empty trailing block (globals with no functions after them are kept).
  auto &Bs = P.Log.Blocks;
  Bs.erase(std::remove_if(Bs.begin(), Bs.end(),
                          [](const PtxasArchBlock &B) {
                            return B.Functions.empty() && B.GlobalBytes == 0 &&
                                   B.ConstantBytes.empty();
                          }),
           Bs.end());
  return std::move(P.Log);
}

std::string_view stripNvStaticPrefix(std::string_view Name) {
  std::string_view S = Name;
  if (!consume(S, "__nv_static_"))
    return Name;
  std::optional<uint64_t> Len = readNumber(S);
  if (!Len || !consume(S, "__") || S.size() <= *Len)
    return Name;
  return S.substr(*Len);
}

} // namespace warplint
