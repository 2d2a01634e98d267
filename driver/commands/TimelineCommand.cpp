//===- TimelineCommand.cpp - `warplint timeline`: measured blocks per SM ---===//
#include "driver/commands/ArgParser.h"
#include "driver/formats/BoundedJson.h"
#include "driver/commands/Commands.h"
#include "driver/commands/OccupancyInput.h"
#include "driver/formats/Formats.h"
#include "driver/measure/BlockTrace.h"
#include "driver/measure/NcuCsv.h"
#include "driver/report/TimelineSvg.h"

#include "warplint/core/Arch.h"
#include "warplint/core/Occupancy.h"
#include "warplint/core/Products.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplint::driver {
namespace {

using llvm::StringRef;

constexpr const char *Usage =
    R"(usage: warplint timeline TRACE.jsonl [-o FILE.html|FILE.svg] [model options]

Reads the per-block records warplint/trace.cuh writes (JSON lines: kernel, launch, block,
sm, start_ns, end_ns, start_clock, end_clock) and, per traced launch, prints one summary
line: blocks, SMs used and idle, the most blocks measured resident on one SM (the blocks
running at a block's midpoint: a brief overlap where one block replaces another is said apart)
against the model's blocks per SM, the waves, the tail of the last wave and how busy the
SMs were. With -o it draws one lane per SM, time across, each block a bar stacked by how
many ran at once (see docs/measuring.md).

options:
  -o FILE             write the drawing: .html (a page with the summary and a table of
                      measured against model figures) or .svg (the drawings only)
  --kernel NAME       only the launches of this kernel
  --launch N          only launch N (the trace's "launch" field)
  --sms N             SMs on the GPU (default: the highest %smid in the trace + 1): SMs
                      beyond those the trace names count as idle
  --gpu NAME          a product (rtx3080, a100, h100, ...): its SM count and arch
  --title TEXT        the page's title
the model (the blocks per SM the measurement is held against), from the launch:
  --arch ARCH         sm_86, 8.6, 86 (NVIDIA)
  --threads N         threads per block (or --block XxY[xZ])
  --block XxY[xZ]     block shape
  --registers N       registers per thread (ptxas)
  --static-smem SIZE  static __shared__ bytes per block (49152, 48K, 48KiB)
  --dynamic-smem SIZE dynamic shared memory per block
  --optin-smem SIZE   cudaFuncAttributeMaxDynamicSharedMemorySize set by the program
or from a `warplint check --format json` output:
  --check FILE.json   the launch of the traced kernel (by name, and by grid size when
                      several) gives blocks_per_sm

exit status: 0 done; 1 the measured maximum of resident blocks per SM disagrees with the
model (more than it allows, or fewer although the grid held a full wave); 2 bad input.
)";

int fail(const std::string &Msg) {
  llvm::errs() << "warplint timeline: error: " << Msg << "\n";
  return 2;
}

struct Options {
  std::vector<std::string> Inputs;
  std::string Out, Title, Kernel, CheckJson, ArchText;
  std::optional<uint64_t> Launch;
  unsigned Sms = 0;
  const GpuProduct *Gpu = nullptr;
  std::optional<int64_t> Threads;
  std::optional<Dim3> Block;
  bool RegistersGiven = false;
  KernelResources Res;
  uint64_t DynamicSmem = 0;
  bool ModelOptionGiven = false; ///< any of registers, smem: needs --arch and a block
};

ArgParser::Result parseArgs(int Argc, char **Argv, Options &O, std::string &Err) {
  auto count = [&O](const char *Name, int64_t Max, std::function<void(int64_t)> Store,
                    bool Model = false) {
    return [=, &O](StringRef V, std::string &E) {
      std::optional<int64_t> N = parseCount(V, Name, Max, E);
      if (N)
        Store(*N);
      if (Model)
        O.ModelOptionGiven = true;
      return N.has_value();
    };
  };
  auto size = [&O](const char *Name, std::function<void(uint64_t)> Store) {
    return [=, &O](StringRef V, std::string &E) {
      std::optional<uint64_t> N = parseSize(V, Name, E);
      if (N)
        Store(*N);
      O.ModelOptionGiven = true;
      return N.has_value();
    };
  };
  ArgParser P("timeline");
  P.option(
       "-o",
       [&O](StringRef V, std::string &E) {
         O.Out = V.str();
         if (!V.ends_with(".html") && !V.ends_with(".htm") && !V.ends_with(".svg")) {
           E = fmt::format("-o: '{}' ends in neither .html nor .svg", V.str());
           return false;
         }
         return true;
       },
       "a file name")
      .option("--title", O.Title)
      .option("--kernel", O.Kernel)
      .option("--launch", count("--launch", int64_t(1) << 40, [&O](int64_t N) { O.Launch = N; }))
      .option("--sms",
              [&](StringRef V, std::string &E) {
                // A GPU has at least one SM: 0 was accepted and drew no SM rows.
                std::optional<int64_t> N = parseCount(V, "--sms", MaxPlausibleSms, E);
                if (N && *N == 0) {
                  E = "--sms: '0' is not a number of SMs (1 or more)";
                  return false;
                }
                if (N)
                  O.Sms = unsigned(*N);
                return N.has_value();
              })
      .option("--gpu",
              [&O](StringRef V, std::string &E) {
                O.Gpu = findProduct(V);
                if (!O.Gpu)
                  E = fmt::format("unknown GPU '{}' (known: {})", V.str(), knownProductList());
                return O.Gpu != nullptr;
              })
      .option("--arch", O.ArchText)
      .option("--threads",
              count("--threads", MaxPlausibleThreads, [&O](int64_t N) { O.Threads = N; }))
      .option("--block",
              [&O](StringRef V, std::string &E) {
                O.Block = parseBlock(V, E);
                return O.Block.has_value();
              })
      .option("--registers", count(
                                 "--registers", MaxPlausibleRegisters,
                                 [&O](int64_t N) {
                                   O.Res.RegistersPerThread = int(N);
                                   O.RegistersGiven = true;
                                 },
                                 /*Model=*/true))
      .option("--static-smem",
              size("--static-smem", [&O](uint64_t N) { O.Res.StaticSharedBytes = N; }))
      .option("--dynamic-smem", size("--dynamic-smem", [&O](uint64_t N) { O.DynamicSmem = N; }))
      .option("--optin-smem",
              size("--optin-smem", [&O](uint64_t N) { O.Res.OptinDynamicSharedBytes = N; }))
      .option("--check", O.CheckJson, "a file name")
      .positional(O.Inputs);
  return P.parse(Argc, Argv, Err);
}

/// The model from --arch and the launch; nullopt with Error empty when none was asked for.
std::optional<TimelineModel> modelFromOptions(const Options &O, std::string &Error) {
  std::string ArchText = O.ArchText;
  if (ArchText.empty() && O.Gpu)
    ArchText = O.Gpu->Arch;
  bool HasShape = O.Threads || O.Block;
  if (!HasShape) {
    if (!O.ArchText.empty() || O.ModelOptionGiven)
      Error = "the model needs the block: --threads N or --block XxY[xZ]";
    return std::nullopt;
  }
  if (O.Threads && O.Block) {
    Error = "give --threads or --block, not both";
    return std::nullopt;
  }
  if (ArchText.empty()) {
    Error = "the model needs --arch (or --gpu)";
    return std::nullopt;
  }
  const GpuArch *Arch = findArch(ArchText);
  if (!Arch || !Arch->isNvidia()) {
    Error = fmt::format("unknown NVIDIA architecture '{}' (known: {})", ArchText, knownArchNames());
    return std::nullopt;
  }
  LaunchShape Shape = O.Block ? LaunchShape::block(*O.Block, O.DynamicSmem)
                              : LaunchShape::threads(*O.Threads, O.DynamicSmem);
  OccupancyResult R = computeOccupancy(*Arch, O.Res, Shape);
  if (!R.canLaunch()) {
    Error = fmt::format("the model says this launch cannot run: {}", R.Failure->Message);
    return std::nullopt;
  }
  TimelineModel M;
  M.BlocksPerSm = static_cast<unsigned>(R.BlocksPerSm);
  M.Source = fmt::format("{}, {} threads, {}, {} B static + {} B dynamic shared: limited by {}",
                         Arch->Name, Shape.ThreadsPerBlock,
                         O.RegistersGiven ? fmt::format("{} registers", O.Res.RegistersPerThread)
                                          : std::string("registers not given"),
                         O.Res.StaticSharedBytes, O.DynamicSmem, limiterText(*Arch, R.Limiters));
  return M;
}

/// The grid the trace covers: blocks in each dimension, from the largest index seen.
uint64_t tracedGridBlocks(const TracedLaunch &L) {
  uint64_t G[3] = {0, 0, 0};
  for (const TracedBlock &B : L.Blocks)
    for (int D = 0; D < 3; ++D)
      G[D] = std::max(G[D], B.Index[D] + 1);
  return G[0] * G[1] * G[2];
}

/// The model from a `warplint check --format json` output: the launches of the traced
/// kernel with figures; the one whose grid has as many blocks as the trace covers when
/// several disagree.
class CheckLaunches {
public:
  bool load(const std::string &Path, std::string &Error) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    if (!Buf) {
      Error = fmt::format("--check: cannot read '{}': {}", Path, Buf.getError().message());
      return false;
    }
    llvm::Expected<llvm::json::Value> V = parseBoundedJson((*Buf)->getBuffer());
    if (!V) {
      Error = fmt::format("--check: '{}' is not JSON: {}", Path, llvm::toString(V.takeError()));
      return false;
    }
    const llvm::json::Object *Root = V->getAsObject();
    const llvm::json::Array *Launches = Root ? Root->getArray("launches") : nullptr;
    if (!Launches) {
      Error = fmt::format("--check: '{}' has no \"launches\" (write it with `warplint check "
                          "--format json`)",
                          Path);
      return false;
    }
    Root_ = std::move(*V);
    for (const llvm::json::Value &L : *Root_.getAsObject()->getArray("launches"))
      if (const llvm::json::Object *O = L.getAsObject())
        All.push_back(O);
    return true;
  }

  std::optional<TimelineModel> modelFor(const TracedLaunch &T, std::string &Note) const {
    std::vector<const llvm::json::Object *> Mine;
    for (const llvm::json::Object *O : All) {
      std::optional<StringRef> K = O->getString("kernel"), MK = O->getString("mangled_kernel");
      // Names compared without spaces or integer suffixes ("k<2, true>" is "k<2,true>").
      if ((K && sourceKernelKey(*K) == sourceKernelKey(T.Kernel)) || (MK && *MK == T.Kernel))
        if (O->getInteger("blocks_per_sm"))
          Mine.push_back(O);
    }
    if (Mine.empty()) {
      Note = fmt::format("--check: no launch of '{}' with figures", T.Kernel);
      return std::nullopt;
    }
    uint64_t Grid = tracedGridBlocks(T);
    const llvm::json::Object *Pick = Mine.front();
    for (const llvm::json::Object *O : Mine)
      if (const llvm::json::Array *G = O->getArray("grid"); G && G->size() == 3) {
        uint64_t N = 1;
        for (const llvm::json::Value &D : *G)
          N *= D.getAsUINT64().value_or(0);
        if (N == Grid) {
          Pick = O;
          break;
        }
      }
    std::set<int64_t> Distinct;
    for (const llvm::json::Object *O : Mine)
      Distinct.insert(*O->getInteger("blocks_per_sm"));
    if (Distinct.size() > 1)
      Note = fmt::format("--check: {} launches of '{}' with {} different blocks per SM; the "
                         "one used is {}:{}",
                         Mine.size(), T.Kernel, Distinct.size(),
                         Pick->getString("file").value_or("?").str(),
                         Pick->getInteger("line").value_or(0));
    TimelineModel M;
    M.BlocksPerSm = static_cast<unsigned>(*Pick->getInteger("blocks_per_sm"));
    M.Source = fmt::format(
        "warplint check: {}:{}, {}, {} registers", Pick->getString("file").value_or("?").str(),
        Pick->getInteger("line").value_or(0), Pick->getString("arch").value_or("?").str(),
        Pick->getInteger("registers") ? std::to_string(*Pick->getInteger("registers"))
                                      : std::string("uncounted"));
    return M;
  }

private:
  llvm::json::Value Root_ = nullptr;
  std::vector<const llvm::json::Object *> All;
};

} // namespace

