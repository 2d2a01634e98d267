//===- SyncAnalysis.cpp - which threads reach a barrier or a warp-synchronous call -===//
#include "divergence/SyncAnalysis.h"
#include "divergence/Idioms.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

#include <functional>

namespace warplint {
using namespace clang;

using namespace ::warplint::divergence;

namespace {

/// The group a cooperative_groups call acts on: the class of its object (a member call)
/// or of its first argument (cg::sync(g), cg::reduce(tile, ...)).
const CXXRecordDecl *groupOf(const CallExpr *C) {
  QualType T;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    T = MC->getImplicitObjectArgument()->getType();
  else if (C->getNumArgs() > 0)
    T = C->getArg(0)->getType();
  if (T.isNull())
    return nullptr;
  if (T->isPointerType())
    T = T->getPointeeType();
  return T.getNonReferenceType()->getAsCXXRecordDecl();
}

/// The comparison of a bounds guard: (index side, limit side) when one side reads the
/// thread index and the other is a uniform value that is not a compile-time constant.
std::optional<std::pair<const Expr *, const Expr *>> boundsSides(const Guard &G) {
  const Sym *S = skipCasts(G.Val.S.get());
  if (!S || !G.Cond)
    return std::nullopt;
  auto *B = dyn_cast<BinaryOperator>(G.Cond->IgnoreParenImpCasts());
  if (!B || !B->isRelationalOp() || !S->A || !S->B)
    return std::nullopt;
  bool IdxLeft = mentionsThreadIdx(*S->A) && !mentionsThreadIdx(*S->B) &&
                 skipCasts(S->B.get())->Op != SymOp::Const;
  bool IdxRight = mentionsThreadIdx(*S->B) && !mentionsThreadIdx(*S->A) &&
                  skipCasts(S->A.get())->Op != SymOp::Const;
  // Taken by the threads at or past the limit: `i >= n` (`n <= i`), or the else arm of
  // `i < n`.
  bool Greater = S->Op == SymOp::Ge || S->Op == SymOp::Gt;
  bool Less = S->Op == SymOp::Lt || S->Op == SymOp::Le;
  bool Past = (Greater && IdxLeft) || (Less && IdxRight);
  bool Before = (Less && IdxLeft) || (Greater && IdxRight);
  if (G.Negated ? Before : Past)
    return IdxLeft ? std::make_pair(B->getLHS(), B->getRHS())
                   : std::make_pair(B->getRHS(), B->getLHS());
  return std::nullopt;
}

SymRef truthOf(const Guard &G) {
  if (!G.Val.S)
    return nullptr;
  SymRef T = makeBinary(SymOp::Ne, G.Val.S, makeConst(0, G.Val.S->Bits, G.Val.S->Unsigned), 8,
                        true);
  return G.Negated ? makeUnary(SymOp::LNot, T, 8, true) : T;
}

SymRef conj(const SymRef &A, const SymRef &B) {
  return A ? makeBinary(SymOp::LAnd, A, B, 8, true) : B;
}

/// The conjuncts of a reaching condition: its `&&` operands (a guard's truth `c != 0` is
/// c's), down to the parts that are no conjunction.
void reachConjuncts(const SymRef &Reach, std::vector<SymRef> &Out) {
  const Sym *T = Reach.get();
  while (T && T->Op == SymOp::Cast && T->A)
    T = T->A.get();
  if (T && T->Op == SymOp::Ne && T->A && T->B && T->B->Op == SymOp::Const && T->B->Value == 0) {
    const Sym *In = T->A.get();
    while (In && In->Op == SymOp::Cast && In->A)
      In = In->A.get();
    if (In && (In->Op == SymOp::LAnd || (In->Op == SymOp::And && isTruthAndOr(In)))) {
      reachConjuncts(T->A, Out);
      return;
    }
  }
  if (T && (T->Op == SymOp::LAnd || (T->Op == SymOp::And && isTruthAndOr(T)))) {
    reachConjuncts(T->A, Out);
    reachConjuncts(T->B, Out);
    return;
  }
  if (Reach)
    Out.push_back(Reach);
}

/// A part of a reaching condition that reads run-time values (Runtime) and no thread index
/// or counter of a thread-dependent loop (Keep): the same in every thread, so it splits no
/// block; where it is false no thread reaches the call at all.
bool uniformOnlyPart(const SymRef &Part, const std::vector<unsigned> &Runtime,
                     const std::vector<unsigned> &Keep) {
  if (!Part || mentionsThreadIdx(*Part))
    return false;
  std::vector<unsigned> Used;
  collectVars(*Part, Used);
  bool Reads = false;
  for (unsigned V : Used) {
    if (llvm::is_contained(Keep, V))
      return false;
    Reads |= llvm::is_contained(Runtime, V);
  }
  return Reads;
}

/// Reach less its parts on run-time values alone (they split nothing), unless a part that
/// stays reads the same values: then together they decide who reaches the call.
SymRef withoutUniformParts(const SymRef &Reach, const std::vector<unsigned> &Runtime,
                           const std::vector<unsigned> &Keep) {
  std::vector<SymRef> Parts;
  reachConjuncts(Reach, Parts);
  std::vector<bool> Stays(Parts.size());
  std::vector<unsigned> Shared;
  for (size_t I = 0; I < Parts.size(); ++I) {
    Stays[I] = !uniformOnlyPart(Parts[I], Runtime, Keep);
    if (Stays[I])
      collectVars(*Parts[I], Shared);
  }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < Parts.size(); ++I) {
      if (Stays[I])
        continue;
      std::vector<unsigned> Used;
      collectVars(*Parts[I], Used);
      if (llvm::any_of(Used, [&](unsigned V) { return llvm::is_contained(Shared, V); })) {
        Stays[I] = Grew = true;
        Shared.insert(Shared.end(), Used.begin(), Used.end());
      }
    }
  }
  SymRef Out;
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Stays[I])
      Out = Out ? conj(Out, Parts[I]) : Parts[I];
  return Out;
}

