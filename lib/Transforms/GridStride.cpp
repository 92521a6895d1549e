//===- GridStride.cpp - Grid-stride loop indices, typed ---------*- C++ -*-===//
//
// This file implements the typed indices of a grid-stride loop.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/GridStride.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tcgen;

GridStrideIndices mlir::tcgen::buildGridStrideIndices(OpBuilder &b,
                                                      Location loc,
                                                      Value cThreads) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value first0 = arith::MulIOp::create(b, loc, bid, cThreads);
  Value first = arith::AddIOp::create(b, loc, first0, tid);
  Value step = arith::MulIOp::create(b, loc, blocks, cThreads);
  return {first, step};
}
