//===- BuildSpecTest.cpp - Tests of the modules specs build -----*- C++ -*-===//
//
// This file implements the unit tests of buildSpecModule: the modules it
// builds verify, and tcgen's analyses (Contraction.cpp, Epilogue.cpp) see
// in them the contraction, the epilogue and the prologue the spec says.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/BuildSpec.h"
#include "tcgen/Analysis/Epilogue.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

class BuildSpecTest : public ::testing::Test {
protected:
  /// Parses and builds `s`; the module must verify.
  ModuleOp build(const SpecStrings &s) {
    SpecError error;
    FailureOr<ProblemSpec> spec = parseSpec(s, error);
    EXPECT_TRUE(succeeded(spec)) << error.str();
    if (failed(spec))
      return {};
    FailureOr<OwningOpRef<ModuleOp>> module = buildSpecModule(context, *spec);
    EXPECT_TRUE(succeeded(module));
    if (failed(module))
      return {};
    owned = std::move(*module);
    return *owned;
  }

  /// The module's one contraction, analyzed.
  FailureOr<ContractionInfo> contraction(ModuleOp module) {
    linalg::LinalgOp found;
    int count = 0;
    module.walk([&](linalg::LinalgOp op) {
      if (isContractionCandidate(op)) {
        found = op;
        ++count;
      }
    });
    EXPECT_EQ(count, 1);
    if (!found)
      return failure();
    return analyzeContraction(found);
  }

