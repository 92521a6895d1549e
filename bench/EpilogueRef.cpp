//===- EpilogueRef.cpp - Host reference of a fused epilogue ---------------===//
//
// This file implements the float64 epilogue interpreter (EpilogueProgram::
// eval), its interval form (EpilogueProgram::range) and the rounding to
// f16, bf16 and f32 they share.
//
//===----------------------------------------------------------------------===//

#include "EpilogueRef.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tcgen;
using namespace tcgen::bench;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

/// A binary floating-point format: `precision` significand bits (the
/// implicit one included) and the normal exponent range.
struct FloatFormat {
  int precision;
  int minExp, maxExp;
};

FloatFormat formatOf(ValueType type) {
  switch (type) {
  case ValueType::F16:
    return {11, -14, 15};
  case ValueType::BF16:
    return {8, -126, 127};
  case ValueType::F32:
    return {24, -126, 127};
  default:
    return {53, -1022, 1023};
  }
}

// Relative error allowed to a transcendental step on the GPU: libdevice is
// within a few ulps of f32, and exp(x) through ex2.approx(x * log2(e))
// loses |x| ulps more (the rounded product), so 2^-19 covers |x| <= 32.
constexpr double kTranscendentalError = 0x1p-19;
// tanh.approx.f32 (sm_75+) has a relative error of about 2^-11.
constexpr double kTanhError = 0x1p-10;

// Relations of two floats, for cmpf: bit masks over {LT, EQ, GT, UNORD}.
constexpr unsigned kLT = 1, kEQ = 2, kGT = 4, kUN = 8;

struct Predicate {
  const char *name;
  unsigned mask; // the relations for which the predicate holds
};
constexpr Predicate kPredicates[] = {{"false", 0},
                                     {"oeq", kEQ},
                                     {"ogt", kGT},
                                     {"oge", kGT | kEQ},
                                     {"olt", kLT},
                                     {"ole", kLT | kEQ},
                                     {"one", kLT | kGT},
                                     {"ord", kLT | kEQ | kGT},
                                     {"ueq", kUN | kEQ},
                                     {"ugt", kUN | kGT},
                                     {"uge", kUN | kGT | kEQ},
                                     {"ult", kUN | kLT},
                                     {"ule", kUN | kLT | kEQ},
                                     {"une", kUN | kLT | kGT},
                                     {"uno", kUN},
                                     {"true", kLT | kEQ | kGT | kUN}};

using Op = EpilogueProgram::Op;

struct OpName {
  const char *name;
  Op op;
};
constexpr OpName kOps[] = {
    {"addf", Op::Add},          {"subf", Op::Sub},
    {"mulf", Op::Mul},          {"divf", Op::Div},
    {"maximumf", Op::Maximum},  {"minimumf", Op::Minimum},
    {"maxnumf", Op::MaxNum},    {"minnumf", Op::MinNum},
    {"powf", Op::Pow},          {"negf", Op::Neg},
    {"absf", Op::Abs},          {"exp", Op::Exp},
    {"exp2", Op::Exp2},         {"log", Op::Log},
    {"tanh", Op::Tanh},         {"erf", Op::Erf},
    {"sqrt", Op::Sqrt},         {"rsqrt", Op::Rsqrt},
    {"constant", Op::Constant}, {"cmpf", Op::CmpF},
    {"select", Op::Select},     {"extf", Op::ExtF},
    {"truncf", Op::TruncF}};

/// The relation of a and b (one of kLT, kEQ, kGT, kUN).
unsigned relation(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return kUN;
  return a < b ? kLT : a > b ? kGT : kEQ;
}

/// maximumf / minimumf: NaN if either is; -0 < +0.
double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// Applies a one-argument float op.
double unary(Op op, double a) {
  switch (op) {
  case Op::Neg:
    return -a;
  case Op::Abs:
    return std::fabs(a);
  case Op::Exp:
    return std::exp(a);
  case Op::Exp2:
    return std::exp2(a);
  case Op::Log:
    return std::log(a);
  case Op::Tanh:
    return std::tanh(a);
  case Op::Erf:
    return std::erf(a);
  case Op::Sqrt:
    return std::sqrt(a);
  case Op::Rsqrt:
    return 1.0 / std::sqrt(a);
  default:
    return a; // ExtF, TruncF: the rounding does the work.
  }
}

