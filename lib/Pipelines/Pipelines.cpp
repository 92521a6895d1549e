//===- Pipelines.cpp - tcgen pass pipelines ---------------------*- C++ -*-===//
//
// This file implements the kernel-formation pipeline (the paper's pass order)
// and the NVVM lowering of the outlined kernels.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Pipelines/Pipelines.h"

#include "tcgen/Config/Backend.h"
#include "tcgen/Config/Passes.h"
#include "tcgen/Targets/Backends.h"
#include "tcgen/Targets/SIMT/Passes.h"
#include "tcgen/Targets/SM80/Passes.h"
#include "tcgen/Targets/SM90/Passes.h"
#include "tcgen/Targets/WMMA/Passes.h"
#include "tcgen/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcgen;

/// Appends an upstream pipeline given in textual form; these strings are
/// fixed, so a parse failure is a bug in this file.
static void addTextual(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("tcgen: malformed built-in pipeline");
}

void mlir::tcgen::buildTCGenConfigurePipeline(
    OpPassManager &pm, const TCGenPipelineOptions &options) {
  // The configuration asks the back ends for their formulas.
  registerTCGenBackends();
  if (options.bufferize && options.fuse) {
    pm.addNestedPass<func::FuncOp>(createTCGenChainContractionsPass());
    pm.addNestedPass<func::FuncOp>(createTCGenPeelAccumulatorInitPass());
    pm.addNestedPass<func::FuncOp>(createTCGenFuseElementwisePass());
  }
  if (options.bufferize)
    addTextual(pm, "one-shot-bufferize{bufferize-function-boundaries "
                   "function-boundary-type-conversion=identity-layout-map},"
                   "buffer-results-to-out-params{hoist-static-allocs=true "
                   "hoist-dynamic-allocs=true "
                   "modify-public-functions=true},canonicalize");
  // Several batch, M, N or K dimensions into one each, where they collapse.
  pm.addNestedPass<func::FuncOp>(createTCGenCollapseDimsPass());
  TCGenConfigurePassOptions configure;
  configure.blockTile.assign(options.blockTile.begin(),
                             options.blockTile.end());
  configure.warpTile.assign(options.warpTile.begin(), options.warpTile.end());
  configure.threadTile.assign(options.threadTile.begin(),
                              options.threadTile.end());
  configure.backend = options.backend;
  configure.padding = options.padding;
  configure.stages = options.stages;
  configure.allowTf32 = options.allowTf32;
  configure.vector = options.vector;
  configure.raster = options.raster;
  configure.persistent = options.persistent;
  configure.streamK = options.streamK;
  configure.swap = options.swap;
  configure.cluster.assign(options.cluster.begin(), options.cluster.end());
  configure.store = options.store;
  configure.tuningCache = options.tuningCache;
  configure.device = options.device;
  configure.modelRank = options.modelRank;
  pm.addNestedPass<func::FuncOp>(createTCGenConfigurePass(configure));
}

