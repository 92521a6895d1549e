//===- KLoop.h - The block K loop's parts, shared by its pipeliners -*- C++ -*-===//
//
// The block_k loop after tcgen-map-to-gpu has the body
//   barrier; copy loops (global -> shared); barrier; compute...; yield
// Both latency-hiding passes (tcgen-prefetch-tiles, tcgen-async-copies)
// take it apart the same way and give the shared buffers more stages.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TRANSFORMS_KLOOP_H
#define TCGEN_TRANSFORMS_KLOOP_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tcgen {

/// The block_k loops under `root`, in walk order.
SmallVector<affine::AffineForOp> collectKLoops(Operation *root);

/// The parts of a block_k loop's body.
struct KLoopBody {
  gpu::BarrierOp first, second;
  /// The ops of the (fully unrolled) copy loops, in order.
  SmallVector<Operation *> copyOps;
  /// The ops after the second barrier, the terminator excluded.
  SmallVector<Operation *> computeOps;
};

/// Checks that `loop`'s body is barrier; copy loops; barrier; compute and
/// unrolls the copy loops. Emits an error at the loop (or the copy loop
/// that cannot be unrolled) and fails otherwise.
FailureOr<KLoopBody> splitKLoopBody(affine::AffineForOp loop);

/// `count` more shared buffers like the one `get` reads: copies of its
/// global named `<name>_1` .. `<name>_<count>`, each read by a
/// memref.get_global right after `get`. Returns `get`'s value followed by
/// the new ones.
SmallVector<Value> cloneSharedBuffer(memref::GetGlobalOp get, int64_t count);

} // namespace mlir::tcgen

#endif // TCGEN_TRANSFORMS_KLOOP_H