/// Applies a two-argument float op.
double binary(Op op, double a, double b) {
  switch (op) {
  case Op::Add:
    return a + b;
  case Op::Sub:
    return a - b;
  case Op::Mul:
    return a * b;
  case Op::Div:
    return a / b;
  case Op::Maximum:
    return maximum(a, b);
  case Op::Minimum:
    return minimum(a, b);
  case Op::MaxNum:
    return std::isnan(a) ? b : std::isnan(b) ? a : maximum(a, b);
  case Op::MinNum:
    return std::isnan(a) ? b : std::isnan(b) ? a : minimum(a, b);
  case Op::Pow:
    return std::pow(a, b);
  default:
    return std::nan("");
  }
}

/// The arithmetic steps of two operands (binary / binaryRange); the other
/// non-special steps take one (unary / unaryRange).
bool isBinary(Op op) {
  switch (op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Maximum:
  case Op::Minimum:
  case Op::MaxNum:
  case Op::MinNum:
  case Op::Pow:
    return true;
  default:
    return false;
  }
}

bool isTranscendental(Op op) {
  return op == Op::Exp || op == Op::Exp2 || op == Op::Log || op == Op::Tanh ||
         op == Op::Erf || op == Op::Pow || op == Op::Rsqrt;
}

/// The largest finite magnitude in `r` (0 if none): what the rounding
/// error of a step is relative to. Infinite ends stay infinite.
double magnitude(const ValueRange &r) {
  double m = 0;
  if (!r.empty())
    for (double v : {r.lo, r.hi})
      if (std::isfinite(v))
        m = std::max(m, std::fabs(v));
  return m;
}

ValueRange emptyRange(bool nan) { return {kInf, -kInf, nan}; }

/// The smallest range holding both.
ValueRange hull(const ValueRange &a, const ValueRange &b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.nan || b.nan};
}

/// The range of `f` over the non-NaN part of `a`, for an `f` that does not
/// decrease (or, with `decreasing`, does not increase) on [domainLo, inf]
/// and is NaN below domainLo.
template <typename F>
ValueRange monotone(const ValueRange &a, F f, double domainLo,
                    bool decreasing) {
  if (a.empty())
    return emptyRange(a.nan);
  bool nan = a.nan || a.lo < domainLo;
  if (a.hi < domainLo)
    return emptyRange(true);
  double lo = f(std::max(a.lo, domainLo)), hi = f(a.hi);
  if (decreasing)
    std::swap(lo, hi);
  return {lo, hi, nan};
}