/// The constants that variable V is compared with in E (`n == 0`, `k < 4`): where such a
/// comparison holds or stops holding.
void comparedConstants(const Sym &E, unsigned V, std::vector<int64_t> &Out) {
  if (isComparison(E)) {
    const Sym *L = skipCasts(E.A.get()), *Rt = skipCasts(E.B.get());
    if (Rt->Op == SymOp::Var && unsigned(Rt->Value) == V)
      std::swap(L, Rt);
    if (L->Op == SymOp::Var && unsigned(L->Value) == V && Rt->Op == SymOp::Const)
      if (!llvm::is_contained(Out, Rt->Value))
        Out.push_back(Rt->Value);
  }
  for (const SymRef *P : {&E.A, &E.B, &E.C})
    if (*P)
      comparedConstants(**P, V, Out);
}

/// The values of run-time value V that keep a shift by an amount of the form V, V - c or
/// V + c defined and small: amounts 0, 4, 5, 6 and 10 (2^4 < 32 <= 2^5, and a shift that
/// builds a bound of 1024). True when V is such an amount somewhere in E: a value that makes
/// the shift undefined is none a program can have, so the other samples are dropped.
bool shiftAmountSamples(const Sym &E, unsigned V, std::vector<int64_t> &Out) {
  bool Found = false;
  if ((E.Op == SymOp::Shl || E.Op == SymOp::Shr) && E.B) {
    const Sym *B = skipCasts(E.B.get());
    int64_t Offset = 0;
    const Sym *Var = B;
    if ((B->Op == SymOp::Sub || B->Op == SymOp::Add) && B->A && B->B &&
        skipCasts(B->B.get())->Op == SymOp::Const) {
      Var = skipCasts(B->A.get());
      Offset = B->Op == SymOp::Sub ? skipCasts(B->B.get())->Value
                                   : -skipCasts(B->B.get())->Value;
    }
    if (Var->Op == SymOp::Var && unsigned(Var->Value) == V) {
      Found = true;
      for (int64_t Amount : {0, 4, 5, 6, 10})
        if (Amount + Offset >= 0 && !llvm::is_contained(Out, Amount + Offset))
          Out.push_back(Amount + Offset);
    }
  }
  for (const SymRef *P : {&E.A, &E.B, &E.C})
    if (*P)
      Found |= shiftAmountSamples(**P, V, Out);
  return Found;
}

/// Whether V groups the threads somewhere in E: the amount of a shift, or the divisor of a
/// division or remainder, whose other side reads the thread's index (`threadIdx.x >>
/// bits`, `threadIdx.x / width`). Such a value is the size of the groups the code lays on
/// the block, not a bound on it.
bool groupsThreads(const Sym &E, unsigned V) {
  if ((E.Op == SymOp::Shl || E.Op == SymOp::Shr || E.Op == SymOp::Div || E.Op == SymOp::Rem) &&
      E.A && E.B) {
    const Sym *B = skipCasts(E.B.get());
    if (B->Op == SymOp::Var && unsigned(B->Value) == V && mentionsThreadIdx(*E.A))
      return true;
  }
  for (const SymRef *P : {&E.A, &E.B, &E.C})
    if (*P && groupsThreads(**P, V))
      return true;
  return false;
}

} // namespace

SyncClass classifySync(const SyncCall &S, ASTContext &Ctx) {
  SyncClass Out;
  const FunctionDecl *FD = S.Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return Out;
  StringRef N = FD->getName();
  Out.Name = N.str();
  if (N.starts_with("__syncthreads") || N == "__barrier_sync") {
    Out.Kind = SyncKind::BlockBarrier;
    return Out;
  }
  if (N.starts_with("__")) {
    Out.Kind = SyncKind::WarpMask;
    if (S.Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(S.Call->getArg(0)))
      Out.Mask = S.Call->getArg(0);
    if (!Out.Mask) {
      Out.MaskValue = 0xffffffffu; // __syncwarp()'s default
      return Out;
    }
    Expr::EvalResult R;
    if (!Out.Mask->isValueDependent() && Out.Mask->EvaluateAsInt(R, Ctx))
      Out.MaskValue = uint32_t(R.Val.getInt().getZExtValue());
    else if (!S.Args.empty() && S.Args[0].S && skipCasts(S.Args[0].S.get())->Op == SymOp::Const)
      Out.MaskValue = uint32_t(skipCasts(S.Args[0].S.get())->Value);
    Out.Shuffle = N == "__shfl_sync"        ? SyncClass::ShflIdx
                  : N == "__shfl_up_sync"   ? SyncClass::ShflUp
                  : N == "__shfl_down_sync" ? SyncClass::ShflDown
                  : N == "__shfl_xor_sync"  ? SyncClass::ShflXor
                                            : SyncClass::NoShuffle;
    if (Out.Shuffle != SyncClass::NoShuffle && S.Call->getNumArgs() == 4) {
      // The width: the default argument (warpSize) or a constant; a power of two up to 32.
      const Expr *W = S.Call->getArg(3);
      std::optional<int64_t> Width;
      if (!W->isValueDependent() && W->EvaluateAsInt(R, Ctx))
        Width = R.Val.getInt().getSExtValue();
      else if (S.Args.size() == 4 && S.Args[3].S &&
               skipCasts(S.Args[3].S.get())->Op == SymOp::Const)
        Width = skipCasts(S.Args[3].S.get())->Value;
      if (Width && *Width >= 1 && *Width <= 32 && (*Width & (*Width - 1)) == 0)
        Out.ShuffleWidth = unsigned(*Width);
    }
    return Out;
  }
  // cooperative_groups: the kind is the group's.
  const CXXRecordDecl *G = groupOf(S.Call);
  StringRef Type = G && G->getIdentifier() ? G->getName() : "";
  bool Sync = N == "sync" || N == "synchronize";
  std::string Call = isa<CXXMemberCallExpr>(S.Call) ? N.str() + "()" : "cg::" + N.str() + "()";
  if (Type == "thread_block" && Sync) {
    Out.Kind = SyncKind::BlockBarrier;
    Out.Name = isa<CXXMemberCallExpr>(S.Call) ? "thread_block::sync()" : Call;
  } else if (Type == "grid_group" && Sync) {
    Out.Kind = SyncKind::GridBarrier;
    Out.Name = isa<CXXMemberCallExpr>(S.Call) ? "grid_group::sync()" : Call;
  } else if (Type == "thread_block_tile") {
    Out.Kind = SyncKind::Tile;
    if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(G))
      if (Spec->getTemplateArgs().size() >= 1 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
        Out.TileSize = unsigned(Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue());
    Out.Name = "thread_block_tile<" + std::to_string(Out.TileSize) + ">::" + N.str() + "()";
    if (Out.TileSize == 0 || Out.TileSize > 32)
      Out.Kind = SyncKind::Other;
  }
  return Out;
}

