//===- BaselineTests.cpp - Matching bundles against fusion baselines ------===//
//
// This file implements the BenchHost.Baseline* tests of tcgen-gpu-tests:
// the baseline names, planBaseline() on manifests whose epilogues do and do
// not compute what a baseline computes (inputs by number and kind, values
// on probe points, layouts), the benchmark's host operands and the output
// comparison. None needs a device.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "tcgen/Runtime/Manifest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace tcgen;
using namespace tcgen::bench;

namespace {

/// One epilogue step as JSON.
struct StepSpec {
  std::string op;
  std::vector<int> args;
  std::string dtype = "f32";
  double value = 0;      // constant
  std::string predicate; // cmpf
};

/// One epilogue input and its operand: E<i> of `kind` and `dtype` (a
/// "product" input names B2 of a dual GEMM instead).
struct InputSpec {
  std::string kind; // scalar, row, col, matrix, product
  std::string dtype = "f32";
  bool columnMajor = false; // a matrix stored [1, m]
};

/// A manifest for C[m,n] = A[m,k] B[k,n] (f16 inputs) with the given
/// epilogue; no epilogue when `steps` is empty and `result` < 0.
struct ManifestSpec {
  int64_t m = 64, n = 32, k = 16;
  std::string outType = "f32", matmulType = "f32";
  std::vector<InputSpec> inputs;
  std::vector<StepSpec> steps;
  int result = -1;
  bool accumulate = false;
  bool outColumnMajor = false;
  /// op.prologue's JSON object, if not empty.
  std::string prologue;
  /// With k2 > 0 a second product: operands A2 [m, k2], B2 [k2, n].
  int64_t k2 = 0;
  /// A dual GEMM (op.dual): operand B2 [k, n] (column-major), read by a
  /// "product" input.
  bool dual = false;
};

/// The operand epilogue input `i` names.
std::string inputName(const ManifestSpec &s, size_t i) {
  return s.inputs[i].kind == "product" ? "B2" : "E" + std::to_string(i);
}

std::string shapeJson(const ManifestSpec &s, const InputSpec &in) {
  std::string m = std::to_string(s.m), n = std::to_string(s.n);
  if (in.kind == "scalar")
    return R"("shape": [], "strides": [])";
  if (in.kind == "row")
    return R"("shape": [)" + n + R"(], "strides": [1])";
  if (in.kind == "col")
    return R"("shape": [)" + m + R"(], "strides": [1])";
  if (in.columnMajor)
    return R"("shape": [)" + m + ", " + n + R"(], "strides": [1, )" + m + "]";
  return R"("shape": [)" + m + ", " + n + R"(], "strides": [)" + n + ", 1]";
}

std::string manifestJson(const ManifestSpec &s) {
  std::string m = std::to_string(s.m), n = std::to_string(s.n),
              k = std::to_string(s.k);
  std::string epilogue;
  if (s.result >= 0) {
    epilogue = R"(, "epilogue": { "matmul_dtype": ")" + s.matmulType +
               R"(", "inputs": [)";
    for (size_t i = 0; i < s.inputs.size(); ++i)
      epilogue += std::string(i ? ", " : "") + R"({ "operand": ")" +
                  inputName(s, i) + R"(", "kind": ")" + s.inputs[i].kind +
                  R"(" })";
    epilogue += R"(], "ops": [)";
    for (size_t i = 0; i < s.steps.size(); ++i) {
      const StepSpec &st = s.steps[i];
      std::string args;
      for (size_t a = 0; a < st.args.size(); ++a)
        args += std::string(a ? ", " : "") + std::to_string(st.args[a]);
      epilogue += std::string(i ? ", " : "") + R"({ "op": ")" + st.op +
                  R"(", "args": [)" + args + R"(], "dtype": ")" + st.dtype +
                  R"(")";
      if (st.op == "constant") {
        char value[32];
        std::snprintf(value, sizeof(value), "%.17g", st.value);
        epilogue += R"(, "value": )" + std::string(value);
      }
      if (st.op == "cmpf")
        epilogue += R"(, "predicate": ")" + st.predicate + R"(")";
      epilogue += " }";
    }
    epilogue += R"(], "result": )" + std::to_string(s.result) + " }";
  }
  if (!s.prologue.empty())
    epilogue += R"(, "prologue": )" + s.prologue;
  std::string cStrides = s.outColumnMajor ? "[1, " + m + "]" : "[" + n + ", 1]";
  std::string operands =
      R"({ "name": "A", "role": "lhs", "dtype": "f16", "shape": [)" + m + ", " +
      k + R"(], "strides": [)" + k +
      R"(, 1], "align_bytes": 16 },
       { "name": "B", "role": "rhs", "dtype": "f16", "shape": [)" +
      k + ", " + n + R"(], "strides": [)" + n +
      R"(, 1], "align_bytes": 16 },
       { "name": "C", "role": ")" +
      (s.accumulate ? "inout" : "out") + R"(", "dtype": ")" + s.outType +
      R"(", "shape": [)" + m + ", " + n + R"(], "strides": )" + cStrides +
      R"(, "align_bytes": 16 })";
  std::string params = R"({ "kind": "ptr", "operand": "A" },
       { "kind": "ptr", "operand": "B" }, { "kind": "ptr", "operand": "C" })";
  std::string k2 = std::to_string(s.k2);
  if (s.k2 > 0) {
    operands += R"(, { "name": "A2", "role": "lhs2", "dtype": "f16", "shape": [)" +
                m + ", " + k2 + R"(], "strides": [)" + k2 +
                R"(, 1], "align_bytes": 16 },
       { "name": "B2", "role": "rhs2", "dtype": "f16", "shape": [)" +
                k2 + ", " + n + R"(], "strides": [)" + n +
                R"(, 1], "align_bytes": 16 })";
    params += R"(, { "kind": "ptr", "operand": "A2" },
       { "kind": "ptr", "operand": "B2" })";
  }
  if (s.dual) {
    operands +=
        R"(, { "name": "B2", "role": "rhs2", "dtype": "f16", "shape": [)" + k +
        ", " + n + R"(], "strides": [1, )" + k + R"(], "align_bytes": 16 })";
    params += R"(, { "kind": "ptr", "operand": "B2" })";
  }
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    if (s.inputs[i].kind == "product")
      continue;
    std::string name = inputName(s, i);
    operands += R"(, { "name": ")" + name + R"(", "role": "in", "dtype": ")" +
                s.inputs[i].dtype + R"(", )" + shapeJson(s, s.inputs[i]) +
                R"(, "align_bytes": 4 })";
    params += R"(, { "kind": "ptr", "operand": ")" + name + R"(" })";
  }
  return R"({ "format": "tcgen.bundle", "version": 1, "entry": "k",
  "ptx": "k.ptx", "target": { "arch": "sm_90a", "backend": "sm90", "min_cc": 90 },
  "op": { "kind": "matmul", "batch": 1, "m": )" +
         m + R"(, "n": )" + n + R"(, "k": )" + k +
         (s.k2 > 0 ? R"(, "k2": )" + k2 : std::string()) +
         (s.dual ? R"(, "dual": true)" : "") + R"(, "accumulate": )" +
         (s.accumulate ? "true" : "false") + R"(, "accumulator": "f32")" +
         epilogue + R"( },
  "operands": [ )" +
         operands + R"( ],
  "params": [ )" +
         params + R"( ],
  "launch": { "grid": [1, 1, 1], "block": [128, 1, 1], "dynamic_smem_bytes": 0 } })";
}

