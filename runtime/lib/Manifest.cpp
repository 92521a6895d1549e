//===- Manifest.cpp - The kernel-bundle manifest --------------------------===//
//
// This file implements the manifest parser, writer and bundle-path lookup
// declared in tcgen/Runtime/Manifest.h.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Runtime/Manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tcgen;
using json::Value;

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

namespace {
struct DTypeEntry {
  DType dtype;
  const char *name;
  int64_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {DType::F16, "f16", 2},   {DType::BF16, "bf16", 2}, {DType::F32, "f32", 4},
    {DType::F64, "f64", 8},   {DType::I8, "i8", 1},     {DType::I32, "i32", 4},
    {DType::E4M3, "e4m3", 1}, {DType::E5M2, "e5m2", 1}, {DType::I64, "i64", 8}};

struct RoleEntry {
  OperandRole role;
  const char *name;
};
constexpr RoleEntry kRoles[] = {{OperandRole::Lhs, "lhs"},
                                {OperandRole::Rhs, "rhs"},
                                {OperandRole::Out, "out"},
                                {OperandRole::InOut, "inout"},
                                {OperandRole::In, "in"},
                                {OperandRole::Lhs2, "lhs2"},
                                {OperandRole::Rhs2, "rhs2"},
                                {OperandRole::Offsets, "offsets"},
                                {OperandRole::ScaleA, "scale_a"},
                                {OperandRole::ScaleB, "scale_b"}};

struct InputKindEntry {
  EpilogueInputKind kind;
  const char *name;
};
constexpr InputKindEntry kInputKinds[] = {
    {EpilogueInputKind::Scalar, "scalar"},
    {EpilogueInputKind::Row, "row"},
    {EpilogueInputKind::Col, "col"},
    {EpilogueInputKind::Matrix, "matrix"},
    {EpilogueInputKind::Product, "product"}};

/// The epilogue step ops: arith and math op names without the dialect.
struct StepOpEntry {
  const char *name;
  int arity;
};
constexpr StepOpEntry kStepOps[] = {
    {"addf", 2},     {"subf", 2},     {"mulf", 2},     {"divf", 2},
    {"maximumf", 2}, {"minimumf", 2}, {"maxnumf", 2},  {"minnumf", 2},
    {"powf", 2},     {"negf", 1},     {"absf", 1},     {"exp", 1},
    {"exp2", 1},     {"log", 1},      {"tanh", 1},     {"erf", 1},
    {"sqrt", 1},     {"rsqrt", 1},    {"constant", 0}, {"cmpf", 2},
    {"select", 3},   {"extf", 1},     {"truncf", 1}};

/// arith.cmpf's predicates (arith::CmpFPredicate spellings).
constexpr const char *kCmpFPredicates[] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};
} // namespace

const char *tcgen::dtypeName(DType dtype) {
  for (const DTypeEntry &e : kDTypes)
    if (e.dtype == dtype)
      return e.name;
  return "?";
}

std::optional<DType> tcgen::parseDType(std::string_view name) {
  for (const DTypeEntry &e : kDTypes)
    if (name == e.name)
      return e.dtype;
  return std::nullopt;
}

int64_t tcgen::dtypeSize(DType dtype) {
  for (const DTypeEntry &e : kDTypes)
    if (e.dtype == dtype)
      return e.size;
  return 0;
}

const char *tcgen::roleName(OperandRole role) {
  for (const RoleEntry &e : kRoles)
    if (e.role == role)
      return e.name;
  return "?";
}

std::optional<OperandRole> tcgen::parseRole(std::string_view name) {
  for (const RoleEntry &e : kRoles)
    if (name == e.name)
      return e.role;
  return std::nullopt;
}

const char *tcgen::epilogueInputKindName(EpilogueInputKind kind) {
  for (const InputKindEntry &e : kInputKinds)
    if (e.kind == kind)
      return e.name;
  return "?";
}

std::optional<EpilogueInputKind>
tcgen::parseEpilogueInputKind(std::string_view name) {
  for (const InputKindEntry &e : kInputKinds)
    if (name == e.name)
      return e.kind;
  return std::nullopt;
}

int tcgen::epilogueOpArity(std::string_view op) {
  for (const StepOpEntry &e : kStepOps)
    if (op == e.name)
      return e.arity;
  return -1;
}

bool tcgen::isCmpFPredicate(std::string_view predicate) {
  for (const char *p : kCmpFPredicates)
    if (predicate == p)
      return true;
  return false;
}

int64_t tcgen::swizzleBytes(std::string_view swizzle) {
  if (swizzle == "none")
    return 0;
  if (swizzle == "32B")
    return 32;
  if (swizzle == "64B")
    return 64;
  if (swizzle == "128B")
    return 128;
  return -1;
}

const Operand *Manifest::findOperand(std::string_view name) const {
  for (const Operand &o : operands)
    if (o.name == name)
      return &o;
  return nullptr;
}

const Pack *Manifest::findPack(std::string_view name) const {
  for (const Pack &p : packs)
    if (p.operand == name)
      return &p;
  return nullptr;
}

const Operand *Manifest::findRole(OperandRole role) const {
  for (const Operand &o : operands)
    if (o.role == role)
      return &o;
  return nullptr;
}

const Operand *Manifest::findResult() const {
  for (const Operand &o : operands)
    if (o.role == OperandRole::Out || o.role == OperandRole::InOut)
      return &o;
  return nullptr;
}

std::string tcgen::epilogueValueDType(const Manifest &manifest, int64_t value) {
  if (!manifest.op.epilogue || value < 0)
    return "";
  const Epilogue &e = *manifest.op.epilogue;
  if (value == 0)
    return dtypeName(e.matmulDType);
  auto numInputs = static_cast<int64_t>(e.inputs.size());
  if (value <= numInputs) {
    // A dual GEMM's second product is rounded like the first.
    if (e.inputs[value - 1].kind == EpilogueInputKind::Product)
      return dtypeName(e.matmulDType);
    const Operand *o = manifest.findOperand(e.inputs[value - 1].operand);
    return o ? dtypeName(o->dtype) : "";
  }
  if (value - numInputs - 1 < static_cast<int64_t>(e.steps.size()))
    return e.steps[value - numInputs - 1].dtype;
  return "";
}

bool tcgen::operator==(const EpilogueInput &a, const EpilogueInput &b) {
  return a.operand == b.operand && a.kind == b.kind;
}

bool tcgen::operator==(const EpilogueStep &a, const EpilogueStep &b) {
  bool sameValue =
      a.value == b.value || (std::isnan(a.value) && std::isnan(b.value));
  return a.op == b.op && a.args == b.args && a.dtype == b.dtype && sameValue &&
         a.predicate == b.predicate;
}

bool tcgen::operator==(const Epilogue &a, const Epilogue &b) {
  return a.matmulDType == b.matmulDType && a.inputs == b.inputs &&
         a.steps == b.steps && a.result == b.result;
}

bool tcgen::operator==(const Prologue &a, const Prologue &b) {
  return a.operand == b.operand && a.body == b.body;
}

bool tcgen::operator==(const BlockScaleInfo &a, const BlockScaleInfo &b) {
  return a.a == b.a && a.b == b.b;
}

/// The (extent, stride) pairs of an operand, sorted: the elements it
/// addresses, whatever order its manifest lists the dimensions in.
static std::vector<std::pair<int64_t, int64_t>> viewPairs(const Operand &o) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t d = 0; d < o.shape.size() && d < o.strides.size(); ++d)
    pairs.push_back({o.shape[d], o.strides[d]});
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::optional<std::vector<size_t>> tcgen::matchOperandViews(const Manifest &a,
                                                            const Manifest &b) {
  if (a.operands.size() != b.operands.size())
    return std::nullopt;
  std::vector<size_t> match(b.operands.size());
  std::vector<bool> taken(a.operands.size(), false);
  for (size_t j = 0; j < b.operands.size(); ++j) {
    const Operand &y = b.operands[j];
    std::optional<size_t> found;
    for (size_t i = 0; i < a.operands.size(); ++i) {
      const Operand &x = a.operands[i];
      if (taken[i] || x.dtype != y.dtype || viewPairs(x) != viewPairs(y))
        continue;
      if (!found || x.name == y.name)
        found = i;
      if (x.name == y.name)
        break;
    }
    if (!found)
      return std::nullopt;
    taken[*found] = true;
    match[j] = *found;
  }
  return match;
}

bool tcgen::operator==(const Operand &a, const Operand &b) {
  return a.name == b.name && a.role == b.role && a.dtype == b.dtype &&
         a.shape == b.shape && a.strides == b.strides &&
         a.alignBytes == b.alignBytes;
}

bool tcgen::operator==(const Param &a, const Param &b) {
  return a.kind == b.kind && a.operand == b.operand && a.value == b.value &&
         a.box == b.box && a.swizzle == b.swizzle &&
         a.l2Promotion == b.l2Promotion && a.oobFill == b.oobFill &&
         a.bytesPerBlock == b.bytesPerBlock;
}

