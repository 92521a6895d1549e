//===- Baseline.cpp - Unfused baselines of a fused bundle -----------------===//
//
// This file implements the baseline names, planBaseline() (a bundle's
// operands and epilogue against what a baseline computes), the benchmark's
// host operands and the output comparison of Baseline.h.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"

#include "EpilogueRef.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr int kProbes = 64;
constexpr double kProbeMatmul = 6.0; // GELU's curve lies within [-6, 6]
constexpr double kProbeInput = 2.0;

struct BaselineEntry {
  BaselineKind kind;
  const char *name;
  const char *computes;
};

const BaselineEntry kBaselines[] = {
    {BaselineKind::AddRelu, "cublas+add-relu",
     "cuBLAS C = A B, then a pointwise relu(C + D) (D: one matrix input)"},
    {BaselineKind::AddScalar, "cublas+add-scalar",
     "cuBLAS C = A B, then a pointwise C + s (s: one scalar input or a "
     "constant)"},
    {BaselineKind::BiasGeluResidual, "cublas+bias-gelu-residual",
     "cuBLAS C = A B, then a pointwise gelu(C + bias[j]) + R (one row and "
     "one matrix input; GELU tanh form)"},
    {BaselineKind::LtReluBias, "cublaslt-relu-bias",
     "cublasLtMatmul with CUBLASLT_EPILOGUE_RELU_BIAS: relu(A B + bias[j]) "
     "(one row input)"},
    {BaselineKind::LtGeluBias, "cublaslt-gelu-bias",
     "cublasLtMatmul with CUBLASLT_EPILOGUE_GELU_BIAS: gelu(A B + bias[j]) "
     "(one row input)"},
    {BaselineKind::ReluCAdd, "relu-c+cublas",
     "a pointwise D = relu(C), then cuBLAS D = A B + D (beta 1): "
     "relu(C) + A B (C: one matrix input)"},
    {BaselineKind::ReluA, "relu-a+cublas",
     "a pointwise A' = relu(A), then cuBLAS A' B (a ReLU prologue on A; "
     "no epilogue)"},
    {BaselineKind::TwoGemmAdd, "2cublas+add",
     "cuBLAS C1 = A[:, :k/2] B[:k/2, :] and C2 = A[:, k/2:] B[k/2:, :], "
     "then a pointwise C1 + C2 (add(gemm, gemm) as one matmul over the "
     "concatenated K; no epilogue, even k)"},
    {BaselineKind::PermuteGemm, "permute+cublas",
     "strided copies of A[b, m, k] and B[b, k, n] into one matrix each over "
     "K' = b k (only where the layout is not already so), then cuBLAS A' B' "
     "(a contraction over two K dimensions, op.batch_reduce; no epilogue)"},
    {BaselineKind::DualGemm, "cublas x2 + pointwise",
     "cuBLAS P = A B and P2 = A B2 into scratch matrices, then one pointwise "
     "kernel computing the bundle's epilogue from P, P2 and its other inputs "
     "(a dual GEMM, op.dual)"},
    {BaselineKind::DualConcat, "cublas concat + pointwise",
     "one cuBLAS [P | P2] = A [B | B2] over the concatenated weights (made "
     "before timing) into an [m, 2n] scratch, then the same pointwise "
     "kernel over its halves (a dual GEMM, op.dual)"},
};

const BaselineEntry &entryOf(BaselineKind kind) {
  for (const BaselineEntry &e : kBaselines)
    if (e.kind == kind)
      return e;
  return kBaselines[0];
}

/// "[row E0, matrix E1]" for messages.
std::string describeInputs(const Epilogue &epilogue) {
  std::string s = "[";
  for (size_t i = 0; i < epilogue.inputs.size(); ++i)
    s += std::string(i ? ", " : "") + epilogueInputKindName(epilogue.inputs[i].kind) +
         " " + epilogue.inputs[i].operand;
  return s + "]";
}

std::string fmtValue(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

ValueType valueTypeOf(DType dtype) {
  return parseValueType(dtypeName(dtype)).value_or(ValueType::F32);
}

/// The dtype whose unit roundoff is the largest of `a` and `b`.
DType coarser(DType a, DType b) {
  return unitRoundoff(valueTypeOf(b)) > unitRoundoff(valueTypeOf(a)) ? b : a;
}

/// The baseline's formula over the matmul value c and the epilogue's input
/// values (in epilogue order, as stored).
using Formula = std::function<double(double c, const std::vector<double> &)>;

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}

