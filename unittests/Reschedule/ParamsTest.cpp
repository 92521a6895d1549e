//===- ParamsTest.cpp - Tests of the raw kernel's parameters ----*- C++ -*-===//
//
// This file implements the unit tests of describeKernelParams: pointers
// read, written or both, scalars, and the parameter types it refuses.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"
#include "tcgen/Reschedule/Reschedule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// Parses `text` and describes its first function's parameters; the
/// diagnostics land in `error`.
FailureOr<std::vector<::tcgen::RawParam>> describe(StringRef text,
                                                   std::string &error) {
  static MLIRContext ctx;
  ctx.loadDialect<func::FuncDialect, memref::MemRefDialect, arith::ArithDialect,
                  gpu::GPUDialect>();
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    error = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return failure();
  return describeKernelParams(*module->getOps<func::FuncOp>().begin());
}

TEST(KernelParams, PointersAndScalars) {
  std::string error;
  auto params = describe(R"(
    func.func @k(%out: memref<?xf32>, %in: memref<?xf64>, %acc: memref<?xi32>,
                 %unused: memref<?xi64>, %n: i32, %m: i64, %a: f32, %b: f64) {
      %c0 = arith.constant 0 : index
      %x = memref.load %in[%c0] : memref<?xf64>
      %y = memref.load %acc[%c0] : memref<?xi32>
      memref.store %y, %acc[%c0] : memref<?xi32>
      memref.store %a, %out[%c0] : memref<?xf32>
      return
    })",
                         error);
  ASSERT_TRUE(succeeded(params)) << error;
  ASSERT_EQ(params->size(), 8u);
  const auto &p = *params;
  EXPECT_EQ(p[0].kind, "ptr");
  EXPECT_EQ(p[0].dtype, "f32");
  EXPECT_EQ(p[0].access, "write");
  EXPECT_EQ(p[1].dtype, "f64");
  EXPECT_EQ(p[1].access, "read");
  EXPECT_EQ(p[2].dtype, "i32");
  EXPECT_EQ(p[2].access, "readwrite");
  EXPECT_EQ(p[3].dtype, "i64");
  EXPECT_EQ(p[3].access, "read");
  EXPECT_EQ(p[4].kind, "i32");
  EXPECT_EQ(p[5].kind, "i64");
  EXPECT_EQ(p[6].kind, "f32");
  EXPECT_EQ(p[7].kind, "f64");
}

TEST(KernelParams, Refusals) {
  std::string error;
  EXPECT_TRUE(failed(describe(R"(
    func.func @k(%n: i16) { return })",
                              error)));
  EXPECT_EQ(error, "parameter 0 has type 'i16'; a raw kernel takes pointers to "
                   "and scalars of f32, f64, i32 and i64");
  EXPECT_TRUE(failed(describe(R"(
    func.func @k(%p: memref<?xf16>) { return })",
                              error)));
  EXPECT_EQ(error,
            "parameter 0 points to 'f16'; a raw kernel takes pointers to "
            "f32, f64, i32 and i64");
  EXPECT_TRUE(failed(describe(R"(
    func.func @k(%p: memref<?xf32>) {
      %c0 = arith.constant 0 : index
      %d = memref.dim %p, %c0 : memref<?xf32>
      return
    })",
                              error)));
  EXPECT_EQ(error, "parameter 0 is used by 'memref.dim', not only loaded or "
                   "stored");
}

} // namespace