bool tcgen::operator==(const Manifest &a, const Manifest &b) {
  return a.format == b.format && a.version == b.version && a.entry == b.entry &&
         a.cubin == b.cubin && a.ptx == b.ptx &&
         a.target.arch == b.target.arch &&
         a.target.backend == b.target.backend &&
         a.target.minCC == b.target.minCC && a.op.kind == b.op.kind &&
         a.op.batch == b.op.batch && a.op.batchReduce == b.op.batchReduce &&
         a.op.batchShape == b.op.batchShape && a.op.groups == b.op.groups &&
         a.op.m == b.op.m && a.op.n == b.op.n && a.op.k == b.op.k &&
         a.op.k2 == b.op.k2 && a.op.dual == b.op.dual &&
         a.op.tf32 == b.op.tf32 && a.op.accumulate == b.op.accumulate &&
         a.op.accumulator == b.op.accumulator &&
         a.op.epilogue == b.op.epilogue && a.op.prologue == b.op.prologue &&
         a.op.blockScales == b.op.blockScales && a.operands == b.operands &&
         a.params == b.params && a.launch.grid == b.launch.grid &&
         a.launch.block == b.launch.block &&
         a.launch.cluster == b.launch.cluster &&
         a.launch.dynamicSmemBytes == b.launch.dynamicSmemBytes &&
         a.launch.persistent == b.launch.persistent &&
         a.launch.streamK == b.launch.streamK &&
         a.launch.streamKBlocks == b.launch.streamKBlocks &&
         a.launch.gridFormula == b.launch.gridFormula &&
         a.resources.registers == b.resources.registers &&
         a.resources.spillBytes == b.resources.spillBytes &&
         a.resources.staticSmemBytes == b.resources.staticSmemBytes &&
         a.config == b.config;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {
/// "batch0, batch1, " for `n` batch dimensions: the manifest's names for
/// them in messages.
std::string batchDimNames(size_t n) {
  std::string names;
  for (size_t i = 0; i < n; ++i)
    names += "batch" + std::to_string(i) + ", ";
  return names;
}

std::string join(const std::string &path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string index(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string formatDims(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

/// Reads typed fields out of JSON objects, recording the first error with
/// the field's full path. Every getter returns false once an error is set.
class FieldReader {
public:
  std::string error;

  bool fail(const std::string &message) {
    if (error.empty())
      error = message;
    return false;
  }

  bool wrongType(const std::string &field, const char *expected,
                 const Value &v) {
    return fail("field '" + field + "' must be " + expected + ", got " +
                json::kindName(v.getKind()));
  }

  /// Returns the member `key` of `obj`, or nullptr. A missing required
  /// member records an error.
  const Value *member(const Value &obj, const std::string &path,
                      std::string_view key, bool required) {
    if (!error.empty())
      return nullptr;
    const Value *v = obj.get(key);
    if (!v && required)
      fail("missing required field '" + join(path, key) + "'");
    return v;
  }

  bool object(const Value &obj, const std::string &path, std::string_view key,
              const Value *&out, bool required) {
    out = member(obj, path, key, required);
    if (!out)
      return error.empty();
    if (!out->isObject())
      return wrongType(join(path, key), "an object", *out);
    return true;
  }

  bool string(const Value &obj, const std::string &path, std::string_view key,
              std::string &out, bool required) {
    const Value *v = member(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!v->isString())
      return wrongType(join(path, key), "a string", *v);
    out = v->getString();
    return true;
  }

  bool integer(const Value &obj, const std::string &path, std::string_view key,
               int64_t &out, bool required, int64_t min = INT64_MIN) {
    const Value *v = member(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!v->isInteger())
      return wrongType(join(path, key), "an integer",
                       *v); // "got number" for 1.5 is still clear
    out = v->getInt();
    if (out < min)
      return fail("field '" + join(path, key) + "' must be >= " +
                  std::to_string(min) + ", got " + std::to_string(out));
    return true;
  }

  bool boolean(const Value &obj, const std::string &path, std::string_view key,
               bool &out, bool required) {
    const Value *v = member(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!v->isBool())
      return wrongType(join(path, key), "a bool", *v);
    out = v->getBool();
    return true;
  }

  bool intArray(const Value &obj, const std::string &path, std::string_view key,
                std::vector<int64_t> &out, bool required, int64_t min) {
    const Value *v = member(obj, path, key, required);
    if (!v)
      return error.empty();
    std::string field = join(path, key);
    if (!v->isArray())
      return wrongType(field, "an array of integers", *v);
    out.clear();
    for (size_t i = 0; i < v->getElements().size(); ++i) {
      const Value &e = v->getElements()[i];
      if (!e.isInteger())
        return wrongType(index(field, i), "an integer", e);
      if (e.getInt() < min)
        return fail("field '" + index(field, i) +
                    "' must be >= " + std::to_string(min) + ", got " +
                    std::to_string(e.getInt()));
      out.push_back(e.getInt());
    }
    return true;
  }

  bool dim3(const Value &obj, const std::string &path, std::string_view key,
            std::array<int64_t, 3> &out, bool required, int64_t min = 1) {
    std::vector<int64_t> dims;
    const Value *v = member(obj, path, key, required);
    if (!v)
      return error.empty();
    if (!intArray(obj, path, key, dims, required, min))
      return false;
    if (dims.size() != 3)
      return fail("field '" + join(path, key) + "' must have 3 elements, got " +
                  std::to_string(dims.size()));
    for (int i = 0; i < 3; ++i)
      out[i] = dims[i];
    return true;
  }
};

bool isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

//===----------------------------------------------------------------------===//
// op.epilogue
//===----------------------------------------------------------------------===//

/// The bit width of an epilogue value dtype ("i1", "f16", ...), 0 if none.
int valueBits(std::string_view dtype) {
  if (dtype == "i1")
    return 1;
  if (dtype == "f16" || dtype == "bf16")
    return 16;
  if (dtype == "f32")
    return 32;
  if (dtype == "f64")
    return 64;
  return 0;
}

std::string plural(size_t count, const char *noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// Parses a "constant" step's value: a number, or "inf", "-inf" or "nan"
/// (JSON has no non-finite numbers).
bool parseConstantValue(FieldReader &r, const Value &v, const std::string &path,
                        double &out) {
  const Value *value = r.member(v, path, "value", true);
  if (!value)
    return false;
  if (value->isNumber()) {
    out = value->getNumber();
    return true;
  }
  std::string field = join(path, "value");
  if (!value->isString())
    return r.wrongType(field, "a number, \"inf\", \"-inf\" or \"nan\"", *value);
  const std::string &text = value->getString();
  if (text == "inf" || text == "-inf") {
    out = text == "inf" ? HUGE_VAL : -HUGE_VAL;
    return true;
  }
  if (text == "nan") {
    out = std::nan("");
    return true;
  }
  return r.fail("field '" + field +
                "' must be a number, \"inf\", \"-inf\" or \"nan\", got \"" +
                text + "\"");
}

/// Parses step `i` of op.epilogue.ops; `defined` values precede it. Checks
/// its structure (op, arity, args, dtype name, value, predicate); the
/// dtypes are checked against each other by checkEpilogue().
bool parseStep(FieldReader &r, const Value &v, const std::string &path,
               size_t i, int64_t defined, EpilogueStep &step) {
  if (!v.isObject())
    return r.wrongType(path, "an object", v);
  if (!r.string(v, path, "op", step.op, true) ||
      !r.intArray(v, path, "args", step.args, false, 0) ||
      !r.string(v, path, "dtype", step.dtype, true))
    return false;
  int arity = epilogueOpArity(step.op);
  if (arity < 0) {
    std::string names;
    for (size_t e = 0; e < std::size(kStepOps); ++e)
      names += std::string(e == 0                         ? ""
                           : e + 1 == std::size(kStepOps) ? " or "
                                                          : ", ") +
               kStepOps[e].name;
    return r.fail("field '" + path + ".op': unknown epilogue op '" + step.op +
                  "' (expected " + names + ")");
  }
  if (!valueBits(step.dtype))
    return r.fail("field '" + path + ".dtype': unknown dtype '" + step.dtype +
                  "' (expected f16, bf16, f32, f64 or i1)");
  if (step.args.size() != static_cast<size_t>(arity))
    return r.fail("field '" + path + ".args': " + step.op + " takes " +
                  plural(arity, "arg") + ", got " +
                  std::to_string(step.args.size()));
  for (size_t j = 0; j < step.args.size(); ++j)
    if (step.args[j] >= defined)
      return r.fail("field '" + index(path + ".args", j) + "': value " +
                    std::to_string(step.args[j]) +
                    " is not defined before step " + std::to_string(i));
  if (step.op == "constant" && !parseConstantValue(r, v, path, step.value))
    return false;
  if (step.op == "cmpf") {
    if (!r.string(v, path, "predicate", step.predicate, true))
      return false;
    if (!isCmpFPredicate(step.predicate)) {
      std::string names;
      for (const char *p : kCmpFPredicates)
        names += std::string(names.empty() ? "" : " ") + p;
      return r.fail("field '" + path + ".predicate': unknown cmpf predicate '" +
                    step.predicate + "' (expected one of: " + names + ")");
    }
  }
  return true;
}

/// Parses the "ops" steps and the "result" of the function at `path` (an
/// epilogue or a prologue: `what`) into `e`, whose inputs are known.
bool parseStepsAndResult(FieldReader &r, const Value &v,
                         const std::string &path, const char *what,
                         Epilogue &e) {
  const Value *ops = r.member(v, path, "ops", true);
  if (!ops)
    return false;
  if (!ops->isArray())
    return r.wrongType(path + ".ops", "an array", *ops);
  for (size_t i = 0; i < ops->getElements().size(); ++i) {
    EpilogueStep step;
    if (!parseStep(r, ops->getElements()[i], index(path + ".ops", i), i,
                   e.numValues(), step))
      return false;
    e.steps.push_back(std::move(step));
  }
  if (!r.integer(v, path, "result", e.result, true, 0))
    return false;
  if (e.result >= e.numValues())
    return r.fail("field '" + path + ".result': value " +
                  std::to_string(e.result) + " is not defined (the " + what +
                  " has " + plural(e.numValues(), "value") + ")");
  return true;
}

/// Parses the structure of op.epilogue, if there is one, into `out`.
bool parseEpilogue(FieldReader &r, const Value &op,
                   std::optional<Epilogue> &out) {
  const Value *v;
  if (!r.object(op, "op", "epilogue", v, false))
    return false;
  if (!v)
    return true;
  const std::string path = "op.epilogue";
  Epilogue e;
  std::string matmulDType;
  if (!r.string(*v, path, "matmul_dtype", matmulDType, true))
    return false;
  std::optional<DType> parsed = parseDType(matmulDType);
  if (!parsed || !isFloat(*parsed))
    return r.fail("field 'op.epilogue.matmul_dtype': expected f16, bf16, f32 "
                  "or f64, got '" +
                  matmulDType + "'");
  e.matmulDType = *parsed;

  const Value *inputs = r.member(*v, path, "inputs", true);
  if (!inputs)
    return false;
  if (!inputs->isArray())
    return r.wrongType(path + ".inputs", "an array", *inputs);
  for (size_t i = 0; i < inputs->getElements().size(); ++i) {
    const Value &in = inputs->getElements()[i];
    std::string at = index(path + ".inputs", i);
    if (!in.isObject())
      return r.wrongType(at, "an object", in);
    EpilogueInput input;
    std::string kind;
    if (!r.string(in, at, "operand", input.operand, true) ||
        !r.string(in, at, "kind", kind, true))
      return false;
    if (input.operand.empty())
      return r.fail("field '" + at + ".operand' must not be empty");
    std::optional<EpilogueInputKind> parsedKind = parseEpilogueInputKind(kind);
    if (!parsedKind)
      return r.fail("field '" + at + ".kind': unknown input kind '" + kind +
                    "' (expected scalar, row, col, matrix or product)");
    input.kind = *parsedKind;
    e.inputs.push_back(std::move(input));
  }

  if (!parseStepsAndResult(r, *v, path, "epilogue", e))
    return false;
  out = std::move(e);
  return true;
}

/// Parses the structure of op.prologue, if there is one, into `out`.
bool parsePrologue(FieldReader &r, const Value &op,
                   std::optional<Prologue> &out) {
  const Value *v;
  if (!r.object(op, "op", "prologue", v, false))
    return false;
  if (!v)
    return true;
  const std::string path = "op.prologue";
  Prologue p;
  std::string dtype;
  if (!r.string(*v, path, "operand", p.operand, true) ||
      !r.string(*v, path, "dtype", dtype, true))
    return false;
  if (p.operand.empty())
    return r.fail("field 'op.prologue.operand' must not be empty");
  std::optional<DType> parsed = parseDType(dtype);
  if (!parsed || !isFloat(*parsed))
    return r.fail("field 'op.prologue.dtype': expected f16, bf16, f32 or "
                  "f64, got '" +
                  dtype + "'");
  p.body.matmulDType = *parsed;
  if (!parseStepsAndResult(r, *v, path, "prologue", p.body))
    return false;
  out = std::move(p);
  return true;
}

bool parseTarget(FieldReader &r, const Value &root, Target &target) {
  const Value *t;
  if (!r.object(root, "", "target", t, true))
    return false;
  int64_t minCC = 0;
  if (!r.string(*t, "target", "arch", target.arch, true) ||
      !r.string(*t, "target", "backend", target.backend, false) ||
      !r.integer(*t, "target", "min_cc", minCC, true, 0))
    return false;
  target.minCC = static_cast<int>(minCC);
  return true;
}

/// Parses op.block_scales (absent: none).
bool parseBlockScales(FieldReader &r, const Value &op,
                      std::optional<BlockScaleInfo> &out) {
  const Value *v;
  if (!r.object(op, "op", "block_scales", v, false))
    return false;
  if (!v)
    return true;
  BlockScaleInfo info;
  if (!r.intArray(*v, "op.block_scales", "a", info.a, true, 1) ||
      !r.intArray(*v, "op.block_scales", "b", info.b, true, 1))
    return false;
  BlockScaleInfo supported;
  if (info.a != supported.a || info.b != supported.b)
    return r.fail("field 'op.block_scales': blocks a " + formatDims(info.a) +
                  " and b " + formatDims(info.b) +
                  " are not supported (supported: a [1, 128] and b [128, "
                  "128])");
  out = info;
  return true;
}

bool parseOp(FieldReader &r, const Value &root, OpInfo &op) {
  const Value *o;
  if (!r.object(root, "", "op", o, true))
    return false;
  std::string accumulator = dtypeName(op.accumulator);
  if (!r.string(*o, "op", "kind", op.kind, true) ||
      !r.integer(*o, "op", "batch", op.batch, false, 1) ||
      !r.boolean(*o, "op", "batch_reduce", op.batchReduce, false) ||
      !r.intArray(*o, "op", "batch_shape", op.batchShape, false, 1) ||
      !r.integer(*o, "op", "m", op.m, true, kDynamicSize) ||
      !r.integer(*o, "op", "n", op.n, true, kDynamicSize) ||
      // A pointwise op (kind "pointwise") has no K.
      !r.integer(*o, "op", "k", op.k, op.kind == "matmul", kDynamicSize) ||
      !r.integer(*o, "op", "k2", op.k2, false, 1) ||
      !r.boolean(*o, "op", "dual", op.dual, false) ||
      !r.integer(*o, "op", "groups", op.groups, false, 1) ||
      !r.boolean(*o, "op", "tf32", op.tf32, false) ||
      !r.boolean(*o, "op", "accumulate", op.accumulate, false) ||
      !r.string(*o, "op", "accumulator", accumulator, false) ||
      !parseEpilogue(r, *o, op.epilogue) ||
      !parsePrologue(r, *o, op.prologue) ||
      !parseBlockScales(r, *o, op.blockScales))
    return false;
  for (auto [name, size] : {std::pair<const char *, int64_t>{"m", op.m},
                             {"n", op.n},
                             {"k", op.kind == "matmul" ? op.k : 1}})
    if (size == 0)
      return r.fail(std::string("field 'op.") + name +
                    "' must be >= 1, or -1 (fixed at launch), got 0");
  if (!op.batchShape.empty()) {
    // Extents whose product overflows cannot multiply to op.batch either.
    int64_t product = 1;
    bool overflow = false;
    for (int64_t e : op.batchShape)
      overflow |= __builtin_mul_overflow(product, e, &product);
    if (op.batchShape.size() < 2 || op.batchShape.size() > 3 || overflow ||
        product != op.batch)
      return r.fail("field 'op.batch_shape' must list two or three batch "
                    "extents whose product is op.batch (" +
                    std::to_string(op.batch) + "), got " +
                    formatDims(op.batchShape));
    if (op.batchReduce)
      return r.fail("field 'op.batch_shape': a summed batch "
                    "(op.batch_reduce) has one batch dimension");
  }
  if (op.dual && op.kind != "matmul")
    return r.fail("field 'op.dual': a dual GEMM is a matmul, got op.kind '" +
                  op.kind + "'");
  if (op.batchReduce && op.batch < 2)
    return r.fail("field 'op.batch_reduce': a summed batch needs op.batch "
                  ">= 2, got " +
                  std::to_string(op.batch));
  std::optional<DType> parsed = parseDType(accumulator);
  if (!parsed)
    return r.fail(
        "field 'op.accumulator': unknown dtype '" + accumulator +
        "' (expected f16, bf16, f32, f64, i8, i32, i64, e4m3 or e5m2)");
  op.accumulator = *parsed;
  return true;
}

bool parseOperand(FieldReader &r, const Value &v, const std::string &path,
                  Operand &operand) {
  if (!v.isObject())
    return r.wrongType(path, "an object", v);
  std::string role, dtype;
  if (!r.string(v, path, "name", operand.name, true) ||
      !r.string(v, path, "role", role, true) ||
      !r.string(v, path, "dtype", dtype, true) ||
      !r.intArray(v, path, "shape", operand.shape, true, kDynamicSize) ||
      !r.intArray(v, path, "strides", operand.strides, true, kDynamicSize) ||
      !r.integer(v, path, "align_bytes", operand.alignBytes, true, 1))
    return false;
  if (operand.name.empty())
    return r.fail("field '" + path + ".name' must not be empty");
  for (size_t i = 0; i < operand.shape.size(); ++i)
    if (operand.shape[i] == 0)
      return r.fail("field '" + index(path + ".shape", i) +
                    "' must be >= 1, or -1 (fixed at launch), got 0");
  std::optional<OperandRole> parsedRole = parseRole(role);
  if (!parsedRole)
    return r.fail("field '" + path + ".role': unknown role '" + role +
                  "' (expected lhs, rhs, out, inout, in, lhs2, rhs2, scale_a or "
                  "scale_b)");
  operand.role = *parsedRole;
  std::optional<DType> parsedType = parseDType(dtype);
  if (!parsedType)
    return r.fail(
        "field '" + path + ".dtype': unknown dtype '" + dtype +
        "' (expected f16, bf16, f32, f64, i8, i32, i64, e4m3 or e5m2)");
  operand.dtype = *parsedType;
  // Scalar epilogue inputs are rank 0; every other operand has a shape.
  if (operand.shape.empty() && operand.role != OperandRole::In)
    return r.fail("field '" + path +
                  ".shape' must not be empty (only an "
                  "operand of role 'in' may have rank 0)");
  if (operand.shape.size() != operand.strides.size())
    return r.fail("field '" + path + ".strides' has " +
                  std::to_string(operand.strides.size()) +
                  " elements but shape has " +
                  std::to_string(operand.shape.size()));
  if (operand.alignBytes & (operand.alignBytes - 1))
    return r.fail("field '" + path +
                  ".align_bytes' must be a power of 2, got " +
                  std::to_string(operand.alignBytes));
  return true;
}

bool parseOperands(FieldReader &r, const Value &root, Manifest &m) {
  const Value *ops = r.member(root, "", "operands", true);
  if (!ops)
    return false;
  if (!ops->isArray())
    return r.wrongType("operands", "an array", *ops);
  if (ops->getElements().empty())
    return r.fail("field 'operands' must not be empty");
  for (size_t i = 0; i < ops->getElements().size(); ++i) {
    Operand operand;
    if (!parseOperand(r, ops->getElements()[i], index("operands", i), operand))
      return false;
    if (m.findOperand(operand.name))
      return r.fail("field '" + index("operands", i) +
                    ".name': duplicate operand name '" + operand.name + "'");
    m.operands.push_back(std::move(operand));
  }
  return true;
}

constexpr size_t kMaxTensorMapRank = 5;      // cuTensorMapEncodeTiled's limit.
constexpr int64_t kMaxTensorMapBox = 256;    // Per box dimension.
constexpr int64_t kTensorMapInnerBytes = 16; // box[0] bytes are a multiple.

/// Parses and checks the fields of a "tensormap" param of `operand`.
bool parseTensorMap(FieldReader &r, const Value &v, const std::string &path,
                    const Operand &operand, Param &p) {
  if (!r.intArray(v, path, "box", p.box, true, 1) ||
      !r.string(v, path, "swizzle", p.swizzle, true) ||
      !r.string(v, path, "l2_promotion", p.l2Promotion, false) ||
      !r.string(v, path, "oob_fill", p.oobFill, false))
    return false;
  std::string box = path + ".box";
  if (p.box.empty() || p.box.size() > kMaxTensorMapRank)
    return r.fail("field '" + box + "' must have 1 to " +
                  std::to_string(kMaxTensorMapRank) + " elements, got " +
                  std::to_string(p.box.size()));
  for (size_t i = 0; i < p.box.size(); ++i)
    if (p.box[i] > kMaxTensorMapBox)
      return r.fail("field '" + index(box, i) +
                    "' must be <= " + std::to_string(kMaxTensorMapBox) +
                    ", got " + std::to_string(p.box[i]));
  int64_t span = swizzleBytes(p.swizzle);
  if (span < 0)
    return r.fail("field '" + path + ".swizzle': unknown swizzle '" +
                  p.swizzle + "' (expected none, 32B, 64B or 128B)");
  if (p.l2Promotion != "none" && p.l2Promotion != "64B" &&
      p.l2Promotion != "128B" && p.l2Promotion != "256B")
    return r.fail("field '" + path + ".l2_promotion': unknown L2 promotion '" +
                  p.l2Promotion + "' (expected none, 64B, 128B or 256B)");
  if (p.oobFill != "zero" && p.oobFill != "nan")
    return r.fail("field '" + path + ".oob_fill': unknown OOB fill '" +
                  p.oobFill + "' (expected zero or nan)");

  // Against the operand.
  if (p.box.size() != operand.shape.size())
    return r.fail("field '" + box + "' has " + std::to_string(p.box.size()) +
                  " elements but operand '" + operand.name + "' has rank " +
                  std::to_string(operand.shape.size()));
  int64_t innerBytes = p.box[0] * dtypeSize(operand.dtype);
  std::string inner = "field '" + index(box, 0) +
                      "': " + std::to_string(p.box[0]) + " elements of " +
                      dtypeName(operand.dtype) + " (operand '" + operand.name +
                      "') are " + std::to_string(innerBytes) + " bytes, ";
  if (innerBytes % kTensorMapInnerBytes != 0)
    return r.fail(inner + "not a multiple of 16");
  if (span > 0 && innerBytes > span)
    return r.fail(inner + "more than the " + p.swizzle + " swizzle span");
  if (p.oobFill == "nan" && !isFloat(operand.dtype))
    return r.fail("field '" + path +
                  ".oob_fill': \"nan\" needs a floating-point operand, '" +
                  operand.name + "' is " + dtypeName(operand.dtype));
  return true;
}

// Each block's slice of the workspace starts at block * bytes_per_block; a
// multiple of 16 keeps every slice aligned for 16-byte vector accesses
// (cuMemAlloc aligns the base far more).
constexpr int64_t kWorkspaceAlign = 16;

/// Parses the fields of a "workspace" param.
bool parseWorkspace(FieldReader &r, const Value &v, const std::string &path,
                    Param &p) {
  // The buffer is the runtime's, not a tensor of the caller's.
  if (v.get("operand"))
    return r.fail("field '" + path +
                  ".operand': a workspace param takes no operand");
  if (!r.integer(v, path, "bytes_per_block", p.bytesPerBlock, true, 1))
    return false;
  if (p.bytesPerBlock % kWorkspaceAlign != 0)
    return r.fail("field '" + path +
                  ".bytes_per_block' must be a multiple of " +
                  std::to_string(kWorkspaceAlign) + ", got " +
                  std::to_string(p.bytesPerBlock));
  return true;
}

bool parseParams(FieldReader &r, const Value &root, Manifest &m) {
  const Value *params = r.member(root, "", "params", true);
  if (!params)
    return false;
  if (!params->isArray())
    return r.wrongType("params", "an array", *params);
  std::optional<size_t> workspace; // index of the workspace param
  for (size_t i = 0; i < params->getElements().size(); ++i) {
    const Value &v = params->getElements()[i];
    std::string path = index("params", i);
    if (!v.isObject())
      return r.wrongType(path, "an object", v);
    Param p;
    if (!r.string(v, path, "kind", p.kind, true))
      return false;
    if (p.kind == "workspace") {
      // The runtime owns one buffer per loaded kernel.
      if (workspace)
        return r.fail("field '" + path +
                      ".kind': a manifest has at most one workspace param (" +
                      index("params", *workspace) + " is one)");
      workspace = i;
      if (!parseWorkspace(r, v, path, p))
        return false;
      m.params.push_back(std::move(p));
      continue;
    }
    if (p.kind == "size") {
      // A size of the launch: no operand, `value` names it.
      if (v.get("operand"))
        return r.fail("field '" + path +
                      ".operand': a size param takes no operand");
      if (!r.string(v, path, "value", p.value, true))
        return false;
      if (p.value != "m" && p.value != "n" && p.value != "k")
        return r.fail("field '" + path + ".value': a size param names m, n "
                      "or k, got '" + p.value + "'");
      m.params.push_back(std::move(p));
      continue;
    }
    if (p.kind == "stride") {
      // A stride of an operand at launch: the operand and its dimension.
      if (!r.string(v, path, "operand", p.operand, true))
        return false;
      const Operand *operand = m.findOperand(p.operand);
      if (!operand)
        return r.fail("field '" + path + ".operand': no operand named '" +
                      p.operand + "'");
      if (!r.integer(v, path, "dim", p.dim, true, 0))
        return false;
      if (p.dim >= int64_t(operand->shape.size()))
        return r.fail("field '" + path + ".dim': operand '" + p.operand +
                      "' has " + std::to_string(operand->shape.size()) +
                      " dimensions, not " + std::to_string(p.dim + 1));
      m.params.push_back(std::move(p));
      continue;
    }
    bool tensorMap = p.kind == "tensormap";
    bool needsOperand = p.kind == "ptr" || tensorMap;
    if (!r.string(v, path, "operand", p.operand, needsOperand))
      return false;
    if (needsOperand && p.operand.empty())
      return r.fail("field '" + path + ".operand' must not be empty");
    // `value` is a string naming a size in later versions; keep it verbatim.
    if (const Value *value = v.get("value"))
      p.value =
          value->isString() ? value->getString() : json::print(*value, false);
    const Operand *operand =
        p.operand.empty() ? nullptr : m.findOperand(p.operand);
    if (!p.operand.empty() && !operand)
      return r.fail("field '" + path + ".operand': no operand named '" +
                    p.operand + "'");
    if (tensorMap && !parseTensorMap(r, v, path, *operand, p))
      return false;
    m.params.push_back(std::move(p));
  }
  return true;
}

constexpr int64_t kMaxBlockThreads = 1024; // CUDA's limit per block.

/// Checks that the block `block` (each extent >= 1) of field `field` has at
/// most 1024 threads, without overflowing on huge extents.
bool checkBlockThreads(FieldReader &r, const std::string &field,
                       const std::array<int64_t, 3> &block) {
  int64_t threads = 1;
  for (int64_t extent : block)
    if (__builtin_mul_overflow(threads, extent, &threads))
      return r.fail("field '" + field +
                    "': " + formatDims({block.begin(), block.end()}) +
                    " has more than " + std::to_string(kMaxBlockThreads) +
                    " threads per block");
  if (threads > kMaxBlockThreads)
    return r.fail("field '" + field + "': " + std::to_string(threads) +
                  " threads per block exceeds " +
                  std::to_string(kMaxBlockThreads));
  return true;
}

/// Parses the optional "packs": copies of read-only operands with padded
/// strides, made before the main kernel.
bool parsePacks(FieldReader &r, const Value &root, Manifest &m) {
  const Value *packs = root.get("packs");
  if (!packs)
    return true;
  if (!packs->isArray())
    return r.wrongType("packs", "an array", *packs);
  for (size_t i = 0; i < packs->getElements().size(); ++i) {
    const Value &v = packs->getElements()[i];
    std::string path = index("packs", i);
    if (!v.isObject())
      return r.wrongType(path, "an object", v);
    Pack p;
    if (!r.string(v, path, "operand", p.operand, true) ||
        !r.string(v, path, "entry", p.entry, true) ||
        !r.intArray(v, path, "strides", p.strides, true, 1) ||
        !r.dim3(v, path, "grid", p.grid, true) ||
        !r.dim3(v, path, "block", p.block, true))
      return false;
    if (p.entry.empty())
      return r.fail("field '" + path + ".entry' must not be empty");
    const Operand *operand = m.findOperand(p.operand);
    if (!operand)
      return r.fail("field '" + path + ".operand': no operand named '" +
                    p.operand + "'");
    if (operand->role == OperandRole::Out ||
        operand->role == OperandRole::InOut)
      return r.fail("field '" + path + ".operand': operand '" + p.operand +
                    "' is written by the kernel; only inputs are packed");
    if (m.findPack(p.operand))
      return r.fail("field '" + path + ".operand': operand '" + p.operand +
                    "' is packed twice");
    // Like the operand's: a transposed operand has its stride 1 first.
    if (p.strides.size() != operand->shape.size() ||
        std::find(p.strides.begin(), p.strides.end(), 1) == p.strides.end())
      return r.fail("field '" + path +
                    ".strides': expected one stride per dimension of operand '" +
                    p.operand + "' (rank " +
                    std::to_string(operand->shape.size()) +
                    "), one of them 1");
    if (!checkBlockThreads(r, path + ".block", p.block))
      return false;
    m.packs.push_back(std::move(p));
  }
  return true;
}

bool parseLaunch(FieldReader &r, const Value &root, Launch &launch) {
  const Value *l;
  if (!r.object(root, "", "launch", l, true))
    return false;
  if (!r.dim3(*l, "launch", "grid", launch.grid, true, kDynamicSize) ||
      !r.dim3(*l, "launch", "block", launch.block, true) ||
      !r.dim3(*l, "launch", "cluster", launch.cluster, false) ||
      !r.integer(*l, "launch", "dynamic_smem_bytes", launch.dynamicSmemBytes,
                 true, 0) ||
      !r.boolean(*l, "launch", "persistent", launch.persistent, false) ||
      !r.boolean(*l, "launch", "stream_k", launch.streamK, false) ||
      !r.integer(*l, "launch", "stream_k_blocks", launch.streamKBlocks, false,
                 1))
    return false;
  if (launch.streamKBlocks > 0 && !launch.streamK)
    return r.fail("field 'launch.stream_k_blocks': only a stream-K kernel "
                  "(launch.stream_k) takes a block count");
  // Stream-K splits the tiles' k-loops over resident blocks that loop.
  if (launch.streamK && !launch.persistent)
    return r.fail("field 'launch.stream_k': a stream-K kernel must be "
                  "persistent, but launch.persistent is false");
  if (const Value *f = l->get("grid_formula")) {
    if (!f->isArray())
      return r.wrongType("launch.grid_formula", "an array of strings", *f);
    for (size_t i = 0; i < f->getElements().size(); ++i) {
      const Value &e = f->getElements()[i];
      if (!e.isString())
        return r.wrongType(index("launch.grid_formula", i), "a string", e);
      launch.gridFormula.push_back(e.getString());
    }
  }
  if (!checkBlockThreads(r, "launch.block", launch.block))
    return false;
  // grid[0] = -1: one block per SM (checkDynamic: a persistent kernel of
  // sizes fixed at launch).
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] == 0 || (i > 0 && launch.grid[i] == kDynamicSize))
      return r.fail("field '" + index("launch.grid", i) + "' must be >= 1" +
                    (i == 0 ? ", or -1 (one block per SM)" : "") + ", got " +
                    std::to_string(launch.grid[i]));
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] != kDynamicSize && launch.grid[i] % launch.cluster[i] != 0)
      return r.fail("field 'launch.cluster': grid " +
                    formatDims({launch.grid.begin(), launch.grid.end()}) +
                    " is not a multiple of cluster " +
                    formatDims({launch.cluster.begin(), launch.cluster.end()}));
  return true;
}

bool parseResources(FieldReader &r, const Value &root, Resources &res) {
  const Value *v;
  if (!r.object(root, "", "resources", v, false))
    return false;
  if (!v)
    return true;
  return r.integer(*v, "resources", "registers", res.registers, false, 0) &&
         r.integer(*v, "resources", "spill_bytes", res.spillBytes, false, 0) &&
         r.integer(*v, "resources", "static_smem_bytes", res.staticSmemBytes,
                   false, 0);
}

/// Checks the scale operands of a block-scaled matmul (op.block_scales):
/// one scale_a and one scale_b of f32, shaped by the blocks; none without.
bool checkBlockScales(FieldReader &r, const Manifest &m) {
  const Operand *sa = m.findRole(OperandRole::ScaleA);
  const Operand *sb = m.findRole(OperandRole::ScaleB);
  if (!m.op.blockScales) {
    if (sa || sb)
      return r.fail("field 'operands': operand '" + (sa ? sa : sb)->name +
                    "' has role '" + roleName((sa ? sa : sb)->role) +
                    "', but op has no block_scales");
    return true;
  }
  const BlockScaleInfo &bs = *m.op.blockScales;
  if (!sa || !sb)
    return r.fail("field 'op.block_scales': a block-scaled matmul needs a "
                  "scale_a and a scale_b operand");
  if (m.op.batch > 1 || m.op.k2 > 0 || m.op.accumulate || m.isDynamic())
    return r.fail("field 'op.block_scales': block scales are supported for "
                  "C = A B of one matrix with sizes fixed at compile time");
  if (m.op.k % bs.a[1] != 0 || m.op.k % bs.b[1] != 0)
    return r.fail("field 'op.block_scales': op.k " + std::to_string(m.op.k) +
                  " is not a multiple of the blocks along K");
  auto ceilDiv = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  struct {
    const Operand *operand;
    std::vector<int64_t> shape;
  } expected[] = {{sa, {ceilDiv(m.op.m, bs.a[0]), m.op.k / bs.a[1]}},
                  {sb, {ceilDiv(m.op.n, bs.b[0]), m.op.k / bs.b[1]}}};
  for (auto &e : expected) {
    std::string prefix = "operand '" + e.operand->name + "' (" +
                         roleName(e.operand->role) + "): ";
    if (e.operand->dtype != DType::F32)
      return r.fail(prefix + "block scales are f32, got " +
                    dtypeName(e.operand->dtype));
    if (e.operand->shape != e.shape)
      return r.fail(prefix + "shape " + formatDims(e.operand->shape) +
                    " does not match the blocks of op.block_scales: " +
                    formatDims(e.shape));
  }
  return true;
}

/// Checks that a matmul's operands agree with op.{m,n,k,accumulate}.
/// Checks a grouped product (op.groups > 0): one operand of role
/// "offsets", i32 or i64 of shape [groups + 1]; no batch, second product,
/// C += A*B or epilogue inputs. Without op.groups, no offsets operand.
bool checkGroups(FieldReader &r, const Manifest &m) {
  const Operand *offsets = m.findRole(OperandRole::Offsets);
  if (m.op.groups == 0) {
    if (offsets)
      return r.fail("field 'operands': operand '" + offsets->name +
                    "' has role 'offsets', but op has no groups (a grouped "
                    "product needs op.groups)");
    return true;
  }
  if (!offsets)
    return r.fail("field 'op.groups': a grouped product needs an operand of "
                  "role 'offsets' (the groups' row offsets)");
  for (const Operand &o : m.operands)
    if (o.role == OperandRole::Offsets && &o != offsets)
      return r.fail("field 'operands': a grouped product has one offsets "
                    "operand, got '" +
                    offsets->name + "' and '" + o.name + "'");
  std::string prefix = "operand '" + offsets->name + "' (offsets): ";
  if (offsets->dtype != DType::I32 && offsets->dtype != DType::I64)
    return r.fail(prefix + "dtype must be i32 or i64, got " +
                  dtypeName(offsets->dtype));
  std::vector<int64_t> shape = {m.op.groups + 1};
  if (offsets->shape != shape)
    return r.fail(prefix + "shape " + formatDims(offsets->shape) +
                  " does not match [groups + 1] = " + formatDims(shape));
  if (m.op.batch != 1 || m.op.batchReduce || !m.op.batchShape.empty() ||
      m.op.k2 > 0 || m.op.accumulate || m.op.prologue)
    return r.fail("field 'op.groups': a grouped product takes no batch, "
                  "second product, accumulation or prologue");
  for (const Operand &o : m.operands)
    if (o.role == OperandRole::In)
      return r.fail("field 'op.groups': a grouped product's epilogue takes "
                    "no inputs (operand '" +
                    o.name + "' has role 'in')");
  return true;
}

/// Checks that no epilogue input has kind "product" unless op.dual is set
/// (only a dual GEMM computes a second product for its epilogue).
bool checkProductInputsNeedDual(FieldReader &r, const Manifest &m) {
  if (m.op.dual || !m.op.epilogue)
    return true;
  const std::vector<EpilogueInput> &inputs = m.op.epilogue->inputs;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].kind == EpilogueInputKind::Product)
      return r.fail("field '" + index("op.epilogue.inputs", i) +
                    ".kind': a product input needs op.dual (a dual GEMM "
                    "computes the second product A B2)");
  return true;
}