/// Evaluates the epilogue on probe points and compares with `formula`.
/// Returns "" or where they differ.
std::string matchFormula(const Manifest &manifest, const BaselinePlan &plan,
                         const char *formulaText, const Formula &formula) {
  const Epilogue &epilogue = *manifest.op.epilogue;
  EpilogueProgram program;
  std::string error = program.compile(epilogue);
  if (!error.empty())
    return "cannot evaluate the bundle's epilogue: " + error;
  double roundoff = 0;
  for (const EpilogueStep &s : epilogue.steps)
    if (std::optional<ValueType> t = parseValueType(s.dtype))
      roundoff = std::max(roundoff, unitRoundoff(*t));
  double tol = std::max(1e-3, 16 * roundoff);
  std::vector<ValueType> inputTypes;
  for (const EpilogueInput &in : epilogue.inputs)
    inputTypes.push_back(valueTypeOf(manifest.findOperand(in.operand)->dtype));
  std::vector<double> inputs(epilogue.inputs.size());
  std::vector<double> values(program.numValues());
  for (int p = 0; p < kProbes; ++p) {
    auto uniform = [&](int which, double range) {
      uint64_t bits = mix64(uint64_t(p) * 64 + uint64_t(which));
      return range * (2.0 * double(bits >> 11) * 0x1.0p-53 - 1.0);
    };
    double c =
        roundToType(uniform(0, kProbeMatmul), valueTypeOf(plan.matmulType));
    for (size_t i = 0; i < inputs.size(); ++i)
      inputs[i] = roundToType(uniform(int(i) + 1, kProbeInput), inputTypes[i]);
    double got = program.eval(c, inputs.data(), values.data());
    double want = formula(c, inputs);
    if (!(std::fabs(got - want) <= tol * (1.0 + std::fabs(want)))) {
      std::string at = "C=" + fmtValue(c);
      for (size_t i = 0; i < inputs.size(); ++i)
        at += ", " + epilogue.inputs[i].operand + "=" + fmtValue(inputs[i]);
      return std::string("the bundle's epilogue does not compute ") +
             formulaText + ": at " + at + " it gives " + fmtValue(got) +
             ", the baseline " + fmtValue(want);
    }
  }
  return "";
}

/// The operand named by epilogue input `i`.
const Operand &inputOperand(const Manifest &manifest, size_t i) {
  return *manifest.findOperand(manifest.op.epilogue->inputs[i].operand);
}

size_t indexOf(const Manifest &manifest, const Operand &operand) {
  return size_t(&operand - manifest.operands.data());
}

/// Checks that an input operand can be read by the baseline's kernels.
std::string checkInputLayout(const Operand &o, EpilogueInputKind kind) {
  std::string error =
      checkFloatDType(o.dtype, "epilogue input '" + o.name + "'");
  if (!error.empty())
    return error;
  if (kind == EpilogueInputKind::Matrix &&
      !(o.strides.size() == 2 && o.strides[1] == 1 &&
        o.strides[0] >= o.shape[1]))
    return "epilogue input '" + o.name +
           "' is not row-major (strides [ld, 1]), which the baseline's "
           "pointwise kernel needs";
  if (kind == EpilogueInputKind::Row &&
      !(o.strides.size() == 1 && (o.strides[0] == 1 || o.shape[0] <= 1)))
    return "epilogue input '" + o.name +
           "' is not contiguous (stride 1), which a bias vector needs";
  return "";
}

/// Finds the epilogue inputs of the given kinds, in any order: `found[q]`
/// is the input index for kinds[q]. Returns "" or why not.
std::string matchKinds(const Manifest &manifest,
                       const std::vector<EpilogueInputKind> &kinds,
                       std::vector<size_t> &found) {
  const Epilogue &epilogue = *manifest.op.epilogue;
  std::string want = "[";
  for (size_t q = 0; q < kinds.size(); ++q)
    want += std::string(q ? ", " : "") + epilogueInputKindName(kinds[q]);
  want += "]";
  std::string why = "needs epilogue inputs " + want +
                    " (any order), the "
                    "bundle has " +
                    describeInputs(epilogue);
  if (epilogue.inputs.size() != kinds.size())
    return why;
  found.assign(kinds.size(), SIZE_MAX);
  std::vector<bool> used(epilogue.inputs.size(), false);
  for (size_t q = 0; q < kinds.size(); ++q) {
    for (size_t i = 0; i < epilogue.inputs.size() && found[q] == SIZE_MAX; ++i)
      if (!used[i] && epilogue.inputs[i].kind == kinds[q])
        found[q] = i, used[i] = true;
    if (found[q] == SIZE_MAX)
      return why;
  }
  for (size_t q = 0; q < kinds.size(); ++q) {
    std::string error =
        checkInputLayout(inputOperand(manifest, found[q]), kinds[q]);
    if (!error.empty())
      return error;
  }
  return "";
}