int runTimelineCommand(int Argc, char **Argv) {
  Options O;
  std::string Err;
  if (std::optional<int> Rc = parsed(parseArgs(Argc, Argv, O, Err), Usage, Err, fail))
    return *Rc;
  if (O.Inputs.size() != 1)
    return fail("give one trace file (see 'warplint timeline --help')");
  if (O.Gpu && !O.Sms)
    O.Sms = O.Gpu->SmCount;
  std::optional<TimelineModel> Model = modelFromOptions(O, Err);
  if (!Err.empty())
    return fail(Err);
  if (Model && !O.CheckJson.empty())
    return fail("give the model from the launch options or from --check, not both");
  CheckLaunches Check;
  if (!O.CheckJson.empty() && !Check.load(O.CheckJson, Err))
    return fail(Err);

  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(O.Inputs[0]);
  if (!Buf)
    return fail(fmt::format("cannot read '{}': {}", O.Inputs[0], Buf.getError().message()));
  std::vector<TracedLaunch> Launches;
  if (!readBlockTrace((*Buf)->getBuffer(), Launches, Err))
    return fail(fmt::format("{}: {}", O.Inputs[0], Err));

  std::vector<LaunchMeasure> Measures;
  std::vector<size_t> Chosen;
  for (size_t I = 0; I < Launches.size(); ++I) {
    if (!O.Kernel.empty() && Launches[I].Kernel != O.Kernel)
      continue;
    if (O.Launch && Launches[I].Launch != *O.Launch)
      continue;
    Chosen.push_back(I);
  }
  if (Chosen.empty())
    return fail(fmt::format("{}: no traced launch matches --kernel/--launch", O.Inputs[0]));
  Measures.reserve(Chosen.size());
  std::vector<TimelineEntry> Entries;
  int Rc = 0;
  for (size_t I : Chosen) {
    TracedLaunch &L = Launches[I];
    if (O.Sms && L.Blocks.size() && O.Sms <= 100000) {
      for (const TracedBlock &B : L.Blocks)
        if (B.Sm >= O.Sms)
          return fail(fmt::format("{} launch {}: a block ran on SM {}, but the GPU has {} SMs",
                                  L.Kernel, L.Launch, B.Sm, O.Sms));
    }
    Measures.push_back(measureLaunch(L, O.Sms));
    std::optional<TimelineModel> M = Model;
    if (!O.CheckJson.empty()) {
      std::string Note;
      M = Check.modelFor(L, Note);
      if (!Note.empty())
        llvm::errs() << "warplint timeline: note: " << Note << "\n";
    }
    ModelAgreement A = compareWithModel(Measures.back(), M);
    if (A == ModelAgreement::More || A == ModelAgreement::FewerFull)
      Rc = 1;
    llvm::outs() << timelineSummary(L, Measures.back(), M) << "\n";
    Entries.push_back(TimelineEntry{&L, &Measures.back(), M});
  }
  if (!O.Out.empty()) {
    std::string Text;
    if (StringRef(O.Out).ends_with(".svg")) {
      Text = renderTimelineDocument(Entries);
    } else {
      llvm::raw_string_ostream OS(Text);
      writeTimelineHtml(Entries, O.Title.empty() ? "warplint block timeline" : O.Title, OS);
    }
    if (!writeFileAtomically(O.Out, Text, Err))
      return fail(Err);
    llvm::errs() << fmt::format("warplint timeline: wrote {} ({} launch{})\n", O.Out,
                                Entries.size(), Entries.size() == 1 ? "" : "es");
  }
  return Rc;
}

} // namespace warplint::driver
