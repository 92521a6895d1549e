//===- Config.h - Choosing and checking #tcgen.config -----------*- C++ -*-===//
//
// The configuration model: fixed defaults per target for now, and the checks
// that a configuration fits a problem and a target.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_CONFIG_CONFIG_H
#define TCGEN_CONFIG_CONFIG_H

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/IR/TCGenDialect.h"

namespace mlir::tcgen {

/// Returns the target attached to the module enclosing `op`, or sm_90a when
/// none is attached.
TargetAttr getTargetOrDefault(Operation *op);

/// The back end for `info` on `target` when the user names none: sm90 on
/// sm_90a for what it generates (C = A*B, row-major A[m,k] and B[k,n],
/// sizes that are multiples of its 64 x 128 x 64 tile), wmma otherwise.
/// Transposed operands take sm90 only when asked for: those kernels have
/// not been checked on a GPU yet.
StringRef getDefaultBackend(const ContractionInfo &info, TargetAttr target);

/// The default configuration for `info` on `target` with `backend` ("wmma"
/// or "sm90"; empty: the target's default back end).
ConfigAttr getDefaultConfig(const ContractionInfo &info, TargetAttr target,
                            StringRef backend = "");

/// Shared memory the operand tiles of `config` occupy, in bytes.
int64_t getSharedMemoryBytes(const ContractionInfo &info, ConfigAttr config);

/// Checks that `config` fits the problem (sizes are multiples of the block
/// tile) and the target (shared memory). Emits an error at `info.op`.
LogicalResult verifyConfigFits(const ContractionInfo &info, ConfigAttr config,
                               TargetAttr target);

} // namespace mlir::tcgen

#endif // TCGEN_CONFIG_CONFIG_H
