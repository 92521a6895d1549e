//===- AnalyzePipeline.cpp - Report a kernel's copies and computes --------===//
//
// This file implements tcgen-reschedule-analyze: it runs the pipeline
// analysis (Pipeline.h) over a raised kernel and reports what it found
// with a remark at the pipelined loop, or refuses the kernel.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"
#include "tcgen/Reschedule/Pipeline.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRESCHEDULEANALYZEPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {
struct AnalyzePipelinePass final
    : mlir::tcgen::impl::TCGenRescheduleAnalyzePassBase<AnalyzePipelinePass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn->hasAttr("tcgen.kernel"))
      return;
    FailureOr<PipelinePlan> plan = analyzePipeline(fn);
    if (failed(plan))
      return signalPassFailure();
    plan->loop->emitRemark() << "pipelinable loop\n" << explainPipeline(*plan);
  }
};
} // namespace
