//===- Grouped.cpp - Grouped products on the GPU tools ----------*- C++ -*-===//
//
// This file implements the routings of grouped products and their check
// (Grouped.h): every row written, sampled rows (or all) against the
// float64 product of their group.
//
//===----------------------------------------------------------------------===//

#include "Grouped.h"

#include "CudaUtil.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>

using namespace tcgen;
using namespace tcgen::bench;

const std::vector<std::string> &tcgen::bench::groupedRoutings() {
  static const std::vector<std::string> kinds = {"balanced", "skewed",
                                                 "sparse"};
  return kinds;
}

std::vector<int64_t> tcgen::bench::groupedOffsets(const std::string &kind,
                                                  int64_t rows, int64_t groups,
                                                  uint64_t seed) {
  std::vector<int64_t> counts(size_t(groups), 0);
  std::mt19937_64 rng(seed);
  if (kind == "skewed" && groups > 1) {
    // Half to group 0, then halving shares with random jitter; the last
    // group gets none.
    int64_t left = rows - rows / 2;
    counts[0] = rows / 2;
    for (int64_t g = 1; g + 1 < groups && left > 0; ++g) {
      int64_t share = g + 2 == groups ? left : left / 2 + int64_t(rng() % 3);
      share = std::min(share, left);
      counts[size_t(g)] = share;
      left -= share;
    }
    counts[0] += left;
  } else if (kind == "sparse" && groups > 1) {
    // Every other group empty; the rows dealt at random to the rest.
    for (int64_t t = 0; t < rows; ++t) {
      int64_t g = 2 * int64_t(rng() % uint64_t((groups + 1) / 2));
      ++counts[size_t(g)];
    }
  } else {
    for (int64_t g = 0; g < groups; ++g)
      counts[size_t(g)] = rows / groups + (g < rows % groups ? 1 : 0);
  }
  std::vector<int64_t> offsets(size_t(groups) + 1, 0);
  for (int64_t g = 0; g < groups; ++g)
    offsets[size_t(g) + 1] = offsets[size_t(g)] + counts[size_t(g)];
  return offsets;
}

namespace {

/// What the row references share: the operands, the rows to compute and,
/// per compared row, its reference and scale (N values each).
struct GroupedRows {
  const HostMatrix *a, *b;
  const std::vector<int64_t> *offsets;
  const std::vector<int64_t> *rows;
  int64_t n = 0, k = 0;
  std::vector<double> acc, scale;

  /// Rows [begin, end) of `rows`: sum_k A[t][k] B[g(t)][k][j] and its
  /// sum of |products|, in float64.
  static void compute(void *context, int64_t begin, int64_t end) {
    auto &c = *static_cast<GroupedRows *>(context);
    for (int64_t r = begin; r < end; ++r) {
      int64_t t = (*c.rows)[size_t(r)];
      auto it = std::upper_bound(c.offsets->begin(), c.offsets->end(), t);
      int64_t g = int64_t(it - c.offsets->begin()) - 1;
      for (int64_t j = 0; j < c.n; ++j) {
        double s = 0, abs = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          double p = c.a->get(t, kk) * c.b->get(g, kk, j);
          s += p;
          abs += std::fabs(p);
        }
        c.acc[size_t(r * c.n + j)] = s;
        c.scale[size_t(r * c.n + j)] = abs;
      }
    }
  }
};

/// The rows compared: all where T x N x K is within `limit`, else each
/// non-empty group's first and last row and 64 seeded random rows.
std::vector<int64_t> comparedRows(const std::vector<int64_t> &offsets,
                                  int64_t n, int64_t k, int64_t limit,
                                  uint64_t seed) {
  int64_t total = offsets.back();
  std::vector<int64_t> rows;
  if (double(total) * double(n) * double(k) <= double(limit)) {
    for (int64_t t = 0; t < total; ++t)
      rows.push_back(t);
    return rows;
  }
  std::set<int64_t> picked;
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    if (offsets[g + 1] > offsets[g]) {
      picked.insert(offsets[g]);
      picked.insert(offsets[g + 1] - 1);
    }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 64 && total > 0; ++i)
    picked.insert(int64_t(rng() % uint64_t(total)));
  rows.assign(picked.begin(), picked.end());
  return rows;
}

