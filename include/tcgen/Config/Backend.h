//===- Backend.h - The interface every code generator provides --*- C++ -*-===//
//
// A back end (wmma, sm80, sm90, simt) is a TargetBackend registered by name:
// the resource formulas and fit checks the configuration code asks about
// (shared memory of a tile and its ring, the stages that fit, the register
// budget of the accumulators), how the generic kernel-formation passes treat
// its kernels, and the passes it adds to the pipeline. lib/Config holds this
// interface and the registry and links no back end; each lib/Targets/<T>
// implements it, and registerTCGenBackends() (Pipelines.h) registers all of
// them explicitly before anything configures or compiles.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_CONFIG_BACKEND_H
#define TCGEN_CONFIG_BACKEND_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::tcgen {

struct TCGenPipelineOptions;

/// One code generator: its resource formulas, the decisions the generic
/// passes take per back end, and its passes. The defaults describe a back
/// end without the feature; a formula a back end does not have is a fatal
/// error when asked for (a bug of the caller, never of the input).
class TargetBackend {
public:
  virtual ~TargetBackend();

  /// The name a #tcgen.config's `backend` field gives ("sm90", ...).
  virtual StringRef getName() const = 0;

  //===--------------------------------------------------------------------===//
  // Fit checks and resource formulas
  //===--------------------------------------------------------------------===//

  /// Dynamic shared memory one block may use, in bytes.
  virtual int64_t getMaxSharedMemoryBytes() const;

  /// Dynamic shared memory of a kernel: the ring of `stages` A and B tiles
  /// of 16-bit elements (`bKMajor`: B stored [n][k]), C's store buffers
  /// when `tmaStore` (per consumer of `rowBlocks` 64-row blocks), and the
  /// alignment.
  virtual int64_t getSharedMemoryBytes(int64_t blockM, int64_t blockN,
                                       int64_t blockK, int64_t stages,
                                       bool tmaStore, bool bKMajor = false,
                                       int64_t rowBlocks = 1) const;

  /// The deepest ring (at most `maxStages`) whose tiles fit the shared
  /// memory next to C's store buffers when `tmaStore`.
  virtual int64_t getStagesThatFit(int64_t blockM, int64_t blockN,
                                   int64_t blockK, bool tmaStore = false,
                                   bool bKMajor = false, int64_t maxStages = 8,
                                   int64_t rowBlocks = 1) const;

  /// Accumulator registers a thread of several row blocks may hold.
  virtual int64_t getMaxAccumulatorRegisters() const;

  /// Whether shared-memory rows of `rowBytes` take the back end's XOR
  /// swizzle (its unpadded tiles).
  virtual bool canSwizzleRows(int64_t rowBytes) const;

  //===--------------------------------------------------------------------===//
  // Schedule formulas of persistent kernels
  //===--------------------------------------------------------------------===//

  /// The tiles stream-K splits among `blocks` persistent blocks.
  virtual int64_t getStreamKSplitTiles(int64_t tiles, int64_t blocks) const;

  /// The blocks a stream-K kernel of `tiles` tiles launches on `sms` SMs
  /// (`swapped`: a kernel computing C^T = B^T A^T).
  virtual int64_t getStreamKBlocks(int64_t tiles, int64_t sms,
                                   bool swapped) const;

  /// The raster group (tile rows walked before the next column) of a grid
  /// of `tilesM` x `tilesN` tiles of `unitM` x `unitN` on `slots` blocks.
  virtual int64_t getRasterGroup(int64_t tilesM, int64_t tilesN, int64_t unitM,
                                 int64_t unitN, int64_t slots) const;

  /// Whether an operand of `bytes` bytes with rows `rowBytes` apart is
  /// copied into padded rows first under `mode` ("auto", "always", "never").
  virtual bool shouldPackOperand(int64_t rowBytes, int64_t bytes,
                                 StringRef mode) const;

  /// The ring depth of a swapped kernel (C^T = B^T A^T) of `blockM` rows.
  virtual int64_t getSwapStages(int64_t blockM) const;

  /// Whether a (`swapped`) kernel of block width `blockN` copies its B with
  /// cp.async instead of TMA.
  virtual bool swapCopiesB(bool swapped, int64_t blockN) const;

  //===--------------------------------------------------------------------===//
  // How the generic kernel-formation passes treat the back end's kernels
  //===--------------------------------------------------------------------===//

  /// The K loop always stages its copies through cp.async (tcgen-async-copies)
  /// instead of the register prefetch (tcgen-prefetch-tiles).
  virtual bool alwaysAsyncCopies() const { return false; }

  /// The K loop stages its copies through cp.async when asked to
  /// (--async-copies), else through the register prefetch.
  virtual bool asyncCopiesOnRequest() const { return false; }

  /// bf16 A and B travel through the shared fragment passes as f16 bit
  /// patterns (gpu.subgroup_mma has no bf16), multiplied as bf16 later.
  virtual bool carriesBF16AsF16() const { return false; }

  /// The back end stages its epilogue itself (store = "staged" is not
  /// tcgen-stage-epilogue's).
  virtual bool stagesOwnEpilogue() const { return false; }

  //===--------------------------------------------------------------------===//
  // Passes the back end adds to the pipeline (buildTCGenPipeline)
  //===--------------------------------------------------------------------===//

  /// Module passes that generate the back end's whole kernels, before the
  /// generic kernel formation.
  virtual void addKernelBuilders(OpPassManager &pm,
                                 const TCGenPipelineOptions &options) const {}

  /// Function passes that map MMA fragments, after tcgen-detect-parallel.
  virtual void addMMAMapping(OpPassManager &funcPm) const {}

  /// Function passes on the lowered kernels (after lower-affine), before
  /// the shared memory becomes dynamic.
  virtual void addLoweredKernelPasses(OpPassManager &funcPm) const {}

  /// Module passes at the end of the NVVM lowering.
  virtual void addNVVMPasses(OpPassManager &pm) const {}
};

/// Registers `backend` under its name; a second registration of a name
/// replaces nothing and is ignored (registration may run more than once).
/// Not thread-safe: register before compiling.
void registerTargetBackend(std::unique_ptr<TargetBackend> backend);

/// The back end registered as `name`, or null.
const TargetBackend *lookupTargetBackend(StringRef name);

/// The back end registered as `name`; a fatal error if there is none (every
/// back end the IR accepts is registered by registerTCGenBackends).
const TargetBackend &getTargetBackend(StringRef name);

/// Every registered back end, in registration order (the order their
/// passes take in the pipeline).
std::vector<const TargetBackend *> getTargetBackends();

} // namespace mlir::tcgen

#endif // TCGEN_CONFIG_BACKEND_H
