//===- Check.cpp - Correctness check of a bundle's matmul -----------------===//
//
// This file implements checkKernel() and checkBundle(): random operands,
// one launch through the runtime, and the float64 / cuBLAS comparison.
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "CublasGemm.h"
#include "CudaUtil.h"
#include "Gemm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
/// Running error statistics over compared elements.
struct ErrorStats {
  double maxNorm = 0, errSq = 0, refSq = 0;
  int64_t nonFinite = 0;
  /// The element with the largest normalized error (where to look).
  int64_t worstRow = -1, worstCol = -1;
  double worstOut = 0, worstRef = 0;

  void add(int64_t i, int64_t j, double out, double ref, double scale) {
    if (!std::isfinite(out)) {
      ++nonFinite;
      return;
    }
    double err = std::fabs(out - ref);
    double norm = scale > 0 ? err / scale : err;
    if (norm > maxNorm || worstRow < 0) {
      maxNorm = std::max(maxNorm, norm);
      worstRow = i, worstCol = j, worstOut = out, worstRef = ref;
    }
    errSq += err * err;
    refSq += ref * ref;
  }
  void merge(const ErrorStats &o) {
    if (o.maxNorm > maxNorm || worstRow < 0) {
      worstRow = o.worstRow, worstCol = o.worstCol;
      worstOut = o.worstOut, worstRef = o.worstRef;
    }
    maxNorm = std::max(maxNorm, o.maxNorm);
    errSq += o.errSq;
    refSq += o.refSq;
    nonFinite += o.nonFinite;
  }
  double frob() const {
    return refSq > 0 ? std::sqrt(errSq / refSq) : std::sqrt(errSq);
  }
};

} // namespace

void tcgen::bench::setBounds(const GemmSpec &spec, CheckResult &r) {
  bool lowInputs = spec.aType != DType::F32 && spec.bType != DType::F32;
  DType boundsType = spec.cType;
  if (spec.accumulator == DType::F16 && boundsType == DType::F32)
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
    r.frobBound =
        lowInputs ? std::max(1e-5, double(spec.k) * std::ldexp(1.0, -29))
                  : 5e-3;
    break;
  }
}

namespace {

/// The float64 host reference over every element, rows split over threads.
struct HostReference {
  const GemmSpec *spec;
  std::vector<float> a, b; // dense row-major copies of the rounded inputs
  const HostMatrix *c0;    // initial C for accumulate, else nullptr
  const HostMatrix *out;
  std::vector<ErrorStats> rowStats;

