// A histogram with atomics: outside the subset tcgen reschedule raises.
__global__ void histogram(int *bins, const int *data) {
  __shared__ int local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&local[data[blockIdx.x * 256 + threadIdx.x] & 255], 1);
  __syncthreads();
  bins[blockIdx.x * 256 + threadIdx.x] = local[threadIdx.x];
}
