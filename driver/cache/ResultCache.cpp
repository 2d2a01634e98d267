//===- ResultCache.cpp - a file's analysis, reused while nothing it read changed ===//
#include "driver/cache/ResultCache.h"

#include "driver/formats/BoundedJson.h"
#include "resources/Resources.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cmath>

namespace warplint::driver {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

// --- Writing -------------------------------------------------------------------------

template <typename T> Value opt(const std::optional<T> &V) {
  if (!V)
    return nullptr;
  if constexpr (std::is_integral_v<T>)
    return static_cast<int64_t>(*V);
  else
    return *V;
}

Value pos(const SourcePos &P) {
  return Array{P.File, int64_t(P.Line), int64_t(P.Column)};
}

Value dims(const std::optional<std::array<uint64_t, 3>> &D) {
  if (!D)
    return nullptr;
  return Array{int64_t((*D)[0]), int64_t((*D)[1]), int64_t((*D)[2])};
}

Value resources(const KernelResources &R) {
  return Array{R.RegistersPerThread,  int64_t(R.StaticSharedBytes), R.Barriers,
               R.LaunchBoundsMaxThreads, R.LaunchBoundsMinBlocks,
               int64_t(R.OptinDynamicSharedBytes), R.CarveoutPercent, R.VirtualResources,
               R.Vgprs, R.Sgprs, int64_t(R.SharedSplitBytes)};
}

Value shape(const std::optional<LaunchShape> &S) {
  if (!S)
    return nullptr;
  Value Block = nullptr;
  if (S->Block)
    Block = Array{S->Block->X, S->Block->Y, S->Block->Z};
  return Array{S->ThreadsPerBlock, int64_t(S->DynamicSharedBytes), std::move(Block)};
}

Value step(const NextStep &S) {
  return Array{int64_t(S.What),       S.Limiting,      S.Current,
               opt(S.GainAt),         S.GainBlocksPerSm, S.GainOccupancy,
               S.HeadroomUpTo,        opt(S.LossBlocksPerSm), S.LossOccupancy,
               opt(S.BestAt),         S.BestBlocksPerSm, S.BestOccupancy};
}

Value verifiedValue(const std::optional<VerifiedAdvice> &V) {
  if (!V)
    return nullptr;
  return Object{{"compiler", V->Compiler},
                {"threads", int64_t(V->Threads)},
                {"min_blocks", int64_t(V->MinBlocks)},
                {"max_regs", int64_t(V->MaxRegisters)},
                {"cap_reason", V->CapReason},
                {"asked", int64_t(V->AskedRegisters)},
                {"regs", opt(V->Registers)},
                {"spill_stores", int64_t(V->SpillStoreBytes)},
                {"spill_loads", int64_t(V->SpillLoadBytes)},
                {"blocks", opt(V->BlocksPerSm)},
                {"occupancy", opt(V->Occupancy)},
                {"error", V->Error},
                {"amd", V->Amd},
                {"sgprs", int64_t(V->Sgprs)},
                {"scratch", int64_t(V->ScratchBytes)},
                {"vgpr_spills", int64_t(V->VgprSpills)},
                {"sgpr_spills", int64_t(V->SgprSpills)},
                {"waves", opt(V->WavesPerSimd)}};
}

Value launch(const LaunchRecord &L) {
  Array Steps;
  for (const NextStep &S : L.NextSteps)
    Steps.push_back(step(S));
  return Object{{"pos", pos(L.Pos)},
                {"kernel", opt(L.Kernel)},
                {"mangled", opt(L.MangledKernel)},
                {"api", L.Api},
                {"block", dims(L.Block)},
                {"grid", dims(L.Grid)},
                {"block_text", L.BlockText},
                {"grid_text", L.GridText},
                {"dyn", opt(L.DynamicSmemBytes)},
                {"dyn_expr", opt(L.DynamicSmemExpr)},
                {"inst", L.Instantiation},
                {"enclosing", L.Enclosing},
                {"via", L.Via},
                {"candidates", int64_t(L.Candidates)},
                {"from_calls", int64_t(L.FromCalls)},
                {"from_call_line", int64_t(L.FromCallLine)},
                {"lb_threads", opt(L.LaunchBoundsMaxThreads)},
                {"lb_blocks", opt(L.LaunchBoundsMinBlocks)},
                {"maxnreg", opt(L.MaxNReg)},
                {"has_optin", L.HasOptin},
                {"optin", opt(L.OptinDynamicSmemBytes)},
                {"arch", L.Arch},
                {"static", opt(L.StaticSmemBytes)},
                {"registers", opt(L.Registers)},
                {"registers_source", L.RegistersSource},
                {"registers_missing", L.RegistersMissing},
                {"spill_stores", opt(L.SpillStoreBytes)},
                {"spill_loads", opt(L.SpillLoadBytes)},
                {"vgprs", opt(L.Vgprs)},
                {"agprs", opt(L.Agprs)},
                {"sgprs", opt(L.Sgprs)},
                {"scratch", opt(L.PrivateSegmentBytes)},
                {"vgpr_spills", opt(L.VgprSpills)},
                {"sgpr_spills", opt(L.SgprSpills)},
                {"backend_occ", opt(L.BackendWavesPerSimd)},
                {"waves_per_simd", opt(L.WavesPerSimd)},
                {"wave_size", int64_t(L.WaveSize)},
                {"waves_per_eu_min", opt(L.WavesPerEuMin)},
                {"resources", resources(L.Resources)},
                {"shape", shape(L.Shape)},
                {"blocks", opt(L.BlocksPerSm)},
                {"active", opt(L.ActiveWarpsPerSm)},
                {"max_warps", opt(L.MaxWarpsPerSm)},
                {"warps", opt(L.WarpsPerBlock)},
                {"occupancy", opt(L.Occupancy)},
                {"uncapped_regs", opt(L.UncappedRegisters)},
                {"uncapped_blocks", opt(L.UncappedBlocksPerSm)},
                {"uncapped_occ", opt(L.UncappedOccupancy)},
                {"verified", verifiedValue(L.Verified)},
                {"limiter_mask", int64_t(L.LimiterMask)},
                {"limiters", Array(L.Limiters)},
                {"error", opt(L.LaunchError)},
                {"error_kind", opt(L.LaunchErrorKind)},
                {"steps", std::move(Steps)},
                {"budget", opt(L.RegisterBudget)},
                {"budget_loss", opt(L.RegisterBudgetLossBlocks)},
                {"ceiling_blocks", opt(L.CeilingBlocksPerSm)},
                {"ceiling", opt(L.CeilingOccupancy)},
                {"cluster", dims(L.Cluster)},
                {"cluster_text", L.ClusterText},
                {"non_portable", L.NonPortableCluster},
                {"gpu", L.Gpu},
                {"gpu_sms", opt(L.GpuSms)},
                {"clusters", opt(L.MaxActiveClusters)},
                {"waves", L.Waves ? Value(Array{L.Waves->BlocksPerWave, L.Waves->WaveCount,
                                                L.Waves->Waves, L.Waves->LastWaveBlocks,
                                                L.Waves->LastWaveFullness,
                                                L.Waves->Efficiency})
                                  : Value(nullptr)}};
}

Value strings(const std::vector<std::string> &S) {
  Array A;
  for (const std::string &X : S)
    A.push_back(X);
  return A;
}

Value branch(const BranchRecord &B) {
  Array Shapes;
  for (const BranchShapeRecord &S : B.Shapes)
    Shapes.push_back(Object{
        {"block", Array{int64_t(S.Block[0]), int64_t(S.Block[1]), int64_t(S.Block[2])}},
        {"launch_line", int64_t(S.LaunchLine)},
        {"evaluated", S.Evaluated},
        {"divergent", int64_t(S.DivergentWarps)},
        {"warps", int64_t(S.Warps)},
        {"varies", S.Varies},
        {"worst", S.WorstEfficiency},
        {"best", S.BestEfficiency},
        {"trips", S.OverTrips},
        {"true_min", S.TrueLanesMin},
        {"true_max", S.TrueLanesMax},
        {"minority", int64_t(S.MinorityLanes)},
        {"sampled", strings(S.Sampled)}});
  return Object{{"pos", pos(B.Pos)},
                {"kernel", B.Kernel},
                {"kind", B.Kind},
                {"condition", B.Condition},
                {"term", B.Term},
                {"severity", B.Severity},
                {"idiom", B.Idiom},
                {"note_reasons", strings(B.NoteReasons)},
                {"assumed", B.BlockAssumed},
                {"wave", int64_t(B.WaveSize)},
                {"shapes", std::move(Shapes)},
                {"worst", B.Worst ? Value(int64_t(*B.Worst)) : Value(nullptr)},
                {"finding", Array{int64_t(B.FindingLine), int64_t(B.FindingColumn),
                                  int64_t(B.Places)}},
                {"impact", B.FindingImpact ? Value(Array{B.FindingImpact->Value,
                                                         B.FindingImpact->Unit,
                                                         int64_t(B.FindingImpact->Rank)})
                                           : Value(nullptr)}};
}

Value access(const AccessRecord &A) {
  return Object{{"pos", pos(A.Pos)},
                {"check", A.Check},
                {"kernel", A.Kernel},
                {"access", A.Access},
                {"space", A.Space},
                {"kind", A.Kind},
                {"bytes", int64_t(A.BytesPerLane)},
                {"block", Array{int64_t(A.Block[0]), int64_t(A.Block[1]), int64_t(A.Block[2])}},
                {"assumed", A.BlockAssumed},
                {"values", A.Values},
                {"warp", int64_t(A.Warp)},
                {"wave_lanes", int64_t(A.WaveLanes)},
                {"segment", int64_t(A.SegmentBytes)},
                {"lanes", int64_t(A.ActiveLanes)},
                {"stride", opt(A.LaneStrideBytes)},
                {"sectors", opt(A.Sectors)},
                {"ideal_sectors", opt(A.IdealSectors)},
                {"requested", opt(A.BytesRequested)},
                {"misalignment", opt(A.MisalignmentBytes)},
                {"wavefronts", opt(A.Wavefronts)},
                {"ideal_wavefronts", opt(A.IdealWavefronts)},
                {"ways", opt(A.ConflictWays)},
                {"finding_line", int64_t(A.FindingLine)},
                {"finding_column", int64_t(A.FindingColumn)},
                {"places", int64_t(A.Places)},
                {"severity", A.Severity},
                {"note_reason", A.NoteReason}};
}

Value kernel(const KernelRecord &K) {
  return Object{{"name", K.Name},
                {"mangled", K.MangledName},
                {"pos", pos({K.File, K.Line, K.Column})},
                {"begin", int64_t(K.BeginLine)},
                {"end", int64_t(K.EndLine)},
                {"static", opt(K.StaticSmemBytes)},
                {"lb_threads", opt(K.LaunchBoundsMaxThreads)},
                {"lb_blocks", opt(K.LaunchBoundsMinBlocks)},
                {"lb_cluster", opt(K.LaunchBoundsMaxCluster)},
                {"maxnreg", opt(K.MaxNReg)},
                {"has_optin", K.HasOptin},
                {"optin", opt(K.OptinDynamicSmemBytes)},
                {"optin_expr", opt(K.OptinExpr)},
                {"launches", int64_t(K.LaunchCount)}};
}

Value finding(const Finding &F) {
  Array Notes;
  for (const FindingNote &N : F.Notes)
    Notes.push_back(Array{pos(N.Pos), N.Message});
  Array Fixes;
  for (const FixEdit &E : F.Fixes)
    Fixes.push_back(Array{E.File, int64_t(E.Offset), int64_t(E.Length), E.Text, pos(E.Begin),
                          pos(E.End)});
  Value Impact = nullptr;
  if (F.Impact)
    Impact = Array{F.Impact->Value, F.Impact->Unit, int64_t(F.Impact->Rank)};
  return Object{{"check", F.Check},
                {"level", int64_t(F.Level)},
                {"pos", pos(F.Pos)},
                {"message", F.Message},
                {"notes", std::move(Notes)},
                {"arch", F.Arch},
                {"fixes", std::move(Fixes)},
                {"impact", std::move(Impact)}};
}

// --- Reading (a malformed entry is a miss, never a crash) ----------------------------

struct Reader {
  bool Ok = true;

