//===- OperandMaps.h - How the sm90 kernel reads its operands ---*- C++ -*-===//
//
// The tensor maps of the sm90 kernel's operands as the builder plans them:
// their dimension order with several batch dimensions, and the strides a
// kernel of sizes known only at run time can read.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_LIB_TARGETS_SM90_OPERANDMAPS_H
#define TCGEN_LIB_TARGETS_SM90_OPERANDMAPS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <vector>

namespace mlir::tcgen::sm90 {

/// With several batch dimensions: the dimensions of the tensor map the runtime
/// builds for the operand `v` (a statically shaped row-major memref whose
/// batch dimension i is stored at batchPos[i], or absent where that is -1;
/// the matrix dimensions stored transposed or not), innermost first, as
/// KernelParams codes: the stored innermost dimension kMapInner, the other
/// matrix dimension kMapOuter, batch dimension i as i, or kMapBroadcast
/// where the operand lacks it. The runtime's rule (tensorMapLayout): the
/// manifest lists the operand batch-first, then its logical rows and
/// columns (a batch dimension the operand lacks with stride 0); a
/// dimension of extent 1 or stride 0 keeps its slot (rank - 1 - its index
/// there), the others go innermost first by increasing stride.
std::vector<int> tensorMapDims(Value v, ArrayRef<int64_t> batchPos,
                               bool transposed);

/// With sizes known only at run time the kernel reads `v` (the operand
/// `name`) through a tensor map over the caller's strides, and there are
/// no copies: fails, naming the operand and the remedy, where one of its
/// strides is known here and is not a multiple of 16 bytes (TMA's rule),
/// which no launch could satisfy. Strides known only at launch are the
/// runtime's to check.
LogicalResult checkDynamicTensorMapStrides(Operation *op, StringRef name,
                                           Value v);

} // namespace mlir::tcgen::sm90

#endif // TCGEN_LIB_TARGETS_SM90_OPERANDMAPS_H
