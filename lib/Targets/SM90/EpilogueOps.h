//===- EpilogueOps.h - Builders shared by the epilogue ---------*- C++ -*-===//
//
// This file declares the small op builders and helpers that the sm90
// epilogue's two files (Epilogue.cpp, EpilogueTile.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_LIB_TARGETS_SM90_EPILOGUEOPS_H
#define TCGEN_LIB_TARGETS_SM90_EPILOGUEOPS_H

#include "tcgen/Targets/SM90/Epilogue.h"

#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tcgen::sm90::epilogue {

/// Fragment column groups whose extra-operand loads are issued together,
/// before their arithmetic and stores: one exposed load latency per group
/// instead of per column group (the loads cannot pass the stores before
/// them: the operands may alias C as far as LLVM knows).
inline constexpr int64_t kEpilogueLoadGroup = 8;

/// Quads of partial accumulators a stream-K finisher loads in one loop:
/// their loads are in flight together (one L2 round trip per group instead
/// of one per quad) while the extra registers (2 x 4 per quad) stay within
/// the consumers' budget.
inline constexpr int64_t kPartialGroup = 8;

/// Whether C has a single column in the kernel's terms and is stored
/// [n][m] (a swapped kernel at M = 1): each pair's second element lies past
/// C, and ptxas serialized the wgmma chain (C7514) when the pair was
/// rounded in one packed cvt (M = 1 with N not a multiple of the tile, or
/// with a fused epilogue; docs/log/NOTES.md), but not with two truncf.
inline bool singleCColumn(const KernelParams &p) {
  return p.cColumnMajor && p.n == 1;
}

/// Whether the epilogue pins each accumulator register after the wgmma
/// wait with an empty volatile asm: with a fused epilogue (its arithmetic)
/// and with odd N (element stores in branches) LLVM otherwise moves reads
/// of the accumulators where ptxas serializes the wgmma chain (C7514).
inline bool pinAccumulators(const KernelParams &p) {
  return p.fusedEpilogue || p.elementwiseC();
}

/// Small builders of the ops the epilogue is made of.
struct Ops : Emitter {
  using Emitter::Emitter;

  Value toI32(Value x) { return indexCast(b.getI32Type(), x); }
  Value toPtr3(Value x) {
    return LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), x);
  }
  Value extract(Value vec, int64_t pos) {
    return vector::ExtractOp::create(b, loc, vec, pos);
  }
  Value bitcast(Type t, Value x) {
    return LLVM::BitcastOp::create(b, loc, t, x);
  }
  /// An inline asm without side effects unless `sideEffects`.
  Value asmOp(Type t, ValueRange args, StringRef text, StringRef constraints,
              bool sideEffects) {
    return LLVM::InlineAsmOp::create(
               b, loc, t, args, text, constraints, sideEffects,
               /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
               /*asm_dialect=*/LLVM::AsmDialectAttr(),
               /*operand_attrs=*/ArrayAttr())
        .getResult(0);
  }
  VectorType vec2Type(Type elt) { return VectorType::get({2}, elt); }
  // Loads and stores without a `nontemporal` attribute (as the kernel's
  // text form writes them; the builders would set it to false).
  Value load(Value memref, ValueRange indices) {
    auto op = memref::LoadOp::create(b, loc, memref, indices);
    op.removeNontemporalAttr();
    return op;
  }
  void store(Value value, Value memref, ValueRange indices) {
    auto op = memref::StoreOp::create(b, loc, value, memref, indices);
    op.removeNontemporalAttr();
  }
  Value vectorLoad(Type type, Value memref, ValueRange indices) {
    auto op = vector::LoadOp::create(b, loc, type, memref, indices);
    op.removeNontemporalAttr();
    return op;
  }
  void vectorStore(Value value, Value memref, ValueRange indices) {
    auto op = vector::StoreOp::create(b, loc, value, memref, indices);
    op.removeNontemporalAttr();
  }
  /// A named barrier for the warpgroup's 128 threads.
  void barrier(Value id, Value threads) {
    NVVM::BarrierOp::create(b, loc, Type(), id, threads,
                            NVVM::BarrierReductionAttr(), Value());
  }
};

/// The TMA-loaded epilogue operand's per-tile values: the bytes of a chunk,
/// the warpgroup's first mbarrier, its first row, its chunk buffers' base
/// (an index into the dynamic shared memory).
struct OperandBase {
  Value c2, tx, bar0, y, bufs;
};

/// Emits the TMA-loaded operand's per-tile values (OperandBase).
OperandBase emitOperandBase(Ops &o, const KernelParams &p,
                            const EpilogueValues &v);

/// The warpgroup's leader (where `leader` holds) loads the operand's chunk
/// cc into buffer cc % 2 with TMA (see Epilogue.cpp).
void emitOperandIssue(Ops &o, const KernelParams &p, const EpilogueValues &v,
                      const OperandBase &base, int64_t cc, Value leader);

} // namespace mlir::tcgen::sm90::epilogue

#endif // TCGEN_LIB_TARGETS_SM90_EPILOGUEOPS_H