  const Array *array(const Value *V) {
    const Array *A = V ? V->getAsArray() : nullptr;
    Ok &= A != nullptr;
    return A;
  }
  std::string str(const Value *V) {
    std::optional<llvm::StringRef> S = V ? V->getAsString() : std::nullopt;
    Ok &= S.has_value();
    return S ? S->str() : std::string();
  }
  int64_t num(const Value *V) {
    std::optional<int64_t> N = V ? V->getAsInteger() : std::nullopt;
    Ok &= N.has_value();
    return N.value_or(0);
  }
  double real(const Value *V) {
    std::optional<double> N = V ? V->getAsNumber() : std::nullopt;
    Ok &= N.has_value();
    return N.value_or(0);
  }
  bool boolean(const Value *V) {
    std::optional<bool> B = V ? V->getAsBoolean() : std::nullopt;
    Ok &= B.has_value();
    return B.value_or(false);
  }
  template <typename T> std::optional<T> optNum(const Value *V) {
    if (!V || V->getAsNull())
      return std::nullopt;
    return static_cast<T>(num(V));
  }
  std::optional<double> optReal(const Value *V) {
    if (!V || V->getAsNull())
      return std::nullopt;
    return real(V);
  }
  std::optional<std::string> optStr(const Value *V) {
    if (!V || V->getAsNull())
      return std::nullopt;
    return str(V);
  }
  const Value *at(const Array *A, size_t I) {
    Ok &= A && I < A->size();
    return Ok ? &(*A)[I] : nullptr;
  }
  SourcePos position(const Value *V) {
    const Array *A = array(V);
    if (!Ok)
      return {};
    return {str(at(A, 0)), unsigned(num(at(A, 1))), unsigned(num(at(A, 2)))};
  }
  std::optional<std::array<uint64_t, 3>> dims(const Value *V) {
    if (!V || V->getAsNull())
      return std::nullopt;
    const Array *A = array(V);
    if (!Ok)
      return std::nullopt;
    return std::array<uint64_t, 3>{uint64_t(num(at(A, 0))), uint64_t(num(at(A, 1))),
                                   uint64_t(num(at(A, 2)))};
  }
};

std::optional<VerifiedAdvice> readVerified(Reader &Rd, const Value *V) {
  if (!V || V->getAsNull())
    return std::nullopt;
  const Object *O = V->getAsObject();
  if (!O) {
    Rd.Ok = false;
    return std::nullopt;
  }
  VerifiedAdvice A;
  A.Compiler = Rd.str(O->get("compiler"));
  A.Threads = unsigned(Rd.num(O->get("threads")));
  A.MinBlocks = unsigned(Rd.num(O->get("min_blocks")));
  A.MaxRegisters = unsigned(Rd.num(O->get("max_regs")));
  A.CapReason = Rd.str(O->get("cap_reason"));
  A.AskedRegisters = unsigned(Rd.num(O->get("asked")));
  A.Registers = Rd.optNum<unsigned>(O->get("regs"));
  A.SpillStoreBytes = uint64_t(Rd.num(O->get("spill_stores")));
  A.SpillLoadBytes = uint64_t(Rd.num(O->get("spill_loads")));
  A.BlocksPerSm = Rd.optNum<unsigned>(O->get("blocks"));
  A.Occupancy = Rd.optReal(O->get("occupancy"));
  A.Error = Rd.str(O->get("error"));
  A.Amd = Rd.boolean(O->get("amd"));
  A.Sgprs = unsigned(Rd.num(O->get("sgprs")));
  A.ScratchBytes = uint64_t(Rd.num(O->get("scratch")));
  A.VgprSpills = unsigned(Rd.num(O->get("vgpr_spills")));
  A.SgprSpills = unsigned(Rd.num(O->get("sgpr_spills")));
  A.WavesPerSimd = Rd.optNum<unsigned>(O->get("waves"));
  return A;
}

KernelResources readResources(Reader &Rd, const Value *V) {
  KernelResources R;
  const Array *A = Rd.array(V);
  if (!Rd.Ok)
    return R;
  R.RegistersPerThread = int(Rd.num(Rd.at(A, 0)));
  R.StaticSharedBytes = uint64_t(Rd.num(Rd.at(A, 1)));
  R.Barriers = int(Rd.num(Rd.at(A, 2)));
  R.LaunchBoundsMaxThreads = int(Rd.num(Rd.at(A, 3)));
  R.LaunchBoundsMinBlocks = int(Rd.num(Rd.at(A, 4)));
  R.OptinDynamicSharedBytes = uint64_t(Rd.num(Rd.at(A, 5)));
  R.CarveoutPercent = int(Rd.num(Rd.at(A, 6)));
  R.VirtualResources = int(Rd.num(Rd.at(A, 7)));
  R.Vgprs = int(Rd.num(Rd.at(A, 8)));
  R.Sgprs = int(Rd.num(Rd.at(A, 9)));
  R.SharedSplitBytes = uint64_t(Rd.num(Rd.at(A, 10)));
  return R;
}

std::optional<LaunchShape> readShape(Reader &Rd, const Value *V) {
  if (!V || V->getAsNull())
    return std::nullopt;
  const Array *A = Rd.array(V);
  if (!Rd.Ok)
    return std::nullopt;
  LaunchShape S;
  S.ThreadsPerBlock = Rd.num(Rd.at(A, 0));
  S.DynamicSharedBytes = uint64_t(Rd.num(Rd.at(A, 1)));
  const Value *B = Rd.at(A, 2);
  if (B && !B->getAsNull()) {
    const Array *BA = Rd.array(B);
    if (Rd.Ok)
      S.Block = Dim3{Rd.num(Rd.at(BA, 0)), Rd.num(Rd.at(BA, 1)), Rd.num(Rd.at(BA, 2))};
  }
  return S;
}

NextStep readStep(Reader &Rd, const Value *V) {
  NextStep S{};
  const Array *A = Rd.array(V);
  if (!Rd.Ok)
    return S;
  int64_t What = Rd.num(Rd.at(A, 0));
  Rd.Ok &= What >= 0 && What < int64_t(NumResources);
  S.What = static_cast<Resource>(What);
  S.Limiting = Rd.boolean(Rd.at(A, 1));
  S.Current = Rd.num(Rd.at(A, 2));
  S.GainAt = Rd.optNum<int64_t>(Rd.at(A, 3));
  S.GainBlocksPerSm = int(Rd.num(Rd.at(A, 4)));
  S.GainOccupancy = Rd.real(Rd.at(A, 5));
  S.HeadroomUpTo = Rd.num(Rd.at(A, 6));
  S.LossBlocksPerSm = Rd.optNum<int>(Rd.at(A, 7));
  S.LossOccupancy = Rd.real(Rd.at(A, 8));
  S.BestAt = Rd.optNum<int64_t>(Rd.at(A, 9));
  S.BestBlocksPerSm = int(Rd.num(Rd.at(A, 10)));
  S.BestOccupancy = Rd.real(Rd.at(A, 11));
  return S;
}

LaunchRecord readLaunch(Reader &Rd, const Object &O) {
  LaunchRecord L;
  L.Pos = Rd.position(O.get("pos"));
  L.Kernel = Rd.optStr(O.get("kernel"));
  L.MangledKernel = Rd.optStr(O.get("mangled"));
  L.Api = Rd.str(O.get("api"));
  L.Block = Rd.dims(O.get("block"));
  L.Grid = Rd.dims(O.get("grid"));
  L.BlockText = Rd.str(O.get("block_text"));
  L.GridText = Rd.str(O.get("grid_text"));
  L.DynamicSmemBytes = Rd.optNum<uint64_t>(O.get("dyn"));
  L.DynamicSmemExpr = Rd.optStr(O.get("dyn_expr"));
  L.Instantiation = Rd.str(O.get("inst"));
  L.Enclosing = Rd.str(O.get("enclosing"));
  L.Via = Rd.str(O.get("via"));
  L.Candidates = unsigned(Rd.num(O.get("candidates")));
  L.FromCalls = unsigned(Rd.num(O.get("from_calls")));
  L.FromCallLine = unsigned(Rd.num(O.get("from_call_line")));
  L.LaunchBoundsMaxThreads = Rd.optNum<uint64_t>(O.get("lb_threads"));
  L.LaunchBoundsMinBlocks = Rd.optNum<uint64_t>(O.get("lb_blocks"));
  L.MaxNReg = Rd.optNum<uint64_t>(O.get("maxnreg"));
  L.HasOptin = Rd.boolean(O.get("has_optin"));
  L.OptinDynamicSmemBytes = Rd.optNum<uint64_t>(O.get("optin"));
  L.Arch = Rd.str(O.get("arch"));
  L.StaticSmemBytes = Rd.optNum<uint64_t>(O.get("static"));
  L.Registers = Rd.optNum<unsigned>(O.get("registers"));
  L.RegistersSource = Rd.str(O.get("registers_source"));
  L.RegistersMissing = Rd.str(O.get("registers_missing"));
  L.SpillStoreBytes = Rd.optNum<uint64_t>(O.get("spill_stores"));
  L.SpillLoadBytes = Rd.optNum<uint64_t>(O.get("spill_loads"));
  L.Vgprs = Rd.optNum<unsigned>(O.get("vgprs"));
  L.Agprs = Rd.optNum<unsigned>(O.get("agprs"));
  L.Sgprs = Rd.optNum<unsigned>(O.get("sgprs"));
  L.PrivateSegmentBytes = Rd.optNum<uint64_t>(O.get("scratch"));
  L.VgprSpills = Rd.optNum<unsigned>(O.get("vgpr_spills"));
  L.SgprSpills = Rd.optNum<unsigned>(O.get("sgpr_spills"));
  L.BackendWavesPerSimd = Rd.optNum<unsigned>(O.get("backend_occ"));
  L.WavesPerSimd = Rd.optNum<unsigned>(O.get("waves_per_simd"));
  L.WaveSize = unsigned(Rd.optNum<uint64_t>(O.get("wave_size")).value_or(0));
  L.WavesPerEuMin = Rd.optNum<uint64_t>(O.get("waves_per_eu_min"));
  L.Resources = readResources(Rd, O.get("resources"));
  L.Shape = readShape(Rd, O.get("shape"));
  L.BlocksPerSm = Rd.optNum<unsigned>(O.get("blocks"));
  L.ActiveWarpsPerSm = Rd.optNum<unsigned>(O.get("active"));
  L.MaxWarpsPerSm = Rd.optNum<unsigned>(O.get("max_warps"));
  L.WarpsPerBlock = Rd.optNum<unsigned>(O.get("warps"));
  L.Occupancy = Rd.optReal(O.get("occupancy"));
  L.UncappedRegisters = Rd.optNum<unsigned>(O.get("uncapped_regs"));
  L.UncappedBlocksPerSm = Rd.optNum<unsigned>(O.get("uncapped_blocks"));
  L.UncappedOccupancy = Rd.optReal(O.get("uncapped_occ"));
  L.Verified = readVerified(Rd, O.get("verified"));
  L.LimiterMask = unsigned(Rd.num(O.get("limiter_mask")));
  if (const Array *A = Rd.array(O.get("limiters")))
    for (const Value &V : *A)
      L.Limiters.push_back(Rd.str(&V));
  L.LaunchError = Rd.optStr(O.get("error"));
  L.LaunchErrorKind = Rd.optStr(O.get("error_kind"));
  if (const Array *A = Rd.array(O.get("steps")))
    for (const Value &V : *A)
      L.NextSteps.push_back(readStep(Rd, &V));
  L.RegisterBudget = Rd.optNum<int64_t>(O.get("budget"));
  L.RegisterBudgetLossBlocks = Rd.optNum<int>(O.get("budget_loss"));
  L.CeilingBlocksPerSm = Rd.optNum<unsigned>(O.get("ceiling_blocks"));
  L.CeilingOccupancy = Rd.optReal(O.get("ceiling"));
  L.Cluster = Rd.dims(O.get("cluster"));
  L.ClusterText = Rd.str(O.get("cluster_text"));
  L.NonPortableCluster = Rd.boolean(O.get("non_portable"));
  L.Gpu = Rd.str(O.get("gpu"));
  L.GpuSms = Rd.optNum<unsigned>(O.get("gpu_sms"));
  L.MaxActiveClusters = Rd.optNum<int64_t>(O.get("clusters"));
  if (const Value *W = O.get("waves"); W && !W->getAsNull()) {
    const Array *A = Rd.array(W);
    WaveInfo I;
    I.BlocksPerWave = int64_t(Rd.num(Rd.at(A, 0)));
    I.WaveCount = int64_t(Rd.num(Rd.at(A, 1)));
    I.Waves = Rd.real(Rd.at(A, 2));
    I.LastWaveBlocks = int64_t(Rd.num(Rd.at(A, 3)));
    I.LastWaveFullness = Rd.real(Rd.at(A, 4));
    I.Efficiency = Rd.real(Rd.at(A, 5));
    L.Waves = I;
  }
  return L;
}

KernelRecord readKernel(Reader &Rd, const Object &O) {
  KernelRecord K;
  K.Name = Rd.str(O.get("name"));
  K.MangledName = Rd.str(O.get("mangled"));
  SourcePos P = Rd.position(O.get("pos"));
  K.File = P.File;
  K.Line = P.Line;
  K.Column = P.Column;
  K.BeginLine = unsigned(Rd.num(O.get("begin")));
  K.EndLine = unsigned(Rd.num(O.get("end")));
  K.StaticSmemBytes = Rd.optNum<uint64_t>(O.get("static"));
  K.LaunchBoundsMaxThreads = Rd.optNum<uint64_t>(O.get("lb_threads"));
  K.LaunchBoundsMinBlocks = Rd.optNum<uint64_t>(O.get("lb_blocks"));
  K.LaunchBoundsMaxCluster = Rd.optNum<uint64_t>(O.get("lb_cluster"));
  K.MaxNReg = Rd.optNum<uint64_t>(O.get("maxnreg"));
  K.HasOptin = Rd.boolean(O.get("has_optin"));
  K.OptinDynamicSmemBytes = Rd.optNum<uint64_t>(O.get("optin"));
  K.OptinExpr = Rd.optStr(O.get("optin_expr"));
  K.LaunchCount = unsigned(Rd.num(O.get("launches")));
  return K;
}

Value sync(const SyncRecord &S) {
  Array Threads, Lanes;
  for (const auto &R : S.SkippingThreads)
    Threads.push_back(Array{int64_t(R[0]), int64_t(R[1])});
  for (const auto &W : S.AbsentLanes)
    Lanes.push_back(Array{int64_t(W[0]), int64_t(W[1])});
  return Object{{"pos", pos(S.Pos)},
                {"check", S.Check},
                {"kernel", S.Kernel},
                {"call", S.Call},
                {"severity", S.Severity},
                {"block", Array{int64_t(S.Block[0]), int64_t(S.Block[1]), int64_t(S.Block[2])}},
                {"assumed", S.BlockAssumed},
                {"evaluated", S.Evaluated},
                {"values", S.Values},
                {"threads", std::move(Threads)},
                {"lanes", std::move(Lanes)},
                {"mask", S.Mask ? Value(int64_t(*S.Mask)) : Value(nullptr)},
                {"cause", S.Cause},
                {"cause_line", int64_t(S.CauseLine)}};
}

SyncRecord readSync(Reader &Rd, const Object &O) {
  SyncRecord S;
  S.Pos = Rd.position(O.get("pos"));
  S.Check = Rd.str(O.get("check"));
  S.Kernel = Rd.str(O.get("kernel"));
  S.Call = Rd.str(O.get("call"));
  S.Severity = Rd.str(O.get("severity"));
  if (const Array *B = Rd.array(O.get("block")); B && B->size() == 3)
    for (unsigned D = 0; D < 3; ++D)
      S.Block[D] = unsigned(Rd.num(&(*B)[D]));
  else
    Rd.Ok = false;
  S.BlockAssumed = Rd.boolean(O.get("assumed"));
  S.Evaluated = Rd.boolean(O.get("evaluated"));
  S.Values = Rd.str(O.get("values"));
  if (const Array *T = Rd.array(O.get("threads")))
    for (const Value &E : *T) {
      const Array *P = Rd.array(&E);
      if (!P || P->size() != 2) {
        Rd.Ok = false;
        break;
      }
      S.SkippingThreads.push_back({unsigned(Rd.num(&(*P)[0])), unsigned(Rd.num(&(*P)[1]))});
    }
  if (const Array *L = Rd.array(O.get("lanes")))
    for (const Value &E : *L) {
      const Array *P = Rd.array(&E);
      if (!P || P->size() != 2) {
        Rd.Ok = false;
        break;
      }
      S.AbsentLanes.push_back({uint32_t(Rd.num(&(*P)[0])), uint32_t(Rd.num(&(*P)[1]))});
    }
  if (std::optional<uint64_t> M = Rd.optNum<uint64_t>(O.get("mask")))
    S.Mask = uint32_t(*M);
  S.Cause = Rd.str(O.get("cause"));
  S.CauseLine = unsigned(Rd.num(O.get("cause_line")));
  return S;
}

Value raceAccess(const ::warplint::RaceAccessRecord &A) {
  return Array{pos(A.Pos), A.Access, A.Kind};
}

Value raceThread(const ::warplint::RaceThreadRecord &T) {
  return Array{T.Thread[0], T.Thread[1], T.Thread[2], T.Block, int64_t(T.Linear)};
}

Value race(const RaceRecord &R) {
  Value Too = nullptr;
  if (R.CrossBlockToo)
    Too = Array{raceThread((*R.CrossBlockToo)[0]), raceThread((*R.CrossBlockToo)[1])};
  Value Impact = nullptr;
  if (R.FindingImpact)
    Impact = Array{R.FindingImpact->Value, R.FindingImpact->Unit,
                   int64_t(R.FindingImpact->Rank)};
  Value Skip = nullptr;
  if (R.Skip)
    Skip = Array{int64_t(R.Skip->Line),
                 R.Skip->Barrier,
                 R.Skip->Condition,
                 R.Skip->Blocks,
                 int64_t(R.Skip->BlockCount),
                 int64_t(R.Skip->GridBlocks),
                 R.Skip->Values,
                 R.Skip->Sampled};
  return Object{{"pos", pos(R.Pos)},
                {"check", R.Check},
                {"kernel", R.Kernel},
                {"space", R.Space},
                {"object", R.Object},
                {"word", R.Word},
                {"accesses", Array{raceAccess(R.First), raceAccess(R.Second)}},
                {"threads", Array{raceThread(R.Thread1), raceThread(R.Thread2)}},
                {"cross_block", R.CrossBlock},
                {"cross_block_too", std::move(Too)},
                {"same_warp", R.SameWarp},
                {"block", Array{int64_t(R.Block[0]), int64_t(R.Block[1]), int64_t(R.Block[2])}},
                {"assumed", R.BlockAssumed},
                {"barrier", R.Barrier},
                {"fix", R.Fix},
                {"loop_line", int64_t(R.LoopLine)},
                {"loop_carried", R.LoopCarried},
                {"zero_trip_loop_line", int64_t(R.ZeroTripLine)},
                {"certainty", R.Certainty},
                {"values", R.Values},
                {"sampled", R.ValuesSampled},
                {"samples", R.Samples},
                {"arch", R.Arch},
                {"arch_note", R.ArchNote},
                {"benign", R.Benign},
                {"clamp_write_back", R.ClampWriteBack},
                {"volatile", R.Volatile},
                {"more_pairs", int64_t(R.MorePairs)},
                {"skip", std::move(Skip)},
                {"severity", R.Severity},
                {"note_reason", R.NoteReason},
                {"impact", std::move(Impact)}};
}

::warplint::RaceAccessRecord readRaceAccess(Reader &Rd, const Value *V) {
  const Array *A = Rd.array(V);
  ::warplint::RaceAccessRecord R;
  if (!Rd.Ok)
    return R;
  R.Pos = Rd.position(Rd.at(A, 0));
  R.Access = Rd.str(Rd.at(A, 1));
  R.Kind = Rd.str(Rd.at(A, 2));
  return R;
}

::warplint::RaceThreadRecord readRaceThread(Reader &Rd, const Value *V) {
  const Array *A = Rd.array(V);
  ::warplint::RaceThreadRecord T;
  if (!Rd.Ok)
    return T;
  for (unsigned D = 0; D < 3; ++D)
    T.Thread[D] = Rd.num(Rd.at(A, D));
  T.Block = Rd.num(Rd.at(A, 3));
  T.Linear = unsigned(Rd.num(Rd.at(A, 4)));
  return T;
}

RaceRecord readRace(Reader &Rd, const Object &O) {
  RaceRecord R;
  R.Pos = Rd.position(O.get("pos"));
  R.Check = Rd.str(O.get("check"));
  R.Kernel = Rd.str(O.get("kernel"));
  R.Space = Rd.str(O.get("space"));
  R.Object = Rd.str(O.get("object"));
  R.Word = Rd.str(O.get("word"));
  const Array *Acc = Rd.array(O.get("accesses"));
  const Array *Thr = Rd.array(O.get("threads"));
  if (!Rd.Ok)
    return R;
  R.First = readRaceAccess(Rd, Rd.at(Acc, 0));
  R.Second = readRaceAccess(Rd, Rd.at(Acc, 1));
  R.Thread1 = readRaceThread(Rd, Rd.at(Thr, 0));
  R.Thread2 = readRaceThread(Rd, Rd.at(Thr, 1));
  R.CrossBlock = Rd.boolean(O.get("cross_block"));
  if (const Value *T = O.get("cross_block_too"); T && !T->getAsNull()) {
    const Array *A = Rd.array(T);
    if (Rd.Ok)
      R.CrossBlockToo = std::array<::warplint::RaceThreadRecord, 2>{
          readRaceThread(Rd, Rd.at(A, 0)), readRaceThread(Rd, Rd.at(A, 1))};
  }
  R.SameWarp = Rd.boolean(O.get("same_warp"));
  if (const Array *B = Rd.array(O.get("block")); B && B->size() == 3)
    for (unsigned D = 0; D < 3; ++D)
      R.Block[D] = unsigned(Rd.num(&(*B)[D]));
  else
    Rd.Ok = false;
  R.BlockAssumed = Rd.boolean(O.get("assumed"));
  R.Barrier = Rd.str(O.get("barrier"));
  R.Fix = Rd.str(O.get("fix"));
  R.LoopLine = unsigned(Rd.num(O.get("loop_line")));
  R.LoopCarried = Rd.boolean(O.get("loop_carried"));
  R.ZeroTripLine = unsigned(Rd.num(O.get("zero_trip_loop_line")));
  R.Certainty = Rd.str(O.get("certainty"));
  R.Values = Rd.str(O.get("values"));
  R.ValuesSampled = Rd.boolean(O.get("sampled"));
  R.Samples = Rd.str(O.get("samples"));
  R.Arch = Rd.str(O.get("arch"));
  R.ArchNote = Rd.str(O.get("arch_note"));
  R.Benign = Rd.boolean(O.get("benign"));
  R.ClampWriteBack = Rd.boolean(O.get("clamp_write_back"));
  R.Volatile = Rd.boolean(O.get("volatile"));
  R.MorePairs = unsigned(Rd.num(O.get("more_pairs")));
  if (const Value *S = O.get("skip"); S && !S->getAsNull()) {
    const Array *A = Rd.array(S);
    if (Rd.Ok) {
      ::warplint::RaceSkipRecord K;
      K.Line = unsigned(Rd.num(Rd.at(A, 0)));
      K.Barrier = Rd.str(Rd.at(A, 1));
      K.Condition = Rd.str(Rd.at(A, 2));
      K.Blocks = Rd.str(Rd.at(A, 3));
      K.BlockCount = unsigned(Rd.num(Rd.at(A, 4)));
      K.GridBlocks = uint64_t(Rd.num(Rd.at(A, 5)));
      K.Values = Rd.str(Rd.at(A, 6));
      K.Sampled = Rd.boolean(Rd.at(A, 7));
      R.Skip = std::move(K);
    }
  }
  R.Severity = Rd.str(O.get("severity"));
  R.NoteReason = Rd.str(O.get("note_reason"));
  if (const Value *I = O.get("impact"); I && !I->getAsNull()) {
    const Array *A = Rd.array(I);
    ::warplint::Impact Figure;
    Figure.Value = Rd.real(Rd.at(A, 0));
    Figure.Unit = Rd.str(Rd.at(A, 1));
    Figure.Rank = unsigned(Rd.num(Rd.at(A, 2)));
    Rd.Ok &= Figure.Rank <= 100;
    R.FindingImpact = Figure;
  }
  return R;
}

std::vector<std::string> readStrings(Reader &Rd, const Value *V) {
  std::vector<std::string> Out;
  if (const Array *A = Rd.array(V))
    for (const Value &E : *A)
      Out.push_back(Rd.str(&E));
  return Out;
}

BranchRecord readBranch(Reader &Rd, const Object &O) {
  BranchRecord B;
  B.Pos = Rd.position(O.get("pos"));
  B.Kernel = Rd.str(O.get("kernel"));
  B.Kind = Rd.str(O.get("kind"));
  B.Condition = Rd.str(O.get("condition"));
  B.Term = Rd.str(O.get("term"));
  B.Severity = Rd.str(O.get("severity"));
  B.Idiom = Rd.str(O.get("idiom"));
  B.NoteReasons = readStrings(Rd, O.get("note_reasons"));
  B.BlockAssumed = Rd.boolean(O.get("assumed"));
  B.WaveSize = unsigned(Rd.num(O.get("wave")));
  if (const Array *Shapes = Rd.array(O.get("shapes")))
    for (const Value &E : *Shapes) {
      const Object *S = E.getAsObject();
      if (!S) {
        Rd.Ok = false;
        break;
      }
      BranchShapeRecord X;
      std::optional<std::array<uint64_t, 3>> Block = Rd.dims(S->get("block"));
      if (Block)
        X.Block = {unsigned((*Block)[0]), unsigned((*Block)[1]), unsigned((*Block)[2])};
      X.LaunchLine = unsigned(Rd.num(S->get("launch_line")));
      X.Evaluated = Rd.boolean(S->get("evaluated"));
      X.DivergentWarps = uint64_t(Rd.num(S->get("divergent")));
      X.Warps = uint64_t(Rd.num(S->get("warps")));
      X.Varies = Rd.boolean(S->get("varies"));
      X.WorstEfficiency = Rd.real(S->get("worst"));
      X.BestEfficiency = Rd.real(S->get("best"));
      X.OverTrips = Rd.boolean(S->get("trips"));
      X.TrueLanesMin = Rd.num(S->get("true_min"));
      X.TrueLanesMax = Rd.num(S->get("true_max"));
      X.MinorityLanes = unsigned(Rd.num(S->get("minority")));
      X.Sampled = readStrings(Rd, S->get("sampled"));
      B.Shapes.push_back(std::move(X));
    }
  B.Worst = Rd.optNum<unsigned>(O.get("worst"));
  const Array *F = Rd.array(O.get("finding"));
  if (Rd.Ok) {
    B.FindingLine = unsigned(Rd.num(Rd.at(F, 0)));
    B.FindingColumn = unsigned(Rd.num(Rd.at(F, 1)));
    B.Places = unsigned(Rd.num(Rd.at(F, 2)));
  }
  if (const Value *I = O.get("impact"); I && !I->getAsNull()) {
    const Array *A = Rd.array(I);
    ::warplint::Impact Figure;
    Figure.Value = Rd.real(Rd.at(A, 0));
    Figure.Unit = Rd.str(Rd.at(A, 1));
    Figure.Rank = unsigned(Rd.num(Rd.at(A, 2)));
    Rd.Ok &= Figure.Rank <= 100;
    B.FindingImpact = Figure;
  }
  return B;
}

AccessRecord readAccess(Reader &Rd, const Object &O) {
  AccessRecord A;
  A.Pos = Rd.position(O.get("pos"));
  A.Check = Rd.str(O.get("check"));
  A.Kernel = Rd.str(O.get("kernel"));
  A.Access = Rd.str(O.get("access"));
  A.Space = Rd.str(O.get("space"));
  A.Kind = Rd.str(O.get("kind"));
  A.BytesPerLane = unsigned(Rd.num(O.get("bytes")));
  const Array *B = Rd.array(O.get("block"));
  for (unsigned K = 0; K < 3; ++K)
    A.Block[K] = unsigned(Rd.num(Rd.at(B, K)));
  A.BlockAssumed = Rd.boolean(O.get("assumed"));
  A.Values = Rd.str(O.get("values"));
  A.Warp = unsigned(Rd.num(O.get("warp")));
  A.WaveLanes = unsigned(Rd.optNum<uint64_t>(O.get("wave_lanes")).value_or(32));
  A.SegmentBytes = unsigned(Rd.optNum<uint64_t>(O.get("segment")).value_or(32));
  A.ActiveLanes = unsigned(Rd.num(O.get("lanes")));
  A.LaneStrideBytes = Rd.optNum<int64_t>(O.get("stride"));
  A.Sectors = Rd.optNum<unsigned>(O.get("sectors"));
  A.IdealSectors = Rd.optNum<unsigned>(O.get("ideal_sectors"));
  A.BytesRequested = Rd.optNum<uint64_t>(O.get("requested"));
  A.MisalignmentBytes = Rd.optNum<int64_t>(O.get("misalignment"));
  A.Wavefronts = Rd.optNum<unsigned>(O.get("wavefronts"));
  A.IdealWavefronts = Rd.optNum<unsigned>(O.get("ideal_wavefronts"));
  A.ConflictWays = Rd.optNum<unsigned>(O.get("ways"));
  A.FindingLine = unsigned(Rd.num(O.get("finding_line")));
  A.FindingColumn = unsigned(Rd.num(O.get("finding_column")));
  A.Places = unsigned(Rd.num(O.get("places")));
  A.Severity = Rd.str(O.get("severity"));
  A.NoteReason = Rd.str(O.get("note_reason"));
  return A;
}

Finding readFinding(Reader &Rd, const Object &O) {
  Finding F;
  F.Check = Rd.str(O.get("check"));
  int64_t Level = Rd.num(O.get("level"));
  Rd.Ok &= Level >= 0 && Level <= 2;
  F.Level = static_cast<Severity>(Level);
  F.Pos = Rd.position(O.get("pos"));
  F.Message = Rd.str(O.get("message"));
  if (const Array *A = Rd.array(O.get("notes")))
    for (const Value &V : *A) {
      const Array *N = Rd.array(&V);
      if (Rd.Ok)
        F.Notes.push_back({Rd.position(Rd.at(N, 0)), Rd.str(Rd.at(N, 1))});
    }
  F.Arch = Rd.str(O.get("arch"));
  if (const Array *A = Rd.array(O.get("fixes")))
    for (const Value &V : *A) {
      const Array *E = Rd.array(&V);
      if (!Rd.Ok)
        break;
      FixEdit Edit;
      Edit.File = Rd.str(Rd.at(E, 0));
      Edit.Offset = unsigned(Rd.num(Rd.at(E, 1)));
      Edit.Length = unsigned(Rd.num(Rd.at(E, 2)));
      Edit.Text = Rd.str(Rd.at(E, 3));
      Edit.Begin = Rd.position(Rd.at(E, 4));
      Edit.End = Rd.position(Rd.at(E, 5));
      F.Fixes.push_back(std::move(Edit));
    }
  if (const Value *I = O.get("impact"); I && !I->getAsNull()) {
    const Array *A = Rd.array(I);
    ::warplint::Impact Figure;
    Figure.Value = Rd.real(Rd.at(A, 0));
    Figure.Unit = Rd.str(Rd.at(A, 1));
    Figure.Rank = unsigned(Rd.num(Rd.at(A, 2)));
    Rd.Ok &= Figure.Rank <= 100;
    F.Impact = Figure;
  }
  return F;
}

std::string entryPath(const std::string &CacheDir, const std::string &Key) {
  llvm::SmallString<256> P(CacheDir);
  llvm::sys::path::append(P, "results", Key + ".json");
  return std::string(P);
}

// The digest an entry carries over its own contents (each file's path and digest, then
// the result's text): an entry edited or cut short where it still parses as JSON is
// found damaged, not trusted.
std::string entryDigest(const std::vector<std::pair<llvm::StringRef, llvm::StringRef>> &Files,
                        llvm::StringRef Result) {
  llvm::SHA256 H;
  auto Add = [&H](llvm::StringRef S) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  };
  Add("warplint-result-entry-v2");
  for (const auto &[Path, Digest] : Files) {
    Add(Path);
    Add(Digest);
  }
  Add(Result);
  return llvm::toHex(H.final(), /*LowerCase=*/true);
}

} // namespace

