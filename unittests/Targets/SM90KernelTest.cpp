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

/// Every block tile the sm90 back end accepts, data-parallel and stream-K,
/// with stores from registers and TMA stores (f32 and f16 C).
/// The dialects a rendered kernel module uses.
DialectRegistry kernelDialects() {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, memref::MemRefDialect, nvgpu::NVGPUDialect,
                  scf::SCFDialect, vector::VectorDialect>();
  return registry;
}

std::vector<KernelParams> allTiles() {
  std::vector<KernelParams> out;
  for (int64_t m : {64, 128})
    for (int64_t n : {64, 80, 128, 144, 160, 192, 208, 240, 256})
      for (bool streamK : {false, true})
        for (bool tmaStore : {false, true})
          for (const char *outType : {"f32", "f16"}) {
            // Stream-K moves whole 64-wide column groups (Config.cpp).
            if (streamK && n % 64 != 0)
              continue;
            KernelParams p;
            p.streamK = streamK;
            p.tmaStore = tmaStore;
            p.outType = outType;
            p.name = "k";
            p.m = 256;
            p.n = 768;
            p.k = 256;
            p.blockM = m;
            p.blockN = n;
            p.stages = chooseStages(m, n, 64, tmaStore);
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

TEST(SM90Kernel, StreamKSplitsThePartialWave) {
  // 5120^3, 128x256: 800 tiles on 132 blocks, R = 8 < 66: R + P.
  EXPECT_EQ(streamKSplitTiles(800, 132), 140);
  // 3584^3: 392 tiles, R = 128 >= 66: R alone.
  EXPECT_EQ(streamKSplitTiles(392, 132), 128);
  // Under two waves, all tiles (2560^3: 200); none when R = 0.
  EXPECT_EQ(streamKSplitTiles(200, 132), 200);
  EXPECT_EQ(streamKSplitTiles(72, 132), 72);
  EXPECT_EQ(streamKSplitTiles(264, 132), 0);
  EXPECT_EQ(streamKSplitTiles(132, 132), 0);
}

TEST(SM90Kernel, StreamKBlocksFourATileWhereFewer) {
  // 6 tiles (127 x 129 x 4095): 24 blocks, every tile split over 4 of them
  // (all tiles split under two waves of the 24).
  EXPECT_EQ(streamKBlocks(6, 132), 24);
  EXPECT_EQ(streamKSplitTiles(6, streamKBlocks(6, 132)), 6);
  // From 33 tiles on, one block per SM.
  EXPECT_EQ(streamKBlocks(32, 132), 128);
  EXPECT_EQ(streamKBlocks(33, 132), 132);
  EXPECT_EQ(streamKBlocks(800, 132), 132);
  // A card with fewer SMs caps it as well.
  EXPECT_EQ(streamKBlocks(32, 114), 114);
  // Swapped small-M kernels: one block per SM (as measured).
  EXPECT_EQ(streamKBlocks(6, 132, /*swapped=*/true), 132);
}

TEST(SM90Kernel, RasterGroupSpansTheFewestBytes) {
  // 7168^3 in 128x256 tiles (56 x 28) on 132 SMs: a wave of 16 rows spans
  // 16 * 128 + 9 * 256 = 4352 against 5248 for 8 rows, 5248 for 4 and 5152
  // for 32.
  EXPECT_EQ(rasterGroup(56, 28, 128, 256, 132), 16);
  // Square tiles tie 8 and 16 (3200 each): 8 stays.
  EXPECT_EQ(rasterGroup(64, 64, 128, 128, 132), 8);
  // Tall tiles keep few rows: 256x128 in 32 x 64 tiles, 4 rows (1024 +
  // 33 * 128 = 5248) against 8 (2048 + 17 * 128 = 4224): 8.
  EXPECT_EQ(rasterGroup(32, 64, 256, 128, 132), 8);
  // 2x1 clusters of 128x256 (unit 256 x 256) on 66 cluster slots:
  // 8 rows 2048 + 9 * 256 = 4352 against 16 rows 4096 + 5 * 256 = 5376.
  EXPECT_EQ(rasterGroup(28, 28, 256, 256, 66), 8);
  // Groups beyond the grid's rows count only the rows there are: 12 tile
  // rows, 16 and 32 span as 12 (1536 + 11 * 256 = 4352) against 8's 5248.
  EXPECT_EQ(rasterGroup(12, 100, 128, 256, 132), 16);
  // Every tile at once (one wave or less): 8, nothing to reuse.
  EXPECT_EQ(rasterGroup(8, 16, 128, 256, 132), 8);
  EXPECT_EQ(rasterGroup(56, 28, 128, 256, 0), 8);
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
  // The TMA-store buffers (16 KiB per consumer warpgroup) cost 128x256 and
  // 64x128 no stage, 128x192 one.
  EXPECT_EQ(chooseStages(128, 256, 64, /*tmaStore=*/true), 4);
  EXPECT_EQ(chooseStages(64, 128, 64, /*tmaStore=*/true), 8);
  EXPECT_EQ(chooseStages(128, 192, 64), 5);
  EXPECT_EQ(chooseStages(128, 192, 64, /*tmaStore=*/true), 4);
  // 64 x 176 with TMA stores: seven stages fill the 227 KiB to the byte,
  // which leaves nothing for the kernel's static mbarriers (refused at
  // launch); six leave room.
  EXPECT_EQ(sharedMemoryBytes(64, 176, 64, 7, /*tmaStore=*/true, true),
            kMaxDynamicSmemBytes);
  EXPECT_EQ(chooseStages(64, 176, 64, /*tmaStore=*/true, true), 6);
  for (const KernelParams &p : allTiles())
    EXPECT_LE(p.smemBytes() + kStaticSmemReserveBytes, kMaxDynamicSmemBytes);
}

TEST(SM90Kernel, DualGemmStoresHalfTheWgmmaColumns) {
  // A dual GEMM's wgmma N covers B's and B2's halves: C's tile, its tile
  // count and its store chunks follow the output width, the accumulators
  // and the ring the wgmma N.
  KernelParams p;
  p.tmaStore = true;
  p.outType = "bf16";
  p.m = 256;
  p.n = 1000;
  p.k = 256;
  p.blockM = 128;
  p.blockN = 256;
  p.dual = true;
  p.bKMajor = true;
  EXPECT_EQ(p.outBlockN(), 128);
  EXPECT_EQ(p.clusterTilesN(), 8); // ceil(1000 / 128)
  EXPECT_EQ(p.storeChunks(), (std::vector<int64_t>{0, 64}));
  EXPECT_EQ(p.accRegs(), 128);
  EXPECT_EQ(p.stageBytes(), (128 + 256) * 64 * 2);
  EXPECT_TRUE(p.ragged(/*alongM=*/false)); // 8 x 128 > 1000
  EXPECT_EQ(bBoxRows(p), 128);
  p.dual = false;
  EXPECT_EQ(p.clusterTilesN(), 4);
  EXPECT_EQ(bBoxRows(p), 256);
}

TEST(SM90Kernel, StoreChunks) {
  KernelParams p;
  p.tmaStore = true;
  p.outType = "f32";
  EXPECT_EQ(p.storeChunkCols(), 32); // 128 bytes of f32
  EXPECT_EQ(p.storeBytes(), 2 * 2 * 8192);
  p.outType = "bf16";
  EXPECT_EQ(p.storeChunkCols(), 64);
  p.blockM = 64;
  EXPECT_EQ(p.storeBytes(), 2 * 8192);
  p.tmaStore = false;
  EXPECT_EQ(p.storeBytes(), 0);
}

TEST(SM90Kernel, StoreChunksOfNarrowerTiles) {
  KernelParams p;
  p.tmaStore = true;
  p.outType = "f32";
  p.blockN = 256;
  EXPECT_EQ(p.storeChunks(),
            (std::vector<int64_t>{0, 32, 64, 96, 128, 160, 192, 224}));
  // 144 f32 columns: four whole chunks and one overlapping the fourth.
  p.blockN = 144;
  EXPECT_EQ(p.storeChunks(), (std::vector<int64_t>{0, 32, 64, 96, 112}));
  // 144 f16 columns: two whole chunks (128 bytes are 64 f16) and one that
  // ends at column 144.
  p.outType = "f16";
  EXPECT_EQ(p.storeChunks(), (std::vector<int64_t>{0, 64, 80}));
  p.blockN = 64;
  EXPECT_EQ(p.storeChunks(), (std::vector<int64_t>{0}));
}

TEST(SM90Kernel, MNMajorBKeepsWholeBoxes) {
  // B [k][n] is loaded in [64 k][64 n] boxes: 144 columns take three.
  EXPECT_EQ(bTileRows(144, /*bKMajor=*/false), 192);
  EXPECT_EQ(bTileRows(144, /*bKMajor=*/true), 144);
  EXPECT_EQ(bTileRows(256, /*bKMajor=*/false), 256);
  KernelParams p;
  p.blockM = 128;
  p.blockN = 144;
  EXPECT_EQ(p.stageBytes(), (128 + 192) * 128);
  p.bKMajor = true;
  EXPECT_EQ(p.stageBytes(), (128 + 144) * 128);
  EXPECT_EQ(p.stageBytes() % 1024, 0);
  // The budget counts the tile as the kernel keeps it.
  EXPECT_EQ(sharedMemoryBytes(128, 144, 64, 4, true),
            4 * (128 + 192) * 128 + 2 * 2 * 8192 + 1024);
  EXPECT_EQ(sharedMemoryBytes(128, 144, 64, 4, true, /*bKMajor=*/true),
            4 * (128 + 144) * 128 + 2 * 2 * 8192 + 1024);
  EXPECT_EQ(chooseStages(128, 144, 64, true), 4);
  EXPECT_EQ(chooseStages(128, 144, 64, true, /*bKMajor=*/true), 5);
}

TEST(SM90Kernel, RowBlocksShareTheStoreBuffers) {
  // One consumer warpgroup over a 192-row tile: 256 threads, two store
  // buffers instead of six, so a 192 x 96 tile keeps 5 stages of 36 KiB
  // with TMA stores (three warpgroups: 4).
  KernelParams p;
  p.blockM = 192;
  p.blockN = 96;
  p.bKMajor = true;
  p.tmaStore = true;
  EXPECT_EQ(p.consumers(), 3);
  EXPECT_EQ(p.storeBytes(), 3 * 2 * 8192);
  p.rowBlocks = 3;
  EXPECT_EQ(p.consumers(), 1);
  EXPECT_EQ(p.threads(), 256);
  EXPECT_EQ(p.storeBytes(), 2 * 8192);
  EXPECT_EQ(p.consumerRegisters(), 240);
  EXPECT_EQ(storeBufferBytes(192, true, 3), 2 * 8192);
  EXPECT_EQ(storeBufferBytes(192, false, 3), 0);
  EXPECT_EQ(sharedMemoryBytes(192, 96, 64, 5, true, true, 3),
            5 * (192 + 96) * 128 + 2 * 8192 + 1024);
  EXPECT_EQ(chooseStages(192, 96, 64, true, true), 4);
  EXPECT_EQ(chooseStages(192, 96, 64, true, true, 8, 3), 5);
  p.stages = 5;
  EXPECT_LE(p.smemBytes(), kMaxDynamicSmemBytes);
}

TEST(SM90Kernel, EdgeTiles) {
  KernelParams p;
  p.m = 300;
  p.n = 328;
  p.k = 72;
  p.blockM = 128;
  p.blockN = 256;
  EXPECT_EQ(p.tiles(), 3 * 2);
  EXPECT_EQ(p.kTiles(), 2);
  EXPECT_TRUE(p.ragged(/*alongM=*/true));
  EXPECT_TRUE(p.ragged(/*alongM=*/false));
  // A 2x1 cluster rounds the three tile rows up to four.
  p.clusterM = 2;
  EXPECT_EQ(p.clusterTilesM(), 2);
  EXPECT_EQ(p.tiles(), 4 * 2);
  // Multiples of the tile are not ragged.
  p.m = 512;
  p.n = 512;
  p.clusterM = 1;
  EXPECT_FALSE(p.ragged(true));
  EXPECT_FALSE(p.ragged(false));
  EXPECT_EQ(p.tiles(), 4 * 2);
  // Three tile rows in a 2x1 cluster: the fourth row is past M.
  p.m = 384;
  p.clusterM = 2;
  EXPECT_TRUE(p.ragged(true));
}

TEST(SM90Kernel, SummedBatchWalksEveryMatrixPerTile) {
  // 5 matrices of K = 72 (two k-tiles each, the second partial): a tile's
  // K loop is 10 k-tiles long, and the batch adds no tiles of C.
  KernelParams p;
  p.m = 300;
  p.n = 328;
  p.k = 72;
  p.blockM = 128;
  p.blockN = 256;
  p.batch = 5;
  p.batchReduce = true;
  EXPECT_TRUE(p.operandsBatched());
  EXPECT_EQ(p.kTiles1(), 2);
  EXPECT_EQ(p.kTiles(), 10);
  EXPECT_EQ(p.tiles(), 3 * 2);
  // The same batch kept apart multiplies the tiles instead.
  p.batchReduce = false;
  p.batched = true;
  EXPECT_EQ(p.kTiles(), 2);
  EXPECT_EQ(p.tiles(), 5 * 3 * 2);
}

TEST(SM90Kernel, PackDecision) {
  int64_t big = 5000 * 10000, small = 2000 * 4000; // 5000^2, 2000^2 f16
  // Rows of 128-byte multiples: TMA reads them at full speed.
  EXPECT_FALSE(shouldPack(8192, big, "always"));
  // 16-byte multiples: read slowly; packed where they leave L2 only.
  EXPECT_TRUE(shouldPack(10000, big, "auto"));
  EXPECT_FALSE(shouldPack(4000, small, "auto"));
  // Rows that are not sector (32-byte) multiples either: packed from 4 MiB.
  EXPECT_TRUE(shouldPack(10000, 700 * 10000, "auto"));
  EXPECT_FALSE(shouldPack(2000, 1000 * 2000, "auto"));
  EXPECT_TRUE(shouldPack(4000, small, "always"));
  // Not 16-byte multiples: TMA cannot read them at all.
  EXPECT_TRUE(shouldPack(8190, small, "auto"));
  EXPECT_FALSE(shouldPack(8190, big, "never"));
  EXPECT_EQ(paddedRowStride(5000, 2), 5056);
  EXPECT_EQ(paddedRowStride(4095, 2), 4096);
  EXPECT_EQ(paddedRowStride(64, 2), 64);
}

TEST(SM90Kernel, KernelWithPacksParses) {
  MLIRContext ctx(kernelDialects());
  ctx.loadAllAvailableDialects();
  KernelParams p;
  p.name = "k";
  p.m = 300;
  p.n = 4095;
  p.k = 700;
  // Source rows of every alignment: 700 (8 bytes), 4095 (2 bytes).
  for (auto [operand, rows, cols] :
       {std::tuple<const char *, int64_t, int64_t>{"A", 300, 700},
        {"B", 700, 4095}}) {
    PackParams pp;
    pp.name = std::string("k_pack_") + operand;
    pp.operand = operand;
    pp.rows = rows;
    pp.cols = cols;
    pp.srcStride = cols;
    pp.dstStride = paddedRowStride(cols, 2);
    p.packs.push_back(pp);
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  FailureOr<Operation *> kernel =
      buildKernelModule(*module, p, UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(kernel));
  auto gpuModule = cast<gpu::GPUModuleOp>(*kernel);
  EXPECT_TRUE(gpuModule.lookupSymbol<gpu::GPUFuncOp>("k_pack_A"));
  EXPECT_TRUE(gpuModule.lookupSymbol<gpu::GPUFuncOp>("k_pack_B"));
  // B's rows (4095 elements) are 2-byte aligned: its pack loads single
  // elements where the shifted 8-byte words would reach past a row.
  bool elementLoads = false;
  gpuModule.lookupSymbol<gpu::GPUFuncOp>("k_pack_B")
      .walk([&](LLVM::LoadOp load) {
        elementLoads |=
            load.getAlignment() == 2 &&
            load.getType() == VectorType::get({1}, Float16Type::get(&ctx));
      });
  EXPECT_TRUE(elementLoads);
  EXPECT_EQ(p.packs[1].chunksPerRow(), 512);
}

TEST(SM90Kernel, RenderedKernelParsesForEveryTile) {
  MLIRContext ctx(kernelDialects());
  ctx.loadAllAvailableDialects();
  for (KernelParams p : allTiles()) {
    for (const char *in : {"f16", "bf16"}) {
      p.inType = in;
      OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
      FailureOr<Operation *> kernel =
          buildKernelModule(*module, p, UnknownLoc::get(&ctx));
      ASSERT_TRUE(succeeded(kernel)) << p.blockM << "x" << p.blockN << " " << in
                                     << (p.streamK ? " stream-K" : "");
      EXPECT_TRUE(succeeded(verify(*module)));
    }
  }
}

} // namespace
