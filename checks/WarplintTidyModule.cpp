//===- WarplintTidyModule.cpp - the clang-tidy module of warplint ---------===//
#include "checks/WarplintTidyModule.h"

#include "checks/BarrierDivergenceCheck.h"
#include "checks/BlockSizeWarpMultipleCheck.h"
#include "checks/DataRaceCheck.h"
#include "checks/DivergentBranchCheck.h"
#include "checks/SharedBankConflictCheck.h"
#include "checks/UncoalescedAccessCheck.h"
#include "checks/WarpSyncMaskCheck.h"
#include "checks/LaunchConfigInvalidCheck.h"
#include "checks/OccupancyCheck.h"
#include "checks/OccupancyCliffCheck.h"
#include "checks/PartialWaveCheck.h"
#include "checks/RegisterSpillCheck.h"

namespace clang::tidy::warplint {

void WarplintModule::addCheckFactories(ClangTidyCheckFactories &Factories) {
  // One line per check: Factories.registerCheck<FooCheck>("warplint-foo");
  Factories.registerCheck<BlockSizeWarpMultipleCheck>("warplint-block-size-warp-multiple");
  Factories.registerCheck<DivergentBranchCheck>("warplint-divergent-branch");
  Factories.registerCheck<UncoalescedAccessCheck>("warplint-uncoalesced-access");
  Factories.registerCheck<SharedBankConflictCheck>("warplint-shared-bank-conflict");
  Factories.registerCheck<LaunchConfigInvalidCheck>("warplint-launch-config-invalid");
  Factories.registerCheck<OccupancyCheck>("warplint-occupancy");
  Factories.registerCheck<OccupancyCliffCheck>("warplint-occupancy-cliff");
  Factories.registerCheck<PartialWaveCheck>("warplint-partial-wave");
  Factories.registerCheck<RegisterSpillCheck>("warplint-register-spill");
  Factories.registerCheck<BarrierDivergenceCheck>("warplint-barrier-divergence");
  Factories.registerCheck<WarpSyncMaskCheck>("warplint-warp-sync-mask");
  Factories.registerCheck<DataRaceCheck>("warplint-data-race");
}

ClangTidyOptions WarplintModule::getModuleOptions() { return {}; }

} // namespace clang::tidy::warplint