  static SpecStrings spec(std::string einsum, std::string sizes) {
    SpecStrings s;
    s.einsum = std::move(einsum);
    s.sizes = std::move(sizes);
    return s;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> owned;
};

TEST_F(BuildSpecTest, PlainMatmulIsAZeroFilledContraction) {
  SpecStrings s = spec("mk,kn->mn", "m=128,n=256,k=64");
  s.name = "mm";
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  auto func = module.lookupSymbol<func::FuncOp>("mm");
  ASSERT_TRUE(func);
  EXPECT_EQ(func.getNumArguments(), 3u);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  EXPECT_EQ(info->m, 128);
  EXPECT_EQ(info->n, 256);
  EXPECT_EQ(info->k, 64);
  EXPECT_FALSE(info->aTransposed);
  EXPECT_FALSE(info->bTransposed);
  EXPECT_TRUE(info->aType.isF16());
  EXPECT_TRUE(info->cType.isF32());
  EXPECT_TRUE(getZeroFillOfOutput(*info));
  std::string whyNot;
  EXPECT_FALSE(findEpilogue(*info, whyNot));
  EXPECT_EQ(whyNot, "");
}

TEST_F(BuildSpecTest, TransposedOperandsAndDynamicSizes) {
  SpecStrings s = spec("km,nk->mn", "m=?,n=512,k=?");
  s.dtypes = "a=bf16,c=bf16";
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  EXPECT_TRUE(ShapedType::isDynamic(info->m));
  EXPECT_EQ(info->n, 512);
  EXPECT_TRUE(ShapedType::isDynamic(info->k));
  EXPECT_TRUE(info->aTransposed);
  EXPECT_TRUE(info->bTransposed);
  EXPECT_TRUE(info->cType.isBF16());
}

TEST_F(BuildSpecTest, BatchedContraction) {
  ModuleOp module = build(spec("bmk,bkn->bmn", "b=4,m=64,n=64,k=32"));
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  EXPECT_TRUE(info->batched);
  EXPECT_EQ(info->batch, 4);
}

TEST_F(BuildSpecTest, EpilogueIsFusible) {
  SpecStrings s = spec("mk,kn->mn", "m=?,n=256,k=64");
  s.dtypes = "c=f16,bias=f32";
  s.epilogue = "gelu_tanh(acc + bias[n]) + res[m,n] * alpha - col[m]";
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  EXPECT_TRUE(info->cType.isF32()); // the accumulator
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue = findEpilogue(*info, whyNot);
  ASSERT_TRUE(epilogue) << whyNot;
  EXPECT_TRUE(epilogue->outType.isF16());
  ASSERT_EQ(epilogue->operands.size(), 4u);
  EXPECT_EQ(epilogue->operands[0].kind, EpilogueOperandKind::Row);
  EXPECT_TRUE(epilogue->operands[0].elementType.isF32());
  EXPECT_EQ(epilogue->operands[1].kind, EpilogueOperandKind::Matrix);
  EXPECT_TRUE(epilogue->operands[1].elementType.isF16());
  EXPECT_EQ(epilogue->operands[2].kind, EpilogueOperandKind::Scalar);
  EXPECT_EQ(epilogue->operands[3].kind, EpilogueOperandKind::Col);
}

TEST_F(BuildSpecTest, CastToCIsAnEpilogue) {
  // f16 does not widen to bf16: an f32 accumulator, converted.
  SpecStrings s = spec("mk,kn->mn", "m=64,n=64,k=64");
  s.dtypes = "a=f16,c=bf16";
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue = findEpilogue(*info, whyNot);
  ASSERT_TRUE(epilogue) << whyNot;
  EXPECT_TRUE(epilogue->matmulType.isF32());
  EXPECT_TRUE(epilogue->outType.isBF16());
}

TEST_F(BuildSpecTest, PrologueIsFusible) {
  SpecStrings s = spec("mk,kn->mn", "m=64,n=64,k=64");
  s.prologues = {"relu(a)", "b * 0.5"};
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  for (Value operand : {info->a, info->b}) {
    std::string whyNot;
    std::optional<PrologueInfo> prologue = findPrologue(*info, operand, whyNot);
    ASSERT_TRUE(prologue) << whyNot;
    EXPECT_TRUE(isa<BlockArgument>(prologue->source));
  }
}

TEST_F(BuildSpecTest, DualGemmIsOneEpilogueOfTwoProducts) {
  SpecStrings s = spec("mk,nk->mn", "m=256,n=384,k=128");
  s.dtypes = "a=bf16,c=bf16";
  s.epilogue = "silu(acc + bias[n]) * acc2";
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  auto func = module.lookupSymbol<func::FuncOp>("einsum");
  ASSERT_TRUE(func);
  // A, B, B2, the bias, C.
  ASSERT_EQ(func.getNumArguments(), 5u);
  EXPECT_EQ(func.getArgument(2).getType(), func.getArgument(1).getType());
  SmallVector<linalg::LinalgOp> products;
  module.walk([&](linalg::LinalgOp op) {
    if (isContractionCandidate(op))
      products.push_back(op);
  });
  ASSERT_EQ(products.size(), 2u);
  FailureOr<ContractionInfo> info = analyzeContraction(products[0]);
  ASSERT_TRUE(succeeded(info));
  std::string whyNot;
  std::optional<EpilogueInfo> epilogue =
      findEpilogue(*info, whyNot, /*allowDualProduct=*/true);
  ASSERT_TRUE(epilogue) << whyNot;
  EXPECT_EQ(epilogue->dualProduct, products[1]);
  EXPECT_EQ(linalg::LinalgOp(products[1]).getDpsInputs()[1],
            func.getArgument(2));
  // The bias, then the second product (read in the accumulator's f32).
  ASSERT_EQ(epilogue->operands.size(), 2u);
  EXPECT_EQ(epilogue->operands[0].kind, EpilogueOperandKind::Row);
  EXPECT_EQ(epilogue->operands[1].kind, EpilogueOperandKind::Product);
  EXPECT_TRUE(epilogue->operands[1].elementType.isF32());
  EXPECT_TRUE(epilogue->matmulType.isF32());
}

TEST_F(BuildSpecTest, AccumulateHasNoFill) {
  SpecStrings s = spec("mk,kn->mn", "m=64,n=64,k=64");
  s.accumulate = true;
  ModuleOp module = build(s);
  ASSERT_TRUE(module);
  FailureOr<ContractionInfo> info = contraction(module);
  ASSERT_TRUE(succeeded(info));
  EXPECT_FALSE(getZeroFillOfOutput(*info));
  EXPECT_TRUE(isa<BlockArgument>(info->c));
}

} // namespace
