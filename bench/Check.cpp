//===- Check.cpp - Correctness check of a bundle's matmul -----------------===//
//
// This file implements checkKernel() and checkBundle(): random operands,
// one launch through the runtime, and the float64 / cuBLAS comparison, with
// a fused epilogue applied to the reference (compareEpilogue()).
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "CublasGemm.h"
#include "CudaUtil.h"
#include "EpilogueRef.h"
#include "Gemm.h"
#include "Grouped.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
/// Half the smallest subnormal spacing of `t`: the absolute error rounding
/// to `t` may make on a tiny value (f16 2^-25, bf16 2^-134, f32 2^-150),
/// which no relative bound covers (K = 1 with |a b| ~ 1e-6 in f16).
double outputRoundingFloor(DType t) {
  switch (t) {
  case DType::F16:
    return std::ldexp(1.0, -25);
  case DType::BF16:
    return std::ldexp(1.0, -134);
  case DType::F32:
    return std::ldexp(1.0, -150);
  default:
    return 0;
  }
}

/// Running error statistics over compared elements.
struct ErrorStats {
  double maxNorm = 0, errSq = 0, refSq = 0;
  int64_t nonFinite = 0;
  /// The element with the largest normalized error (where to look: matrix
  /// worstBatch of a batch), and with an epilogue the range it may take.
  int64_t worstBatch = 0, worstRow = -1, worstCol = -1;
  double worstOut = 0, worstRef = 0, worstLo = 0, worstHi = 0;
  /// With an epilogue: the sum of the squared half-widths of the ranges
  /// that the Frobenius bound allows.
  double widthSq = 0;

  /// What rounding to the output dtype may lose where it is subnormal:
  /// half its smallest spacing (outputRoundingFloor); not counted as error.
  double absFloor = 0;

  /// Records element (b, i, j) (b: its matrix in a batch).
  void add(int64_t b, int64_t i, int64_t j, double out, double ref,
           double scale) {
    if (!std::isfinite(out)) {
      ++nonFinite;
      return;
    }
    double err = std::max(0.0, std::fabs(out - ref) - absFloor);
    addNormalized(i, j, out, ref, scale > 0 ? err / scale : err, b);
  }
  /// Records the normalized error `norm` of element (b, i, j); returns
  /// true if it is the worst so far.
  bool noteNorm(int64_t i, int64_t j, double out, double ref, double norm,
                int64_t b = 0) {
    if (norm > maxNorm || worstRow < 0) {
      maxNorm = std::max(maxNorm, norm);
      worstBatch = b, worstRow = i, worstCol = j;
      worstOut = out, worstRef = ref;
      return true;
    }
    return false;
  }
  /// Records a finite `out` whose normalized error is `norm`.
  void addNormalized(int64_t i, int64_t j, double out, double ref, double norm,
                     int64_t b = 0) {
    noteNorm(i, j, out, ref, norm, b);
    double err = out - ref;
    errSq += err * err;
    refSq += ref * ref;
  }
  void merge(const ErrorStats &o) {
    if (o.maxNorm > maxNorm || worstRow < 0) {
      worstBatch = o.worstBatch, worstRow = o.worstRow, worstCol = o.worstCol;
      worstOut = o.worstOut, worstRef = o.worstRef;
      worstLo = o.worstLo, worstHi = o.worstHi;
    }
    maxNorm = std::max(maxNorm, o.maxNorm);
    errSq += o.errSq;
    refSq += o.refSq;
    widthSq += o.widthSq;
    nonFinite += o.nonFinite;
  }
  double frob() const {
    return refSq > 0 ? std::sqrt(errSq / refSq) : std::sqrt(errSq);
  }
};

} // namespace

void tcgen::bench::setBounds(const GemmSpec &spec, CheckResult &r) {
  // 16-bit and 8-bit inputs are exact in f32, and so are f32 inputs
  // multiplied in full f32 (FFMA); tf32 keeps 10 mantissa bits.
  bool lowInputs =
      (spec.aType != DType::F32 && spec.bType != DType::F32) || !spec.tf32;
  DType boundsType = spec.cType;
  if (spec.accumulator == DType::F16 && boundsType == DType::F32)
    boundsType = DType::F16;
  // 8-bit float inputs: Hopper's tensor cores keep about 14 bits of the
  // running sum of fp8 products (not f32's 24), so an f32 output gets the
  // f16-output bounds, as with f16 accumulation.
  if ((spec.aType == DType::E4M3 || spec.aType == DType::E5M2) &&
      boundsType == DType::F32)
    boundsType = DType::F16;
  switch (boundsType) {
  case DType::F16:
    r.maxNormBound = 1e-2, r.frobBound = 5e-3;
    break;
  case DType::BF16: // 8-bit mantissa: half-ulp is 2^-9 relative.
    r.maxNormBound = 1e-2, r.frobBound = 1e-2;
    break;
  default:
    // f32 inputs may go through TF32 tensor cores: allow 10-bit mantissas.
    // f32 accumulation on tensor cores loses precision linearly in K
    // (measured on H100: ||out-ref||/||ref|| = 9.8e-6 at K = 8192, 1.9e-5
    // at K = 16384, while maxnorm stays near 1.4e-6): the Frobenius bound
    // is 1e-5 up to K = 5368 and K * 2^-29 above.
    r.maxNormBound = lowInputs ? 1e-4 : 1e-2;
    r.frobBound = lowInputs
                      ? std::max(1e-5, double(spec.k) * std::ldexp(1.0, -29))
                      : 5e-3;
    break;
  }
}

namespace {

/// The float64 host reference over every element, rows split over threads.
/// The rows of a batch are stacked: row r is row r % m of matrix r / m.
struct HostReference {
  const GemmSpec *spec;
  /// Dense copies of the rounded inputs, each matrix row-major, batch by
  /// batch (HostMatrix::toDenseFloat()).
  std::vector<float> a, b;
  const HostMatrix *c0;  // initial C for accumulate, else nullptr
  const HostMatrix *out; // compared with, unless ref is set
  std::vector<ErrorStats> rowStats;
  /// If set, the row-major reference and scale of every element are stored
  /// here instead of compared.
  std::vector<double> *ref = nullptr, *scale = nullptr;

