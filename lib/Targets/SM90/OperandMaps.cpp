//===- OperandMaps.cpp - How the sm90 kernel reads its operands -*- C++ -*-===//
//
// This file implements the tensor-map planning helpers of OperandMaps.h.
//
//===----------------------------------------------------------------------===//

#include "OperandMaps.h"

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

using namespace mlir;

std::vector<int> mlir::tcgen::sm90::tensorMapDims(Value v, ArrayRef<int64_t> batchPos,
                                      bool transposed) {
  auto type = cast<MemRefType>(v.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t storedRank = shape.size(), nb = batchPos.size(), rank = nb + 2;
  SmallVector<int64_t> storedStride(storedRank);
  for (int64_t d = storedRank - 1, s = 1; d >= 0; s *= shape[d], --d)
    storedStride[d] = s;
  // Per manifest dimension: its code, the stored dimension it is (-1 for
  // a broadcast) and whether it keeps its slot.
  SmallVector<int> code(rank);
  SmallVector<int64_t> stored(rank, -1);
  SmallVector<int64_t> matrixDims;
  for (int64_t d = 0; d < storedRank; ++d)
    if (!llvm::is_contained(batchPos, d))
      matrixDims.push_back(d);
  for (auto [i, d] : llvm::enumerate(batchPos)) {
    code[i] = d < 0 ? sm90::KernelParams::kMapBroadcast : int(i);
    stored[i] = d;
  }
  // The logical [rows][cols]: the stored order, or swapped if transposed.
  int64_t rowsDim = matrixDims[transposed ? 1 : 0];
  int64_t colsDim = matrixDims[transposed ? 0 : 1];
  stored[nb] = rowsDim;
  stored[nb + 1] = colsDim;
  code[nb] = rowsDim == matrixDims[1] ? sm90::KernelParams::kMapInner
                                      : sm90::KernelParams::kMapOuter;
  code[nb + 1] = colsDim == matrixDims[1] ? sm90::KernelParams::kMapInner
                                          : sm90::KernelParams::kMapOuter;
  auto keepsPlace = [&](int64_t i) {
    return stored[i] < 0 || shape[stored[i]] == 1;
  };
  SmallVector<int64_t> slot(rank, -1), byStride;
  for (int64_t i = 0; i < rank; ++i) {
    if (keepsPlace(i))
      slot[rank - 1 - i] = i;
    else
      byStride.push_back(i);
  }
  llvm::stable_sort(byStride, [&](int64_t x, int64_t y) {
    if (storedStride[stored[x]] != storedStride[stored[y]])
      return storedStride[stored[x]] < storedStride[stored[y]];
    return x > y;
  });
  for (int64_t i = 0, next = 0; i < rank; ++i)
    if (slot[i] < 0)
      slot[i] = byStride[next++];
  std::vector<int> dims;
  for (int64_t i : slot)
    dims.push_back(code[i]);
  return dims;
}

LogicalResult mlir::tcgen::sm90::checkDynamicTensorMapStrides(Operation *op,
                                                              StringRef name,
                                                              Value v) {
  // The kernel's operands are buffers by now.
  auto type = dyn_cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(strides, offset)))
    return success();
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  for (auto [d, stride] : llvm::enumerate(strides)) {
    // Stride 1 is the innermost; an extent-1 dimension's is never used.
    if (ShapedType::isDynamic(stride) || stride == 1 ||
        type.getDimSize(d) == 1 || bytes == 0 || (stride * bytes) % 16 == 0)
      continue;
    return op->emitOpError("with sizes known only at run time the sm90 "
                           "kernel reads ")
           << name << " through TMA, with no copies: dimension " << d << " of "
           << name << " " << type << " has a stride of " << stride
           << " elements (" << stride * bytes
           << " bytes), not a multiple of 16 bytes, which TMA needs; give "
              "the sizes at compile time (the kernel then copies such rows) "
              "or rows a multiple of 16 bytes apart";
  }
  return success();
}
