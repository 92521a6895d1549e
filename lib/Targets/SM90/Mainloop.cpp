//===- Mainloop.cpp - The sm90 consumers' main loop, typed ------*- C++ -*-===//
//
// This file implements the consumer warpgroups' main loop of the sm90
// kernel with typed op builders: per k-tile the wait for its stage, the
// wgmma descriptors that walk the stage (128B-swizzled tiles, see
// Kernel.cpp), the wgmmas and the stage's release.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Mainloop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>

using namespace mlir;
using namespace mlir::tcgen::sm90;

namespace {

/// Bytes of one 128B-swizzle atom row: a k-tile row of every element type.
constexpr int64_t kSwizzleRowBytes = 128;

/// Bytes a wgmma k-step advances the descriptor's start address: 32 bytes
/// of K along a 128-byte row (K-major) or 16 rows (MN-major).
int64_t kStepBytes(bool kMajor) { return kMajor ? 32 : 16 * kSwizzleRowBytes; }

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

/// The 16-bit element type the register-A path reads (f16 or bf16).
Type halfType(OpBuilder &b, const KernelParams &p) {
  return p.inType == "bf16" ? Type(b.getBF16Type()) : Type(b.getF16Type());
}

/// The wgmma element type of A and B.
NVVM::WGMMATypes wgmmaType(const KernelParams &p) {
  std::optional<NVVM::WGMMATypes> t = NVVM::symbolizeWGMMATypes(p.inType);
  assert(t && "the sm90 back end accepts wgmma element types only");
  return *t;
}

void commitAndWait(OpBuilder &b, Location loc, int64_t pending) {
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
}

/// The inline PTX of a register-A wgmma (see buildRegisterAWgmma): the
/// text and its constraints for `n` accumulators.
std::pair<std::string, std::string> registerAWgmmaAsm(const KernelParams &p) {
  const int64_t n = p.accRegs();
  std::string asmText = "{ .reg .pred p; setp.ne.b32 p, $" +
                        std::to_string(n + 5) + ", 0; " +
                        llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k16."
                                      "f32.{1}.{1} {{",
                                      p.blockN, p.inType)
                            .str();
  for (int64_t i = 0; i < n; ++i)
    asmText += (i ? ", $" : "$") + std::to_string(i);
  asmText +=
      llvm::formatv("}, {{${0}, ${1}, ${2}, ${3}}, ${4}, p, 1, 1, {5}; }", n,
                    n + 1, n + 2, n + 3, n + 4, p.bKMajor ? 0 : 1)
          .str();
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  constraints += "r,r,r,r,l,r";
  for (int64_t i = 0; i < n; ++i)
    constraints += "," + std::to_string(i);
  return {asmText, constraints};
}

} // namespace

Type mlir::tcgen::sm90::accumulatorType(MLIRContext *ctx,
                                        const KernelParams &p) {
  SmallVector<Type> fields(p.accRegs(), Float32Type::get(ctx));
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

Value mlir::tcgen::sm90::buildRegisterAStage(OpBuilder &b, Location loc,
                                             const KernelParams &,
                                             const MainloopValues &v,
                                             Value stage) {
  Value s = arith::IndexCastOp::create(b, loc, b.getI32Type(), stage);
  Value offset = arith::MulIOp::create(b, loc, s, v.pStageBytes);
  return arith::AddIOp::create(b, loc, v.pRing32, offset);
}

std::array<Value, 4> mlir::tcgen::sm90::buildRegisterAFragment(
    OpBuilder &b, Location loc, const KernelParams &p, const MainloopValues &v,
    Value stageAddr, int64_t kk) {
  MLIRContext *ctx = b.getContext();
  Type t = halfType(b, p);
  Type i32 = b.getI32Type();
  auto pairType = VectorType::get({2}, t);
  Value address = arith::AddIOp::create(b, loc, stageAddr, v.raOff[kk]);
  Value ptr = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 3), address);
  Type quad = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
  Value matrices = NVVM::LdMatrixOp::create(
      b, loc, quad, ptr, /*num=*/4,
      p.aMNMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
  std::array<Value, 4> out;
  for (int64_t j = 0; j < 4; ++j) {
    Value r = LLVM::ExtractValueOp::create(b, loc, matrices, j);
    Value pair = LLVM::BitcastOp::create(b, loc, pairType, r);
    Value xa = vector::ExtractOp::create(b, loc, pair, int64_t(0));
    Value xb = vector::ExtractOp::create(b, loc, pair, int64_t(1));
    Value ya =
        func::CallOp::create(b, loc, kPrologueFuncName, t, xa).getResult(0);
    Value yb =
        func::CallOp::create(b, loc, kPrologueFuncName, t, xb).getResult(0);
    Value wa = vector::InsertOp::create(b, loc, ya, pair, int64_t(0));
    Value wb = vector::InsertOp::create(b, loc, yb, wa, int64_t(1));
    out[j] = LLVM::BitcastOp::create(b, loc, i32, wb);
  }
  return out;
}

