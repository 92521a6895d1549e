//===- Bench.cpp - Timing a bundle against cuBLAS -------------------------===//
//
// This file implements benchBundle(). Runs alternate tcgen / cuBLAS /
// cuBLASLt each iteration, because the GPU's clock drops under its power cap
// after about a second of load; inputs rotate over several buffer sets when
// they would otherwise stay resident in L2. Work is queued in small batches
// behind a host-side gate so that the GPU never waits on the CPU between
// timed runs. A fusion baseline (BaselineRunner) joins the alternation
// right after the kernel, on the same buffers; its output is compared with
// the kernel's before anything is timed. A dual GEMM (op.dual) has two,
// each in its turn, and its cuBLAS sides multiply the concatenated weights
// (DualWeights).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "Check.h"

#include "Timing.h"

#include "CublasGemm.h"
#include "EpilogueKernel.h"
#include "Gemm.h"
#include "Grouped.h"
#include "Pointwise.h"
#include "tcgen/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kBatch = 8; // Iterations queued per gate.
constexpr size_t kCublasWorkspace = 32u << 20;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Events of one iteration: tcgen [0, 1], cuBLAS [2, 3], cuBLASLt [4, 5],
// then per baseline b [6 + 3b, 8 + 3b] with [7 + 3b] between its matmul
// and pointwise parts.
constexpr int kSideEvents = 6;
constexpr int kEventsPerBaseline = 3;

const void *elementAt(const DeviceBuffer &b, int64_t offset, DType dtype) {
  return static_cast<const char *>(b.get()) + offset * dtypeSize(dtype);
}

/// A dual GEMM's weights side by side, [B | B2] (k x 2n), one copy per
/// buffer set, made before timing: what the concat baseline and the cuBLAS
/// sides multiply (one copy for all sets would stay in L2 where the sets
/// rotate so that the kernel's B and B2 do not). Row-major where B is,
/// else column-major: the [2n, k] row-major [B^T ; B2^T] of a fused
/// gate-and-up weight.
struct DualWeights {
  MatrixLayout layout;
  std::vector<DeviceBuffer> sets;

  /// The layout of [B | B2] for a B [k, n] laid out as `b`.
  static MatrixLayout layoutFor(const Operand &b) {
    int64_t k = b.shape[0], n = b.shape[1];
    return b.strides[1] == 1 ? MatrixLayout{k, 2 * n, 2 * n, 1}
                             : MatrixLayout{k, 2 * n, 1, k};
  }

  /// Concatenates B and B2 of `host` (manifest order) and uploads
  /// `numSets` copies. Returns "" or why not.
  std::string create(const Manifest &manifest,
                     const std::vector<HostMatrix> &host, size_t numSets) {
    const Operand *b = manifest.findRole(OperandRole::Rhs);
    const Operand *b2 = manifest.findRole(OperandRole::Rhs2);
    if (!b || !b2 || b->shape.size() != 2 || b2->shape != b->shape ||
        b2->dtype != b->dtype)
      return "a dual GEMM needs rank-2 B and B2 of one shape and dtype";
    const HostMatrix &hb = host[size_t(b - manifest.operands.data())];
    const HostMatrix &hb2 = host[size_t(b2 - manifest.operands.data())];
    int64_t k = b->shape[0], n = b->shape[1];
    layout = layoutFor(*b);
    HostMatrix cat;
    cat.allocate(b->dtype, k, 2 * n, layout.stride0, layout.stride1);
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) {
        cat.set(p, j, hb.get(p, j));
        cat.set(p, n + j, hb2.get(p, j));
      }
    sets.clear();
    sets.resize(numSets);
    for (DeviceBuffer &d : sets) {
      std::string e = d.allocate(cat.bytes.size());
      if (e.empty())
        e = d.upload(cat.bytes.data(), cat.bytes.size());
      if (!e.empty())
        return "the concatenated weights [B | B2]: " + e;
    }
    return "";
  }
};

/// An unfused baseline of a fused bundle (Baseline.h), set up once and run
/// on any buffer set: cuBLAS (or cuBLASLt) and the pointwise kernels of
/// Pointwise.h on the set's operands, with its own scratch for the
/// intermediate matmul result (or for relu(A)).
struct BaselineRunner {
  BaselinePlan plan;
  const Manifest *manifest = nullptr;
  cublasHandle_t cublas = nullptr; // stream already set
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  CublasPlan gemm;  // the matmul (each half for 2cublas+add, or A B)
  CublasPlan gemm2; // A2 B2 (2cublas+add over a second product), or A B2
  LtGemm lt;       // cublaslt-*
  /// The dual baselines: the bundle's epilogue as a pointwise kernel, and
  /// the concatenated weights (cublas concat + pointwise).
  EpilogueKernel pointwise;
  const DualWeights *dualWeights = nullptr;
  DeviceBuffer scratch, scratch2;
  DeviceBuffer biasCopy; // the bias in out's dtype, if the bundle's differs
  double scalar = 0;
  /// permute+cublas: the strided copy of a summed-batch operand into the
  /// matrix over K' = batch k (copyMatrices' arguments; rows 0: none).
  struct Permute {
    int64_t srcBatch = 0, srcLd = 0, dstBatch = 0, dstLd = 0;
    int64_t rows = 0, cols = 0;
  } permuteA, permuteB;
  /// Which part of run() is pointwise: 0 none, 1 the first (before the
  /// middle event), 2 the second.
  int pointwisePart = 0;

  const Operand &operand(size_t i) const { return manifest->operands[i]; }
  static MatrixLayout layoutOf(const Operand &o) {
    return {o.shape[0], o.shape[1], o.strides[0], o.strides[1]};
  }
  PwInput input(const DeviceOperands &d, size_t i) const {
    const Operand &o = operand(i);
    return {d.buffers[i].get(), o.dtype,
            o.shape.size() == 2 ? o.strides[0] : 0};
  }
  PwOutput output(const DeviceOperands &d) const {
    return {d.buffers[plan.out].get(), plan.outType,
            operand(plan.out).strides[0]};
  }
  const void *biasFor(const DeviceOperands &d) const {
    return biasCopy.get() ? biasCopy.get() : d.buffers[*plan.bias].get();
  }