  static void rows(void *context, int64_t begin, int64_t end) {
    auto *h = static_cast<HostReference *>(context);
    int64_t m = h->spec->m, n = h->spec->n, k = h->spec->k;
    std::vector<double> acc(n), absAcc(n);
    for (int64_t r = begin; r < end; ++r) {
      int64_t batch = r / m, i = r % m;
      const float *bMatrix = &h->b[batch * k * n];
      std::fill(acc.begin(), acc.end(), 0.0);
      std::fill(absAcc.begin(), absAcc.end(), 0.0);
      for (int64_t p = 0; p < k; ++p) {
        double x = h->a[r * k + p];
        double ax = std::fabs(x);
        const float *row = &bMatrix[p * n];
        for (int64_t j = 0; j < n; ++j) {
          acc[j] += x * row[j];
          absAcc[j] += ax * std::fabs(row[j]);
        }
      }
      ErrorStats &s = h->rowStats[r];
      for (int64_t j = 0; j < n; ++j) {
        double ref = acc[j], scale = absAcc[j];
        if (h->c0) {
          double c = h->c0->get(batch, i, j);
          ref += c;
          scale += std::fabs(c);
        }
        if (h->ref) {
          (*h->ref)[r * n + j] = ref;
          (*h->scale)[r * n + j] = scale;
          continue;
        }
        s.add(batch, i, j, h->out->get(batch, i, j), ref, scale);
      }
    }
  }
};

ErrorStats compareOnHost(const GemmSpec &spec,
                         const std::vector<HostMatrix> &host,
                         const HostMatrix &out) {
  HostReference h;
  h.spec = &spec;
  h.a = host[spec.aIndex].toDenseFloat();
  h.b = host[spec.bIndex].toDenseFloat();
  h.c0 = spec.accumulate ? &host[spec.cIndex] : nullptr;
  h.out = &out;
  h.rowStats.resize(spec.batch * spec.m);
  for (ErrorStats &s : h.rowStats)
    s.absFloor = outputRoundingFloor(out.dtype);
  parallelFor(spec.batch * spec.m, HostReference::rows, &h);
  ErrorStats total;
  for (const ErrorStats &s : h.rowStats)
    total.merge(s);
  return total;
}

/// The float64 host reference and scale of every element, row-major (each
/// matrix of a batch after the other).
void matmulOnHost(const GemmSpec &spec, const std::vector<HostMatrix> &host,
                  std::vector<double> &ref, std::vector<double> &scale) {
  HostReference h;
  h.spec = &spec;
  h.a = host[spec.aIndex].toDenseFloat();
  h.b = host[spec.bIndex].toDenseFloat();
  h.c0 = spec.accumulate ? &host[spec.cIndex] : nullptr;
  h.out = nullptr;
  ref.assign(static_cast<size_t>(spec.batch * spec.m * spec.n), 0.0);
  scale.assign(ref.size(), 0.0);
  h.ref = &ref;
  h.scale = &scale;
  h.rowStats.resize(spec.batch * spec.m);
  parallelFor(spec.batch * spec.m, HostReference::rows, &h);
}

/// What the comparison of a kernel with an epilogue needs per element: the
/// compiled epilogue, its inputs and the matmul's error allowances.
struct EpilogueContext {
  EpilogueProgram program;
  /// Per input, its host matrix (nullptr for a product input, whose value
  /// is the second product's reference).
  std::vector<const HostMatrix *> inputs;
  std::vector<EpilogueInputKind> kinds;
  /// A dual GEMM: the index of its product input among `inputs`.
  std::optional<size_t> product;
  double maxNormBound = 0; // the matmul's allowance per unit of scale
  /// A batch compared as one stack of its matrices (row i of matrix b is
  /// row b * rowsPerMatrix + i): the rows of one matrix; 0 for no batch.
  int64_t rowsPerMatrix = 0;
  double frobDelta = 0;    // frobBound * rms(reference), absolute
  double frobRel = 0;      // frobBound, relative to the element's own acc
  double frobDelta2 = 0;   // frobBound * rms(second product), absolute

  /// Compiles the epilogue and finds its inputs in `host`.
  std::string init(const Manifest &manifest,
                   const std::vector<HostMatrix> &host) {
    const Epilogue &e = *manifest.op.epilogue;
    std::string error = program.compile(e);
    if (!error.empty())
      return error;
    for (const EpilogueInput &input : e.inputs) {
      const Operand *o = manifest.findOperand(input.operand);
      if (!o)
        return "op.epilogue: no operand named '" + input.operand + "'";
      if (input.kind == EpilogueInputKind::Product) {
        if (product)
          return "op.epilogue: more than one product input";
        product = inputs.size();
        inputs.push_back(nullptr);
      } else {
        inputs.push_back(&host[o - manifest.operands.data()]);
      }
      kinds.push_back(input.kind);
    }
    return "";
  }

  /// Compares output element (i, j) with the epilogue of the matmul
  /// reference `acc` (scale `scale`) into `s`; `withWidth` adds the range
  /// the Frobenius bound allows. A dual GEMM's product input is the second
  /// product's reference `acc2` (scale `scale2`), allowed to err like
  /// `acc` (ignored without a product input).
  void element(int64_t i, int64_t j, double out, double acc, double scale,
               double acc2, double scale2, bool withWidth,
               ErrorStats &s) const {
    // Scratch per thread: the rows run on several.
    thread_local std::vector<double> x, deltas, values;
    thread_local std::vector<ValueRange> ranges;
    x.resize(inputs.size());
    deltas.assign(inputs.size(), 0.0);
    values.resize(program.numValues());
    ranges.resize(program.numValues());
    double *xp = x.data(), *dp = deltas.data(), *vp = values.data();
    ValueRange *rp = ranges.data();
    for (size_t e = 0; e < inputs.size(); ++e) {
      if (product == e) {
        xp[e] = acc2;
        dp[e] = maxNormBound * scale2;
        continue;
      }
      auto [r, c] = epilogueInputIndex(kinds[e], i, j);
      // A batch's rows are stacked: column vectors repeat every matrix.
      if (kinds[e] == EpilogueInputKind::Col && rowsPerMatrix > 0)
        r %= rowsPerMatrix;
      xp[e] = inputs[e]->get(r, c);
    }
    double ref = program.eval(acc, xp, vp);
    double delta = maxNormBound * scale;
    ValueRange allowed = program.range(acc - delta, acc + delta, xp, rp, dp);
    double norm = allowanceNorm(out, ref, allowed);
    if (!std::isfinite(out)) {
      // Infinities and NaNs the reference allows are no error.
      if (!allowed.contains(out))
        ++s.nonFinite;
      return;
    }
    bool worst = std::isfinite(ref) ? (s.addNormalized(i, j, out, ref, norm),
                                       s.worstRow == i && s.worstCol == j)
                                    : s.noteNorm(i, j, out, ref, norm);
    if (worst)
      s.worstLo = allowed.lo, s.worstHi = allowed.hi;
    if (!withWidth || !std::isfinite(ref))
      return;
    // The accumulation's rounding grows with the element's own partial
    // sums: an element above the rms is allowed its relative share. (An
    // epilogue like exp weighs the largest elements most, whose errors the
    // rms-wide band alone understates.)
    double fd = std::max(frobDelta, frobRel * std::fabs(acc));
    if (product)
      dp[*product] = std::max(frobDelta2, frobRel * std::fabs(acc2));
    ValueRange tight = program.range(acc - fd, acc + fd, xp, rp, dp);
    double half = std::max(tight.hi - ref, ref - tight.lo);
    if (std::isfinite(half) && half > 0)
      s.widthSq += half * half;
  }
};

/// Compares every element of `out` with the epilogue of `acc` (and of a
/// dual GEMM's `acc2`), rows split over threads. T is double (host
/// reference) or float (cuBLAS).
template <typename T> struct EpilogueRows {
  const EpilogueContext *context;
  const HostMatrix *out;
  const T *acc, *scale;
  const T *acc2, *scale2; // nullptr without a second product
  int64_t n;
  std::vector<ErrorStats> rowStats;

  static void rows(void *self, int64_t begin, int64_t end) {
    auto *e = static_cast<EpilogueRows *>(self);
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < e->n; ++j) {
        int64_t at = i * e->n + j;
        e->context->element(i, j, e->out->get(i, j), e->acc[at], e->scale[at],
                            e->acc2 ? double(e->acc2[at]) : 0.0,
                            e->scale2 ? double(e->scale2[at]) : 0.0,
                            /*withWidth=*/true, e->rowStats[i]);
      }
  }
};

