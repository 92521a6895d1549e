//===- RescheduleTest.cpp - Tests of tcgen reschedule's helpers -*- C++ -*-===//
//
// This file implements the unit tests of parseLaunchConfig (every form and
// every malformed one), kernelNameMatches, clangCommand and
// cleanupPipeline (that it keeps the loops' shape), and cleanupLLVMIR.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Reschedule.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

TEST(LaunchConfig, FullAndPartialDimensions) {
  std::string error;
  FailureOr<LaunchConfig> c =
      parseLaunchConfig("grid=8,4,2 block=16,16 smem=1024", error);
  ASSERT_TRUE(succeeded(c)) << error;
  EXPECT_EQ(c->grid, (std::array<int64_t, 3>{8, 4, 2}));
  EXPECT_EQ(c->block, (std::array<int64_t, 3>{16, 16, 1}));
  EXPECT_EQ(c->smem, 1024);

  c = parseLaunchConfig("block=256", error);
  ASSERT_TRUE(succeeded(c)) << error;
  EXPECT_EQ(c->grid, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(c->block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(c->smem, 0);
}

TEST(LaunchConfig, Errors) {
  auto errorOf = [](StringRef text) {
    std::string error;
    EXPECT_TRUE(failed(parseLaunchConfig(text, error))) << text.str();
    return error;
  };
  EXPECT_EQ(errorOf(""), "--launch expects grid=X,Y,Z block=X,Y,Z [smem=B]");
  EXPECT_EQ(errorOf("grid=1"), "--launch needs block=X,Y,Z");
  EXPECT_EQ(errorOf("block"), "--launch expects key=value, got 'block'");
  EXPECT_EQ(errorOf("block=1,2,3,4"),
            "block= takes one to three sizes X,Y,Z, got '1,2,3,4'");
  EXPECT_EQ(errorOf("block=0"), "block= takes positive integers, got '0'");
  EXPECT_EQ(errorOf("block=x"), "block= takes positive integers, got 'x'");
  EXPECT_EQ(errorOf("block=32 smem=-1"), "smem= takes a byte count, got '-1'");
  EXPECT_EQ(errorOf("block=32 stages=3"),
            "--launch knows grid, block and smem, not 'stages'");
  EXPECT_EQ(errorOf("block=32,32,2"),
            "block=32,32,2 has 2048 threads; a block has at most 1024");
}

TEST(KernelName, MangledTemplateAndPlainNames) {
  StringRef mm16 = "_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii";
  EXPECT_TRUE(kernelNameMatches(mm16, mm16));
  EXPECT_TRUE(kernelNameMatches(mm16, "MatrixMulCUDA<16>"));
  EXPECT_TRUE(kernelNameMatches(mm16, "MatrixMulCUDA"));
  EXPECT_FALSE(kernelNameMatches(mm16, "MatrixMulCUDA<32>"));
  EXPECT_FALSE(kernelNameMatches(mm16, "MatrixMul"));
  StringRef transpose = "_Z14transposeTiledPfPKfii";
  EXPECT_TRUE(kernelNameMatches(transpose, "transposeTiled"));
  EXPECT_FALSE(kernelNameMatches(transpose, "transpose"));
  // An extern "C" kernel's symbol is its name.
  EXPECT_TRUE(kernelNameMatches("plain_kernel", "plain_kernel"));
}

TEST(Clang, CommandKeepsLoopsAndAddsLineTablesOnRequest) {
  ClangOptions options;
  std::vector<std::string> cmd = clangCommand(options, "k.cu", "k.ll");
  auto has = [&](StringRef arg) { return llvm::is_contained(cmd, arg.str()); };
  EXPECT_EQ(cmd.front(), "clang-22");
  EXPECT_TRUE(has("--cuda-device-only"));
  EXPECT_TRUE(has("--cuda-gpu-arch=sm_90a"));
  EXPECT_TRUE(has("-disable-llvm-passes"));
  EXPECT_FALSE(has("-gline-tables-only"));
  EXPECT_EQ(cmd[cmd.size() - 3], "k.cu");
  EXPECT_EQ(cmd.back(), "k.ll");
  options.lineInfo = true;
  cmd = clangCommand(options, "k.cu", "k.ll");
  EXPECT_TRUE(has("-gline-tables-only"));
  // No pass of the list rotates, unrolls or vectorizes loops.
  StringRef pipeline = cleanupPipeline();
  for (StringRef pass : {"loop-rotate", "loop-unroll", "vectorize", "licm",
                         "indvars", "loop-simplify"})
    EXPECT_FALSE(pipeline.contains(pass)) << pass.str();
}

TEST(Clang, CleanupPromotesLocalsAndKeepsTheLoopHeader) {
  // for (i = 0; i < n; ++i) p[i] = 0, as clang emits it without passes.
  const char *ir = R"(
define void @k(ptr %p, i32 %n) {
entry:
  %i = alloca i32
  store i32 0, ptr %i
  br label %cond
cond:
  %iv = load i32, ptr %i
  %c = icmp slt i32 %iv, %n
  br i1 %c, label %body, label %exit
body:
  %iv2 = load i32, ptr %i
  %e = sext i32 %iv2 to i64
  %a = getelementptr inbounds float, ptr %p, i64 %e
  store float 0.0, ptr %a
  %next = add nsw i32 %iv2, 1
  store i32 %next, ptr %i
  br label %cond
exit:
  ret void
}
)";
  std::string error;
  FailureOr<std::string> out = cleanupLLVMIR(ir, "test.ll", error);
  ASSERT_TRUE(succeeded(out)) << error;
  EXPECT_EQ(out->find("alloca"), std::string::npos) << *out;
  // The header still tests before the first iteration (not rotated).
  EXPECT_NE(out->find("cond:"), std::string::npos) << *out;
  EXPECT_NE(out->find("phi i32"), std::string::npos) << *out;

  EXPECT_TRUE(failed(cleanupLLVMIR("define void @k( {", "bad.ll", error)));
  EXPECT_NE(error.find("bad.ll"), std::string::npos) << error;
}

} // namespace
