//===- LaunchProbe.cu - What a launch costs beyond the kernel's own time --===//
//
// tcgen-launch-probe times kernels that do nothing but wait a fixed number
// of cycles, each with one property of a Hopper GEMM kernel added: 384
// threads, ~200 KiB of dynamic shared memory, tensor maps passed by value,
// setmaxnreg, stores at the end (plain, or a bulk copy from shared memory
// waited for in full or only for its reads), a 2x1 cluster. For each it
// prints the time between CUDA events around one launch (what the
// benchmark measures), the span the kernel sees itself (first block's start
// to last block's end, %globaltimer) and the time per launch of ten
// launches back to back. All variants alternate in every round, queued
// behind a gate, as the benchmark does. Then the host's side: microseconds
// of the calling thread per launch call, for a kernel without parameters,
// with two pointers, with three tensor maps by value (cudaLaunchKernelEx
// and cuLaunchKernel), and a one-kernel CUDA graph: the floor under any
// library's launch path on this machine. Needs no MLIR and no tcgen bundle.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Span {
  unsigned long long *start; // per launch: the first block's start
  unsigned long long *end;   // per launch: the last block's end
};

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void spinBegin(Span span, int slot,
                                          long long cycles) {
  if (threadIdx.x == 0) {
    atomicMin(&span.start[slot], globalTimer());
    long long c0 = clock64();
    while (clock64() - c0 < cycles) {
    }
  }
  __syncthreads();
}

__device__ __forceinline__ void spinEnd(Span span, int slot) {
  __syncthreads();
  if (threadIdx.x == 0)
    atomicMax(&span.end[slot], globalTimer());
}

__global__ void plainKernel(Span span, int slot, long long cycles) {
  spinBegin(span, slot, cycles);
  spinEnd(span, slot);
}

__global__ void __launch_bounds__(384, 1)
    tensorMapKernel(const __grid_constant__ CUtensorMap a,
                    const __grid_constant__ CUtensorMap b,
                    const __grid_constant__ CUtensorMap c, Span span, int slot,
                    long long cycles) {
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&a) : "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(&b) : "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(&c) : "memory");
  }
  spinBegin(span, slot, cycles);
  spinEnd(span, slot);
}

// The register split of a warp-specialized kernel: the first warpgroup
// gives registers back, the other two take them.
__global__ void __launch_bounds__(384, 1)
    regsKernel(Span span, int slot, long long cycles) {
  if (threadIdx.x < 128)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  spinBegin(span, slot, cycles);
  spinEnd(span, slot);
}

constexpr int kTileBytes = 128 * 256 * 2; // one 128 x 256 f16 tile

// Every block stores a tile with 16-byte stores from all threads.
__global__ void __launch_bounds__(384, 1)
    storeKernel(Span span, int slot, long long cycles, int4 *out) {
  spinBegin(span, slot, cycles);
  int4 *tile = out + size_t(blockIdx.x) * (kTileBytes / 16);
  for (int i = threadIdx.x; i < kTileBytes / 16; i += blockDim.x)
    tile[i] = make_int4(i, slot, 0, 1);
  spinEnd(span, slot);
}

// Every block copies a tile from shared memory with bulk copies (as TMA
// stores do), then waits for them to complete (READ_ONLY: only for their
// reads of shared memory).
template <bool READ_ONLY>
__global__ void __launch_bounds__(384, 1)
    bulkStoreKernel(Span span, int slot, long long cycles, char *out) {
  extern __shared__ __align__(128) char smem[];
  spinBegin(span, slot, cycles);
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    char *tile = out + size_t(blockIdx.x) * kTileBytes;
    constexpr int kChunk = 16384;
    for (int i = 0; i < kTileBytes / kChunk; ++i) {
      unsigned src =
          static_cast<unsigned>(__cvta_generic_to_shared(smem + i * kChunk));
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], "
                   "%2;" ::"l"(tile + i * kChunk),
                   "r"(src), "n"(kChunk)
                   : "memory");
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (READ_ONLY)
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    else
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
  spinEnd(span, slot);
}