/// Writes `offsets` into the offsets operand's host bytes (i32 or i64).
void storeOffsets(const std::vector<int64_t> &offsets, DType dtype,
                  HostMatrix &host) {
  host.allocate(dtype, 1, int64_t(offsets.size()), 0, 1);
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (dtype == DType::I64) {
      int64_t v = offsets[i];
      std::memcpy(host.bytes.data() + 8 * i, &v, 8);
    } else {
      int32_t v = int32_t(offsets[i]);
      std::memcpy(host.bytes.data() + 4 * i, &v, 4);
    }
  }
}

/// Compares the sampled rows of `out` without an epilogue: maxnorm over
/// each element's scale, Frobenius over the reference's norm.
void compareRows(const HostMatrix &out, const std::vector<int64_t> &rows,
                 const GroupedRows &ref, CheckResult &r) {
  double errSq = 0, refSq = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    for (int64_t j = 0; j < ref.n; ++j) {
      double o = out.get(rows[i], j);
      double want = ref.acc[i * size_t(ref.n) + size_t(j)];
      double scale = ref.scale[i * size_t(ref.n) + size_t(j)];
      if (!std::isfinite(o))
        continue; // counted by the scan of every element
      double err = std::fabs(o - want);
      double norm = scale > 0 ? err / scale : err;
      errSq += err * err;
      refSq += want * want;
      if (norm > r.maxNorm || r.worstRow < 0) {
        r.maxNorm = std::max(r.maxNorm, norm);
        r.worstRow = rows[i], r.worstCol = j;
        r.worstOut = o, r.worstRef = want;
      }
    }
  r.frob = refSq > 0 ? std::sqrt(errSq / refSq) : std::sqrt(errSq);
}

/// One routing's check; `host` holds A, B, C (NaN-poisoned) and the
/// offsets operand, which it overwrites with the routing's.
CheckResult checkRouting(rt::Kernel &kernel, const CheckOptions &options,
                         const std::string &kind, std::vector<HostMatrix> &host,
                         DeviceOperands &dev, const GemmSpec &spec,
                         size_t offIndex) {
  const Manifest &manifest = kernel.manifest();
  CheckResult r;
  r.entry = manifest.entry + "@" + kind;
  r.m = spec.m, r.n = spec.n, r.k = spec.k;
  setBounds(spec, r);
  const Operand &offOperand = manifest.operands[offIndex];
  std::vector<int64_t> offsets =
      groupedOffsets(kind, spec.m, manifest.op.groups, options.seed);
  storeOffsets(offsets, offOperand.dtype, host[offIndex]);
  r.error = dev.buffers[offIndex].upload(host[offIndex].bytes.data(),
                                         host[offIndex].bytes.size());
  if (r.error.empty())
    r.error = dev.buffers[spec.cIndex].upload(host[spec.cIndex].bytes.data(),
                                              host[spec.cIndex].bytes.size());
  if (r.error.empty())
    r.error = launchTimed(kernel, dev, r.kernelMs);
  HostMatrix out = host[spec.cIndex];
  if (r.error.empty())
    r.error =
        dev.buffers[spec.cIndex].download(out.bytes.data(), out.bytes.size());
  if (!r.error.empty())
    return r;
  // Every row of every group is written: nothing NaN (the poison) is left.
  bool epilogue = manifest.op.epilogue.has_value();
  for (int64_t i = 0; i < spec.m; ++i)
    for (int64_t j = 0; j < spec.n; ++j) {
      double o = out.get(i, j);
      r.nonFinite += epilogue ? std::isnan(o) : !std::isfinite(o);
    }
  if (!options.compare) {
    r.reference = "none";
    r.pass = r.nonFinite == 0;
    return r;
  }
  std::vector<int64_t> rows =
      comparedRows(offsets, spec.n, spec.k, options.hostLimit, options.seed);
  r.reference = rows.size() == size_t(spec.m) ? "host-f64" : "sampled-f64";
  GroupedRows ref{&host[spec.aIndex],
                  &host[spec.bIndex],
                  &offsets,
                  &rows,
                  spec.n,
                  spec.k,
                  {},
                  {}};
  ref.acc.resize(rows.size() * size_t(spec.n));
  ref.scale.resize(ref.acc.size());
  parallelFor(int64_t(rows.size()), GroupedRows::compute, &ref);
  if (!epilogue) {
    compareRows(out, rows, ref, r);
    r.pass = r.withinBounds();
    return r;
  }
  // The epilogue over the compared rows, stacked into one matrix.
  int64_t nonFinite = r.nonFinite;
  HostMatrix sub;
  sub.allocate(out.dtype, int64_t(rows.size()), spec.n, spec.n, 1);
  for (size_t i = 0; i < rows.size(); ++i)
    for (int64_t j = 0; j < spec.n; ++j)
      sub.set(int64_t(i), j, out.get(rows[i], j));
  r.error = compareEpilogue(manifest, host, sub, ref.acc, ref.scale, r);
  if (r.worstRow >= 0 && size_t(r.worstRow) < rows.size())
    r.worstRow = rows[size_t(r.worstRow)];
  r.nonFinite = std::max(r.nonFinite, nonFinite);
  r.pass = r.error.empty() && r.withinBounds();
  return r;
}

} // namespace

