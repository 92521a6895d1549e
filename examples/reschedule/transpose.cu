// Tiled transpose out = in^T of a rows x cols matrix through a padded
// shared tile: each block reads a TILE x TILE tile row-wise, synchronizes,
// and writes it transposed, so both global accesses are coalesced.
// Launch: grid (cols / TILE, rows / TILE), block (TILE, TILE).
#define TILE 32

__global__ void transposeTiled(float *out, const float *in, int rows,
                               int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}