SyncCall exitsThatCount(const SyncCall &S, const SyncClass &Class) {
  if (Class.Kind != SyncKind::WarpMask || StringRef(Class.Name).starts_with("__shfl"))
    return S;
  SyncCall Out = S;
  llvm::erase_if(Out.Exits, [](const ExitSite &X) {
    return isa<ReturnStmt>(X.Exit) && X.Depth == 1; // the thread has exited
  });
  return Out;
}

std::vector<SyncCause> syncCauses(const SyncCall &S, SyncKind Kind,
                                  const std::vector<SymVarInfo> &Vars, ASTContext &) {
  bool Grid = Kind == SyncKind::GridBarrier;
  auto Relevant = [&](const Guard &G) {
    return G.Val.V != Variance::Uniform || (Grid && mentionsBlockIdx(G.Val.S.get(), Vars));
  };
  auto Fill = [&](SyncCause &C, const Guard &G) {
    C.Cond = G.Cond;
    C.Negated = G.Negated;
    C.Data = G.Val.V == Variance::Data;
    C.BlockOnly = G.Val.V == Variance::Uniform;
    C.WarpUniform = G.Val.V == Variance::WarpUniform;
  };
  std::vector<SyncCause> Out;
  for (const Guard &G : S.Guards) {
    if (!Relevant(G))
      continue;
    SyncCause C;
    C.Kind = G.Kind == Guard::Loop ? SyncCause::TripCount : SyncCause::Condition;
    C.Where = G.Branch;
    Fill(C, G);
    Out.push_back(C);
  }
  for (const ExitSite &X : S.Exits) {
    const Guard *Inner = nullptr;
    for (const Guard &G : X.Guards)
      if (Relevant(G))
        Inner = &G;
    if (!Inner)
      continue;
    SyncCause C;
    C.Kind = SyncCause::Exit;
    C.Where = X.Exit;
    C.LaterTrips = X.LaterTrips;
    Fill(C, *Inner);
    if (isa<ReturnStmt>(X.Exit) && Inner->Kind == Guard::If && !C.Data)
      if (auto Sides = boundsSides(*Inner)) {
        C.BoundsExit = true;
        C.BoundIndex = Sides->first;
        C.BoundLimit = Sides->second;
        const Sym *S = skipCasts(Inner->Val.S.get());
        const Sym *Index = mentionsThreadIdx(*S->A) ? S->A.get() : S->B.get();
        std::vector<unsigned> Used;
        collectVars(*Index, Used);
        C.BoundBlockLocal = Used.empty(); // threadIdx, blockDim and constants alone
      }
    Out.push_back(C);
  }
  return Out;
}

/// The trips a thread makes of a loop (its counter Var from Init while Cond, by Step) in
/// environment E; none when a part cannot be evaluated or it runs past 4096.
static std::optional<int64_t> tripCount(const SymVarInfo &L, unsigned Var, Env E) {
  std::optional<int64_t> V = evaluate(*L.Init, E);
  int64_t N = 0;
  while (V) {
    E.Vars[Var] = *V;
    std::optional<int64_t> C = evaluate(*L.Cond, E);
    if (!C || N > 4096)
      return std::nullopt;
    if (!*C)
      return N;
    ++N;
    V = evaluate(*L.Step, E);
  }
  return std::nullopt;
}

/// Per thread of a block of Shape (linear index), whether it reaches the call in
/// environment Base: Reach holds (no Reach: every thread) and, inside thread-dependent
/// loops (TripLoops, their counters TripVars), the thread makes the most trips of the
/// innermost (a thread with fewer skips the call in the last ones). None when a part
/// cannot be evaluated.
static std::optional<std::vector<bool>>
threadsReaching(const SymRef &Reach, const std::vector<const SymVarInfo *> &TripLoops,
                const std::vector<unsigned> &TripVars, const BlockShape &Shape,
                const Env &Base) {
  const unsigned Threads = Shape.threads();
  std::vector<bool> Reaches(Threads);
  Env E = Base;
  std::vector<int64_t> Trips(Threads, 0);
  int64_t MaxTrips = -1;
  for (unsigned T = 0; T < Threads; ++T) {
    E.Tid[0] = T % Shape.X;
    E.Tid[1] = (T / Shape.X) % Shape.Y;
    E.Tid[2] = T / (Shape.X * Shape.Y);
    std::optional<int64_t> In = Reach ? evaluate(*Reach, E) : std::optional<int64_t>(1);
    if (!In)
      return std::nullopt;
    Reaches[T] = *In != 0;
    for (size_t L = 0; L < TripLoops.size() && Reaches[T]; ++L) {
      std::optional<int64_t> N = tripCount(*TripLoops[L], TripVars[L], E);
      if (!N)
        return std::nullopt;
      Trips[T] = *N;
    }
    if (Reaches[T])
      MaxTrips = std::max(MaxTrips, Trips[T]);
  }
  if (!TripLoops.empty())
    for (unsigned T = 0; T < Threads; ++T)
      Reaches[T] = Reaches[T] && Trips[T] == MaxTrips && MaxTrips > 0;
  return Reaches;
}

uint32_t lanesThatExist(unsigned W, unsigned Threads) {
  unsigned Live = Threads - W * 32 >= 32 ? 32 : Threads - W * 32;
  return Live == 32 ? 0xffffffffu : (1u << Live) - 1;
}