/// Refuses the op features a dual GEMM (op.dual) does not support yet:
/// batches of any kind, groups, C += A*B, block scales, a prologue, tf32
/// and sizes fixed at launch. Checked before the operands, so that the
/// refusal names the feature rather than a shape it implies.
bool checkDualOp(FieldReader &r, const Manifest &m) {
  const OpInfo &op = m.op;
  std::string what;
  // (A summed batch and batch dimensions have op.batch > 1 too: named first.)
  if (op.batchReduce)
    what = "a summed batch (op.batch_reduce)";
  else if (!op.batchShape.empty())
    what = "batch dimensions (op.batch_shape)";
  else if (op.batch > 1)
    what = "op.batch > 1 (op.batch is " + std::to_string(op.batch) + ")";
  else if (op.groups > 0)
    what = "a grouped product (op.groups)";
  else if (op.accumulate)
    what = "C += A*B (op.accumulate)";
  else if (op.blockScales)
    what = "block scales (op.block_scales)";
  else if (op.prologue)
    what = "a fused prologue (op.prologue)";
  else if (op.tf32)
    what = "tf32 math (op.tf32)";
  else if (m.isDynamic())
    what = "sizes fixed at launch (-1)";
  if (what.empty())
    return true;
  return r.fail("field 'op.dual': a dual GEMM is not supported with " + what);
}