void mlir::tcgen::buildTCGenPipeline(OpPassManager &pm,
                                     const TCGenPipelineOptions &options) {
  buildTCGenConfigurePipeline(pm, options);
  // Each back end adds its passes at the points below, in registration
  // order (registerTCGenBackends). The back ends that generate whole
  // kernels (sm90, simt) do so first; the rest goes down the paper's
  // pipeline.
  std::vector<const TargetBackend *> backends = getTargetBackends();
  for (const TargetBackend *backend : backends)
    backend->addKernelBuilders(pm, options);
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  TCGenLowerContractionPassOptions lower;
  lower.asyncCopies = options.asyncCopies && options.prefetch && options.promote;
  fpm.addPass(createTCGenLowerContractionPass(lower));
  fpm.addPass(createTCGenTilePass());
  if (options.promote)
    fpm.addPass(createTCGenPromoteOperandsPass());
  fpm.addPass(createTCGenDetectParallelPass());
  for (const TargetBackend *backend : backends)
    backend->addMMAMapping(fpm);
  if (options.hoist) {
    TCGenHoistAccumulatorsPassOptions hoist;
    hoist.unroll = options.unroll;
    fpm.addPass(createTCGenHoistAccumulatorsPass(hoist));
  }
  if (options.vectorize)
    fpm.addPass(createTCGenVectorizeCopiesPass());
  TCGenMapToGPUPassOptions map;
  map.reorderCopies = options.reorderCopies;
  fpm.addPass(createTCGenMapToGPUPass(map));
  fpm.addPass(createTCGenSplitKReducePass());
  fpm.addPass(createTCGenStageEpiloguePass());
  if (options.prefetch && options.promote) {
    // cp.async stages: always for back ends that always take them (sm80),
    // on request for the others (wmma); the register prefetch takes the
    // rest.
    TCGenAsyncCopiesPassOptions async;
    async.wmma = options.asyncCopies;
    fpm.addPass(createTCGenAsyncCopiesPass(async));
    if (!options.asyncCopies)
      fpm.addPass(createTCGenPrefetchTilesPass());
    fpm.addPass(createTCGenApplyProloguePass());
  }
  // Pointwise ops no kernel fused become kernels of their own; anything
  // still left is an error.
  pm.addPass(createTCGenBuildPointwisePass());
  pm.nest<func::FuncOp>().addPass(createTCGenVerifyLoweredPass());
  addTextual(pm, "lower-affine,canonicalize,cse");
  // sm80: fragments to ldmatrix / mma.sync, then the swizzle of the
  // unpadded tiles.
  OpPassManager &lowered = pm.nest<func::FuncOp>();
  for (const TargetBackend *backend : backends)
    backend->addLoweredKernelPasses(lowered);
  lowered.addPass(createTCGenDynamicSharedMemoryPass());
  addTextual(pm, "canonicalize,cse,gpu-launch-sink-index-computations,"
                 "gpu-kernel-outlining,canonicalize");
}

void mlir::tcgen::buildTCGenLowerToNVVM(OpPassManager &pm,
                                        const TCGenNVVMOptions &options) {
  registerTCGenBackends();
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  os << "nvvm-attach-target{chip=" << options.chip
     << " features=" << options.features << " O=" << options.optLevel << "},"
     << "gpu.module(convert-scf-to-cf,convert-nvgpu-to-nvvm,"
        "convert-vector-to-llvm{use-vector-alignment=true},"
        "convert-nvvm-to-llvm,expand-strided-metadata,"
        "convert-arith-to-llvm,convert-index-to-llvm,"
        "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
        "canonicalize,cse,reconcile-unrealized-casts)";
  addTextual(pm, pipeline);
  for (const TargetBackend *backend : getTargetBackends())
    backend->addNVVMPasses(pm);
}

void mlir::tcgen::registerTCGenPipelines() {
  PassPipelineRegistration<TCGenPipelineOptions>(
      "tcgen-pipeline",
      "Compile configured linalg contractions to outlined GPU kernels",
      buildTCGenPipeline);
  PassPipelineRegistration<TCGenNVVMOptions>(
      "tcgen-lower-to-nvvm", "Lower tcgen's gpu.module to LLVM/NVVM",
      buildTCGenLowerToNVVM);
}

void mlir::tcgen::registerTCGenBackends() {
  // The order of their passes in the pipeline: sm90's kernel builder
  // before simt's.
  registerWMMABackend();
  registerSM80Backend();
  registerSM90Backend();
  registerSIMTBackend();
}

void mlir::tcgen::registerAllTCGenPasses() {
  registerTCGenBackends();
  registerTCGenConfigPasses();
  registerTCGenTransformsPasses();
  registerTCGenWMMAPasses();
  registerTCGenSM80Passes();
  registerTCGenSM90Passes();
  registerTCGenSIMTPasses();
  registerTCGenPipelines();
}