CheckResult tcgen::bench::checkGrouped(rt::Kernel &kernel,
                                       const CheckOptions &options) {
  const Manifest &manifest = kernel.manifest();
  CheckResult r;
  r.entry = manifest.entry;
  GemmSpec spec;
  const Operand *a = manifest.findRole(OperandRole::Lhs);
  const Operand *b = manifest.findRole(OperandRole::Rhs);
  const Operand *c = manifest.findRole(OperandRole::Out);
  const Operand *off = manifest.findRole(OperandRole::Offsets);
  if (!a || !b || !c || !off || b->shape.size() != 3 || a->shape.size() != 2 ||
      c->shape.size() != 2) {
    r.error = "a grouped product needs A [m, k], B [groups, k, n], C [m, n] "
              "and the offsets";
    return r;
  }
  const Operand *base = manifest.operands.data();
  spec.aIndex = size_t(a - base), spec.bIndex = size_t(b - base);
  spec.cIndex = size_t(c - base);
  size_t offIndex = size_t(off - base);
  spec.m = manifest.op.m, spec.n = manifest.op.n, spec.k = manifest.op.k;
  spec.aType = a->dtype, spec.bType = b->dtype, spec.cType = c->dtype;
  spec.accumulator = manifest.op.accumulator;
  std::vector<HostMatrix> host(manifest.operands.size());
  for (size_t i = 0; i < host.size(); ++i) {
    if (i == offIndex) {
      storeOffsets(std::vector<int64_t>(size_t(manifest.op.groups) + 1, 0),
                   off->dtype, host[i]);
      continue;
    }
    allocateHostOperand(manifest.operands[i], host[i]);
    if (i == spec.cIndex)
      host[i].poisonNaN();
    else
      host[i].fillRandom(options.seed, /*stream=*/i);
  }
  DeviceOperands dev;
  r.error = dev.create(manifest, host);
  if (!r.error.empty())
    return r;
  CheckResult worst;
  bool first = true;
  for (const std::string &kind : groupedRoutings()) {
    CheckResult one =
        checkRouting(kernel, options, kind, host, dev, spec, offIndex);
    if (!one.error.empty() || !one.pass)
      return one;
    if (first || one.maxNorm / std::max(one.maxNormBound, 1e-300) >
                     worst.maxNorm / std::max(worst.maxNormBound, 1e-300))
      worst = one;
    first = false;
  }
  return worst;
}
