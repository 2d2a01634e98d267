//===- BlockTrace.cpp - per-block traces read and measured ----------------===//
#include "driver/measure/BlockTrace.h"
#include "driver/formats/BoundedJson.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace warplint::driver {
namespace {

using llvm::json::Object;

/// A field that must be a whole number >= 0.
bool number(const Object &O, llvm::StringRef Key, uint64_t &Into, std::string &Error) {
  const llvm::json::Value *V = O.get(Key);
  if (!V) {
    Error = fmt::format("no \"{}\"", Key.str());
    return false;
  }
  std::optional<uint64_t> N = V->getAsUINT64();
  if (!N) {
    Error = fmt::format("\"{}\" is not a whole number >= 0", Key.str());
    return false;
  }
  Into = *N;
  return true;
}

bool readLine(llvm::StringRef Line, std::string &Kernel, uint64_t &Launch, TracedBlock &B,
              std::string &Error) {
  llvm::Expected<llvm::json::Value> V = parseBoundedJson(Line);
  if (!V) {
    Error = "not JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const Object *O = V->getAsObject();
  if (!O) {
    Error = "not a JSON object";
    return false;
  }
  std::optional<llvm::StringRef> K = O->getString("kernel");
  if (!K || K->empty()) {
    Error = "no \"kernel\" name";
    return false;
  }
  Kernel = K->str();
  Launch = 0;
  if (O->get("launch") && !number(*O, "launch", Launch, Error))
    return false;
  const llvm::json::Array *Index = O->getArray("block");
  if (!Index || Index->empty() || Index->size() > 3) {
    Error = "\"block\" is not an array of 1 to 3 indices";
    return false;
  }
  for (size_t I = 0; I < Index->size(); ++I) {
    std::optional<uint64_t> N = (*Index)[I].getAsUINT64();
    if (!N) {
      Error = "\"block\" holds something other than a whole number >= 0";
      return false;
    }
    B.Index[I] = *N;
  }
  uint64_t Sm = 0;
  if (!number(*O, "sm", Sm, Error) || !number(*O, "start_ns", B.StartNs, Error) ||
      !number(*O, "end_ns", B.EndNs, Error))
    return false;
  if (Sm > 100000) {
    Error = fmt::format("\"sm\" {} is not an SM id", Sm);
    return false;
  }
  B.Sm = static_cast<unsigned>(Sm);
  if (B.EndNs < B.StartNs) {
    Error = "\"end_ns\" is before \"start_ns\"";
    return false;
  }
  uint64_t C = 0;
  if (O->get("start_clock") && O->get("end_clock")) {
    if (!number(*O, "start_clock", C, Error))
      return false;
    B.StartClock = C;
    if (!number(*O, "end_clock", C, Error))
      return false;
    B.EndClock = C;
  }
  return true;
}

} // namespace

bool readBlockTrace(llvm::StringRef Text, std::vector<TracedLaunch> &Out, std::string &Error) {
  std::map<std::pair<std::string, uint64_t>, size_t> Launches;
  std::vector<std::set<std::array<uint64_t, 3>>> Seen;
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty())
      continue;
    std::string Kernel;
    uint64_t Launch = 0;
    TracedBlock B;
    std::string Why;
    if (!readLine(Line, Kernel, Launch, B, Why)) {
      Error = fmt::format("line {}: {}", LineNo, Why);
      return false;
    }
    auto [It, New] = Launches.try_emplace({Kernel, Launch}, Out.size());
    if (New) {
      Out.push_back(TracedLaunch{Kernel, Launch, {}});
      Seen.emplace_back();
    }
    if (!Seen[It->second].insert(B.Index).second) {
      Error = fmt::format("line {}: block [{}, {}, {}] of {} launch {} appears twice", LineNo,
                          B.Index[0], B.Index[1], B.Index[2], Kernel, Launch);
      return false;
    }
    Out[It->second].Blocks.push_back(B);
  }
  if (Out.empty()) {
    Error = "no block records";
    return false;
  }
  return true;
}

namespace {

/// Sets Lane.MaxResident (the most blocks running at the midpoint of one of the lane's
/// blocks) and Lane.OverlapNs (the longest stretch with more blocks than that running).
/// One sweep over the starts, ends and midpoints in time order; at equal times ends come
/// first, then midpoints, then starts.
void residency(const TracedLaunch &L, const std::vector<size_t> &Mine, SmLane &Lane) {
  enum : int { End = 0, Mid = 1, Start = 2 };
  std::vector<std::pair<uint64_t, int>> Events;
  Events.reserve(Mine.size() * 3);
  for (size_t I : Mine) {
    const TracedBlock &B = L.Blocks[I];
    Events.push_back({B.StartNs, Start});
    Events.push_back({B.StartNs + (B.EndNs - B.StartNs) / 2, Mid});
    Events.push_back({B.EndNs, End});
  }
  std::sort(Events.begin(), Events.end());
  unsigned Running = 0, Steady = 0;
  for (const auto &[T, Kind] : Events) {
    if (Kind == Start)
      ++Running;
    else if (Kind == End)
      --Running;
    else
      Steady = std::max(Steady, Running);
  }
  Lane.MaxResident = std::max(1u, Steady);
  Running = 0;
  uint64_t Since = 0;
  for (const auto &[T, Kind] : Events) {
    const unsigned Before = Running;
    if (Kind == Start)
      ++Running;
    else if (Kind == End)
      --Running;
    if (Before <= Lane.MaxResident && Running > Lane.MaxResident)
      Since = T;
    else if (Before > Lane.MaxResident && Running <= Lane.MaxResident)
      Lane.OverlapNs = std::max(Lane.OverlapNs, T - Since);
  }
}

} // namespace

