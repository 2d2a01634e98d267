//===- MemoryAccess.cpp - a kernel's global and shared accesses, evaluated warp by warp -===//
#include "divergence/MemoryAccess.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <numeric>
#include <map>
#include <set>

namespace warplint {
using namespace clang;

using namespace ::warplint::divergence;
using ::warplint::memory::countSectors;
using ::warplint::memory::countWavefronts;
using ::warplint::memory::LaneOffsets;

namespace {

/// Offsets are computed in 64-bit signed bytes.
SymRef bytes64(const SymRef &S) { return makeCast(S, 64, false); }
SymRef add64(const SymRef &A, const SymRef &B) {
  return makeBinary(SymOp::Add, A, B, 64, false);
}
SymRef scaled(const SymRef &Index, uint64_t Size) {
  return makeBinary(SymOp::Mul, bytes64(Index), makeConst(int64_t(Size), 64, false), 64, false);
}

/// The object a pointer expression points into and the byte offset from its base.
struct PointerForm {
  const VarDecl *Root = nullptr;
  MemorySpace Space = MemorySpace::Global;
  SymRef Offset; ///< bytes
  /// Shared arrays of two or more dimensions: the offset with the innermost row one
  /// element longer (null when not such an access).
  SymRef Padded;
  /// The object's name when it is not the root's ("q.p": a pointer field of a struct
  /// parameter); empty: the root's name.
  std::string Name;
  bool BlockObject = false; ///< loaded from a table at a block index (MemoryAccessSite)
  std::vector<unsigned> ObjectBlockVars; ///< the block indices that table index reads
};

class Collector {
public:
  Collector(const ThreadDependence &TD, ASTContext &Ctx, const FunctionDecl *Kernel,
            bool All = false)
      : TD(TD), Ctx(Ctx), Kernel(Kernel), All(All) {
    findWrittenLocals(Kernel->getBody());
  }

  void walk(const Stmt *S, bool IsStore, bool IsLoad, bool NotAccess) {
    if (!S)
      return;
    const auto *E = dyn_cast<Expr>(S);
    if (!E) {
      for (const Stmt *C : S->children())
        walk(C, false, true, false);
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        walk(B->getLHS(), true, B->isCompoundAssignmentOp(), false);
        walk(B->getRHS(), false, true, false);
        return;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->isIncrementDecrementOp()) {
        walk(U->getSubExpr(), true, true, false);
        return;
      }
      if (U->getOpcode() == UO_AddrOf) {
        // `&a[i]` computes an address: what is under it is walked for its indices only.
        walkAddress(U->getSubExpr());
        return;
      }
    }
    if (auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        All && Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
          MD && MD->isTrivial()) {
        // A trivial struct copy (`pairs[42] = fresh`): a store of the struct.
        walk(Op->getArg(0), true, false, false);
        walk(Op->getArg(1), false, true, false);
        return;
      }
    if (All)
      if (auto *Call = dyn_cast<CallExpr>(E); Call && copyCall(Call)) {
        for (const Stmt *C : E->children())
          walk(C, false, true, false);
        return;
      }
    if (!NotAccess)
      consider(E, IsStore, IsLoad);
    // The base of a field access (`a[i].x`) is not an access of its own.
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      walk(M->getBase(), false, false, !M->isArrow());
      return;
    }
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      walkAddress(A->getBase());
      walk(A->getIdx(), false, true, false);
      return;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_Deref) {
        walkAddress(U->getSubExpr());
        return;
      }
    for (const Stmt *C : E->children())
      walk(C, false, true, false);
  }

  std::vector<MemoryAccessSite> Out;