std::string contentDigest(std::string_view Contents) {
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Contents.data()), Contents.size()));
  return llvm::utohexstr(H.high64) + ":" + llvm::utohexstr(H.low64);
}

std::string objectDigest(std::string_view Contents) {
  llvm::MemoryBufferRef Ref(llvm::StringRef(Contents.data(), Contents.size()), "object");
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> Obj =
      llvm::object::ObjectFile::createObjectFile(Ref);
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return contentDigest(Contents);
  }
  std::string Kept;
  for (const llvm::object::SectionRef &S : (*Obj)->sections()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    llvm::Expected<llvm::StringRef> Data = S.getContents();
    if (!Name || !Data) {
      if (!Name)
        llvm::consumeError(Name.takeError());
      if (!Data)
        llvm::consumeError(Data.takeError());
      return contentDigest(Contents);
    }
    // .debug_*, their relocations, and the symbol and string tables, which name the
    // temporary files too (objcopy --strip-debug leaves files equal byte for byte).
    llvm::StringRef N = *Name;
    if (N.contains(".debug") || N == ".symtab" || N == ".strtab")
      continue;
    Kept += N.str() + '\0' + std::to_string(Data->size()) + '\0' + Data->str();
  }
  return "object:" + contentDigest(Kept);
}

std::string resultKey(const std::vector<std::string> &Parts) {
  llvm::SHA256 H;
  for (const std::string &P : Parts) {
    H.update(std::to_string(P.size()));
    H.update(":");
    H.update(P);
  }
  return llvm::toHex(H.final(), true);
}