  /// permute+cublas: the layout of the summed-batch operand `o`, [batch,
  /// rows, cols] with K = cols (A, `kIsCols`) or rows (B), as one matrix
  /// whose K dimension runs over (batch, K): the operand itself where its
  /// batch stride is K's times k, else a copy into `to` (row-major [m, K']
  /// or [K', n] where the operand's cols are contiguous, column-major
  /// where its rows are), which `permute` describes.
  std::string flatten(const Operand &o, bool kIsCols, MatrixLayout &layout,
                      Permute &permute, DeviceBuffer &to) {
    int64_t batch = o.shape[0], rows = o.shape[1], cols = o.shape[2];
    int64_t sb = o.strides[0], sr = o.strides[1], sc = o.strides[2];
    int64_t k = kIsCols ? cols : rows, kStride = kIsCols ? sc : sr;
    int64_t flatK = batch * k;
    permute = Permute();
    if (sb == k * kStride) {
      layout = kIsCols ? MatrixLayout{rows, flatK, sr, sc}
                       : MatrixLayout{flatK, cols, sr, sc};
      return "";
    }
    // Matrix b of the batch lands at K offset b k: copy its rows (the
    // contiguous ones) into the flat matrix.
    bool colsContiguous = sc == 1;
    if (!colsContiguous && sr != 1)
      return "operand '" + o.name + "' has no unit stride to copy along";
    int64_t flatRows = kIsCols ? rows : flatK;
    int64_t flatCols = kIsCols ? flatK : cols;
    if (colsContiguous) {
      // Row-major flat matrix, rows of `cols` elements.
      permute = {sb, sr, kIsCols ? k : k * cols, flatCols, rows, cols};
      layout = {flatRows, flatCols, flatCols, 1};
    } else {
      // Column-major flat matrix, columns of `rows` elements.
      permute = {sb, sc, kIsCols ? k * rows : k, flatRows, cols, rows};
      layout = {flatRows, flatCols, 1, flatRows};
    }
    return to.allocate(size_t(flatRows * flatCols * dtypeSize(o.dtype)));
  }

  /// The dual baselines' pointwise kernel: value 0 and the product input
  /// read from the scratch (rows `ld` apart), the other inputs from their
  /// operands as the manifest lays them out, into the bundle's out.
  std::string initPointwise(int64_t ld) {
    const Epilogue &epilogue = *manifest->op.epilogue;
    EwLayout layout;
    layout.values.push_back({plan.matmulType, ld, 1});
    for (const EpilogueInput &in : epilogue.inputs) {
      const Operand *o = manifest->findOperand(in.operand);
      EwRead read{o->dtype, 0, 0};
      switch (in.kind) {
      case EpilogueInputKind::Product:
        read = {plan.matmulType, ld, 1};
        break;
      case EpilogueInputKind::Scalar:
        break;
      case EpilogueInputKind::Row:
        read.colStride = o->strides[0];
        break;
      case EpilogueInputKind::Col:
        read.rowStride = o->strides[0];
        break;
      case EpilogueInputKind::Matrix:
        read.rowStride = o->strides[0], read.colStride = o->strides[1];
        break;
      }
      layout.values.push_back(read);
    }
    layout.outType = plan.outType;
    layout.outLd = operand(plan.out).strides[0];
    return pointwise.init(epilogue, layout);
  }

  /// The pointwise kernel's reads on buffer set `d`: the product P, then
  /// the inputs, the product input's at `p2`.
  std::vector<const void *>
  pointwiseReads(const DeviceOperands &d, const void *p, const void *p2) const {
    std::vector<const void *> reads = {p};
    for (const EpilogueInput &in : manifest->op.epilogue->inputs) {
      const Operand *o = manifest->findOperand(in.operand);
      reads.push_back(
          in.kind == EpilogueInputKind::Product
              ? p2
              : d.buffers[size_t(o - manifest->operands.data())].get());
    }
    return reads;
  }