private:
  /// An address computation: its subscripts of arrays (`tile[y]` of `tile[y][x]`) are not
  /// accesses; the indices inside are walked.
  void walkAddress(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParenCasts();
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      walkAddress(A->getBase());
      walk(A->getIdx(), false, true, false);
      return;
    }
    if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      walkAddress(M->getBase());
      return;
    }
    walk(E, false, true, true);
  }

  void findWrittenLocals(const Stmt *S) {
    if (!S)
      return;
    auto Local = [](const Expr *E) -> const VarDecl * {
      if (auto *DR = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
        if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          return VD;
      return nullptr;
    };
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isAssignmentOp())
        if (const VarDecl *V = Local(B->getLHS()))
          Written.insert(V);
    } else if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
        if (const VarDecl *V = Local(U->getSubExpr()))
          Written.insert(V);
    }
    for (const Stmt *C : S->children())
      findWrittenLocals(C);
  }

  /// A pointer loaded from an array of pointers (magma's `ipiv = ipiv_array[batchid]`)
  /// points to another object than the array: the race analysis must not take a read of
  /// the table and a write through the pointer it holds as one object. At a block-uniform
  /// index it is an object of its own, named by the load; else unknown.
  std::optional<PointerForm> tableEntry(const ArraySubscriptExpr *A, unsigned Depth) {
    std::optional<PointerForm> Table = pointer(A->getBase(), Depth + 1);
    if (!Table || TD.valueOf(A->getIdx()).V != Variance::Uniform)
      return std::nullopt;
    PointerForm P;
    P.Root = Table->Root;
    P.Space = MemorySpace::Global;
    P.Offset = makeConst(0, 64, false);
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    A->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
    P.Name = "*" + OS.str();
    return P;
  }

  /// A helper that returns shared memory (cuda-samples' `SharedMemory<T>()`, whose
  /// conversion operator returns an `extern __shared__` array): its last statement returns
  /// the array at a constant offset.
  std::optional<PointerForm> sharedHelper(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->hasBody(Def) || !Def)
      return std::nullopt;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const auto *Ret =
        Body && !Body->body_empty() ? dyn_cast<ReturnStmt>(Body->body_back()) : nullptr;
    if (!Ret || !Ret->getRetValue())
      return std::nullopt;
    std::optional<PointerForm> P = pointer(Ret->getRetValue(), Depth + 1);
    if (!P || P->Space != MemorySpace::Shared || mentionsThreadIdx(*P->Offset))
      return std::nullopt;
    std::vector<unsigned> Used;
    collectVars(*P->Offset, Used);
    if (!Used.empty())
      return std::nullopt;
    P->Padded = nullptr;
    return P;
  }

  /// The kernel's by-value struct parameter a member path starts at (`q.v.p`: q, with
  /// Path "v.p"), when nothing in the kernel assigns it; none through an arrow.
  const ParmVarDecl *structParam(const MemberExpr *M, std::string &Path) const {
    Path = M->getMemberDecl()->getName().str();
    const Expr *B = M->getBase()->IgnoreParenImpCasts();
    while (auto *Inner = dyn_cast<MemberExpr>(B)) {
      if (Inner->isArrow())
        return nullptr;
      Path = Inner->getMemberDecl()->getName().str() + "." + Path;
      B = Inner->getBase()->IgnoreParenImpCasts();
    }
    auto *DR = dyn_cast<DeclRefExpr>(B);
    auto *PV = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (!PV || PV->getDeclContext() != Kernel || !PV->getType()->isRecordType() ||
        Written.count(PV))
      return nullptr;
    return PV;
  }

  std::optional<PointerForm> pointer(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParens();
    if (auto *FE = dyn_cast<FullExpr>(E))
      return pointer(FE->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<CastExpr>(E); All && C && C->getCastKind() == CK_LValueToRValue) {
      if (std::optional<PointerForm> P = pointerElement(C->getSubExpr()))
        return P;
      // A pointer loaded from an array of pointers: tableEntry.
      if (auto *A = dyn_cast<ArraySubscriptExpr>(C->getSubExpr()->IgnoreParens());
          A && A->getType()->isPointerType())
        return tableEntry(A, Depth);
    }
    if (auto *C = dyn_cast<CastExpr>(E)) {
      switch (C->getCastKind()) {
      case CK_ArrayToPointerDecay:
      case CK_NoOp:
      case CK_BitCast:
      case CK_LValueToRValue:
      case CK_AddressSpaceConversion:
      case CK_UserDefinedConversion: {
        std::optional<PointerForm> P = pointer(C->getSubExpr(), Depth + 1);
        // A pointer loaded from a table of pointers at a block index (the same for every
        // thread of the block): an object per block.
        if (auto *A = dyn_cast<ArraySubscriptExpr>(C->getSubExpr()->IgnoreParens());
            P && C->getCastKind() == CK_LValueToRValue && A && A->getType()->isPointerType() &&
            TD.valueOf(A->getIdx()).V == Variance::Uniform)
          if (SymRef I = TD.valueOf(A->getIdx()).S) {
            std::vector<unsigned> Used;
            collectVars(*I, Used);
            for (unsigned V : Used)
              if (V < TD.vars().size() && TD.vars()[V].Kind == SymVarInfo::BlockIdx) {
                P->BlockObject = true;
                P->ObjectBlockVars.push_back(V);
              }
          }
        return P;
      }
      default:
        return std::nullopt;
      }
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD)
        return std::nullopt;
      PointerForm P;
      P.Root = VD;
      P.Offset = makeConst(0, 64, false);
      if (VD->hasAttr<CUDASharedAttr>()) {
        P.Space = MemorySpace::Shared;
        if (!VD->getType()->isArrayType() && !All)
          return std::nullopt; // a shared scalar: one address for every lane
        return P;
      }
      if (auto *PV = dyn_cast<ParmVarDecl>(VD)) {
        if (PV->getDeclContext() != Kernel || !PV->getType()->isPointerType() ||
            Written.count(VD))
          return std::nullopt;
        return P;
      }
      if (VD->hasAttr<CUDADeviceAttr>() && VD->hasGlobalStorage() && VD->getType()->isArrayType())
        return P;
      if (VD->hasLocalStorage() && VD->getType()->isPointerType() && VD->getInit() &&
          !Written.count(VD)) {
        std::optional<PointerForm> Q = pointer(VD->getInit(), Depth + 1);
        if (Q)
          Q->Padded = nullptr;
        return Q;
      }
      return std::nullopt;
    }
    if (auto *M = dyn_cast<MemberExpr>(E); M && All && !M->isArrow() &&
                                            M->getType()->isPointerType()) {
      // A pointer field of a struct parameter passed by value (`q.p`, `q.v.p`): an object
      // of its own, named by the path, when nothing in the kernel assigns the parameter.
      std::string Path;
      const ParmVarDecl *PV = structParam(M, Path);
      if (!PV)
        return std::nullopt;
      PointerForm P;
      P.Root = PV;
      P.Offset = makeConst(0, 64, false);
      P.Name = PV->getName().str() + "." + Path;
      return P;
    }
    if (auto *Call = dyn_cast<CallExpr>(E))
      return sharedHelper(Call, Depth);
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      // A row of a multi-dimensional array, or `&p[i]`'s element.
      return element(A, Depth);
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf) {
        const Expr *Sub = U->getSubExpr()->IgnoreParens();
        if (auto *A = dyn_cast<ArraySubscriptExpr>(Sub))
          return element(A, Depth);
      }
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
        return std::nullopt;
      const Expr *Ptr = B->getLHS(), *Int = B->getRHS();
      if (!Ptr->getType()->isPointerType())
        std::swap(Ptr, Int);
      if (!Ptr->getType()->isPointerType() || !Int->getType()->isIntegerType())
        return std::nullopt;
      std::optional<PointerForm> P = pointer(Ptr, Depth + 1);
      std::optional<uint64_t> Size = sizeOf(Ptr->getType()->getPointeeType());
      SymRef I = TD.valueOf(Int).S;
      if (!P || !Size || !I)
        return std::nullopt;
      if (B->getOpcode() == BO_Sub)
        I = makeUnary(SymOp::Neg, bytes64(I), 64, false);
      P->Offset = add64(P->Offset, scaled(I, *Size));
      P->Padded = nullptr;
      return P;
    }
    return std::nullopt;
  }

  /// The address of `Base[Index]`.
  std::optional<PointerForm> element(const ArraySubscriptExpr *A, unsigned Depth) {
    std::optional<PointerForm> P = pointer(A->getBase(), Depth + 1);
    std::optional<uint64_t> Size = sizeOf(A->getType());
    SymRef I = TD.valueOf(A->getIdx()).S;
    if (!P || !Size || !I)
      return std::nullopt;
    SymRef Step = scaled(I, *Size);
    // A shared array of arrays: the padded form grows every row by one element of the
    // innermost dimension.
    if (P->Space == MemorySpace::Shared) {
      QualType T = A->getType();
      if (const auto *Row = Ctx.getAsConstantArrayType(T)) {
        QualType Inner = Row->getElementType();
        while (const auto *CA = Ctx.getAsConstantArrayType(Inner))
          Inner = CA->getElementType();
        std::optional<uint64_t> InnerSize = sizeOf(Inner);
        // Only the outer index of a 2-D array moves by whole rows of the innermost kind.
        if (InnerSize && !Ctx.getAsConstantArrayType(Row->getElementType()) && !P->Padded &&
            isa<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts())) {
          uint64_t Padded = (Row->getSize().getZExtValue() + 1) * *InnerSize;
          P->Padded = add64(P->Offset, scaled(I, Padded));
          PaddedRows = Row->getSize().getZExtValue() + 1;
        }
      } else if (P->Padded) {
        P->Padded = add64(P->Padded, Step);
      }
    }
    P->Offset = add64(P->Offset, Step);
    return P;
  }

  std::optional<uint64_t> sizeOf(QualType T) const {
    if (T.isNull() || T->isIncompleteType() || T->isDependentType() || T->isVoidType() ||
        T->isFunctionType())
      return std::nullopt;
    uint64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    if (Bytes == 0)
      return std::nullopt;
    return Bytes;
  }

  void consider(const Expr *E, bool IsStore, bool IsLoad) {
    std::optional<PointerForm> P;
    QualType Accessed = E->getType();
    std::string ElementName;
    unsigned ElementBytes = 0;
    SymRef ElementOffset;
    unsigned FieldOffsetBytes = 0;
    PaddedRows = 0;
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (A->getType()->isArrayType())
        return; // a row: an address, not an access
      P = element(A, 0);
    } else if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_Deref)
        return;
      P = pointer(U->getSubExpr());
    } else if (auto *M = dyn_cast<MemberExpr>(E)) {
      auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!FD || FD->isBitField() || FD->getParent()->isUnion())
        return;
      const Expr *Base = M->getBase()->IgnoreParens();
      QualType Record;
      if (M->isArrow()) {
        P = pointer(Base);
        Record = Base->getType()->getPointeeType();
      } else if (auto *A = dyn_cast<ArraySubscriptExpr>(Base)) {
        P = element(A, 0);
        Record = A->getType();
      } else if (auto *U = dyn_cast<UnaryOperator>(Base); U && U->getOpcode() == UO_Deref) {
        P = pointer(U->getSubExpr());
        Record = U->getType();
      } else {
        return;
      }
      if (!P || Record.isNull() || !Record->isRecordType())
        return;
      const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
      uint64_t FieldOffset = L.getFieldOffset(FD->getFieldIndex()) / 8;
      ElementOffset = P->Offset;
      FieldOffsetBytes = unsigned(FieldOffset);
      P->Offset = add64(P->Offset, makeConst(int64_t(FieldOffset), 64, false));
      if (P->Padded)
        P->Padded = add64(P->Padded, makeConst(int64_t(FieldOffset), 64, false));
      ElementName = Record.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
      ElementBytes = unsigned(sizeOf(Record).value_or(0));
    } else if (auto *DR = dyn_cast<DeclRefExpr>(E); DR && All) {
      // A __shared__ scalar (`__shared__ int a; a = ...`): one word every thread names.
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD || !VD->hasAttr<CUDASharedAttr>() || VD->getType()->isArrayType() ||
          VD->getType()->isRecordType())
        return;
      P = pointer(DR);
    } else {
      return;
    }
    if (!P || !P->Offset)
      return;
    if (Accessed->isArrayType())
      return;
    std::optional<uint64_t> Size = sizeOf(Accessed);
    if (!Size || *Size > (All ? 64 : 16))
      return;
    // A struct is one access only when it is a vector type (float2, float4, int4: size and
    // alignment 8 or 16); another struct is copied field by field, not evaluated here
    // (the race analysis takes its bytes as one access).
    if (Accessed->isRecordType() && !All &&
        !((*Size == 8 || *Size == 16) &&
          uint64_t(Ctx.getTypeAlignInChars(Accessed).getQuantity()) == *Size))
      return;
    if (!All && !mentionsThreadIdx(*P->Offset) && !mentionsLaneVar(*P->Offset)) {
      if (P->Padded && PaddedRows)
        ++PaddableRefs[P->Root]; // a broadcast stays one: padding changes nothing there
      return; // one address for every lane: a broadcast
    }
    MemoryAccessSite S;
    S.Access = E;
    S.Space = P->Space;
    S.Load = IsLoad || (!IsStore);
    S.Store = IsStore;
    S.Bytes = unsigned(*Size);
    S.TypeName = Accessed.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    S.ElementName = ElementName;
    S.ElementBytes = ElementBytes ? ElementBytes : unsigned(*Size);
    S.Object = P->Name.empty() ? P->Root->getName().str() : P->Name;
    S.ObjectDecl = P->Root;
    S.BlockObject = P->BlockObject;
    S.ObjectBlockVars = P->ObjectBlockVars;
    S.ExternShared = P->Space == MemorySpace::Shared && P->Root->hasExternalStorage();
    S.Offset = P->Offset;
    S.Active = TD.pathOf(E);
    S.DataMatch = TD.dataMatchOf(E);
    S.UnderSwitchCase = TD.underSwitchCase(E);
    S.ElementOffset = ElementOffset;
    S.FieldOffset = FieldOffsetBytes;
    if (P->Padded && PaddedRows) {
      ++PaddableRefs[P->Root];
      S.PaddedOffset = P->Padded;
      QualType T = P->Root->getType();
      QualType Inner = T;
      std::vector<uint64_t> Dims;
      while (const auto *CA = Ctx.getAsConstantArrayType(Inner)) {
        Dims.push_back(CA->getSize().getZExtValue());
        Inner = CA->getElementType();
      }
      if (Dims.size() >= 2) {
        S.PaddedDecl = Inner.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) + " " +
                       S.Object;
        for (size_t K = 0; K < Dims.size(); ++K)
          S.PaddedDecl += "[" + std::to_string(K + 1 == Dims.size() ? Dims[K] + 1 : Dims[K]) + "]";
      } else {
        S.PaddedOffset = nullptr;
      }
    }
    Out.push_back(std::move(S));
  }

  /// A loop variable or iteration count whose loop starts at a thread index.
  bool mentionsLaneVar(const Sym &S) const {
    std::vector<unsigned> Used;
    collectVars(S, Used);
    const std::vector<SymVarInfo> &Vars = TD.vars();
    for (unsigned V : Used)
      if (V < Vars.size() && Vars[V].Kind == SymVarInfo::Loop && Vars[V].Init &&
          mentionsThreadIdx(*Vars[V].Init))
        return true;
    return false;
  }

  /// A pointer held in a constant element of an array field of a struct parameter
  /// (`q.p[4]` of `struct { float *p[42]; } q`): an object of its own, "q.p[4]".
  std::optional<PointerForm> pointerElement(const Expr *E) {
    auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
    if (!A || !A->getType()->isPointerType())
      return std::nullopt;
    auto *M = dyn_cast<MemberExpr>(A->getBase()->IgnoreParenImpCasts());
    Expr::EvalResult R;
    if (!M || M->isArrow() || !M->getType()->isConstantArrayType() ||
        !A->getIdx()->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    std::string Path;
    const ParmVarDecl *PV = structParam(M, Path);
    if (!PV)
      return std::nullopt;
    PointerForm P;
    P.Root = PV;
    P.Offset = makeConst(0, 64, false);
    P.Name = PV->getName().str() + "." + Path + "[" +
             std::to_string(R.Val.getInt().getExtValue()) + "]";
    return P;
  }

  /// `__builtin_memcpy(dst, src, n)` and `memcpy` with a constant n of at most 64 bytes:
  /// a store of n bytes at dst and a load of n bytes at src (All only).
  bool copyCall(const CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || Call->getNumArgs() != 3)
      return false;
    unsigned ID = FD->getBuiltinID();
    if (ID != Builtin::BI__builtin_memcpy && ID != Builtin::BImemcpy)
      return false;
    Expr::EvalResult R;
    const Expr *Len = Call->getArg(2);
    int64_t N = 0;
    if (Len->EvaluateAsInt(R, Ctx)) {
      N = R.Val.getInt().getExtValue();
    } else if (auto *DR = dyn_cast<DeclRefExpr>(Len->IgnoreParenImpCasts())) {
      // `size_t len = 5; memcpy(..., len)`: a local never written after its initialiser.
      auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      if (!VD || !VD->getInit() || Written.count(VD) ||
          !VD->getInit()->EvaluateAsInt(R, Ctx))
        return false;
      N = R.Val.getInt().getExtValue();
    } else {
      return false;
    }
    if (N <= 0 || N > 64)
      return false;
    for (int Arg = 0; Arg < 2; ++Arg) {
      std::optional<PointerForm> P = pointer(Call->getArg(Arg));
      if (!P || !P->Offset)
        continue;
      MemoryAccessSite S;
      S.Access = Call;
      S.Space = P->Space;
      S.Load = Arg == 1;
      S.Store = Arg == 0;
      S.Bytes = unsigned(N);
      S.TypeName = "byte";
      S.ElementBytes = unsigned(N);
      S.Object = P->Name.empty() ? P->Root->getName().str() : P->Name;
      S.ObjectDecl = P->Root;
      S.Offset = P->Offset;
      S.Active = TD.pathOf(Call);
      S.DataMatch = TD.dataMatchOf(Call);
      Out.push_back(std::move(S));
    }
    return true;
  }

  const ThreadDependence &TD;
  ASTContext &Ctx;
  const FunctionDecl *Kernel;
  bool All = false;
  llvm::SmallPtrSet<const VarDecl *, 16> Written;
  uint64_t PaddedRows = 0;

