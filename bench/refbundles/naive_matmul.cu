//===- naive_matmul.cu - Reference kernels for runtime tests ----*- CUDA -*-===//
//
// This file implements a naive matmul kernel, one thread per C element,
// that bench/refbundles/CMakeLists.txt compiles into hand-made bundles. They
// exercise libtcgen_rt and tcgen-gpu on a GPU without the compiler: cubin
// and PTX loading, clusters, large dynamic shared memory, strided layouts.
// Configured with -D: TCGEN_ENTRY, TCGEN_TA (A and B), TCGEN_TC, TCGEN_M,
// TCGEN_N, TCGEN_K, the strides TCGEN_SA0..TCGEN_SC1, and TCGEN_ACCUM.
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

/// C[i, j] (+)= sum_p A[i, p] B[p, j] in f32, for a 2-D grid of 2-D blocks.
extern "C" __global__ void TCGEN_ENTRY(const TCGEN_TA *__restrict__ a,
                                       const TCGEN_TA *__restrict__ b,
                                       TCGEN_TC *__restrict__ c) {
  long j = blockIdx.x * long(blockDim.x) + threadIdx.x;
  long i = blockIdx.y * long(blockDim.y) + threadIdx.y;
  if (i >= TCGEN_M || j >= TCGEN_N)
    return;
  float acc = 0.0f;
  for (long p = 0; p < TCGEN_K; ++p)
    acc = fmaf(toFloat(a[i * TCGEN_SA0 + p * TCGEN_SA1]),
               toFloat(b[p * TCGEN_SB0 + j * TCGEN_SB1]), acc);
  long o = i * TCGEN_SC0 + j * TCGEN_SC1;
#if TCGEN_ACCUM
  acc += toFloat(c[o]);
#endif
  c[o] = fromFloat<TCGEN_TC>(acc);
}
