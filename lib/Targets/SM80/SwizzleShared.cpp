//===- SwizzleShared.cpp - XOR swizzle of the shared tiles ------*- C++ -*-===//
//
// This file implements tcgen-sm80-swizzle-shared: every access to an
// unpadded shared tile of an sm80 kernel goes through the XOR swizzle of
// Swizzle.h, so that ldmatrix and the cp.async stores are conflict-free.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM80/Passes.h"

#include "tcgen/IR/TCGenDialect.h"
#include "tcgen/Targets/SM80/Swizzle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENSM80SWIZZLESHAREDPASS
#include "tcgen/Targets/SM80/Passes.h.inc"

namespace {

static bool isShared(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(memref);
}

/// The swizzled (row, column) of an access at (row, col) to a shared tile
/// of type `type`, built with `b` before the access (Swizzle.h's
/// swizzleChunk, with the offset inside the 16-byte chunk kept).
static std::pair<Value, Value> buildSwizzle(OpBuilder &b, Location loc,
                                            MemRefType type, Value row,
                                            Value col) {
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  int64_t rowBytes = type.getShape()[1] * elemBytes;
  int64_t chunkElems = 16 / elemBytes;
  int64_t chunksPerRow = rowBytes / 16;
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value chunk = arith::DivUIOp::create(b, loc, col, cst(chunkElems));
  Value within = arith::RemUIOp::create(b, loc, col, cst(chunkElems));
  Value newRow = row, newChunk;
  if (rowBytes >= 128) {
    Value key = arith::RemUIOp::create(b, loc, row, cst(8));
    newChunk = arith::XOrIOp::create(b, loc, chunk, key);
  } else {
    int64_t rowsPerLine = 128 / rowBytes;
    Value line = arith::DivUIOp::create(b, loc, row, cst(rowsPerLine));
    Value inLine = arith::RemUIOp::create(b, loc, row, cst(rowsPerLine));
    Value pos = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, inLine, cst(chunksPerRow)),
        chunk);
    Value key = arith::RemUIOp::create(b, loc, line, cst(8));
    Value swizzled = arith::XOrIOp::create(b, loc, pos, key);
    newRow = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, line, cst(rowsPerLine)),
        arith::DivUIOp::create(b, loc, swizzled, cst(chunksPerRow)));
    newChunk = arith::RemUIOp::create(b, loc, swizzled, cst(chunksPerRow));
  }
  Value newCol = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, newChunk, cst(chunkElems)), within);
  return {newRow, newCol};
}

/// An access of a tile the pass rewrites: the memref, its indices and the
/// bytes one access moves per thread and row (ldmatrix: one 16-byte row
/// piece per lane).
struct SharedAccess {
  Value memref;
  MutableOperandRange indices;
  int64_t bytes;
};

/// `op` as an access of a shared tile, or std::nullopt.
static std::optional<SharedAccess> asSharedAccess(Operation *op) {
  auto bytesOf = [](Type elem, int64_t count) {
    return count * elem.getIntOrFloatBitWidth() / 8;
  };
  auto vectorBytes = [&](VectorType t) {
    return bytesOf(t.getElementType(), t.getNumElements());
  };
  std::optional<SharedAccess> access;
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
    access = {copy.getDst(), copy.getDstIndicesMutable(),
              bytesOf(copy.getDst().getType().getElementType(),
                      copy.getDstElements().getSExtValue())};
  else if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(op))
    access = {ld.getSrcMemref(), ld.getIndicesMutable(), 16};
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    access = {load.getBase(), load.getIndicesMutable(),
              vectorBytes(load.getVectorType())};
  else if (auto store = dyn_cast<vector::StoreOp>(op))
    access = {store.getBase(), store.getIndicesMutable(),
              vectorBytes(store.getVectorType())};
  else if (auto load = dyn_cast<memref::LoadOp>(op))
    access = {load.getMemref(), load.getIndicesMutable(),
              bytesOf(load.getType(), 1)};
  else if (auto store = dyn_cast<memref::StoreOp>(op))
    access = {store.getMemref(), store.getIndicesMutable(),
              bytesOf(store.getValueToStore().getType(), 1)};
  if (!access || !isShared(access->memref.getType()))
    return std::nullopt;
  return access;
}

struct SwizzleSharedPass final
    : impl::TCGenSM80SwizzleSharedPassBase<SwizzleSharedPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto config = func->getAttrOfType<ConfigAttr>(kConfigAttrName);
    if (!config || config.getBackend() != "sm80" || config.getPadding() != 0)
      return;
    WalkResult walk = func.walk([&](Operation *op) {
      // Ops that only name or select a tile.
      if (isa<memref::GetGlobalOp, arith::SelectOp>(op))
        return WalkResult::advance();
      std::optional<SharedAccess> access = asSharedAccess(op);
      if (!access) {
        if (llvm::any_of(op->getOperandTypes(), isShared)) {
          op->emitOpError("accesses a swizzled shared tile in a way "
                          "tcgen-sm80-swizzle-shared cannot rewrite");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      auto type = cast<MemRefType>(access->memref.getType());
      int64_t rowBytes =
          type.getRank() == 2
              ? type.getShape()[1] * type.getElementTypeBitWidth() / 8
              : 0;
      if (type.getRank() != 2 || !type.hasStaticShape() ||
          !sm80::canSwizzle(rowBytes)) {
        op->emitOpError("cannot swizzle shared tile ")
            << type << ": rows must be a power of two from 16 to 1024 bytes "
            << "(use padding instead)";
        return WalkResult::interrupt();
      }
      // The swizzle moves whole 16-byte chunks: a wider access would read
      // across two chunks that are no longer neighbours.
      if (access->bytes > 16) {
        op->emitOpError("accesses ")
            << access->bytes << " bytes of a swizzled shared tile at once; "
            << "the XOR swizzle keeps 16-byte chunks together, not wider "
               "accesses";
        return WalkResult::interrupt();
      }
      MutableOperandRange &indices = access->indices;
      OpBuilder b(op);
      auto [row, col] =
          buildSwizzle(b, op->getLoc(), type, indices[0].get(), indices[1].get());
      indices[0].set(row);
      indices[1].set(col);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tcgen