/// What every baseline needs: C = A B (no accumulate) of rank-2 f16/bf16
/// A and B of one dtype, a row-major float out.
std::string planCommon(const Manifest &manifest, BaselinePlan &plan) {
  const OpInfo &op = manifest.op;
  if (op.kind != "matmul")
    return "op kind '" + op.kind + "' is not a matmul";
  // permute+cublas times a summed batch; the others one matmul.
  bool summed = plan.kind == BaselineKind::PermuteGemm;
  if (summed && !op.batchReduce)
    return "needs a bundle that sums a batch (op.batch_reduce: a "
           "contraction over two K dimensions)";
  if (op.batch != 1 && !summed)
    return "a batched matmul (batch " + std::to_string(op.batch) +
           ") has no baseline yet";
  if (op.accumulate)
    return "the bundle accumulates into C (op.accumulate); baselines time "
           "C = A B";
  if (op.accumulator != DType::F32 && op.accumulator != DType::F16)
    return std::string("op.accumulator '") + dtypeName(op.accumulator) +
           "' is not supported (f16 or f32)";
  const Operand *a = manifest.findRole(OperandRole::Lhs);
  const Operand *b = manifest.findRole(OperandRole::Rhs);
  const Operand *out = manifest.findRole(OperandRole::Out);
  if (!a || !b || !out)
    return "the bundle lacks an lhs, rhs or out operand";
  size_t abRank = summed ? 3 : 2;
  if (a->shape.size() != abRank || b->shape.size() != abRank ||
      out->shape.size() != 2)
    return summed ? "A and B must have rank 3 and out rank 2"
                  : "A, B and out must have rank 2";
  for (const Operand *o : {a, b})
    if (o->dtype != DType::F16 && o->dtype != DType::BF16)
      return "operand '" + o->name + "' has dtype " + dtypeName(o->dtype) +
             "; baselines take f16 or bf16 A and B";
  if (a->dtype != b->dtype)
    return "cuBLAS needs equal A and B dtypes, got " +
           std::string(dtypeName(a->dtype)) + " and " + dtypeName(b->dtype);
  std::string error =
      checkFloatDType(out->dtype, "operand '" + out->name + "'");
  if (!error.empty())
    return error;
  if (!(out->strides[1] == 1 && out->strides[0] >= op.n))
    return "operand '" + out->name +
           "' is not row-major (strides [ld, 1]), which the baselines write";
  plan.a = indexOf(manifest, *a);
  plan.b = indexOf(manifest, *b);
  plan.out = indexOf(manifest, *out);
  plan.m = op.m, plan.n = op.n, plan.k = op.k;
  plan.batch = 1;
  if (summed) {
    plan.batch = op.batch;
    plan.k = op.batch * op.k;
  }
  plan.abType = a->dtype;
  plan.outType = out->dtype;
  plan.accumulator = op.accumulator;
  plan.matmulType = op.epilogue ? op.epilogue->matmulDType : out->dtype;
  plan.coarsest = coarser(plan.matmulType, plan.outType);
  if (op.epilogue) {
    if ((error = checkFloatDType(plan.matmulType, "op.epilogue.matmul_dtype"))
            .empty() == false)
      return error;
    for (const EpilogueStep &s : op.epilogue->steps)
      if (std::optional<DType> t = parseDType(s.dtype))
        plan.coarsest = coarser(plan.coarsest, *t);
  }
  plan.matrix.reset();
  plan.bias.reset();
  plan.scalar.reset();
  plan.constant = 0;
  return "";
}