/// Checks a dual GEMM's operands and epilogue, once A, B and C are known to
/// be right: one rhs2 operand B2 of B's shape and dtype (its strides are
/// free, as B's are), no lhs2, op.k2 0, A and B not 8-bit floats, and an
/// epilogue with exactly one input of kind "product", which names B2.
bool checkDualOperands(FieldReader &r, const Manifest &m, const Operand &a,
                       const Operand &b) {
  if (m.op.k2 > 0)
    return r.fail("field 'op.k2': a dual GEMM (op.dual) shares A and K; it "
                  "has no second K");
  for (const Operand *o : {&a, &b})
    if (o->dtype == DType::E4M3 || o->dtype == DType::E5M2)
      return r.fail("field 'op.dual': a dual GEMM is not supported with "
                    "8-bit float inputs (operand '" +
                    o->name + "' is " + dtypeName(o->dtype) + ")");
  if (const Operand *a2 = m.findRole(OperandRole::Lhs2))
    return r.fail("field 'operands': operand '" + a2->name +
                  "' has role 'lhs2', but a dual GEMM (op.dual) shares A: "
                  "its second product is A B2");
  const Operand *b2 = nullptr;
  for (const Operand &o : m.operands) {
    if (o.role != OperandRole::Rhs2)
      continue;
    if (b2)
      return r.fail("field 'operands': a dual GEMM has one rhs2 operand, "
                    "got '" +
                    b2->name + "' and '" + o.name + "'");
    b2 = &o;
  }
  if (!b2)
    return r.fail("field 'op.dual': a dual GEMM needs an operand of role "
                  "'rhs2' (B2 of the second product A B2)");
  std::string prefix = "operand '" + b2->name + "' (rhs2): ";
  if (b2->shape != b.shape)
    return r.fail(prefix + "shape " + formatDims(b2->shape) +
                  " does not match the rhs '" + b.name + "' " +
                  formatDims(b.shape) + " (a dual GEMM's B2 has B's shape)");
  if (b2->dtype != b.dtype)
    return r.fail(prefix + "dtype " + dtypeName(b2->dtype) +
                  " differs from the rhs '" + b.name + "' (" +
                  dtypeName(b.dtype) + ")");
  if (!m.op.epilogue)
    return r.fail("field 'op.dual': a dual GEMM needs op.epilogue, which "
                  "combines the two products");
  const std::vector<EpilogueInput> &inputs = m.op.epilogue->inputs;
  std::optional<size_t> product;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].kind != EpilogueInputKind::Product)
      continue;
    if (product)
      return r.fail("field '" + index("op.epilogue.inputs", i) +
                    ".kind': a dual GEMM has one product input (" +
                    index("op.epilogue.inputs", *product) + " is one)");
    product = i;
    if (inputs[i].operand != b2->name)
      return r.fail("field '" + index("op.epilogue.inputs", i) +
                    ".operand': a product input names the rhs2 operand '" +
                    b2->name + "', got '" + inputs[i].operand + "'");
  }
  if (!product)
    return r.fail("field 'op.epilogue.inputs': a dual GEMM's epilogue reads "
                  "its second product as an input of kind 'product' "
                  "(operand '" +
                  b2->name + "'), but has none");
  return true;
}

