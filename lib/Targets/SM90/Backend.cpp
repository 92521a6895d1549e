//===- Backend.cpp - The sm90 back end --------------------------*- C++ -*-===//
//
// This file implements the sm90 TargetBackend: the shared-memory, stage and
// schedule formulas of KernelBuilder.h and the passes that build and finish
// its kernels.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Config/Backend.h"
#include "tcgen/Pipelines/Pipelines.h"
#include "tcgen/Targets/Backends.h"
#include "tcgen/Targets/SM90/KernelBuilder.h"
#include "tcgen/Targets/SM90/Passes.h"

using namespace mlir;
using namespace mlir::tcgen;

namespace {
class SM90Backend final : public TargetBackend {
public:
  StringRef getName() const override { return "sm90"; }

  int64_t getMaxSharedMemoryBytes() const override {
    return sm90::kMaxDynamicSmemBytes;
  }
  int64_t getSharedMemoryBytes(int64_t blockM, int64_t blockN, int64_t blockK,
                               int64_t stages, bool tmaStore, bool bKMajor,
                               int64_t rowBlocks) const override {
    return sm90::sharedMemoryBytes(blockM, blockN, blockK, stages, tmaStore,
                                   bKMajor, rowBlocks);
  }
  int64_t getStagesThatFit(int64_t blockM, int64_t blockN, int64_t blockK,
                           bool tmaStore, bool bKMajor, int64_t maxStages,
                           int64_t rowBlocks) const override {
    return sm90::chooseStages(blockM, blockN, blockK, tmaStore, bKMajor,
                              maxStages, rowBlocks);
  }
  int64_t getMaxAccumulatorRegisters() const override {
    return sm90::kMaxRowBlockAccRegs;
  }

  int64_t getStreamKSplitTiles(int64_t tiles, int64_t blocks) const override {
    return sm90::streamKSplitTiles(tiles, blocks);
  }
  int64_t getStreamKBlocks(int64_t tiles, int64_t sms,
                           bool swapped) const override {
    return sm90::streamKBlocks(tiles, sms, swapped);
  }
  int64_t getRasterGroup(int64_t tilesM, int64_t tilesN, int64_t unitM,
                         int64_t unitN, int64_t slots) const override {
    return sm90::rasterGroup(tilesM, tilesN, unitM, unitN, slots);
  }
  bool shouldPackOperand(int64_t rowBytes, int64_t bytes,
                         StringRef mode) const override {
    return sm90::shouldPack(rowBytes, bytes, mode);
  }
  int64_t getSwapStages(int64_t blockM) const override {
    return sm90::swapStages(blockM);
  }
  bool swapCopiesB(bool swapped, int64_t blockN) const override {
    return sm90::swapCopiesB(swapped, blockN);
  }

  bool stagesOwnEpilogue() const override { return true; }

  void addKernelBuilders(OpPassManager &pm,
                         const TCGenPipelineOptions &options) const override {
    TCGenSM90BuildKernelPassOptions build;
    build.fuseEpilogue = options.fuse;
    pm.addPass(createTCGenSM90BuildGroupedPass());
    pm.addPass(createTCGenSM90BuildKernelPass(build));
  }
  void addNVVMPasses(OpPassManager &pm) const override {
    pm.addPass(createTCGenSM90GridConstantPass());
  }
};
} // namespace

void mlir::tcgen::registerSM90Backend() {
  registerTargetBackend(std::make_unique<SM90Backend>());
}
