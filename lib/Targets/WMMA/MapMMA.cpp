//===- MapMMA.cpp - Scalar point loops to WMMA fragments --------*- C++ -*-===//
//
// This file implements tcgen-wmma-map-mma: the point loops step by the MMA
// shape and their scalar multiply-add becomes gpu.subgroup_mma operations.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/WMMA/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENWMMAMAPMMAPASS
#include "tcgen/Targets/WMMA/Passes.h.inc"

namespace {
using affine::AffineForOp;

/// Materializes the indices of an affine access as index values.
static SmallVector<Value> materializeIndices(OpBuilder &b, Location loc,
                                             AffineMap map,
                                             ValueRange operands) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), operands));
  return indices;
}

/// The row stride of a 2-d memref with unit column stride, or failure.
static FailureOr<int64_t> getLeadDimension(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() != 2 ||
      failed(type.getStridesAndOffset(strides, offset)) || strides[1] != 1 ||
      ShapedType::isDynamic(strides[0]))
    return failure();
  return strides[0];
}

struct MapMMAPass final : impl::TCGenWMMAMapMMAPassBase<MapMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    for (AffineForOp root : getConfiguredNests(getOperation()))
      if (failed(map(root)))
        return signalPassFailure();
  }

  LogicalResult map(AffineForOp root) {
    auto config = root->getAttrOfType<ConfigAttr>(kConfigAttrName);
    AffineForOp pm = findLoop(root, "point_m");
    AffineForOp pn = findLoop(root, "point_n");
    AffineForOp pk = findLoop(root, "point_k");
    if (!pm || !pn || !pk)
      return root.emitOpError("expected point loops (run tcgen-tile first)");
    if (pk.getStepAsInt() != 1)
      return success(); // already mapped
    ArrayRef<int64_t> mma = config.getMmaShape();

    // The scalar body: loads of A, B and C, a multiply-add, a store to C.
    affine::AffineLoadOp aLoad, bLoad, cLoad;
    affine::AffineStoreOp cStore;
    for (Operation &op : pk.getBody()->without_terminator()) {
      if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
        StringRef role = getOperandRole(load.getMemRef());
        (role == "A" ? aLoad : role == "B" ? bLoad : cLoad) = load;
      } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
        cStore = store;
      } else if (!isa<arith::ExtFOp, arith::MulFOp, arith::AddFOp>(op)) {
        return op.emitOpError("unexpected in a contraction body");
      }
    }
    if (!aLoad || !bLoad || !cLoad || !cStore ||
        getOperandRole(aLoad.getMemRef()) != "A" ||
        getOperandRole(bLoad.getMemRef()) != "B" ||
        getOperandRole(cStore.getMemRef()) != "C")
      return pk.emitOpError("expected loads of A, B, C and a store to C");

    SmallVector<Operation *> scalarBody;
    for (Operation &op : pk.getBody()->without_terminator())
      scalarBody.push_back(&op);

    pm.setStep(mma[0]);
    pn.setStep(mma[1]);
    pk.setStep(mma[2]);

    OpBuilder b(cStore);
    Location loc = cStore.getLoc();
    // A fragment whose buffer is stored in the other order (A [k][m], B
    // [n][k]) is loaded with `transpose`; its indices stay in the buffer's
    // order.
    auto fragment = [&](affine::AffineLoadOp load, int64_t rows, int64_t cols,
                        StringRef kind, bool transposed) -> FailureOr<Value> {
      FailureOr<int64_t> ld = getLeadDimension(load.getMemRef());
      if (failed(ld))
        return load.emitOpError("operand is not a row-major 2-d buffer");
      auto type = gpu::MMAMatrixType::get({rows, cols},
                                          load.getResult().getType(), kind);
      SmallVector<Value> idx = materializeIndices(b, loc, load.getAffineMap(),
                                                  load.getMapOperands());
      return gpu::SubgroupMmaLoadMatrixOp::create(
                 b, loc, type, load.getMemRef(), idx, b.getIndexAttr(*ld),
                 transposed ? b.getUnitAttr() : UnitAttr())
          .getResult();
    };
    bool aTransposed = indexesK(aLoad.getAffineMap(), aLoad.getMapOperands(), 0);
    bool bTransposed = !indexesK(bLoad.getAffineMap(), bLoad.getMapOperands(), 0);
    FailureOr<Value> fa = fragment(aLoad, mma[0], mma[2], "AOp", aTransposed);
    FailureOr<Value> fb = fragment(bLoad, mma[2], mma[1], "BOp", bTransposed);
    FailureOr<Value> fc = fragment(cLoad, mma[0], mma[1], "COp", false);
    if (failed(fa) || failed(fb) || failed(fc))
      return failure();
    Value fd = gpu::SubgroupMmaComputeOp::create(b, loc, fc->getType(), *fa,
                                                 *fb, *fc, nullptr, nullptr);
    SmallVector<Value> idx = materializeIndices(b, loc, cStore.getAffineMap(),
                                                cStore.getMapOperands());
    FailureOr<int64_t> ld = getLeadDimension(cStore.getMemRef());
    gpu::SubgroupMmaStoreMatrixOp::create(b, loc, fd, cStore.getMemRef(), idx,
                                          b.getIndexAttr(*ld), nullptr);
    // Drop the scalar body (in reverse: users before producers).
    for (Operation *op : llvm::reverse(scalarBody))
      op->erase();
    return success();
  }
};
} // namespace
} // namespace mlir::tcgen