/// Every record list of a result, once: its name in a cache entry, its tag in the child's
/// lines, the list, its writer and its reader. The entry, the lines and both readers
/// walk this table (R may be const for the writers).
template <typename Result, typename Fn> void forEachRecordKind(Result &R, Fn &&F) {
  F("findings", 'f', R.Findings, finding, readFinding);
  F("launches", 'l', R.Launches, launch, readLaunch);
  F("kernels", 'k', R.Kernels, kernel, readKernel);
  F("accesses", 'a', R.Accesses, access, readAccess);
  F("syncs", 's', R.Syncs, sync, readSync);
  F("races", 'r', R.Races, race, readRace);
  F("branches", 'b', R.Branches, branch, readBranch);
}

std::string resultToJson(const RunResult &R) {
  Array Messages;
  for (const RunMessage &M : R.Messages)
    Messages.push_back(Array{int64_t(M.Level), M.Text});
  Object Root{{"messages", std::move(Messages)},
              {"analysed", strings(R.FilesAnalysed)},
              {"failed", strings(R.FilesFailed)},
              {"with_errors", strings(R.FilesWithErrors)}};
  forEachRecordKind(R, [&](const char *Name, char, const auto &List, auto Write, auto) {
    Root[Name] = jsonArray(List, Write);
  });
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << Value(std::move(Root));
  return Out;
}

