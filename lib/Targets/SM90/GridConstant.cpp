//===- GridConstant.cpp - By-value tensor-map kernel parameters -*- C++ -*-===//
//
// This file implements tcgen-sm90-grid-constant.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Passes.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSM90GRIDCONSTANTPASS
#include "tcgen/Targets/SM90/Passes.h.inc"

namespace {
/// Size and alignment of a CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlign = 64;

struct GridConstantPass final
    : impl::TCGenSM90GridConstantPassBase<GridConstantPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto params = func->getAttrOfType<ArrayAttr>("tcgen.params");
      if (!params)
        return;
      for (auto [i, param] : llvm::enumerate(params)) {
        if (!cast<StringAttr>(param).getValue().starts_with("tensormap:"))
          continue;
        func.setArgAttr(i, "llvm.byval",
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            IntegerType::get(ctx, 8), kTensorMapBytes)));
        func.setArgAttr(
            i, "llvm.align",
            IntegerAttr::get(IntegerType::get(ctx, 64), kTensorMapAlign));
        func.setArgAttr(i, "nvvm.grid_constant", UnitAttr::get(ctx));
      }
    });
  }
};
} // namespace
} // namespace mlir::tcgen
