//===- SM90KernelTest.cpp - sm90 kernel parameter invariants ----*- C++ -*-===//
//
// This file tests the sm90 generator's arithmetic: the setmaxnreg split must
// fit the registers the block owns (asking for more hangs the kernel), the
// ring must fit shared memory, and the rendered kernel must parse for every
// supported tile.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Targets/SM90/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tcgen::sm90;

namespace {

/// Every block tile the sm90 back end accepts, data-parallel and stream-K.
std::vector<KernelParams> allTiles() {
  std::vector<KernelParams> out;
  for (int64_t m : {64, 128})
    for (int64_t n : {64, 128, 192, 256})
      for (bool streamK : {false, true}) {
      KernelParams p;
      p.streamK = streamK;
      p.name = "k";
      p.m = 256;
      p.n = 768;
      p.k = 256;
      p.blockM = m;
      p.blockN = n;
      p.stages = chooseStages(m, n, 64);
      out.push_back(p);
      }
  return out;
}

TEST(SM90Kernel, RegisterSplitFitsTheBlock) {
  for (const KernelParams &p : allTiles()) {
    int64_t owned = p.threads() * p.entryRegisters();
    int64_t wanted = 128 * p.producerRegisters() +
                     128 * p.consumers() * p.consumerRegisters();
    EXPECT_LE(wanted, owned) << p.blockM << "x" << p.blockN;
    // setmaxnreg takes multiples of 8 in [24, 256].
    EXPECT_EQ(p.consumerRegisters() % 8, 0);
    EXPECT_GE(p.consumerRegisters(), 24);
    EXPECT_LE(p.consumerRegisters(), 256);
    // The accumulators (N/2 f32 per thread) must leave room for the rest.
    EXPECT_GE(p.consumerRegisters(), p.blockN / 2 + 64) << p.blockN;
  }
}

TEST(SM90Kernel, ThreeWarpgroupSplitIs48And224) {
  KernelParams p;
  p.blockM = 128;
  p.blockN = 256;
  EXPECT_EQ(p.threads(), 384);
  EXPECT_EQ(p.entryRegisters(), 168);
  EXPECT_EQ(p.consumerRegisters(), 224);
}

TEST(SM90Kernel, StreamKProducerKeepsTheConsumerSplit) {
  KernelParams p;
  p.blockM = 128;
  p.blockN = 256;
  p.streamK = true;
  EXPECT_EQ(p.producerRegisters(), 40);
  EXPECT_EQ(p.consumerRegisters(), 232);
  // Two 64 KiB partial slots and the flags.
  EXPECT_EQ(p.workspaceBytesPerBlock(), 2 * 65536 + 16);
  EXPECT_EQ(p.workspaceBytesPerBlock() % 16, 0);
}

TEST(SM90Kernel, WaveEfficiency) {
  EXPECT_DOUBLE_EQ(waveEfficiency(132, 132), 1.0);
  EXPECT_NEAR(waveEfficiency(72, 132), 72.0 / 132, 1e-12);   // 1536^3
  EXPECT_NEAR(waveEfficiency(288, 132), 288.0 / 396, 1e-12); // 3072^3
  EXPECT_NEAR(waveEfficiency(2048, 132), 2048.0 / 2112, 1e-12);
  EXPECT_DOUBLE_EQ(waveEfficiency(0, 132), 1.0);
}

TEST(SM90Kernel, RingFitsSharedMemory) {
  for (const KernelParams &p : allTiles()) {
    EXPECT_GE(p.stages, 2);
    EXPECT_LE(p.stages, 8);
    EXPECT_LE(p.smemBytes(), kMaxDynamicSmemBytes);
    EXPECT_EQ(p.stageBytes() % 1024, 0) << "stages must stay 1024-aligned";
  }
  EXPECT_EQ(chooseStages(128, 256, 64), 4);
  EXPECT_EQ(chooseStages(64, 128, 64), 8);
}

TEST(SM90Kernel, RenderedKernelParsesForEveryTile) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, memref::MemRefDialect, nvgpu::NVGPUDialect,
                  scf::SCFDialect, vector::VectorDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  for (KernelParams p : allTiles()) {
    for (const char *in : {"f16", "bf16"}) {
      p.inType = in;
      OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
      FailureOr<Operation *> kernel =
          buildKernelModule(*module, p, UnknownLoc::get(&ctx));
      ASSERT_TRUE(succeeded(kernel))
          << p.blockM << "x" << p.blockN << " " << in
          << (p.streamK ? " stream-K" : "");
      EXPECT_TRUE(succeeded(verify(*module)));
    }
  }
}

} // namespace
