//===- Emit.h - Typed op helpers of the sm90 kernel generator --*- C++ -*-===//
//
// This file implements the small helpers the pieces of the sm90 kernel
// generator (Kernel, Producer, Schedule, Mainloop, Epilogue) share: an
// emitter that creates constants and arith ops at a builder's insertion
// point, and structured-control-flow shorthands. Every helper creates
// exactly one op (or one op and its terminators), so that the pieces emit
// the kernel's ops one for one, in order.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_LIB_TARGETS_SM90_EMIT_H
#define TCGEN_LIB_TARGETS_SM90_EMIT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tcgen::sm90 {

/// Creates ops at `b`'s insertion point at `loc`: one op per call.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Emitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Type indexType() { return b.getIndexType(); }
  Type i1Type() { return b.getI1Type(); }
  Type i32Type() { return b.getI32Type(); }
  Type i64Type() { return b.getI64Type(); }

  /// `arith.constant v : type`.
  Value constant(Type type, int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  }
  Value idx(int64_t v) { return constant(indexType(), v); }
  Value i16(int64_t v) { return constant(b.getI16Type(), v); }
  Value i32(int64_t v) { return constant(i32Type(), v); }
  Value i64(int64_t v) { return constant(i64Type(), v); }
  Value i1(bool v) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v));
  }

  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value maxu(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value mins(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value maxs(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shli(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shru(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// `arith.index_cast` to (or from) index.
  Value indexCast(Type to, Value x) {
    return arith::IndexCastOp::create(b, loc, to, x);
  }
  Value trunc(Type to, Value x) {
    return arith::TruncIOp::create(b, loc, to, x);
  }
};

/// Creates `scf.if %cond` without results or else region and moves `b`
/// into its then block, before the yield; returns the op (the caller moves
/// the insertion point after it when done).
inline scf::IfOp openIf(OpBuilder &b, Location loc, Value cond) {
  auto op = scf::IfOp::create(b, loc, TypeRange(), cond,
                              /*withElseRegion=*/false);
  Block *then = &op.getThenRegion().front();
  if (then->empty() || !then->back().hasTrait<OpTrait::IsTerminator>()) {
    b.setInsertionPointToEnd(then);
    scf::YieldOp::create(b, loc);
  }
  b.setInsertionPoint(then->getTerminator());
  return op;
}

/// Creates `scf.for %iv = lb to ub step step` without iteration arguments
/// and moves `b` into its body, before the yield.
inline scf::ForOp openFor(OpBuilder &b, Location loc, Value lb, Value ub,
                          Value step) {
  auto op = scf::ForOp::create(b, loc, lb, ub, step);
  b.setInsertionPoint(op.getBody()->getTerminator());
  return op;
}

/// The type a KernelParams type name spells (f16, bf16, f32, tf32, e4m3,
/// e5m2, i8); null for another.
inline Type scalarType(MLIRContext *ctx, StringRef name) {
  Builder b(ctx);
  if (name == "f16")
    return b.getF16Type();
  if (name == "bf16")
    return b.getBF16Type();
  if (name == "f32")
    return b.getF32Type();
  if (name == "tf32")
    return b.getTF32Type();
  if (name == "e4m3")
    return b.getType<Float8E4M3FNType>();
  if (name == "e5m2")
    return b.getType<Float8E5M2Type>();
  if (name == "i8")
    return b.getI8Type();
  return Type();
}

/// A shared-memory (address space 3) memref of `shape` x `element`.
inline MemRefType smemType(ArrayRef<int64_t> shape, Type element) {
  return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                         Builder(element.getContext()).getI64IntegerAttr(3));
}

/// `!nvgpu.mbarrier.group` of `count` barriers in workgroup memory.
inline nvgpu::MBarrierGroupType barrierGroupType(MLIRContext *ctx,
                                                 unsigned count) {
  return nvgpu::MBarrierGroupType::get(
      ctx, gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
      count);
}

/// A 128B-swizzled TMA descriptor type of boxes `box` (zero fill, 256-byte
/// L2 promotion).
inline nvgpu::TensorMapDescriptorType tensorMapType(MemRefType box) {
  return nvgpu::TensorMapDescriptorType::get(
      box.getContext(), box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

} // namespace mlir::tcgen::sm90

#endif // TCGEN_LIB_TARGETS_SM90_EMIT_H