/// Per warp, the lanes a warp-synchronous call names (its mask, or the tiles of its
/// lanes that arrive) that do not reach it. The lanes past the end of a partial warp are
/// no threads: like exited ones, the mask rule (every non-exited named thread executes
/// the call) does not reach them, so a mask that names them counts only for a shuffle,
/// whose source lanes are not known here (shuffleAbsent weighs those it can).
static std::vector<uint32_t> absentNamed(const std::vector<bool> &Reaches,
                                         const SyncClass &Class) {
  std::vector<uint32_t> Absent;
  const unsigned Threads = unsigned(Reaches.size());
  for (unsigned W = 0; W * 32 < Threads; ++W) {
    uint32_t In = 0;
    for (unsigned L = 0; L < 32 && W * 32 + L < Threads; ++L)
      if (Reaches[W * 32 + L])
        In |= 1u << L;
    uint32_t Named = 0;
    if (In && Class.Kind == SyncKind::WarpMask && Class.MaskValue)
      Named = *Class.MaskValue &
              (Class.Shuffle == SyncClass::NoShuffle ? lanesThatExist(W, Threads) : ~0u);
    if (In && Class.Kind == SyncKind::Tile)
      for (unsigned B = 0; B < 32; B += Class.TileSize) {
        uint32_t Seg =
            Class.TileSize == 32 ? 0xffffffffu : ((1u << Class.TileSize) - 1) << B;
        if (In & Seg)
          Named |= Seg;
      }
    Absent.push_back(Named & ~In);
  }
  return Absent;
}

/// A shuffle whose source lanes each lane can evaluate, the parts that say which lanes it
/// reads: Alive, the condition under which a thread has taken none of the returns from the
/// kernel body before the call (true when there are none); Operand, its third argument
/// (source lane, delta or xor mask).
struct ExitedLanes {
  SymRef Alive;
  SymRef Operand;
  /// Where a lane's result is kept (SyncCall::Kept), or null: everywhere.
  SymRef Kept;
};

/// The lane that lane L reads in a shuffle of Kind with width W and operand B, as PTX's
/// shfl.sync computes it (the CUDA intrinsics pass the segment mask 32 - W, and the clamp
/// 31 or, for up, 0): the index within L's segment, its start for idx; a lane past the
/// segment's end (down, xor) or before its start (up) reads its own value. An xor whose
/// mask reaches past the segment reads from an earlier segment, as the Programming Guide
/// says.
static unsigned sourceLane(SyncClass::ShuffleKind Kind, unsigned W, unsigned L, int64_t B) {
  const int64_t SegMask = (32 - W) & 31;
  const int64_t Min = L & SegMask, Max = Min | (31 & ~SegMask), Bv = B & 31;
  int64_t J = L;
  switch (Kind) {
  case SyncClass::ShflIdx:
    J = Min | (Bv & ~SegMask);
    break;
  case SyncClass::ShflUp:
    J = int64_t(L) - Bv;
    break;
  case SyncClass::ShflDown:
    J = L + Bv;
    break;
  case SyncClass::ShflXor:
    J = L ^ Bv;
    break;
  case SyncClass::NoShuffle:
    break;
  }
  if (Kind == SyncClass::ShflUp ? J < Min : J > Max)
    J = L;
  return unsigned(J);
}

/// absentNamed for a shuffle whose source lanes are known (X): per warp, the named lanes
/// absent without having exited (the mask rule names the non-exited lanes), and the lanes a
/// lane that reaches the call reads from that do not reach it (their value is undefined);
/// with, in ExitedRead, those of the second kind that are no thread any more or at all:
/// returned from the kernel, or past the end of a partial warp. None when the source lane
/// or who has exited cannot be evaluated in Base.
static std::optional<std::vector<uint32_t>>
shuffleAbsent(const std::vector<bool> &Reaches, const SyncClass &Class, const ExitedLanes &X,
              const BlockShape &Shape, const Env &Base, std::vector<uint32_t> &ExitedRead) {
  std::optional<std::vector<bool>> Alive = threadsReaching(X.Alive, {}, {}, Shape, Base);
  if (!Alive || !Class.MaskValue)
    return std::nullopt;
  const unsigned Threads = unsigned(Reaches.size());
  Env E = Base;
  std::vector<uint32_t> Absent;
  ExitedRead.clear();
  for (unsigned W = 0; W * 32 < Threads; ++W) {
    uint32_t In = 0, Exited = ~lanesThatExist(W, Threads);
    for (unsigned L = 0; L < 32 && W * 32 + L < Threads; ++L) {
      In |= uint32_t(Reaches[W * 32 + L]) << L;
      Exited |= uint32_t(!(*Alive)[W * 32 + L]) << L;
    }
    uint32_t Bad = In ? *Class.MaskValue & ~In & ~Exited : 0, Read = 0;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(In >> L & 1))
        continue;
      unsigned T = W * 32 + L;
      E.Tid[0] = T % Shape.X;
      E.Tid[1] = (T / Shape.X) % Shape.Y;
      E.Tid[2] = T / (Shape.X * Shape.Y);
      std::optional<int64_t> B = evaluate(*X.Operand, E);
      if (!B)
        return std::nullopt;
      unsigned J = sourceLane(Class.Shuffle, Class.ShuffleWidth, L, *B);
      // A lane whose result the kernel discards (stored only under conditions false for
      // it: particlesystem's `if (lane < 3) out[lane] = c;` after lanes 3-5 read 6-8)
      // makes nothing of an undefined value.
      if (J != L && !(In >> J & 1) && X.Kept)
        if (std::optional<int64_t> K = evaluate(*X.Kept, E); K && *K == 0)
          continue;
      if (J != L && !(In >> J & 1)) {
        Bad |= 1u << J;
        Read |= (Exited >> J & 1) << J;
      }
    }
    Absent.push_back(Bad);
    ExitedRead.push_back(Read);
  }
  return Absent;
}

