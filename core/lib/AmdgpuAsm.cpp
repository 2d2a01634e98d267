//===- AmdgpuAsm.cpp - kernel resources from AMDGPU device assembly -------===//
#include "warplint/core/AmdgpuAsm.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

namespace warplint {
namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

bool startsWith(std::string_view S, std::string_view P) { return S.substr(0, P.size()) == P; }

std::optional<uint64_t> number(std::string_view S) {
  S = trim(S);
  if (S.empty() || S.size() > 18)
    return std::nullopt;
  uint64_t V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return std::nullopt;
    V = V * 10 + uint64_t(C - '0');
  }
  return V;
}

/// "gfx90a" of a target id ("amdgcn-amd-amdhsa--gfx90a:xnack-", quoted or not).
std::string targetOf(std::string_view Line) {
  size_t At = Line.find("gfx");
  if (At == std::string_view::npos)
    return "";
  size_t End = At;
  while (End < Line.size() && (std::isalnum(static_cast<unsigned char>(Line[End]))))
    ++End;
  return std::string(Line.substr(At, End - At));
}

} // namespace

std::vector<AmdgpuKernel> parseAmdgpuAssembly(std::string_view Text, std::string &Error) {
  std::vector<AmdgpuKernel> Out;
  std::map<std::string, int> Occupancy; // by function symbol
  std::string Target, Current;
  bool InMeta = false, InKernels = false;
  int ItemIndent = -1;
  std::vector<std::map<std::string, std::string>> Entries;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string_view Line =
        Text.substr(Pos, End == std::string_view::npos ? std::string_view::npos : End - Pos);
    Pos = End == std::string_view::npos ? Text.size() : End + 1;
    std::string_view T = trim(Line);
    if (!InMeta) {
      if (startsWith(T, ".amdgcn_target")) {
        Target = targetOf(T);
      } else if (startsWith(T, ".type") && T.find("@function") != std::string_view::npos) {
        std::string_view Rest = trim(T.substr(5));
        Current = std::string(trim(Rest.substr(0, Rest.find(','))));
      } else if (startsWith(T, "; Occupancy:") && !Current.empty()) {
        if (std::optional<uint64_t> N = number(T.substr(12)))
          Occupancy[Current] = int(*N);
      } else if (startsWith(T, ".amdgpu_metadata")) {
        InMeta = true;
      }
      continue;
    }
    if (startsWith(T, ".end_amdgpu_metadata")) {
      InMeta = InKernels = false;
      continue;
    }
    int Indent = int(Line.find_first_not_of(" "));
    if (Indent < 0)
      continue;
    if (Indent == 0) {
      InKernels = startsWith(T, "amdhsa.kernels:");
      if (startsWith(T, "amdhsa.target:") && Target.empty())
        Target = targetOf(T);
      continue;
    }
    if (!InKernels)
      continue;
    // A kernel is a list item ("  - .key: value") whose keys follow two columns further
    // in; the nested lists (.args) are deeper and are left out.
    bool Item = startsWith(T, "- ");
    if (Item && (ItemIndent < 0 || Indent == ItemIndent)) {
      ItemIndent = Indent;
      Entries.emplace_back();
      T = trim(T.substr(2));
    } else if (Indent != ItemIndent + 2 || Entries.empty()) {
      continue;
    }
    if (!startsWith(T, "."))
      continue;
    size_t Colon = T.find(':');
    if (Colon == std::string_view::npos)
      continue;
    Entries.back()[std::string(T.substr(0, Colon))] = std::string(trim(T.substr(Colon + 1)));
  }
  if (Entries.empty()) {
    Error = "no AMDGPU kernel metadata (.amdgpu_metadata with amdhsa.kernels) in the assembly";
    return {};
  }
  for (const auto &E : Entries) {
    AmdgpuKernel K;
    K.Target = Target;
    auto Get = [&](const char *Key) -> std::optional<uint64_t> {
      auto It = E.find(Key);
      return It == E.end() ? std::nullopt : number(It->second);
    };
    auto It = E.find(".name");
    std::optional<uint64_t> V = Get(".vgpr_count"), S = Get(".sgpr_count");
    if (It == E.end() || !V || !S) {
      Error = "an AMDGPU kernel entry without .name, .vgpr_count or .sgpr_count";
      return {};
    }
    K.Name = It->second;
    if (K.Name.size() >= 2 && (K.Name.front() == '\'' || K.Name.front() == '"'))
      K.Name = K.Name.substr(1, K.Name.size() - 2);
    K.Vgprs = int(*V);
    K.Sgprs = int(*S);
    K.Agprs = int(Get(".agpr_count").value_or(0));
    K.LdsBytes = Get(".group_segment_fixed_size").value_or(0);
    K.PrivateBytes = Get(".private_segment_fixed_size").value_or(0);
    K.WaveSize = int(Get(".wavefront_size").value_or(64));
    K.MaxFlatWorkgroupSize = int(Get(".max_flat_workgroup_size").value_or(0));
    K.VgprSpills = int(Get(".vgpr_spill_count").value_or(0));
    K.SgprSpills = int(Get(".sgpr_spill_count").value_or(0));
    if (auto O = Occupancy.find(K.Name); O != Occupancy.end())
      K.BackendOccupancy = O->second;
    Out.push_back(std::move(K));
  }
  return Out;
}

int amdgpuOccupancyVgprs(const AmdgpuKernel &K) {
  bool Unified = K.Target == "gfx90a" || K.Target == "gfx940" || K.Target == "gfx941" ||
                 K.Target == "gfx942" || K.Target == "gfx950";
  if (Unified && K.Agprs > 0)
    return (K.Vgprs + 3) / 4 * 4 + K.Agprs;
  return std::max(K.Vgprs, K.Agprs);
}

} // namespace warplint