/// rms(x) over the finite elements of x[0, count).
template <typename T> double finiteRms(const T *x, int64_t count) {
  double sumSq = 0;
  int64_t finite = 0;
  for (int64_t e = 0; e < count; ++e)
    if (std::isfinite(double(x[e]))) {
      sumSq += double(x[e]) * double(x[e]);
      ++finite;
    }
  return finite > 0 ? std::sqrt(sumSq / double(finite)) : 0.0;
}

/// The body of compareEpilogue(), for both reference types; leaves the
/// context (with the matmul's bounds) in `context` for sampling. `acc2` and
/// `scale2`: a dual GEMM's second product (nullptr without).
template <typename T>
std::string compareEpilogueImpl(const Manifest &manifest,
                                const std::vector<HostMatrix> &host,
                                const HostMatrix &out, const T *acc,
                                const T *scale, const T *acc2, const T *scale2,
                                CheckResult &r, EpilogueContext &context) {
  if (!manifest.op.epilogue)
    return "the manifest has no op.epilogue";
  std::string error = context.init(manifest, host);
  if (!error.empty())
    return error;
  if (context.product && (!acc2 || !scale2))
    return "op.epilogue reads a second product (op.dual), but its "
           "reference is missing";
  // A batch is compared as one stack of its matrices: C and every matrix
  // input are contiguous batches of row-major matrices (the compiler fuses
  // epilogues of such batches only), so row b * rows + i of the stack is
  // row i of matrix b.
  HostMatrix stacked;
  const HostMatrix *flat = &out;
  if (out.batch > 1) {
    auto isStack = [](const HostMatrix &x) {
      for (int64_t b = 0; b < x.batch; ++b)
        if (x.matrixOffset(b) != b * x.rows * x.stride0)
          return false;
      return true;
    };
    for (size_t e = 0; e < context.inputs.size(); ++e)
      if (context.kinds[e] == EpilogueInputKind::Matrix &&
          context.inputs[e]->batch > 1 && !isStack(*context.inputs[e]))
        return "a batched epilogue's matrix input is not a contiguous stack "
               "of its matrices";
    if (!isStack(out))
      return "a batched epilogue's output is not a contiguous stack of its "
             "matrices";
    stacked = out;
    stacked.rows = out.batch * out.rows;
    stacked.batch = 1;
    stacked.batchStride = 0;
    stacked.batchDims.clear();
    stacked.batchDimStrides.clear();
    context.rowsPerMatrix = out.rows;
    flat = &stacked;
  }
  int64_t m = flat->rows, n = flat->cols;
  context.maxNormBound = r.maxNormBound;
  context.frobDelta = r.frobBound * finiteRms(acc, m * n);
  context.frobRel = r.frobBound;
  if (context.product)
    context.frobDelta2 = r.frobBound * finiteRms(acc2, m * n);
  EpilogueRows<T> rows{&context, flat, acc, scale, acc2, scale2, n, {}};
  rows.rowStats.resize(m);
  parallelFor(m, EpilogueRows<T>::rows, &rows);
  ErrorStats stats;
  for (const ErrorStats &s : rows.rowStats)
    stats.merge(s);
  r.maxNorm = stats.maxNorm;
  r.maxNormBound = 1;
  r.frob = stats.frob();
  r.frobBound = stats.refSq > 0 ? std::sqrt(stats.widthSq / stats.refSq)
                                : std::sqrt(stats.widthSq);
  r.nonFinite = stats.nonFinite;
  r.worstRow = stats.worstRow, r.worstCol = stats.worstCol;
  if (context.rowsPerMatrix > 0 && r.worstRow >= 0) {
    r.worstBatch = r.worstRow / context.rowsPerMatrix;
    r.worstRow %= context.rowsPerMatrix;
  }
  r.worstOut = stats.worstOut, r.worstRef = stats.worstRef;
  r.worstLo = stats.worstLo, r.worstHi = stats.worstHi;
  r.epilogueSteps = static_cast<int64_t>(manifest.op.epilogue->steps.size());
  r.pass = r.withinBounds();
  return "";
}

/// Every element against cuBLAS (f32 pedantic, scale from |A| |B| through
/// cuBLAS too); the rows of a batch stacked like HostReference's.
struct CublasCompare {
  const GemmSpec *spec;
  const std::vector<float> *ref, *scale;
  const HostMatrix *out;
  std::vector<ErrorStats> rowStats;

  static void rows(void *context, int64_t begin, int64_t end) {
    auto *c = static_cast<CublasCompare *>(context);
    int64_t m = c->spec->m, n = c->spec->n;
    for (int64_t r = begin; r < end; ++r)
      for (int64_t j = 0; j < n; ++j)
        c->rowStats[r].add(r / m, r % m, j, c->out->get(r / m, r % m, j),
                           (*c->ref)[r * n + j], (*c->scale)[r * n + j]);
  }
};

/// Runs C = A B (+ C0) with cuBLAS into a row-major f32 buffer (a batch:
/// one dense matrix after the other, cublasGemmStridedBatchedEx) and
/// downloads it.
std::string cublasReference(cublasHandle_t handle, const GemmSpec &spec,
                            const void *a, const void *b, const HostMatrix *c0,
                            std::vector<float> &result) {
  MatrixLayout rowMajor{spec.m, spec.n, spec.n, 1, spec.m * spec.n};
  CublasPlan plan;
  std::string e = planCublas(spec.a, spec.b, rowMajor, plan, spec.batch);
  if (!e.empty())
    return e;
  result.assign(static_cast<size_t>(spec.batch * spec.m * spec.n), 0.0f);
  if (c0)
    for (int64_t b = 0; b < spec.batch; ++b)
      for (int64_t i = 0; i < spec.m; ++i)
        for (int64_t j = 0; j < spec.n; ++j)
          result[(b * spec.m + i) * spec.n + j] =
              static_cast<float>(c0->get(b, i, j));
  DeviceBuffer c;
  size_t bytes = result.size() * sizeof(float);
  if (!(e = c.allocate(bytes)).empty() ||
      !(e = c.upload(result.data(), bytes)).empty() ||
      !(e = runGemmEx(handle, plan, a, b, c.get(), spec.aType, DType::F32,
                      c0 ? 1.0f : 0.0f, CUBLAS_COMPUTE_32F_PEDANTIC))
           .empty() ||
      !(e = c.download(result.data(), bytes)).empty())
    return e;
  return "";
}

