//===- EpilogueRef.h - Host reference of a fused epilogue -------*- C++ -*-===//
//
// This file declares the float64 interpreter of a manifest's op.epilogue
// (docs/BUNDLE.md) that the checker applies to its matmul reference, and
// its interval form, which carries the matmul's error allowance through the
// epilogue: the kernel's output must lie in the range the epilogue takes
// over [acc - delta, acc + delta]. No CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_BENCH_EPILOGUEREF_H
#define TCGEN_BENCH_EPILOGUEREF_H

#include "tcgen/Runtime/Manifest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcgen::bench {

/// The type of an epilogue value.
enum class ValueType { I1, F16, BF16, F32, F64 };

/// Parses an epilogue dtype name ("i1", "f16", "bf16", "f32", "f64").
std::optional<ValueType> parseValueType(std::string_view name);

/// Rounds `value` to the nearest `type` value, ties to even, with
/// subnormals and overflow to infinity (f16: 65520 and above become inf).
/// F64 and I1 return `value` unchanged; NaN and infinities stay as they are.
double roundToType(double value, ValueType type);

/// The unit roundoff of a float type (2^-11 for f16, 2^-8 bf16, 2^-24 f32,
/// 2^-53 f64); 0 for i1.
double unitRoundoff(ValueType type);

/// A set of possible values: every non-NaN value lies in [lo, hi] (empty
/// when lo > hi), plus NaN when `nan`. An i1 value uses 0 (false) and 1
/// (true): [1, 1] is surely true, [0, 1] either.
struct ValueRange {
  double lo = 0, hi = 0;
  bool nan = false;

  static ValueRange point(double v);
  bool empty() const { return lo > hi; }
  /// True if `v` is in the set (NaN only when `nan`).
  bool contains(double v) const;
};

/// An epilogue compiled for evaluation over many elements. Value numbers
/// follow docs/BUNDLE.md: 0 the matmul result, 1..k the inputs, then one per
/// step; every result is rounded to its dtype. A product input (a dual
/// GEMM's A B2, EpilogueInputKind::Product) is passed as its k-sum and
/// rounded to matmul_dtype like value 0.
class EpilogueProgram {
public:
  /// Compiles `epilogue`. Returns "" or why it cannot be evaluated (an
  /// unknown op, predicate or dtype, or an arg not defined before its step;
  /// parseManifest() rejects those already).
  std::string compile(const Epilogue &epilogue);

  size_t numInputs() const { return numInputs_; }
  /// Whether input `i` (0-based) is a product input.
  bool isProduct(size_t i) const { return productInputs[i]; }
  size_t numValues() const { return 1 + numInputs_ + steps.size(); }
  ValueType resultType() const { return types[result]; }

  /// Evaluates the epilogue in float64 for one element: value 0 is `matmul`
  /// rounded to matmul_dtype, `inputs` (numInputs() of them) are the input
  /// values as stored (a product input's k-sum, which is rounded to
  /// matmul_dtype too), and every step's exact result is rounded to its
  /// dtype. `values` is scratch space of numValues() entries.
  double eval(double matmul, const double *inputs, double *values) const;

  /// Returns the set of results for every matmul value in [lo, hi]
  /// (rounded to matmul_dtype) with the same inputs, widened at each step
  /// by what a GPU may differ from the exactly rounded result: a contracted
  /// or reassociated add (2 ulps of its operands), 2 ulps for mulf and divf,
  /// max(2 ulps, 2^-19) relative for the transcendental ops (2^-10 for
  /// tanh, so that tanh.approx.f32 passes) and, at every rounding step, the
  /// smallest normal number of its dtype (flushed subnormals). Exact ops
  /// (negf, absf, max/min, select, cmpf, casts) are not widened. `values`
  /// is scratch space of numValues() entries. With `inputDeltas`
  /// (numInputs() entries, >= 0), input i takes every value in
  /// [inputs[i] - inputDeltas[i], inputs[i] + inputDeltas[i]] at once with
  /// the matmul value (a product input's allowance: it is a k-sum with
  /// rounding errors of its own, like value 0's); without, each is exact.
  ValueRange range(double lo, double hi, const double *inputs,
                   ValueRange *values,
                   const double *inputDeltas = nullptr) const;

  /// The step ops, as compiled (the implementation's helpers take them).
  enum class Op {
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    MaxNum,
    MinNum,
    Pow,
    Neg,
    Abs,
    Exp,
    Exp2,
    Log,
    Tanh,
    Erf,
    Sqrt,
    Rsqrt,
    Constant,
    CmpF,
    Select,
    ExtF,
    TruncF
  };

private:
  struct Step {
    Op op;
    ValueType type;
    int64_t args[3] = {0, 0, 0};
    double value = 0;       // Constant
    unsigned predicate = 0; // CmpF: bit mask over {LT, EQ, GT, UNORD}
  };
  ValueType matmulType = ValueType::F32;
  size_t numInputs_ = 0;
  std::vector<bool> productInputs; // per input: rounded to matmulType
  std::vector<ValueType> types; // per value
  std::vector<Step> steps;
  int64_t result = 0;
};

/// Evaluates `epilogue` for one element (compiling it first): the float64
/// reference of out[i, j] for the matmul value `matmul` and the input
/// values `inputs`. Requires an epilogue that parseManifest() accepted.
double evalEpilogue(const Epilogue &epilogue, double matmul,
                    const std::vector<double> &inputs);

/// The normalized error of a kernel output against the reference `ref` and
/// the set `allowed` it may take: at most 1 if and only if `allowed` holds
/// out. Inside, |out - ref| over the larger distance from `ref` to an end
/// of `allowed` (its half-width, so that an output on a clamp, ReLU's 0
/// for a small positive reference, reads as small as it is); outside,
/// |out - ref| over the distance to the end on out's side (infinity where
/// that is 0). Where out or ref is not finite: 0 if they are equal (or
/// both NaN), 1 if `allowed` holds out, else infinity.
double allowanceNorm(double out, double ref, const ValueRange &allowed);

} // namespace tcgen::bench

#endif // TCGEN_BENCH_EPILOGUEREF_H