/// relu-a+cublas: the bundle's op.prologue must be on the lhs and compute
/// max(x, 0) on probe values of the lhs dtype.
static std::string matchReluPrologue(const Manifest &manifest,
                                     const BaselinePlan &plan) {
  const std::optional<Prologue> &p = manifest.op.prologue;
  if (!p)
    return "needs a bundle with a prologue on A (op.prologue), this one "
           "multiplies A as it is";
  if (p->operand != manifest.operands[plan.a].name)
    return "needs the prologue on the lhs '" + manifest.operands[plan.a].name +
           "', this one transforms '" + p->operand + "'";
  EpilogueProgram program;
  std::string error = program.compile(p->body);
  if (!error.empty())
    return "cannot evaluate the bundle's prologue: " + error;
  std::vector<double> values(program.numValues());
  for (int i = 0; i < 64; ++i) {
    double x = -6.0 + 12.0 * i / 63.0;
    double got = program.eval(x, nullptr, values.data());
    double want = std::max(0.0, roundToType(x, valueTypeOf(plan.abType)));
    if (!(std::fabs(got - want) <= 1e-3 * (1 + std::fabs(want))))
      return "the bundle's prologue is not relu(A): at " + std::to_string(x) +
             " it gives " + std::to_string(got) + ", relu " +
             std::to_string(want);
  }
  return "";
}

/// The dual baselines: B2 of A's dtype, and reads and an output that the
/// generated pointwise kernel takes (f16, bf16 or f32).
std::string planDual(const Manifest &manifest, BaselinePlan &plan) {
  if (!manifest.op.epilogue) // parseManifest refuses this
    return "a dual GEMM needs op.epilogue";
  const Operand *b2 = manifest.findRole(OperandRole::Rhs2);
  if (!b2 || b2->shape.size() != 2 || b2->dtype != plan.abType)
    return "the dual GEMM lacks a rank-2 rhs2 of B's dtype";
  plan.b2 = indexOf(manifest, *b2);
  auto readable = [](DType t) {
    return t == DType::F16 || t == DType::BF16 || t == DType::F32;
  };
  std::string why = "the pointwise kernel reads and writes f16, bf16 or f32";
  if (!readable(plan.matmulType))
    return why + ", not matmul_dtype " + dtypeName(plan.matmulType);
  if (!readable(plan.outType))
    return why + ", not the output's " + dtypeName(plan.outType);
  for (const EpilogueInput &in : manifest.op.epilogue->inputs) {
    const Operand *o = manifest.findOperand(in.operand);
    if (in.kind != EpilogueInputKind::Product && !readable(o->dtype))
      return why + ", not the " + dtypeName(o->dtype) + " of input '" +
             o->name + "'";
  }
  return "";
}