  /// `weights`: a dual GEMM's concatenated weights (cublas concat +
  /// pointwise multiplies them).
  std::string init(const Manifest &m, const BaselinePlan &p,
                   const std::vector<HostMatrix> &host,
                   const DeviceOperands &set0, cublasHandle_t handle,
                   cublasComputeType_t computeType,
                   const DualWeights *weights) {
    manifest = &m;
    plan = p;
    cublas = handle;
    compute = computeType;
    dualWeights = weights;
    MatrixLayout a = layoutOf(operand(plan.a)), b = layoutOf(operand(plan.b));
    MatrixLayout out = layoutOf(operand(plan.out));
    MatrixLayout dense{plan.m, plan.n, plan.n, 1};
    size_t denseBytes = size_t(plan.m * plan.n * dtypeSize(plan.matmulType));
    std::string e;
    switch (plan.kind) {
    case BaselineKind::AddRelu:
    case BaselineKind::AddScalar:
    case BaselineKind::BiasGeluResidual:
      pointwisePart = 2;
      if (plan.scalar)
        scalar = host[*plan.scalar].get(0, 0);
      else
        scalar = plan.constant;
      if (!(e = checkComputeType(compute, plan.abType, plan.matmulType))
               .empty() ||
          !(e = planCublas(a, b, dense, gemm)).empty())
        return e;
      return scratch.allocate(denseBytes);
    case BaselineKind::LtReluBias:
    case BaselineKind::LtGeluBias: {
      if (!(e = checkComputeType(compute, plan.abType, plan.outType)).empty() ||
          !(e = planCublas(a, b, out, gemm)).empty())
        return e;
      if (!gemm.swapped)
        return "cuBLASLt's bias would index the rows";
      const HostMatrix &bias = host[*plan.bias];
      if (bias.dtype != plan.outType) { // cuBLASLt takes D's dtype
        HostMatrix converted;
        converted.allocate(plan.outType, 1, plan.n, 0, 1);
        for (int64_t j = 0; j < plan.n; ++j)
          converted.set(0, j, bias.get(0, j));
        if (!(e = biasCopy.allocate(converted.bytes.size())).empty() ||
            !(e = biasCopy.upload(converted.bytes.data(),
                                  converted.bytes.size()))
                 .empty())
          return e;
      }
      return lt.init(gemm, plan.abType, plan.outType, 0.0f, compute,
                     plan.kind == BaselineKind::LtReluBias
                         ? LtEpilogue::ReluBias
                         : LtEpilogue::GeluBias,
                     biasFor(set0));
    }
    case BaselineKind::ReluCAdd:
      pointwisePart = 1;
      if (!(e = checkComputeType(compute, plan.abType, plan.outType)).empty())
        return e;
      return planCublas(a, b, out, gemm);
    case BaselineKind::ReluA:
      pointwisePart = 1;
      if (!(a.stride1 == 1 || a.stride0 == 1))
        return "relu-a+cublas needs an A with a unit stride";
      if (!(e = checkComputeType(compute, plan.abType, plan.outType)).empty() ||
          !(e = planCublas(a, b, out, gemm)).empty())
        return e;
      return scratch.allocate(set0.buffers[plan.a].bytes());
    case BaselineKind::PermuteGemm: {
      pointwisePart = 1;
      if (!(e = checkComputeType(compute, plan.abType, plan.outType)).empty())
        return e;
      MatrixLayout flatA, flatB;
      if (!(e = flatten(operand(plan.a), /*kIsCols=*/true, flatA, permuteA,
                        scratch))
               .empty() ||
          !(e = flatten(operand(plan.b), /*kIsCols=*/false, flatB, permuteB,
                        scratch2))
               .empty())
        return e;
      return planCublas(flatA, flatB, out, gemm);
    }
    case BaselineKind::TwoGemmAdd: {
      pointwisePart = 2;
      if (plan.k2 > 0) {
        // add(gemm, gemm): A B and A2 B2 into two scratch matrices.
        if (!(e = checkComputeType(compute, plan.abType, plan.matmulType))
                 .empty() ||
            !(e = planCublas(a, b, dense, gemm)).empty() ||
            !(e = planCublas(layoutOf(operand(*plan.a2)),
                             layoutOf(operand(*plan.b2)), dense, gemm2))
                 .empty())
          return e;
        if (!(e = scratch.allocate(denseBytes)).empty())
          return e;
        return scratch2.allocate(denseBytes);
      }
      int64_t half = plan.k / 2;
      MatrixLayout a1 = a, b1 = b;
      a1.cols = half, b1.rows = half;
      if (!(e = checkComputeType(compute, plan.abType, plan.matmulType))
               .empty() ||
          !(e = planCublas(a1, b1, dense, gemm)).empty())
        return e;
      if (!(e = scratch.allocate(denseBytes)).empty())
        return e;
      return scratch2.allocate(denseBytes);
    }
    case BaselineKind::DualGemm:
      // P = A B and P2 = A B2 into two dense scratch matrices.
      pointwisePart = 2;
      if (!(e = checkComputeType(compute, plan.abType, plan.matmulType))
               .empty() ||
          !(e = planCublas(a, b, dense, gemm)).empty() ||
          !(e = planCublas(a, layoutOf(operand(*plan.b2)), dense, gemm2))
               .empty() ||
          !(e = scratch.allocate(denseBytes)).empty() ||
          !(e = scratch2.allocate(denseBytes)).empty())
        return e;
      return initPointwise(plan.n);
    case BaselineKind::DualConcat: {
      // [P | P2] = A [B | B2] into one dense [m, 2n] scratch.
      pointwisePart = 2;
      if (!dualWeights)
        return "the concatenated weights [B | B2] are missing";
      MatrixLayout wide{plan.m, 2 * plan.n, 2 * plan.n, 1};
      if (!(e = checkComputeType(compute, plan.abType, plan.matmulType))
               .empty() ||
          !(e = planCublas(a, dualWeights->layout, wide, gemm)).empty() ||
          !(e = scratch.allocate(2 * denseBytes)).empty())
        return e;
      return initPointwise(2 * plan.n);
    }
    }
    return "unknown baseline";
  }

  /// Queues the baseline on buffer set `set` (`d`) on `stream` (cuBLAS's
  /// stream too), recording `mid` between its two parts.
  std::string run(const DeviceOperands &d, int set, cudaStream_t stream,
                  cudaEvent_t mid) {
    const void *a = d.buffers[plan.a].get(), *b = d.buffers[plan.b].get();
    PwInput c{scratch.get(), plan.matmulType, plan.n};
    std::string e;
    switch (plan.kind) {
    case BaselineKind::AddRelu:
    case BaselineKind::AddScalar:
    case BaselineKind::BiasGeluResidual:
      e = runGemmEx(cublas, gemm, a, b, scratch.get(), plan.abType,
                    plan.matmulType, 0.0f, compute);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      if (plan.kind == BaselineKind::AddRelu)
        return addRelu(c, input(d, *plan.matrix), output(d), plan.m, plan.n,
                       stream);
      if (plan.kind == BaselineKind::AddScalar)
        return addScalar(c, float(scalar), output(d), plan.m, plan.n, stream);
      return biasGeluResidual(c, d.buffers[*plan.bias].get(),
                              operand(*plan.bias).dtype, input(d, *plan.matrix),
                              output(d), plan.m, plan.n, stream);
    case BaselineKind::LtReluBias:
    case BaselineKind::LtGeluBias:
      cudaEventRecord(mid, stream);
      return lt.run(a, b, d.buffers[plan.out].get(), stream, biasFor(d));
    case BaselineKind::ReluCAdd: {
      // D = relu(C), then D = A B + D.
      e = relu(input(d, *plan.matrix), output(d), plan.m, plan.n, stream);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      return runGemmEx(cublas, gemm, a, b, d.buffers[plan.out].get(),
                       plan.abType, plan.outType, 1.0f, compute);
    }
    case BaselineKind::ReluA: {
      // relu over A's storage: rows along its larger stride.
      const Operand &o = operand(plan.a);
      bool rowMajor = o.strides[1] == 1;
      int64_t rows = rowMajor ? o.shape[0] : o.shape[1];
      int64_t cols = rowMajor ? o.shape[1] : o.shape[0];
      int64_t ld = rowMajor ? o.strides[0] : o.strides[1];
      e = relu({a, plan.abType, ld}, {scratch.get(), plan.abType, ld}, rows,
               cols, stream);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      return runGemmEx(cublas, gemm, scratch.get(), b,
                       d.buffers[plan.out].get(), plan.abType, plan.outType,
                       0.0f, compute);
    }
    case BaselineKind::PermuteGemm: {
      auto copy = [&](const Permute &p, size_t i, DeviceBuffer &to) {
        if (p.rows == 0)
          return std::string();
        return copyMatrices(d.buffers[i].get(), p.srcBatch, p.srcLd, to.get(),
                            p.dstBatch, p.dstLd, plan.batch, p.rows, p.cols,
                            dtypeSize(plan.abType), stream);
      };
      e = copy(permuteA, plan.a, scratch);
      if (e.empty())
        e = copy(permuteB, plan.b, scratch2);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      return runGemmEx(cublas, gemm, permuteA.rows ? scratch.get() : a,
                       permuteB.rows ? scratch2.get() : b,
                       d.buffers[plan.out].get(), plan.abType, plan.outType,
                       0.0f, compute);
    }
    case BaselineKind::TwoGemmAdd: {
      int64_t half = plan.k / 2;
      const Operand &oa = operand(plan.a), &ob = operand(plan.b);
      e = runGemmEx(cublas, gemm, a, b, scratch.get(), plan.abType,
                    plan.matmulType, 0.0f, compute);
      if (e.empty() && plan.k2 > 0)
        e = runGemmEx(cublas, gemm2, d.buffers[*plan.a2].get(),
                      d.buffers[*plan.b2].get(), scratch2.get(), plan.abType,
                      plan.matmulType, 0.0f, compute);
      else if (e.empty())
        e = runGemmEx(
            cublas, gemm,
            elementAt(d.buffers[plan.a], half * oa.strides[1], plan.abType),
            elementAt(d.buffers[plan.b], half * ob.strides[0], plan.abType),
            scratch2.get(), plan.abType, plan.matmulType, 0.0f, compute);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      return add(c, {scratch2.get(), plan.matmulType, plan.n}, output(d),
                 plan.m, plan.n, stream);
    }
    case BaselineKind::DualGemm:
      e = runGemmEx(cublas, gemm, a, b, scratch.get(), plan.abType,
                    plan.matmulType, 0.0f, compute);
      if (e.empty())
        e = runGemmEx(cublas, gemm2, a, d.buffers[*plan.b2].get(),
                      scratch2.get(), plan.abType, plan.matmulType, 0.0f,
                      compute);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      return pointwise.run(pointwiseReads(d, scratch.get(), scratch2.get()),
                           d.buffers[plan.out].get(), plan.m, plan.n, stream);
    case BaselineKind::DualConcat:
      e = runGemmEx(cublas, gemm, a, dualWeights->sets[set].get(),
                    scratch.get(), plan.abType, plan.matmulType, 0.0f, compute);
      cudaEventRecord(mid, stream);
      if (!e.empty())
        return e;
      // P2 is the right half of each row.
      return pointwise.run(
          pointwiseReads(d, scratch.get(),
                         elementAt(scratch, plan.n, plan.matmulType)),
          d.buffers[plan.out].get(), plan.m, plan.n, stream);
    }
    return "unknown baseline";
  }
};