/// Computes the reference `ref` of every element with cuBLAS and its scale
/// sum_k |a||b| + |c0| (a matmul of absolute values), row-major.
std::string cublasMatmul(const GemmSpec &spec,
                         const std::vector<HostMatrix> &host,
                         const DeviceOperands &dev, std::vector<float> &ref,
                         std::vector<float> &scale) {
  if (spec.aType != spec.bType)
    return "cuBLAS reference needs equal A and B dtypes, got " +
           dtypeLabel(spec);
  cublasHandle_t handle;
  std::string e = formatCublas("cublasCreate", cublasCreate(&handle));
  if (!e.empty())
    return e;
  const HostMatrix *c0 = spec.accumulate ? &host[spec.cIndex] : nullptr;
  // cublasGemmEx takes no 8-bit floats; their values are exact in f16, so
  // the reference multiplies f16 copies. Two batch dimensions are not one
  // cuBLAS batch stride: the reference multiplies batch-contiguous copies.
  GemmSpec refSpec = spec;
  DeviceBuffer a16, b16;
  const void *aRef = dev.buffers[spec.aIndex].get();
  const void *bRef = dev.buffers[spec.bIndex].get();
  bool fp8 = spec.aType == DType::E4M3 || spec.aType == DType::E5M2;
  bool severalBatchDims = spec.a.multiBatch() || spec.b.multiBatch();
  // A row-major copy of every matrix, one after the other.
  auto denseCopy = [](const HostMatrix &m, DType dtype) {
    HostMatrix copy;
    copy.allocateBatch(dtype, m.batch, m.rows, m.cols, m.rows * m.cols,
                       m.cols, 1);
    for (int64_t b = 0; b < m.batch; ++b)
      for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t j = 0; j < m.cols; ++j)
          copy.set(b, i, j, m.get(b, i, j));
    return copy;
  };
  HostMatrix hostA16, hostB16;
  if (fp8 || severalBatchDims) {
    DType copyType = fp8 ? DType::F16 : spec.aType;
    hostA16 = denseCopy(host[spec.aIndex], copyType);
    hostB16 = denseCopy(host[spec.bIndex], copyType);
    refSpec.aType = refSpec.bType = copyType;
    refSpec.a = MatrixLayout{spec.m, spec.k, spec.k, 1, spec.m * spec.k};
    refSpec.b = MatrixLayout{spec.k, spec.n, spec.n, 1, spec.k * spec.n};
    if ((e = a16.allocate(hostA16.bytes.size())).empty() &&
        (e = a16.upload(hostA16.bytes.data(), hostA16.bytes.size())).empty() &&
        (e = b16.allocate(hostB16.bytes.size())).empty())
      e = b16.upload(hostB16.bytes.data(), hostB16.bytes.size());
    if (!e.empty()) {
      cublasDestroy(handle);
      return e;
    }
    aRef = a16.get();
    bRef = b16.get();
  }
  const HostMatrix &hostA =
      fp8 || severalBatchDims ? hostA16 : host[spec.aIndex];
  const HostMatrix &hostB =
      fp8 || severalBatchDims ? hostB16 : host[spec.bIndex];
  e = cublasReference(handle, refSpec, aRef, bRef, c0, ref);
  if (e.empty()) {
    HostMatrix absA = hostA.absolute();
    HostMatrix absB = hostB.absolute();
    HostMatrix absC = c0 ? c0->absolute() : HostMatrix();
    DeviceBuffer da, db;
    if ((e = da.allocate(absA.bytes.size())).empty() &&
        (e = da.upload(absA.bytes.data(), absA.bytes.size())).empty() &&
        (e = db.allocate(absB.bytes.size())).empty() &&
        (e = db.upload(absB.bytes.data(), absB.bytes.size())).empty())
      e = cublasReference(handle, refSpec, da.get(), db.get(),
                          c0 ? &absC : nullptr, scale);
  }
  cublasDestroy(handle);
  return e;
}

/// Compares every element with the cuBLAS reference `ref` (f32 pedantic)
/// and its scale.
void compareWithCublas(const GemmSpec &spec, const std::vector<float> &ref,
                       const std::vector<float> &scale, const HostMatrix &out,
                       ErrorStats &stats) {
  CublasCompare c{&spec, &ref, &scale, &out, {}};
  c.rowStats.resize(spec.batch * spec.m);
  for (ErrorStats &s : c.rowStats)
    s.absFloor = outputRoundingFloor(out.dtype);
  parallelFor(spec.batch * spec.m, CublasCompare::rows, &c);
  for (const ErrorStats &s : c.rowStats)
    stats.merge(s);
}

/// The float64 matmul reference of element (b, i, j) and its scale
/// sum_k |a b| + |c0|.
void hostElement(const GemmSpec &spec, const std::vector<HostMatrix> &host,
                 int64_t batch, int64_t i, int64_t j, double &ref,
                 double &scale) {
  const HostMatrix &a = host[spec.aIndex], &b = host[spec.bIndex];
  ref = 0, scale = 0;
  for (int64_t p = 0; p < spec.k; ++p) {
    double x = a.get(batch, i, p), y = b.get(batch, p, j);
    ref += x * y;
    scale += std::fabs(x * y);
  }
  if (spec.accumulate) {
    double c = host[spec.cIndex].get(batch, i, j);
    ref += c;
    scale += std::fabs(c);
  }
}

/// A sampled element (b, i, j): matrix b of the batch, row i, column j.
struct Sample {
  int64_t b, i, j;
};

/// The sampled elements of the cuBLAS path: (0, 0, 0), (batch-1, m-1,
/// n-1), then seeded random ones spread over the batch (for batch 1 the
/// same (i, j) as ever).
Sample sampleElement(const GemmSpec &spec, const CheckOptions &options,
                     int64_t s) {
  if (s == 0)
    return {0, 0, 0};
  if (s == 1)
    return {spec.batch - 1, spec.m - 1, spec.n - 1};
  uint64_t h = mix64(options.seed * 0x9e3779b97f4a7c15ull + s);
  uint64_t hj = mix64(h);
  int64_t b = spec.batch > 1 ? static_cast<int64_t>(mix64(hj) % spec.batch) : 0;
  return {b, static_cast<int64_t>(h % spec.m),
          static_cast<int64_t>(hj % spec.n)};
}

/// Recomputes sampled elements in float64 and folds their normalized error
/// into stats.maxNorm (cuBLAS itself is not trusted blindly).
void compareSamples(const GemmSpec &spec, const std::vector<HostMatrix> &host,
                    const HostMatrix &out, const CheckOptions &options,
                    ErrorStats &stats) {
  for (int64_t s = 0; s < options.samples; ++s) {
    auto [b, i, j] = sampleElement(spec, options, s);
    double ref, scale;
    hostElement(spec, host, b, i, j, ref, scale);
    double o = out.get(b, i, j);
    if (std::isfinite(o)) {
      double err =
          std::max(0.0, std::fabs(o - ref) - outputRoundingFloor(out.dtype));
      stats.maxNorm = std::max(stats.maxNorm, scale > 0 ? err / scale : err);
    }
  }
}

