//===- NcuCsv.cpp - Nsight Compute's CSV export read back -----------------===//
#include "driver/measure/NcuCsv.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace warplint::driver {
namespace {

/// Splits one CSV line: fields separated by commas, optionally in double quotes with ""
/// for a quote. False when a quote is not closed.
bool splitCsv(llvm::StringRef Line, std::vector<std::string> &Fields) {
  Fields.clear();
  std::string Cur;
  bool Quoted = false, WasQuoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quoted) {
      if (C == '"') {
        if (I + 1 < Line.size() && Line[I + 1] == '"') {
          Cur += '"';
          ++I;
        } else {
          Quoted = false;
        }
      } else {
        Cur += C;
      }
    } else if (C == '"' && Cur.empty() && !WasQuoted) {
      Quoted = WasQuoted = true;
    } else if (C == ',') {
      Fields.push_back(std::move(Cur));
      Cur.clear();
      WasQuoted = false;
    } else {
      Cur += C;
    }
  }
  if (Quoted)
    return false;
  Fields.push_back(std::move(Cur));
  return true;
}

/// "1,234.5" (ncu's thousands separators) and "12.5" as numbers; anything else none.
std::optional<double> parseNumber(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.empty())
    return std::nullopt;
  std::string Digits;
  bool Dot = false, Any = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (std::isdigit(static_cast<unsigned char>(C))) {
      Digits += C;
      Any = true;
    } else if (C == ',' && !Dot && Any) {
      // A thousands separator: exactly three digits follow before the next separator.
      size_t J = I + 1;
      while (J < Text.size() && std::isdigit(static_cast<unsigned char>(Text[J])))
        ++J;
      if (J - I - 1 != 3)
        return std::nullopt;
    } else if (C == '.' && !Dot) {
      Dot = true;
      Digits += C;
    } else if ((C == '-' || C == '+') && I == 0) {
      Digits += C;
    } else if ((C == 'e' || C == 'E') && Any) {
      Digits += Text.substr(I).str();
      break;
    } else {
      return std::nullopt;
    }
  }
  if (!Any)
    return std::nullopt;
  char *End = nullptr;
  double V = std::strtod(Digits.c_str(), &End);
  if (!End || *End)
    return std::nullopt;
  return V;
}

/// The factor from a printed unit to base units (bytes, ns), 1 for units kept as they
/// are (%, registers, blocks...).
double unitScale(llvm::StringRef Unit) {
  static const std::pair<const char *, double> Scales[] = {
      {"Kbyte", 1e3},   {"KB", 1e3},      {"Mbyte", 1e6},      {"MB", 1e6},      {"Gbyte", 1e9},
      {"Kibyte", 1024}, {"KiB", 1024},    {"Mibyte", 1 << 20}, {"MiB", 1 << 20}, {"usecond", 1e3},
      {"us", 1e3},      {"msecond", 1e6}, {"ms", 1e6},         {"second", 1e9},  {"s", 1e9}};
  for (const auto &[Name, Scale] : Scales)
    if (Unit == Name)
      return Scale;
  return 1;
}

/// Why a number read from ncu is out of range (empty when it is not): one no counter
/// reaches (infinite after the unit's scale, beyond 2^53, where a double stops counting
/// whole units: 1e308 Kbyte, 99999999999999999999), or a negative count (registers,
/// bytes, blocks, any launch__ figure). Such a value, handed on, became
/// -9223372036854775808 in the report and "ncu and warplint disagree" lines followed.
std::string outOfRange(llvm::StringRef Metric, llvm::StringRef Unit, double V) {
  constexpr double Max = 9007199254740992.0; // 2^53
  if (!std::isfinite(V) || std::fabs(V) > Max)
    return "beyond 2^53";
  if (V >= 0)
    return "";
  bool Count = Metric.starts_with("launch__") || unitScale(Unit) != 1;
  for (llvm::StringRef U : {"byte", "register", "block", "thread", "warp", "cycle", "inst"})
    Count |= Unit.contains(U);
  return Count ? "a negative count" : "";
}

std::optional<std::array<uint64_t, 3>> parseDims(llvm::StringRef Text) {
  Text = Text.trim();
  if (Text.consume_front("("))
    Text.consume_back(")");
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::array<uint64_t, 3> D = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, D[I]))
      return std::nullopt;
  return D;
}

/// The columns that name a launch rather than a metric.
int identityColumn(llvm::StringRef Name) {
  static const char *const Names[] = {"ID",        "Kernel Name", "Block Size",
                                      "Grid Size", "Device",      "CC"};
  for (int I = 0; I < 6; ++I)
    if (Name == Names[I])
      return I;
  return -1;
}