public:
  /// Per shared array: the references that are full subscripts with a padded offset
  /// (accesses listed, or broadcasts).
  std::map<const VarDecl *, unsigned> PaddableRefs;
};

/// Every reference of the kernel's body to each shared array declared in it.
void countSharedRefs(const Stmt *S, const FunctionDecl *Kernel,
                     std::map<const VarDecl *, unsigned> &Refs) {
  if (!S)
    return;
  if (auto *DR = dyn_cast<DeclRefExpr>(S))
    if (auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      if (VD->hasAttr<CUDASharedAttr>())
        ++Refs[VD];
  for (const Stmt *C : S->children())
    countSharedRefs(C, Kernel, Refs);
}

} // namespace

namespace {

/// Two symbolic forms that are the same expression node for node.
bool sameSym(const Sym *A, const Sym *B) {
  if (A == B)
    return true;
  if (!A || !B || A->Op != B->Op || A->Value != B->Value || A->Bits != B->Bits ||
      A->Unsigned != B->Unsigned)
    return false;
  return sameSym(A->A.get(), B->A.get()) && sameSym(A->B.get(), B->B.get()) &&
         sameSym(A->C.get(), B->C.get());
}

/// Fields of one array element accessed in separate expressions (`a[i].x`, `a[i].y`):
/// counted on each site (SiblingFields), and, when they make up the whole element of a
/// vector type (size 8 or 16, aligned to it: float2, float4, int4, double2), merged into
/// one access of the element, which is what the compiler emits (one vector load).
/// Whole, a load of an element, runs before Field on every path to it: Whole's statement
/// is a statement of a compound statement that holds Field later on, in the same
/// function.
bool wholeLoadBefore(const Expr *Whole, const Expr *Field, const ASTContext &Ctx) {
  ASTContext &C = const_cast<ASTContext &>(Ctx);
  // Whole's statement in its nearest compound statement.
  DynTypedNode N = DynTypedNode::create(*Whole);
  const Stmt *InBlock = nullptr;
  const CompoundStmt *Block = nullptr;
  for (unsigned Depth = 0; Depth < 64 && !Block; ++Depth) {
    DynTypedNodeList Ps = C.getParents(N);
    if (Ps.size() != 1)
      return false;
    if (const auto *CS = Ps[0].get<CompoundStmt>()) {
      Block = CS;
      InBlock = N.get<Stmt>();
      if (!InBlock) // a declaration's initialiser: its DeclStmt is the node above
        return false;
      break;
    }
    if (Ps[0].get<Decl>() && !Ps[0].get<VarDecl>())
      return false;
    N = Ps[0];
  }
  if (!Block || !InBlock)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = InBlock->getEndLoc(), At = Field->getBeginLoc();
  // Field lies inside Block after Whole's statement (a later statement or nested in one).
  return SM.isBeforeInTranslationUnit(End, At) &&
         SM.isBeforeInTranslationUnit(At, Block->getRBracLoc());
}

void mergeFields(std::vector<MemoryAccessSite> &Sites, const ASTContext &Ctx) {
  std::vector<bool> Drop(Sites.size(), false);
  for (size_t I = 0; I < Sites.size(); ++I) {
    MemoryAccessSite &S = Sites[I];
    if (!S.ElementOffset || Drop[I] || S.SiblingFields)
      continue;
    std::vector<size_t> Group{I};
    for (size_t J = I + 1; J < Sites.size(); ++J) {
      const MemoryAccessSite &T = Sites[J];
      if (T.ElementOffset && !Drop[J] && T.ObjectDecl == S.ObjectDecl && T.Space == S.Space &&
          T.Store == S.Store && T.Load == S.Load && T.ElementBytes == S.ElementBytes &&
          T.ElementName == S.ElementName && sameSym(T.ElementOffset.get(), S.ElementOffset.get()))
        Group.push_back(J);
    }
    // The bytes of the element the group covers, field by field.
    std::vector<bool> Covered(S.ElementBytes, false);
    std::set<unsigned> Fields;
    for (size_t K : Group) {
      Fields.insert(Sites[K].FieldOffset);
      for (unsigned B = 0; B < Sites[K].Bytes && Sites[K].FieldOffset + B < S.ElementBytes; ++B)
        Covered[Sites[K].FieldOffset + B] = true;
    }
    if (Fields.size() < 2)
      continue;
    for (size_t K : Group)
      Sites[K].SiblingFields = unsigned(Fields.size());
    bool Whole = std::all_of(Covered.begin(), Covered.end(), [](bool B) { return B; });
    // A vector type: a record of 8 or 16 bytes aligned to its size (the type of a field
    // access's base is the element's; it is not kept on the site, so the name and size
    // stand for it: CUDA's vector types are the records with that alignment).
    bool Vector = (S.ElementBytes == 8 || S.ElementBytes == 16);
    if (Vector) {
      const Expr *Base = cast<MemberExpr>(S.Access)->getBase()->IgnoreParens();
      QualType T = cast<MemberExpr>(S.Access)->isArrow() ? Base->getType()->getPointeeType()
                                                          : Base->getType();
      Vector = !T.isNull() && !T->isIncompleteType() &&
               uint64_t(Ctx.getTypeAlignInChars(T).getQuantity()) == S.ElementBytes;
    }
    if (!Whole || !Vector)
      continue;
    // One access of the whole element at the first field's place.
    S.Offset = S.ElementOffset;
    S.Bytes = S.ElementBytes;
    S.TypeName = S.ElementName;
    S.ElementName.clear();
    S.FieldOffset = 0;
    S.MergedFields = true;
    S.PaddedOffset = nullptr;
    if (!cast<MemberExpr>(S.Access)->isArrow())
      S.Access = cast<MemberExpr>(S.Access)->getBase()->IgnoreParens(); // `a[i]`
    for (size_t K = 1; K < Group.size(); ++K)
      Drop[Group[K]] = true;
  }
  // A field read of an element that an earlier statement of the same block already loads
  // whole (`const float4 v = a[p]; ... a[p].w`, DualSPHysics' symplectic step), with no
  // store to the object in the kernel: the compiler reads the field from the register the
  // whole load filled (at worst an L1 hit). It moves no bytes of its own: not an access.
  for (size_t I = 0; I < Sites.size(); ++I) {
    const MemoryAccessSite &S = Sites[I];
    if (Drop[I] || !S.ElementOffset || !S.Load || S.Store || S.MergedFields ||
        !isa<MemberExpr>(S.Access))
      continue;
    if (llvm::any_of(Sites, [&](const MemoryAccessSite &T) {
          return T.Store && T.ObjectDecl == S.ObjectDecl && T.Object == S.Object;
        }))
      continue;
    for (size_t J = 0; J < Sites.size(); ++J) {
      const MemoryAccessSite &W = Sites[J];
      if (J == I || Drop[J] || !W.Load || W.Store || W.ElementOffset ||
          W.ObjectDecl != S.ObjectDecl || W.Object != S.Object || W.Space != S.Space ||
          W.Bytes != S.ElementBytes || !W.Offset || !sameSym(W.Offset.get(), S.ElementOffset.get()) ||
          !sameSym(W.Active.get(), S.Active.get()) || !wholeLoadBefore(W.Access, S.Access, Ctx))
        continue;
      Drop[I] = true;
      break;
    }
  }
  std::vector<MemoryAccessSite> Kept;
  for (size_t I = 0; I < Sites.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(Sites[I]));
  Sites = std::move(Kept);
}

} // namespace