Value mlir::tcgen::sm90::buildRegisterAWgmma(OpBuilder &b, Location loc,
                                             const KernelParams &p,
                                             const MainloopValues &v,
                                             ArrayRef<Value> frag, Value descB,
                                             Value input, bool zeroScale) {
  assert(frag.size() == 4 && "an A fragment is four registers");
  auto [asmText, constraints] = registerAWgmmaAsm(p);
  SmallVector<Value> operands(frag.begin(), frag.end());
  operands.push_back(descB);
  operands.push_back(zeroScale ? v.raZero : v.raOne);
  for (int64_t i = 0; i < p.accRegs(); ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, input, i));
  return LLVM::InlineAsmOp::create(
             b, loc, input.getType(), operands, asmText, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

Value mlir::tcgen::sm90::buildFullWait(OpBuilder &b, Location loc,
                                       const KernelParams &,
                                       const MainloopValues &v, Value it) {
  Value stage = arith::RemUIOp::create(b, loc, it, v.cStages);
  Value round = arith::DivUIOp::create(b, loc, it, v.cStages);
  Value parity = arith::IndexCastOp::create(b, loc, b.getI1Type(), round);
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, v.full, parity, v.ticks,
                                         stage);
  return stage;
}

StageAddresses mlir::tcgen::sm90::buildStageAddresses(OpBuilder &b,
                                                      Location loc,
                                                      const KernelParams &,
                                                      const MainloopValues &v,
                                                      Value stage, bool withA) {
  StageAddresses out;
  out.index = stage;
  Value s = arith::IndexCastOp::create(b, loc, b.getI64Type(), stage);
  Value offset = arith::MulIOp::create(b, loc, s, v.cStageBytesI);
  out.stage = arith::AddIOp::create(b, loc, v.ring, offset);
  if (withA)
    out.aAddr = arith::AddIOp::create(b, loc, out.stage, v.aSlab);
  out.bAddr = arith::AddIOp::create(b, loc, out.stage, v.cATile);
  return out;
}

Value mlir::tcgen::sm90::buildStepDescriptor(OpBuilder &b, Location loc,
                                             const KernelParams &,
                                             const MainloopValues &v, bool isA,
                                             int64_t kk, Value addr, Value &lo,
                                             int64_t offset) {
  // Step 0 builds the tile's low word once (address >> 4 or'ed with the
  // constant fields); every step adds offset / 16 to it (the start
  // address never carries: shared addresses stay below 2^18) and pairs it
  // with the constant high word.
  if (kk == 0) {
    Value shifted = arith::ShRUIOp::create(b, loc, addr, v.c4i);
    Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), shifted);
    lo = arith::OrIOp::create(b, loc, isA ? v.descALoWord : v.descBLoWord, low);
  }
  assert(offset % 16 == 0 && "descriptor offsets are 16-byte units");
  Value step = i32Const(b, loc, offset / 16);
  Value stepLo = arith::AddIOp::create(b, loc, lo, step);
  Value pair = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, b.getI32Type()),
      ValueRange{stepLo, isA ? v.descAHiWord : v.descBHiWord});
  Value wide = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI64Type()), pair);
  return vector::ExtractOp::create(b, loc, wide, int64_t(0));
}

Value mlir::tcgen::sm90::buildSmemWgmma(OpBuilder &b, Location loc,
                                        const KernelParams &p,
                                        const MainloopValues &, Value descA,
                                        Value descB, Value input,
                                        bool scaleZero) {
  MLIRContext *ctx = b.getContext();
  NVVM::WGMMATypes t = wgmmaType(p);
  // NVVM spells the PTX transpose bits as layouts: A row = K-major
  // (trans-a 0), B col = K-major (trans-b 0).
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, input.getType(), input, descA, descB,
      NVVM::MMAShapeAttr::get(ctx, 64, p.blockN, p.wgmmaK()), t, t,
      NVVM::WGMMATypes::f32,
      scaleZero ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
      p.aMNMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      p.bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      /*satfinite=*/NVVM::MMAIntOverflowAttr());
}

