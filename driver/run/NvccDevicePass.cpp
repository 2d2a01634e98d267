#include "driver/run/NvccDevicePass.h"

#include "clang/Basic/DiagnosticSema.h"

namespace warplint::driver {

namespace {

// The %select indices of note_ovl_candidate_bad_target's callee (3) and caller (4): clang's
// CUDAFunctionTarget order.
enum Target { Device = 0, Global = 1, Host = 2 };

bool isNoViableCall(unsigned ID) {
  return ID == clang::diag::err_ovl_no_viable_function_in_call ||
         ID == clang::diag::err_ovl_no_viable_member_function_in_call;
}

bool isHostCallingDevice(const clang::Diagnostic &Info) {
  if (Info.getID() != clang::diag::note_ovl_candidate_bad_target || Info.getNumArgs() < 5)
    return false;
  uint64_t Callee = Info.getRawArg(3), Caller = Info.getRawArg(4);
  return Caller == Host && (Callee == Device || Callee == Global);
}

} // namespace

void NvccDevicePassFilter::setLimit(unsigned Extra) {
  if (Engine && ErrorLimit)
    Engine->setErrorLimit(ErrorLimit + Dropped + Extra);
}

void NvccDevicePassFilter::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                            const clang::Diagnostic &Info) {
  Engine = const_cast<clang::DiagnosticsEngine *>(Info.getDiags());
  if (!Holding.empty() && Level == clang::DiagnosticsEngine::Note) {
    OnlyHostToDevice = OnlyHostToDevice && isHostCallingDevice(Info);
  } else {
    flush();
    if (!(Level == clang::DiagnosticsEngine::Error && isNoViableCall(Info.getID()))) {
      Next.HandleDiagnostic(Level, Info);
      return;
    }
    OnlyHostToDevice = true;
    // Until it is decided, the held error does not count against the limit: the next
    // error is checked against the limit before this consumer sees it.
    setLimit(1);
  }
  Held H{Level, Info.getLocation(), Info.getID(), {}, {}, {}};
  llvm::SmallString<256> Text;
  Info.FormatDiagnostic(Text);
  H.Message = Text.str().str();
  H.Ranges.assign(Info.getRanges().begin(), Info.getRanges().end());
  H.FixIts.assign(Info.getFixItHints().begin(), Info.getFixItHints().end());
  Holding.push_back(std::move(H));
}

void NvccDevicePassFilter::flush() {
  if (Holding.empty())
    return;
  std::vector<Held> Out;
  Out.swap(Holding);
  if (OnlyHostToDevice && Out.size() > 1) {
    ++Dropped;
    setLimit(0);
    return;
  }
  setLimit(0);
  for (const Held &H : Out) {
    clang::DiagnosticStorage Storage;
    Storage.DiagRanges.append(H.Ranges.begin(), H.Ranges.end());
    Storage.FixItHints.append(H.FixIts.begin(), H.FixIts.end());
    clang::Diagnostic D(Engine, H.Loc, H.ID, Storage, H.Message);
    Next.HandleDiagnostic(H.Level, D);
  }
}

} // namespace warplint::driver