/// Parses the spec's manifest (failing the test if it does not parse) and
/// plans `kind` on it.
std::string plan(const ManifestSpec &spec, BaselineKind kind,
                 BaselinePlan &out) {
  Manifest manifest;
  std::string error = parseManifest(manifestJson(spec), manifest);
  EXPECT_EQ(error, "") << manifestJson(spec);
  if (!error.empty())
    return "manifest: " + error;
  return planBaseline(manifest, kind, out);
}
std::string plan(const ManifestSpec &spec, BaselineKind kind) {
  BaselinePlan out;
  return plan(spec, kind, out);
}

// Epilogues. Values: 0 the matmul result, 1.. the inputs, then the steps.

/// relu(C + E0) with E0 a matrix: maximumf(addf(0, 1), 0).
ManifestSpec addRelu() {
  ManifestSpec s;
  s.inputs = {{"matrix"}};
  s.steps = {
      {"addf", {0, 1}}, {"constant", {}, "f32", 0.0}, {"maximumf", {2, 3}}};
  s.result = 4;
  return s;
}

/// The GELU tanh form of value x, as steps appended to `steps` whose first
/// value number is `first`; returns the value number of gelu(x).
int appendGeluTanh(std::vector<StepSpec> &steps, int first, int x) {
  int v = first;
  steps.push_back({"mulf", {x, x}});                  // v: x^2
  steps.push_back({"mulf", {v, x}});                  // v+1: x^3
  steps.push_back({"constant", {}, "f32", 0.044715}); // v+2
  steps.push_back({"mulf", {v + 2, v + 1}});          // v+3
  steps.push_back({"addf", {x, v + 3}});              // v+4
  steps.push_back({"constant", {}, "f32", 0.7978845608});
  steps.push_back({"mulf", {v + 5, v + 4}});   // v+6
  steps.push_back({"tanh", {v + 6}});          // v+7
  steps.push_back({"constant", {}, "f32", 1}); // v+8
  steps.push_back({"addf", {v + 8, v + 7}});   // v+9
  steps.push_back({"constant", {}, "f32", 0.5});
  steps.push_back({"mulf", {v + 10, x}});     // v+11
  steps.push_back({"mulf", {v + 11, v + 9}}); // v+12
  return v + 12;
}