/// The contenders, their events and timings.
struct Sides {
  rt::Kernel *kernel = nullptr;
  cublasHandle_t cublas = nullptr;
  LtGemm lt;
  bool haveCublas = false, haveLt = false;
  /// 8-bit float inputs: cublasGemmEx takes none, so the cuBLAS side is
  /// cublasLtMatmul (lt), and there is no separate cuBLASLt side.
  bool cublasViaLt = false;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F; // both cuBLAS sides
  CublasPlan plan;
  GemmSpec spec;
  std::vector<DeviceOperands> *sets = nullptr;
  /// Where the cuBLAS sides write instead of the set's C (with a baseline:
  /// a scratch of the epilogue's matmul_dtype).
  void *plainC = nullptr;
  /// A dual GEMM: the concatenated weights that the cuBLAS sides multiply
  /// instead of B (spec describes A [B | B2]).
  const DualWeights *dualWeights = nullptr;
  /// The baselines, each timed in its turn after the kernel.
  std::vector<BaselineRunner *> baselines;

  /// A pointwise bundle: the cuBLAS side is a device-to-device copy of
  /// `copyBytes` from copySrc to copyDst (the same bytes moved as the
  /// kernel's reads and writes together).
  size_t copyBytes = 0;
  const void *copySrc = nullptr;
  void *copyDst = nullptr;

  void *cFor(DeviceOperands &d) {
    return plainC ? plainC : d.buffers[spec.cIndex].get();
  }
  const void *bFor(int set) {
    return dualWeights ? dualWeights->sets[set].get()
                       : (*sets)[set].buffers[spec.bIndex].get();
  }
  std::string runTcgen(int set, cudaStream_t stream) {
    return kernel->launch((*sets)[set].args, stream);
  }
  std::string runCublas(int set, cudaStream_t stream) {
    if (copyBytes)
      return formatCuda("cudaMemcpyAsync",
                        cudaMemcpyAsync(copyDst, copySrc, copyBytes,
                                        cudaMemcpyDeviceToDevice, stream));
    DeviceOperands &d = (*sets)[set];
    if (cublasViaLt)
      return lt.run(d.buffers[spec.aIndex].get(), bFor(set), cFor(d), stream);
    return runGemmEx(cublas, plan, d.buffers[spec.aIndex].get(), bFor(set),
                     cFor(d), spec.aType, spec.cType,
                     spec.accumulate ? 1.0f : 0.0f, compute);
  }
  std::string runLt(int set, cudaStream_t stream) {
    DeviceOperands &d = (*sets)[set];
    return lt.run(d.buffers[spec.aIndex].get(), bFor(set), cFor(d), stream);
  }
  std::string runBaseline(size_t b, int set, cudaStream_t stream,
                          cudaEvent_t mid) {
    return baselines[b]->run((*sets)[set], set, stream, mid);
  }
  int eventsPerIter() const {
    return kSideEvents + kEventsPerBaseline * int(baselines.size());
  }
};

/// Queues one iteration: each side between its own pair of events, each on
/// the next buffer set of the rotation (`launch` counts the sides queued so
/// far). No side finds its inputs in L2 because the side before it just
/// read them: with one set per iteration, cuBLAS ran on the A and B the
/// kernel had just pulled into L2, a bias against the kernel at the sizes
/// whose operands fit in L2.
std::string queueIteration(Sides &s, int &launch, int numSets, int backToBack,
                           cudaStream_t stream, cudaEvent_t *events) {
  std::string e;
  auto next = [&] { return launch++ % numSets; };
  cudaEventRecord(events[0], stream);
  for (int i = 0; i < backToBack && e.empty(); ++i)
    e = s.runTcgen(next(), stream);
  cudaEventRecord(events[1], stream);
  if (!e.empty())
    return "tcgen: " + e;
  for (size_t b = 0; b < s.baselines.size(); ++b) {
    cudaEvent_t *ev = events + kSideEvents + kEventsPerBaseline * b;
    cudaEventRecord(ev[0], stream);
    e = s.runBaseline(b, next(), stream, ev[1]);
    cudaEventRecord(ev[2], stream);
    if (!e.empty())
      return std::string("baseline ") +
             baselineName(s.baselines[b]->plan.kind) + ": " + e;
  }
  if (s.haveCublas) {
    cudaEventRecord(events[2], stream);
    for (int i = 0; i < backToBack && e.empty(); ++i)
      e = s.runCublas(next(), stream);
    cudaEventRecord(events[3], stream);
    if (!e.empty())
      return e;
  }
  if (s.haveLt) {
    cudaEventRecord(events[4], stream);
    for (int i = 0; i < backToBack && e.empty(); ++i)
      e = s.runLt(next(), stream);
    cudaEventRecord(events[5], stream);
    if (!e.empty())
      return e;
  }
  return "";
}

