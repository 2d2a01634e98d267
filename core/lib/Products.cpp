//===- Products.cpp - SM counts of common NVIDIA GPUs ---------------------===//
#include "warplint/core/Products.h"
#include "warplint/core/Arch.h"

#include <cctype>
#include <iterator>
#include <string>
#include <vector>

namespace warplint {
namespace {

// GH100 has 8 GPCs of 9 TPCs of 2 SMs (144 SMs); H100 SXM5 and H200 enable 132 SMs. Where
// thread block clusters can run was measured (bench/gpu/cluster_probe.cu; docs/measuring.md,
// "Clusters"): the SMs that ever hold blocks of one cluster, on an H100 80GB HBM3 and on an
// H200 (driver 580.159.04, CUDA 13.0), fall into 7 groups of 16 or 18 SMs, one of 8 and four
// pairs (TPCs) that take clusters of at most 2 blocks. With the rule of activeClusters, this
// layout gives cudaOccupancyMaxActiveClusters' answer for every cluster size from 1 to 16 at
// 1 to 32 blocks per SM on both GPUs (160 of 160 queries each). Both dies had the same
// layout; another die may differ (which TPCs are fused off is not published).
const int GH100Sxm5Gpcs[] = {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2};
const char *const GH100GpcSource =
    "measured with cudaOccupancyMaxActiveClusters and cluster launches on an H100 SXM5 and "
    "an H200 (bench/gpu): clusters run on 7 GPCs of 16-18 SMs, one of 8 SMs and four "
    "2-SM TPCs; another die may differ";

// SM counts as enabled on the shipping product (not the full die).
const GpuProduct Products[] = {
    // Legacy parts (cc 2.x and 3.x): CUDA 12 and newer cannot compile for them.
    {"gtx580", "GeForce GTX 580", "sm_20", 16, "NVIDIA GF110 (GTX 580: 16 SMs)"},
    {"k40", "Tesla K40", "sm_35", 15, "NVIDIA Tesla K40 datasheet (15 SMX)"},
    {"k80", "Tesla K80 (one of its two GK210)", "sm_37", 13,
     "NVIDIA Tesla K80 datasheet (2 x 13 SMX; each GPU is its own device)"},
    {"t4", "Tesla T4", "sm_75", 40, "NVIDIA Turing architecture whitepaper (T4: 40 SMs)"},
    {"rtx2080ti", "GeForce RTX 2080 Ti", "sm_75", 68,
     "NVIDIA Turing architecture whitepaper (2080 Ti: 68 SMs)"},
    {"v100", "Tesla V100 SXM2", "sm_70", 80, "NVIDIA Tesla V100 whitepaper (80 SMs)"},
    {"a100", "A100", "sm_80", 108, "NVIDIA A100 Tensor Core GPU architecture whitepaper"},
    {"a30", "A30", "sm_80", 56, "NVIDIA A30 datasheet (56 SMs)"},
    {"a10", "A10", "sm_86", 72, "NVIDIA A10 datasheet (72 SMs)"},
    {"a40", "A40", "sm_86", 84, "NVIDIA A40 datasheet (84 SMs)"},
    {"rtx3080", "GeForce RTX 3080", "sm_86", 68,
     "NVIDIA Ampere GA102 whitepaper (RTX 3080: 68 SMs)"},
    {"rtx3090", "GeForce RTX 3090", "sm_86", 82,
     "NVIDIA Ampere GA102 whitepaper (RTX 3090: 82 SMs)"},
    {"orin", "Jetson AGX Orin", "sm_87", 16, "NVIDIA Jetson AGX Orin datasheet (16 SMs)"},
    {"l4", "L4", "sm_89", 58, "NVIDIA Ada Lovelace architecture whitepaper (L4: 58 SMs)"},
    {"l40s", "L40S", "sm_89", 142, "NVIDIA L40S datasheet (142 SMs)"},
    {"rtx4080", "GeForce RTX 4080", "sm_89", 76,
     "NVIDIA Ada Lovelace architecture whitepaper (RTX 4080: 76 SMs)"},
    {"rtx4090", "GeForce RTX 4090", "sm_89", 128,
     "NVIDIA Ada Lovelace architecture whitepaper (RTX 4090: 128 SMs)"},
    {"h100", "H100 SXM5", "sm_90", 132, "NVIDIA H100 Tensor Core GPU architecture whitepaper",
     GH100Sxm5Gpcs, 12, GH100GpcSource},
    {"h100pcie", "H100 PCIe", "sm_90", 114,
     "NVIDIA H100 Tensor Core GPU architecture whitepaper (PCIe: 114 SMs)"},
    {"h200", "H200", "sm_90", 132, "NVIDIA H200 datasheet (same GH100 SM count as H100 SXM)",
     GH100Sxm5Gpcs, 12, GH100GpcSource},
    {"b200", "B200", "sm_100", 148, "NVIDIA Blackwell B200 (148 SMs over two dies)"},
    {"rtx5090", "GeForce RTX 5090", "sm_120", 170,
     "NVIDIA RTX Blackwell GPU architecture whitepaper (RTX 5090: 170 SMs)"},
    // AMD: SmCount is the compute units (CUs) of GCN/CDNA parts; for RDNA, whose arch rows
    // count per WGP (HIP's default WGP mode: two CUs), the WGPs.
    {"mi50", "Instinct MI50", "gfx906", 60, "AMD Instinct MI50 datasheet (60 CUs)"},
    {"mi60", "Instinct MI60", "gfx906", 64, "AMD Instinct MI60 datasheet (64 CUs)"},
    {"radeonvii", "Radeon VII", "gfx906", 60, "AMD Radeon VII specifications (60 CUs)"},
    {"mi100", "Instinct MI100", "gfx908", 120, "AMD Instinct MI100 datasheet (120 CUs)"},
    {"mi210", "Instinct MI210", "gfx90a", 104, "AMD Instinct MI210 datasheet (104 CUs)"},
    {"mi250x", "Instinct MI250X (one of its two GCDs)", "gfx90a", 110,
     "AMD Instinct MI250X datasheet (220 CUs over 2 GCDs; each GCD is its own device)"},
    {"mi300x", "Instinct MI300X", "gfx942", 304, "AMD Instinct MI300X datasheet (304 CUs)"},
    {"rx6800xt", "Radeon RX 6800 XT", "gfx1030", 36,
     "AMD Radeon RX 6800 XT specifications (72 CUs = 36 WGPs)"},
    {"rx7900xtx", "Radeon RX 7900 XTX", "gfx1100", 48,
     "AMD Radeon RX 7900 XTX specifications (96 CUs = 48 WGPs)"},
};

std::string normalise(std::string_view S) {
  std::string Out;
  for (char C : S)
    if (C != '-' && C != '_' && C != ' ')
      Out += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Out;
}

} // namespace

const GpuProduct *findProduct(std::string_view Key) {
  std::string Want = normalise(Key);
  for (const GpuProduct &P : Products)
    if (Want == P.Key)
      return &P;
  return nullptr;
}

const GpuProduct *productsBegin() { return std::begin(Products); }
const GpuProduct *productsEnd() { return std::end(Products); }

std::string gpcLayoutText(const GpuProduct &P) {
  if (!P.SmsPerGpc || P.GpcCount <= 0)
    return "";
  // Runs of equal GPCs: "2 GPCs of 18 SMs, 5 of 16, 1 of 8 and 4 of 2".
  std::vector<std::string> Runs;
  int I = 0;
  while (I < P.GpcCount) {
    int J = I;
    while (J < P.GpcCount && P.SmsPerGpc[J] == P.SmsPerGpc[I])
      ++J;
    const int Run = J - I;
    if (Runs.empty())
      Runs.push_back(std::to_string(Run) + (Run == 1 ? " GPC of " : " GPCs of ") +
                     std::to_string(P.SmsPerGpc[I]) + " SMs");
    else
      Runs.push_back(std::to_string(Run) + " of " + std::to_string(P.SmsPerGpc[I]));
    I = J;
  }
  std::string Out;
  for (size_t K = 0; K < Runs.size(); ++K)
    Out += (K == 0 ? "" : K + 1 == Runs.size() ? " and " : ", ") + Runs[K];
  return Out;
}

const char *productUnits(const GpuProduct &P) {
  std::string_view A = P.Arch;
  if (A.substr(0, 4) == "gfx1")
    return "WGPs";
  return isAmdArchName(A) ? "CUs" : "SMs";
}

std::string knownProductList() {
  std::string Out;
  for (const GpuProduct &P : Products) {
    if (!Out.empty())
      Out += ", ";
    Out += std::string(P.Key) + " (" + std::to_string(P.SmCount) + " " + productUnits(P) + ")";
  }
  return Out;
}

} // namespace warplint
