//===- Passes.h - tcgen target-neutral transformations ----------*- C++ -*-===//

#ifndef TCGEN_TRANSFORMS_PASSES_H
#define TCGEN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tcgen {
#define GEN_PASS_DECL
#include "tcgen/Transforms/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tcgen/Transforms/Passes.h.inc"
} // namespace mlir::tcgen

#endif // TCGEN_TRANSFORMS_PASSES_H