/// The range of a product or quotient from its corner values; NaN corners
/// (0 * inf, 0 / 0, inf / inf) make it unbounded.
ValueRange fromCorners(const double (&c)[4], bool nan) {
  double lo = kInf, hi = -kInf;
  for (double v : c) {
    if (std::isnan(v))
      return {-kInf, kInf, true};
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {lo, hi, nan};
}

ValueRange powRange(const ValueRange &a, const ValueRange &b) {
  if (a.empty() || b.empty())
    return emptyRange(true);
  bool nan = a.nan || b.nan;
  bool integerExponent = b.lo == b.hi && std::trunc(b.lo) == b.lo;
  ValueRange base = a;
  if (a.lo < 0 && !integerExponent) {
    // A negative base to a non-integer power is NaN; the rest is x >= 0.
    nan = true;
    if (a.hi < 0)
      return emptyRange(true);
    base.lo = 0;
  }
  // For x > 0, x^y = exp(y ln x) is monotone in x and in y, so its extremes
  // over a box lie at the corners; for an integer exponent x^n is monotone
  // on each side of 0, so 0 joins the candidates.
  double c[] = {std::pow(base.lo, b.lo), std::pow(base.lo, b.hi),
                std::pow(base.hi, b.lo), std::pow(base.hi, b.hi)};
  ValueRange r = fromCorners(c, nan);
  if (base.lo < 0 && base.hi > 0) {
    double z = std::pow(0.0, b.lo);
    r.lo = std::min(r.lo, z);
    r.hi = std::max(r.hi, z);
    if (b.lo < 0) // 0^-n is +-inf.
      r = {-kInf, kInf, r.nan};
  }
  return r;
}

ValueRange binaryRange(Op op, const ValueRange &a, const ValueRange &b) {
  bool nan = a.nan || b.nan;
  switch (op) {
  case Op::MaxNum:
  case Op::MinNum: {
    // A NaN operand yields the other one.
    ValueRange r = emptyRange(a.nan && b.nan);
    if (!a.empty() && !b.empty())
      r = op == Op::MaxNum
              ? ValueRange{std::max(a.lo, b.lo), std::max(a.hi, b.hi), r.nan}
              : ValueRange{std::min(a.lo, b.lo), std::min(a.hi, b.hi), r.nan};
    if (a.nan)
      r = hull(r, b);
    if (b.nan)
      r = hull(r, a);
    r.nan = a.nan && b.nan;
    return r;
  }
  case Op::Pow:
    return powRange(a, b);
  default:
    break;
  }
  if (a.empty() || b.empty())
    return emptyRange(true);
  switch (op) {
  case Op::Add:
  case Op::Sub: {
    double lo = op == Op::Add ? a.lo + b.lo : a.lo - b.hi;
    double hi = op == Op::Add ? a.hi + b.hi : a.hi - b.lo;
    // inf - inf somewhere in the sets.
    if (std::isnan(lo) || std::isnan(hi))
      return {std::isnan(lo) ? -kInf : lo, std::isnan(hi) ? kInf : hi, true};
    return {lo, hi, nan};
  }
  case Op::Mul: {
    double c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    return fromCorners(c, nan);
  }
  case Op::Div: {
    if (b.lo <= 0 && b.hi >= 0) // Division by (a set holding) zero.
      return {-kInf, kInf, nan || (a.lo <= 0 && a.hi >= 0)};
    double c[] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
    return fromCorners(c, nan);
  }
  case Op::Maximum:
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi), nan};
  case Op::Minimum:
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi), nan};
  default:
    return {-kInf, kInf, true};
  }
}

ValueRange unaryRange(Op op, const ValueRange &a) {
  auto f = [op](double x) { return unary(op, x); };
  switch (op) {
  case Op::Neg:
    return a.empty() ? a : ValueRange{-a.hi, -a.lo, a.nan};
  case Op::Abs:
    if (a.empty() || a.lo >= 0)
      return a;
    if (a.hi <= 0)
      return {-a.hi, -a.lo, a.nan};
    return {0, std::max(-a.lo, a.hi), a.nan};
  case Op::Exp:
  case Op::Exp2:
  case Op::Tanh:
  case Op::Erf:
  case Op::ExtF:
  case Op::TruncF:
    return monotone(a, f, -kInf, false);
  case Op::Log:
  case Op::Sqrt:
    return monotone(a, f, 0.0, false);
  case Op::Rsqrt:
    return monotone(a, f, 0.0, true);
  default:
    return {-kInf, kInf, true};
  }
}

/// The set of cmpf results (i1) for operands in `a` and `b`.
ValueRange cmpRange(unsigned predicate, const ValueRange &a,
                    const ValueRange &b) {
  unsigned possible = 0;
  if (a.nan || b.nan)
    possible |= kUN;
  if (!a.empty() && !b.empty()) {
    if (a.lo < b.hi)
      possible |= kLT;
    if (a.hi > b.lo)
      possible |= kGT;
    if (a.lo <= b.hi && b.lo <= a.hi)
      possible |= kEQ;
  }
  bool canBeTrue = possible & predicate;
  bool canBeFalse = possible & ~predicate;
  return {canBeFalse ? 0.0 : 1.0, canBeTrue ? 1.0 : 0.0, false};
}
} // namespace

std::optional<ValueType> tcgen::bench::parseValueType(std::string_view name) {
  if (name == "i1")
    return ValueType::I1;
  if (name == "f16")
    return ValueType::F16;
  if (name == "bf16")
    return ValueType::BF16;
  if (name == "f32")
    return ValueType::F32;
  if (name == "f64")
    return ValueType::F64;
  return std::nullopt;
}