std::optional<RunResult> resultFromJson(std::string_view Text) {
  llvm::Expected<Value> V = parseBoundedJson(llvm::StringRef(Text.data(), Text.size()));
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const Object *Root = V->getAsObject();
  if (!Root)
    return std::nullopt;
  Reader Rd;
  RunResult R;
  auto Each = [&](const char *Name, auto Fn) {
    const Array *A = Rd.array(Root->get(Name));
    if (!Rd.Ok)
      return;
    for (const Value &E : *A)
      Fn(E);
  };
  // Each record list: an array of objects, each read by its reader.
  auto Records = [&](const char *Name, auto &Into, auto Read) {
    Each(Name, [&](const Value &E) {
      if (const Object *O = E.getAsObject())
        Into.push_back(Read(Rd, *O));
      else
        Rd.Ok = false;
    });
  };
  forEachRecordKind(R, [&](const char *Name, char, auto &Into, auto, auto Read) {
    Records(Name, Into, Read);
  });
  Each("messages", [&](const Value &E) {
    const Array *M = Rd.array(&E);
    if (!Rd.Ok)
      return;
    int64_t Level = Rd.num(Rd.at(M, 0));
    Rd.Ok &= Level >= 0 && Level <= 2;
    R.Messages.push_back({static_cast<Severity>(Level), Rd.str(Rd.at(M, 1))});
  });
  Each("analysed", [&](const Value &E) { R.FilesAnalysed.push_back(Rd.str(&E)); });
  Each("failed", [&](const Value &E) { R.FilesFailed.push_back(Rd.str(&E)); });
  Each("with_errors", [&](const Value &E) { R.FilesWithErrors.push_back(Rd.str(&E)); });
  if (!Rd.Ok)
    return std::nullopt;
  return R;
}

