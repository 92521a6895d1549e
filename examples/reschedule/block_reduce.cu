// Sum of each block's 2 * THREADS elements of `in` into out[blockIdx.x]:
// every thread adds two elements into a shared array, then a tree
// reduction halves the active threads each step, with a barrier between
// steps. Launch: grid (n / (2 * THREADS)), block (THREADS).
#define THREADS 256

__global__ void blockReduce(float *out, const float *in) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  int base = blockIdx.x * (2 * THREADS);
  partial[tid] = in[base + tid] + in[base + THREADS + tid];
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}
