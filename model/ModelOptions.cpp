//===- ModelOptions.cpp - the options of the whole run, read once, typed ---===//
#include "model/ModelOptions.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/StringExtras.h"

namespace warplint {
namespace {

/// The checks that read these options per check in the first round.
const char *const LegacyChecks[] = {"warplint-occupancy", "warplint-occupancy-cliff",
                                    "warplint-launch-config-invalid"};

std::vector<std::string> splitList(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  S.split(Parts, ';', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

/// The value of `warplint.<Name>`, else of a legacy per-check key (noted in Problems).
std::optional<std::string> lookup(const clang::tidy::ClangTidyOptions::OptionMap &Options,
                                  llvm::StringRef Name, std::vector<std::string> &Problems) {
  auto It = Options.find(modelOptionKey(Name));
  if (It != Options.end())
    return It->getValue().Value;
  for (const char *Check : LegacyChecks) {
    std::string Key = std::string(Check) + "." + Name.str();
    auto L = Options.find(Key);
    if (L == Options.end())
      continue;
    Problems.push_back("option '" + Key + "' is read as '" + modelOptionKey(Name) +
                       "', which sets it once for every check: rename it");
    return L->getValue().Value;
  }
  return std::nullopt;
}

} // namespace

std::string modelOptionKey(llvm::StringRef Name) { return "warplint." + Name.str(); }

ModelOptions ModelOptions::read(const clang::tidy::ClangTidyOptions::OptionMap &Options) {
  ModelOptions O;
  if (std::optional<std::string> V = lookup(Options, "RegisterSource", O.Problems)) {
    if (std::optional<RegisterSourceChoice> C = parseRegisterSourceChoice(*V))
      O.Registers.Source = *C;
    else
      O.Problems.push_back("invalid warplint.RegisterSource '" + *V +
                           "': use auto, ptxas-log, objects, nvcc or none; using auto");
  }
  if (std::optional<std::string> V = lookup(Options, "PtxasLog", O.Problems))
    O.Registers.PtxasLogs = splitList(*V);
  if (std::optional<std::string> V = lookup(Options, "Objects", O.Problems))
    O.Registers.Objects = splitList(*V);
  if (std::optional<std::string> V = lookup(Options, "CacheDir", O.Problems))
    O.Registers.CacheDir = llvm::StringRef(*V).trim().str();
  if (std::optional<std::string> V = lookup(Options, "Nvcc", O.Problems))
    O.Registers.Nvcc = llvm::StringRef(*V).trim().str();
  if (std::optional<std::string> V = lookup(Options, "NvccFlags", O.Problems))
    O.Registers.NvccFlags = *V;
  // Set by `warplint lsp` for its first answer (not a .clang-tidy key users need).
  if (std::optional<std::string> V = lookup(Options, "NvccCacheOnly", O.Problems))
    O.Registers.NvccCacheOnly = llvm::StringRef(*V).trim().equals_insensitive("true");
  if (std::optional<std::string> V = lookup(Options, "VerifyAdvice", O.Problems)) {
    llvm::StringRef T = llvm::StringRef(*V).trim();
    if (T.equals_insensitive("false") || T == "0")
      O.VerifyAdvice = false;
    else if (!T.equals_insensitive("true") && T != "1")
      O.Problems.push_back("invalid warplint.VerifyAdvice '" + *V + "': use true or false; "
                           "using true");
  }
  if (std::optional<std::string> V = lookup(Options, "HipClang", O.Problems))
    O.Registers.HipClang = llvm::StringRef(*V).trim().str();
  if (std::optional<std::string> V = lookup(Options, "HipFlags", O.Problems))
    O.Registers.HipFlags = *V;
  if (std::optional<std::string> V = lookup(Options, "Arch", O.Problems)) {
    std::string A = llvm::StringRef(*V).trim().str();
    if (!A.empty() && !::warplint::findArch(A))
      O.Problems.push_back("unknown warplint.Arch '" + A + "' (known: " +
                           ::warplint::knownArchNames() + "); using the TU's target");
    else
      O.Arch = A;
  }
  std::optional<std::string> Gpu = lookup(Options, "Gpu", O.Problems);
  if (!Gpu)
    if (auto It = Options.find("warplint-partial-wave.Gpu"); It != Options.end())
      Gpu = It->getValue().Value;
  if (Gpu) {
    std::string G = llvm::StringRef(*Gpu).trim().str();
    if (!G.empty() && !::warplint::findProduct(G))
      O.Problems.push_back("unknown GPU '" + G + "' for warplint.Gpu (known: " +
                           ::warplint::knownProductList() + "); no per-GPU figures");
    else if (const ::warplint::GpuProduct *P = ::warplint::findProduct(G))
      O.Gpu = P->Key;
  }
  for (bool Grid : {false, true}) {
    const char *Name = Grid ? "AssumedGrid" : "AssumedBlock";
    std::optional<std::string> V = lookup(Options, Name, O.Problems);
    if (!V || llvm::StringRef(*V).trim().empty())
      continue;
    std::string Error;
    std::optional<std::array<uint64_t, 3>> S = parseShapeText(*V, Grid, Error);
    if (!S) {
      O.Errors.push_back("invalid " + modelOptionKey(Name) + " " + Error);
      O.Problems.push_back(O.Errors.back() + (Grid ? "; no grid assumed" : "; using each check's AssumedBlockSize"));
    } else if (Grid) {
      O.AssumedGrid = *S;
    } else {
      O.AssumedBlock = {unsigned((*S)[0]), unsigned((*S)[1]), unsigned((*S)[2])};
    }
  }
  return O;
}

void ModelOptions::store(clang::tidy::ClangTidyOptions::OptionMap &Options) const {
  auto Set = [&](llvm::StringRef Name, std::string Value) {
    Options.insert_or_assign(modelOptionKey(Name), clang::tidy::ClangTidyOptions::ClangTidyValue(Value));
  };
  Set("RegisterSource", registerSourceChoiceName(Registers.Source));
  Set("PtxasLog", llvm::join(Registers.PtxasLogs, ";"));
  Set("Objects", llvm::join(Registers.Objects, ";"));
  Set("CacheDir", Registers.CacheDir);
  Set("Nvcc", Registers.Nvcc);
  Set("NvccFlags", Registers.NvccFlags);
  Set("HipClang", Registers.HipClang);
  Set("VerifyAdvice", VerifyAdvice ? "true" : "false");
  Set("HipFlags", Registers.HipFlags);
  Set("Arch", Arch);
  Set("Gpu", Gpu);
  Set("AssumedBlock", AssumedBlock ? shapeOptionText({(*AssumedBlock)[0], (*AssumedBlock)[1],
                                                (*AssumedBlock)[2]})
                                   : std::string());
  Set("AssumedGrid", AssumedGrid ? shapeOptionText(*AssumedGrid) : std::string());
}

} // namespace warplint
