//===- SM90EpilogueTest.cpp - The typed epilogue is the text ---*- C++ -*-===//
//
// This file tests that the sm90 epilogue built with typed ops
// (Epilogue.h) is the epilogue the text renderer writes, op for op: the
// rendered kernel is parsed with its values' names, each piece of the
// epilogue is rebuilt with the typed functions from the values of those
// names, the text's ops are erased, and the module must print as before.
//
//===----------------------------------------------------------------------===//

#include "EpilogueSubstitution.h"

#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;
using namespace mlir::tcgen::sm90::epiloguecheck;

namespace {

/// Rebuilds every piece of the epilogue of the kernel `p` with the typed
/// functions and expects the module to print as the text's did.
void expectTypedEqualsText(const KernelParams &p) {
  MLIRContext ctx;
  loadDialects(ctx);
  std::unique_ptr<NamedKernel> k = parseNamed(ctx, renderKernelModule(p));
  ASSERT_TRUE(k) << "the rendered kernel does not parse";
  const std::string text = print(*k->module);
  auto same = [&](StringRef piece) {
    std::string typed = print(*k->module);
    EXPECT_TRUE(text == typed)
        << piece.str() << " differs at " << firstDifference(text, typed);
    return text == typed;
  };
  EXPECT_EQ(substituteTypedEpilogue(*k, p, same), "");
  EXPECT_TRUE(succeeded(verify(*k->module)));
}

/// A 2048^3 f16 kernel: 128 x 128 tiles, stores from registers.
KernelParams base() {
  KernelParams p;
  p.name = "k";
  p.m = p.n = p.k = 2048;
  p.blockM = 128;
  p.blockN = 128;
  p.stages = 4;
  p.outType = "f16";
  return p;
}

/// `p` with a fused epilogue on the operands `kinds` (of type `type`).
KernelParams fused(KernelParams p, ArrayRef<const char *> kinds,
                   StringRef type = "f16") {
  p.fusedEpilogue = true;
  p.matmulType = p.outType;
  for (const char *kind : kinds)
    p.epilogueOperands.push_back({kind, type.str()});
  return p;
}

TEST(SM90Epilogue, RegisterStores) {
  KernelParams p = base();
  expectTypedEqualsText(p);
  p.outType = "f32";
  p.blockN = 256;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, RaggedRegisterStores) {
  KernelParams p = base();
  p.m = p.n = 1000;
  expectTypedEqualsText(p);
  p.outType = "f32";
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, OddNRegisterStores) {
  KernelParams p = base();
  p.m = 1000;
  p.n = 1001;
  expectTypedEqualsText(p);
  p.m = 1024;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, TmaStores) {
  KernelParams p = base();
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p.outType = "f32";
  p.blockN = 256;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, TmaStoresOfAnOverlappingLastChunk) {
  KernelParams p = base();
  p.tmaStore = true;
  p.blockN = 160;
  p.m = p.n = 1536;
  expectTypedEqualsText(p);
  p.outType = "f32";
  p.blockN = 144;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, StagedStores) {
  KernelParams p = base();
  p.stagedStore = true;
  p.m = 1000;
  p.n = 1001;
  expectTypedEqualsText(p);
  p.outType = "f32";
  p.blockN = 160;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, ColumnMajorC) {
  KernelParams p = base();
  p.cColumnMajor = true;
  p.outType = "f32";
  expectTypedEqualsText(p);
  p.m = p.n = 1000;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, TransposedTmaStores) {
  KernelParams p = base();
  p.cColumnMajor = true;
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p.blockN = 80;
  p.m = 4096;
  p.n = 64 * 5;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, FusedOperandsOfEveryKind) {
  KernelParams p = fused(base(), {"scalar", "row", "col", "matrix"});
  expectTypedEqualsText(p);
  p.m = p.n = 1000;
  expectTypedEqualsText(p);
  p.tmaStore = true;
  p.m = p.n = 2048;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, FusedInF32) {
  KernelParams p = base();
  p.outType = "f32";
  p = fused(p, {"row", "matrix", "col"}, "f32");
  expectTypedEqualsText(p);
  p.epilogueOperands[0].type = "bf16";
  p.m = 1000;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, FusedInHalf) {
  KernelParams p = fused(base(), {"row", "scalar", "matrix", "col"});
  p.epilogueInHalf = true;
  expectTypedEqualsText(p);
  p.outType = p.matmulType = "bf16";
  for (auto &e : p.epilogueOperands)
    e.type = "bf16";
  p.tmaStore = true;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, FusedOddNAndColumnMajor) {
  KernelParams p = fused(base(), {"row", "matrix"});
  p.m = 1000;
  p.n = 1001;
  expectTypedEqualsText(p);
  p.n = 1000;
  p.cColumnMajor = true;
  expectTypedEqualsText(p);
  p.m = p.n = 2048;
  p.tmaStore = true;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, FusedSingleColumn) {
  KernelParams p = fused(base(), {"row", "scalar"});
  p.cColumnMajor = true;
  p.n = 1;
  p.blockN = 64;
  expectTypedEqualsText(p);
  p.fusedEpilogue = false;
  p.epilogueOperands.clear();
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, TmaLoadedOperand) {
  KernelParams p = fused(base(), {"row", "matrix"});
  p.tmaStore = true;
  p.tmaEpilogueOperand = 1;
  p.blockN = 256;
  expectTypedEqualsText(p);
  p.outType = p.matmulType = "f32";
  p.epilogueOperands = {{"matrix", "f32"}};
  p.tmaEpilogueOperand = 0;
  p.blockN = 128;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, DynamicSizes) {
  KernelParams p = base();
  p.dynamicShape = true;
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p = fused(p, {"row", "scalar", "col", "matrix"});
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, StreamK) {
  KernelParams p = base();
  p.streamK = true;
  p.outType = "f32";
  p.blockN = 256;
  expectTypedEqualsText(p);
  p.outType = "f16";
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p = fused(p, {"row", "matrix"});
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, RowBlocks) {
  KernelParams p = base();
  p.rowBlocks = 3;
  p.blockM = 192;
  p.blockN = 96;
  p.m = p.n = 1536;
  p.outType = "f32";
  expectTypedEqualsText(p);
  p.tmaStore = true;
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, Batches) {
  KernelParams p = base();
  p.batched = true;
  p.batch = 4;
  p.m = p.n = 1024;
  expectTypedEqualsText(p);
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p.cBatchMiddle = true;
  expectTypedEqualsText(p);
  p = fused(p, {"matrix", "row"});
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, SeveralBatchDimensions) {
  KernelParams p = base();
  p.batched = true;
  p.batchShape = {2, 3};
  p.batch = 6;
  p.m = p.n = 1024;
  p.tmaStore = true;
  using KP = KernelParams;
  p.aMapDims = p.bMapDims = p.cMapDims = {KP::kMapInner, KP::kMapOuter, 1, 0};
  expectTypedEqualsText(p);
  p = fused(p, {"matrix", "col"});
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, BatchFoldedIntoN) {
  // Batch dimension 1 (that A lacks) laid side by side in N: 4 matrices of
  // 128 columns, and 2 matrices along dimension 0.
  KernelParams p = base();
  p.batched = true;
  p.batchShape = {2, 4};
  p.foldDim = 1;
  p.foldN = 128;
  p.n = 512;
  p.batch = 2;
  p.m = 1024;
  p.tmaStore = true;
  using KP = KernelParams;
  p.aMapDims = {KP::kMapInner, KP::kMapOuter, KP::kMapBroadcast, 0};
  p.bMapDims = p.cMapDims = {KP::kMapInner, KP::kMapOuter, 1, 0};
  expectTypedEqualsText(p);
  p = fused(p, {"row"});
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, Clusters) {
  KernelParams p = base();
  p.clusterM = 2;
  p.tmaStore = true;
  expectTypedEqualsText(p);
  p.clusterM = 1;
  p.clusterN = 2;
  p.outType = "f32";
  expectTypedEqualsText(p);
}

TEST(SM90Epilogue, WithPackKernels) {
  // The pack kernels of the module have values of the epilogue's names.
  KernelParams p = base();
  p.inType = "tf32";
  p.blockK = 32;
  p.bKMajor = true;
  p.outType = "f32";
  PackParams pack;
  pack.name = "k_pack_b";
  pack.operand = "B";
  pack.rows = pack.cols = 2048;
  pack.srcStride = pack.dstStride = 2048;
  pack.matrixRows = 2048;
  pack.type = "f32";
  pack.transpose = true;
  p.packs = {pack};
  expectTypedEqualsText(p);
}

} // namespace
