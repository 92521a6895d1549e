//===- Backend.cpp - The wmma back end --------------------------*- C++ -*-===//
//
// This file implements the wmma TargetBackend: cp.async stages on request
// (else the register prefetch) and the pass that maps its MMA fragments.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"
#include "tcgen/Targets/Backends.h"
#include "tcgen/Targets/WMMA/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {
class WMMABackend final : public TargetBackend {
public:
  StringRef getName() const override { return "wmma"; }

  bool asyncCopiesOnRequest() const override { return true; }

  void addMMAMapping(OpPassManager &funcPm) const override {
    funcPm.addPass(createTCGenWMMAMapMMAPass());
  }
};
} // namespace

void mlir::tcgen::registerWMMABackend() {
  registerTargetBackend(std::make_unique<WMMABackend>());
}