double tcgen::bench::roundToType(double value, ValueType type) {
  if (type == ValueType::F64 || type == ValueType::I1 ||
      !std::isfinite(value) || value == 0)
    return value;
  if (type == ValueType::F32)
    return static_cast<float>(value); // A C++ conversion rounds to nearest.
  FloatFormat f = formatOf(type);
  // Below 2^minExp the spacing stays that of the subnormals.
  int exponent = std::max(std::ilogb(value), f.minExp);
  double ulp = std::ldexp(1.0, exponent - (f.precision - 1));
  // value / ulp is exact; nearbyint rounds ties to even.
  double rounded = std::nearbyint(value / ulp) * ulp;
  double maxFinite =
      std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.maxExp);
  if (std::fabs(rounded) > maxFinite)
    return std::copysign(kInf, value);
  return rounded;
}

double tcgen::bench::unitRoundoff(ValueType type) {
  return type == ValueType::I1 ? 0.0
                               : std::ldexp(1.0, -formatOf(type).precision);
}

ValueRange ValueRange::point(double v) {
  if (std::isnan(v))
    return emptyRange(true);
  return {v, v, false};
}

bool ValueRange::contains(double v) const {
  return std::isnan(v) ? nan : lo <= v && v <= hi;
}

std::string EpilogueProgram::compile(const Epilogue &epilogue) {
  std::optional<ValueType> matmul =
      parseValueType(dtypeName(epilogue.matmulDType));
  if (!matmul)
    return std::string("matmul_dtype ") + dtypeName(epilogue.matmulDType) +
           " is not a float type";
  matmulType = *matmul;
  numInputs_ = epilogue.inputs.size();
  types.assign(1, matmulType);
  // Inputs are read as stored; their dtype does not matter here. A
  // product input is rounded to the matmul's dtype, as value 0 is.
  productInputs.clear();
  for (const EpilogueInput &input : epilogue.inputs) {
    bool product = input.kind == EpilogueInputKind::Product;
    productInputs.push_back(product);
    types.push_back(product ? matmulType : ValueType::F64);
  }
  steps.clear();
  for (size_t i = 0; i < epilogue.steps.size(); ++i) {
    const EpilogueStep &s = epilogue.steps[i];
    std::string where = "op.epilogue.ops[" + std::to_string(i) + "]: ";
    Step step;
    const OpName *name =
        std::find_if(std::begin(kOps), std::end(kOps),
                     [&](const OpName &o) { return s.op == o.name; });
    if (name == std::end(kOps))
      return where + "unknown op '" + s.op + "'";
    step.op = name->op;
    std::optional<ValueType> type = parseValueType(s.dtype);
    if (!type)
      return where + "unknown dtype '" + s.dtype + "'";
    step.type = *type;
    if (static_cast<int>(s.args.size()) != epilogueOpArity(s.op))
      return where + "wrong number of args";
    for (size_t j = 0; j < s.args.size(); ++j) {
      if (s.args[j] < 0 || s.args[j] >= static_cast<int64_t>(types.size()))
        return where + "value " + std::to_string(s.args[j]) +
               " is not defined before it";
      step.args[j] = s.args[j];
    }
    step.value = roundToType(s.value, step.type);
    if (step.op == Op::CmpF) {
      const Predicate *p = std::find_if(
          std::begin(kPredicates), std::end(kPredicates),
          [&](const Predicate &q) { return s.predicate == q.name; });
      if (p == std::end(kPredicates))
        return where + "unknown predicate '" + s.predicate + "'";
      step.predicate = p->mask;
    }
    steps.push_back(step);
    types.push_back(step.type);
  }
  if (epilogue.result < 0 ||
      epilogue.result >= static_cast<int64_t>(types.size()))
    return "op.epilogue.result: value " + std::to_string(epilogue.result) +
           " is not defined";
  result = epilogue.result;
  return "";
}

double EpilogueProgram::eval(double matmul, const double *inputs,
                             double *values) const {
  values[0] = roundToType(matmul, matmulType);
  for (size_t i = 0; i < numInputs_; ++i)
    values[1 + i] =
        productInputs[i] ? roundToType(inputs[i], matmulType) : inputs[i];
  size_t next = 1 + numInputs_;
  for (const Step &s : steps) {
    double a = values[s.args[0]], b = values[s.args[1]];
    double v;
    switch (s.op) {
    case Op::Constant:
      v = s.value;
      break;
    case Op::CmpF:
      v = (s.predicate & relation(a, b)) ? 1.0 : 0.0;
      break;
    case Op::Select:
      v = a != 0 ? b : values[s.args[2]];
      break;
    default:
      v = isBinary(s.op) ? binary(s.op, a, b) : unary(s.op, a);
      break;
    }
    values[next++] = roundToType(v, s.type);
  }
  return values[result];
}

