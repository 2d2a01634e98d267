//===- JsonFormat.cpp - one JSON object: findings, launches, files --------===//
#include "driver/formats/BoundedJson.h"
#include "driver/formats/Formats.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "warplint/core/Arch.h"

namespace warplint::driver {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

void position(Object &O, const SourcePos &P, const LocationOptions &Opts) {
  O["file"] = Opts.SourceRoot.empty() ? P.File : relativeToRoot(P.File, Opts.SourceRoot);
  O["line"] = static_cast<int64_t>(P.Line);
  O["column"] = static_cast<int64_t>(P.Column);
}

Value dims(const std::optional<std::array<uint64_t, 3>> &D) {
  if (!D)
    return nullptr;
  return Array{static_cast<int64_t>((*D)[0]), static_cast<int64_t>((*D)[1]),
               static_cast<int64_t>((*D)[2])};
}

template <typename T> Value opt(const std::optional<T> &V) {
  if (!V)
    return nullptr;
  if constexpr (std::is_integral_v<T>)
    return static_cast<int64_t>(*V);
  else
    return *V;
}

Value nextStepJson(const NextStep &S) {
  Object O{{"resource", resourceName(S.What)},
           {"limiting", S.Limiting},
           {"current", S.Current},
           {"gain_at", opt(S.GainAt)},
           {"headroom_up_to", S.HeadroomUpTo},
           {"loss_blocks_per_sm", opt(S.LossBlocksPerSm)}};
  if (S.GainAt) {
    O["gain_blocks_per_sm"] = S.GainBlocksPerSm;
    O["gain_occupancy"] = S.GainOccupancy;
  }
  if (S.LossBlocksPerSm)
    O["loss_occupancy"] = S.LossOccupancy;
  if (S.BestAt) {
    O["best_at"] = *S.BestAt;
    O["best_blocks_per_sm"] = S.BestBlocksPerSm;
    O["best_occupancy"] = S.BestOccupancy;
  }
  return O;
}

/// One launch record: the launch as written, the kernel's facts, and the model's figures
/// for its arch (the same numbers the checks quote).
Value launchJson(const LaunchRecord &L, const LocationOptions &Opts) {
  Object O{{"kernel", opt(L.Kernel)},
           {"mangled_kernel", opt(L.MangledKernel)},
           {"api", L.Api},
           {"block", dims(L.Block)},
           {"grid", dims(L.Grid)},
           {"block_expr", L.BlockText},
           {"grid_expr", L.GridText},
           {"dynamic_smem", opt(L.DynamicSmemBytes)},
           {"dynamic_smem_expr", opt(L.DynamicSmemExpr)},
           {"static_smem", opt(L.StaticSmemBytes)},
           {"launch_bounds", Object{{"max_threads", opt(L.LaunchBoundsMaxThreads)},
                                    {"min_blocks", opt(L.LaunchBoundsMinBlocks)}}},
           {"optin_dynamic_smem", L.HasOptin ? opt(L.OptinDynamicSmemBytes) : Value(nullptr)},
           {"has_optin", L.HasOptin},
           {"arch", L.Arch},
           {"registers", opt(L.Registers)},
           {"registers_counted", L.Registers.has_value()},
           {"registers_source", L.Registers ? Value(L.RegistersSource) : Value(nullptr)},
           {"registers_missing", L.Registers ? Value(nullptr) : Value(L.RegistersMissing)},
           {"spill_store_bytes", opt(L.SpillStoreBytes)},
           {"spill_load_bytes", opt(L.SpillLoadBytes)},
           {"threads_per_block", L.Shape ? Value(L.Shape->ThreadsPerBlock) : Value(nullptr)},
           {"warps_per_block", opt(L.WarpsPerBlock)},
           {"blocks_per_sm", opt(L.BlocksPerSm)},
           {"active_warps_per_sm", opt(L.ActiveWarpsPerSm)},
           {"max_warps_per_sm", opt(L.MaxWarpsPerSm)},
           {"occupancy", opt(L.Occupancy)},
           {"limiters", Array(L.Limiters)},
           {"launch_error", opt(L.LaunchError)},
           {"launch_error_kind", opt(L.LaunchErrorKind)},
           {"register_budget", opt(L.RegisterBudget)},
           {"register_budget_loss_blocks", opt(L.RegisterBudgetLossBlocks)},
           {"ceiling_blocks_per_sm", opt(L.CeilingBlocksPerSm)},
           {"ceiling_occupancy", opt(L.CeilingOccupancy)}};
  Array Steps;
  for (const NextStep &S : L.NextSteps)
    Steps.push_back(nextStepJson(S));
  O["next_steps"] = std::move(Steps);
  O["cluster"] = dims(L.Cluster);
  if (!L.ClusterText.empty()) {
    O["cluster_expr"] = L.ClusterText;
    O["non_portable_cluster"] = L.NonPortableCluster;
  }
  if (!L.Gpu.empty()) {
    Object G{{"name", L.Gpu},
             {"sms", opt(L.GpuSms)},
             {"max_active_clusters", opt(L.MaxActiveClusters)}};
    if (L.Waves)
      G["waves"] = Object{{"blocks_per_wave", L.Waves->BlocksPerWave},
                          {"wave_count", L.Waves->WaveCount},
                          {"waves", L.Waves->Waves},
                          {"last_wave_blocks", L.Waves->LastWaveBlocks},
                          {"last_wave_fullness", L.Waves->LastWaveFullness},
                          {"efficiency", L.Waves->Efficiency}};
    else
      G["waves"] = nullptr;
    O["gpu"] = std::move(G);
  }
  if (!L.Instantiation.empty())
    O["instantiation"] = L.Instantiation;
  // One of the kernels a local function pointer can hold (docs/launch-facts.md).
  if (L.Candidates) {
    O["via"] = L.Via;
    O["candidates"] = int64_t(L.Candidates);
  }
  // A launch helper's shape from its callers' arguments (docs/launch-facts.md).
  if (L.FromCalls) {
    O["from_calls"] = int64_t(L.FromCalls);
    O["from_call_line"] = int64_t(L.FromCallLine);
  }
  // A spilling kernel: what it keeps without its bound (nvcc's uncapped run).
  if (L.UncappedRegisters) {
    O["uncapped_registers"] = opt(L.UncappedRegisters);
    O["uncapped_blocks_per_sm"] = opt(L.UncappedBlocksPerSm);
    O["uncapped_occupancy"] = opt(L.UncappedOccupancy);
  }
  // The compiler's answer to the register advice (docs/registers.md).
  if (const VerifiedAdvice *V = L.Verified ? &*L.Verified : nullptr)
    O["verified_advice"] =
        Object{{"bound", V->bound()},
               {"compiler", V->Compiler},
               {"threads", int64_t(V->Threads)},
               {"min_blocks", int64_t(V->MinBlocks)},
               {"max_registers", V->MaxRegisters ? Value(int64_t(V->MaxRegisters)) : Value(nullptr)},
               {"cap_reason", V->CapReason.empty() ? Value(nullptr) : Value(V->CapReason)},
               {"asked_registers", int64_t(V->AskedRegisters)},
               {"registers", opt(V->Registers)},
               {"spill_store_bytes", V->Registers ? Value(int64_t(V->SpillStoreBytes)) : Value(nullptr)},
               {"spill_load_bytes", V->Registers ? Value(int64_t(V->SpillLoadBytes)) : Value(nullptr)},
               {"spill_free", V->Registers ? Value(!V->spills()) : Value(nullptr)},
               {"blocks_per_sm", opt(V->BlocksPerSm)},
               {"occupancy", opt(V->Occupancy)},
               {"error", V->Error.empty() ? Value(nullptr) : Value(V->Error)},
               {"note", verifiedAdviceText(*V, warplint::isAmdArchName(L.Arch))}};
  // AMD's what-if: SGPRs, scratch, spills and core's waves per SIMD for what it gave.
  if (const VerifiedAdvice *V = L.Verified ? &*L.Verified : nullptr; V && V->Amd) {
    Object &VA = *O["verified_advice"].getAsObject();
    VA["sgprs"] = V->Registers ? Value(int64_t(V->Sgprs)) : Value(nullptr);
    VA["scratch_bytes"] = V->Registers ? Value(int64_t(V->ScratchBytes)) : Value(nullptr);
    VA["vgpr_spills"] = V->Registers ? Value(int64_t(V->VgprSpills)) : Value(nullptr);
    VA["sgpr_spills"] = V->Registers ? Value(int64_t(V->SgprSpills)) : Value(nullptr);
    VA["waves_per_simd"] = opt(V->WavesPerSimd);
  }
  // AMD launches: the compiler's VGPRs, AGPRs, SGPRs, static LDS and the wavefront size
  // (blocks_per_sm counts workgroups per CU there, warps wavefronts).
  if (warplint::isAmdArchName(L.Arch)) {
    O["vgprs"] = opt(L.Vgprs);
    O["agprs"] = opt(L.Agprs);
    O["sgprs"] = opt(L.Sgprs);
    O["lds"] = L.Vgprs ? opt(L.StaticSmemBytes) : Value(nullptr);
    O["scratch_bytes"] = opt(L.PrivateSegmentBytes);
    O["vgpr_spills"] = opt(L.VgprSpills);
    O["sgpr_spills"] = opt(L.SgprSpills);
    O["wave_size"] = int64_t(L.WaveSize);
    O["backend_waves_per_simd"] = opt(L.BackendWavesPerSimd);
    O["waves_per_simd"] = opt(L.WavesPerSimd);
    O["waves_per_eu_min"] = opt(L.WavesPerEuMin);
  }
  position(O, L.Pos, Opts);
  return O;
}

/// One reported memory access: the per-warp figures its finding quotes.
Value accessJson(const AccessRecord &A, const LocationOptions &Opts) {
  Object O{{"check", A.Check},
           {"kernel", A.Kernel},
           {"access", A.Access},
           {"space", A.Space},
           {"kind", A.Kind},
           {"bytes_per_lane", int64_t(A.BytesPerLane)},
           {"block", Array{int64_t(A.Block[0]), int64_t(A.Block[1]), int64_t(A.Block[2])}},
           {"block_assumed", A.BlockAssumed},
           {"sampled_values", A.Values.empty() ? Value(nullptr) : Value(A.Values)},
           {"warp", int64_t(A.Warp)},
           {"wave_lanes", int64_t(A.WaveLanes)},
           {"active_lanes", int64_t(A.ActiveLanes)},
           {"lane_stride_bytes", opt(A.LaneStrideBytes)},
           {"finding_line", int64_t(A.FindingLine)},
           {"finding_column", int64_t(A.FindingColumn)},
           {"places", int64_t(A.Places)},
           {"severity", A.Severity},
           {"note_reason", A.NoteReason.empty() ? Value(nullptr) : Value(A.NoteReason)}};
  if (A.Space == "global") {
    O["sectors"] = opt(A.Sectors);
    O["sector_bytes"] = int64_t(A.SegmentBytes);
    O["ideal_sectors"] = opt(A.IdealSectors);
    O["bytes_requested"] = opt(A.BytesRequested);
    O["misalignment_bytes"] = opt(A.MisalignmentBytes);
  } else {
    O["wavefronts"] = opt(A.Wavefronts);
    O["ideal_wavefronts"] = opt(A.IdealWavefronts);
    O["conflict_ways"] = opt(A.ConflictWays);
  }
  position(O, A.Pos, Opts);
  return O;
}

/// One reported barrier or warp-synchronous call: the threads (lanes) involved.
Value syncJson(const SyncRecord &S, const LocationOptions &Opts) {
  Array Threads, Lanes;
  for (const auto &R : S.SkippingThreads)
    Threads.push_back(Array{int64_t(R[0]), int64_t(R[1])});
  for (const auto &W : S.AbsentLanes) {
    Array L;
    for (unsigned B = 0; B < 32; ++B)
      if (W[1] >> B & 1)
        L.push_back(int64_t(B));
    Lanes.push_back(Object{{"warp", int64_t(W[0])}, {"lanes", std::move(L)}});
  }
  Object O{{"check", S.Check},
           {"kernel", S.Kernel},
           {"call", S.Call},
           {"severity", S.Severity},
           {"block", Array{int64_t(S.Block[0]), int64_t(S.Block[1]), int64_t(S.Block[2])}},
           {"block_assumed", S.BlockAssumed},
           {"evaluated", S.Evaluated},
           {"loop_values", S.Values.empty() ? Value(nullptr) : Value(S.Values)},
           {"skipping_threads", std::move(Threads)},
           {"absent_lanes", std::move(Lanes)},
           {"mask", S.Mask ? Value(int64_t(*S.Mask)) : Value(nullptr)},
           {"cause", S.Cause.empty() ? Value(nullptr) : Value(S.Cause)},
           {"cause_line", S.CauseLine ? Value(int64_t(S.CauseLine)) : Value(nullptr)}};
  position(O, S.Pos, Opts);
  return O;
}

/// One data race: the two accesses and the two threads that collide on the word, the
/// barrier that would separate them and how sure the finding is.
Value raceJson(const RaceRecord &R, const LocationOptions &Opts) {
  auto Access = [&](const ::warplint::RaceAccessRecord &A) {
    Object O{{"access", A.Access}, {"kind", A.Kind}};
    position(O, A.Pos, Opts);
    return O;
  };
  auto Thread = [](const ::warplint::RaceThreadRecord &T) {
    return Object{{"thread", Array{T.Thread[0], T.Thread[1], T.Thread[2]}},
                  {"block", T.Block},
                  {"linear", int64_t(T.Linear)}};
  };
  auto Opt = [](const std::string &S) { return S.empty() ? Value(nullptr) : Value(S); };
  Value Too = nullptr;
  if (R.CrossBlockToo)
    Too = Array{Thread((*R.CrossBlockToo)[0]), Thread((*R.CrossBlockToo)[1])};
  Value Skip = nullptr;
  if (R.Skip)
    Skip = Object{
        {"line", int64_t(R.Skip->Line)},
        {"barrier", R.Skip->Barrier},
        {"condition", R.Skip->Condition},
        {"blocks", R.Skip->Blocks},
        {"block_count", int64_t(R.Skip->BlockCount)},
        {"grid_blocks", R.Skip->GridBlocks ? Value(int64_t(R.Skip->GridBlocks)) : Value(nullptr)},
        {"values", Opt(R.Skip->Values)},
        {"sampled", R.Skip->Sampled}};
  Object O{{"check", R.Check},
           {"kernel", R.Kernel},
           {"severity", R.Severity},
           {"space", R.Space},
           {"object", R.Object},
           {"word", R.Word},
           {"accesses", Array{Access(R.First), Access(R.Second)}},
           {"threads", Array{Thread(R.Thread1), Thread(R.Thread2)}},
           {"cross_block", R.CrossBlock},
           {"cross_block_too", std::move(Too)},
           {"same_warp", R.SameWarp},
           {"block", Array{int64_t(R.Block[0]), int64_t(R.Block[1]), int64_t(R.Block[2])}},
           {"block_assumed", R.BlockAssumed},
           {"barrier", Opt(R.Barrier)},
           {"fix", R.Fix},
           {"loop_line", R.LoopLine ? Value(int64_t(R.LoopLine)) : Value(nullptr)},
           {"loop_carried", R.LoopCarried},
           {"zero_trip_loop_line", R.ZeroTripLine ? Value(int64_t(R.ZeroTripLine)) : Value(nullptr)},
           {"certainty", R.Certainty},
           {"values", Opt(R.Values)},
           {"values_sampled", R.ValuesSampled},
           {"samples", Opt(R.Samples)},
           {"arch", Opt(R.Arch)},
           {"arch_note", Opt(R.ArchNote)},
           {"benign", R.Benign},
           {"clamp_write_back", R.ClampWriteBack},
           {"volatile", R.Volatile},
           {"more_pairs", int64_t(R.MorePairs)},
           {"barrier_skipped", std::move(Skip)},
           {"note_reason", Opt(R.NoteReason)},
           {"finding_impact", R.FindingImpact ? Value(Object{{"value", R.FindingImpact->Value},
                                                             {"unit", R.FindingImpact->Unit},
                                                             {"rank", int64_t(R.FindingImpact->Rank)}})
                                              : Value(nullptr)}};
  position(O, R.Pos, Opts);
  return O;
}

/// One thread-dependent branch: its figures per block shape and the verdict.
Value branchJson(const BranchRecord &B, const LocationOptions &Opts) {
  Array Shapes;
  for (const BranchShapeRecord &S : B.Shapes) {
    Array Sampled;
    for (const std::string &N : S.Sampled)
      Sampled.push_back(N);
    Shapes.push_back(Object{
        {"block", Array{int64_t(S.Block[0]), int64_t(S.Block[1]), int64_t(S.Block[2])}},
        {"launch_line", S.LaunchLine ? Value(int64_t(S.LaunchLine)) : Value(nullptr)},
        {"evaluated", S.Evaluated},
        {"diverging_warps", S.Evaluated ? Value(int64_t(S.DivergentWarps)) : Value(nullptr)},
        {"warps", S.Evaluated ? Value(int64_t(S.Warps)) : Value(nullptr)},
        {"warps_vary", S.Varies},
        {"predicted_efficiency", S.Evaluated ? Value(S.WorstEfficiency) : Value(nullptr)},
        {"predicted_efficiency_best", S.Evaluated ? Value(S.BestEfficiency) : Value(nullptr)},
        {"efficiency_over_trips", S.OverTrips},
        {"lanes_taking_branch_min", S.TrueLanesMin >= 0 ? Value(S.TrueLanesMin) : Value(nullptr)},
        {"lanes_taking_branch_max", S.TrueLanesMax >= 0 ? Value(S.TrueLanesMax) : Value(nullptr)},
        {"minority_lanes_per_warp", int64_t(S.MinorityLanes)},
        {"sampled_values", std::move(Sampled)}});
  }
  Array Reasons;
  for (const std::string &R : B.NoteReasons)
    Reasons.push_back(R);
  Object O{{"kernel", B.Kernel},
           {"kind", B.Kind},
           {"condition", B.Condition},
           {"term", B.Term.empty() ? Value(nullptr) : Value(B.Term)},
           {"severity", B.Severity},
           {"idiom", B.Idiom.empty() ? Value(nullptr) : Value(B.Idiom)},
           {"note_reasons", std::move(Reasons)},
           {"block_assumed", B.BlockAssumed},
           {"wave_lanes", int64_t(B.WaveSize)},
           {"shapes", std::move(Shapes)},
           {"worst_shape", B.Worst ? Value(int64_t(*B.Worst)) : Value(nullptr)},
           {"finding_line", B.FindingLine ? Value(int64_t(B.FindingLine)) : Value(nullptr)},
           {"finding_column", B.FindingLine ? Value(int64_t(B.FindingColumn)) : Value(nullptr)},
           {"places", int64_t(B.Places)},
           {"finding_impact", B.FindingImpact ? Value(Object{{"value", B.FindingImpact->Value},
                                                             {"unit", B.FindingImpact->Unit},
                                                             {"rank", int64_t(B.FindingImpact->Rank)}})
                                              : Value(nullptr)}};
  position(O, B.Pos, Opts);
  return O;
}

} // namespace