/// setKernelWaitHook's hook.
std::function<void(bool)> &kernelWaitHook() {
  static std::function<void(bool)> hook;
  return hook;
}

/// Calls the kernel-wait hook with true now and with false when it goes.
struct KernelWait {
  KernelWait() {
    if (kernelWaitHook())
      kernelWaitHook()(true);
  }
  ~KernelWait() {
    if (kernelWaitHook())
      kernelWaitHook()(false);
  }
};

} // namespace

std::string tcgen::bench::launchTimed(rt::Kernel &kernel, DeviceOperands &dev,
                                      double &ms) {
  KernelWait wait;
  cudaEvent_t start, stop;
  std::string e = formatCuda("cudaEventCreate", cudaEventCreate(&start));
  if (!e.empty())
    return e;
  if (!(e = formatCuda("cudaEventCreate", cudaEventCreate(&stop))).empty()) {
    cudaEventDestroy(start);
    return e;
  }
  cudaEventRecord(start, nullptr);
  e = kernel.launch(dev.args, nullptr);
  cudaEventRecord(stop, nullptr);
  if (e.empty())
    e = formatCuda("kernel execution (cudaEventSynchronize)",
                   cudaEventSynchronize(stop));
  float elapsed = 0;
  if (e.empty())
    cudaEventElapsedTime(&elapsed, start, stop);
  ms = elapsed;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return e;
}

void tcgen::bench::setKernelWaitHook(std::function<void(bool)> hook) {
  kernelWaitHook() = std::move(hook);
}

std::string CheckResult::line(bool compared) const {
  char buf[512];
  // Batch 1 prints as it always has; a batch says its size at the end.
  std::string batchText =
      batch > 1 ? " batch=" + std::to_string(batch) : std::string();
  if (!compared) {
    std::snprintf(buf, sizeof(buf),
                  "RUN %s %lld %lld %lld %s ms=%.4f nonfinite=%lld",
                  entry.c_str(), (long long)m, (long long)n, (long long)k,
                  pass ? "OK" : "FAIL", kernelMs, (long long)nonFinite);
    return buf + batchText;
  }
  std::snprintf(buf, sizeof(buf),
                "CHECK %s %lld %lld %lld %s maxnorm=%.3e frob=%.3e "
                "nonfinite=%lld ref=%s acc=%s",
                entry.c_str(), (long long)m, (long long)n, (long long)k,
                pass ? "PASS" : "FAIL", maxNorm, frob, (long long)nonFinite,
                reference.c_str(), accumulator.c_str());
  std::string text = buf + batchText;
  if (epilogueSteps >= 0)
    text += " epilogue=" + std::to_string(epilogueSteps);
  if (!pass && worstRow >= 0) {
    std::string where = batch > 1 ? std::to_string(worstBatch) + "," : "";
    std::snprintf(buf, sizeof(buf), " worst=(%s%lld,%lld) out=%.6g ref=%.6g",
                  where.c_str(), (long long)worstRow, (long long)worstCol,
                  worstOut, worstRef);
    text += buf;
    if (epilogueSteps >= 0) {
      std::snprintf(buf, sizeof(buf), " allowed=[%.6g,%.6g]", worstLo, worstHi);
      text += buf;
    }
  }
  return text;
}

std::string tcgen::bench::describeCheckedGemm(const Manifest &manifest,
                                              GemmSpec &spec) {
  if (!manifest.op.epilogue && manifest.op.k2 == 0 &&
      !manifest.op.blockScales)
    return describeGemm(manifest, spec);
  // parseManifest refuses these; be clear for a built manifest.
  if (manifest.op.batch > 1 && !manifest.op.batchReduce &&
      manifest.op.k2 > 0)
    return "second products of batched matmuls are not supported by "
           "tcgen-gpu yet (op.batch " +
           std::to_string(manifest.op.batch) + ")";
  // The matmul without its epilogue inputs and second product (the check
  // concatenates the products later: concatenateProducts()), then the
  // indices of A, B and C in the whole manifest.
  Manifest matmul = manifest;
  matmul.operands.clear();
  for (const Operand &o : manifest.operands) {
    // The second product's operands and the block scales (folded into A
    // and B by foldBlockScales()).
    if (o.role == OperandRole::Lhs2 || o.role == OperandRole::Rhs2 ||
        o.role == OperandRole::ScaleA || o.role == OperandRole::ScaleB)
      continue;
    if (o.role != OperandRole::In) {
      matmul.operands.push_back(o);
      continue;
    }
    std::string error =
        checkFloatDType(o.dtype, "epilogue input '" + o.name + "'");
    if (!error.empty())
      return error;
  }
  std::string error = describeGemm(matmul, spec);
  if (!error.empty())
    return error;
  auto indexOf = [&](size_t i) {
    const Operand *o = manifest.findOperand(matmul.operands[i].name);
    return static_cast<size_t>(o - manifest.operands.data());
  };
  spec.aIndex = indexOf(spec.aIndex);
  spec.bIndex = indexOf(spec.bIndex);
  spec.cIndex = indexOf(spec.cIndex);
  return "";
}

/// Block scales: a power of two in [2^-4, 2^4] times a number in [0.5, 2)
/// with 8 significant bits, deterministic in (seed, stream, i, j). Their
/// products with e4m3 or e5m2 elements, and with each other, are exact in
/// f32, so the float64 reference of the scaled operands is exact.
static void fillBlockScales(HostMatrix &scales, uint64_t seed,
                            uint64_t stream) {
  for (int64_t i = 0; i < scales.rows; ++i)
    for (int64_t j = 0; j < scales.cols; ++j) {
      uint64_t h = seed * 0x9e3779b97f4a7c15ull + stream * 0xbf58476d1ce4e5b9ull +
                   uint64_t(i) * 0x94d049bb133111ebull + uint64_t(j) + 1;
      h ^= h >> 31;
      h *= 0x7fb5d329728ea185ull;
      h ^= h >> 27;
      int exponent = int(h % 9) - 4;
      double mantissa = double(128 + (h >> 8) % 384) / 256.0;
      scales.set(i, j, std::ldexp(mantissa, exponent));
    }
}

