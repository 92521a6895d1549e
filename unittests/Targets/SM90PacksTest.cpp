//===- SM90PacksTest.cpp - Typed pack kernels are the text's ----*- C++ -*-===//
//
// This file tests the typed sm90 pack kernels (Packs.h): for every kind of
// pack (source rows 16-, 8-, 4- and 2-byte aligned, with and without the
// fused prologue, the transposing pack), buildPackFunc's kernel must print
// exactly as the parsed text of renderPackFunc.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/Packs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;

namespace {

std::string printGeneric(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os, OpPrintingFlags().printGenericOpForm());
  return StringRef(s).rtrim().str();
}

/// Builds `pack` both ways in a gpu.module that declares @tcgen_prologue
/// and expects the same printout.
void expectSameAsText(const PackParams &pack, StringRef what) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, memref::MemRefDialect, scf::SCFDialect,
                  vector::VectorDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::string text = "module {\ngpu.module @m {\n  func.func private @" +
                     kPrologueFuncName.str() + "(" + pack.type + ") -> " +
                     pack.type + renderPackFunc(pack) + "}\n}\n";
  OwningOpRef<ModuleOp> reference =
      parseSourceString<ModuleOp>(text, ParserConfig(&ctx));
  ASSERT_TRUE(reference) << what.str();

  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> typed = ModuleOp::create(loc);
  OpBuilder b(&ctx);
  b.setInsertionPointToEnd(typed->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, "m");
  b.setInsertionPointToStart(gpuModule.getBody());
  Type t = pack.type == "f32"    ? Type(b.getF32Type())
           : pack.type == "bf16" ? Type(b.getBF16Type())
                                 : Type(b.getF16Type());
  auto decl = func::FuncOp::create(b, loc, kPrologueFuncName,
                                   b.getFunctionType({t}, {t}));
  decl.setPrivate();
  buildPackFunc(b, loc, pack);
  ASSERT_TRUE(succeeded(verify(*typed))) << what.str();

  SmallVector<StringRef> la, lb;
  std::string sa = printGeneric(*reference), sb = printGeneric(*typed);
  StringRef(sa).split(la, '\n');
  StringRef(sb).split(lb, '\n');
  for (size_t i = 0; i < std::min(la.size(), lb.size()); ++i)
    if (la[i] != lb[i]) {
      ADD_FAILURE() << what.str() << ": line " << i + 1 << " differs:\n  "
                    << la[i].str() << "\n  " << lb[i].str();
      return;
    }
  EXPECT_EQ(la.size(), lb.size()) << what.str();
}

PackParams pack(int64_t rows, int64_t cols, int64_t srcStride) {
  PackParams p;
  p.name = "pack";
  p.operand = "A";
  p.rows = rows;
  p.cols = cols;
  p.srcStride = srcStride;
  p.dstStride = paddedRowStride(cols, 2);
  p.matrixRows = rows;
  return p;
}

TEST(SM90Packs, EveryRowAlignment) {
  // Source rows 2, 4, 8 and 16 bytes aligned: funnel-shifted words (with
  // element or pair pieces at the row's end), 8-byte and 16-byte pieces.
  for (int64_t stride : {2049, 2050, 2052, 2056})
    for (bool transform : {false, true})
      for (const char *type : {"f16", "bf16"}) {
        PackParams p = pack(2049, stride, stride);
        p.transform = transform;
        p.type = type;
        expectSameAsText(p, (Twine("stride ") + Twine(stride) + " " + type +
                             (transform ? " transform" : ""))
                                .str());
      }
}

TEST(SM90Packs, Transpose) {
  PackParams p = pack(1000, 77, 77);
  p.type = "f32";
  p.transpose = true;
  p.dstStride = paddedRowStride(1000, 4);
  expectSameAsText(p, "transpose");
}

} // namespace