SmallVector<Value> mlir::tcgen::sm90::buildRowBlockWgmmas(
    OpBuilder &b, Location loc, const KernelParams &p, const MainloopValues &v,
    const StageAddresses &addrs, bool isFirst, ValueRange inputs) {
  const int64_t aStepBytes = kStepBytes(!p.aMNMajor);
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  const int64_t steps = p.blockK / p.wgmmaK();
  // The B descriptors of every k-step, then per row block (its A slab
  // 8 KiB further on) its k-steps on its own accumulator.
  SmallVector<Value> descB;
  Value bLo;
  for (int64_t kk = 0; kk < steps; ++kk)
    descB.push_back(buildStepDescriptor(b, loc, p, v, /*isA=*/false, kk,
                                        addrs.bAddr, bLo, kk * bStepBytes));
  SmallVector<Value> results;
  for (int64_t rb = 0; rb < p.rowBlocks; ++rb) {
    Value aAddr = arith::AddIOp::create(b, loc, addrs.aAddr, v.cRowBlock[rb]);
    Value prev = inputs[rb];
    Value aLo;
    for (int64_t kk = 0; kk < steps; ++kk) {
      Value descA = buildStepDescriptor(b, loc, p, v, /*isA=*/true, kk, aAddr,
                                        aLo, kk * aStepBytes);
      prev = buildSmemWgmma(b, loc, p, v, descA, descB[kk], prev,
                            isFirst && kk == 0);
    }
    results.push_back(prev);
  }
  commitAndWait(b, loc, 1);
  return results;
}

SmallVector<Value> mlir::tcgen::sm90::buildKTile(OpBuilder &b, Location loc,
                                                 const KernelParams &p,
                                                 const MainloopValues &v,
                                                 Value it, bool isFirst,
                                                 ValueRange inputs) {
  const int64_t aStepBytes = kStepBytes(!p.aMNMajor);
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  Value stage = buildFullWait(b, loc, p, v, it);
  StageAddresses addrs =
      buildStageAddresses(b, loc, p, v, stage, /*withA=*/true);
  if (p.hasPrologue()) {
    assert(v.prologue && "a fused prologue needs its emitter");
    v.prologue(b, loc, stage);
  }
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  if (p.rowBlocks > 1)
    return buildRowBlockWgmmas(b, loc, p, v, addrs, isFirst, inputs);
  Value prev = inputs.front();
  Value aLo, bLo;
  for (int64_t kk = 0; kk < p.blockK / p.wgmmaK(); ++kk) {
    Value descA = buildStepDescriptor(b, loc, p, v, /*isA=*/true, kk,
                                      addrs.aAddr, aLo, kk * aStepBytes);
    Value descB = buildStepDescriptor(b, loc, p, v, /*isA=*/false, kk,
                                      addrs.bAddr, bLo, kk * bStepBytes);
    prev = buildSmemWgmma(b, loc, p, v, descA, descB, prev, isFirst && kk == 0);
  }
  commitAndWait(b, loc, 1);
  return {prev};
}

RegisterKTile mlir::tcgen::sm90::buildKTileRegs(
    OpBuilder &b, Location loc, const KernelParams &p, const MainloopValues &v,
    Value it, Value next, bool isFirst, Value input, ArrayRef<Value> f0) {
  // wgmma reads its A registers asynchronously, and PTX forbids writing
  // them before the group that reads them is retired: a k-tile whose one
  // group read fragments the next k-tile had already rewritten gave wrong
  // results from N = 192 on. So each k-step is its own group with
  // fragments of its own (F0 .. F3), and step kk first loads the next
  // step's fragment, then fences, multiplies, commits and waits until at
  // most two groups are in flight: the fragment a step rewrites was last
  // read three groups earlier (the pattern of CUTLASS's register-A
  // mainloop). The last step loads the next k-tile's F0 from stage `next`
  // after its own group is issued, so that waiting for that stage does not
  // hold back this k-tile's last wgmma.
  const int64_t bStepBytes = kStepBytes(p.bKMajor);
  const int64_t steps = p.blockK / p.wgmmaK();
  Value stage = arith::RemUIOp::create(b, loc, it, v.cStages);
  StageAddresses addrs =
      buildStageAddresses(b, loc, p, v, stage, /*withA=*/false);
  Value stageAddr = buildRegisterAStage(b, loc, p, v, stage);
  SmallVector<std::array<Value, 4>> frags(steps);
  frags[0] = {f0[0], f0[1], f0[2], f0[3]};
  RegisterKTile out;
  Value prev = input;
  Value bLo;
  for (int64_t kk = 0; kk < steps; ++kk) {
    if (kk + 1 < steps)
      frags[kk + 1] = buildRegisterAFragment(b, loc, p, v, stageAddr, kk + 1);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value descB = buildStepDescriptor(b, loc, p, v, /*isA=*/false, kk,
                                      addrs.bAddr, bLo, kk * bStepBytes);
    prev = buildRegisterAWgmma(b, loc, p, v, frags[kk], descB, prev,
                               isFirst && kk == 0);
    commitAndWait(b, loc, 2);
    if (kk + 1 == steps) {
      // The next k-tile's F0, once this k-tile's last group is issued.
      Value nextStage = buildFullWait(b, loc, p, v, next);
      Value nextAddr = buildRegisterAStage(b, loc, p, v, nextStage);
      out.nextF0 = buildRegisterAFragment(b, loc, p, v, nextAddr, 0);
    }
    if (!isFirst && kk == 1) {
      // The previous k-tile's groups are retired: release its stage.
      Value prevIt = arith::SubIOp::create(b, loc, it, v.c1);
      Value prevStage = arith::RemUIOp::create(b, loc, prevIt, v.cStages);
      buildRelease(b, loc, p, v, prevStage);
    }
  }
  out.acc = prev;
  return out;
}

