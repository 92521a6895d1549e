//===- Backend.cpp - The sm80 back end --------------------------*- C++ -*-===//
//
// This file implements the sm80 TargetBackend: cp.async stages in every K
// loop, bf16 operands carried as f16 through the fragment passes, the XOR
// swizzle's row check, and the passes that lower its fragments.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"
#include "tcgen/Targets/Backends.h"
#include "tcgen/Targets/SM80/Passes.h"
#include "tcgen/Targets/SM80/Swizzle.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {
class SM80Backend final : public TargetBackend {
public:
  StringRef getName() const override { return "sm80"; }

  bool canSwizzleRows(int64_t rowBytes) const override {
    return sm80::canSwizzle(rowBytes);
  }

  bool alwaysAsyncCopies() const override { return true; }
  bool carriesBF16AsF16() const override { return true; }

  /// Fragments to ldmatrix / mma.sync, then the swizzle of the unpadded
  /// tiles (it rewrites the ldmatrix addresses too).
  void addLoweredKernelPasses(OpPassManager &funcPm) const override {
    funcPm.addPass(createTCGenSM80LowerMMAPass());
    funcPm.addPass(createTCGenSM80SwizzleSharedPass());
  }
};
} // namespace

void mlir::tcgen::registerSM80Backend() {
  registerTargetBackend(std::make_unique<SM80Backend>());
}
