//===- Pipelines.h - tcgen pass pipelines -----------------------*- C++ -*-===//
//
// The two halves of compilation: `tcgen-pipeline` turns configured linalg
// into an outlined gpu.module plus the host-side gpu.launch_func, and
// `tcgen-lower-to-nvvm` lowers the gpu.module to the LLVM/NVVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_PIPELINES_PIPELINES_H
#define TCGEN_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tcgen {

/// Options of the kernel-formation pipeline. Each optimization can be turned
/// off for the ablation study.
struct TCGenPipelineOptions : public PassPipelineOptions<TCGenPipelineOptions> {
  Option<std::string> backend{
      *this, "backend", llvm::cl::desc("Back end (wmma)"), llvm::cl::init("")};
  ListOption<int64_t> blockTile{*this, "block-tile",
                                llvm::cl::desc("Thread-block tile [m, n, k]")};
  ListOption<int64_t> warpTile{*this, "warp-tile",
                               llvm::cl::desc("Warp tile [m, n, k]")};
  ListOption<int64_t> threadTile{
      *this, "thread-tile",
      llvm::cl::desc("Thread tile [m, n] (simt back end)")};
  Option<int64_t> padding{
      *this, "padding",
      llvm::cl::desc("Shared-memory row padding (-1: default)"),
      llvm::cl::init(-1)};
  Option<int64_t> vector{*this, "vector",
                         llvm::cl::desc("Copy vector width (-1: default)"),
                         llvm::cl::init(-1)};
  Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Stages of shared operand buffers (-1: default)"),
      llvm::cl::init(-1)};
  Option<int64_t> raster{
      *this, "raster",
      llvm::cl::desc("Tile rows per raster group (-1: default)"),
      llvm::cl::init(-1)};
  Option<int> persistent{*this, "persistent",
                         llvm::cl::desc("Persistent blocks: 1, 0, -1 default"),
                         llvm::cl::init(-1)};
  Option<int> streamK{*this, "stream-k",
                      llvm::cl::desc("Stream-K on sm90: 1, 0, -1 default"),
                      llvm::cl::init(-1)};
  Option<int> swap{*this, "swap",
                   llvm::cl::desc("sm90: compute C^T = B^T A^T: 1, 0, -1 "
                                  "default"),
                   llvm::cl::init(-1)};
  ListOption<int64_t> cluster{*this, "cluster",
                             llvm::cl::desc("Blocks per cluster [m, n]")};
  Option<std::string> store{
      *this, "store",
      llvm::cl::desc("How C is written on sm90: global or tma (default: "
                     "the target's)"),
      llvm::cl::init("")};
  Option<std::string> tuningCache{
      *this, "tuning-cache",
      llvm::cl::desc("Tuning cache file (tcgen tune) consulted before the "
                     "tile-size model"),
      llvm::cl::init("")};
  Option<std::string> device{
      *this, "device",
      llvm::cl::desc("Device whose tuning-cache records apply (empty: the "
                     "only one in the cache)"),
      llvm::cl::init("")};
  Option<int64_t> modelRank{
      *this, "model-rank",
      llvm::cl::desc("The tile-size model's candidate of this rank instead "
                     "of its first"),
      llvm::cl::init(0)};
  Option<std::string> pack{
      *this, "pack",
      llvm::cl::desc("Copy A or B with rows TMA reads slowly into padded "
                     "buffers first on sm90: auto, always or never"),
      llvm::cl::init("auto")};
  Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("Accept f32 x f32 on sm90 as tf32 tensor-core math"),
      llvm::cl::init(false)};
  Option<std::string> prologue{
      *this, "prologue",
      llvm::cl::desc("Where a fused prologue is applied on sm90: auto, smem "
                     "or pack"),
      llvm::cl::init("auto")};
  Option<std::string> epilogueLoads{
      *this, "epilogue-loads",
      llvm::cl::desc("How sm90's fused epilogue reads a matrix operand: "
                     "auto (tma where it applies, else fragments), "
                     "fragments or tma"),
      llvm::cl::init("auto")};
  Option<bool> epilogueInHalf{
      *this, "epilogue-in-half",
      llvm::cl::desc("sm90: compute a fused epilogue on f16x2 / bf16x2 "
                     "pairs where that gives the same bits as its f32 body"),
      llvm::cl::init(false)};
  Option<bool> bufferize{*this, "bufferize",
                         llvm::cl::desc("Bufferize tensor inputs first"),
                         llvm::cl::init(true)};
  Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse pointwise consumers into the kernel epilogue"),
      llvm::cl::init(true)};
  Option<bool> promote{*this, "promote",
                       llvm::cl::desc("Copy A/B tiles to shared memory"),
                       llvm::cl::init(true)};
  Option<bool> hoist{*this, "hoist",
                     llvm::cl::desc("Permute loops and hoist accumulators"),
                     llvm::cl::init(true)};
  Option<bool> unroll{*this, "unroll",
                      llvm::cl::desc("Unroll the warp tile (with hoist)"),
                      llvm::cl::init(true)};
  Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("Hide global-load latency (register prefetch)"),
      llvm::cl::init(true)};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("Hide global-load latency with cp.async copies into the "
                     "config's stages of shared buffers (tcgen-async-copies) "
                     "instead of the register prefetch"),
      llvm::cl::init(false)};
  Option<bool> vectorize{*this, "vectorize",
                         llvm::cl::desc("Vectorize global->shared copies"),
                         llvm::cl::init(true)};
  Option<bool> reorderCopies{
      *this, "reorder-copies",
      llvm::cl::desc("Walk copied tiles in the order with the fewest "
                     "shared-memory store conflicts"),
      llvm::cl::init(true)};
};

/// Options of the NVVM lowering.
struct TCGenNVVMOptions : public PassPipelineOptions<TCGenNVVMOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target chip"),
                           llvm::cl::init("sm_90a")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features"),
                               llvm::cl::init("+ptx83")};
  Option<int> optLevel{*this, "opt-level", llvm::cl::desc("LLVM opt level"),
                       llvm::cl::init(3)};
};

/// The front of buildTCGenPipeline: pointwise fusion, bufferization and
/// tcgen-configure; the contractions are still linalg ops, each with its
/// #tcgen.config (what `tcgen explain` and `tcgen tune` rank against).
void buildTCGenConfigurePipeline(OpPassManager &pm,
                                 const TCGenPipelineOptions &options);

/// linalg (tensors or memrefs) -> gpu.launch_func + outlined gpu.module.
void buildTCGenPipeline(OpPassManager &pm, const TCGenPipelineOptions &options);

/// gpu.module of tcgen kernels -> LLVM dialect with NVVM ops and a target.
void buildTCGenLowerToNVVM(OpPassManager &pm, const TCGenNVVMOptions &options);

/// Registers both pipelines (`tcgen-pipeline`, `tcgen-lower-to-nvvm`).
void registerTCGenPipelines();

/// Registers the four back ends (wmma, sm80, sm90, simt; Config/Backend.h),
/// whose formulas the configuration asks and whose passes the pipelines
/// compose. Idempotent.
void registerTCGenBackends();

/// Registers every back end, tcgen pass and pipeline.
void registerAllTCGenPasses();

} // namespace mlir::tcgen

#endif // TCGEN_PIPELINES_PIPELINES_H