bool checkMatmul(FieldReader &r, const Manifest &m) {
  if (!checkProductInputsNeedDual(r, m) || (m.op.dual && !checkDualOp(r, m)) ||
      !checkGroups(r, m))
    return false;
  const Operand *a = m.findRole(OperandRole::Lhs);
  const Operand *b = m.findRole(OperandRole::Rhs);
  const Operand *c = m.findRole(OperandRole::Out);
  const Operand *cInOut = m.findRole(OperandRole::InOut);
  if (!a || !b || (!c && !cInOut))
    return r.fail("field 'operands': a matmul needs an lhs, an rhs and an "
                  "out or inout operand");
  if (c && cInOut)
    return r.fail("field 'operands': a matmul has one result operand, got "
                  "both out '" +
                  c->name + "' and inout '" + cInOut->name + "'");
  if (!c)
    c = cInOut;
  if (m.op.accumulate != (c->role == OperandRole::InOut))
    return r.fail(std::string("field 'operands': op.accumulate is ") +
                  (m.op.accumulate ? "true" : "false") + " but operand '" +
                  c->name + "' has role '" + roleName(c->role) +
                  "' (expected '" + (m.op.accumulate ? "inout" : "out") + "')");
  // A batched matmul (op.batch > 1) has rank-3 operands, the batch
  // outermost; batch 1 keeps the rank-2 form.
  bool batched = m.op.batch > 1;
  struct {
    const Operand *operand;
    std::vector<int64_t> shape;
    const char *sizes;
  } expected[] = {{a, {m.op.m, m.op.k}, "[m, k]"},
                  {b, {m.op.k, m.op.n}, "[k, n]"},
                  {c, {m.op.m, m.op.n}, "[m, n]"}};
  // A grouped product's rhs holds a matrix per group, the group outermost.
  if (m.op.groups > 0) {
    expected[1].shape.insert(expected[1].shape.begin(), m.op.groups);
    expected[1].sizes = "[groups, k, n]";
  }
  if (m.op.tf32)
    for (const Operand *o : {a, b})
      if (o->dtype != DType::F32)
        return r.fail("field 'op.tf32': tf32 math reads f32 operands, but "
                      "operand '" +
                      o->name + "' is " + dtypeName(o->dtype));
  // add(gemm, gemm): op.k2 and the second product's operands go together.
  const Operand *a2 = m.findRole(OperandRole::Lhs2);
  const Operand *b2 = m.findRole(OperandRole::Rhs2);
  // (A dual GEMM's rhs2 is checked with its epilogue: checkDualOperands.)
  if (m.op.k2 == 0 && !m.op.dual) {
    if (a2 || b2)
      return r.fail("field 'operands': operand '" + (a2 ? a2 : b2)->name +
                    "' has role '" + roleName((a2 ? a2 : b2)->role) +
                    "', but op has no k2 (a second product needs op.k2)");
  } else if (!m.op.dual) {
    if (!a2 || !b2)
      return r.fail("field 'op.k2': a second product needs an lhs2 and an "
                    "rhs2 operand");
    if (batched || m.op.batchReduce)
      return r.fail("field 'op.k2': a second product of a batched matmul is "
                    "not supported (op.batch is " +
                    std::to_string(m.op.batch) + ")");
  }
  for (auto &e : expected) {
    std::string sizes = e.sizes;
    // A summed batch (op.batch_reduce): A's and B's products are added
    // into one C, which has no batch dimension.
    if (batched && !(m.op.batchReduce && e.operand == c)) {
      // Several batch dimensions: all, outermost first.
      if (!m.op.batchShape.empty()) {
        e.shape.insert(e.shape.begin(), m.op.batchShape.begin(),
                       m.op.batchShape.end());
        sizes = "[" + batchDimNames(m.op.batchShape.size()) + sizes.substr(1);
      } else {
        e.shape.insert(e.shape.begin(), m.op.batch);
        sizes = "[batch, " + sizes.substr(1);
      }
    }
    const Operand &o = *e.operand;
    std::string prefix =
        "operand '" + o.name + "' (" + roleName(o.role) + "): ";
    if (o.shape.size() != e.shape.size())
      return r.fail(prefix + "shape " + formatDims(o.shape) + " has rank " +
                    std::to_string(o.shape.size()) + ", but op.batch " +
                    std::to_string(m.op.batch) +
                    (m.op.batchReduce ? " summed (op.batch_reduce)" : "") +
                    " needs rank " +
                    std::to_string(e.shape.size()) + ": " + sizes + " = " +
                    formatDims(e.shape));
    if (o.shape != e.shape)
      return r.fail(prefix + "shape " + formatDims(o.shape) +
                    " does not match op " + sizes + " = " +
                    formatDims(e.shape));
  }
  if (m.op.dual)
    return checkDualOperands(r, m, *a, *b);
  if (m.op.k2 > 0) {
    struct {
      const Operand *operand;
      std::vector<int64_t> shape;
      const char *sizes;
    } second[] = {{a2, {m.op.m, m.op.k2}, "[m, k2]"},
                  {b2, {m.op.k2, m.op.n}, "[k2, n]"}};
    for (auto &e : second)
      if (e.operand->shape != e.shape)
        return r.fail("operand '" + e.operand->name + "' (" +
                      roleName(e.operand->role) + "): shape " +
                      formatDims(e.operand->shape) + " does not match op " +
                      e.sizes + " = " + formatDims(e.shape));
  }
  return true;
}