std::string timeAll(Sides &s, const BenchOptions &options, int numSets,
                    cudaStream_t stream, BenchRow &row) {
  // Warm-up: loads lazily-loaded modules and picks cuBLAS algorithms, so
  // nothing synchronizes while a gate is closed.
  const int perIter = s.eventsPerIter();
  std::vector<cudaEvent_t> events(perIter * std::max(options.iters, 1));
  for (cudaEvent_t &ev : events)
    if (cudaEventCreate(&ev) != cudaSuccess)
      return "cudaEventCreate failed";
  std::string e;
  int launch = 0;
  for (int w = 0; w < options.warmup && e.empty(); ++w)
    e = queueIteration(s, launch, numSets, options.backToBack, stream,
                       events.data());
  if (e.empty())
    e = formatCuda("warm-up (cudaStreamSynchronize)",
                   cudaStreamSynchronize(stream));

  for (int begin = 0; begin < options.iters && e.empty(); begin += kBatch) {
    Gate gate;
    e = formatCuda("cudaLaunchHostFunc",
                   cudaLaunchHostFunc(stream, Gate::wait, &gate));
    int end = std::min(options.iters, begin + kBatch);
    for (int it = begin; it < end && e.empty(); ++it)
      e = queueIteration(s, launch, numSets, options.backToBack, stream,
                         &events[perIter * it]);
    gate.open();
    // The gate lives on this stack frame: wait for the batch to drain.
    std::string sync =
        formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    if (e.empty())
      e = sync;
  }
  // Per side, the event pair of its time and its launches between them
  // (queueIteration: the tcgen, cuBLAS and cuBLASLt sides run
  // options.backToBack, a baseline one): tcgen, cuBLAS, cuBLASLt, then per
  // baseline its whole time and its pointwise part's.
  struct Side {
    bool have;
    int from, to, launches;
  };
  std::vector<Side> sides = {{true, 0, 1, options.backToBack},
                             {s.haveCublas, 2, 3, options.backToBack},
                             {s.haveLt, 4, 5, options.backToBack}};
  for (size_t b = 0; b < s.baselines.size(); ++b) {
    int first = kSideEvents + kEventsPerBaseline * int(b);
    int part = s.baselines[b]->pointwisePart;
    sides.push_back({true, first, first + 2, 1});
    sides.push_back({part != 0, part == 1 ? first : first + 1,
                     part == 1 ? first + 1 : first + 2, 1});
  }
  std::vector<std::vector<double>> t(sides.size());
  for (int it = 0; it < options.iters && e.empty(); ++it) {
    for (size_t side = 0; side < sides.size() && e.empty(); ++side) {
      if (!sides[side].have)
        continue;
      float ms = 0;
      cudaEvent_t *ev = &events[perIter * it];
      e = formatCuda(
          "cudaEventElapsedTime",
          cudaEventElapsedTime(&ms, ev[sides[side].from], ev[sides[side].to]));
      t[side].push_back(ms / sides[side].launches);
    }
  }
  for (cudaEvent_t ev : events)
    cudaEventDestroy(ev);
  auto timeOf = [&](size_t side) {
    return sides[side].have ? median(t[side]) : kNaN;
  };
  row.tcgenMs = timeOf(0);
  row.cublasMs = timeOf(1);
  row.ltMs = timeOf(2);
  for (size_t b = 0; b < s.baselines.size() && b < row.baselines.size(); ++b) {
    row.baselines[b].ms = timeOf(3 + 2 * b);
    row.baselines[b].pointwiseMs = timeOf(4 + 2 * b);
  }
  row.iters = options.iters;
  return e;
}

void addNote(BenchRow &row, const std::string &note) {
  row.note += (row.note.empty() ? "" : "; ") + note;
}

/// The bare matmul of a fused bundle, for the cuBLAS sides: A and B as in
/// the bundle, C a dense row-major [m, n] scratch of the matmul's dtype.
GemmSpec bareMatmulSpec(const Manifest &manifest, const BaselinePlan &plan) {
  GemmSpec spec;
  auto layoutOf = [&](size_t i) {
    const Operand &o = manifest.operands[i];
    return MatrixLayout{o.shape[0], o.shape[1], o.strides[0], o.strides[1]};
  };
  // A summed batch (permute+cublas): the bare matmul reads the operands'
  // bytes as the row-major flat matrices [m, K'] and [K', n], as if
  // already permuted (its output is timed, not used).
  if (plan.kind == BaselineKind::PermuteGemm) {
    spec.aIndex = plan.a, spec.bIndex = plan.b, spec.cIndex = plan.out;
    spec.m = plan.m, spec.n = plan.n, spec.k = plan.k;
    spec.accumulator = plan.accumulator;
    spec.tf32 = manifest.op.tf32;
    spec.aType = spec.bType = plan.abType;
    spec.cType = plan.outType;
    spec.a = MatrixLayout{plan.m, plan.k, plan.k, 1};
    spec.b = MatrixLayout{plan.k, plan.n, plan.n, 1};
    spec.c = MatrixLayout{plan.m, plan.n, plan.n, 1};
    return spec;
  }
  spec.aIndex = plan.a, spec.bIndex = plan.b, spec.cIndex = plan.out;
  spec.m = plan.m, spec.n = plan.n, spec.k = plan.k;
  spec.accumulate = false;
  spec.accumulator = plan.accumulator;
  spec.tf32 = manifest.op.tf32;
  spec.aType = spec.bType = plan.abType;
  spec.cType = plan.matmulType;
  spec.a = layoutOf(plan.a);
  spec.b = layoutOf(plan.b);
  spec.c = MatrixLayout{plan.m, plan.n, plan.n, 1};
  return spec;
}