std::string dropSpaces(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

/// Drops integer-literal suffixes (256u, 1UL) and "(int)"-style casts in template arguments.
std::string dropLiteralSuffixes(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if ((C == 'u' || C == 'U' || C == 'l' || C == 'L') && !Out.empty() &&
        std::isdigit(static_cast<unsigned char>(Out.back()))) {
      // Only after a number that is a whole token (not an identifier like x2u).
      size_t K = Out.size();
      while (K > 0 && std::isdigit(static_cast<unsigned char>(Out[K - 1])))
        --K;
      if (K == 0 || !(std::isalnum(static_cast<unsigned char>(Out[K - 1])) || Out[K - 1] == '_')) {
        size_t J = I;
        while (J < S.size() && std::strchr("uUlL", S[J]))
          ++J;
        if (J == S.size() || !(std::isalnum(static_cast<unsigned char>(S[J])) || S[J] == '_')) {
          I = J - 1;
          continue;
        }
      }
    }
    Out += C;
  }
  return Out;
}

} // namespace

std::optional<double> NcuLaunch::number(llvm::StringRef Metric) const {
  auto It = Metrics.find(Metric.str());
  if (It == Metrics.end())
    return std::nullopt;
  return It->second.Number;
}

bool readNcuCsv(llvm::StringRef Text, std::vector<NcuLaunch> &Out, std::string &Error) {
  std::vector<std::string> Header, Fields;
  unsigned LineNo = 0, HeaderLine = 0;
  bool Long = false; // the details page: a row per metric
  int Col[6] = {-1, -1, -1, -1, -1, -1};
  int MetricName = -1, MetricUnit = -1, MetricValue = -1;
  std::vector<std::string> Units; // the raw page's units row
  std::map<uint64_t, size_t> ById;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    Line = Line.rtrim("\r");
    if (Line.trim().empty() || Line.starts_with("==")) // ==PROF==, ==WARNING== lines
      continue;
    if (Header.empty()) {
      if (!Line.starts_with("\"ID\"") && !Line.starts_with("ID,"))
        continue; // ==PROF== lines, the program's output
      if (!splitCsv(Line, Header)) {
        Error = fmt::format("line {}: an unclosed quote in the header", LineNo);
        return false;
      }
      HeaderLine = LineNo;
      for (size_t I = 0; I < Header.size(); ++I) {
        int Id = identityColumn(Header[I]);
        if (Id >= 0)
          Col[Id] = static_cast<int>(I);
        if (Header[I] == "Metric Name")
          MetricName = static_cast<int>(I);
        else if (Header[I] == "Metric Unit")
          MetricUnit = static_cast<int>(I);
        else if (Header[I] == "Metric Value")
          MetricValue = static_cast<int>(I);
      }
      if (Col[0] < 0 || Col[1] < 0) {
        Error = fmt::format("line {}: ncu's header has no \"{}\" column", LineNo,
                            Col[0] < 0 ? "ID" : "Kernel Name");
        return false;
      }
      Long = MetricName >= 0 && MetricValue >= 0;
      continue;
    }
    if (!splitCsv(Line, Fields)) {
      Error = fmt::format("line {}: an unclosed quote", LineNo);
      return false;
    }
    if (Fields.size() != Header.size()) {
      Error = fmt::format("line {}: {} fields, the header (line {}) has {}", LineNo, Fields.size(),
                          HeaderLine, Header.size());
      return false;
    }
    // The raw page's units row: no ID.
    if (!Long && Fields[Col[0]].empty() && Units.empty() && Out.empty()) {
      Units = Fields;
      continue;
    }
    uint64_t Id = 0;
    if (llvm::StringRef(Fields[Col[0]]).trim().getAsInteger(10, Id)) {
      Error = fmt::format("line {}: ID '{}' is not a number", LineNo, Fields[Col[0]]);
      return false;
    }
    auto [It, New] = ById.try_emplace(Id, Out.size());
    if (New) {
      NcuLaunch L;
      L.Id = Id;
      L.KernelName = Fields[Col[1]];
      for (auto [C, Into] : {std::pair{Col[2], &L.Block}, std::pair{Col[3], &L.Grid}}) {
        if (C < 0 || llvm::StringRef(Fields[C]).trim().empty())
          continue;
        *Into = parseDims(Fields[C]);
        if (!*Into) {
          Error = fmt::format("line {}: launch ID {}, column \"{}\": '{}' is not three whole "
                              "numbers in range",
                              LineNo, Id, Header[C], llvm::StringRef(Fields[C]).trim().str());
          return false;
        }
      }
      if (Col[4] >= 0)
        L.Device = Fields[Col[4]];
      if (Col[5] >= 0)
        L.Cc = Fields[Col[5]];
      Out.push_back(std::move(L));
    } else if (!Long) {
      Error = fmt::format("line {}: launch ID {} appears twice", LineNo, Id);
      return false;
    }
    NcuLaunch &L = Out[It->second];
    // A value out of range is a bad field: the row (line and launch ID) and the column.
    auto put = [&](const std::string &Name, const std::string &Value, const std::string &Unit) {
      NcuValue V;
      V.Text = Value;
      V.Unit = Unit;
      V.Number = parseNumber(Value);
      // Scaled units are byte multiples and times: whole bytes and ns after scaling
      // (40.96 Kbyte is 40960 bytes, not 40960.000000000004).
      if (V.Number && unitScale(Unit) != 1)
        *V.Number = std::round(*V.Number * unitScale(Unit));
      if (V.Number)
        if (std::string Why = outOfRange(Name, Unit, *V.Number); !Why.empty()) {
          Error = fmt::format("line {}: launch ID {}, column \"{}\": '{}{}' is out of range ({})",
                              LineNo, Id, Name, llvm::StringRef(Value).trim().str(),
                              Unit.empty() ? "" : " " + Unit, Why);
          return false;
        }
      L.Metrics[Name] = std::move(V);
      return true;
    };
    if (Long) {
      // Newer ncu versions add "Rule Name", "Rule Type", "Rule Description" and
      // "Estimated Speedup" columns to the details page, and a rule's own rows carry no
      // metric: they add nothing.
      if (!llvm::StringRef(Fields[MetricName]).trim().empty() &&
          !put(Fields[MetricName], Fields[MetricValue], MetricUnit >= 0 ? Fields[MetricUnit] : ""))
        return false;
      continue;
    }
    for (size_t I = 0; I < Fields.size(); ++I) {
      bool Identity = false;
      for (int C : Col)
        Identity |= C == static_cast<int>(I);
      if (Identity || Header[I].find("__") == std::string::npos)
        continue; // identity and descriptive columns (Process ID, Host Name, Stream, ...)
      if (!put(Header[I], Fields[I], Units.empty() ? "" : Units[I]))
        return false;
    }
  }
  if (Header.empty()) {
    Error = "no Nsight Compute CSV header (a line starting with \"ID\"): write the file with "
            "`ncu --csv --page raw ...`";
    return false;
  }
  if (Out.empty()) {
    Error = "no profiled launch in the file";
    return false;
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const NcuLaunch &A, const NcuLaunch &B) { return A.Id < B.Id; });
  return true;
}

