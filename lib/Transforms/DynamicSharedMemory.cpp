//===- DynamicSharedMemory.cpp - Shared tiles past 48 KiB -------*- C++ -*-===//
//
// This file implements tcgen-dynamic-shared-memory: a launch whose static
// shared buffers exceed the static limit gets them as views of one dynamic
// shared region instead.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Transforms/Passes.h"

#include "tcgen/Transforms/LoopTags.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENDYNAMICSHAREDMEMORYPASS
#include "tcgen/Transforms/Passes.h.inc"

namespace {

constexpr llvm::StringLiteral kRegionName = "__tcgen_dsmem";
/// Each buffer starts on a 128-byte boundary of the region (a bank line).
constexpr int64_t kBufferAlign = 128;

static bool isSharedGlobal(memref::GlobalOp global) {
  return nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(global.getType());
}

static int64_t bufferBytes(MemRefType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

struct DynamicSharedMemoryPass final
    : impl::TCGenDynamicSharedMemoryPassBase<DynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto module = func->getParentOfType<ModuleOp>();
    if (!module)
      return;
    SymbolTable symbols(module);
    SmallVector<gpu::LaunchOp> launches;
    func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(moveSharedBuffersToDynamic(launch, symbols, staticLimit)))
        return signalPassFailure();
  }

};
} // namespace
} // namespace mlir::tcgen

mlir::LogicalResult mlir::tcgen::moveSharedBuffersToDynamic(
    gpu::LaunchOp launch, SymbolTable &symbols, int64_t staticLimit) {
  using namespace mlir;
  using namespace mlir::tcgen;
  // The shared globals the launch reads, in order of first use.
  llvm::MapVector<memref::GlobalOp, SmallVector<memref::GetGlobalOp>> uses;
  WalkResult walk = launch.walk([&](memref::GetGlobalOp get) {
    auto global = symbols.lookup<memref::GlobalOp>(get.getName());
    if (!global)
      return WalkResult::advance();
    if (!isSharedGlobal(global))
      return WalkResult::advance();
    if (!global.getType().hasStaticShape() ||
        !global.getType().getLayout().isIdentity()) {
      get.emitOpError("shared buffer ")
          << global.getSymName()
          << " must have a static shape and identity layout to move into "
             "dynamic shared memory";
      return WalkResult::interrupt();
    }
    uses[global].push_back(get);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (uses.empty() || launch.getDynamicSharedMemorySize())
    return success();
  int64_t total = 0;
  SmallVector<int64_t> offsets;
  for (auto &[global, gets] : uses) {
    total = llvm::alignTo(total, kBufferAlign);
    offsets.push_back(total);
    total += bufferBytes(global.getType());
  }
  if (total <= staticLimit)
    return success();

  MLIRContext *ctx = launch.getContext();
  Attribute space = uses.front().first.getType().getMemorySpace();
  auto regionType = MemRefType::get({0}, IntegerType::get(ctx, 8),
                                    MemRefLayoutAttrInterface(), space);
  auto region = symbols.lookup<memref::GlobalOp>(kRegionName);
  if (!region) {
    OpBuilder mb(symbols.getOp()->getRegion(0));
    mb.setInsertionPointToStart(&symbols.getOp()->getRegion(0).front());
    region = memref::GlobalOp::create(
        mb, launch.getLoc(), kRegionName, /*sym_visibility=*/StringAttr(),
        regionType, /*initial_value=*/Attribute(), /*constant=*/false,
        mb.getI64IntegerAttr(16));
    symbols.insert(region);
  }

  Block &body = launch.getBody().front();
  OpBuilder b(&body, body.begin());
  Location loc = launch.getLoc();
  Value base =
      memref::GetGlobalOp::create(b, loc, regionType, kRegionName);
  auto bytesType =
      MemRefType::get({total}, IntegerType::get(ctx, 8),
                      MemRefLayoutAttrInterface(), space);
  Value bytes = memref::ReinterpretCastOp::create(
      b, loc, bytesType, base, /*offset=*/0, /*sizes=*/{total},
      /*strides=*/{1});
  // All views first: the builder's insertion point is the body's first
  // original op, which may be one of the reads replaced below.
  SmallVector<Value> views;
  for (auto [i, entry] : llvm::enumerate(uses)) {
    Value offset = arith::ConstantIndexOp::create(b, loc, offsets[i]);
    views.push_back(memref::ViewOp::create(b, loc, entry.first.getType(),
                                           bytes, offset, ValueRange{}));
  }
  for (auto [i, entry] : llvm::enumerate(uses)) {
    for (memref::GetGlobalOp get : entry.second) {
      get.getResult().replaceAllUsesWith(views[i]);
      get.erase();
    }
  }
  OpBuilder lb(launch);
  Value size = arith::ConstantOp::create(lb, loc, lb.getI32IntegerAttr(total));
  launch.getDynamicSharedMemorySizeMutable().assign(size);

  // Buffers nothing reads any more go.
  for (auto &[global, gets] : uses)
    if (SymbolTable::symbolKnownUseEmpty(global, symbols.getOp()))
      symbols.erase(global);
  return success();
}