namespace {

/// S as a JSON string: quotes, backslashes and control characters escaped.
void writeString(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  size_t From = 0;
  for (size_t K = 0; K < S.size(); ++K) {
    unsigned char C = S[K];
    if (C >= 0x20 && C != '"' && C != '\\' && C != 0x7f)
      continue;
    OS << S.slice(From, K);
    if (C == '"' || C == '\\')
      OS << '\\' << char(C);
    else
      OS << "\\u00" << llvm::hexdigit(C >> 4, true) << llvm::hexdigit(C & 15, true);
    From = K + 1;
  }
  OS << S.substr(From) << '"';
}

/// V as JSON text for the child's lines, which only resultFromLines reads: an object's
/// members in the object's own order (the reader looks them up by name), strings escaped
/// where JSON requires it. llvm::json's printer sorts every object's keys and checks
/// each string it writes, a quarter of the child's hand-off. A number that is not an
/// integer of at most 2^53 is printed by llvm::json itself, so it reads back the same.
void writeLine(llvm::raw_ostream &OS, const Value &V) {
  switch (V.kind()) {
  case Value::Null:
    OS << "null";
    return;
  case Value::Boolean:
    OS << (*V.getAsBoolean() ? "true" : "false");
    return;
  case Value::Number: {
    std::optional<int64_t> I = V.getAsInteger();
    double D = *V.getAsNumber();
    if (I && *I > -(int64_t(1) << 53) && *I < (int64_t(1) << 53) && double(*I) == D &&
        !std::signbit(D))
      OS << *I; // what %.17g prints for it too
    else
      OS << V;
    return;
  }
  case Value::String:
    writeString(OS, *V.getAsString());
    return;
  case Value::Array: {
    OS << '[';
    bool First = true;
    for (const Value &E : *V.getAsArray()) {
      if (!First)
        OS << ',';
      First = false;
      writeLine(OS, E);
    }
    OS << ']';
    return;
  }
  case Value::Object: {
    OS << '{';
    bool First = true;
    for (const auto &KV : *V.getAsObject()) {
      if (!First)
        OS << ',';
      First = false;
      writeString(OS, KV.first);
      OS << ':';
      writeLine(OS, KV.second);
    }
    OS << '}';
    return;
  }
  }
}

} // namespace

