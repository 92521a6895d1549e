//===- Pipelines.h - tcgen pass pipelines -----------------------*- C++ -*-===//
//
// The two halves of compilation: `tcgen-pipeline` turns configured linalg
// into an outlined gpu.module plus the host-side gpu.launch_func, and
// `tcgen-lower-to-nvvm` lowers the gpu.module to the LLVM/NVVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_PIPELINES_PIPELINES_H
#define TCGEN_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tcgen {

/// Options of the kernel-formation pipeline, declared in Options.def: the
/// configuration overrides tcgen-configure takes (each a field of
/// #tcgen.config) and the switches of the ablation study.
struct TCGenPipelineOptions : public PassPipelineOptions<TCGenPipelineOptions> {
#define TCGEN_CONFIG_OPTION(FIELD, FLAG, KIND, TYPE, INIT, ROLE, DESC)        \
  TCGEN_PIPELINE_OPTION_##KIND(FIELD, FLAG, TYPE, INIT, DESC)
#define TCGEN_PIPELINE_OPTION_Opt(FIELD, FLAG, TYPE, INIT, DESC)              \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC), llvm::cl::init(INIT)};
#define TCGEN_PIPELINE_OPTION_List(FIELD, FLAG, TYPE, INIT, DESC)             \
  ListOption<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC)};
#define TCGEN_PIPELINE_SWITCH(FIELD, FLAG, INIT, DESC, CLI_FLAG, ROLE,        \
                              CLI_DESC)                                       \
  Option<bool> FIELD{*this, FLAG, llvm::cl::desc(DESC), llvm::cl::init(INIT)};
#include "tcgen/Pipelines/Options.def"
#undef TCGEN_PIPELINE_OPTION_Opt
#undef TCGEN_PIPELINE_OPTION_List
};

/// Options of the NVVM lowering.
struct TCGenNVVMOptions : public PassPipelineOptions<TCGenNVVMOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip"),
                           llvm::cl::init("sm_90a")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features"),
                               llvm::cl::init("+ptx83")};
  Option<int> optLevel{*this, "opt-level", llvm::cl::desc("LLVM opt level"),
                       llvm::cl::init(3)};
};

/// The front of buildTCGenPipeline: pointwise fusion, bufferization and
/// tcgen-configure; the contractions are still linalg ops, each with its
/// #tcgen.config (what `tcgen explain` and `tcgen tune` rank against).
void buildTCGenConfigurePipeline(OpPassManager &pm,
                                 const TCGenPipelineOptions &options);

/// linalg (tensors or memrefs) -> gpu.launch_func + outlined gpu.module.
void buildTCGenPipeline(OpPassManager &pm, const TCGenPipelineOptions &options);

/// gpu.module of tcgen kernels -> LLVM dialect with NVVM ops and a target.
void buildTCGenLowerToNVVM(OpPassManager &pm, const TCGenNVVMOptions &options);

/// Registers both pipelines (`tcgen-pipeline`, `tcgen-lower-to-nvvm`).
void registerTCGenPipelines();

/// Registers the four back ends (wmma, sm80, sm90, simt; Config/Backend.h),
/// whose formulas the configuration asks and whose passes the pipelines
/// compose. Idempotent.
void registerTCGenBackends();

/// Registers every back end, tcgen pass and pipeline.
void registerAllTCGenPasses();

} // namespace mlir::tcgen

#endif // TCGEN_PIPELINES_PIPELINES_H
