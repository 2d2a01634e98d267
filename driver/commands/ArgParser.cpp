//===- ArgParser.cpp - the one command-line parser of the subcommands -----===//
#include "driver/commands/ArgParser.h"
#include "model/ShapeText.h"

#include "clang/Basic/OffloadArch.h"
#include "llvm/Support/raw_ostream.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Products.h"

#include <fmt/format.h>

namespace warplint::driver {

std::optional<int> parsed(ArgParser::Result R, llvm::StringRef Usage, const std::string &Error,
                          llvm::function_ref<int(const std::string &)> Fail) {
  switch (R) {
  case ArgParser::Result::Help:
    llvm::outs() << Usage;
    return 0;
  case ArgParser::Result::Error:
    return Fail(Error);
  case ArgParser::Result::Ok:
    break;
  }
  return std::nullopt;
}

ArgParser &ArgParser::option(std::string Name, ValueHandler Handler, std::string Missing) {
  Options.push_back({std::move(Name), true, std::move(Handler), nullptr, std::move(Missing)});
  return *this;
}

ArgParser &ArgParser::option(std::string Name, std::string &Into, std::string Missing) {
  // A file or directory option given an empty name ("-o ''", a shell variable unset) is
  // an error: it wrote to stdout, as if no -o were given.
  bool Path = Missing == "a file name" || Missing == "a directory";
  return option(
      Name,
      [&Into, Path, Name, Missing](llvm::StringRef V, std::string &Error) {
        if (Path && V.empty()) {
          Error = fmt::format("{}: an empty name is not {}", Name, Missing);
          return false;
        }
        Into = V.str();
        return true;
      },
      Missing);
}

ArgParser &ArgParser::list(std::string Name, std::vector<std::string> &Into) {
  return option(std::move(Name), [&Into](llvm::StringRef V, std::string &) {
    Into.push_back(V.str());
    return true;
  });
}

ArgParser &ArgParser::flag(std::string Name, bool &Into) {
  Options.push_back({std::move(Name), false, nullptr, &Into, ""});
  return *this;
}

ArgParser &ArgParser::positional(std::vector<std::string> &Into) {
  Positional = &Into;
  return *this;
}

ArgParser &ArgParser::rest(std::vector<std::string> &Into, bool *Seen) {
  Rest = &Into;
  RestSeen = Seen;
  return *this;
}

const ArgParser::Option *ArgParser::find(llvm::StringRef Name) const {
  for (const Option &O : Options)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

ArgParser::Result ArgParser::parse(llvm::ArrayRef<std::string> Args, std::string &Error) const {
  for (const std::string &A : Args) {
    if (A == "--")
      break;
    if (A == "--help" || A == "-h")
      return Result::Help;
  }
  std::string SeeHelp = fmt::format("(see 'warplint {} --help')", Command);
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      if (!Rest) {
        Error = fmt::format("unexpected argument '--' {}", SeeHelp);
        return Result::Error;
      }
      if (RestSeen)
        *RestSeen = true;
      Rest->insert(Rest->end(), Args.begin() + I + 1, Args.end());
      return Result::Ok;
    }
    if (!Arg.starts_with("-") || Arg == "-") {
      if (!Positional) {
        Error = fmt::format("unexpected argument '{}' {}", Arg.str(), SeeHelp);
        return Result::Error;
      }
      Positional->push_back(Arg.str());
      continue;
    }
    // --name=value (or -p=value), --name value, -pVALUE.
    auto [Name, Inline] = Arg.split('=');
    bool HasInline = Arg.contains('=');
    const Option *O = find(Name);
    if (!O && !Arg.starts_with("--") && Arg.size() > 2) {
      if (const Option *Short = find(Arg.take_front(2)); Short && Short->TakesValue) {
        O = Short;
        Name = Arg.take_front(2);
        Inline = Arg.drop_front(2);
        HasInline = true;
      }
    }
    if (!O) {
      if (PassUnknown && Positional) {
        Positional->push_back(Arg.str());
        continue;
      }
      Error = fmt::format("unknown option '{}' {}", Arg.str(), SeeHelp);
      return Result::Error;
    }
    if (!O->TakesValue) {
      if (HasInline) {
        Error = fmt::format("{} takes no value", Name.str());
        return Result::Error;
      }
      *O->Flag = true;
      continue;
    }
    llvm::StringRef Value = Inline;
    if (!HasInline) {
      if (I + 1 >= Args.size()) {
        Error = fmt::format("{} needs {}", Name.str(), O->Missing);
        return Result::Error;
      }
      Value = Args[++I];
    }
    if (!O->OnValue(Value, Error))
      return Result::Error;
  }
  return Result::Ok;
}