/// Runs the kernel and then each baseline once on buffer set 0, each into
/// a NaN-poisoned out, and compares each baseline's output with the
/// kernel's into row.baselines[b].check (and its checkLine).
std::string checkBaselines(Sides &s, const std::vector<HostMatrix> &host,
                           cudaStream_t stream, BenchRow &row) {
  const size_t outIndex = s.baselines.front()->plan.out;
  DeviceOperands &d = (*s.sets)[0];
  DeviceBuffer &out = d.buffers[outIndex];
  HostMatrix tcgen = host[outIndex], baseline = host[outIndex];
  cudaEvent_t mid = nullptr;
  std::string e = formatCuda("cudaEventCreate", cudaEventCreate(&mid));
  // Side 0 is the kernel, side 1 + b baseline b.
  for (size_t side = 0; side <= s.baselines.size() && e.empty(); ++side) {
    HostMatrix &result = side == 0 ? tcgen : baseline;
    // 0xff bytes are NaN in f16, bf16 and f32.
    e = formatCuda("cudaMemsetAsync",
                   cudaMemsetAsync(out.get(), 0xff, out.bytes(), stream));
    if (e.empty())
      e = side == 0 ? s.runTcgen(0, stream)
                    : s.runBaseline(side - 1, 0, stream, mid);
    if (e.empty())
      e = formatCuda("cudaStreamSynchronize", cudaStreamSynchronize(stream));
    if (e.empty())
      e = out.download(result.bytes.data(), result.bytes.size());
    if (side == 0) {
      if (!e.empty())
        e = "tcgen: " + e;
      continue;
    }
    const BaselinePlan &plan = s.baselines[side - 1]->plan;
    if (!e.empty()) {
      e = std::string("baseline ") + baselineName(plan.kind) + ": " + e;
      break;
    }
    BaselineTiming &timing = row.baselines[side - 1];
    timing.check =
        compareOutputs(tcgen, baseline, baselineTolerance(plan.coarsest));
    timing.checkLine = timing.check.line(row.entry, plan.kind);
  }
  if (mid)
    cudaEventDestroy(mid);
  return e;
}

/// With options.ltAlgos > 1, keeps the fastest of cuBLASLt's heuristic
/// algorithms on buffer set 0 (LtGemm::keepFastest) and notes which.
std::string keepFastestLt(Sides &s, const BenchOptions &options,
                          cudaStream_t stream, BenchRow &row) {
  if (options.ltAlgos <= 1)
    return "";
  constexpr int kRepsPerAlgo = 5; // a median of 5 runs each
  DeviceOperands &d = (*s.sets)[0];
  std::string summary;
  std::string e = s.lt.keepFastest(d.buffers[s.spec.aIndex].get(), s.bFor(0),
                                   s.cFor(d), stream, kRepsPerAlgo, summary);
  if (e.empty())
    addNote(row, "cuBLASLt: " + summary);
  return e;
}

/// `tcgen-gpu bench --api`: the sides through the C ABI (ApiTiming.h).
std::string timeApi(Sides &s, const BenchOptions &options, cudaStream_t stream,
                    BenchRow &row) {
  ApiSides api;
  api.kernel = s.kernel->get();
  api.sets = s.sets;
  if (s.haveCublas)
    api.cublas = [&s](int set, cudaStream_t st) { return s.runCublas(set, st); };
  if (s.haveLt)
    api.lt = [&s](int set, cudaStream_t st) { return s.runLt(set, st); };
  ApiTimes times;
  std::string e =
      timeThroughApi(api, options.iters, options.warmup, stream, times);
  if (e.empty())
    row.api = times;
  row.iters = options.iters;
  return e;
}

