//===- tma_batched_matmul.cu - A TMA reference kernel -----------*- CUDA -*-===//
//
// This file implements a batched matmul kernel that reads A and B through
// rank-3 tensor maps (one TMA copy per operand and K step), which
// bench/refbundles/CMakeLists.txt compiles into a hand-made sm_90a bundle.
// It checks, on a Hopper GPU and without the compiler, the runtime's
// encoding of rank-3 tensormap params (docs/BUNDLE.md): the dimension
// order of a transposed operand, the batch stride, and the zero fill of a
// box that reaches past m and k, and the place of an extent-1 dimension.
// Configured with -D: TCGEN_ENTRY, TCGEN_M, TCGEN_N, TCGEN_K, TCGEN_BATCH,
// C's strides TCGEN_SCB, TCGEN_SC0 (its column stride is 1), and
// TCGEN_A_K_INNER. A is f16 [batch, m, k] whose tensor map has m innermost
// (box {16, 32, 1}: 16 along m, 32 along k; A stored k-major), or with
// TCGEN_A_K_INNER k innermost (box {32, 16, 1}; A row-major, or with m = 1
// any A: its extent-1 m keeps its place); B f16 [batch, k, n] row-major
// (box {16, 32, 1}: 16 along n, 32 along k); C f32 through a pointer.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <cuda_fp16.h>
#include <cstdint>

#ifndef TCGEN_A_K_INNER
#define TCGEN_A_K_INNER 0
#endif

namespace {
constexpr int kTileM = 16, kTileN = 16; // One C element per thread.
constexpr int kTileK = 32;

__device__ inline uint32_t sharedAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// Copies the box at (c0, c1, c2) (innermost first) of `map` into `dst`,
/// completing `bytes` of transaction on the mbarrier at `bar`.
__device__ inline void loadBox(uint32_t dst, const CUtensorMap *map, int c0,
                               int c1, int c2, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1),
               "r"(c2), "r"(bar)
               : "memory");
}

/// Waits until the mbarrier at `bar` completes phase `parity`.
__device__ inline void waitPhase(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p;\n"
                 "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}
} // namespace

/// C[b, i, j] = sum_p A[b, i, p] B[b, p, j] in f32, one 16x16 tile per
/// block, the batch b along z. Every K step, thread 0 loads the A and B
/// tiles (out-of-bounds elements read as zero) and the block waits on an
/// mbarrier for them.
extern "C" __global__ void __launch_bounds__(kTileM *kTileN)
    TCGEN_ENTRY(const __grid_constant__ CUtensorMap aMap,
                const __grid_constant__ CUtensorMap bMap,
                float *__restrict__ c) {
#if TCGEN_A_K_INNER
  __shared__ alignas(128) __half tileA[kTileM][kTileK]; // k innermost
#else
  __shared__ alignas(128) __half tileA[kTileK][kTileM]; // m innermost
#endif
  __shared__ alignas(128) __half tileB[kTileK][kTileN]; // n innermost
  __shared__ alignas(8) uint64_t full;
  int tx = threadIdx.x, ty = threadIdx.y;
  bool leader = tx == 0 && ty == 0;
  int n0 = blockIdx.x * kTileN, m0 = blockIdx.y * kTileM, batch = blockIdx.z;
  uint32_t bar = sharedAddress(&full);
  if (leader) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0.0f;
  uint32_t parity = 0;
  for (int k0 = 0; k0 < TCGEN_K; k0 += kTileK) {
    if (leader) {
      // The tiles' last readers are done (the barrier below); order their
      // reads before the copy engine's writes.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
          "r"(uint32_t(sizeof(tileA) + sizeof(tileB)))
          : "memory");
#if TCGEN_A_K_INNER
      loadBox(sharedAddress(tileA), &aMap, k0, m0, batch, bar);
#else
      loadBox(sharedAddress(tileA), &aMap, m0, k0, batch, bar);
#endif
      loadBox(sharedAddress(tileB), &bMap, n0, k0, batch, bar);
    }
    waitPhase(bar, parity);
    parity ^= 1;
    for (int p = 0; p < kTileK; ++p) {
#if TCGEN_A_K_INNER
      float a = __half2float(tileA[ty][p]);
#else
      float a = __half2float(tileA[p][ty]);
#endif
      acc = fmaf(a, __half2float(tileB[p][tx]), acc);
    }
    __syncthreads();
  }
  long i = m0 + ty, j = n0 + tx;
  if (i < TCGEN_M && j < TCGEN_N)
    c[batch * long(TCGEN_SCB) + i * TCGEN_SC0 + j] = acc;
}