/// ReachFigures::LeaderDefined for a split found in Base: a __shfl_down_sync whose absent
/// lanes are all lanes read that have exited or do not exist (ExitedRead), and whose
/// operand is the counter of one uniform loop (a tree: `for (o = 16; o > 0; o /= 2)`).
/// The trips' offsets are enumerated; each segment's lane 0 that reaches the call depends,
/// through them, on the lanes of its cone (lane l reads l + o at the trip of offset o,
/// within the segment); its result is defined when every lane of the cone reaches it.
static bool leaderDefined(const std::vector<bool> &Reaches, const SyncClass &Class,
                          const ExitedLanes &X, const std::vector<SymVarInfo> &Vars,
                          const std::vector<uint32_t> &Absent,
                          const std::vector<uint32_t> &ExitedRead, Env Base) {
  if (Class.Shuffle != SyncClass::ShflDown || !Class.ShuffleWidth ||
      Absent.size() != ExitedRead.size())
    return false;
  for (size_t W = 0; W < Absent.size(); ++W)
    if (Absent[W] & ~ExitedRead[W])
      return false; // a named lane that is alive and absent: the mask rule itself
  std::vector<unsigned> Used;
  collectVars(*X.Operand, Used);
  if (Used.size() != 1 || Used[0] >= Vars.size())
    return false;
  const unsigned LV = Used[0];
  const SymVarInfo &L = Vars[LV];
  if (L.Kind != SymVarInfo::Loop || L.LoopVariance != Variance::Uniform || !L.Init ||
      !L.Cond || !L.Step)
    return false;
  std::optional<std::vector<int64_t>> Values = enumerateLoop(*L.Init, *L.Cond, *L.Step, LV, Base);
  if (!Values || Values->empty())
    return false;
  std::vector<int64_t> Offsets;
  for (int64_t V : *Values) {
    Base.Vars[LV] = V;
    std::optional<int64_t> O = evaluate(*X.Operand, Base);
    if (!O || *O < 0)
      return false;
    Offsets.push_back(*O & 31);
  }
  const unsigned Width = Class.ShuffleWidth, Threads = unsigned(Reaches.size());
  for (unsigned W = 0; W * 32 < Threads; ++W) {
    uint32_t In = 0;
    for (unsigned Lane = 0; Lane < 32 && W * 32 + Lane < Threads; ++Lane)
      In |= uint32_t(Reaches[W * 32 + Lane]) << Lane;
    for (unsigned Start = 0; Start < 32; Start += Width) {
      if (!(In >> Start & 1))
        continue;
      // The cone of the segment's lane 0, from its last read back to its first.
      uint32_t Cone = 1u << Start;
      for (auto It = Offsets.rbegin(); It != Offsets.rend(); ++It) {
        uint32_t Reads = 0;
        for (unsigned Lane = Start; Lane < Start + Width; ++Lane)
          if ((Cone >> Lane & 1) && Lane + *It < Start + Width)
            Reads |= 1u << (Lane + *It);
        Cone |= Reads;
      }
      if (Cone & ~In)
        return false;
    }
  }
  return true;
}

/// The condition under which a thread reaches S: the enclosing conditions that differ
/// between threads (for a grid barrier, between blocks too), and no exit taken; the loops
/// with a thread-dependent trip count apart (TripLoops, their counters TripVars). False
/// when a part has no form to evaluate. Warp: a call whose scope is the warp (a mask, a
/// tile), which a warp-uniform condition or exit cannot split: it keeps or drops whole
/// warps, so it is left out.
static bool reachingCondition(const SyncCall &S, const std::vector<SymVarInfo> &Vars,
                              bool Grid, bool Warp, SymRef &Reach,
                              std::vector<const SymVarInfo *> &TripLoops,
                              std::vector<unsigned> &TripVars, std::vector<SymRef> &Switched) {
  auto Relevant = [&](const Guard &G) {
    return G.Val.V != Variance::Uniform || (Grid && mentionsBlockIdx(G.Val.S.get(), Vars));
  };
  // For a call of a warp's scope, a warp-uniform condition keeps or drops whole warps: one
  // with no form to evaluate (none, or the iteration of a thread-dependent loop in it) is
  // taken to hold, which can only add the warps it drops to those weighed.
  auto Unevaluable = [&](const SymRef &T) {
    if (!T)
      return true;
    std::vector<unsigned> Used;
    collectVars(*T, Used);
    return llvm::any_of(Used, [&](unsigned V) {
      return V >= Vars.size() || Vars[V].Kind == SymVarInfo::Iteration;
    });
  };
  auto WarpWhole = [&](const Guard &G) { return Warp && G.Val.V == Variance::WarpUniform; };
  // The uniform conditions on the way, with a form: they split no warp, but one that reads
  // a value another condition on the way reads decides with it who reaches the call (PhysX's
  // `if (t == 0 && !fixBase && rootMotion) ... else if (!fixBase && !rootMotion) sync`:
  // where the first splits lane 0 from the rest, the second keeps every lane out).
  std::vector<SymRef> UniformParts;
  for (const Guard &G : S.Guards) {
    if (!Relevant(G)) {
      if (G.Kind != Guard::Loop)
        if (SymRef T = truthOf(G)) {
          std::vector<unsigned> Used;
          collectVars(*T, Used);
          bool Sampled = llvm::all_of(Used, [&](unsigned V) {
            if (V >= Vars.size())
              return false;
            const SymVarInfo &I = Vars[V];
            return I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::Opaque ||
                   I.Kind == SymVarInfo::BlockIdx || I.Kind == SymVarInfo::GridDim ||
                   (I.Kind == SymVarInfo::Loop && I.LoopVariance == Variance::Uniform);
          });
          if (Sampled && !Used.empty())
            UniformParts.push_back(T);
        }
      continue;
    }
    if (G.Kind == Guard::Loop) {
      if (G.LoopVar < 0 || size_t(G.LoopVar) >= Vars.size()) {
        if (WarpWhole(G))
          continue;
        return false;
      }
      const SymVarInfo &L = Vars[G.LoopVar];
      if (!L.Init || !L.Cond || !L.Step) {
        if (WarpWhole(G))
          continue;
        return false;
      }
      TripLoops.push_back(&L);
      TripVars.push_back(unsigned(G.LoopVar));
      continue;
    }
    SymRef T = truthOf(G);
    if (WarpWhole(G) && Unevaluable(T))
      continue;
    if (!T)
      return false;
    Reach = conj(Reach, T);
  }
  if (Reach && !UniformParts.empty()) {
    std::vector<unsigned> Shared;
    collectVars(*Reach, Shared);
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (SymRef &U : UniformParts) {
        if (!U)
          continue;
        std::vector<unsigned> Used;
        collectVars(*U, Used);
        if (llvm::none_of(Used, [&](unsigned V) { return llvm::is_contained(Shared, V); }))
          continue;
        Reach = conj(Reach, U);
        Shared.insert(Shared.end(), Used.begin(), Used.end());
        U = nullptr;
        Grew = true;
      }
    }
  }
  // A loop whose trips are counted thread by thread (TripLoops): an exit inside it is
  // taken in a trip the thread runs, and the trip counts say who runs which trips.
  auto Counted = [&](const Guard &G) {
    return G.Kind == Guard::Loop && G.LoopVar >= 0 &&
           llvm::is_contained(TripVars, unsigned(G.LoopVar));
  };
  for (const ExitSite &X : S.Exits) {
    if (llvm::none_of(X.Guards, [&](const Guard &G) { return Relevant(G) && !Counted(G); }))
      continue; // uniform within a trip: it ends the loop at the same trip for every thread
    // An exit whose conditions that differ are all warp-uniform takes whole warps; one of
    // them without a form to evaluate: taken by none (the warps it takes are weighed too).
    bool WholeWarps = true, Formed = true;
    for (const Guard &G : X.Guards)
      if (Relevant(G) && !Counted(G)) {
        WholeWarps &= WarpWhole(G);
        Formed &= G.Kind != Guard::Loop && !Unevaluable(truthOf(G));
      }
    if (WholeWarps && !Formed)
      continue;
    SymRef Taken;
    bool Formless = false;
    for (const Guard &G : X.Guards) {
      if (G.Kind == Guard::Loop && (!Relevant(G) || Counted(G)))
        continue; // the trip of a uniform or counted loop the exit is in: running
      SymRef T = truthOf(G);
      if (Relevant(G) && WarpWhole(G) && Unevaluable(T))
        continue; // the warp's part of a lane-split exit, taken to hold: more lanes leave
      // An `if` on a block-uniform value with no form (`p != nullptr`): true or false for
      // the whole block alike, so it only switches the rest of the exit's path on or off.
      if (!T && !Grid && G.Kind == Guard::If && G.Val.V == Variance::Uniform) {
        Formless = true;
        continue;
      }
      if (!T || G.Kind == Guard::Switch)
        return false;
      Taken = conj(Taken, T);
    }
    if (!Taken)
      return false;
    if (Formless)
      Switched.push_back(Taken);
    else
      Reach = conj(Reach, makeUnary(SymOp::LNot, Taken, 8, true));
  }
  return true;
}

