//===- VerifyLowered.cpp - Nothing left behind the kernels ------*- C++ -*-===//
//
// This file implements tcgen-verify-lowered: a linalg op left in a host
// function after kernel formation is an error, never a silent omission.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/Transforms/Passes.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENVERIFYLOWEREDPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {
struct VerifyLoweredPass final
    : impl::TCGenVerifyLoweredPassBase<VerifyLoweredPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](linalg::LinalgOp op) {
      // Why tcgen-build-pointwise did not take it either.
      std::string whyNot;
      findStandalonePointwise(op, whyNot);
      op->emitOpError("is not compiled into any kernel: tcgen generates "
                      "kernels for contractions, the pointwise consumers it "
                      "fuses into them, and 2-d pointwise ops on function "
                      "arguments, but ")
          << (whyNot.empty() ? std::string("it was left to "
                                           "tcgen-build-pointwise, which did "
                                           "not run")
                             : whyNot);
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tcgen