std::string ncuKernelKey(llvm::StringRef Name) {
  Name = Name.trim();
  if (Name.starts_with("_Z"))
    return Name.str();
  // The parameter list: from the '(' that matches the final ')'.
  if (Name.ends_with(")")) {
    int Depth = 0;
    for (size_t I = Name.size(); I-- > 0;) {
      if (Name[I] == ')')
        ++Depth;
      else if (Name[I] == '(' && --Depth == 0) {
        Name = Name.take_front(I);
        break;
      }
    }
  }
  Name = Name.trim();
  // The return type a template's demangled name starts with: the last top-level space
  // outside template arguments separates it.
  int Depth = 0;
  size_t Cut = llvm::StringRef::npos;
  for (size_t I = 0; I < Name.size(); ++I) {
    if (Name[I] == '<' || Name[I] == '(')
      ++Depth;
    else if (Name[I] == '>' || Name[I] == ')')
      --Depth;
    else if (Name[I] == ' ' && Depth == 0)
      Cut = I;
  }
  if (Cut != llvm::StringRef::npos)
    Name = Name.drop_front(Cut + 1);
  return sourceKernelKey(Name);
}

std::string sourceKernelKey(llvm::StringRef Name) {
  std::string S = dropSpaces(Name);
  if (llvm::StringRef(S).starts_with("::"))
    S.erase(0, 2);
  S = dropLiteralSuffixes(S);
  // ncu prints a bool template argument as 1 or 0 ("regLimited<2, 1>"), clang as true or
  // false: one spelling for both.
  std::string Out;
  int Depth = 0;
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      size_t J = I;
      while (J < S.size() && (std::isalnum(static_cast<unsigned char>(S[J])) || S[J] == '_'))
        ++J;
      llvm::StringRef Word(S.data() + I, J - I);
      Out += Depth > 0 && Word == "true" ? "1" : Depth > 0 && Word == "false" ? "0" : Word.str();
      I = J;
      continue;
    }
    Depth += C == '<' ? 1 : C == '>' ? -1 : 0;
    Out += C;
    ++I;
  }
  return Out;
}

std::string withoutTemplateArgs(llvm::StringRef Key) {
  return Key.take_until([](char C) { return C == '<'; }).str();
}

} // namespace warplint::driver
