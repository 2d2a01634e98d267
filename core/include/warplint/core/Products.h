//===- Products.h - GPU products: their architecture and SM count -*- C++ -*-===//
#pragma once

#include <string>
#include <string_view>

namespace warplint {

/// One GPU product, for grid-level figures (waves, min grid size) that depend on how
/// many SMs the part has.
struct GpuProduct {
  /// Lookup key, lowercase, no spaces: "h100", "rtx3080".
  const char *Key;
  /// Marketing name: "H100 SXM5".
  const char *Name;
  /// Architecture name as core's arch table spells it: "sm_90".
  const char *Arch;
  /// Streaming multiprocessors (SMs) enabled on the product.
  unsigned SmCount;
  /// Where the SM count comes from.
  const char *Source;
  /// SMs per GPC (all blocks of a thread block cluster share a GPC); null when the
  /// layout is not known. GpcCount entries.
  const int *SmsPerGpc = nullptr;
  int GpcCount = 0;
  /// Where the GPC figures come from, and what is assumed.
  const char *GpcSource = nullptr;
};

/// The product with key `Key` (case-insensitive; '-', '_' and spaces ignored), or nullptr.
const GpuProduct *findProduct(std::string_view Key);

/// Every known product, in table order.
const GpuProduct *productsBegin();
const GpuProduct *productsEnd();

/// "2 GPCs of 18 SMs and 6 of 16": a product's GPC layout; empty when unknown.
std::string gpcLayoutText(const GpuProduct &P);

/// "a100 (108 SMs), h100 (132 SMs), ..." for help texts and error messages.
std::string knownProductList();

/// What SmCount counts: "SMs" (NVIDIA), "CUs" (AMD GCN/CDNA), "WGPs" (AMD RDNA).
const char *productUnits(const GpuProduct &P);

} // namespace warplint