__global__ void emptyKernel() {}
__global__ void pointerKernel(const float *a, float *b) {
  if (a == b && threadIdx.x == 1024)
    b[0] = 0;
}

enum class Kind { Plain, TensorMaps, Regs, Store, Bulk, BulkRead };

struct Variant {
  std::string name;
  Kind kind;
  int threads;
  int smemBytes;
  int cluster; // blocks per cluster along x (1: none)
};

struct Context {
  int blocks = 0;
  long long cycles = 0;
  Span span{};
  CUtensorMap maps[3];
  void *out = nullptr;
};

void launch(const Variant &v, const Context &ctx, int slot,
            cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(ctx.blocks);
  config.blockDim = dim3(v.threads);
  config.dynamicSmemBytes = v.smemBytes;
  config.stream = stream;
  cudaLaunchAttribute attribute = {};
  if (v.cluster > 1) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = v.cluster;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  switch (v.kind) {
  case Kind::Plain:
    CHECK(cudaLaunchKernelEx(&config, plainKernel, ctx.span, slot, ctx.cycles));
    break;
  case Kind::TensorMaps:
    CHECK(cudaLaunchKernelEx(&config, tensorMapKernel, ctx.maps[0], ctx.maps[1],
                             ctx.maps[2], ctx.span, slot, ctx.cycles));
    break;
  case Kind::Regs:
    CHECK(cudaLaunchKernelEx(&config, regsKernel, ctx.span, slot, ctx.cycles));
    break;
  case Kind::Store:
    CHECK(cudaLaunchKernelEx(&config, storeKernel, ctx.span, slot, ctx.cycles,
                             static_cast<int4 *>(ctx.out)));
    break;
  case Kind::Bulk:
    CHECK(cudaLaunchKernelEx(&config, bulkStoreKernel<false>, ctx.span, slot,
                             ctx.cycles, static_cast<char *>(ctx.out)));
    break;
  case Kind::BulkRead:
    CHECK(cudaLaunchKernelEx(&config, bulkStoreKernel<true>, ctx.span, slot,
                             ctx.cycles, static_cast<char *>(ctx.out)));
    break;
  }
}

void allowSmem(const void *f) {
  CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             227 * 1024));
}

struct GateArg {
  std::atomic<bool> open{false};
};