/// Checks step `i` of op.epilogue against the dtypes of the values before
/// it (`types`, one per value), arith's rules, and appends its dtype.
bool checkStepTypes(FieldReader &r, const EpilogueStep &step,
                    const std::string &path, std::vector<std::string> &types) {
  const std::string &type = step.dtype;
  auto argType = [&](size_t j) { return types[step.args[j]]; };
  auto argError = [&](size_t j, const std::string &why) {
    return r.fail("field '" + index(path + ".args", j) + "': value " +
                  std::to_string(step.args[j]) + " is " + argType(j) + ", " +
                  why);
  };
  const std::string &op = step.op;
  if (op == "cmpf") {
    if (type != "i1")
      return r.fail("field '" + path + ".dtype': cmpf yields i1, got " + type);
    if (argType(0) == "i1")
      return argError(0, "but cmpf compares floats");
    if (argType(1) != argType(0))
      return argError(1, "but value " + std::to_string(step.args[0]) + " is " +
                             argType(0) +
                             " (cmpf compares two values of one dtype)");
  } else if (op == "select") {
    if (argType(0) != "i1")
      return argError(0, "but the condition of select must be i1");
    for (size_t j = 1; j < 3; ++j)
      if (argType(j) != type)
        return argError(j, "but select yields " + type);
  } else if (op == "extf" || op == "truncf") {
    if (type == "i1")
      return r.fail("field '" + path + ".dtype': " + op +
                    " needs a float dtype, got i1");
    if (argType(0) == "i1")
      return argError(0, "but " + op + " converts floats");
    int from = valueBits(argType(0)), to = valueBits(type);
    if (op == "extf" ? to <= from : to >= from)
      return r.fail("field '" + path + "': " + op + " from " + argType(0) +
                    " to " + type +
                    (op == "extf" ? " does not widen" : " does not narrow"));
  } else {
    // The float ops (and constants) take and yield one float dtype.
    if (type == "i1")
      return r.fail("field '" + path + ".dtype': " + op +
                    " needs a float dtype, got i1");
    for (size_t j = 0; j < step.args.size(); ++j)
      if (argType(j) != type)
        return argError(j, "but " + op + " computes in " + type);
  }
  types.push_back(type);
  return true;
}

