// SGEMM C = A * B (row-major, M x K times K x N) with shared tiles and a
// 2 x 2 register tile per thread: a block of (BN / 2) x (BM / 2) threads
// computes a BM x BN tile of C; each K step stages a BM x BK tile of A and
// a BK x BN tile of B in shared memory. M, N, K multiples of the tiles.
// The register tile is indexed by constants only (tcgen reschedule runs
// no loop unrolling, so a loop over a local array would stay local
// memory, which is outside the subset). Launch: grid (N / BN, M / BM),
// block (BN / 2, BM / 2).
#define BM 32
#define BN 32
#define BK 16
#define THREADS ((BM / 2) * (BN / 2))

__global__ void sgemmRegisterTiles(float *C, const float *A, const float *B,
                                   int M, int N, int K) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  int tx = threadIdx.x; // 0 .. BN / 2
  int ty = threadIdx.y; // 0 .. BM / 2
  int rowBase = blockIdx.y * BM;
  int colBase = blockIdx.x * BN;
  int tid = ty * (BN / 2) + tx;
  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BM * BK; e += THREADS)
      As[e / BK][e % BK] = A[(rowBase + e / BK) * K + k0 + e % BK];
    for (int e = tid; e < BK * BN; e += THREADS)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + colBase + e % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float a0 = As[ty * 2][k], a1 = As[ty * 2 + 1][k];
      float b0 = Bs[k][tx * 2], b1 = Bs[k][tx * 2 + 1];
      acc[0][0] += a0 * b0;
      acc[0][1] += a0 * b1;
      acc[1][0] += a1 * b0;
      acc[1][1] += a1 * b1;
    }
    __syncthreads();
  }
  int row = rowBase + ty * 2, col = colBase + tx * 2;
  C[row * N + col] = acc[0][0];
  C[row * N + col + 1] = acc[0][1];
  C[(row + 1) * N + col] = acc[1][0];
  C[(row + 1) * N + col + 1] = acc[1][1];
}