ArgParser::Result ArgParser::parse(int Argc, char **Argv, std::string &Error) const {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  return parse(Args, Error);
}

ArgParser::ValueHandler gpuOption(std::string &Into) {
  return [&Into](llvm::StringRef V, std::string &Error) {
    const GpuProduct *P = findProduct(V.str());
    if (!P) {
      Error = fmt::format("--gpu: unknown GPU '{}' (known: {})", V.str(), knownProductList());
      return false;
    }
    Into = P->Key;
    return true;
  };
}

std::string nvidiaArchSpelling(llvm::StringRef Given, const GpuArch &Arch, std::string &Error) {
  std::string V = Given.trim().lower();
  llvm::StringRef Rest(V);
  for (llvm::StringRef P : {"compute_", "sm_", "sm"})
    if (Rest.consume_front(P))
      break;
  // 8.6, 86, sm_86, compute_86: the row's own name. A family variant (sm_100f) has the
  // base's limits, and clang has no target of that name: analysed as the base.
  if (Rest.contains('.') || !(Rest.ends_with("a")))
    return std::string(Arch.Name);
  // An arch-specific variant (sm_90a) keeps its name for clang (its feature macros) when
  // clang knows it; one clang does not know would only flood the run with its errors.
  std::string Specific = std::string(Arch.Name) + "a";
  if (clang::StringToOffloadArch(Specific) != clang::OffloadArch::UNKNOWN)
    return Specific;
  std::string Known;
  for (const GpuArch &A : allArchs())
    if (A.isNvidia() &&
        clang::StringToOffloadArch(std::string(A.Name) + "a") != clang::OffloadArch::UNKNOWN)
      Known += (Known.empty() ? "" : ", ") + std::string(A.Name) + "a";
  Error = fmt::format("--arch: '{}' is no arch-specific target clang knows ({}); give {}",
                      Given.str(), Known, Arch.Name);
  return "";
}

ArgParser::ValueHandler nvidiaArchOption(std::string &Into, std::string Command) {
  return [&Into, Command](llvm::StringRef V, std::string &Error) {
    const GpuArch *Arch = findArch(V.str());
    if (Arch && Arch->isNvidia()) {
      std::string Spelled = nvidiaArchSpelling(V, *Arch, Error);
      if (Spelled.empty())
        return false;
      Into = Spelled;
      return true;
    }
    if (Arch) {
      Error = fmt::format("--arch: '{}' is an AMD architecture; {} analyses CUDA for NVIDIA "
                          "GPUs (sm_XX)",
                          V.str(), Command);
      return false;
    }
    std::string Known;
    for (const GpuArch &A : allArchs())
      if (A.isNvidia())
        Known += (Known.empty() ? "" : ", ") + std::string(A.Name);
    Error = fmt::format("--arch: unknown architecture '{}' (known: {})", V.str(), Known);
    return false;
  };
}

ArgParser::ValueHandler gpuArchOption(std::string &Into, std::string Command) {
  ArgParser::ValueHandler Nvidia = nvidiaArchOption(Into, Command);
  return [&Into, Nvidia](llvm::StringRef V, std::string &Error) {
    const GpuArch *Arch = findArch(V.str());
    if (Arch && Arch->isAmd()) {
      Into = V.lower(); // with its target features (gfx90a:xnack+), as --offload-arch takes it
      return true;
    }
    if (Nvidia(V, Error))
      return true;
    if (!Arch) {
      std::string Known;
      for (const GpuArch &A : allArchs())
        Known += (Known.empty() ? "" : ", ") + std::string(A.Name);
      Error = fmt::format("--arch: unknown architecture '{}' (known: {})", V.str(), Known);
    }
    return false;
  };
}

ArgParser::ValueHandler shapeOption(std::string Name, bool Grid, std::string &Into) {
  return [Name, Grid, &Into](llvm::StringRef V, std::string &Error) {
    std::string Why;
    std::optional<std::array<uint64_t, 3>> S =
        ::warplint::parseShapeText(V, Grid, Why);
    if (!S) {
      Error = fmt::format("{}: {}", Name, Why);
      return false;
    }
    Into = ::warplint::shapeOptionText(*S);
    return true;
  };
}

} // namespace warplint::driver