std::vector<MemoryAccessSite> collectAccesses(const FunctionDecl *Kernel,
                                              const ThreadDependence &TD, ASTContext &Ctx) {
  if (!Kernel || !Kernel->hasBody())
    return {};
  Collector C(TD, Ctx, Kernel);
  C.walk(Kernel->getBody(), false, true, false);
  mergeFields(C.Out, Ctx);
  // An array whose every reference is a padded-offset full subscript: the padded layout
  // is evaluated for all its accesses (a declaration in the kernel itself only; one at
  // namespace scope may be used by other kernels and functions).
  std::map<const VarDecl *, unsigned> Refs;
  countSharedRefs(Kernel->getBody(), Kernel, Refs);
  for (MemoryAccessSite &S : C.Out)
    if (S.PaddedOffset && S.ObjectDecl && S.ObjectDecl->getDeclContext() == Kernel &&
        !S.ObjectDecl->hasExternalStorage())
      S.PaddingCoversObject = C.PaddableRefs[S.ObjectDecl] == Refs[S.ObjectDecl];
  return std::move(C.Out);
}

std::vector<MemoryAccessSite> collectAllAccesses(const FunctionDecl *Kernel,
                                                 const ThreadDependence &TD, ASTContext &Ctx) {
  if (!Kernel || !Kernel->hasBody())
    return {};
  Collector C(TD, Ctx, Kernel, /*All=*/true);
  C.walk(Kernel->getBody(), false, true, false);
  return std::move(C.Out);
}