/// Sets up cuBLAS (and cuBLASLt, a dual GEMM's concatenated weights and the
/// baselines of `plans`, owned by `runners`) on `stream`, checks the
/// baselines and times everything.
std::string
timeWithCublas(Sides &s, const BenchOptions &options, int numSets,
               cudaStream_t stream, DeviceBuffer &workspace,
               DeviceBuffer &plainC, DualWeights &dualWeights,
               std::vector<std::unique_ptr<BaselineRunner>> &runners,
               const std::vector<BaselinePlan> &plans,
               const std::vector<HostMatrix> &host, BenchRow &row) {
  const GemmSpec &spec = s.spec;
  const Manifest &manifest = s.kernel->manifest();
  // Our own workspace: cuBLAS then never allocates inside the timed loop.
  std::string handleWhy = formatCublas("cublasCreate", cublasCreate(&s.cublas));
  if (handleWhy.empty() &&
      (handleWhy = workspace.allocate(kCublasWorkspace)).empty() &&
      (handleWhy = formatCublas(
           "cublasSetWorkspace",
           cublasSetWorkspace(s.cublas, workspace.get(), kCublasWorkspace)))
          .empty())
    handleWhy =
        formatCublas("cublasSetStream", cublasSetStream(s.cublas, stream));
  if (manifest.op.dual) {
    // The cuBLAS sides (and the concat baseline) multiply [B | B2].
    std::string e = dualWeights.create(manifest, host, size_t(numSets));
    if (!e.empty())
      return e;
    s.dualWeights = &dualWeights;
    addNote(row, "dual GEMM (op.dual): n counts both products, A [B | B2] "
                 "is m x 2n x k; cuBLAS and cuBLASLt time that bare product "
                 "over the concatenated weights");
  }
  if (!plans.empty()) {
    // The baselines need cuBLAS; the bare matmul goes to a scratch.
    std::string e = handleWhy;
    if (e.empty())
      e = plainC.allocate(size_t(spec.m * spec.n * dtypeSize(spec.cType)));
    for (size_t b = 0; b < plans.size() && e.empty(); ++b) {
      auto runner = std::make_unique<BaselineRunner>();
      e = runner->init(manifest, plans[b], host, (*s.sets)[0], s.cublas,
                       s.compute, s.dualWeights);
      s.baselines.push_back(runner.get());
      runners.push_back(std::move(runner));
      row.baselines.push_back({baselineName(plans[b].kind)});
    }
    if (!e.empty())
      return std::string("baseline ") + row.baselines.back().name + ": " + e;
    s.plainC = plainC.get();
    e = checkBaselines(s, host, stream, row);
    if (!e.empty())
      return e;
    for (const BaselineTiming &b : row.baselines)
      if (!b.check.pass)
        return "the baseline's output differs from the kernel's, not timed: " +
               b.checkLine;
    if (options.baselineCheckOnly)
      return "";
  } else if (manifest.op.epilogue) {
    // A fused bundle timed without a baseline: the cuBLAS sides write the
    // bare matmul into a scratch, and the row says so.
    std::string e = plainC.allocate(size_t(spec.batch * spec.m * spec.n *
                                           dtypeSize(spec.cType)));
    if (!e.empty())
      return e;
    s.plainC = plainC.get();
    addNote(row, std::string("no baseline ") +
                     (manifest.op.dual ? "fits" : "named") +
                     ": cuBLAS and cuBLASLt time the bare matmul " +
                     (manifest.op.dual ? "A [B | B2]" : "A B") + " (" +
                     std::to_string(manifest.op.epilogue->steps.size()) +
                     "-step epilogue not applied)");
  }

  if (s.kernel->manifest().op.blockScales)
    addNote(row, "block scales (op.block_scales): cuBLAS and cuBLASLt time "
                 "the unscaled fp8 matmul; time the per-tensor-scaled fp8 "
                 "bundle of the same size beside it as the anchor");
  std::string why;
  if (s.kernel->manifest().op.k2 > 0)
    why = "two products (op.k2): cuBLAS is the 2cublas+add baseline";
  else if (spec.aType != spec.bType)
    why = "cuBLAS needs equal A and B dtypes";
  else if ((why = checkComputeType(s.compute, spec.aType, spec.cType))
               .empty()) {
    MatrixLayout a = spec.a, b = spec.b, c = spec.c;
    int64_t batch = spec.batch;
    // Batch dimensions that an input lacks (a broadcast): cuBLAS times the
    // one matmul over the flattened dimensions a caller would run (its
    // output, C permuted, is not used). Several batch dimensions are not
    // one cuBLAS batch stride either: cuBLAS times the same batch on the
    // same bytes read as batch-contiguous row-major matrices, the layout a
    // caller would permute the operands into.
    MatrixLayout fa, fb, fc;
    int64_t fbatch = 1;
    if (flattenBroadcast(a, b, c, spec.batch, fa, fb, fc, fbatch)) {
      a = fa;
      b = fb;
      c = fc;
      batch = fbatch;
      addNote(row, "cuBLAS runs the broadcast batch as one matmul of " +
                       std::to_string(fa.rows) + " x " +
                       std::to_string(fb.cols) + " x " +
                       std::to_string(fa.cols) +
                       (fbatch > 1 ? " (batch " + std::to_string(fbatch) + ")"
                                   : std::string()) +
                       " over the flattened dimensions");
    } else if (a.multiBatch() || b.multiBatch() || c.multiBatch()) {
      a = {spec.m, spec.k, spec.k, 1, spec.m * spec.k};
      b = {spec.k, spec.n, spec.n, 1, spec.k * spec.n};
      c = {spec.m, spec.n, spec.n, 1, spec.m * spec.n};
      addNote(row, "cuBLAS reads the batch dimensions' operands as "
                   "batch-contiguous");
    }
    why = planCublas(a, b, c, s.plan, batch);
  }
  if (why.empty())
    why = handleWhy;
  bool fp8 = spec.aType == DType::E4M3 || spec.aType == DType::E5M2;
  if (why.empty() && fp8) {
    // cublasGemmEx has no 8-bit floats: cuBLASLt is the cuBLAS side.
    why = s.lt.init(s.plan, spec.aType, spec.cType,
                    spec.accumulate ? 1.0f : 0.0f, s.compute,
                    LtEpilogue::None, nullptr, options.ltAlgos);
    if (why.empty())
      why = keepFastestLt(s, options, stream, row);
    if (why.empty()) {
      s.haveCublas = s.cublasViaLt = true;
      row.cublasCompute = computeTypeName(s.compute);
      row.cublasCall = "cublasLtMatmul";
    } else {
      addNote(row, "no cuBLASLt: " + why);
    }
  } else if (why.empty()) {
    s.haveCublas = true;
    row.cublasCompute = computeTypeName(s.compute);
    row.cublasCall = gemmExName(s.plan);
    if (options.cublasLt) {
      std::string ltWhy = s.lt.init(s.plan, spec.aType, spec.cType,
                                    spec.accumulate ? 1.0f : 0.0f, s.compute,
                                    LtEpilogue::None, nullptr,
                                    options.ltAlgos);
      if (ltWhy.empty())
        ltWhy = keepFastestLt(s, options, stream, row);
      s.haveLt = ltWhy.empty();
      if (!s.haveLt)
        addNote(row, "cuBLASLt: " + ltWhy);
    }
  } else if (handleWhy.empty()) {
    addNote(row, "no cuBLAS: " + why);
  } else {
    addNote(row, "cuBLAS: " + why);
  }
  if (options.solo) {
    s.haveCublas = s.haveLt = false;
    addNote(row, "solo: cuBLAS not timed");
  }
  if (options.backToBack > 1)
    addNote(row, "back to back: " + std::to_string(options.backToBack) +
                     " launches per event pair");
  if (options.api)
    return timeApi(s, options, stream, row);
  return timeAll(s, options, numSets, stream, row);
}
} // namespace

std::string tcgen::bench::needsBaseline(const Manifest &manifest) {
  if (manifest.op.k2 > 0)
    return "a bundle with a second product (op.k2) is timed against "
           "--baseline=2cublas+add";
  if (manifest.op.batchReduce)
    return "a bundle that sums a batch (op.batch_reduce) is timed against "
           "--baseline=permute+cublas";
  return "";
}

/// Device copies of `host` in as many buffer sets as keep repeated runs
/// out of L2 (row.bufferSets); `bytesPerSet` is the bytes of one set.
/// With `fresh`, at least two sets, so that pointers change between calls.
static std::string createBufferSets(const Manifest &manifest,
                                    const std::vector<HostMatrix> &host,
                                    const DeviceProps &device, BenchRow &row,
                                    std::vector<DeviceOperands> &sets,
                                    size_t &bytesPerSet, bool fresh) {
  bytesPerSet = 0;
  for (const HostMatrix &h : host)
    bytesPerSet += h.bytes.size();
  row.bufferSets = std::max(bufferSets(bytesPerSet, device), fresh ? 2 : 1);
  sets.clear();
  sets.resize(row.bufferSets);
  for (DeviceOperands &d : sets)
    if (std::string e = d.create(manifest, host); !e.empty())
      return e;
  return "";
}

