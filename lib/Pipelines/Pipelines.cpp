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

/// Copies a pipeline option's value into a pass's option.
using PassOptions = mlir::detail::PassOptions;
template <typename T, typename U, typename P>
static void copyOption(T &to, const PassOptions::Option<U, P> &from) {
  to = from;
}
template <typename T, typename U, typename P>
static void copyOption(T &to, const PassOptions::ListOption<U, P> &from) {
  to.assign(from.begin(), from.end());
}

void mlir::tcgen::buildTCGenConfigurePipeline(
    OpPassManager &pm, const TCGenPipelineOptions &options) {
  // The configuration asks the back ends for their formulas.
  registerTCGenBackends();
  if (options.bufferize && options.fuse) {
    pm.addNestedPass<func::FuncOp>(createTCGenSplitSharedFillsPass());
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
  // Every configuration option of the pipeline is one of tcgen-configure's
  // (Options.def; a field missing there does not compile).
  TCGenConfigurePassOptions configure;
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  copyOption(configure.FIELD, options.FIELD);
#include "tcgen/Pipelines/Options.def"
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