std::vector<HostMatrix>
tcgen::bench::makeCheckOperands(const Manifest &manifest, const GemmSpec &spec,
                                uint64_t seed) {
  if (!manifest.op.epilogue && !manifest.op.blockScales)
    return makeHostOperands(manifest, spec, seed);
  std::vector<HostMatrix> host(manifest.operands.size());
  for (size_t i = 0; i < host.size(); ++i) {
    const Operand &o = manifest.operands[i];
    if (o.role == OperandRole::ScaleA || o.role == OperandRole::ScaleB) {
      allocateHostOperand(o, host[i]);
      fillBlockScales(host[i], seed, /*stream=*/i);
      continue;
    }
    if (o.role != OperandRole::In) {
      allocateHostOperand(o, host[i]);
    } else {
      // One HostMatrix geometry per input kind (epilogueInputIndex()).
      EpilogueInputKind kind = EpilogueInputKind::Matrix;
      for (const EpilogueInput &input : manifest.op.epilogue->inputs)
        if (input.operand == o.name)
          kind = input.kind;
      switch (kind) {
      case EpilogueInputKind::Scalar:
        host[i].allocate(o.dtype, 1, 1, 0, 0);
        break;
      case EpilogueInputKind::Row:
        host[i].allocate(o.dtype, 1, o.shape[0], 0, o.strides[0]);
        break;
      case EpilogueInputKind::Col:
        host[i].allocate(o.dtype, o.shape[0], 1, o.strides[0], 0);
        break;
      case EpilogueInputKind::Matrix:
      case EpilogueInputKind::Product: // (names the rhs2 operand, not an in)
        // A batch's matrix input: one matrix per batch entry.
        if (o.shape.size() >= 4)
          allocateHostOperand(o, host[i]);
        else if (o.shape.size() == 3)
          host[i].allocateBatch(o.dtype, o.shape[0], o.shape[1], o.shape[2],
                                o.strides[0], o.strides[1], o.strides[2]);
        else
          host[i].allocate(o.dtype, o.shape[0], o.shape[1], o.strides[0],
                           o.strides[1]);
        break;
      }
    }
    if (i == spec.cIndex && !spec.accumulate)
      host[i].poisonNaN();
    else
      host[i].fillRandom(seed, /*stream=*/i);
  }
  return host;
}

std::string tcgen::bench::compareEpilogue(const Manifest &manifest,
                                          const std::vector<HostMatrix> &host,
                                          const HostMatrix &out,
                                          const std::vector<double> &acc,
                                          const std::vector<double> &scale,
                                          CheckResult &r,
                                          const SecondProduct *second) {
  if (acc.size() != static_cast<size_t>(out.rows * out.cols) ||
      scale.size() != acc.size() ||
      (second && (second->acc.size() != acc.size() ||
                  second->scale.size() != acc.size())))
    return "compareEpilogue: the reference does not match the output's size";
  EpilogueContext context;
  return compareEpilogueImpl(manifest, host, out, acc.data(), scale.data(),
                             second ? second->acc.data() : nullptr,
                             second ? second->scale.data() : nullptr, r,
                             context);
}

std::string tcgen::bench::describeSecondProduct(const Manifest &manifest,
                                                const GemmSpec &spec,
                                                GemmSpec &second) {
  const Operand *b2 = manifest.findRole(OperandRole::Rhs2);
  const Operand &b = manifest.operands[spec.bIndex];
  if (!b2 || b2->shape != b.shape || b2->dtype != b.dtype)
    return "op.dual without an rhs2 operand of B's shape and dtype";
  second = spec;
  second.bIndex = size_t(b2 - manifest.operands.data());
  second.b = layoutOf(*b2);
  return "";
}

/// Replaces the operand op.prologue names, in `host` and on the device, by
/// the prologue of its elements (evaluated in float64, each step rounded to
/// its dtype). Returns "" or what failed.
static std::string applyPrologue(const Manifest &manifest,
                                 std::vector<HostMatrix> &host,
                                 DeviceOperands &dev) {
  const Prologue &p = *manifest.op.prologue;
  size_t index = manifest.operands.size();
  for (size_t i = 0; i < manifest.operands.size(); ++i)
    if (manifest.operands[i].name == p.operand)
      index = i;
  if (index == manifest.operands.size())
    return "op.prologue: no operand named '" + p.operand + "'";
  EpilogueProgram program;
  std::string error = program.compile(p.body);
  if (!error.empty())
    return "op.prologue: " + error;
  HostMatrix &x = host[index];
  std::vector<double> values(program.numValues());
  for (int64_t b = 0; b < x.batch; ++b)
    for (int64_t i = 0; i < x.rows; ++i)
      for (int64_t j = 0; j < x.cols; ++j)
        x.set(b, i, j, program.eval(x.get(b, i, j), nullptr, values.data()));
  return dev.buffers[index].upload(x.bytes.data(), x.bytes.size());
}

/// Replaces A and B on the device by host[spec.aIndex] and host[spec.bIndex]
/// (new buffers of their size). Returns "" or what failed, after `what`.
static std::string uploadAB(const GemmSpec &spec,
                            const std::vector<HostMatrix> &host,
                            DeviceOperands &dev, const std::string &what) {
  for (size_t i : {spec.aIndex, spec.bIndex}) {
    std::string e = dev.buffers[i].allocate(host[i].bytes.size());
    if (e.empty())
      e = dev.buffers[i].upload(host[i].bytes.data(), host[i].bytes.size());
    if (!e.empty())
      return what + ": " + e;
  }
  return "";
}

/// Block-scaled fp8 (op.block_scales): replaces A and B, in `host`, on the
/// device and in `spec`, by the dense f32 matrices A'[i][p] = A[i][p]
/// SA[i][p/128] and B'[p][j] = B[p][j] SB[j/128][p/128] (exact: 4 or 3
/// mantissa bits times 8), whose plain product is what the kernel computed;
/// the references then run unchanged. The error bounds stay those of the
/// fp8 inputs (setBounds before). Returns "" or what failed.
static std::string foldBlockScales(const Manifest &manifest, GemmSpec &spec,
                                   std::vector<HostMatrix> &host,
                                   DeviceOperands &dev) {
  const Operand *osa = manifest.findRole(OperandRole::ScaleA);
  const Operand *osb = manifest.findRole(OperandRole::ScaleB);
  if (!osa || !osb || spec.batch != 1)
    return "op.block_scales without scale_a and scale_b operands, or with "
           "a batch";
  const BlockScaleInfo &bs = *manifest.op.blockScales;
  const HostMatrix &sa = host[osa - manifest.operands.data()];
  const HostMatrix &sb = host[osb - manifest.operands.data()];
  const HostMatrix &a1 = host[spec.aIndex], &b1 = host[spec.bIndex];
  int64_t m = spec.m, n = spec.n, k = spec.k;
  HostMatrix a, b;
  a.allocate(DType::F32, m, k, k, 1);
  b.allocate(DType::F32, k, n, n, 1);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      a.set(i, p, a1.get(i, p) * sa.get(i / bs.a[0], p / bs.a[1]));
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      b.set(p, j, b1.get(p, j) * sb.get(j / bs.b[0], p / bs.b[1]));
  host[spec.aIndex] = std::move(a);
  host[spec.bIndex] = std::move(b);
  spec.aType = spec.bType = DType::F32;
  spec.tf32 = false;
  spec.a = MatrixLayout{m, k, k, 1};
  spec.b = MatrixLayout{k, n, n, 1};
  return uploadAB(spec, host, dev, "folding the block scales");
}