void mlir::tcgen::sm90::buildRelease(OpBuilder &b, Location loc,
                                     const KernelParams &p,
                                     const MainloopValues &v, Value stage) {
  if (p.clusterSize() == 1) {
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), v.empty, stage);
    return;
  }
  // Lane 0 of every consumer warp arrives on the stage's empty barrier of
  // both blocks (8 bytes a stage from the mapped barrier 0), predicated so
  // that the wgmma chain stays on a uniform path.
  Value index = arith::IndexCastOp::create(b, loc, b.getI32Type(), stage);
  Value offset = arith::MulIOp::create(b, loc, index, v.c8bar);
  Value r0 = arith::AddIOp::create(b, loc, v.emptyR0, offset);
  Value r1 = arith::AddIOp::create(b, loc, v.emptyR1, offset);
  LLVM::InlineAsmOp::create(
      b, loc, /*res=*/Type(), ValueRange{r0, r1, v.lane32},
      "{ .reg .pred p; setp.eq.u32 p, $2, 0; @p "
      "mbarrier.arrive.shared::cluster.b64 _, [$0]; @p "
      "mbarrier.arrive.shared::cluster.b64 _, [$1]; }",
      "r,r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

/// The register-A main loop (buildMainLoop's): the item's first fragment,
/// the peeled first k-tile, then the loop carrying the accumulator and the
/// next k-tile's first fragment.
static Value buildRegisterAMainLoop(OpBuilder &b, Location loc,
                                    const KernelParams &p,
                                    const MainloopValues &v, Value it0,
                                    Value len, Value undef) {
  Value s0 = buildFullWait(b, loc, p, v, it0);
  Value stageAddr = buildRegisterAStage(b, loc, p, v, s0);
  std::array<Value, 4> f0 = buildRegisterAFragment(b, loc, p, v, stageAddr, 0);
  Value itEnd = arith::AddIOp::create(b, loc, it0, len);
  Value itLast = arith::SubIOp::create(b, loc, itEnd, v.c1);
  Value it1 = arith::AddIOp::create(b, loc, it0, v.c1);
  Value itNext1 = arith::MinUIOp::create(b, loc, it1, itLast);
  RegisterKTile first = buildKTileRegs(b, loc, p, v, it0, itNext1,
                                       /*isFirst=*/true, undef, f0);
  SmallVector<Value> inits = {first.acc};
  inits.append(first.nextF0.begin(), first.nextF0.end());
  auto loop = scf::ForOp::create(
      b, loc, v.c1, len, v.c1, inits,
      [&](OpBuilder &lb, Location l, Value kt, ValueRange args) {
        Value it = arith::AddIOp::create(lb, l, it0, kt);
        Value itP1 = arith::AddIOp::create(lb, l, it, v.c1);
        Value itN = arith::MinUIOp::create(lb, l, itP1, itLast);
        RegisterKTile last =
            buildKTileRegs(lb, l, p, v, it, itN, /*isFirst=*/false,
                           args.front(), SmallVector<Value>(args.drop_front()));
        SmallVector<Value> yields = {last.acc};
        yields.append(last.nextF0.begin(), last.nextF0.end());
        scf::YieldOp::create(lb, l, yields);
      });
  return loop.getResult(0);
}

/// One wgmma chain over `len` k-tiles from ring counter `it0`, the
/// accumulators from zero (buildMainLoop without promotion).
static MainloopResult buildChain(OpBuilder &b, Location loc,
                                 const KernelParams &p,
                                 const MainloopValues &v, Value it0,
                                 Value len);

/// Elementwise sum of two accumulator structs.
static Value addAccumulators(OpBuilder &b, Location loc,
                             const KernelParams &p, Value x, Value y) {
  Value out = x;
  for (int64_t i = 0; i < p.accRegs(); ++i) {
    Value a = LLVM::ExtractValueOp::create(b, loc, x, i);
    Value c = LLVM::ExtractValueOp::create(b, loc, y, i);
    Value s = LLVM::FAddOp::create(b, loc, a, c);
    out = LLVM::InsertValueOp::create(b, loc, out, s, i);
  }
  return out;
}

MainloopResult mlir::tcgen::sm90::buildMainLoop(OpBuilder &b, Location loc,
                                                const KernelParams &p,
                                                const MainloopValues &v,
                                                Value it0, Value len) {
  if (p.promoteKTiles <= 0)
    return buildChain(b, loc, p, v, it0, len);
  // Groups of promoteKTiles k-tiles, each its own chain (the last one
  // shorter), their sums added into f32 registers.
  Value group = arith::ConstantOp::create(b, loc, b.getIndexAttr(p.promoteKTiles));
  Value groupLess = arith::SubIOp::create(b, loc, group, v.c1);
  Value padded = arith::AddIOp::create(b, loc, len, groupLess);
  Value groups = arith::DivUIOp::create(b, loc, padded, group);
  Value c0 = arith::ConstantOp::create(b, loc, b.getIndexAttr(0));
  Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType(b.getContext(), p));
  SmallVector<Value> zeros(p.prologueInRegisters ? 1 : p.rowBlocks, zero);
  auto loop = scf::ForOp::create(
      b, loc, c0, groups, v.c1, zeros,
      [&](OpBuilder &lb, Location l, Value g, ValueRange sums) {
        Value done = arith::MulIOp::create(lb, l, g, group);
        Value start = arith::AddIOp::create(lb, l, it0, done);
        Value left = arith::SubIOp::create(lb, l, len, done);
        Value count = arith::MinUIOp::create(lb, l, left, group);
        MainloopResult chain = buildChain(lb, l, p, v, start, count);
        SmallVector<Value> next;
        for (auto [sum, acc] : llvm::zip(sums, chain.acc))
          next.push_back(addAccumulators(lb, l, p, sum, acc));
        scf::YieldOp::create(lb, l, next);
      });
  MainloopResult out;
  out.acc.append(loop.getResults().begin(), loop.getResults().end());
  out.itNext = arith::AddIOp::create(b, loc, it0, len);
  return out;
}