/// The dimension a blockIdx or gridDim variable reads: "blockIdx.y" -> 1.
static unsigned dimOfName(const std::string &Name) {
  return Name.empty() ? 0 : Name.back() == 'z' ? 2 : Name.back() == 'y' ? 1 : 0;
}

/// evaluateReach for one reaching condition; Switched: the condition holds only for some
/// values of a run-time uniform guard (the figures are then the run-time values' too).
static ReachFigures evaluateReachOf(const SyncClass &Class, const std::vector<SymVarInfo> &Vars,
                                    const BlockShape &Shape, const HostFacts *Host,
                                    const std::array<uint64_t, 3> *Grid,
                                    SymRef Reach,
                                    const std::vector<const SymVarInfo *> &TripLoops,
                                    const std::vector<unsigned> &TripVars, bool Switched,
                                    std::optional<ExitedLanes> Exited) {
  ReachFigures R;
  R.Shape = Shape;
  if (!Reach && TripLoops.empty())
    Reach = makeConst(1, 8, true);

  // The unknowns: only counters of uniform loops with compile-time bounds, enumerated.
  std::vector<unsigned> Plain, Loops;
  auto Unknowns = [&] {
    std::vector<unsigned> Needed, Wanted;
    if (Reach)
      collectVars(*Reach, Needed);
    if (Exited) {
      collectVars(*Exited->Alive, Needed);
      collectVars(*Exited->Operand, Needed);
      if (Exited->Kept)
        collectVars(*Exited->Kept, Needed);
    }
    for (const SymVarInfo *L : TripLoops)
      for (const SymRef *P : {&L->Init, &L->Cond, &L->Step})
        collectVars(**P, Needed);
    for (unsigned V : Needed)
      if (!llvm::is_contained(TripVars, V))
        Wanted.push_back(V);
    Plain.clear();
    Loops.clear();
    orderUnknowns(Wanted, Vars, Plain, Loops);
  };
  Unknowns();
  // Run-time values (a parameter, a loaded value, the block's index): not evaluated. They
  // are sampled all the same (parameters 1, 32, 33, 1000; blocks 0 and 1 of a grid of 2)
  // to tell a call that no sampled value keeps from any thread (or named lane) from one
  // that some value does; a grid barrier's blocks are not sampled.
  if (!Plain.empty() && Reach && Class.Kind != SyncKind::GridBarrier) {
    // Fewer values to sample: the parts on run-time values alone split nothing.
    Reach = withoutUniformParts(Reach, Plain, TripVars);
    if (!Reach && TripLoops.empty())
      Reach = makeConst(1, 8, true);
    if (Exited) {
      Exited->Alive = withoutUniformParts(Exited->Alive, Plain, TripVars);
      if (!Exited->Alive)
        Exited->Alive = makeConst(1, 8, true);
    }
    Unknowns();
  }
  std::vector<std::pair<unsigned, std::vector<int64_t>>> Sampled;
  for (unsigned V : Plain) {
    const SymVarInfo &I = Vars[V];
    if (Class.Kind == SyncKind::GridBarrier)
      return R;
    // A run-time value is sampled at 1, 32, 33, 1000 and at the constants the condition
    // compares it with (`n == 0` is sampled at n = 0 too).
    std::vector<int64_t> Values = {1, 32, 33, 1000};
    if (I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::Opaque) {
      // A shift amount: only the values that keep the shift defined.
      std::vector<int64_t> Amounts;
      bool Shifts = Reach && shiftAmountSamples(*Reach, V, Amounts);
      for (const SymVarInfo *L : TripLoops)
        for (const SymRef *P : {&L->Init, &L->Cond, &L->Step})
          Shifts |= shiftAmountSamples(**P, V, Amounts);
      if (Shifts)
        Values = std::move(Amounts);
      if (Reach)
        comparedConstants(*Reach, V, Values);
      for (const SymVarInfo *L : TripLoops)
        for (const SymRef *P : {&L->Init, &L->Cond, &L->Step})
          comparedConstants(**P, V, Values);
    }
    if (I.Kind == SymVarInfo::Param && Host && Host->count(I.ParamIndex))
      Sampled.push_back({V, restrictSamples(Values, Host->at(I.ParamIndex))});
    else if (I.Kind == SymVarInfo::Param || I.Kind == SymVarInfo::Opaque)
      Sampled.push_back({V, Values});
    else if (I.Kind == SymVarInfo::BlockIdx && Grid) {
      // A launch's grid: its first block and its last, where a tail is.
      int64_t Last = int64_t((*Grid)[dimOfName(I.Name)]) - 1;
      Sampled.push_back({V, Last > 0 ? std::vector<int64_t>{0, Last} : std::vector<int64_t>{0}});
    } else if (I.Kind == SymVarInfo::GridDim && Grid)
      Sampled.push_back({V, {int64_t((*Grid)[dimOfName(I.Name)])}});
    else if (I.Kind == SymVarInfo::BlockIdx)
      Sampled.push_back({V, {0, 1}});
    else if (I.Kind == SymVarInfo::GridDim)
      Sampled.push_back({V, {2}});
    else
      return R;
  }
  for (unsigned V : Loops)
    if (Vars[V].LoopVariance != Variance::Uniform || llvm::is_contained(TripVars, V))
      return R;

  // The sampled values that size the thread groups a condition tests: when one of their
  // samples brings every thread (or named lane) and another does not, that value, not the
  // code, decides, and the enumeration goes on past the first split to find out.
  std::vector<unsigned> Grouping;
  for (const auto &[V, Values] : Sampled)
    if (Reach && groupsThreads(*Reach, V))
      Grouping.push_back(V);
  bool SeenWhole = false;
  const unsigned Threads = Shape.threads();
  Env Base;
  Base.BlockDim[0] = Shape.X;
  Base.BlockDim[1] = Shape.Y;
  Base.BlockDim[2] = Shape.Z;
  Base.Vars.assign(Vars.size(), std::nullopt);
  unsigned Envs = 0;
  bool Failed = false, Found = false;
  std::function<void(size_t)> Enumerate = [&](size_t K) {
    if (Failed || (Found && (Grouping.empty() || SeenWhole)) || Envs >= 256)
      return;
    if (K < Sampled.size()) {
      for (int64_t V : Sampled[K].second) {
        Base.Vars[Sampled[K].first] = V;
        Enumerate(K + 1);
      }
      Base.Vars[Sampled[K].first] = std::nullopt;
      return;
    }
    if (K - Sampled.size() < Loops.size()) {
      unsigned LV = Loops[K - Sampled.size()];
      const SymVarInfo &L = Vars[LV];
      std::optional<std::vector<int64_t>> Values =
          enumerateLoop(*L.Init, *L.Cond, *L.Step, LV, Base);
      if (!Values) {
        Failed = true;
        return;
      }
      for (int64_t V : *Values) {
        Base.Vars[LV] = V;
        Enumerate(K + 1);
      }
      Base.Vars[LV] = std::nullopt;
      return;
    }
    ++Envs;
    std::optional<std::vector<bool>> In = threadsReaching(Reach, TripLoops, TripVars, Shape, Base);
    if (!In) {
      Failed = true;
      return;
    }
    std::vector<bool> Reaches = std::move(*In);
    bool Split = false;
    std::vector<uint32_t> Absent, ExitedRead;
    if (Class.Kind == SyncKind::WarpMask || Class.Kind == SyncKind::Tile) {
      std::optional<std::vector<uint32_t>> ByExits;
      if (Exited)
        ByExits = shuffleAbsent(Reaches, Class, *Exited, Shape, Base, ExitedRead);
      Absent = ByExits ? std::move(*ByExits) : absentNamed(Reaches, Class);
      if (!ByExits)
        ExitedRead.clear();
      Split = llvm::any_of(Absent, [](uint32_t A) { return A != 0; });
    } else {
      bool Any = false, All = true;
      for (unsigned T = 0; T < Threads; ++T) {
        Any |= Reaches[T];
        All &= Reaches[T];
      }
      Split = Any && !All;
    }
    if (!Split)
      SeenWhole = true;
    if (Split && !Found) {
      Found = true;
      R.Reaches = Reaches;
      R.LeaderDefined = Exited && leaderDefined(Reaches, Class, *Exited, Vars, Absent,
                                                ExitedRead, Base);
      R.AbsentNamed = std::move(Absent);
      R.ExitedRead = std::move(ExitedRead);
      for (unsigned V : Loops)
        if (Base.Vars[V])
          R.Values += (R.Values.empty() ? "" : ", ") + Vars[V].Name + " = " +
                      std::to_string(*Base.Vars[V]);
    }
  };
  Enumerate(0);
  R.Evaluated = !Failed && (Found || Envs < 256);
  if (!Sampled.empty() || Switched) {
    // A sampled split is no figure of the launches: the run-time values decide, as
    // before. No sampled value splits: every thread reaches it for all of them.
    R.SampledWhole = R.Evaluated && !Found;
    if (Found && SeenWhole && !Failed)
      for (unsigned V : Grouping)
        R.DecidedBy += (R.DecidedBy.empty() ? "'" : ", '") + Vars[V].Name + "'";
    R.Evaluated = false;
  }
  if (!R.Evaluated) {
    R.Reaches.clear();
    R.AbsentNamed.clear();
    R.ExitedRead.clear();
    R.Values.clear();
  }
  return R;
}