std::string planKind(const Manifest &manifest, BaselineKind kind,
                     BaselinePlan &plan) {
  const std::optional<Epilogue> &epilogue = manifest.op.epilogue;
  // A dual GEMM's two products are timed by the dual baselines alone.
  if (manifest.op.dual && !isDualBaseline(kind))
    return "needs a bundle with one product, this one is a dual GEMM "
           "(op.dual; time it against '" +
           std::string(baselineName(BaselineKind::DualGemm)) + "' or '" +
           baselineName(BaselineKind::DualConcat) + "')";
  if (isDualBaseline(kind))
    return manifest.op.dual ? planDual(manifest, plan)
                            : "needs a dual GEMM (op.dual), this bundle "
                              "computes one product";
  if (kind == BaselineKind::PermuteGemm) {
    if (epilogue)
      return "needs a bundle without an epilogue, this one has op.epilogue "
             "with inputs " +
             describeInputs(*epilogue);
    if (manifest.op.prologue)
      return "needs a bundle without a prologue, this one has op.prologue";
    return "";
  }
  if (kind == BaselineKind::ReluA || kind == BaselineKind::TwoGemmAdd) {
    if (epilogue)
      return "needs a bundle without an epilogue, this one has op.epilogue "
             "with inputs " +
             describeInputs(*epilogue);
    if (kind == BaselineKind::TwoGemmAdd && manifest.op.k2 > 0) {
      const Operand *a2 = manifest.findRole(OperandRole::Lhs2);
      const Operand *b2 = manifest.findRole(OperandRole::Rhs2);
      if (!a2 || !b2 || a2->shape.size() != 2 || b2->shape.size() != 2)
        return "the bundle's second product lacks a rank-2 lhs2 or rhs2";
      if (a2->dtype != plan.abType || b2->dtype != plan.abType)
        return "the second product's operands must have A's dtype";
      plan.a2 = indexOf(manifest, *a2);
      plan.b2 = indexOf(manifest, *b2);
      plan.k2 = manifest.op.k2;
      return "";
    }
    if (kind == BaselineKind::TwoGemmAdd && plan.k % 2 != 0)
      return "splits K in two halves, but k = " + std::to_string(plan.k) +
             " is odd";
    if (kind == BaselineKind::TwoGemmAdd && manifest.op.prologue)
      return "needs a bundle without a prologue, this one has op.prologue";
    if (kind == BaselineKind::ReluA && manifest.op.k2 > 0)
      return "needs a bundle with one product, this one adds a second "
             "(op.k2)";
    if (kind == BaselineKind::ReluA)
      return matchReluPrologue(manifest, plan);
    return "";
  }
  if (manifest.op.k2 > 0)
    return "needs a bundle with one product, this one adds a second "
           "(op.k2; time it against 2cublas+add)";
  if (!epilogue)
    return "needs a bundle with an epilogue (op.epilogue), this one stores "
           "the plain matmul";
  std::vector<size_t> in;
  std::string error;
  switch (kind) {
  case BaselineKind::AddRelu:
  case BaselineKind::ReluCAdd: {
    // One matrix input D: relu(C + D), or relu(D) + C.
    if (!(error = matchKinds(manifest, {EpilogueInputKind::Matrix}, in))
             .empty())
      return error;
    plan.matrix = indexOf(manifest, inputOperand(manifest, in[0]));
    bool reluOfSum = kind == BaselineKind::AddRelu;
    return matchFormula(manifest, plan,
                        reluOfSum ? "relu(C + D)" : "relu(C) + A B",
                        [&](double c, const std::vector<double> &x) {
                          double d = x[in[0]];
                          return reluOfSum ? std::max(0.0, c + d)
                                           : std::max(0.0, d) + c;
                        });
  }
  case BaselineKind::AddScalar:
    if (epilogue->inputs.empty()) {
      EpilogueProgram program;
      if (!(error = program.compile(*epilogue)).empty())
        return "cannot evaluate the bundle's epilogue: " + error;
      std::vector<double> values(program.numValues());
      plan.constant = program.eval(0.0, nullptr, values.data());
      double s = plan.constant;
      return matchFormula(
          manifest, plan, "C + s",
          [s](double c, const std::vector<double> &) { return c + s; });
    }
    if (!(error = matchKinds(manifest, {EpilogueInputKind::Scalar}, in))
             .empty())
      return "needs one scalar epilogue input or none (a constant), the "
             "bundle has " +
             describeInputs(*epilogue);
    plan.scalar = indexOf(manifest, inputOperand(manifest, in[0]));
    return matchFormula(
        manifest, plan, "C + s",
        [&](double c, const std::vector<double> &x) { return c + x[in[0]]; });
  case BaselineKind::BiasGeluResidual:
    if (!(error = matchKinds(
              manifest, {EpilogueInputKind::Row, EpilogueInputKind::Matrix},
              in))
             .empty())
      return error;
    plan.bias = indexOf(manifest, inputOperand(manifest, in[0]));
    plan.matrix = indexOf(manifest, inputOperand(manifest, in[1]));
    return matchFormula(manifest, plan, "gelu(C + bias[j]) + R",
                        [&](double c, const std::vector<double> &x) {
                          return gelu(c + x[in[0]]) + x[in[1]];
                        });
  case BaselineKind::LtReluBias:
  case BaselineKind::LtGeluBias: {
    if (!(error = matchKinds(manifest, {EpilogueInputKind::Row}, in)).empty())
      return error;
    plan.bias = indexOf(manifest, inputOperand(manifest, in[0]));
    bool isRelu = kind == BaselineKind::LtReluBias;
    return matchFormula(manifest, plan,
                        isRelu ? "relu(C + bias[j])" : "gelu(C + bias[j])",
                        [&](double c, const std::vector<double> &x) {
                          double v = c + x[in[0]];
                          return isRelu ? std::max(0.0, v) : gelu(v);
                        });
  }
  default:
    return "";
  }
}

} // namespace

const char *tcgen::bench::baselineName(BaselineKind kind) {
  return entryOf(kind).name;
}

const char *tcgen::bench::baselineComputes(BaselineKind kind) {
  return entryOf(kind).computes;
}

