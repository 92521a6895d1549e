//===- Packs.h - The sm90 pack kernels, typed -------------------*- C++ -*-===//
//
// The pack kernels of the sm90 back end (KernelBuilder.h's PackParams),
// built with typed op builders: copies of an operand into rows 128-byte
// multiples apart, or its transpose, that the main kernel's TMA loads read.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TARGETS_SM90_PACKS_H
#define TCGEN_TARGETS_SM90_PACKS_H

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcgen::sm90 {

/// Builds the pack kernel `pack` (a gpu.func named pack.name; a transposing
/// pack also its shared-memory tile, a memref.global before it) at the
/// builder's insertion point, which must be in a gpu.module's body. A pack
/// that transforms its elements calls @tcgen_prologue (kPrologueFuncName),
/// which the module must declare (buildKernelModule replaces the calls).
/// Returns the kernel.
gpu::GPUFuncOp buildPackFunc(OpBuilder &b, Location loc,
                             const PackParams &pack);

} // namespace mlir::tcgen::sm90

#endif // TCGEN_TARGETS_SM90_PACKS_H