bool AccessFigures::valueDependent(double MinRatio) const {
  // A sample whose typical warp has one lane left (`if (i < n)` with n = 1) has no two
  // lanes to set apart: it says how many lanes run, not how they lie, and the figures
  // of the other samples decide.
  const ValueFigure *First = nullptr;
  for (const ValueFigure &V : ByValue) {
    if (!V.Typical.hasLanePairs())
      continue;
    if (!First)
      First = &V;
    if (V.Typical.ratio() < MinRatio || V.Typical.LaneStride != First->Typical.LaneStride)
      return true;
  }
  return false;
}

bool AccessFigures::sameForAllValues() const {
  for (const ValueFigure &V : ByValue)
    if (V.Typical.ratio() != ByValue.front().Typical.ratio() ||
        V.Typical.hasLanePairs() != ByValue.front().Typical.hasLanePairs())
      return false;
  return true;
}

double WarpExecution::ratio() const {
  if (Waves.IdealWavefronts)
    return double(Waves.Wavefronts) / double(Waves.IdealWavefronts);
  if (Sectors.IdealSectors)
    return double(Sectors.Sectors) / double(Sectors.IdealSectors);
  return 1.0;
}

namespace {

/// Sampled values of one unknown.
std::vector<int64_t> samplesOf(const SymVarInfo &I, const KnownValues *Known) {
  // A parameter every launch passes as a constant, and the grid every launch gives: the
  // launches' values, not samples.
  if (Known && (I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::GridDim)) {
    auto It = Known->find(I.Name);
    if (It != Known->end() && !It->second.empty())
      return It->second;
  }
  switch (I.Kind) {
  case SymVarInfo::BlockIdx:
    return {0, 1};
  case SymVarInfo::GridDim:
    return {2};
  case SymVarInfo::Iteration:
    return {0, 1};
  default:
    // One (a unit stride, BLAS's usual incx), a power of two, an odd neighbour (a padded
    // width: the bank it starts in moves by one per lane) and a large value: a figure or
    // a stride that changes between them depends on the value
    // (AccessFigures::valueDependent).
    return {1, 32, 33, 1000};
  }
}

/// Environments for the unknowns an access reads: at most MaxCombos combinations of the
/// plain unknowns' samples (evenly spaced), each with at most 4 values of every uniform
/// loop counter (first, second, middle, last), at most MaxEnvs in all.
std::vector<Env> buildEnvs(const std::vector<unsigned> &Needed,
                           const std::vector<SymVarInfo> &Vars, const BlockShape &Shape,
                           const KnownValues *Known) {
  constexpr size_t MaxCombos = 8, MaxEnvs = 48;
  std::vector<unsigned> Plain, Loops;
  orderUnknowns(Needed, Vars, Plain, Loops);
  size_t Total = 1;
  std::vector<std::vector<int64_t>> Choices; // each plain unknown's samples, made once
  Choices.reserve(Plain.size());
  for (unsigned V : Plain) {
    Choices.push_back(samplesOf(Vars[V], Known));
    Total = std::min<size_t>(size_t(1) << 30, Total * Choices.back().size());
  }
  size_t Count = std::min(Total, MaxCombos);
  std::vector<Env> Out;
  Out.reserve(Loops.empty() ? Count : MaxEnvs);
  for (size_t G = 0; G < Count; ++G) {
    size_t Index = Count == 1 ? 0 : G * (Total - 1) / (Count - 1);
    Env E;
    E.Vars.resize(Vars.size());
    E.BlockDim[0] = Shape.X;
    E.BlockDim[1] = Shape.Y;
    E.BlockDim[2] = Shape.Z;
    for (size_t K = 0; K < Plain.size(); ++K) {
      const std::vector<int64_t> &C = Choices[K];
      E.Vars[Plain[K]] = C[Index % C.size()];
      Index /= C.size();
    }
    if (Loops.empty()) { // the combination is the environment (no copy through Envs)
      if (Out.size() < MaxEnvs)
        Out.push_back(std::move(E));
      continue;
    }
    std::vector<Env> Envs{E};
    bool Ok = true;
    for (unsigned L : Loops) {
      const SymVarInfo &I = Vars[L];
      std::vector<Env> Next;
      for (const Env &B : Envs) {
        if (!I.Init || !I.Cond || !I.Step) {
          Ok = false;
          break;
        }
        std::optional<std::vector<int64_t>> Values =
            enumerateLoop(*I.Init, *I.Cond, *I.Step, L, B, 4096);
        if (!Values) {
          Ok = false;
          break;
        }
        std::vector<size_t> Picks;
        size_t N = Values->size();
        for (size_t K : {size_t(0), size_t(1), N / 2, N ? N - 1 : 0})
          if (K < N && std::find(Picks.begin(), Picks.end(), K) == Picks.end())
            Picks.push_back(K);
        for (size_t K : Picks) {
          Env X = B;
          X.Vars[L] = (*Values)[K];
          Next.push_back(std::move(X));
        }
      }
      if (!Ok)
        break;
      Envs = std::move(Next);
    }
    if (!Ok)
      continue;
    for (Env &X : Envs) {
      if (Out.size() >= MaxEnvs)
        break;
      Out.push_back(std::move(X));
    }
  }
  return Out;
}

/// An access's offset (and the condition it runs under) evaluated for a block, 32 lanes at
/// a time: laneOffsets' answer for each sampled warp, which folds the lane-independent
/// parts first as the evaluator does.
class SiteLanes {
public:
  SiteLanes(const Sym &Offset, const Sym *Active)
      : Offset(Offset), Active(Active ? std::make_unique<WarpEvaluator>(*Active) : nullptr) {}
  void bind(const BlockShape &S, const Env &E) {
    Shape = S;
    Offset.bind(S, E);
    if (Active)
      Active->bind(S, E);
  }
  /// laneOffsets(Offset, Active, Shape, Warp, E, Out, Lanes) for Lanes a multiple of 32.
  bool lanes(unsigned Warp, unsigned Lanes, ::warplint::memory::LaneOffsets &Out) {
    for (std::optional<int64_t> &O : Out)
      O.reset();
    const unsigned Per = Lanes / 32;
    for (unsigned G = Warp * Per; G < (Warp + 1) * Per && G < Shape.warps(); ++G) {
      uint32_t Live = Offset.threads(G), Valid = 0;
      if (Active) {
        const int64_t *On = Active->group(G, Valid);
        if (Live & ~Valid)
          return false; // a lane whose condition cannot be evaluated
        for (unsigned L = 0; L < 32; ++L)
          if (On[L] == 0)
            Live &= ~(uint32_t(1) << L);
      }
      if (!Live)
        continue;
      const int64_t *V = Offset.group(G, Valid);
      if (Live & ~Valid)
        return false;
      for (unsigned L = 0; L < 32; ++L)
        if (Live >> L & 1)
          Out[(G - Warp * Per) * 32 + L] = V[L];
    }
    return true;
  }

private:
  WarpEvaluator Offset;
  std::unique_ptr<WarpEvaluator> Active;
  BlockShape Shape;
};

/// The distance from one lane to the next: the most common one between consecutive active
/// lanes (divided by their distance in lanes), when at least half of the pairs have it (a
/// warp over two rows of a 16x16 block jumps once); the first offset, and whether the lanes
/// are contiguous.
void laneStride(const ::warplint::memory::LaneOffsets &LaneOffs, unsigned Lanes,
                unsigned Bytes, WarpExecution &X) {
  // At most MaxLanes - 1 differences: on the stack (one count per warp execution).
  std::array<int64_t, ::warplint::memory::MaxLanes> Diffs;
  size_t NumDiffs = 0;
  std::optional<int64_t> Prev;
  unsigned PrevLane = 0;
  X.Contiguous = true;
  for (unsigned L = 0; L < Lanes; ++L) {
    const auto &O = LaneOffs[L];
    if (!O)
      continue;
    if (!Prev) {
      X.FirstOffset = *O;
    } else {
      int64_t D = *O - *Prev, Apart = int64_t(L - PrevLane);
      Diffs[NumDiffs++] = D % Apart == 0 ? D / Apart : INT64_MIN;
      X.Contiguous &= D == Apart * int64_t(Bytes);
    }
    Prev = O;
    PrevLane = L;
  }
  if (NumDiffs == 0)
    return;
  std::array<int64_t, ::warplint::memory::MaxLanes> Sorted = Diffs;
  std::sort(Sorted.begin(), Sorted.begin() + NumDiffs);
  size_t Best = 0, BestCount = 0;
  for (size_t K = 0; K < NumDiffs;) {
    size_t J = K;
    while (J < NumDiffs && Sorted[J] == Sorted[K])
      ++J;
    if (J - K > BestCount) {
      BestCount = J - K;
      Best = K;
    }
    K = J;
  }
  if (2 * BestCount >= NumDiffs && Sorted[Best] != INT64_MIN)
    X.LaneStride = Sorted[Best];
}

/// "n = 32, m = 1000": the sampled unknowns that are parameters or loaded values.
std::string describe(const Env &E, const std::vector<unsigned> &Needed,
                     const std::vector<SymVarInfo> &Vars) {
  std::string S;
  for (unsigned V : Needed) {
    if (V >= Vars.size() || !E.Vars[V])
      continue;
    const SymVarInfo &I = Vars[V];
    if (I.Kind != SymVarInfo::Param && I.Kind != SymVarInfo::Opaque &&
        I.Kind != SymVarInfo::GridDim)
      continue;
    if (!S.empty())
      S += ", ";
    S += I.Name + " = " + std::to_string(*E.Vars[V]);
  }
  return S;
}

/// AccessFigures::FootprintStride for the environments Envs (those the figures were
/// counted in): in each, the offsets of every thread of the block that runs the access,
/// and the same with each unknown that varies within the kernel moved to its next value
/// (a block index, a loop counter, a lane loop's iteration); the gcd of their distances,
/// the smallest over the environments; the first one under Segment as soon as one is (a
/// dense footprint: the rule is answered).
std::optional<int64_t> footprintStride(const MemoryAccessSite &Site,
                                       const std::vector<SymVarInfo> &Vars,
                                       const BlockShape &Shape, const std::vector<Env> &Envs,
                                       const std::vector<unsigned> &Needed,
                                       const KnownValues *Known, int64_t Segment,
                                       std::string &Deciding) {
  constexpr size_t MaxVarying = 6;
  std::vector<unsigned> Varying, RunTime, Passed;
  for (unsigned V : Needed) {
    if (V >= Vars.size())
      return std::nullopt;
    switch (Vars[V].Kind) {
    case SymVarInfo::Param:
      // One value for the whole launch; a run-time one where no launch here fixes it.
      if (!(Known && Known->count(Vars[V].Name)))
        RunTime.push_back(V);
      else
        Passed.push_back(V);
      break;
    case SymVarInfo::GridDim:
      break; // one value for the whole launch
    case SymVarInfo::Opaque:
      // Loaded once per thread at a block-uniform address: one value in a block, which
      // another block may see otherwise; unknown where blocks share the object.
      if (Vars[V].InLoop || !Site.BlockObject)
        return std::nullopt;
      RunTime.push_back(V);
      break;
    case SymVarInfo::BlockIdx:
      // The index that picks the block's object is one value over it; another moves.
      if (std::find(Site.ObjectBlockVars.begin(), Site.ObjectBlockVars.end(), V) ==
          Site.ObjectBlockVars.end())
        Varying.push_back(V);
      break;
    case SymVarInfo::Loop:
    case SymVarInfo::Iteration:
      Varying.push_back(V);
      break;
    }
  }
  if (Varying.size() > MaxVarying)
    return std::nullopt;
  WarpEvaluator Offset(*Site.Offset);
  std::unique_ptr<WarpEvaluator> Active =
      Site.Active ? std::make_unique<WarpEvaluator>(*Site.Active) : nullptr;
  std::optional<int64_t> Ref;
  int64_t G = 0;
  // Every thread's offset in E into G (against Ref); false: a running lane has none.
  auto Add = [&](const Env &E) {
    Offset.bind(Shape, E);
    if (Active)
      Active->bind(Shape, E);
    for (unsigned W = 0; W < Shape.warps(); ++W) {
      uint32_t Live = Offset.threads(W), Valid = 0;
      if (Active) {
        const int64_t *On = Active->group(W, Valid);
        if (Live & ~Valid)
          return false;
        for (unsigned L = 0; L < 32; ++L)
          if (On[L] == 0)
            Live &= ~(uint32_t(1) << L);
      }
      if (!Live)
        continue;
      const int64_t *V = Offset.group(W, Valid);
      if (Live & ~Valid)
        return false;
      for (unsigned L = 0; L < 32; ++L)
        if (Live >> L & 1) {
          if (!Ref)
            Ref = V[L];
          G = std::gcd(G, V[L] > *Ref ? V[L] - *Ref : *Ref - V[L]);
        }
    }
    return true;
  };
  // The gcd over the block, its trips and blocks in E (0: one address, or none).
  auto Footprint = [&](const Env &Base) -> std::optional<int64_t> {
    Ref.reset();
    G = 0;
    if (!Add(Base))
      return std::nullopt;
    for (unsigned V : Varying) {
      Env Next = Base;
      const SymVarInfo &I = Vars[V];
      if (!Base.Vars[V])
        return std::nullopt;
      int64_t Now = *Base.Vars[V];
      if (I.Kind == SymVarInfo::Loop) {
        if (!I.Init || !I.Cond || !I.Step)
          return std::nullopt;
        std::optional<std::vector<int64_t>> Values =
            enumerateLoop(*I.Init, *I.Cond, *I.Step, V, Base, 4096);
        if (!Values)
          return std::nullopt;
        auto It = std::find(Values->begin(), Values->end(), Now);
        if (It == Values->end() || Values->size() < 2)
          continue; // one trip: the counter does not move
        Next.Vars[V] = std::next(It) != Values->end() ? *std::next(It) : *std::prev(It);
      } else {
        Next.Vars[V] = Now + 1;
      }
      if (!Add(Next))
        return std::nullopt;
    }
    return G;
  };
  // Only a stride that a run-time value decides (a leading dimension the caller passes)
  // counts: the kernel serves whatever layout it is given, and for that layout no thread
  // mapping does better. A stride the kernel's own code fixes is its author's layout.
  std::optional<int64_t> Least;
  std::set<std::string> Names;
  for (const Env &Base : Envs) {
    std::optional<int64_t> Here = Footprint(Base);
    if (!Here)
      return std::nullopt;
    if (*Here == 0)
      continue;
    // No more than the access's bytes: the footprint is dense; that answers for every
    // value, and the rest need not be counted.
    if (*Here <= int64_t(Site.Bytes))
      return *Here;
    // Under a segment: sparse (one element in every few), the spacing a kernel parameter
    // may decide, a passed one too (a convolution's stride or dilation: the problem's, not
    // the kernel's layout); where none does, the first such answers as before.
    const bool SubSegment = *Here < Segment;
    std::vector<unsigned> Deciders = RunTime;
    if (SubSegment)
      Deciders.insert(Deciders.end(), Passed.begin(), Passed.end());
    bool Decided = false;
    for (unsigned V : Deciders) {
      if (!Base.Vars[V])
        continue;
      Env Other = Base;
      Other.Vars[V] = *Base.Vars[V] + 1;
      std::optional<int64_t> There = Footprint(Other);
      if (There && *There != 0 && *There != *Here) {
        Decided = true;
        Names.insert(Vars[V].Name);
        break;
      }
    }
    if (!Decided)
      return SubSegment ? std::optional<int64_t>(*Here) : std::nullopt;
    Least = Least ? std::min(*Least, *Here) : *Here;
  }
  for (const std::string &N : Names)
    Deciding += (Deciding.empty() ? "" : ", ") + N;
  return Least;
}

} // namespace