/// The ExitedLanes of a shuffle S, where its rule applies: a constant mask and width, and
/// an operand whose value each thread can evaluate (constants, the thread index, counters
/// of uniform loops, which are enumerated); who has returned from the kernel body before it
/// evaluable as the reach is (no counter of a thread-dependent loop, TripVars: those of the
/// call's), every thread alive where no return comes before it. None otherwise: then every
/// named lane that does not reach the call counts, exited or not, and past the end of a
/// partial warp or not.
static std::optional<ExitedLanes> exitedLanes(const SyncCall &S, const SyncClass &Class,
                                              const std::vector<SymVarInfo> &Vars,
                                              const std::vector<unsigned> &TripVars) {
  if (Class.Kind != SyncKind::WarpMask || Class.Shuffle == SyncClass::NoShuffle ||
      !Class.ShuffleWidth || !Class.MaskValue || S.Args.size() < 3 || !S.Args[2].S ||
      S.Args[2].V == Variance::Data)
    return std::nullopt;
  auto Evaluable = [&](const Sym &E, bool LoopsOnly) {
    std::vector<unsigned> Used;
    collectVars(E, Used);
    for (unsigned V : Used) {
      if (V >= Vars.size() || llvm::is_contained(TripVars, V))
        return false;
      const SymVarInfo &I = Vars[V];
      bool Loop = I.Kind == SymVarInfo::Loop && I.LoopVariance == Variance::Uniform;
      if (LoopsOnly ? !Loop : !(Loop || I.Kind == SymVarInfo::Param ||
                                 I.Kind == SymVarInfo::Opaque || I.Kind == SymVarInfo::BlockIdx ||
                                 I.Kind == SymVarInfo::GridDim))
        return false;
    }
    return true;
  };
  // The source lane must be known: a run-time value (a parameter, a load) is no lane, nor
  // is the counter of a loop whose bounds read one (`for (m = w / 2; ...)` with w a
  // parameter would be sampled).
  if (!Evaluable(*S.Args[2].S, true))
    return std::nullopt;
  std::vector<unsigned> Counters;
  collectVars(*S.Args[2].S, Counters);
  for (size_t K = 0; K < Counters.size(); ++K) {
    const SymVarInfo &L = Vars[Counters[K]];
    if (!L.Init || !L.Cond || !L.Step)
      return std::nullopt;
    for (const SymRef *P : {&L.Init, &L.Cond, &L.Step}) {
      if (!Evaluable(**P, true))
        return std::nullopt;
      std::vector<unsigned> More;
      collectVars(**P, More);
      for (unsigned V : More)
        if (!llvm::is_contained(Counters, V))
          Counters.push_back(V);
    }
  }
  SyncCall Returns = S;
  Returns.Guards.clear();
  llvm::erase_if(Returns.Exits, [](const ExitSite &X) {
    return !isa<ReturnStmt>(X.Exit) || X.Depth != 1; // a break, continue or a helper's return
  });
  ExitedLanes Out;
  Out.Operand = S.Args[2].S;
  if (S.Kept && Evaluable(*S.Kept, false))
    Out.Kept = S.Kept;
  if (Returns.Exits.empty()) {
    Out.Alive = makeConst(1, 8, true);
    return Out;
  }
  std::vector<const SymVarInfo *> NoLoops;
  std::vector<unsigned> NoVars;
  std::vector<SymRef> Switched;
  if (!reachingCondition(Returns, Vars, false, true, Out.Alive, NoLoops, NoVars, Switched) ||
      !Switched.empty() || !NoLoops.empty() || !Out.Alive || !Evaluable(*Out.Alive, false))
    return std::nullopt;
  return Out;
}

