//===- BuildSpec.h - The linalg module of an einsum spec --------*- C++ -*-===//
//
// Builds the linalg module of a parsed spec (Spec.h): what `tcgen compile
// --einsum ...` compiles and `--emit=mlir` prints.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_FRONTEND_BUILDSPEC_H
#define TCGEN_FRONTEND_BUILDSPEC_H

#include "tcgen/Frontend/Spec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::tcgen {

/// Builds the linalg module of `spec` on memrefs, the form tcgen's pipeline
/// analyzes: one func.func @<name>(A, B, extra operands..., C) that
/// zero-fills C (unless spec.accumulate) and computes the contraction as a
/// linalg.generic with the multiply-add body linalg.matmul generalizes to.
/// A prologue is an elementwise linalg.generic writing a local copy of A or
/// B that the contraction reads; an epilogue is one elementwise
/// linalg.generic from a local accumulator buffer (and the extra operands)
/// into C. A dual GEMM (spec.dual) takes B2 right after B and computes A B2
/// the same way into a second zero-filled accumulator buffer, after the
/// first product; the epilogue reads both buffers, acc then acc2. Sizes
/// known at launch are `?` dimensions, read from A and B with memref.dim.
/// The context must have the func, linalg, memref, arith and math dialects
/// loaded or registered. Emits an error and returns failure if the built
/// module does not verify (a bug, not a user error: parseSpec checks the
/// spec).
FailureOr<OwningOpRef<ModuleOp>> buildSpecModule(MLIRContext &context,
                                                 const ProblemSpec &spec);

} // namespace mlir::tcgen

#endif // TCGEN_FRONTEND_BUILDSPEC_H