/// gelu(C + bias) + R with inputs [row bias, matrix R] (or reversed).
ManifestSpec biasGeluResidual(bool reversed = false) {
  ManifestSpec s;
  int bias = reversed ? 2 : 1, r = reversed ? 1 : 2;
  s.inputs = {{"row"}, {"matrix"}};
  if (reversed)
    std::swap(s.inputs[0], s.inputs[1]);
  s.steps = {{"addf", {0, bias}}}; // value 3
  int g = appendGeluTanh(s.steps, 4, 3);
  s.steps.push_back({"addf", {g, r}});
  s.result = g + 1;
  return s;
}

/// act(C + bias) for a row bias: relu through cmpf/select, or gelu.
ManifestSpec biasAct(bool relu) {
  ManifestSpec s;
  s.inputs = {{"row"}};
  s.steps = {{"addf", {0, 1}}}; // value 2
  if (relu) {
    s.steps.push_back({"constant", {}, "f32", 0.0});     // 3
    s.steps.push_back({"cmpf", {2, 3}, "i1", 0, "ogt"}); // 4
    s.steps.push_back({"select", {4, 2, 3}});            // 5
    s.result = 5;
  } else {
    s.result = appendGeluTanh(s.steps, 3, 2);
  }
  return s;
}

TEST(BenchHost, BaselineNamesRoundTrip) {
  for (BaselineKind kind : allBaselines()) {
    EXPECT_EQ(parseBaseline(baselineName(kind)), kind) << baselineName(kind);
    EXPECT_NE(std::string(baselineComputes(kind)), "");
  }
  EXPECT_EQ(allBaselines().size(), 11u);
  EXPECT_EQ(parseBaseline("cublas+add-relu"), BaselineKind::AddRelu);
  EXPECT_EQ(parseBaseline("2cublas+add"), BaselineKind::TwoGemmAdd);
  EXPECT_EQ(parseBaseline("cublas x2 + pointwise"), BaselineKind::DualGemm);
  EXPECT_EQ(parseBaseline("cublas concat + pointwise"),
            BaselineKind::DualConcat);
  EXPECT_EQ(parseBaseline("cublas"), std::nullopt);
  EXPECT_EQ(parseBaseline(""), std::nullopt);
  EXPECT_EQ(baselineNameList(),
            "cublas+add-relu, cublas+add-scalar, cublas+bias-gelu-residual, "
            "cublaslt-relu-bias, cublaslt-gelu-bias, relu-c+cublas, "
            "relu-a+cublas, 2cublas+add, permute+cublas, cublas x2 + "
            "pointwise, cublas concat + pointwise");
  for (BaselineKind kind : allBaselines())
    EXPECT_EQ(isDualBaseline(kind), kind == BaselineKind::DualGemm ||
                                        kind == BaselineKind::DualConcat);
}