/// A standalone pointwise bundle (op kind "pointwise"): the kernel, timed
/// like any other (warm-up, gated batches of queued iterations, median),
/// alternated with a device-to-device copy moving as many bytes in the
/// cuBLAS columns. The note gives the bytes every operand moves once and
/// the resulting bandwidth.
static std::string benchPointwise(rt::Kernel &kernel,
                                  const BenchOptions &options,
                                  const DeviceProps &device, BenchRow &row) {
  const Manifest &manifest = kernel.manifest();
  GemmSpec spec;
  std::string e = describePointwise(manifest, spec);
  if (!e.empty())
    return e;
  std::vector<HostMatrix> host =
      makeCheckOperands(manifest, spec, options.seed);
  row.entry = manifest.entry;
  row.backend = manifest.target.backend;
  row.m = spec.m, row.n = spec.n, row.k = 0;
  row.aType = dtypeName(manifest.operands[spec.aIndex].dtype);
  row.cType = dtypeName(manifest.operands[spec.cIndex].dtype);
  row.accumulator = dtypeName(manifest.op.epilogue->matmulDType);
  std::vector<DeviceOperands> sets;
  size_t bytesPerSet = 0;
  if (!(e = createBufferSets(manifest, host, device, row, sets, bytesPerSet,
                             options.api))
           .empty())
    return e;
  int numSets = row.bufferSets;
  Sides s;
  s.kernel = &kernel;
  s.spec = spec;
  s.sets = &sets;
  // The reference: a copy that reads and writes as many bytes as the
  // kernel does, half of the operands' bytes each way.
  DeviceBuffer copyFrom, copyTo;
  s.copyBytes = bytesPerSet / 2;
  if (!(e = copyFrom.allocate(s.copyBytes)).empty() ||
      !(e = copyTo.allocate(s.copyBytes)).empty())
    return e;
  s.copySrc = copyFrom.get();
  s.copyDst = copyTo.get();
  s.haveCublas = true;
  row.cublasCall = "cudaMemcpyAsync";
  cudaStream_t stream;
  if (!(e = formatCuda("cudaStreamCreate", cudaStreamCreateWithFlags(
                                               &stream, cudaStreamNonBlocking)))
           .empty())
    return e;
  e = timeAll(s, options, numSets, stream, row);
  cudaStreamDestroy(stream);
  if (e.empty() && row.tcgenMs > 0) {
    char note[256];
    std::snprintf(note, sizeof(note),
                  "pointwise: %zu bytes, %.0f GB/s; the cuBLAS columns time a "
                  "copy of %zu bytes",
                  bytesPerSet, double(bytesPerSet) / (row.tcgenMs * 1e6),
                  s.copyBytes);
    addNote(row, note);
  }
  return e;
}

std::string tcgen::bench::benchBundle(const std::string &path,
                                      const BenchOptions &options,
                                      const DeviceProps &device,
                                      BenchRow &row) {
  rt::Kernel kernel;
  std::string e = kernel.load(path);
  if (e.empty())
    e = bindLaunchSizes(kernel, options.sizes);
  if (!e.empty())
    return e;
  if (std::string note = ptxFallbackNote(kernel); !note.empty())
    addNote(row, note);
  const Manifest &manifest = kernel.manifest();
  // A grouped product: its routings, against cuBLAS per group and grouped.
  if (manifest.op.groups > 0 && !options.baseline)
    return benchGrouped(kernel, options, row);
  // (With a baseline, planBaseline below refuses the pointwise kind.)
  if (manifest.op.kind == "pointwise" && !options.baseline)
    return benchPointwise(kernel, options, device, row);
  Sides s;
  s.kernel = &kernel;
  std::vector<BaselinePlan> plans;
  std::vector<HostMatrix> host;
  if (options.baseline) {
    plans.emplace_back();
    if (!(e = planBaseline(manifest, *options.baseline, plans[0])).empty())
      return e;
  } else if (manifest.op.dual && !options.solo && !options.api) {
    // A dual GEMM: both dual baselines, those that fit it.
    for (BaselineKind kind :
         {BaselineKind::DualGemm, BaselineKind::DualConcat}) {
      BaselinePlan plan;
      if (std::string why = planBaseline(manifest, kind, plan); why.empty())
        plans.push_back(plan);
      else
        addNote(row, why);
    }
  }
  if (!plans.empty()) {
    s.spec = bareMatmulSpec(manifest, plans[0]);
    host = makeBaselineHostOperands(manifest, options.seed);
  } else if (manifest.op.epilogue || manifest.op.blockScales) {
    // No baseline asked for: the kernel with its epilogue inputs (scales,
    // biases, ...) and block scales, cuBLAS and cuBLASLt the bare matmul
    // beside it.
    if (!(e = needsBaseline(manifest)).empty())
      return e;
    if (!(e = describeCheckedGemm(manifest, s.spec)).empty())
      return e;
    host = makeCheckOperands(manifest, s.spec, options.seed);
  } else {
    if (!(e = needsBaseline(manifest)).empty())
      return e;
    if (!(e = describeGemm(manifest, s.spec)).empty())
      return e;
    host = makeHostOperands(manifest, s.spec, options.seed);
  }
  // A dual GEMM: the cuBLAS sides multiply A [B | B2] (DualWeights).
  if (manifest.op.dual) {
    const Operand &b = manifest.operands[s.spec.bIndex];
    s.spec.n = 2 * b.shape[1];
    s.spec.b = DualWeights::layoutFor(b);
    s.spec.c = MatrixLayout{s.spec.m, s.spec.n, s.spec.n, 1};
    if (manifest.op.epilogue) // (parseManifest requires it)
      s.spec.cType = manifest.op.epilogue->matmulDType;
  }
  const GemmSpec &spec = s.spec;
  row.entry = manifest.entry;
  row.backend = manifest.target.backend;
  row.batch = spec.batch;
  // Both products' multiply-adds (k + k2; a dual GEMM's 2n) make the
  // TFLOP/s.
  row.m = spec.m, row.n = spec.n, row.k = spec.k + manifest.op.k2;
  row.aType = dtypeName(spec.aType);
  row.cType = dtypeName(manifest.operands[spec.cIndex].dtype);
  row.accumulator = dtypeName(spec.accumulator);
  // cuBLAS accumulates in the kernel's accumulator type, and reads f32
  // operands as tf32 where the kernel does.
  s.compute = manifest.op.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                               : computeTypeFor(spec.accumulator);

  std::vector<DeviceOperands> sets;
  size_t bytesPerSet = 0;
  if (!(e = createBufferSets(manifest, host, device, row, sets, bytesPerSet,
                             options.api))
           .empty())
    return e;
  int numSets = row.bufferSets;
  s.sets = &sets;

  cudaStream_t stream;
  if (!(e = formatCuda("cudaStreamCreate", cudaStreamCreateWithFlags(
                                               &stream, cudaStreamNonBlocking)))
           .empty())
    return e;
  DeviceBuffer workspace, plainC;
  DualWeights dualWeights;
  std::vector<std::unique_ptr<BaselineRunner>> runners;
  e = timeWithCublas(s, options, numSets, stream, workspace, plainC,
                     dualWeights, runners, plans, host, row);
  if (s.cublas)
    cublasDestroy(s.cublas);
  cudaStreamDestroy(stream);
  return e;
}