  static void rows(void *context, int64_t begin, int64_t end) {
    auto *h = static_cast<HostReference *>(context);
    int64_t n = h->spec->n, k = h->spec->k;
    std::vector<double> acc(n), absAcc(n);
    for (int64_t i = begin; i < end; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      std::fill(absAcc.begin(), absAcc.end(), 0.0);
      for (int64_t p = 0; p < k; ++p) {
        double x = h->a[i * k + p];
        double ax = std::fabs(x);
        const float *row = &h->b[p * n];
        for (int64_t j = 0; j < n; ++j) {
          acc[j] += x * row[j];
          absAcc[j] += ax * std::fabs(row[j]);
        }
      }
      ErrorStats &s = h->rowStats[i];
      for (int64_t j = 0; j < n; ++j) {
        double ref = acc[j], scale = absAcc[j];
        if (h->c0) {
          double c = h->c0->get(i, j);
          ref += c;
          scale += std::fabs(c);
        }
        s.add(i, j, h->out->get(i, j), ref, scale);
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
  h.rowStats.resize(spec.m);
  parallelFor(spec.m, HostReference::rows, &h);
  ErrorStats total;
  for (const ErrorStats &s : h.rowStats)
    total.merge(s);
  return total;
}

/// Every element against cuBLAS (f32 pedantic, scale from |A| |B| through
/// cuBLAS too).
struct CublasCompare {
  const GemmSpec *spec;
  const std::vector<float> *ref, *scale;
  const HostMatrix *out;
  std::vector<ErrorStats> rowStats;

  static void rows(void *context, int64_t begin, int64_t end) {
    auto *c = static_cast<CublasCompare *>(context);
    int64_t n = c->spec->n;
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < n; ++j)
        c->rowStats[i].add(i, j, c->out->get(i, j), (*c->ref)[i * n + j],
                           (*c->scale)[i * n + j]);
  }
};

/// Runs C = A B (+ C0) with cuBLAS into a row-major f32 buffer and
/// downloads it.
std::string cublasReference(cublasHandle_t handle, const GemmSpec &spec,
                            const void *a, const void *b, const HostMatrix *c0,
                            std::vector<float> &result) {
  MatrixLayout rowMajor{spec.m, spec.n, spec.n, 1};
  CublasPlan plan;
  std::string e = planCublas(spec.a, spec.b, rowMajor, plan);
  if (!e.empty())
    return e;
  result.assign(static_cast<size_t>(spec.m * spec.n), 0.0f);
  if (c0)
    for (int64_t i = 0; i < spec.m; ++i)
      for (int64_t j = 0; j < spec.n; ++j)
        result[i * spec.n + j] = static_cast<float>(c0->get(i, j));
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

std::string compareWithCublas(const GemmSpec &spec,
                              const std::vector<HostMatrix> &host,
                              const DeviceOperands &dev, const HostMatrix &out,
                              ErrorStats &stats) {
  if (spec.aType != spec.bType)
    return "cuBLAS reference needs equal A and B dtypes, got " +
           dtypeLabel(spec);
  cublasHandle_t handle;
  std::string e = formatCublas("cublasCreate", cublasCreate(&handle));
  if (!e.empty())
    return e;
  const HostMatrix *c0 = spec.accumulate ? &host[spec.cIndex] : nullptr;
  std::vector<float> ref, scale;
  e = cublasReference(handle, spec, dev.buffers[spec.aIndex].get(),
                      dev.buffers[spec.bIndex].get(), c0, ref);
  if (e.empty()) {
    // The scale sum_k |a||b| + |c0| is itself a matmul of absolute values.
    HostMatrix absA = host[spec.aIndex].absolute();
    HostMatrix absB = host[spec.bIndex].absolute();
    HostMatrix absC = c0 ? c0->absolute() : HostMatrix();
    DeviceBuffer da, db;
    if ((e = da.allocate(absA.bytes.size())).empty() &&
        (e = da.upload(absA.bytes.data(), absA.bytes.size())).empty() &&
        (e = db.allocate(absB.bytes.size())).empty() &&
        (e = db.upload(absB.bytes.data(), absB.bytes.size())).empty())
      e = cublasReference(handle, spec, da.get(), db.get(),
                          c0 ? &absC : nullptr, scale);
  }
  cublasDestroy(handle);
  if (!e.empty())
    return e;
  CublasCompare c{&spec, &ref, &scale, &out, {}};
  c.rowStats.resize(spec.m);
  parallelFor(spec.m, CublasCompare::rows, &c);
  for (const ErrorStats &s : c.rowStats)
    stats.merge(s);
  return "";
}

/// Recomputes sampled elements in float64 and folds their normalized error
/// into stats.maxNorm (cuBLAS itself is not trusted blindly).
void compareSamples(const GemmSpec &spec, const std::vector<HostMatrix> &host,
                    const HostMatrix &out, const CheckOptions &options,
                    ErrorStats &stats) {
  const HostMatrix &a = host[spec.aIndex], &b = host[spec.bIndex];
  const HostMatrix *c0 = spec.accumulate ? &host[spec.cIndex] : nullptr;
  for (int64_t s = 0; s < options.samples; ++s) {
    int64_t i, j;
    if (s == 0) {
      i = 0, j = 0;
    } else if (s == 1) {
      i = spec.m - 1, j = spec.n - 1;
    } else {
      uint64_t h = mix64(options.seed * 0x9e3779b97f4a7c15ull + s);
      i = static_cast<int64_t>(h % spec.m);
      j = static_cast<int64_t>(mix64(h) % spec.n);
    }
    double ref = 0, scale = 0;
    for (int64_t p = 0; p < spec.k; ++p) {
      double x = a.get(i, p), y = b.get(p, j);
      ref += x * y;
      scale += std::fabs(x * y);
    }
    if (c0) {
      ref += c0->get(i, j);
      scale += std::fabs(c0->get(i, j));
    }
    double o = out.get(i, j);
    if (std::isfinite(o)) {
      double err = std::fabs(o - ref);
      stats.maxNorm = std::max(stats.maxNorm, scale > 0 ? err / scale : err);
    }
  }
}

std::string launchOnce(rt::Kernel &kernel, DeviceOperands &dev, double &ms) {
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
} // namespace

std::string CheckResult::line(bool compared) const {
  char buf[512];
  if (!compared) {
    std::snprintf(buf, sizeof(buf),
                  "RUN %s %lld %lld %lld %s ms=%.4f nonfinite=%lld",
                  entry.c_str(), (long long)m, (long long)n, (long long)k,
                  pass ? "OK" : "FAIL", kernelMs, (long long)nonFinite);
    return buf;
  }
  std::snprintf(buf, sizeof(buf),
                "CHECK %s %lld %lld %lld %s maxnorm=%.3e frob=%.3e "
                "nonfinite=%lld ref=%s acc=%s",
                entry.c_str(), (long long)m, (long long)n, (long long)k,
                pass ? "PASS" : "FAIL", maxNorm, frob, (long long)nonFinite,
                reference.c_str(), accumulator.c_str());
  std::string text = buf;
  if (!pass && worstRow >= 0) {
    std::snprintf(buf, sizeof(buf), " worst=(%lld,%lld) out=%.6g ref=%.6g",
                  (long long)worstRow, (long long)worstCol, worstOut,
                  worstRef);
    text += buf;
  }
  return text;
}

CheckResult tcgen::bench::checkKernel(rt::Kernel &kernel,
                                      const CheckOptions &options) {
  CheckResult r;
  const Manifest &manifest = kernel.manifest();
  r.entry = manifest.entry;
  GemmSpec spec;
  r.error = describeGemm(manifest, spec);
  if (!r.error.empty())
    return r;
  r.m = spec.m, r.n = spec.n, r.k = spec.k;
  r.accumulator = dtypeName(spec.accumulator);
  setBounds(spec, r);

  std::vector<HostMatrix> host = makeHostOperands(manifest, spec, options.seed);
  DeviceOperands dev;
  r.error = dev.create(manifest, host);
  for (int64_t i = 0; i < options.warmLaunches && r.error.empty(); ++i) {
    r.error = launchOnce(kernel, dev, r.kernelMs);
    if (r.error.empty())
      r.error = dev.buffers[spec.cIndex].upload(host[spec.cIndex].bytes.data(),
                                                host[spec.cIndex].bytes.size());
  }
  if (r.error.empty())
    r.error = launchOnce(kernel, dev, r.kernelMs);
  HostMatrix out = host[spec.cIndex];
  if (r.error.empty())
    r.error =
        dev.buffers[spec.cIndex].download(out.bytes.data(), out.bytes.size());
  if (!r.error.empty())
    return r;

  ErrorStats stats;
  double mnk = double(spec.m) * double(spec.n) * double(spec.k);
  bool hostFits = mnk <= double(options.hostLimit) &&
                  spec.m * spec.k <= (int64_t(1) << 28) &&
                  spec.k * spec.n <= (int64_t(1) << 28);
  if (!options.compare) {
    r.reference = "none";
    for (int64_t i = 0; i < spec.m; ++i)
      for (int64_t j = 0; j < spec.n; ++j)
        if (!std::isfinite(out.get(i, j)))
          ++stats.nonFinite;
  } else if (hostFits) {
    r.reference = "host-f64";
    stats = compareOnHost(spec, host, out);
  } else {
    r.reference = "cublas+sampled-f64";
    r.error = compareWithCublas(spec, host, dev, out, stats);
    if (!r.error.empty())
      return r;
    compareSamples(spec, host, out, options, stats);
  }
  r.maxNorm = stats.maxNorm;
  r.worstRow = stats.worstRow, r.worstCol = stats.worstCol;
  r.worstOut = stats.worstOut, r.worstRef = stats.worstRef;
  r.frob = stats.frob();
  r.nonFinite = stats.nonFinite;
  r.pass = r.nonFinite == 0 &&
           (!options.compare ||
            (r.maxNorm <= r.maxNormBound && r.frob <= r.frobBound));
  return r;
}

CheckResult tcgen::bench::checkBundle(const std::string &path,
                                      const CheckOptions &options) {
  rt::Kernel kernel;
  std::string error = kernel.load(path);
  if (!error.empty()) {
    CheckResult r;
    r.error = error;
    return r;
  }
  return checkKernel(kernel, options);
}