/// silu(C) * P2 in f32 into an f16 out, for a dual GEMM: values 0 C, 1 P2
/// (the product input), then the steps; `extra` inputs after the product.
ManifestSpec swiGlu(std::vector<InputSpec> extra = {}) {
  ManifestSpec s;
  s.dual = true;
  s.outType = "f16";
  s.inputs = {{"product"}};
  s.inputs.insert(s.inputs.end(), extra.begin(), extra.end());
  int v = 1 + int(s.inputs.size());
  s.steps = {{"negf", {0}},                // v
             {"exp", {v}},                 // v+1
             {"constant", {}, "f32", 1.0}, // v+2
             {"addf", {v + 2, v + 1}},     // v+3
             {"divf", {0, v + 3}},         // v+4: silu
             {"mulf", {v + 4, 1}},         // v+5
             {"truncf", {v + 5}, "f16"}};  // v+6
  s.result = v + 6;
  return s;
}

TEST(BenchHost, BaselineDualKindsTakeADualGemm) {
  // Any epilogue: the pointwise kernel computes the bundle's own, with
  // inputs of every kind and layout beside the product.
  for (const ManifestSpec &spec :
       {swiGlu(),
        swiGlu(
            {{"row", "f16"}, {"matrix", "bf16", true}, {"scalar"}, {"col"}})}) {
    for (BaselineKind kind :
         {BaselineKind::DualGemm, BaselineKind::DualConcat}) {
      BaselinePlan p;
      ASSERT_EQ(plan(spec, kind, p), "") << baselineName(kind);
      ASSERT_TRUE(p.b2.has_value());
      EXPECT_EQ(*p.b2, 3u); // A, B, C, then B2
      EXPECT_EQ(p.n, 32);
      EXPECT_EQ(p.matmulType, DType::F32);
      EXPECT_EQ(p.coarsest, DType::F16);
    }
  }
}

TEST(BenchHost, BaselineDualGemmsAndOtherBundlesDoNotMix) {
  EXPECT_EQ(plan(swiGlu(), BaselineKind::AddRelu),
            "baseline cublas+add-relu: needs a bundle with one product, this "
            "one is a dual GEMM (op.dual; time it against 'cublas x2 + "
            "pointwise' or 'cublas concat + pointwise')");
  EXPECT_EQ(plan(swiGlu(), BaselineKind::TwoGemmAdd),
            "baseline 2cublas+add: needs a bundle with one product, this one "
            "is a dual GEMM (op.dual; time it against 'cublas x2 + "
            "pointwise' or 'cublas concat + pointwise')");
  EXPECT_EQ(plan(addRelu(), BaselineKind::DualGemm),
            "baseline cublas x2 + pointwise: needs a dual GEMM (op.dual), "
            "this bundle computes one product");
  EXPECT_EQ(plan(addRelu(), BaselineKind::DualConcat),
            "baseline cublas concat + pointwise: needs a dual GEMM (op.dual), "
            "this bundle computes one product");
}

TEST(BenchHost, BaselineDualRefusesWhatItsKernelCannotRead) {
  // An f64 input (which the manifest allows): the pointwise kernel reads
  // 16-bit floats and f32 only.
  ManifestSpec wide = swiGlu({{"row", "f64"}});
  EXPECT_EQ(plan(wide, BaselineKind::DualGemm),
            "baseline cublas x2 + pointwise: the pointwise kernel reads and "
            "writes f16, bf16 or f32, not the f64 of input 'E1'");
  // A column-major output: the baselines write row-major ones.
  ManifestSpec columns = swiGlu();
  columns.outColumnMajor = true;
  EXPECT_NE(plan(columns, BaselineKind::DualConcat).find("is not row-major"),
            std::string::npos);
}

