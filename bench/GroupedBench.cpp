//===- GroupedBench.cpp - Timing grouped products ---------------*- C++ -*-===//
//
// This file implements benchGrouped (Grouped.h): a grouped product's
// kernel against a loop of cublasGemmEx calls and cublasGemmGroupedBatchedEx
// on the same routings.
//
//===----------------------------------------------------------------------===//

#include "CublasGemm.h"
#include "CudaUtil.h"
#include "Grouped.h"
#include "Timing.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {

/// The median time of `iters` runs of `run` (each between an event pair),
/// after `warmup` untimed ones. Returns "" or what failed.
std::string timeMedian(const std::function<std::string()> &run, int warmup,
                       int iters, cudaStream_t stream, double &ms) {
  for (int i = 0; i < warmup; ++i)
    if (std::string e = run(); !e.empty())
      return e;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> times;
  std::string e;
  for (int i = 0; i < iters && e.empty(); ++i) {
    cudaEventRecord(start, stream);
    e = run();
    cudaEventRecord(stop, stream);
    if (e.empty())
      e = formatCuda("cudaEventSynchronize", cudaEventSynchronize(stop));
    float t = 0;
    if (e.empty())
      cudaEventElapsedTime(&t, start, stop);
    times.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  ms = median(times);
  return e;
}

/// What the cuBLAS sides read: device addresses and the product's form.
struct GroupedCublas {
  cublasHandle_t handle = nullptr;
  const char *a = nullptr, *b = nullptr;
  char *c = nullptr;
  int64_t n = 0, k = 0, groups = 0;
  size_t abBytes = 2, cBytes = 2;
  bool bKMajor = true;
  cudaDataType_t abType = CUDA_R_16F, cType = CUDA_R_16F;

  /// C's rows of group g = A's rows B[g] through cuBLAS's column-major
  /// view: C^T (n x rows) = op(B[g]) (n x k) A^T (k x rows).
  std::string gemm(const std::vector<int64_t> &offsets, int64_t g) const {
    int rows = int(offsets[size_t(g) + 1] - offsets[size_t(g)]);
    if (rows == 0)
      return "";
    float alpha = 1, beta = 0;
    const char *bg = b + size_t(g) * size_t(n * k) * abBytes;
    const char *ag = a + size_t(offsets[size_t(g)] * k) * abBytes;
    char *cg = c + size_t(offsets[size_t(g)] * n) * cBytes;
    cublasStatus_t s = cublasGemmEx(
        handle, bKMajor ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, int(n), rows,
        int(k), &alpha, bg, abType, int(bKMajor ? k : n), ag, abType, int(k),
        &beta, cg, cType, int(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return s == CUBLAS_STATUS_SUCCESS
               ? ""
               : "cublasGemmEx failed (status " + std::to_string(int(s)) + ")";
  }
};

/// One call of cublasGemmGroupedBatchedEx over the non-empty groups (a
/// group of one problem each); the pointer arrays live on the device.
struct GroupedBatchedCall {
  std::vector<cublasOperation_t> opA, opB;
  std::vector<int> m, n, k, lda, ldb, ldc, sizes;
  std::vector<float> alpha, beta;
  DeviceBuffer pointers;
  int count = 0;

  std::string prepare(const GroupedCublas &g,
                      const std::vector<int64_t> &offsets) {
    std::vector<const void *> ptrs[3];
    for (int64_t i = 0; i < g.groups; ++i) {
      int rows = int(offsets[size_t(i) + 1] - offsets[size_t(i)]);
      if (rows == 0)
        continue;
      opA.push_back(g.bKMajor ? CUBLAS_OP_T : CUBLAS_OP_N);
      opB.push_back(CUBLAS_OP_N);
      m.push_back(int(g.n)), n.push_back(rows), k.push_back(int(g.k));
      lda.push_back(int(g.bKMajor ? g.k : g.n)), ldb.push_back(int(g.k));
      ldc.push_back(int(g.n));
      alpha.push_back(1), beta.push_back(0), sizes.push_back(1);
      ptrs[0].push_back(g.b + size_t(i) * size_t(g.n * g.k) * g.abBytes);
      ptrs[1].push_back(g.a + size_t(offsets[size_t(i)] * g.k) * g.abBytes);
      ptrs[2].push_back(g.c + size_t(offsets[size_t(i)] * g.n) * g.cBytes);
    }
    count = int(sizes.size());
    std::vector<const void *> all;
    for (auto &p : ptrs)
      all.insert(all.end(), p.begin(), p.end());
    if (all.empty())
      return "";
    std::string e = pointers.allocate(all.size() * sizeof(void *));
    if (e.empty())
      e = pointers.upload(all.data(), all.size() * sizeof(void *));
    return e;
  }

  std::string run(const GroupedCublas &g) const {
    if (count == 0)
      return "";
#if CUBLAS_VERSION >= 120500
    auto *p = static_cast<void **>(pointers.get());
    cublasStatus_t s = cublasGemmGroupedBatchedEx(
        g.handle, opA.data(), opB.data(), m.data(), n.data(), k.data(),
        alpha.data(), p, g.abType, lda.data(), p + count, g.abType, ldb.data(),
        beta.data(), p + 2 * count, g.cType, ldc.data(), count, sizes.data(),
        CUBLAS_COMPUTE_32F);
    return s == CUBLAS_STATUS_SUCCESS
               ? ""
               : "cublasGemmGroupedBatchedEx failed (status " +
                     std::to_string(int(s)) + ")";
#else
    return "cublasGemmGroupedBatchedEx needs cuBLAS 12.5 or later";
#endif
  }
};

} // namespace

std::string tcgen::bench::benchGrouped(rt::Kernel &kernel,
                                       const BenchOptions &options,
                                       BenchRow &row) {
  const Manifest &manifest = kernel.manifest();
  const Operand *a = manifest.findRole(OperandRole::Lhs);
  const Operand *b = manifest.findRole(OperandRole::Rhs);
  const Operand *c = manifest.findRole(OperandRole::Out);
  const Operand *off = manifest.findRole(OperandRole::Offsets);
  if (!a || !b || !c || !off || b->shape.size() != 3)
    return "a grouped product needs A, B [groups, k, n], C and the offsets";
  row.entry = manifest.entry;
  row.backend = manifest.target.backend;
  row.m = manifest.op.m, row.n = manifest.op.n, row.k = manifest.op.k;
  row.aType = dtypeName(a->dtype);
  row.cType = dtypeName(c->dtype);
  row.accumulator = dtypeName(manifest.op.accumulator);
  row.cublasCompute = "CUBLAS_COMPUTE_32F";
  row.cublasCall = "cublasGemmEx per group";
  row.baselines = {BaselineTiming{"cublasGemmGroupedBatchedEx"}};
  row.iters = options.iters;
  // Random A and B, C and the offsets on the device.
  std::vector<HostMatrix> host(manifest.operands.size());
  for (size_t i = 0; i < host.size(); ++i) {
    const Operand &o = manifest.operands[i];
    if (&o == off) {
      host[i].allocate(o.dtype, 1, o.shape[0], 0, 1);
      continue;
    }
    allocateHostOperand(o, host[i]);
    host[i].fillRandom(options.seed, i);
  }
  DeviceOperands dev;
  std::string e = dev.create(manifest, host);
  if (!e.empty())
    return e;
  const size_t ai = size_t(a - manifest.operands.data());
  const size_t bi = size_t(b - manifest.operands.data());
  const size_t ci = size_t(c - manifest.operands.data());
  const size_t oi = size_t(off - manifest.operands.data());
  GroupedCublas g;
  g.a = static_cast<const char *>(dev.buffers[ai].get());
  g.b = static_cast<const char *>(dev.buffers[bi].get());
  g.c = static_cast<char *>(dev.buffers[ci].get());
  g.n = manifest.op.n, g.k = manifest.op.k, g.groups = manifest.op.groups;
  g.bKMajor = b->strides[1] == 1; // B [groups, k, n] stored [g][n][k]
  g.abType = cudaTypeOf(a->dtype), g.cType = cudaTypeOf(c->dtype);
  g.abBytes = size_t(dtypeSize(a->dtype)),
  g.cBytes = size_t(dtypeSize(c->dtype));
  cudaStream_t stream = nullptr;
  if (cublasCreate(&g.handle) != CUBLAS_STATUS_SUCCESS)
    return "cublasCreate failed";
  cublasSetStream(g.handle, stream);
  std::string note;
  for (const std::string &kind : groupedRoutings()) {
    std::vector<int64_t> offsets =
        groupedOffsets(kind, manifest.op.m, g.groups, options.seed);
    HostMatrix &ho = host[oi];
    for (size_t i = 0; i < offsets.size(); ++i) {
      if (off->dtype == DType::I64) {
        int64_t v = offsets[i];
        std::memcpy(ho.bytes.data() + 8 * i, &v, 8);
      } else {
        int32_t v = int32_t(offsets[i]);
        std::memcpy(ho.bytes.data() + 4 * i, &v, 4);
      }
    }
    if (!(e = dev.buffers[oi].upload(ho.bytes.data(), ho.bytes.size())).empty())
      break;
    double tcgenMs = 0, loopMs = 0,
           groupedMs = std::numeric_limits<double>::quiet_NaN();
    e = timeMedian([&] { return kernel.launch(dev.args, stream); },
                   options.warmup, options.iters, stream, tcgenMs);
    if (e.empty())
      e = timeMedian(
          [&]() -> std::string {
            for (int64_t i = 0; i < g.groups; ++i)
              if (std::string err = g.gemm(offsets, i); !err.empty())
                return err;
            return "";
          },
          options.warmup, options.iters, stream, loopMs);
    if (!e.empty())
      break;
    GroupedBatchedCall call;
    std::string ge = call.prepare(g, offsets);
    if (ge.empty())
      ge = timeMedian([&] { return call.run(g); }, options.warmup,
                      options.iters, stream, groupedMs);
    if (!ge.empty())
      groupedMs = std::numeric_limits<double>::quiet_NaN();
    char text[256];
    std::snprintf(text, sizeof(text),
                  "%s%s: tcgen %.4f ms, cublasGemmEx loop %.4f ms (%.3fx), "
                  "cublasGemmGroupedBatchedEx %s",
                  note.empty() ? "" : "; ", kind.c_str(), tcgenMs, loopMs,
                  loopMs / tcgenMs,
                  ge.empty() ? fmt("%.4f ms", groupedMs).c_str() : ge.c_str());
    note += text;
    if (kind == "balanced") {
      row.tcgenMs = tcgenMs;
      row.cublasMs = loopMs;
      row.baselines[0].ms = groupedMs;
    }
  }
  cublasDestroy(g.handle);
  row.ltMs = std::numeric_limits<double>::quiet_NaN();
  row.note = row.note.empty() ? note : row.note + "; " + note;
  return e;
}
