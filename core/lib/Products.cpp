//===- Products.cpp - SM counts of common NVIDIA GPUs ---------------------===//
#include "warplint/core/Products.h"

#include <cctype>
#include <iterator>

namespace warplint {
namespace {

// SM counts as enabled on the shipping product (not the full die).
const GpuProduct Products[] = {
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
    {"h100", "H100 SXM5", "sm_90", 132, "NVIDIA H100 Tensor Core GPU architecture whitepaper"},
    {"h100pcie", "H100 PCIe", "sm_90", 114,
     "NVIDIA H100 Tensor Core GPU architecture whitepaper (PCIe: 114 SMs)"},
    {"h200", "H200", "sm_90", 132, "NVIDIA H200 datasheet (same GH100 SM count as H100 SXM)"},
    {"b200", "B200", "sm_100", 148, "NVIDIA Blackwell B200 (148 SMs over two dies)"},
    {"rtx5090", "GeForce RTX 5090", "sm_120", 170,
     "NVIDIA RTX Blackwell GPU architecture whitepaper (RTX 5090: 170 SMs)"},
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

std::string knownProductList() {
  std::string Out;
  for (const GpuProduct &P : Products) {
    if (!Out.empty())
      Out += ", ";
    Out += std::string(P.Key) + " (" + std::to_string(P.SmCount) + " SMs)";
  }
  return Out;
}

} // namespace warplint