TEST(BenchHost, BaselineHostOperandsFillB2LikeB) {
  Manifest manifest;
  ASSERT_EQ(parseManifest(manifestJson(swiGlu()), manifest), "");
  std::vector<HostMatrix> host = makeBaselineHostOperands(manifest, 1);
  ASSERT_EQ(host.size(), 4u);
  const HostMatrix &b = host[1], &b2 = host[3];
  EXPECT_EQ(b2.rows, b.rows);
  EXPECT_EQ(b2.cols, b.cols);
  EXPECT_EQ(b2.stride0, 1); // column-major, as the manifest says
  int64_t differ = 0;
  for (int64_t p = 0; p < b.rows; ++p)
    for (int64_t j = 0; j < b.cols; ++j) {
      differ += b.get(p, j) != b2.get(p, j);
      EXPECT_LE(std::fabs(b2.get(p, j)), 1.0);
    }
  EXPECT_GT(differ, b.rows * b.cols / 2);
}

TEST(BenchHost, BaselineTwoGemmsTakeTheSecondProduct) {
  // A bundle with A2 and B2 (op.k2): 2cublas+add multiplies them, whatever
  // k's parity; the other baselines refuse it.
  ManifestSpec dual;
  dual.k = 15;
  dual.k2 = 24;
  BaselinePlan p;
  ASSERT_EQ(plan(dual, BaselineKind::TwoGemmAdd, p), "");
  ASSERT_TRUE(p.a2.has_value());
  ASSERT_TRUE(p.b2.has_value());
  EXPECT_EQ(*p.a2, 3u);
  EXPECT_EQ(*p.b2, 4u);
  EXPECT_EQ(p.k2, 24);
  EXPECT_EQ(plan(dual, BaselineKind::ReluA),
            "baseline relu-a+cublas: needs a bundle with one product, this "
            "one adds a second (op.k2)");
  ManifestSpec withEpilogue = addRelu();
  withEpilogue.k2 = 24;
  EXPECT_EQ(plan(withEpilogue, BaselineKind::AddRelu),
            "baseline cublas+add-relu: needs a bundle with one product, this "
            "one adds a second (op.k2; time it against 2cublas+add)");
}

TEST(BenchHost, BaselineReluCMatchesReluOfTheInputPlusTheProduct) {
  // relu(E0) + acc: what D = relu(C) + A B fuses to.
  ManifestSpec s;
  s.inputs = {{"matrix"}};
  s.steps = {{"constant", {}, "f32", 0.0}, {"maximumf", {1, 2}},
             {"addf", {0, 3}}};
  s.result = 4;
  BaselinePlan p;
  ASSERT_EQ(plan(s, BaselineKind::ReluCAdd, p), "");
  ASSERT_TRUE(p.matrix.has_value());
  EXPECT_EQ(*p.matrix, 3u);
  // relu(acc + E0) is not relu(E0) + acc.
  EXPECT_NE(plan(addRelu(), BaselineKind::ReluCAdd).find("relu(C) + A B"),
            std::string::npos);
}

TEST(BenchHost, BaselineAddReluMatchesReluOfASum) {
  BaselinePlan p;
  ManifestSpec spec = addRelu();
  ASSERT_EQ(plan(spec, BaselineKind::AddRelu, p), "");
  EXPECT_EQ(p.a, 0u);
  EXPECT_EQ(p.b, 1u);
  EXPECT_EQ(p.out, 2u);
  ASSERT_TRUE(p.matrix.has_value());
  EXPECT_EQ(*p.matrix, 3u);
  EXPECT_FALSE(p.bias.has_value());
  EXPECT_EQ(p.matmulType, DType::F32);
  EXPECT_EQ(p.coarsest, DType::F32);

  // The same in f16 (matmul result, input, steps and out): still relu.
  spec.outType = spec.matmulType = "f16";
  spec.inputs[0].dtype = "f16";
  for (StepSpec &st : spec.steps)
    st.dtype = "f16";
  ASSERT_EQ(plan(spec, BaselineKind::AddRelu, p), "");
  EXPECT_EQ(p.matmulType, DType::F16);
  EXPECT_EQ(p.coarsest, DType::F16);
}

