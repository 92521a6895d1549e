// Blocked matrix multiplication C = A * B, one BLOCK_SIZE x BLOCK_SIZE
// tile of C per thread block, staged through shared memory: the
// MatrixMulCUDA kernel of the CUDA samples (matrixMul), re-typed as the
// seed paper shows it. Launch: grid (wB / BLOCK_SIZE, hA / BLOCK_SIZE),
// block (BLOCK_SIZE, BLOCK_SIZE).
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

template __global__ void MatrixMulCUDA<16>(float *, float *, float *, int,
                                           int);
template __global__ void MatrixMulCUDA<32>(float *, float *, float *, int,
                                           int);
