#include "driver/run/NvccDevicePass.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/DiagnosticSema.h"

namespace warplint::driver {

namespace {

// The %select indices of note_ovl_candidate_bad_target's callee (3) and caller (4): clang's
// CUDAFunctionTarget order.
enum Target { Device = 0, Global = 1, Host = 2 };

/// An overload resolution that found no viable candidate, its candidates in the notes
/// after it: a call, a member call, a constructor (InfiniTAM's `Vector2<int>(w, h)` in host
/// code, the constructor `__device__` under __CUDA_ARCH__ only), a call of an object, an
/// operator, a conversion, a cast.
bool isNoViableOverload(unsigned ID) {
  using namespace clang::diag;
  return ID == err_ovl_no_viable_function_in_call ||
         ID == err_ovl_no_viable_member_function_in_call ||
         ID == err_ovl_no_viable_function_in_init || ID == err_ovl_no_viable_object_call ||
         ID == err_ovl_no_viable_oper || ID == err_typecheck_invalid_operands ||
         ID == err_typecheck_nonviable_condition || ID == err_ovl_no_viable_conversion_in_cast;
}

bool isDeviceOnly(const clang::FunctionDecl *F) {
  return F->hasAttr<clang::CUDADeviceAttr>() && !F->hasAttr<clang::CUDAHostAttr>();
}

/// "constructor for X must explicitly initialize the member m which does not have a
/// default constructor" where m's class has default constructors and each is `__device__`
/// only: in a host constructor, the one nvcc's host pass compiles, the member's default
/// constructor is a host one there (InfiniTAM's ORUtils::Image<T>::noDims, a Vector2<int>
/// whose constructors are __device__ under __CUDA_ARCH__). clang says no more than that the
/// member has none.
bool isMissingDeviceOnlyDefault(const clang::Diagnostic &Info) {
  // Its arguments: 1 the class whose constructor it is (a type), 2 base class (0) or
  // member (1), 3 the member's name.
  using DE = clang::DiagnosticsEngine;
  if (Info.getID() != clang::diag::err_missing_default_ctor || Info.getNumArgs() < 4 ||
      Info.getArgKind(1) != DE::ak_qualtype || Info.getArgKind(2) != DE::ak_sint ||
      Info.getRawArg(2) != 1 || Info.getArgKind(3) != DE::ak_declarationname)
    return false;
  clang::QualType Owner =
      clang::QualType::getFromOpaquePtr(reinterpret_cast<void *>(Info.getRawArg(1)));
  const clang::CXXRecordDecl *Class = Owner.isNull() ? nullptr : Owner->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition())
    return false;
  clang::DeclarationName Name =
      clang::DeclarationName::getFromOpaqueInteger(Info.getRawArg(3));
  const clang::CXXRecordDecl *RD = nullptr;
  for (const clang::FieldDecl *F : Class->getDefinition()->fields())
    if (F->getDeclName() == Name)
      RD = F->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  bool Any = false;
  for (const clang::CXXConstructorDecl *C : RD->getDefinition()->ctors()) {
    if (!C->isDefaultConstructor())
      continue;
    if (!isDeviceOnly(C))
      return false;
    Any = true;
  }
  return Any;
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
    // A candidate that fails only on its execution space (a host function calling a
    // device one) is the call nvcc's host pass makes; the others (the implicit copy and
    // move constructors' arity, another overload) fail in either pass.
    if (isHostCallingDevice(Info))
      SawHostToDevice = true;
    else if (Info.getID() == clang::diag::note_ovl_candidate_bad_target)
      OnlyHostToDevice = false; // another pair of spaces: nvcc refuses it too
  } else {
    flush();
    // `typename T::name<args>` without `template` (BGHT's `typename
    // std::allocator_traits<A>::rebind_alloc<U>`): C++23 makes the keyword optional there,
    // nvcc and g++ take it in every mode, and clang, which has not implemented that rule,
    // recovers exactly as if the keyword were written. Dropped.
    if (Level == clang::DiagnosticsEngine::Error &&
        Info.getID() == clang::diag::err_missing_dependent_template_keyword) {
      ++Dropped;
      setLimit(0);
      return;
    }
    if (Level == clang::DiagnosticsEngine::Error && isMissingDeviceOnlyDefault(Info)) {
      // Dropped with its notes (where the member and its class are declared).
      Holding.clear();
      OnlyHostToDevice = true;
      SawHostToDevice = true;
      setLimit(1);
    } else if (!(Level == clang::DiagnosticsEngine::Error && isNoViableOverload(Info.getID()))) {
      Next.HandleDiagnostic(Level, Info);
      return;
    } else {
      OnlyHostToDevice = true;
      SawHostToDevice = false;
    }
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
  if (OnlyHostToDevice && SawHostToDevice && !Out.empty()) {
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