TEST(BenchHost, BaselineRefusesOtherInputKinds) {
  EXPECT_EQ(plan(addRelu(), BaselineKind::LtReluBias),
            "baseline cublaslt-relu-bias: needs epilogue inputs [row] (any "
            "order), the bundle has [matrix E0]");
  EXPECT_EQ(plan(biasAct(true), BaselineKind::AddRelu),
            "baseline cublas+add-relu: needs epilogue inputs [matrix] (any "
            "order), the bundle has [row E0]");
  EXPECT_EQ(plan(addRelu(), BaselineKind::BiasGeluResidual),
            "baseline cublas+bias-gelu-residual: needs epilogue inputs [row, "
            "matrix] (any order), the bundle has [matrix E0]");
  EXPECT_EQ(plan(addRelu(), BaselineKind::AddScalar),
            "baseline cublas+add-scalar: needs one scalar epilogue input or "
            "none (a constant), the bundle has [matrix E0]");
}

TEST(BenchHost, BaselineRefusesAnotherFunction) {
  // relu(C + bias) is not gelu(C + bias), nor relu(C + D) with D a row.
  std::string e = plan(biasAct(true), BaselineKind::LtGeluBias);
  EXPECT_NE(e.find("baseline cublaslt-gelu-bias: the bundle's epilogue does "
                   "not compute gelu(C + bias[j]): at C="),
            std::string::npos)
      << e;
  e = plan(biasAct(false), BaselineKind::LtReluBias);
  EXPECT_NE(e.find("does not compute relu(C + bias[j])"), std::string::npos)
      << e;
  // C + D without the relu.
  ManifestSpec sum = addRelu();
  sum.steps = {{"addf", {0, 1}}};
  sum.result = 2;
  e = plan(sum, BaselineKind::AddRelu);
  EXPECT_NE(e.find("does not compute relu(C + D)"), std::string::npos) << e;
  // gelu(C + bias) without the residual: inputs match, values do not.
  ManifestSpec noResidual = biasGeluResidual();
  noResidual.steps.pop_back();
  noResidual.result -= 1;
  e = plan(noResidual, BaselineKind::BiasGeluResidual);
  EXPECT_NE(e.find("does not compute gelu(C + bias[j]) + R"), std::string::npos)
      << e;
}

TEST(BenchHost, BaselineBiasGeluResidualTakesEitherInputOrder) {
  BaselinePlan p;
  ASSERT_EQ(plan(biasGeluResidual(), BaselineKind::BiasGeluResidual, p), "");
  EXPECT_EQ(*p.bias, 3u);   // E0, the row
  EXPECT_EQ(*p.matrix, 4u); // E1
  ASSERT_EQ(plan(biasGeluResidual(/*reversed=*/true),
                 BaselineKind::BiasGeluResidual, p),
            "");
  EXPECT_EQ(*p.bias, 4u);   // E1 is the row now
  EXPECT_EQ(*p.matrix, 3u); // E0
}

TEST(BenchHost, BaselineGeluInTheErfFormMatchesTheTanhForm) {
  // 0.5 x (1 + erf(x / sqrt 2)) differs from the tanh form by < 5e-4.
  ManifestSpec s;
  s.inputs = {{"row"}};
  s.steps = {{"addf", {0, 1}},                            // 2: x
             {"constant", {}, "f32", 0.7071067811865476}, // 3
             {"mulf", {2, 3}},                            // 4
             {"erf", {4}},                                // 5
             {"constant", {}, "f32", 1.0},                // 6
             {"addf", {6, 5}},                            // 7
             {"constant", {}, "f32", 0.5},                // 8
             {"mulf", {8, 2}},                            // 9
             {"mulf", {9, 7}}};                           // 10
  s.result = 10;
  EXPECT_EQ(plan(s, BaselineKind::LtGeluBias), "");
}

TEST(BenchHost, BaselineReluBiasThroughCmpfSelect) {
  BaselinePlan p;
  ASSERT_EQ(plan(biasAct(true), BaselineKind::LtReluBias, p), "");
  EXPECT_EQ(*p.bias, 3u);
  EXPECT_EQ(plan(biasAct(false), BaselineKind::LtGeluBias), "");
}