/// add(gemm, gemm): replaces A and B, in `host`, on the device and in
/// `spec`, by the dense row-major concatenations [A | A2] (m x (k + k2))
/// and [B ; B2] ((k + k2) x n), whose one product is what the kernel
/// computed; the references then run unchanged. Returns "" or what failed.
static std::string concatenateProducts(const Manifest &manifest,
                                       GemmSpec &spec,
                                       std::vector<HostMatrix> &host,
                                       DeviceOperands &dev) {
  const Operand *oa2 = manifest.findRole(OperandRole::Lhs2);
  const Operand *ob2 = manifest.findRole(OperandRole::Rhs2);
  if (!oa2 || !ob2)
    return "op.k2 without lhs2 and rhs2 operands";
  const HostMatrix &a2 = host[oa2 - manifest.operands.data()];
  const HostMatrix &b2 = host[ob2 - manifest.operands.data()];
  const HostMatrix &a1 = host[spec.aIndex], &b1 = host[spec.bIndex];
  int64_t m = spec.m, n = spec.n, k1 = spec.k, k2 = manifest.op.k2;
  int64_t k = k1 + k2;
  HostMatrix a, b;
  a.allocate(a1.dtype, m, k, k, 1);
  b.allocate(b1.dtype, k, n, n, 1);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < k1; ++j)
      a.set(i, j, a1.get(i, j));
    for (int64_t j = 0; j < k2; ++j)
      a.set(i, k1 + j, a2.get(i, j));
  }
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t p = 0; p < k1; ++p)
      b.set(p, j, b1.get(p, j));
    for (int64_t p = 0; p < k2; ++p)
      b.set(k1 + p, j, b2.get(p, j));
  }
  host[spec.aIndex] = std::move(a);
  host[spec.bIndex] = std::move(b);
  spec.k = k;
  spec.a = MatrixLayout{m, k, k, 1};
  spec.b = MatrixLayout{k, n, n, 1};
  return uploadAB(spec, host, dev, "concatenating the products");
}

/// A summed batch (op.batch_reduce): replaces A and B, in `host`, on the
/// device and in `spec`, by the dense row-major [m, batch k] and
/// [batch k, n] whose one product is what the kernel computed (matrix b of
/// the batch at K offset b k); the references then run unchanged. Returns
/// "" or what failed.
static std::string flattenSummedBatch(GemmSpec &spec,
                                      std::vector<HostMatrix> &host,
                                      DeviceOperands &dev) {
  const HostMatrix &a1 = host[spec.aIndex], &b1 = host[spec.bIndex];
  int64_t m = spec.m, n = spec.n, k1 = spec.k, batch = spec.batch;
  int64_t k = batch * k1;
  HostMatrix a, b;
  a.allocate(a1.dtype, m, k, k, 1);
  b.allocate(b1.dtype, k, n, n, 1);
  for (int64_t q = 0; q < batch; ++q) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k1; ++p)
        a.set(i, q * k1 + p, a1.get(q, i, p));
    for (int64_t p = 0; p < k1; ++p)
      for (int64_t j = 0; j < n; ++j)
        b.set(q * k1 + p, j, b1.get(q, p, j));
  }
  host[spec.aIndex] = std::move(a);
  host[spec.bIndex] = std::move(b);
  spec.batch = 1;
  spec.batchReduce = false;
  spec.k = k;
  spec.a = MatrixLayout{m, k, k, 1};
  spec.b = MatrixLayout{k, n, n, 1};
  return uploadAB(spec, host, dev, "flattening the summed batch");
}

/// Launches the kernel once (timed) and downloads operand `index` into
/// `out`. Returns "" or what failed.
static std::string launchAndDownload(rt::Kernel &kernel, DeviceOperands &dev,
                                     size_t index, HostMatrix &out,
                                     double &ms) {
  std::string e = launchTimed(kernel, dev, ms);
  if (e.empty())
    e = dev.buffers[index].download(out.bytes.data(), out.bytes.size());
  return e;
}

std::string tcgen::bench::describePointwise(const Manifest &manifest,
                                            GemmSpec &spec) {
  const Operand *x = manifest.findOperand("X");
  const Operand *y = manifest.findRole(OperandRole::Out);
  if (manifest.op.kind != "pointwise" || !manifest.op.epilogue || !x || !y ||
      x->shape.size() != 2 || y->shape.size() != 2)
    return "a pointwise bundle needs op kind 'pointwise', op.epilogue, an "
           "operand X and an out operand, both [m, n]";
  spec = GemmSpec();
  spec.m = manifest.op.m, spec.n = manifest.op.n, spec.k = 1;
  spec.aIndex = size_t(x - manifest.operands.data());
  spec.cIndex = size_t(y - manifest.operands.data());
  return "";
}

/// A standalone pointwise kernel (op kind "pointwise": Y = f(X, E0, ...)):
/// random X and inputs, a NaN-poisoned Y, and every element against the
/// float64 evaluation of op.epilogue on the same rounded inputs, X taking
/// the matmul value's part with an allowance of a few f32 roundings.
static CheckResult checkPointwise(rt::Kernel &kernel,
                                  const CheckOptions &options) {
  CheckResult r;
  const Manifest &manifest = kernel.manifest();
  r.entry = manifest.entry;
  GemmSpec spec;
  if (!(r.error = describePointwise(manifest, spec)).empty())
    return r;
  r.m = spec.m, r.n = spec.n, r.k = 0;
  std::vector<HostMatrix> host =
      makeCheckOperands(manifest, spec, options.seed);
  DeviceOperands dev;
  r.error = dev.create(manifest, host);
  HostMatrix out = host[spec.cIndex];
  if (r.error.empty())
    r.error = launchAndDownload(kernel, dev, spec.cIndex, out, r.kernelMs);
  if (!r.error.empty())
    return r;
  r.reference = "host-f64";
  const HostMatrix &hx = host[spec.aIndex];
  std::vector<double> acc(size_t(r.m * r.n)), scale(acc.size());
  for (int64_t i = 0; i < r.m; ++i)
    for (int64_t j = 0; j < r.n; ++j) {
      acc[i * r.n + j] = hx.get(i, j);
      scale[i * r.n + j] = std::fabs(hx.get(i, j));
    }
  // X is exact: its allowance covers only f32 arithmetic in the kernel.
  r.maxNormBound = 4 * std::ldexp(1.0, -24);
  r.frobBound = r.maxNormBound;
  r.error = compareEpilogue(manifest, host, out, acc, scale, r);
  return r;
}