static AccessFigures evaluateSampled(const MemoryAccessSite &Site,
                                     const std::vector<SymVarInfo> &Vars, const BlockShape &Shape,
                                     const ::warplint::memory::MemoryModel &Model,
                                     const KnownValues *Known);

/// The figures, and where a sampled parameter of the address leaves the lanes apart (a
/// stride or a width no launch fixes: ginkgo's block_size, AMGX's block_num_cols), the
/// figure with each other sample of that one parameter, the rest as before: the joint
/// samples are a few evenly spaced combinations and may give a stride parameter only one
/// value (all 33), which then passed for the finding. A sample that makes the access
/// coalesced makes the figure value-dependent (AccessFigures::valueDependent), as a
/// combination that changes it does: the finding is that value's, not the code's.
AccessFigures evaluateAccess(const MemoryAccessSite &Site, const std::vector<SymVarInfo> &Vars,
                             const BlockShape &Shape,
                             const ::warplint::memory::MemoryModel &Model,
                             const KnownValues *Known) {
  AccessFigures F = evaluateSampled(Site, Vars, Shape, Model, Known);
  if (!F.Evaluated || F.Typical.ratio() <= 1.0 || !F.Typical.LaneStride)
    return F;
  // The joint samples already move the figure: they say it.
  for (const ValueFigure &V : F.ByValue)
    if (V.Typical.LaneStride != F.Typical.LaneStride || V.Typical.ratio() != F.Typical.ratio())
      return F;
  std::vector<unsigned> InOffset;
  collectVars(*Site.Offset, InOffset);
  std::vector<ValueFigure> Added;
  for (unsigned V : InOffset) {
    if (V >= Vars.size() || Vars[V].Kind != SymVarInfo::Param || Vars[V].Launched ||
        (Known && Known->count(Vars[V].Name)))
      continue;
    for (int64_t Sample : samplesOf(Vars[V], Known)) {
      KnownValues Fixed = Known ? *Known : KnownValues();
      Fixed[Vars[V].Name] = {Sample};
      AccessFigures One = evaluateSampled(Site, Vars, Shape, Model, &Fixed);
      if (!One.Evaluated)
        continue;
      // Its typical warp with lanes to set apart (`block_size = 1` may leave the median
      // warp one lane of a short row).
      const WarpExecution &X = One.TypicalWithPairs ? *One.TypicalWithPairs : One.Typical;
      // A value for which the lanes, still apart (not one broadcast address: a leading
      // dimension of 1 in `i * (lddab - 1)`), touch the ideal sectors: the finding holds
      // for some values of the parameter only. A stride that only grows or shrinks, or a
      // base that moves the alignment (a sector more or fewer), leaves it the finding.
      if (X.ratio() <= 1.0 && !(X.LaneStride && *X.LaneStride == 0))
        Added.push_back({Vars[V].Name + " = " + std::to_string(Sample) + " (the rest as " +
                             "sampled)",
                         X});
    }
  }
  if (Added.empty())
    return F;
  if (F.ByValue.empty())
    F.ByValue.push_back({F.Typical.Values, F.Typical});
  F.ByValue.insert(F.ByValue.end(), Added.begin(), Added.end());
  F.Probed = true;
  return F;
}