static MainloopResult buildChain(OpBuilder &b, Location loc,
                                 const KernelParams &p,
                                 const MainloopValues &v, Value it0,
                                 Value len) {
  // The first k-tile of every item is peeled: its first wgmma runs with
  // scale-d = 0 on an undefined accumulator, so that no instruction other
  // than wgmma writes the accumulator registers.
  Value undef =
      LLVM::UndefOp::create(b, loc, accumulatorType(b.getContext(), p));
  MainloopResult out;
  if (p.prologueInRegisters) {
    out.acc.push_back(buildRegisterAMainLoop(b, loc, p, v, it0, len, undef));
  } else {
    // One accumulator per row block, carried together.
    SmallVector<Value> undefs(p.rowBlocks, undef);
    SmallVector<Value> first =
        buildKTile(b, loc, p, v, it0, /*isFirst=*/true, undefs);
    auto loop = scf::ForOp::create(
        b, loc, v.c1, len, v.c1, first,
        [&](OpBuilder &lb, Location l, Value kt, ValueRange args) {
          Value it = arith::AddIOp::create(lb, l, it0, kt);
          SmallVector<Value> last =
              buildKTile(lb, l, p, v, it, /*isFirst=*/false, args);
          // The previous k-tile's wgmma group is done: release its stage.
          Value prevIt = arith::SubIOp::create(lb, l, it, v.c1);
          Value prevStage = arith::RemUIOp::create(lb, l, prevIt, v.cStages);
          buildRelease(lb, l, p, v, prevStage);
          scf::YieldOp::create(lb, l, last);
        });
    out.acc.append(loop.getResults().begin(), loop.getResults().end());
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  // The item's last stage is read: release it (the producer may already be
  // filling the ring for the next item while the epilogue runs).
  out.itNext = arith::AddIOp::create(b, loc, it0, len);
  Value lastIt = arith::SubIOp::create(b, loc, out.itNext, v.c1);
  Value lastStage = arith::RemUIOp::create(b, loc, lastIt, v.cStages);
  buildRelease(b, loc, p, v, lastStage);
  return out;
}
