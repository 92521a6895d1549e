//===- DetectParallel.cpp - Loops without global dependences ----*- C++ -*-===//
//
// This file implements tcgen-detect-parallel: affine dependence analysis of
// the global-memory accesses of each loop in a configured nest.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/Utils.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENDETECTPARALLELPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// Shared-memory tiles are per block: left out of the analysis.
static bool isShared(Value memref) {
  return cast<MemRefType>(memref.getType()).getMemorySpaceAsInt() ==
         kSharedMemorySpace;
}

/// True if no two accesses to the same global memref inside `loop`, one of
/// them a write, depend on each other across iterations of `loop`. Fails
/// (returns false) on accesses the affine analysis cannot see.
static bool carriesNoGlobalDependence(AffineForOp loop) {
  SmallVector<Operation *> accesses;
  bool opaque = false;
  loop.walk([&](Operation *op) {
    if (isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(
            op)) {
      affine::MemRefAccess access(op);
      if (!isShared(access.memref))
        accesses.push_back(op);
      return;
    }
    // Any other op that touches memory through a global memref is opaque.
    for (Value v : op->getOperands())
      if (isa<MemRefType>(v.getType()) && !isShared(v) &&
          !isa<memref::GetGlobalOp>(op))
        opaque = true;
  });
  if (opaque)
    return false;
  unsigned depth = affine::getNestingDepth(loop) + 1;
  for (Operation *src : accesses) {
    for (Operation *dst : accesses) {
      if (!isa<affine::AffineWriteOpInterface>(src) &&
          !isa<affine::AffineWriteOpInterface>(dst))
        continue;
      affine::MemRefAccess srcAccess(src), dstAccess(dst);
      if (srcAccess.memref != dstAccess.memref)
        continue;
      affine::DependenceResult result =
          affine::checkMemrefAccessDependence(srcAccess, dstAccess, depth);
      if (result.value != affine::DependenceResult::NoDependence)
        return false;
    }
  }
  return true;
}

struct DetectParallelPass final
    : impl::TCGenDetectParallelPassBase<DetectParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp root : getConfiguredNests(getOperation())) {
      // The dependence analysis ignores loop steps (a tile loop stepping by
      // 64 looks like it may visit i and i+1), so it runs on a copy whose
      // loops are normalized to step 1; the copy has the same loops in the
      // same walk order.
      OpBuilder b(root);
      auto copy = cast<AffineForOp>(b.clone(*root));
      SmallVector<AffineForOp> copyLoops, loops;
      copy.walk([&](AffineForOp loop) { copyLoops.push_back(loop); });
      root.walk([&](AffineForOp loop) { loops.push_back(loop); });
      for (AffineForOp loop : copyLoops)
        (void)affine::normalizeAffineFor(loop);
      for (auto [loop, normalized] : llvm::zip(loops, copyLoops)) {
        if (carriesNoGlobalDependence(normalized))
          loop->setAttr(kParallelAttrName, UnitAttr::get(&getContext()));
        else
          loop->removeAttr(kParallelAttrName);
      }
      copy.erase();
    }
  }
};
} // namespace
} // namespace mlir::tcgen