void CUDART_CB gateWait(void *p) {
  auto *g = static_cast<GateArg *>(p);
  for (int i = 0; i < 2000000 && !g->open.load(std::memory_order_acquire); ++i)
    std::this_thread::yield();
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Prints the host microseconds per call of launch calls (the median of
/// rounds of 64 calls, one block each so that the GPU keeps up).
void hostCosts(const Context &ctx, cudaStream_t stream) {
  float *buffer = static_cast<float *>(ctx.out);
  CUfunction empty, maps;
  CHECK(cudaGetFuncBySymbol(&empty, reinterpret_cast<const void *>(emptyKernel)));
  CHECK(cudaGetFuncBySymbol(&maps,
                            reinterpret_cast<const void *>(tensorMapKernel)));
  Span span = ctx.span;
  int slot = 0;
  long long cycles = 0;
  void *mapParams[] = {const_cast<CUtensorMap *>(&ctx.maps[0]),
                       const_cast<CUtensorMap *>(&ctx.maps[1]),
                       const_cast<CUtensorMap *>(&ctx.maps[2]), &span, &slot,
                       &cycles};
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  emptyKernel<<<1, 32, 0, stream>>>();
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  // A graph of one tensor-map kernel whose parameters are set anew before
  // every launch (what a plan launched as a graph would do for new
  // addresses).
  cudaGraph_t mapGraph;
  cudaGraphExec_t mapExec;
  cudaGraphNode_t mapNode;
  cudaKernelNodeParams nodeParams = {};
  nodeParams.func = reinterpret_cast<void *>(tensorMapKernel);
  nodeParams.gridDim = dim3(1);
  nodeParams.blockDim = dim3(384);
  nodeParams.kernelParams = mapParams;
  CHECK(cudaGraphCreate(&mapGraph, 0));
  CHECK(cudaGraphAddKernelNode(&mapNode, mapGraph, nullptr, 0, &nodeParams));
  CHECK(cudaGraphInstantiate(&mapExec, mapGraph, 0));
  struct Call {
    const char *name;
    std::function<void()> run;
  } calls[] = {
      {"empty kernel, <<<>>>", [&] { emptyKernel<<<1, 32, 0, stream>>>(); }},
      {"empty kernel, cuLaunchKernel",
       [&] {
         if (cuLaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, stream, nullptr,
                            nullptr) != CUDA_SUCCESS)
           std::exit(1);
       }},
      {"two pointers, <<<>>>",
       [&] { pointerKernel<<<1, 32, 0, stream>>>(buffer, buffer + 1); }},
      {"3 tensor maps, cuLaunchKernel",
       [&] {
         if (cuLaunchKernel(maps, 1, 1, 1, 384, 1, 1, 0, stream, mapParams,
                            nullptr) != CUDA_SUCCESS)
           std::exit(1);
       }},
      {"one-kernel graph, cudaGraphLaunch",
       [&] { CHECK(cudaGraphLaunch(exec, stream)); }},
      {"3 tensor maps, graph launch",
       [&] { CHECK(cudaGraphLaunch(mapExec, stream)); }},
      {"3 tensor maps, set node params + graph launch",
       [&] {
         CHECK(cudaGraphExecKernelNodeSetParams(mapExec, mapNode, &nodeParams));
         CHECK(cudaGraphLaunch(mapExec, stream));
       }},
  };
  std::printf("launch call,host_us_per_call\n");
  for (const Call &c : calls) {
    std::vector<double> perCall;
    for (int r = 0; r < 15; ++r) {
      CHECK(cudaStreamSynchronize(stream));
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 64; ++i)
        c.run();
      auto t1 = std::chrono::steady_clock::now();
      perCall.push_back(
          std::chrono::duration<double, std::micro>(t1 - t0).count() / 64);
    }
    std::printf("%s,%.2f\n", c.name, median(perCall));
  }
  CHECK(cudaStreamSynchronize(stream));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaGraphExecDestroy(mapExec);
  cudaGraphDestroy(mapGraph);
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 100;
  long long cycles = argc > 2 ? std::atoll(argv[2]) : 40000;
  constexpr int kBatch = 10;

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  Context ctx;
  ctx.blocks = prop.multiProcessorCount;
  ctx.cycles = cycles;
  CHECK(cudaMalloc(&ctx.out, size_t(ctx.blocks) * kTileBytes));

  // Three tensor maps over a 2048 x 2048 f16 matrix, 64 x 64 boxes.
  void *matrix = nullptr;
  CHECK(cudaMalloc(&matrix, 2048 * 2048 * 2));
  for (CUtensorMap &map : ctx.maps) {
    cuuint64_t dims[2] = {2048, 2048};
    cuuint64_t strides[1] = {2048 * 2};
    cuuint32_t box[2] = {64, 64};
    cuuint32_t elementStrides[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(
        &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, matrix, dims, strides, box,
        elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
      return 1;
    }
  }
  allowSmem(reinterpret_cast<const void *>(plainKernel));
  allowSmem(reinterpret_cast<const void *>(tensorMapKernel));
  allowSmem(reinterpret_cast<const void *>(regsKernel));
  allowSmem(reinterpret_cast<const void *>(storeKernel));
  allowSmem(reinterpret_cast<const void *>(bulkStoreKernel<false>));
  allowSmem(reinterpret_cast<const void *>(bulkStoreKernel<true>));

  const int big = 200 * 1024;
  std::vector<Variant> variants = {
      {"128 threads", Kind::Plain, 128, 0, 1},
      {"384 threads", Kind::Plain, 384, 0, 1},
      {"384 + 100 KiB", Kind::Plain, 384, 100 * 1024, 1},
      {"384 + 200 KiB", Kind::Plain, 384, big, 1},
      {"384 + 227 KiB", Kind::Plain, 384, 227 * 1024, 1},
      {"+ 3 tensor maps", Kind::TensorMaps, 384, big, 1},
      {"+ setmaxnreg", Kind::Regs, 384, big, 1},
      {"+ st.global 64 KiB", Kind::Store, 384, big, 1},
      {"+ bulk store, wait", Kind::Bulk, 384, big, 1},
      {"+ bulk store, .read", Kind::BulkRead, 384, big, 1},
      {"+ 2x1 cluster", Kind::Plain, 384, big, 2},
  };
  const int nv = static_cast<int>(variants.size());
  const int slotsPerRound = nv * (1 + kBatch);
  const int slots = rounds * slotsPerRound;
  CHECK(cudaMalloc(&ctx.span.start, slots * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&ctx.span.end, slots * sizeof(unsigned long long)));
  CHECK(cudaMemset(ctx.span.start, 0xff, slots * sizeof(unsigned long long)));
  CHECK(cudaMemset(ctx.span.end, 0, slots * sizeof(unsigned long long)));

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Warm up every variant.
  for (int i = 0; i < nv; ++i)
    launch(variants[i], ctx, 0, stream);
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemset(ctx.span.start, 0xff, slots * sizeof(unsigned long long)));
  CHECK(cudaMemset(ctx.span.end, 0, slots * sizeof(unsigned long long)));

  std::vector<cudaEvent_t> events(size_t(rounds) * nv * 4);
  for (cudaEvent_t &e : events)
    CHECK(cudaEventCreate(&e));
  for (int r = 0; r < rounds; ++r) {
    GateArg gate;
    CHECK(cudaLaunchHostFunc(stream, gateWait, &gate));
    for (int i = 0; i < nv; ++i) {
      cudaEvent_t *e = &events[(size_t(r) * nv + i) * 4];
      int slot = r * slotsPerRound + i * (1 + kBatch);
      CHECK(cudaEventRecord(e[0], stream));
      launch(variants[i], ctx, slot, stream);
      CHECK(cudaEventRecord(e[1], stream));
      CHECK(cudaEventRecord(e[2], stream));
      for (int b = 0; b < kBatch; ++b)
        launch(variants[i], ctx, slot + 1 + b, stream);
      CHECK(cudaEventRecord(e[3], stream));
    }
    gate.open.store(true, std::memory_order_release);
    CHECK(cudaStreamSynchronize(stream));
  }
  std::vector<unsigned long long> start(slots), end(slots);
  CHECK(cudaMemcpy(start.data(), ctx.span.start, slots * sizeof(start[0]),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(end.data(), ctx.span.end, slots * sizeof(end[0]),
                   cudaMemcpyDeviceToHost));

  std::printf("# %s, %d blocks, %lld cycles of wait, %d rounds\n", prop.name,
              ctx.blocks, cycles, rounds);
  std::printf("variant,event_us,span_us,event_minus_span_us,batch_per_launch_"
              "us,batch_minus_span_us\n");
  for (int i = 0; i < nv; ++i) {
    std::vector<double> single, span, batch;
    for (int r = 0; r < rounds; ++r) {
      cudaEvent_t *e = &events[(size_t(r) * nv + i) * 4];
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e[0], e[1]));
      single.push_back(ms * 1e3);
      CHECK(cudaEventElapsedTime(&ms, e[2], e[3]));
      batch.push_back(ms * 1e3 / kBatch);
      int slot = r * slotsPerRound + i * (1 + kBatch);
      span.push_back((end[slot] - start[slot]) * 1e-3);
    }
    double s = median(span);
    std::printf("%s,%.2f,%.2f,%.2f,%.2f,%.2f\n", variants[i].name.c_str(),
                median(single), s, median(single) - s, median(batch),
                median(batch) - s);
  }
  hostCosts(ctx, stream);
  return 0;
}