CheckResult tcgen::bench::checkKernel(rt::Kernel &kernel,
                                      const CheckOptions &options) {
  if (kernel.manifest().op.kind == "pointwise")
    return checkPointwise(kernel, options);
  // A grouped product: its routings, each group's rows (Grouped.cpp).
  if (kernel.manifest().op.groups > 0)
    return checkGrouped(kernel, options);
  CheckResult r;
  const Manifest &manifest = kernel.manifest();
  r.entry = manifest.entry;
  GemmSpec spec;
  r.error = describeCheckedGemm(manifest, spec);
  if (!r.error.empty())
    return r;
  r.batch = spec.batch;
  r.m = spec.m, r.n = spec.n, r.k = spec.k;
  r.accumulator = dtypeName(spec.accumulator);
  setBounds(spec, r);
  bool epilogue = manifest.op.epilogue.has_value();

  std::vector<HostMatrix> host =
      makeCheckOperands(manifest, spec, options.seed);
  DeviceOperands dev;
  r.error = dev.create(manifest, host);
  for (int64_t i = 0; i < options.warmLaunches && r.error.empty(); ++i) {
    r.error = launchTimed(kernel, dev, r.kernelMs);
    if (r.error.empty())
      r.error = dev.buffers[spec.cIndex].upload(host[spec.cIndex].bytes.data(),
                                                host[spec.cIndex].bytes.size());
  }
  HostMatrix out = host[spec.cIndex];
  if (r.error.empty())
    r.error = launchAndDownload(kernel, dev, spec.cIndex, out, r.kernelMs);
  if (!r.error.empty())
    return r;

  // A fused prologue: the references multiply the transformed operand (on
  // the host, and on the device for cuBLAS, now that the kernel is done).
  if (manifest.op.prologue) {
    r.error = applyPrologue(manifest, host, dev);
    if (!r.error.empty())
      return r;
  }
  // Block scales: the references multiply the scaled operands (in f32,
  // exactly), with the fp8 inputs' error allowance.
  if (manifest.op.blockScales) {
    r.error = foldBlockScales(manifest, spec, host, dev);
    if (!r.error.empty())
      return r;
  }
  // A summed batch: the references multiply one matrix over the batch's
  // K, and the error allowance is that of the whole K.
  if (spec.batchReduce) {
    r.error = flattenSummedBatch(spec, host, dev);
    if (!r.error.empty())
      return r;
    r.batch = 1;
    r.k = spec.k;
    setBounds(spec, r);
  }
  // A second product: the references multiply the concatenations, and the
  // error allowance is that of the whole K.
  if (manifest.op.k2 > 0) {
    r.error = concatenateProducts(manifest, spec, host, dev);
    if (!r.error.empty())
      return r;
    r.k = spec.k;
    setBounds(spec, r);
  }

  // A dual GEMM: the references compute A B2 beside A B.
  GemmSpec spec2;
  if (manifest.op.dual) {
    r.error = describeSecondProduct(manifest, spec, spec2);
    if (!r.error.empty())
      return r;
  }

  // The multiply-adds of the whole batch (of both products of a dual
  // GEMM), and the dense copies of its inputs, decide whether the host
  // computes the reference.
  double mnk = (manifest.op.dual ? 2.0 : 1.0) * double(spec.batch) *
               double(spec.m) * double(spec.n) * double(spec.k);
  bool hostFits = mnk <= double(options.hostLimit) &&
                  spec.batch * spec.m * spec.k <= (int64_t(1) << 28) &&
                  spec.batch * spec.k * spec.n <= (int64_t(1) << 28);
  if (!options.compare) {
    r.reference = "none";
    // An epilogue may overflow to infinity; NaN stays what an unwritten
    // (NaN-poisoned) element reads.
    for (int64_t b = 0; b < spec.batch; ++b)
      for (int64_t i = 0; i < spec.m; ++i)
        for (int64_t j = 0; j < spec.n; ++j) {
          double o = out.get(b, i, j);
          r.nonFinite += epilogue ? std::isnan(o) : !std::isfinite(o);
        }
    r.pass = r.nonFinite == 0;
    return r;
  }

  if (epilogue) {
    // The epilogue of the matmul reference, from the host or cuBLAS.
    EpilogueContext context;
    if (hostFits) {
      r.reference = "host-f64";
      std::vector<double> ref, scale, ref2, scale2;
      matmulOnHost(spec, host, ref, scale);
      if (manifest.op.dual)
        matmulOnHost(spec2, host, ref2, scale2);
      r.error = compareEpilogueImpl(
          manifest, host, out, ref.data(), scale.data(),
          manifest.op.dual ? ref2.data() : nullptr,
          manifest.op.dual ? scale2.data() : nullptr, r, context);
      return r;
    }
    r.reference = "cublas+sampled-f64";
    std::vector<float> ref, scale, ref2, scale2;
    r.error = cublasMatmul(spec, host, dev, ref, scale);
    if (r.error.empty() && manifest.op.dual)
      r.error = cublasMatmul(spec2, host, dev, ref2, scale2);
    if (r.error.empty())
      r.error = compareEpilogueImpl(
          manifest, host, out, ref.data(), scale.data(),
          manifest.op.dual ? ref2.data() : nullptr,
          manifest.op.dual ? scale2.data() : nullptr, r, context);
    if (!r.error.empty())
      return r;
    // Sampled elements from a float64 reference, against the matmul's
    // allowance the context kept.
    ErrorStats samples;
    samples.maxNorm = r.maxNorm;
    samples.worstRow = r.worstRow, samples.worstCol = r.worstCol;
    samples.worstOut = r.worstOut, samples.worstRef = r.worstRef;
    samples.worstLo = r.worstLo, samples.worstHi = r.worstHi;
    for (int64_t s = 0; s < options.samples; ++s) {
      auto [b, i, j] = sampleElement(spec, options, s);
      double acc, scaleIJ, acc2 = 0, scale2IJ = 0;
      hostElement(spec, host, b, i, j, acc, scaleIJ);
      if (manifest.op.dual)
        hostElement(spec2, host, b, i, j, acc2, scale2IJ);
      context.element(b * spec.m + i, j, out.get(b, i, j), acc, scaleIJ, acc2,
                      scale2IJ, /*withWidth=*/false, samples);
    }
    r.maxNorm = samples.maxNorm;
    r.worstRow = samples.worstRow, r.worstCol = samples.worstCol;
    r.worstOut = samples.worstOut, r.worstRef = samples.worstRef;
    r.worstLo = samples.worstLo, r.worstHi = samples.worstHi;
    r.nonFinite += samples.nonFinite;
    r.pass = r.withinBounds();
    return r;
  }

  ErrorStats stats;
  if (hostFits) {
    r.reference = "host-f64";
    stats = compareOnHost(spec, host, out);
  } else {
    r.reference = "cublas+sampled-f64";
    std::vector<float> ref, scale;
    r.error = cublasMatmul(spec, host, dev, ref, scale);
    if (!r.error.empty())
      return r;
    compareWithCublas(spec, ref, scale, out, stats);
    compareSamples(spec, host, out, options, stats);
  }
  r.maxNorm = stats.maxNorm;
  r.worstBatch = stats.worstBatch;
  r.worstRow = stats.worstRow, r.worstCol = stats.worstCol;
  r.worstOut = stats.worstOut, r.worstRef = stats.worstRef;
  r.frob = stats.frob();
  r.nonFinite = stats.nonFinite;
  r.pass = r.withinBounds();
  return r;
}

CheckResult tcgen::bench::checkBundle(const std::string &path,
                                      const CheckOptions &options) {
  rt::Kernel kernel;
  std::string error = kernel.load(path);
  if (error.empty())
    error = bindLaunchSizes(kernel, options.sizes);
  if (!error.empty()) {
    CheckResult r;
    r.error = error;
    return r;
  }
  if (std::string note = ptxFallbackNote(kernel); !note.empty())
    std::fprintf(stderr, "tcgen-gpu: note: %s: %s\n", path.c_str(),
                 note.c_str());
  return checkKernel(kernel, options);
}