std::string resultToLines(const RunResult &R) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  auto Line = [&](char Tag, const Value &V) {
    OS << Tag << ' ';
    writeLine(OS, V);
    OS << '\n';
  };
  forEachRecordKind(R, [&](const char *, char Tag, const auto &List, auto Write, auto) {
    for (const auto &X : List)
      Line(Tag, Write(X));
  });
  for (const RunMessage &M : R.Messages)
    Line('m', Array{int64_t(M.Level), M.Text});
  for (const std::string &F : R.FilesAnalysed)
    Line('A', F);
  for (const std::string &F : R.FilesFailed)
    Line('F', F);
  for (const std::string &F : R.FilesWithErrors)
    Line('E', F);
  for (const std::string &F : R.RegistersNotCached)
    Line('N', F);
  if (R.FromCache)
    Line('C', int64_t(R.FromCache));
  Line('e', true); // the end: a stream cut between two lines is not a smaller result
  return Out;
}

std::optional<RunResult> resultFromLines(std::string_view Text) {
  llvm::StringRef Rest(Text.data(), Text.size());
  Reader Rd;
  RunResult R;
  bool Ended = false;
  while (!Rest.empty() && Rd.Ok && !Ended) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line.size() < 3 || Line[1] != ' ')
      return std::nullopt;
    llvm::Expected<Value> V = parseBoundedJson(Line.drop_front(2));
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    const Object *O = V->getAsObject();
    bool Record = false;
    forEachRecordKind(R, [&](const char *, char Tag, auto &Into, auto, auto Read) {
      if (Tag != Line[0])
        return;
      Record = true;
      Rd.Ok &= O != nullptr;
      if (O)
        Into.push_back(Read(Rd, *O));
    });
    if (Record)
      continue;
    switch (Line[0]) {
    case 'm': {
      const Array *M = Rd.array(&*V);
      if (!Rd.Ok)
        break;
      int64_t Level = Rd.num(Rd.at(M, 0));
      Rd.Ok &= Level >= 0 && Level <= 2;
      R.Messages.push_back({static_cast<Severity>(Level), Rd.str(Rd.at(M, 1))});
      break;
    }
    case 'A':
      R.FilesAnalysed.push_back(Rd.str(&*V));
      break;
    case 'F':
      R.FilesFailed.push_back(Rd.str(&*V));
      break;
    case 'E':
      R.FilesWithErrors.push_back(Rd.str(&*V));
      break;
    case 'N':
      R.RegistersNotCached.push_back(Rd.str(&*V));
      break;
    case 'C':
      R.FromCache = size_t(Rd.num(&*V));
      break;
    case 'e':
      Ended = Rest.empty();
      if (!Ended)
        return std::nullopt;
      break;
    default:
      return std::nullopt;
    }
  }
  if (!Rd.Ok || !Ended)
    return std::nullopt;
  return R;
}