LaunchMeasure measureLaunch(TracedLaunch &L, unsigned SmCount) {
  LaunchMeasure M;
  M.Blocks = L.Blocks.size();
  if (L.Blocks.empty())
    return M;
  uint64_t Start = UINT64_MAX, End = 0;
  unsigned MaxSm = 0;
  for (const TracedBlock &B : L.Blocks) {
    Start = std::min(Start, B.StartNs);
    End = std::max(End, B.EndNs);
    MaxSm = std::max(MaxSm, B.Sm);
  }
  M.StartNs = Start;
  M.DurationNs = End - Start;
  M.SmCount = std::max(SmCount, MaxSm + 1);
  M.Lanes.resize(M.SmCount);
  std::vector<std::vector<size_t>> OnSm(M.SmCount);
  for (size_t I = 0; I < L.Blocks.size(); ++I)
    OnSm[L.Blocks[I].Sm].push_back(I);

  M.TailStartNs = End;
  for (unsigned Sm = 0; Sm < M.SmCount; ++Sm) {
    SmLane &Lane = M.Lanes[Sm];
    Lane.Sm = Sm;
    std::vector<size_t> &Mine = OnSm[Sm];
    Lane.Blocks = Mine.size();
    if (Mine.empty()) {
      M.IdleSms.push_back(Sm);
      continue;
    }
    std::sort(Mine.begin(), Mine.end(), [&](size_t A, size_t B) {
      const TracedBlock &X = L.Blocks[A], &Y = L.Blocks[B];
      return std::tie(X.StartNs, X.EndNs, A) < std::tie(Y.StartNs, Y.EndNs, B);
    });
    // Rows: each block takes the lowest row free at its start (free: the row's last
    // block ended at or before it). Greedy by start time uses as many rows as the most
    // blocks running at once.
    std::vector<uint64_t> RowEnd;
    std::vector<unsigned> RowBlocks;
    uint64_t BusyFrom = 0, BusyTo = 0;
    bool Busy = false;
    for (size_t I : Mine) {
      TracedBlock &B = L.Blocks[I];
      size_t Row = 0;
      while (Row < RowEnd.size() && RowEnd[Row] > B.StartNs)
        ++Row;
      if (Row == RowEnd.size()) {
        RowEnd.push_back(0);
        RowBlocks.push_back(0);
      }
      RowEnd[Row] = B.EndNs;
      B.Slot = static_cast<unsigned>(Row);
      B.Wave = RowBlocks[Row]++;
      M.Waves = std::max(M.Waves, B.Wave + 1);
      // The union of busy intervals, in start order.
      if (Busy && B.StartNs <= BusyTo) {
        BusyTo = std::max(BusyTo, B.EndNs);
      } else {
        if (Busy)
          Lane.BusyNs += BusyTo - BusyFrom;
        BusyFrom = B.StartNs;
        BusyTo = B.EndNs;
        Busy = true;
      }
      Lane.LastEndNs = std::max(Lane.LastEndNs, B.EndNs);
    }
    Lane.BusyNs += BusyTo - BusyFrom;
    Lane.Rows = static_cast<unsigned>(RowEnd.size());
    residency(L, Mine, Lane);
    M.PeakRows = std::max(M.PeakRows, Lane.Rows);
    M.MaxOverlapNs = std::max(M.MaxOverlapNs, Lane.OverlapNs);
    M.ResidentSlots += Lane.MaxResident;
    if (Lane.MaxResident > M.MaxResident) {
      M.MaxResident = Lane.MaxResident;
      M.MaxResidentSm = Sm;
    }
    if (Lane.LastEndNs < M.TailStartNs) {
      M.TailStartNs = Lane.LastEndNs;
      M.TailStartSm = Sm;
    }
  }
  uint64_t BusySum = 0;
  for (const SmLane &Lane : M.Lanes)
    BusySum += Lane.BusyNs;
  if (M.DurationNs > 0) {
    M.TailFraction = double(End - M.TailStartNs) / double(M.DurationNs);
    M.BusyFraction = double(BusySum) / (double(M.DurationNs) * M.SmCount);
  }
  return M;
}

} // namespace warplint::driver
