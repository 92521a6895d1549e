//===- naive_matmul.cu - Reference kernels for runtime tests ----*- CUDA -*-===//
//
// This file implements a naive matmul kernel, one thread per C element,
// that bench/refbundles/CMakeLists.txt compiles into hand-made bundles. They
// exercise libtcgen_rt and tcgen-gpu on a GPU without the compiler: cubin
// and PTX loading, clusters, large dynamic shared memory, strided layouts,
// batched matmuls. Configured with -D: TCGEN_ENTRY, TCGEN_TA (A and B),
// TCGEN_TC, TCGEN_M, TCGEN_N, TCGEN_K, the strides TCGEN_SA0..TCGEN_SC1,
// TCGEN_ACCUM; TCGEN_BATCH (default 1) matrices, one per blockIdx.z, with
// the batch strides TCGEN_SAB, TCGEN_SBB and TCGEN_SCB, and
// TCGEN_WRONG_BATCH, a kernel the check must fail, which reads matrix 0 of
// A where matrix 1 is due; and TCGEN_EPILOGUE, a fused epilogue with its
// extra parameters (the matching op.epilogue is in CMakeLists.txt):
//   0    none: (a, b, c);
//   1    bias + ReLU in f16: (a, b, c, bias), bias a row [n] of f16 and
//        C f16: c = max(f16(f16(acc) + bias[j]), 0);
//   2    tanh(acc * s[i] + t) + r[i, j] + bias[j] in f32: (a, b, c, s, t,
//        r, bias), s a col [m] of f32, t a rank-0 f32, r an [m, n] bf16
//        matrix with row stride TCGEN_SR0, bias a row [n] of f16, C f32;
//   3    a dual GEMM's SwiGLU, silu(acc) * acc2 in f32 with acc2 the
//        second product sum_p a[i, p] b2[p, j]: (a, b, c, b2), B2 with
//        strides TCGEN_SB2_0 and TCGEN_SB2_1;
// and, for epilogue 1's manifest, kernels that the check must fail:
//   101  the epilogue skipped: c = f16(acc);
//   102  the bias read along the wrong dimension: bias[i % n];
// and, for epilogue 3's:
//   103  the products swapped: silu(acc2) * acc.
//
//===----------------------------------------------------------------------===//

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ inline float toFloat(__half x) { return __half2float(x); }
__device__ inline float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ inline float toFloat(float x) { return x; }

template <typename T> __device__ T fromFloat(float x);
template <> __device__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ float fromFloat<float>(float x) { return x; }

#ifndef TCGEN_EPILOGUE
#define TCGEN_EPILOGUE 0
#endif
#ifndef TCGEN_BATCH
#define TCGEN_BATCH 1
#define TCGEN_SAB 0
#define TCGEN_SBB 0
#define TCGEN_SCB 0
#endif
#ifndef TCGEN_WRONG_BATCH
#define TCGEN_WRONG_BATCH 0
#endif
#define TCGEN_BIAS_RELU                                                        \
  (TCGEN_EPILOGUE == 1 || TCGEN_EPILOGUE == 101 || TCGEN_EPILOGUE == 102)
#define TCGEN_DUAL (TCGEN_EPILOGUE == 3 || TCGEN_EPILOGUE == 103)

/// Rounds to f16 and back: the f16 steps of an epilogue.
__device__ inline float roundF16(float x) {
  return __half2float(__float2half_rn(x));
}

/// C[b, i, j] (+)= sum_p A[b, i, p] B[b, p, j] in f32, for a grid of 2-D
/// blocks with the batch b along z, then the epilogue.
extern "C" __global__ void TCGEN_ENTRY(const TCGEN_TA *__restrict__ a,
                                       const TCGEN_TA *__restrict__ b,
                                       TCGEN_TC *__restrict__ c
#if TCGEN_BIAS_RELU
                                       ,
                                       const __half *__restrict__ bias
#elif TCGEN_EPILOGUE == 2
                                       ,
                                       const float *__restrict__ s,
                                       const float *__restrict__ t,
                                       const __nv_bfloat16 *__restrict__ r,
                                       const __half *__restrict__ bias
#elif TCGEN_DUAL
                                       ,
                                       const TCGEN_TA *__restrict__ b2
#endif
) {
  long j = blockIdx.x * long(blockDim.x) + threadIdx.x;
  long i = blockIdx.y * long(blockDim.y) + threadIdx.y;
  long batch = blockIdx.z;
  if (i >= TCGEN_M || j >= TCGEN_N || batch >= TCGEN_BATCH)
    return;
  long batchA = TCGEN_WRONG_BATCH && batch == 1 ? 0 : batch;
  a += batchA * TCGEN_SAB;
  b += batch * TCGEN_SBB;
  c += batch * TCGEN_SCB;
  float acc = 0.0f;
  for (long p = 0; p < TCGEN_K; ++p)
    acc = fmaf(toFloat(a[i * TCGEN_SA0 + p * TCGEN_SA1]),
               toFloat(b[p * TCGEN_SB0 + j * TCGEN_SB1]), acc);
  long o = i * TCGEN_SC0 + j * TCGEN_SC1;
#if TCGEN_ACCUM
  acc += toFloat(c[o]);
#endif
#if TCGEN_EPILOGUE == 1 || TCGEN_EPILOGUE == 102
  // addf, constant 0, maximumf, all in f16 after the k-sum's rounding.
  long bj = TCGEN_EPILOGUE == 1 ? j : i % TCGEN_N;
  acc = fmaxf(roundF16(roundF16(acc) + __half2float(bias[bj])), 0.0f);
#elif TCGEN_EPILOGUE == 2
  acc = tanhf(acc * s[i] + t[0]) + __bfloat162float(r[i * TCGEN_SR0 + j]) +
        __half2float(bias[j]);
#elif TCGEN_DUAL
  float acc2 = 0.0f;
  for (long p = 0; p < TCGEN_K; ++p)
    acc2 = fmaf(toFloat(a[i * TCGEN_SA0 + p * TCGEN_SA1]),
                toFloat(b2[p * TCGEN_SB2_0 + j * TCGEN_SB2_1]), acc2);
  float gate = TCGEN_EPILOGUE == 3 ? acc : acc2;
  float up = TCGEN_EPILOGUE == 3 ? acc2 : acc;
  acc = gate / (1.0f + expf(-gate)) * up;
#endif
  c[o] = fromFloat<TCGEN_TC>(acc);
}