std::optional<RunResult> lookupResult(const std::string &CacheDir, const std::string &Key,
                                      std::string *Damaged) {
  std::string Path = entryPath(CacheDir, Key);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  // An entry that does not parse, or whose digest does not match what it holds, is
  // damaged: removed (the analysis that follows writes it anew) and said once.
  auto Damage = [&](llvm::StringRef Why) -> std::optional<RunResult> {
    std::error_code EC = llvm::sys::fs::remove(Path);
    if (Damaged)
      *Damaged = ("the result cache entry '" + Path + "' was damaged (" + Why + ")" +
                  (EC ? "; it could not be removed: " + EC.message()
                      : std::string("; it was removed and the file analysed again")))
                     .str();
    return std::nullopt;
  };
  llvm::Expected<Value> V = parseBoundedJson((*Buffer)->getBuffer());
  if (!V) {
    llvm::consumeError(V.takeError());
    return Damage("not JSON");
  }
  const Object *Root = V->getAsObject();
  const Array *Files = Root ? Root->getArray("files") : nullptr;
  std::optional<llvm::StringRef> Result = Root ? Root->getString("result") : std::nullopt;
  std::optional<llvm::StringRef> Digest = Root ? Root->getString("digest") : std::nullopt;
  if (!Files || !Result || !Digest)
    return Damage("fields missing");
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> Read;
  for (const Value &F : *Files) {
    const Array *A = F.getAsArray();
    std::optional<llvm::StringRef> P, D;
    if (A && A->size() == 2) {
      P = (*A)[0].getAsString();
      D = (*A)[1].getAsString();
    }
    if (!P || !D)
      return Damage("a file entry is not a path and a digest");
    Read.emplace_back(*P, *D);
  }
  if (entryDigest(Read, *Result) != *Digest)
    return Damage("its contents do not match their digest");
  std::optional<RunResult> Parsed = resultFromJson(*Result);
  if (!Parsed)
    return Damage("the result does not read back");
  // Every file the TU read must still read the same: the sources first, then the objects
  // (a register source), which `warplint launch` may still be writing (the reads wait on
  // its gate, resources/Resources.h): a changed source is a miss without that wait.
  std::stable_partition(Read.begin(), Read.end(),
                        [](const auto &E) { return !E.second.starts_with("object:"); });
  for (const auto &[P, D] : Read) {
    if (D == VirtualFileDigest)
      continue;
    if (D.starts_with("object:"))
      ::warplint::waitForObjectWriters();
    auto Contents = llvm::MemoryBuffer::getFile(P);
    if (!Contents)
      return std::nullopt;
    llvm::StringRef Text = (*Contents)->getBuffer();
    std::string Now = D.starts_with("object:")
                          ? objectDigest(std::string_view(Text.data(), Text.size()))
                          : contentDigest(std::string_view(Text.data(), Text.size()));
    if (Now != D)
      return std::nullopt;
  }
  return Parsed;
}

void storeResult(const std::string &CacheDir, const std::string &Key, const RunResult &Result,
                 const FileDigests &Files) {
  std::string Path = entryPath(CacheDir, Key);
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    return;
  Array FileList;
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> Listed;
  for (const auto &[File, Digest] : Files) {
    FileList.push_back(Array{File, Digest});
    Listed.emplace_back(File, Digest);
  }
  std::string Text = resultToJson(Result);
  std::string Digest = entryDigest(Listed, Text);
  Object Root{
      {"files", std::move(FileList)}, {"result", std::move(Text)}, {"digest", std::move(Digest)}};
  llvm::SmallString<256> Tmp;
  int FD = -1;
  if (llvm::sys::fs::createUniqueFile(Path + ".%%%%%%%%.tmp", FD, Tmp))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Value(std::move(Root));
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return;
    }
  }
  if (llvm::sys::fs::rename(Tmp, Path))
    llvm::sys::fs::remove(Tmp);
}

} // namespace warplint::driver
