//===- Backend.cpp - The simt back end --------------------------*- C++ -*-===//
//
// This file implements the simt TargetBackend: the pass that generates its
// whole CUDA-core f32 kernels.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Targets/Backends.h"
#include "tcgen/Targets/SIMT/Passes.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {
class SIMTBackend final : public TargetBackend {
public:
  StringRef getName() const override { return "simt"; }

  void addKernelBuilders(OpPassManager &pm,
                         const TCGenPipelineOptions &options) const override {
    TCGenSIMTBuildKernelPassOptions simt;
    simt.fuseEpilogue = options.fuse;
    pm.addPass(createTCGenSIMTBuildKernelPass(simt));
  }
};
} // namespace

void mlir::tcgen::registerSIMTBackend() {
  registerTargetBackend(std::make_unique<SIMTBackend>());
}