TEST(BenchHost, BaselineAddScalarTakesAConstantOrAScalarInput) {
  ManifestSpec constant;
  constant.steps = {{"constant", {}, "f32", 0.75}, {"addf", {0, 1}}};
  constant.result = 2;
  BaselinePlan p;
  ASSERT_EQ(plan(constant, BaselineKind::AddScalar, p), "");
  EXPECT_FALSE(p.scalar.has_value());
  EXPECT_DOUBLE_EQ(p.constant, 0.75);

  ManifestSpec input;
  input.inputs = {{"scalar"}};
  input.steps = {{"addf", {1, 0}}};
  input.result = 2;
  ASSERT_EQ(plan(input, BaselineKind::AddScalar, p), "");
  ASSERT_TRUE(p.scalar.has_value());
  EXPECT_EQ(*p.scalar, 3u);

  // C * s is not C + s.
  input.steps[0].op = "mulf";
  EXPECT_NE(plan(input, BaselineKind::AddScalar).find("does not compute C + s"),
            std::string::npos);
}

/// op.prologue on A computing `op` of the element and 0 (f16).
static std::string prologueJson(const std::string &op,
                                const std::string &operand = "A") {
  return R"({ "operand": ")" + operand +
         R"(", "dtype": "f16", "ops": [ { "op": "constant", "args": [],
           "dtype": "f16", "value": 0 }, { "op": ")" +
         op + R"(", "args": [0, 1], "dtype": "f16" } ], "result": 2 })";
}

TEST(BenchHost, BaselinePrologueAndTwoGemmsNeedAPlainMatmul) {
  ManifestSpec plain;
  BaselinePlan p;
  EXPECT_EQ(plan(plain, BaselineKind::ReluA, p),
            "baseline relu-a+cublas: needs a bundle with a prologue on A "
            "(op.prologue), this one multiplies A as it is");
  ManifestSpec relu;
  relu.prologue = prologueJson("maximumf");
  ASSERT_EQ(plan(relu, BaselineKind::ReluA, p), "");
  EXPECT_EQ(p.matmulType, DType::F32); // the out dtype
  relu.prologue = prologueJson("minimumf");
  EXPECT_NE(plan(relu, BaselineKind::ReluA).find("is not relu(A)"),
            std::string::npos);
  relu.prologue = prologueJson("maximumf", "B");
  EXPECT_EQ(plan(relu, BaselineKind::ReluA),
            "baseline relu-a+cublas: needs the prologue on the lhs 'A', this "
            "one transforms 'B'");
  relu.prologue = prologueJson("maximumf");
  EXPECT_EQ(plan(relu, BaselineKind::TwoGemmAdd),
            "baseline 2cublas+add: needs a bundle without a prologue, this "
            "one has op.prologue");
  ASSERT_EQ(plan(plain, BaselineKind::TwoGemmAdd, p), "");
  EXPECT_EQ(plan(addRelu(), BaselineKind::ReluA),
            "baseline relu-a+cublas: needs a bundle without an epilogue, "
            "this one has op.epilogue with inputs [matrix E0]");
  plain.k = 15;
  EXPECT_EQ(plan(plain, BaselineKind::TwoGemmAdd),
            "baseline 2cublas+add: splits K in two halves, but k = 15 is odd");
  EXPECT_EQ(plan(ManifestSpec(), BaselineKind::AddRelu),
            "baseline cublas+add-relu: needs a bundle with an epilogue "
            "(op.epilogue), this one stores the plain matmul");
}

TEST(BenchHost, BaselineRefusesLayoutsItCannotRead) {
  ManifestSpec s = addRelu();
  s.inputs[0].columnMajor = true;
  EXPECT_EQ(plan(s, BaselineKind::AddRelu),
            "baseline cublas+add-relu: epilogue input 'E0' is not row-major "
            "(strides [ld, 1]), which the baseline's pointwise kernel needs");
  s = addRelu();
  s.outColumnMajor = true;
  EXPECT_EQ(plan(s, BaselineKind::AddRelu),
            "baseline cublas+add-relu: operand 'C' is not row-major (strides "
            "[ld, 1]), which the baselines write");
  s = addRelu();
  s.inputs[0].dtype = "f64";
  s.steps = {{"truncf", {1}, "f32"},
             {"addf", {0, 2}},
             {"constant", {}, "f32", 0.0},
             {"maximumf", {3, 4}}};
  s.result = 5;
  EXPECT_EQ(plan(s, BaselineKind::AddRelu),
            "baseline cublas+add-relu: epilogue input 'E0' has dtype f64, "
            "which tcgen-gpu does not support yet (f16, bf16, f32, e4m3, e5m2)");
  ManifestSpec accumulate;
  accumulate.accumulate = true;
  EXPECT_EQ(plan(accumulate, BaselineKind::ReluA),
            "baseline relu-a+cublas: the bundle accumulates into C "
            "(op.accumulate); baselines time C = A B");
}

