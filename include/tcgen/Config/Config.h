//===- Config.h - Choosing and checking #tcgen.config -----------*- C++ -*-===//
//
// The configuration model: fixed defaults per target for now, and the checks
// that a configuration fits a problem and a target.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_CONFIG_CONFIG_H
#define TCGEN_CONFIG_CONFIG_H

#include "tcgen/Analysis/Contraction.h"
#include "tcgen/Config/Model.h"
#include "tcgen/IR/TCGenDialect.h"

namespace mlir::tcgen {

/// Returns the target attached to the module enclosing `op`, or sm_90a when
/// none is attached.
TargetAttr getTargetOrDefault(Operation *op);

/// The back end for `info` on `target` when the user names none: sm90 on
/// sm_90a (C = A*B or C += A*B, batched or not, in any of the four A/B
/// layouts), sm80 on sm_80 to sm_89, wmma otherwise.
StringRef getDefaultBackend(const ContractionInfo &info, TargetAttr target);

/// A candidate tiling of the simt back end: block tile bm x bn x bk, warp
/// tile wm x wn, thread tile tm x tn, and its measured per-SM rate relative
/// to 128x128x32.
struct SimtCandidate {
  int64_t bm, bn, bk, wm, wn, tm, tn;
  double rate;
};

/// The simt candidates for an m x n x k product (a batch of `batch`) on a
/// GPU of `sms` SMs, fastest predicted first: waves of 512 threads' worth
/// of blocks per SM, each as long as a full one, at the candidate's rate.
/// K steps of 32 only where M, N and K are multiples of 4.
std::vector<SimtCandidate> rankSimtCandidates(int64_t m, int64_t n, int64_t k,
                                              int64_t batch, int64_t sms);

/// The block tile M (64 or 128) of a swapped sm90 kernel over a problem
/// whose N is `n` (the kernel's M) on `sms` SMs: the one with fewer waves
/// of tile rows, ceil(tiles / sms) x blockM; 128 on a tie (fewer, longer
/// streams). Measured on H200 (docs/log/PERFORMANCE-history.md): N = 12288 128
/// (96 tiles), N = 4096 and 8192 64.
int64_t chooseSwapBlockM(int64_t n, int64_t sms);

/// Whether the sm90 default computes C^T = B^T A^T for `info` (config
/// `swap`): M at most 32 with N at least 1024, or at most 64 with N at
/// least 8192 or with few tiles over a long K (at most `sms` / 4 tiles of
/// 64 rows, 64 k-tiles or more: then with stream-K) (measured on H200: M
/// = 40-64 win there, M = 48 with N = 4096 loses), static sizes, f16 or
/// bf16, no
/// batch, a row-major C, A stored [m][k] with 16-byte rows, A and B
/// function arguments (no prologue) and no second product. The small M
/// then becomes the wgmma's N (8 to 32) instead of a 64-row tile mostly of
/// padding, with a deep ring of small stages.
bool shouldSwap(const ContractionInfo &info, int64_t sms = 132);

/// Whether a swapped kernel can compute `info` at all: shouldSwap's
/// conditions other than the sizes (static, f16 or bf16, no batch, a
/// row-major C, A stored [m][k] with 16-byte rows, A and B function
/// arguments, no second product).
bool canSwap(const ContractionInfo &info);

/// The swapped kernels `tcgen tune` times where canSwap: for a small M (M
/// <= 64) the default's (chooseSwapBlockM's tile, swapStages, stream-K
/// with few tiles over a long K) first, then 64- and 128-row tiles with
/// rings of 4 to 12 stages (as far as they fit), with and without
/// stream-K; for a larger M with an f32 C five tiles (192x96, 128x128,
/// 64x128, 128x96, 128x64; the deepest ring that fits). Empty where no
/// swapped kernel applies.
std::vector<model::SM90Candidate> swapCandidates(const ContractionInfo &info,
                                                 int64_t sms);

/// The default configuration for `info` on `target` with `backend` ("wmma"
/// or "sm90"; empty: the target's default back end). For sm90 it is the
/// tile-size model's first choice (model::rankSM90) under `constants`
/// (default: the built-in H100 constants), or its candidate of rank
/// `modelRank` (0: the first; clamped to the last). `swap` (sm90): 1
/// computes C^T = B^T A^T (config `swap`, its tile chosen for the small M),
/// 0 never, -1 where shouldSwap says.
ConfigAttr getDefaultConfig(const ContractionInfo &info, TargetAttr target,
                            StringRef backend = "",
                            const model::DeviceConstants *constants = nullptr,
                            int64_t modelRank = 0, int swap = -1);

/// The problem of `info` as the tile-size model sees it (the output is the
/// fused epilogue's, if the contraction has one).
model::Problem getModelProblem(const ContractionInfo &info);

/// The swapped kernel the sm90 default takes for a larger M (M > 64, where
/// canSwap; a 16-bit C only where its rows are 16-byte multiples apart):
/// the fastest of model::rankSM90Swapped on the swapped `problem`
/// (getModelProblem of `info`) if it is predicted at least 2 % faster than
/// `unswapped` (the model's first unswapped choice) and its tiles fit one
/// wave, else nothing.
std::optional<model::SM90Candidate>
predictedSwap(const ContractionInfo &info, const model::Problem &problem,
              const model::SM90Candidate &unswapped,
              const model::DeviceConstants &constants);

/// The sm90 configuration of a model candidate (a swapped one's tile in the
/// swapped problem's terms, C stored from registers).
ConfigAttr getSM90Config(const ContractionInfo &info,
                         const model::SM90Candidate &candidate);

/// The tuning-cache key of `info` on `target`: target, dtypes, batch, sizes,
/// A/B layout and, for a fused pointwise consumer, a hash of its steps,
/// e.g. "sm_90a f16xf16->f32 batch=1 m=4096 n=4096 k=4096 ab=nn".
std::string getTuningKey(const ContractionInfo &info, TargetAttr target);

/// Shared memory the operand tiles of `config` occupy, in bytes.
int64_t getSharedMemoryBytes(const ContractionInfo &info, ConfigAttr config);

/// Shared memory one block of the wmma back end may use on `target`
/// (static shared memory: at most 48 KiB).
int64_t getWMMASharedMemoryLimit(TargetAttr target);

/// Stages of shared buffers for the wmma back end: 2 (double buffering)
/// where two sets of padded `blockTile` (m, n, k) tiles fit the limit, else
/// 1.
int64_t chooseWMMAStages(const ContractionInfo &info,
                         ArrayRef<int64_t> blockTile, int64_t padding,
                         TargetAttr target);

/// SMs of the target architecture's flagship part (A100 108, H100 132...):
/// what the sm80 tile rule weighs its tile counts against.
int64_t getTypicalSMCount(TargetAttr target);

/// Shared memory one block of the sm80 back end may use on `target`: half
/// of the SM's (two blocks per SM), within the per-block maximum.
int64_t getSM80SharedMemoryBudget(TargetAttr target);

/// Shared memory an sm80 kernel needs besides its stages: the split-K
/// scratch (block_k / warp_k > 1) and the staged epilogue's slabs.
int64_t getSM80ExtraSharedBytes(const ContractionInfo &info,
                                ArrayRef<int64_t> blockTile,
                                ArrayRef<int64_t> warpTile, StringRef store);

/// The deepest sm80 cp.async pipeline whose stages of `blockTile` (m, n, k)
/// tiles fit getSM80SharedMemoryBudget next to getSM80ExtraSharedBytes,
/// between 2 and kMaxSM80Stages.
constexpr int64_t kMaxSM80Stages = 4;
int64_t chooseSM80Stages(const ContractionInfo &info,
                         ArrayRef<int64_t> blockTile,
                         ArrayRef<int64_t> warpTile, int64_t padding,
                         StringRef store, TargetAttr target);

/// Checks that `backend` compiles the problem's sizes: sizes known only at
/// run time need sm90 (the error says how to get it on `target`). Emits an
/// error at `info.op`.
LogicalResult verifyBackendTakesSizes(const ContractionInfo &info,
                                      StringRef backend, TargetAttr target);

/// Checks that `config` fits the problem (wmma: sizes are multiples of the
/// block tile; sm90: rows TMA can address) and the target (shared memory). Emits an error at `info.op`.
LogicalResult verifyConfigFits(const ContractionInfo &info, ConfigAttr config,
                               TargetAttr target);

} // namespace mlir::tcgen

#endif // TCGEN_CONFIG_CONFIG_H