/// Checks op.prologue against the operands: it names the lhs or rhs
/// operand, whose dtype it has; its steps' dtypes agree and its result has
/// that dtype too.
bool checkPrologue(FieldReader &r, const Manifest &m) {
  const std::optional<Prologue> &p = m.op.prologue;
  if (!p)
    return true;
  const std::string path = "op.prologue";
  const Operand *o = m.findOperand(p->operand);
  if (!o)
    return r.fail("field 'op.prologue.operand': no operand named '" +
                  p->operand + "'");
  if (o->role != OperandRole::Lhs && o->role != OperandRole::Rhs)
    return r.fail("field 'op.prologue.operand': operand '" + o->name +
                  "' has role '" + roleName(o->role) +
                  "' (a prologue transforms the lhs or the rhs)");
  if (o->dtype != p->body.matmulDType)
    return r.fail("field 'op.prologue.dtype': " +
                  std::string(dtypeName(p->body.matmulDType)) +
                  ", but operand '" + o->name + "' is " + dtypeName(o->dtype));
  std::vector<std::string> types = {dtypeName(o->dtype)};
  for (size_t i = 0; i < p->body.steps.size(); ++i)
    if (!checkStepTypes(r, p->body.steps[i], index(path + ".ops", i), types))
      return false;
  const std::string &resultType = types[p->body.result];
  if (resultType != dtypeName(o->dtype))
    return r.fail("field 'op.prologue.result': value " +
                  std::to_string(p->body.result) + " is " + resultType +
                  ", but operand '" + o->name + "' is " + dtypeName(o->dtype));
  return true;
}

/// Checks op.epilogue against the operands: its inputs are the operands of
/// role "in", each once, with the shape of its kind; the dtypes of the
/// steps agree; the result is a float of the result operand's dtype. With
/// no epilogue, checks that no operand has role "in".
bool checkEpilogue(FieldReader &r, const Manifest &m) {
  const std::optional<Epilogue> &e = m.op.epilogue;
  if (!e) {
    for (size_t i = 0; i < m.operands.size(); ++i)
      if (m.operands[i].role == OperandRole::In)
        return r.fail("field '" + index("operands", i) + ".role': operand '" +
                      m.operands[i].name +
                      "' has role 'in', but op has no epilogue to read it");
    return true;
  }
  // A batch (kept): matrix inputs hold a matrix per batch entry, [batch,
  // m, n] or [b0, b1, m, n]; rows, columns and scalars are shared by the
  // whole batch.
  bool batchedInputs = m.op.batch > 1 && !m.op.batchReduce;
  const std::string path = "op.epilogue";
  std::vector<std::string> types = {dtypeName(e->matmulDType)};
  for (size_t i = 0; i < e->inputs.size(); ++i) {
    const EpilogueInput &input = e->inputs[i];
    std::string at = index(path + ".inputs", i);
    const Operand *o = m.findOperand(input.operand);
    if (!o)
      return r.fail("field '" + at + ".operand': no operand named '" +
                    input.operand + "'");
    if (input.kind == EpilogueInputKind::Product) {
      // Not a tensor read: a dual GEMM's A B2, rounded like value 0.
      // (checkMatmul says more for a matmul; this covers the other kinds.)
      if (!m.op.dual || o->role != OperandRole::Rhs2)
        return r.fail("field '" + at +
                      ".kind': a product input names the "
                      "rhs2 operand of a dual GEMM (op.dual), got operand '" +
                      o->name + "' (role '" + roleName(o->role) + "')" +
                      (m.op.dual ? "" : " without op.dual"));
      types.push_back(dtypeName(e->matmulDType));
      continue;
    }
    if (o->role != OperandRole::In)
      return r.fail("field '" + at + ".operand': operand '" + o->name +
                    "' has role '" + roleName(o->role) +
                    "' (epilogue inputs have role 'in')");
    for (size_t j = 0; j < i; ++j)
      if (e->inputs[j].operand == input.operand)
        return r.fail("field '" + at + ".operand': operand '" + o->name +
                      "' is already " + index(path + ".inputs", j));
    if (!isFloat(o->dtype))
      return r.fail("field '" + at + ".operand': operand '" + o->name +
                    "' has dtype " + dtypeName(o->dtype) +
                    " (epilogue inputs are f16, bf16, f32 or f64)");
    std::vector<int64_t> shape;
    std::string sizes = "[]";
    switch (input.kind) {
    case EpilogueInputKind::Scalar:
      break;
    case EpilogueInputKind::Row:
      shape = {m.op.n}, sizes = "[n]";
      break;
    case EpilogueInputKind::Col:
      shape = {m.op.m}, sizes = "[m]";
      break;
    case EpilogueInputKind::Matrix:
      if (batchedInputs && !m.op.batchShape.empty()) {
        shape = m.op.batchShape;
        shape.push_back(m.op.m);
        shape.push_back(m.op.n);
        sizes = "[" + batchDimNames(m.op.batchShape.size()) + "m, n]";
      } else if (batchedInputs)
        shape = {m.op.batch, m.op.m, m.op.n}, sizes = "[batch, m, n]";
      else
        shape = {m.op.m, m.op.n}, sizes = "[m, n]";
      break;
    case EpilogueInputKind::Product: // Taken above.
      break;
    }
    if (o->shape != shape)
      return r.fail("field '" + at + "': a " +
                    epilogueInputKindName(input.kind) + " input needs shape " +
                    sizes + " = " + formatDims(shape) + ", but operand '" +
                    o->name + "' has shape " + formatDims(o->shape));
    types.push_back(dtypeName(o->dtype));
  }
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    if (o.role != OperandRole::In)
      continue;
    bool used = false;
    for (const EpilogueInput &input : e->inputs)
      used |= input.operand == o.name;
    if (!used)
      return r.fail("field '" + index("operands", i) + ".role': operand '" +
                    o.name +
                    "' has role 'in' but is not an input of op.epilogue");
  }
  for (size_t i = 0; i < e->steps.size(); ++i)
    if (!checkStepTypes(r, e->steps[i], index(path + ".ops", i), types))
      return false;
  const std::string &resultType = types[e->result];
  std::string result =
      "field 'op.epilogue.result': value " + std::to_string(e->result) + " is ";
  if (resultType == "i1")
    return r.fail(result + "i1, but the result must be a float");
  const Operand *out = m.findResult();
  if (out && resultType != dtypeName(out->dtype))
    return r.fail(result + resultType + ", but the result operand '" +
                  out->name + "' is " + dtypeName(out->dtype));
  return true;
}
/// Checks the sizes fixed at launch (-1): only in a manifest whose op has
/// one (then shapes may name them and strides may be -1, taken from the
/// tensors), never in op.batch, op.k2, a matrix input of an epilogue, a
/// prologue, a pack, or a grid that is not the persistent one-block-per-SM
/// grid.
bool checkDynamic(FieldReader &r, const Manifest &m) {
  bool dynamic = m.isDynamic();
  auto needsDynamicOp = [&](const std::string &field) {
    return r.fail("field '" + field +
                  "' is -1 (fixed at launch), but op.m, op.n and op.k are "
                  "all fixed: only a kernel of sizes fixed at launch takes "
                  "them");
  };
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    std::string path = index("operands", i);
    for (size_t d = 0; d < o.shape.size(); ++d) {
      if (!dynamic && o.shape[d] == kDynamicSize)
        return needsDynamicOp(index(path + ".shape", d));
      if (!dynamic && o.strides[d] == kDynamicSize)
        return needsDynamicOp(index(path + ".strides", d));
    }
  }
  if (!dynamic) {
    // A grouped product's kernel is persistent whatever its sizes: its
    // tiles are counted on the device.
    if (m.launch.grid[0] == kDynamicSize && m.op.groups == 0)
      return needsDynamicOp("launch.grid[0]");
    return true;
  }
  auto refuse = [&](const std::string &what) {
    return r.fail("op: sizes fixed at launch (-1) are not supported with " +
                  what);
  };
  if (m.op.kind != "matmul")
    return refuse("op.kind '" + m.op.kind + "'");
  if (m.op.k2 > 0)
    return refuse("a second product (op.k2)");
  // Scalar, row and column inputs have the run-time n or m; a matrix
  // input's row stride is passed too (a stride param of its dimension 0).
  auto hasRowStride = [&](const std::string &operand) {
    for (const Param &p : m.params)
      if (p.kind == "stride" && p.operand == operand && p.dim == 0)
        return true;
    return false;
  };
  if (m.op.epilogue)
    for (const EpilogueInput &in : m.op.epilogue->inputs)
      if (in.kind == EpilogueInputKind::Matrix && !hasRowStride(in.operand))
        return refuse("a matrix input of the fused epilogue without a "
                      "stride param of its rows (operand '" +
                      in.operand + "')");
  if (m.op.accumulate && !hasRowStride("C"))
    return refuse("C += A*B (op.accumulate) without a stride param of C's "
                  "rows");
  if (m.op.prologue)
    return refuse("a fused prologue (op.prologue)");
  if (!m.packs.empty())
    return refuse("packs");
  if (!m.launch.persistent || m.launch.grid[0] != kDynamicSize)
    return r.fail("field 'launch.grid': a kernel of sizes fixed at launch "
                  "is persistent with grid[0] = -1 (one block per SM)");
  return true;
}
} // namespace