TEST(BenchHost, BaselineHostOperandsFollowTheManifest) {
  ManifestSpec s;
  s.inputs = {{"scalar"}, {"row", "f16"}, {"matrix", "bf16"}};
  s.steps = {{"extf", {2}, "f32"}, // 4
             {"extf", {3}, "f32"}, // 5
             {"addf", {0, 4}},     // 6
             {"addf", {6, 5}},     // 7
             {"addf", {7, 1}}};    // 8
  s.result = 8;
  Manifest manifest;
  ASSERT_EQ(parseManifest(manifestJson(s), manifest), "");
  std::vector<HostMatrix> host = makeBaselineHostOperands(manifest, 7);
  ASSERT_EQ(host.size(), 6u);
  EXPECT_EQ(host[3].rows * host[3].cols, 1); // scalar
  EXPECT_EQ(host[4].cols, s.n);              // row
  EXPECT_EQ(host[4].dtype, DType::F16);
  EXPECT_EQ(host[5].rows, s.m); // matrix
  EXPECT_EQ(host[5].dtype, DType::BF16);
  EXPECT_TRUE(std::isnan(host[2].get(0, 0)));   // out
  EXPECT_FALSE(std::isnan(host[0].get(0, 0)));  // A
  EXPECT_LT(std::fabs(host[3].get(0, 0)), 1.0); // uniform in [-1, 1)
}

HostMatrix filled(int64_t rows, int64_t cols, double value) {
  HostMatrix h;
  h.allocate(DType::F32, rows, cols, cols, 1);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      h.set(i, j, value + double(i * cols + j) / 16);
  return h;
}

TEST(BenchHost, BaselineComparisonNamesTheWorstElement) {
  HostMatrix a = filled(4, 8, 1.0), b = filled(4, 8, 1.0);
  BaselineComparison same = compareOutputs(a, b, 1e-3);
  EXPECT_TRUE(same.pass);
  EXPECT_EQ(same.maxErr, 0);

  a.set(2, 5, b.get(2, 5) + 0.5);
  BaselineComparison off = compareOutputs(a, b, 1e-3);
  EXPECT_FALSE(off.pass);
  EXPECT_EQ(off.worstRow, 2);
  EXPECT_EQ(off.worstCol, 5);
  EXPECT_DOUBLE_EQ(off.worstTcgen, b.get(2, 5) + 0.5);
  EXPECT_DOUBLE_EQ(off.worstBaseline, b.get(2, 5));
  EXPECT_NEAR(off.maxErr, 0.5 / (std::fabs(b.get(2, 5)) + off.rms), 1e-12);
  EXPECT_NE(off.line("k", BaselineKind::AddRelu)
                .find("BASELINE-CHECK k cublas+add-relu FAIL maxerr="),
            std::string::npos);
  EXPECT_NE(off.line("k", BaselineKind::AddRelu).find("worst=(2,5)"),
            std::string::npos);

  a = filled(4, 8, 1.0);
  a.set(1, 1, NAN);
  BaselineComparison nan = compareOutputs(a, b, 1e-3);
  EXPECT_FALSE(nan.pass);
  EXPECT_EQ(nan.nonFinite, 1);
  EXPECT_EQ(nan.worstRow, 1);
}

TEST(BenchHost, BaselineToleranceFollowsTheCoarsestDType) {
  EXPECT_EQ(baselineTolerance(DType::F32), 1e-3);
  EXPECT_EQ(baselineTolerance(DType::F16), 1e-2);
  EXPECT_EQ(baselineTolerance(DType::BF16), 4e-2);
}

} // namespace
