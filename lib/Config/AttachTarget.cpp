//===- AttachTarget.cpp - Attach #tcgen.target to a module ------*- C++ -*-===//
//
// This file implements tcgen-attach-target.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Passes.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENATTACHTARGETPASS
#include "tcgen/Config/Passes.h.inc"

namespace {
struct AttachTargetPass final
    : impl::TCGenAttachTargetPassBase<AttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = TargetAttr::getChecked(
        [&] { return module.emitError("invalid --tcgen-attach-target: "); },
        &getContext(), StringRef(arch));
    if (!target)
      return signalPassFailure();
    module->setAttr(kTargetAttrName, target);
  }
};
} // namespace
} // namespace mlir::tcgen