std::string tcgen::parseManifest(std::string_view text, Manifest &out) {
  Value root;
  std::string jsonError = json::parse(text, root);
  if (!jsonError.empty())
    return jsonError;
  if (!root.isObject())
    return std::string("manifest must be a JSON object, got ") +
           json::kindName(root.getKind());

  Manifest m;
  m.format.clear();
  FieldReader r;
  if (!r.string(root, "", "format", m.format, true))
    return r.error;
  if (m.format == "tcgen.raw-kernel")
    return "field 'format': a raw kernel's manifest (tcgen reschedule); "
           "tcgen-gpu reschedule-check runs it";
  if (m.format != "tcgen.bundle")
    return "field 'format': expected \"tcgen.bundle\", got \"" + m.format +
           "\"";
  if (!r.integer(root, "", "version", m.version, true))
    return r.error;
  if (m.version != 1)
    return "field 'version': unsupported manifest version " +
           std::to_string(m.version) + " (this runtime reads version 1)";
  if (!r.string(root, "", "entry", m.entry, true) ||
      !r.string(root, "", "cubin", m.cubin, false) ||
      !r.string(root, "", "ptx", m.ptx, false))
    return r.error;
  if (m.entry.empty())
    return "field 'entry' must not be empty";
  if (m.cubin.empty() && m.ptx.empty())
    return "missing required field 'cubin' or 'ptx'";
  if (!parseTarget(r, root, m.target) || !parseOp(r, root, m.op) ||
      !parseOperands(r, root, m) || !parseParams(r, root, m) ||
      !parsePacks(r, root, m) || !parseLaunch(r, root, m.launch) || !parseResources(r, root, m.resources))
    return r.error;
  if (const Value *config = root.get("config")) {
    if (!config->isObject())
      return "field 'config' must be an object, got " +
             std::string(json::kindName(config->getKind()));
    m.config = *config;
  }
  if ((m.op.kind == "matmul" && (!checkMatmul(r, m) || !checkBlockScales(r, m))) || !checkEpilogue(r, m) ||
      !checkPrologue(r, m) || !checkDynamic(r, m))
    return r.error;
  out = std::move(m);
  return "";
}

std::string tcgen::loadManifest(const std::string &path, Manifest &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return path + ": cannot open manifest";
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad())
    return path + ": cannot read manifest";
  std::string error = parseManifest(buffer.str(), out);
  return error.empty() ? "" : path + ": " + error;
}

std::string tcgen::listManifests(const std::string &path,
                                 std::vector<std::string> &manifests) {
  namespace fs = std::filesystem;
  manifests.clear();
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    return path + ": bundle not found";
  if (fs::is_regular_file(status)) {
    manifests.push_back(path);
    return "";
  }
  if (!fs::is_directory(status))
    return path + ": not a bundle directory or manifest file";
  for (fs::directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".json")
      manifests.push_back(it->path().string());
  if (ec)
    return path + ": cannot list directory: " + ec.message();
  if (manifests.empty())
    return path + ": no manifest (*.json) in bundle directory";
  std::sort(manifests.begin(), manifests.end());
  return "";
}

std::string tcgen::findManifest(const std::string &path,
                                std::string &manifestPath) {
  std::vector<std::string> found;
  std::string error = listManifests(path, found);
  if (!error.empty())
    return error;
  if (found.size() > 1)
    return path + ": " + std::to_string(found.size()) +
           " manifests (*.json) in bundle directory; pass one of them";
  manifestPath = found.front();
  return "";
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

/// A "constant" step's value: non-finite values as strings (JSON has no
/// infinities or NaNs).
static Value constantToJson(double value) {
  if (std::isnan(value))
    return Value("nan");
  if (std::isinf(value))
    return Value(value > 0 ? "inf" : "-inf");
  return Value(value);
}

static Value epilogueToJson(const Epilogue &e) {
  Value v = Value::object();
  v.set("matmul_dtype", dtypeName(e.matmulDType));
  Value inputs = Value::array();
  for (const EpilogueInput &input : e.inputs) {
    Value in = Value::object();
    in.set("operand", input.operand);
    in.set("kind", epilogueInputKindName(input.kind));
    inputs.push(std::move(in));
  }
  v.set("inputs", std::move(inputs));
  Value ops = Value::array();
  for (const EpilogueStep &step : e.steps) {
    Value op = Value::object();
    op.set("op", step.op);
    op.set("args", Value::intArray(step.args));
    op.set("dtype", step.dtype);
    if (step.op == "constant")
      op.set("value", constantToJson(step.value));
    if (step.op == "cmpf")
      op.set("predicate", step.predicate);
    ops.push(std::move(op));
  }
  v.set("ops", std::move(ops));
  v.set("result", e.result);
  return v;
}

static Value prologueToJson(const Prologue &p) {
  // The body's JSON without its (empty) inputs, under the prologue's names.
  Value body = epilogueToJson(p.body);
  Value v = Value::object();
  v.set("operand", p.operand);
  v.set("dtype", dtypeName(p.body.matmulDType));
  v.set("ops", *body.get("ops"));
  v.set("result", p.body.result);
  return v;
}

static Value dim3ToJson(const std::array<int64_t, 3> &d) {
  return Value::intArray({d[0], d[1], d[2]});
}

Value tcgen::manifestToJson(const Manifest &m) {
  Value root = Value::object();
  root.set("format", m.format);
  root.set("version", m.version);
  root.set("entry", m.entry);
  if (!m.cubin.empty())
    root.set("cubin", m.cubin);
  if (!m.ptx.empty())
    root.set("ptx", m.ptx);

  Value target = Value::object();
  target.set("arch", m.target.arch);
  target.set("backend", m.target.backend);
  target.set("min_cc", m.target.minCC);
  root.set("target", std::move(target));

  Value op = Value::object();
  op.set("kind", m.op.kind);
  op.set("batch", m.op.batch);
  if (m.op.batchReduce)
    op.set("batch_reduce", true);
  if (m.op.groups > 0)
    op.set("groups", m.op.groups);
  if (!m.op.batchShape.empty()) {
    Value shape = Value::array();
    for (int64_t e : m.op.batchShape)
      shape.push(e);
    op.set("batch_shape", std::move(shape));
  }
  op.set("m", m.op.m);
  op.set("n", m.op.n);
  if (m.op.kind == "matmul" || m.op.k != 0)
    op.set("k", m.op.k);
  if (m.op.k2 > 0)
    op.set("k2", m.op.k2);
  if (m.op.dual)
    op.set("dual", true);
  if (m.op.tf32)
    op.set("tf32", true);
  op.set("accumulate", m.op.accumulate);
  op.set("accumulator", dtypeName(m.op.accumulator));
  if (m.op.epilogue)
    op.set("epilogue", epilogueToJson(*m.op.epilogue));
  if (m.op.prologue)
    op.set("prologue", prologueToJson(*m.op.prologue));
  if (m.op.blockScales) {
    Value scales = Value::object();
    for (auto [key, dims] :
         {std::pair<const char *, const std::vector<int64_t> *>{
              "a", &m.op.blockScales->a},
          {"b", &m.op.blockScales->b}}) {
      Value list = Value::array();
      for (int64_t d : *dims)
        list.push(d);
      scales.set(key, std::move(list));
    }
    op.set("block_scales", std::move(scales));
  }
  root.set("op", std::move(op));

  Value operands = Value::array();
  for (const Operand &o : m.operands) {
    Value v = Value::object();
    v.set("name", o.name);
    v.set("role", roleName(o.role));
    v.set("dtype", dtypeName(o.dtype));
    v.set("shape", Value::intArray(o.shape));
    v.set("strides", Value::intArray(o.strides));
    v.set("align_bytes", o.alignBytes);
    operands.push(std::move(v));
  }
  root.set("operands", std::move(operands));

  Value params = Value::array();
  for (const Param &p : m.params) {
    Value v = Value::object();
    v.set("kind", p.kind);
    if (!p.operand.empty())
      v.set("operand", p.operand);
    if (!p.value.empty())
      v.set("value", p.value);
    if (p.kind == "tensormap") {
      v.set("box", Value::intArray(p.box));
      v.set("swizzle", p.swizzle);
      v.set("l2_promotion", p.l2Promotion);
      v.set("oob_fill", p.oobFill);
    }
    if (p.kind == "workspace")
      v.set("bytes_per_block", p.bytesPerBlock);
    if (p.kind == "stride")
      v.set("dim", p.dim);
    params.push(std::move(v));
  }
  root.set("params", std::move(params));

  if (!m.packs.empty()) {
    Value packs = Value::array();
    for (const Pack &p : m.packs) {
      Value v = Value::object();
      v.set("operand", p.operand);
      v.set("entry", p.entry);
      v.set("strides", Value::intArray(p.strides));
      v.set("grid", dim3ToJson(p.grid));
      v.set("block", dim3ToJson(p.block));
      packs.push(std::move(v));
    }
    root.set("packs", std::move(packs));
  }

  Value launch = Value::object();
  launch.set("grid", dim3ToJson(m.launch.grid));
  launch.set("block", dim3ToJson(m.launch.block));
  launch.set("cluster", dim3ToJson(m.launch.cluster));
  launch.set("dynamic_smem_bytes", m.launch.dynamicSmemBytes);
  if (m.launch.persistent)
    launch.set("persistent", true);
  if (m.launch.streamK)
    launch.set("stream_k", true);
  if (m.launch.streamKBlocks > 0)
    launch.set("stream_k_blocks", m.launch.streamKBlocks);
  Value formula = Value::array();
  for (const std::string &f : m.launch.gridFormula)
    formula.push(f);
  launch.set("grid_formula", std::move(formula));
  root.set("launch", std::move(launch));

  Value resources = Value::object();
  resources.set("registers", m.resources.registers);
  resources.set("spill_bytes", m.resources.spillBytes);
  resources.set("static_smem_bytes", m.resources.staticSmemBytes);
  root.set("resources", std::move(resources));

  root.set("config", m.config.isObject() ? m.config : Value::object());
  return root;
}

std::string tcgen::writeManifest(const Manifest &manifest) {
  return json::print(manifestToJson(manifest), /*pretty=*/true);
}