namespace {

Value findingJson(const Finding &F, const LocationOptions &Opts) {
  Object O{{"check", F.Check}, {"severity", severityName(F.Level)}, {"message", F.Message}};
  position(O, F.Pos, Opts);
  Array Notes;
  for (const FindingNote &N : F.Notes) {
    Object NO{{"message", N.Message}};
    position(NO, N.Pos, Opts);
    Notes.push_back(std::move(NO));
  }
  O["notes"] = std::move(Notes);
  if (!F.Arch.empty())
    O["arch"] = F.Arch;
  if (F.Impact)
    O["impact"] = Object{{"value", F.Impact->Value},
                         {"unit", F.Impact->Unit},
                         {"rank", int64_t(F.Impact->Rank)}};
  // The fix-it's edits (byte offsets and lines/columns of the file as analysed).
  Array Fixes;
  for (const FixEdit &E : F.Fixes) {
    Object FO{{"offset", int64_t(E.Offset)}, {"length", int64_t(E.Length)},
              {"replacement", E.Text}};
    position(FO, E.Begin, Opts);
    FO["end_line"] = int64_t(E.End.Line);
    FO["end_column"] = int64_t(E.End.Column);
    Fixes.push_back(std::move(FO));
  }
  O["fixes"] = std::move(Fixes);
  return O;
}

} // namespace

