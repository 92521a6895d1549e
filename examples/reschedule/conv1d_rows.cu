// A 3-tap convolution along rows (a tiled 1-D stencil with halos), each
// block marching over its row in chunks of THREADS outputs: every chunk's
// THREADS + 2 inputs (the halo of one element on each side) are staged
// through shared memory with plain loads, over-fetching 2 x THREADS
// elements so that every thread copies unconditionally.
// out[r][j] = w0 in[r][j] + w1 in[r][j+1] + w2 in[r][j+2] for j < width
// (in has width + THREADS + 2 columns). The output is stored inside the
// loop: `__restrict__` says it aliases no input, so later chunks' copies
// may run before it. Launch: grid (rows), block (THREADS).
#define THREADS 256

__global__ void conv1dRows(float *__restrict__ out,
                           const float *__restrict__ in, int width,
                           int inWidth, float w0, float w1, float w2) {
  __shared__ float tile[2 * THREADS];
  int tid = threadIdx.x;
  const float *row = in + blockIdx.x * inWidth;
  float *outRow = out + blockIdx.x * width;
  for (int j = 0; j < width; j += THREADS) {
    tile[tid] = row[j + tid];
    tile[tid + THREADS] = row[j + THREADS + tid];
    __syncthreads();
    outRow[j + tid] = w0 * tile[tid] + w1 * tile[tid + 1] + w2 * tile[tid + 2];
    __syncthreads();
  }
}