std::optional<BaselineKind> tcgen::bench::parseBaseline(std::string_view name) {
  for (const BaselineEntry &e : kBaselines)
    if (name == e.name)
      return e.kind;
  return std::nullopt;
}

std::string tcgen::bench::baselineNameList() {
  std::string s;
  for (const BaselineEntry &e : kBaselines)
    s += std::string(s.empty() ? "" : ", ") + e.name;
  return s;
}

const std::vector<BaselineKind> &tcgen::bench::allBaselines() {
  static const std::vector<BaselineKind> kinds = [] {
    std::vector<BaselineKind> v;
    for (const BaselineEntry &e : kBaselines)
      v.push_back(e.kind);
    return v;
  }();
  return kinds;
}

std::string tcgen::bench::planBaseline(const Manifest &manifest,
                                       BaselineKind kind, BaselinePlan &plan) {
  plan.kind = kind;
  std::string error = planCommon(manifest, plan);
  if (error.empty())
    error = planKind(manifest, kind, plan);
  if (error.empty())
    return "";
  return std::string("baseline ") + baselineName(kind) + ": " + error;
}

std::vector<HostMatrix>
tcgen::bench::makeBaselineHostOperands(const Manifest &manifest,
                                       uint64_t seed) {
  std::vector<HostMatrix> host(manifest.operands.size());
  for (size_t i = 0; i < host.size(); ++i) {
    const Operand &o = manifest.operands[i];
    if (o.shape.empty())
      host[i].allocate(o.dtype, 1, 1, 1, 1);
    else if (o.shape.size() == 3)
      host[i].allocateBatch(o.dtype, o.shape[0], o.shape[1], o.shape[2],
                            o.strides[0], o.strides[1], o.strides[2]);
    else if (o.shape.size() == 1)
      host[i].allocate(o.dtype, 1, o.shape[0], 0, o.strides[0]);
    else
      host[i].allocate(o.dtype, o.shape[0], o.shape[1], o.strides[0],
                       o.strides[1]);
    if (o.role == OperandRole::Out)
      host[i].poisonNaN();
    else
      host[i].fillRandom(seed, /*stream=*/i);
  }
  return host;
}

double tcgen::bench::baselineTolerance(DType coarsest) {
  switch (coarsest) {
  case DType::BF16:
    return 4e-2;
  case DType::F16:
    return 1e-2;
  default:
    return 1e-3;
  }
}

BaselineComparison tcgen::bench::compareOutputs(const HostMatrix &tcgen,
                                                const HostMatrix &baseline,
                                                double tolerance) {
  BaselineComparison r;
  r.tolerance = tolerance;
  double sumSq = 0;
  int64_t finite = 0;
  for (int64_t i = 0; i < baseline.rows; ++i)
    for (int64_t j = 0; j < baseline.cols; ++j) {
      double v = baseline.get(i, j);
      if (std::isfinite(v))
        sumSq += v * v, ++finite;
    }
  r.rms = finite ? std::sqrt(sumSq / double(finite)) : 0;
  for (int64_t i = 0; i < baseline.rows; ++i)
    for (int64_t j = 0; j < baseline.cols; ++j) {
      double t = tcgen.get(i, j), b = baseline.get(i, j);
      double err;
      if (!std::isfinite(t) || !std::isfinite(b)) {
        ++r.nonFinite;
        err = INFINITY;
      } else {
        double scale = std::fabs(b) + r.rms;
        err = scale > 0 ? std::fabs(t - b) / scale : std::fabs(t - b);
      }
      if (r.worstRow < 0 || err > r.maxErr) {
        r.maxErr = err;
        r.worstRow = i, r.worstCol = j;
        r.worstTcgen = t, r.worstBaseline = b;
      }
    }
  r.pass = r.nonFinite == 0 && r.maxErr <= tolerance;
  return r;
}

std::string BaselineComparison::line(const std::string &entry,
                                     BaselineKind kind) const {
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "BASELINE-CHECK %s %s %s maxerr=%.3g tol=%.3g nonfinite=%lld "
                "worst=(%lld,%lld) tcgen=%.6g baseline=%.6g",
                entry.c_str(), baselineName(kind), pass ? "PASS" : "FAIL",
                maxErr, tolerance, (long long)nonFinite, (long long)worstRow,
                (long long)worstCol, worstTcgen, worstBaseline);
  return buf;
}