static AccessFigures evaluateSampled(const MemoryAccessSite &Site,
                                     const std::vector<SymVarInfo> &Vars, const BlockShape &Shape,
                                     const ::warplint::memory::MemoryModel &Model,
                                     const KnownValues *Known) {
  AccessFigures F;
  F.Model = Model;
  const unsigned Lanes = std::min(Model.Lanes, ::warplint::memory::MaxLanes);
  const int64_t Seg = Model.SegmentBytes;
  std::vector<unsigned> Needed;
  collectVars(*Site.Offset, Needed);
  if (Site.Active)
    collectVars(*Site.Active, Needed);
  if (Site.PaddedOffset)
    collectVars(*Site.PaddedOffset, Needed);
  std::sort(Needed.begin(), Needed.end());
  Needed.erase(std::unique(Needed.begin(), Needed.end()), Needed.end());
  std::vector<Env> Envs = buildEnvs(Needed, Vars, Shape, Known);
  // The unknowns whose values are sampled, not known: parameters no launch fixes and
  // values loaded from memory (block indices and loop counters take their real values).
  for (unsigned V : Needed) {
    if (V >= Vars.size())
      continue;
    const SymVarInfo &I = Vars[V];
    bool Sampled = I.Kind == SymVarInfo::Opaque ||
                   (I.Kind == SymVarInfo::Param && !(Known && Known->count(I.Name)));
    if (Sampled)
      F.SampledNames += (F.SampledNames.empty() ? "" : ", ") + I.Name;
  }
  std::vector<unsigned> Warps = ::warplint::memory::sampledWarps(Shape, Lanes);
  bool Shared = Site.Space == MemorySpace::Shared;
  std::vector<WarpExecution> All;
  std::vector<double> PaddedRatios;
  bool AllMisaligned = !Shared;
  std::optional<int64_t> Misalign;
  // Warps of 32 lanes or wavefronts of 64 are evaluated 32 lanes at a time (what does not
  // depend on the lane once per environment); any other width lane by lane.
  const bool ByGroups = Lanes >= 32 && Lanes % 32 == 0;
  std::optional<SiteLanes> Eval, PaddedEval;
  if (ByGroups) {
    Eval.emplace(*Site.Offset, Site.Active.get());
    if (Site.PaddedOffset)
      PaddedEval.emplace(*Site.PaddedOffset, Site.Active.get());
  }
  All.reserve(Envs.size() * Warps.size());
  Env E; // the lane-by-lane path's environment (bind reads blockDim from the shape)
  for (const Env &Base : Envs) {
    SymRef Offset, Active, Padded;
    if (ByGroups) {
      Eval->bind(Shape, Base);
      if (PaddedEval)
        PaddedEval->bind(Shape, Base);
    } else {
      E = Base;
      E.BlockDim[0] = Shape.X;
      E.BlockDim[1] = Shape.Y;
      E.BlockDim[2] = Shape.Z;
      // What does not depend on the lane is folded once per environment.
      Offset = foldUniform(Site.Offset, E);
      Active = Site.Active ? foldUniform(Site.Active, E) : nullptr;
      Padded = Site.PaddedOffset ? foldUniform(Site.PaddedOffset, E) : nullptr;
    }
    std::string Values = describe(Base, Needed, Vars);
    for (unsigned W : Warps) {
      LaneOffsets LaneOffs;
      if (ByGroups ? !Eval->lanes(W, Lanes, LaneOffs)
                   : !::warplint::memory::laneOffsets(*Offset, Active.get(), Shape, W, E,
                                                      LaneOffs, Lanes))
        return F; // a lane that cannot be evaluated: never guessed
      WarpExecution X;
      X.Warp = W;
      if (Shared)
        X.Waves = countWavefronts(LaneOffs, Site.Bytes, Lanes);
      else
        X.Sectors = countSectors(LaneOffs, Site.Bytes, unsigned(Seg));
      if ((Shared ? X.Waves.ActiveLanes : X.Sectors.ActiveLanes) == 0)
        continue;
      laneStride(LaneOffs, Lanes, Site.Bytes, X);
      X.Values = Values;
      if (!Shared) {
        const bool InRow = X.Contiguous && X.Sectors.ActiveLanes > 1;
        // Lanes that repeat or share elements (a small table read by groups of lanes,
        // `tab[l * 5 + tid % 5]`, specfem3d's GLL derivative matrix) whose bytes together
        // are one gapless run: the warp's footprint is contiguous, and one sector more than
        // its ideal is where the run starts, as for lanes in a row. Such a run may start
        // on a boundary in one trip and past it in the next (the row of the table moves):
        // an execution at its ideal does not count against it.
        bool Gapless = InRow;
        int64_t First = X.FirstOffset;
        if (!InRow && X.Sectors.Sectors <= X.Sectors.IdealSectors + 1) {
          std::vector<int64_t> Starts;
          for (unsigned L = 0; L < Lanes && L < LaneOffs.size(); ++L)
            if (LaneOffs[L])
              Starts.push_back(*LaneOffs[L]);
          llvm::sort(Starts);
          Gapless = Starts.size() > 1 && Starts.front() != Starts.back();
          for (size_t K = 1; K < Starts.size() && Gapless; ++K)
            Gapless = Starts[K] <= Starts[K - 1] + int64_t(Site.Bytes);
          if (Gapless)
            First = Starts.front();
          X.Gapless = Gapless;
        }
        int64_t Past = ((First % Seg) + Seg) % Seg;
        const bool Off = Gapless && X.Sectors.Sectors == X.Sectors.IdealSectors + 1 && Past != 0;
        if (Off) {
          if (InRow && Misalign && *Misalign != Past)
            AllMisaligned = false;
          if (!Misalign)
            Misalign = Past;
        } else if (InRow || !Gapless || X.Sectors.Sectors != X.Sectors.IdealSectors) {
          AllMisaligned = false;
        }
        if (InRow)
          Misalign = Past;
      }
      if (Site.PaddedOffset) {
        LaneOffsets P;
        if (ByGroups ? PaddedEval->lanes(W, Lanes, P)
                     : ::warplint::memory::laneOffsets(*Padded, Active.get(), Shape, W, E, P,
                                                       Lanes)) {
          ::warplint::memory::WavefrontCount PW = countWavefronts(P, Site.Bytes, Lanes);
          PaddedRatios.push_back(PW.IdealWavefronts ? double(PW.Wavefronts) / PW.IdealWavefronts
                                                    : 1.0);
        }
      }
      All.push_back(std::move(X));
    }
  }
  if (All.empty())
    return F;
  F.Evaluated = true;
  F.Executions = unsigned(All.size());
  std::vector<size_t> Order(All.size());
  for (size_t K = 0; K < Order.size(); ++K)
    Order[K] = K;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return All[A].ratio() < All[B].ratio(); });
  F.Typical = All[Order[Order.size() / 2]];
  F.Worst = All[Order.back()];
  // The median of executions (indices in ratio order) among those with two lanes or more,
  // or of all of them when none has: a warp left with one lane says how many lanes run,
  // not how they lie.
  auto MedianWithPairs = [&](const std::vector<size_t> &Execs) {
    std::vector<size_t> Pairs;
    for (size_t K : Execs)
      if (All[K].hasLanePairs())
        Pairs.push_back(K);
    const std::vector<size_t> &From = Pairs.empty() ? Execs : Pairs;
    return From[From.size() / 2];
  };
  if (size_t M = MedianWithPairs(Order); All[M].hasLanePairs())
    F.TypicalWithPairs = All[M];
  // The typical execution of each combination of sampled values, in combination order.
  if (!F.SampledNames.empty()) {
    // Grouped by the sampled values themselves (block indices and loop counters vary
    // within a group: they take real values).
    std::map<std::string, std::vector<size_t>> ByCombo; // in ratio order (Order is sorted)
    for (size_t K : Order)
      ByCombo[All[K].Values].push_back(K);
    if (ByCombo.size() > 1)
      for (const auto &[Combo, Execs] : ByCombo) {
        const WarpExecution &X = All[MedianWithPairs(Execs)];
        F.ByValue.push_back({X.Values, X});
      }
  }
  // Misalignment the figure quoted shows: a gapless run may sit on a boundary in the
  // typical execution and cross one in another (the note's figure would read "1 sectors,
  // ideal 1").
  if (AllMisaligned && Misalign &&
      F.Typical.Sectors.Sectors == F.Typical.Sectors.IdealSectors + 1)
    F.Misalignment = Misalign;
  if (!Shared && F.Typical.ratio() > 1.0)
    F.FootprintStride = footprintStride(Site, Vars, Shape, Envs, Needed, Known, Seg,
                                        F.FootprintNames);
  if (!PaddedRatios.empty() && PaddedRatios.size() == All.size()) {
    std::vector<double> R = PaddedRatios;
    std::sort(R.begin(), R.end());
    F.PaddedRatio = R.back();
  }
  return F;
}

} // namespace warplint