void writeJson(const RunResult &Result, const LocationOptions &Opts, llvm::raw_ostream &OS) {
  // Written record by record, not as one document: a json::Array that grows copies every
  // value it holds, and a file of 20,000 kernels has 40,000 branch records. The keys come
  // in the order a json::Object prints them (sorted), so the output is the same bytes.
  llvm::json::OStream J(OS, 2);
  auto Each = [&](llvm::StringRef Key, const auto &Records, auto ToJson) {
    J.attributeArray(Key, [&] {
      for (const auto &R : Records)
        J.value(ToJson(R));
    });
  };
  auto File = [&](const std::string &F) -> Value {
    return Opts.SourceRoot.empty() ? F : relativeToRoot(F, Opts.SourceRoot);
  };
  auto With = [&](auto Fn) { return [&, Fn](const auto &R) -> Value { return Fn(R, Opts); }; };
  J.object([&] {
    Each("branches", Result.Branches, With(branchJson));
    Each("data_races", Result.Races, With(raceJson));
    Each("files_analysed", Result.FilesAnalysed, File);
    Each("files_failed", Result.FilesFailed, File);
    Each("files_with_errors", Result.FilesWithErrors, File);
    Each("findings", Result.Findings, With(findingJson));
    Each("launches", Result.Launches, With(launchJson));
    Each("memory_accesses", Result.Accesses, With(accessJson));
    Each("messages", Result.Messages, [](const RunMessage &M) -> Value {
      return Object{{"severity", severityName(M.Level)}, {"message", M.Text}};
    });
    Each("sync_calls", Result.Syncs, With(syncJson));
    J.attribute("version", 1);
  });
  OS << "\n";
}

} // namespace warplint::driver