ValueRange EpilogueProgram::range(double lo, double hi, const double *inputs,
                                  ValueRange *values,
                                  const double *inputDeltas) const {
  // A sum's range rounded to its dtype: rounding is monotone, so rounding
  // the ends bounds the rounded values.
  auto rounded = [&](double from, double to, ValueType type) {
    return ValueRange{roundToType(from, type), roundToType(to, type),
                      std::isnan(from) || std::isnan(to)};
  };
  values[0] = rounded(lo, hi, matmulType);
  for (size_t i = 0; i < numInputs_; ++i) {
    double x = inputs[i], delta = inputDeltas ? inputDeltas[i] : 0.0;
    if (std::isnan(x))
      values[1 + i] = ValueRange::point(x);
    else if (productInputs[i])
      values[1 + i] = rounded(x - delta, x + delta, matmulType);
    else
      values[1 + i] = {x - delta, x + delta, false};
  }
  size_t next = 1 + numInputs_;
  for (const Step &s : steps) {
    const ValueRange &a = values[s.args[0]], &b = values[s.args[1]];
    ValueRange r;
    switch (s.op) {
    case Op::Constant:
      r = ValueRange::point(s.value);
      break;
    case Op::CmpF:
      r = cmpRange(s.predicate, a, b);
      break;
    case Op::Select:
      r = a.lo == 1   ? b
          : a.hi == 0 ? values[s.args[2]]
                      : hull(b, values[s.args[2]]);
      break;
    default:
      r = isBinary(s.op) ? binaryRange(s.op, a, b) : unaryRange(s.op, a);
      break;
    }
    if (s.type != ValueType::I1 && !r.empty()) {
      // Rounding is monotone: rounding the ends bounds the rounded values.
      r.lo = roundToType(r.lo, s.type);
      r.hi = roundToType(r.hi, s.type);
      double u = unitRoundoff(s.type);
      double slack = 0;
      if (s.op == Op::Add || s.op == Op::Sub)
        slack = 2 * u * (magnitude(a) + magnitude(b));
      else if (s.op == Op::Mul || s.op == Op::Div || s.op == Op::Sqrt)
        slack = 2 * u * magnitude(r);
      else if (isTranscendental(s.op))
        slack = std::max(2 * u,
                         s.op == Op::Tanh ? kTanhError : kTranscendentalError) *
                magnitude(r);
      if (slack > 0 || s.op == Op::TruncF) {
        // Flushed subnormals: a GPU may return 0 for them.
        slack += std::ldexp(1.0, formatOf(s.type).minExp);
        if (std::isfinite(r.lo))
          r.lo -= slack;
        if (std::isfinite(r.hi))
          r.hi += slack;
      }
    }
    values[next++] = r;
  }
  return values[result];
}

double tcgen::bench::evalEpilogue(const Epilogue &epilogue, double matmul,
                                  const std::vector<double> &inputs) {
  EpilogueProgram program;
  if (!program.compile(epilogue).empty() ||
      inputs.size() != program.numInputs())
    return std::nan("");
  std::vector<double> values(program.numValues());
  return program.eval(matmul, inputs.data(), values.data());
}

double tcgen::bench::allowanceNorm(double out, double ref,
                                   const ValueRange &allowed) {
  if (!std::isfinite(out) || !std::isfinite(ref)) {
    if (out == ref || (std::isnan(out) && std::isnan(ref)))
      return 0;
    return allowed.contains(out) ? 1 : kInf;
  }
  double error = std::fabs(out - ref);
  if (error == 0)
    return 0;
  if (allowed.contains(out)) {
    // Against the wider side: an output on a clamp (ReLU's 0 for a small
    // positive reference) is no closer to failing than one beside ref.
    double halfWidth = std::max(allowed.hi - ref, ref - allowed.lo);
    return std::min(error / halfWidth, 1.0);
  }
  // Outside: above 1, by how far it overshoots the side it lies on.
  double side = out > ref ? allowed.hi - ref : ref - allowed.lo;
  double norm = side > 0 ? error / side : kInf;
  return std::max(norm, std::nextafter(1.0, 2.0));
}