ReachFigures evaluateReach(const SyncCall &S, const SyncClass &Class,
                           const std::vector<SymVarInfo> &Vars, const BlockShape &Shape,
                           const HostFacts *Host, const std::array<uint64_t, 3> *Grid,
                           bool Launched) {
  SymRef Reach;
  std::vector<const SymVarInfo *> TripLoops;
  std::vector<unsigned> TripVars;
  std::vector<SymRef> Switched;
  // A launch's block of one warp: a warp-uniform condition keeps or drops the whole block,
  // as it does a warp's call (cudasift's `if (Shuffle(maxv, 0) <= thresh) return;` before
  // a barrier, in blocks of 32). Not for an assumed block or its alternatives: code that
  // makes a warp-uniform index (llm.c's `idx = blockIdx.x * warp.meta_group_size() +
  // warp.meta_group_rank()`) is written for blocks of several warps.
  const bool OneWarp =
      Launched && Class.Kind == SyncKind::BlockBarrier && Shape.threads() <= 32;
  if (!reachingCondition(S, Vars, Class.Kind == SyncKind::GridBarrier,
                         Class.Kind == SyncKind::WarpMask || Class.Kind == SyncKind::Tile ||
                             OneWarp,
                         Reach,
                         TripLoops,
                         TripVars, Switched) ||
      Switched.size() > 3) {
    ReachFigures R;
    R.Shape = Shape;
    return R;
  }
  std::optional<ExitedLanes> Exited = exitedLanes(S, Class, Vars, TripVars);
  if (Switched.empty())
    return evaluateReachOf(Class, Vars, Shape, Host, Grid, Reach, TripLoops, TripVars, false,
                           Exited);
  // Exits behind a formless uniform guard: each such exit taken where the rest of its
  // path holds, or by no thread; every combination is evaluated, and the call is whole
  // only when it is whole in each.
  ReachFigures Out;
  for (unsigned On = 0; On < (1u << Switched.size()); ++On) {
    SymRef With = Reach;
    for (size_t I = 0; I < Switched.size(); ++I)
      if (On & (1u << I))
        With = conj(With, makeUnary(SymOp::LNot, Switched[I], 8, true));
    ReachFigures R =
        evaluateReachOf(Class, Vars, Shape, Host, Grid, With, TripLoops, TripVars, true, Exited);
    if (On == 0)
      Out = R;
    else if (R.DecidedBy.empty() && !R.SampledWhole)
      Out.DecidedBy.clear();
    Out.SampledWhole &= R.SampledWhole;
  }
  return Out;
}

std::string laneRanges(uint32_t Bits) {
  std::string Out;
  for (unsigned L = 0; L < 32;) {
    if (!(Bits >> L & 1)) {
      ++L;
      continue;
    }
    unsigned E = L;
    while (E + 1 < 32 && (Bits >> (E + 1) & 1))
      ++E;
    Out += (Out.empty() ? "" : ", ") + std::to_string(L) + (E > L ? "-" + std::to_string(E) : "");
    L = E + 1;
  }
  return Out;
}

std::string threadRanges(const std::vector<bool> &Reaches, bool Want, unsigned MaxRanges) {
  std::string Out;
  unsigned Ranges = 0, Count = 0;
  for (size_t T = 0; T < Reaches.size();) {
    if (Reaches[T] != Want) {
      ++T;
      continue;
    }
    size_t E = T;
    while (E + 1 < Reaches.size() && Reaches[E + 1] == Want)
      ++E;
    Count += unsigned(E - T + 1);
    if (Ranges++ < MaxRanges)
      Out += (Out.empty() ? "" : ", ") + std::to_string(T) +
             (E > T ? "-" + std::to_string(E) : "");
    T = E + 1;
  }
  if (Ranges > MaxRanges)
    Out += ", ... (" + std::to_string(Count) + " threads)";
  return (Count == 1 ? "thread " : "threads ") + Out;
}

} // namespace warplint
