//===- GridStride.h - Grid-stride loop indices, typed -----------*- C++ -*-===//
//
// The indices of the generated kernels' grid-stride loops (the pack and
// pointwise kernels), built with typed ops.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TRANSFORMS_GRIDSTRIDE_H
#define TCGEN_TRANSFORMS_GRIDSTRIDE_H

#include "mlir/IR/Builders.h"

namespace mlir::tcgen {

/// The indices of a grid-stride loop over one dimension: this thread's
/// first index and the threads of the launch.
struct GridStrideIndices {
  Value first, step;
};

/// Builds the indices of a grid-stride loop from `cThreads` (a block's
/// threads, an index value): the thread, block and grid ids (x), then
/// first = block x cThreads + thread and step = grid x cThreads, the ops of
/// kGridStrideIndicesText (LoopTags.h) in its order.
GridStrideIndices buildGridStrideIndices(OpBuilder &b, Location loc,
                                         Value cThreads);

} // namespace mlir::tcgen

#endif // TCGEN_TRANSFORMS_GRIDSTRIDE_H
