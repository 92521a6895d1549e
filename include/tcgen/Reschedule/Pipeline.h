//===- Pipeline.h - tcgen reschedule: copies, computes, stages --*- C++ -*-===//
//
// This file declares the analysis behind `tcgen reschedule`'s schedule: in
// a raised kernel, the loop whose iterations stage global data into shared
// buffers (the copy statements), synchronize, and read them back (the
// compute statements); the dependences between the two over the loop; the
// buffers' footprints; and the number of stages the shared-memory budget
// allows.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RESCHEDULE_PIPELINE_H
#define TCGEN_RESCHEDULE_PIPELINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tcgen {

/// One shared buffer the pipelined loop's copies fill.
struct CopiedBuffer {
  memref::GlobalOp global;
  /// The global's symbol.
  std::string name;
  /// Bytes of one copy of the buffer (one stage).
  int64_t bytes = 0;
  /// The bytes one copy statement moves (the element size).
  int64_t copyBytes = 0;
  /// The copy statements' stores into it.
  SmallVector<Operation *> stores;
  /// The compute statements' loads from it.
  SmallVector<Operation *> reads;
};

/// A loop the schedule can pipeline:
///
///   for k (iter_args a...) {
///     COPY(k)       // global loads stored to the shared buffers (and the
///                   // address arithmetic; possibly in inner loops)
///     barrier
///     COMPUTE(k)    // reads the buffers, writes no shared or global memory
///     barrier
///     (index arithmetic)
///   }
///
/// The copies read no value the loop carries other than its induction
/// variable and `inductions` (iter_args stepped by a loop-invariant value).
struct PipelinePlan {
  Operation *loop = nullptr; ///< scf.for or affine.for
  gpu::BarrierOp copyBarrier, computeBarrier;
  SmallVector<CopiedBuffer> buffers;
  /// For each iter_arg that the copies read: its number and the
  /// loop-invariant value it is stepped by every iteration.
  SmallVector<std::pair<unsigned, Value>> inductions;
  /// The trip count when the bounds are constants.
  std::optional<int64_t> tripCount;
  /// Static shared memory of the buffers the loop does not copy into.
  int64_t otherSharedBytes = 0;
  /// The numbers of the `__restrict__` parameters the compute statements
  /// store into (no copy reads them).
  SmallVector<unsigned> restrictOutputs;

  /// Bytes of one stage of all copied buffers.
  int64_t stageBytes() const;
};

/// Finds the kernel's pipelined loop and checks it. A kernel outside the
/// pattern is refused with an error at the construct that breaks it (the
/// copy outside any loop, a loop with a data-dependent trip count, a shared
/// buffer written by the compute statements, ...).
FailureOr<PipelinePlan> analyzePipeline(func::FuncOp kernel);

/// The static shared memory a block may use (48 KiB).
constexpr int64_t kStaticSharedBudget = 48 * 1024;

/// The number of stages: `requested` when positive (refused when it does
/// not fit `budget` bytes with the other shared buffers, or is below 2);
/// otherwise the most that fit `budget`, at most the trip count when
/// known and at most `maxAuto`. On failure sets `error`.
FailureOr<int64_t> chooseStages(int64_t stageBytes, int64_t otherBytes,
                                std::optional<int64_t> tripCount,
                                int64_t requested, int64_t budget,
                                std::string &error, int64_t maxAuto = 4);

/// The `--explain` text of a plan: the copy and compute statements, the
/// dependences between them over the loop, the buffers' footprints.
std::string explainPipeline(const PipelinePlan &plan);

} // namespace mlir::tcgen

#endif // TCGEN_RESCHEDULE_PIPELINE_H
