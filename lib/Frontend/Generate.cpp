//===- Generate.cpp - Random contraction problems as specs ------*- C++ -*-===//
//
// This file implements the random-problem generator (Generate.h): a
// counter-based random stream per problem (splitmix64 of the seed and the
// index, so no draw depends on the standard library's distributions), and
// one draw per feature.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/Generate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::tcgen;
using llvm::StringRef;

namespace {

/// splitmix64: small, fast and the same on every platform.
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// A value in [0, n).
  uint64_t below(uint64_t n) { return next() % n; }
  /// A value in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) {
    return lo + int64_t(below(uint64_t(hi - lo + 1)));
  }
  /// True with probability `p`.
  bool chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }
  template <typename T> const T &pick(const std::vector<T> &values) {
    return values[below(values.size())];
  }

private:
  uint64_t state;
};

bool isPrime(int64_t v) {
  if (v < 2)
    return false;
  for (int64_t d = 2; d * d <= v; ++d)
    if (v % d == 0)
      return false;
  return true;
}

bool isPow2PlusMinus1(int64_t v) {
  for (int64_t p = 4; p <= (int64_t(1) << 20); p *= 2)
    if (v == p - 1 || v == p + 1)
      return true;
  return false;
}

/// The size classes a value falls in ("size:prime", ...).
void classifySize(int64_t v, std::set<std::string> &forms) {
  if (v == 1)
    forms.insert("size:1");
  if (isPrime(v))
    forms.insert("size:prime");
  if (isPow2PlusMinus1(v))
    forms.insert("size:2^k+-1");
  if (v % 16 == 0)
    forms.insert("size:mult16");
  else if (v % 8 == 0)
    forms.insert("size:mult8");
  if (v % 2 == 1 && v > 1)
    forms.insert("size:odd");
}

const std::vector<std::string> kKinds = {
    "layout",     "batch",   "contract2", "dtype",   "epilogue",   "prologue",
    "accumulate", "dynamic", "config",    "grouped", "blockscale", "dual"};
/// The kinds drawn only where --kinds names them, each instead of the
/// problem the other kinds draw.
const std::vector<std::string> kNamedOnlyKinds = {"grouped", "dual"};
const std::vector<std::string> kBinaryOps = {"+", "-", "*", "/", "max", "min"};
const std::vector<std::string> kUnaryFns = {
    "relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid", "tanh", "exp"};
const std::vector<std::string> kCasts = {"f16", "bf16", "f32"};
const std::vector<std::string> kLiterals = {"0.5", "2",   "1e-3", "0.044715",
                                            "3",   ".25", "1.5"};
const std::vector<std::string> kOperandKinds = {"scalar", "row", "column",
                                                "matrix"};
const std::vector<std::string> kOutTypes = {"f32", "f16", "bf16"};
/// Prologues and the operand each transforms.
const std::vector<std::pair<std::string, char>> kPrologues = {
    {"relu(a)", 'a'},      {"relu(b)", 'b'}, {"max(a, 0.5)", 'a'},
    {"-b", 'b'},           {"a * 2", 'a'},   {"tanh(a)", 'a'},
    {"gelu_tanh(b)", 'b'}, {"silu(a)", 'a'}, {"min(b, 1)", 'b'}};
const std::vector<std::string> kConfigs = {"block-tile", "stages", "cluster",
                                           "stream-k",   "swap",   "pack",
                                           "store",      "backend"};
/// A dual GEMM's epilogues by name (each reads acc and acc2): `F` is a
/// unary function, `X` an operand, `L` a literal; "random" is a drawn
/// expression over acc, acc2, literals and operands.
const std::vector<std::pair<std::string, std::string>> kDualEpilogues = {
    {"gate", "F(acc) * acc2"},             // SwiGLU, GeGLU: silu(acc) * acc2
    {"gate-operand", "F(acc + X) * acc2"}, // relu(acc + bias[n]) * acc2
    {"gate2", "acc * F(acc2)"},            // acc * sigmoid(acc2)
    {"difference", "acc - acc2"},
    {"mean", "(acc + acc2) * L + X"}, // (acc + acc2) * 0.5 + res[m,n]
    {"random", ""}};

/// The draws of one problem.
class ProblemDraw {
public:
  ProblemDraw(const GenerateOptions &options, unsigned index)
      : options(options),
        rng(options.seed * 0x100000001b3ULL ^ (uint64_t(index) << 1 | 1)) {
    problem.name = llvm::formatv("s{0}_{1:d4}", options.seed, index).str();
  }
  GeneratedProblem draw();

private:
  bool on(const std::string &kind) const {
    return options.kinds.empty() || options.kinds.count(kind);
  }
  void form(const std::string &f) { problem.forms.insert(f); }
  void drawShape();
  int64_t drawSize();
  void drawSizes();
  void drawDtypes();
  std::string drawExpr(int depth);
  std::string drawLeaf();
  std::string drawOperand();
  void drawEpilogue();
  void drawConfig();
  void drawKnob();
  void drawGrouped();
  void drawDual();
  void drawBlockScaled();

  const GenerateOptions &options;
  Rng rng;
  GeneratedProblem problem;
  std::string batch;   ///< the batch indices ("", "b", "bh")
  std::string a, b, c; ///< the einsum's operands
  std::string loops;   ///< every index: batch, m, n, then contracted
  std::map<char, int64_t> sizes;
  std::string aType = "f16", cType = "f32";
  bool tf32 = false, accumulate = false;
  bool dual = false; ///< a leaf of the epilogue may be acc2
  /// The epilogue's operands: name -> how it is written.
  std::map<std::string, std::string> operands;
  std::vector<std::string> dtypes; ///< entries of --dtypes
};

} // namespace

void ProblemDraw::drawShape() {
  if (on("batch") && rng.chance(0.35)) {
    batch = rng.chance(0.3) ? "bh" : "b";
    form(batch.size() == 2 ? "batch:two" : "batch:one");
  }
  bool twoK = on("contract2") && batch.empty() && rng.chance(0.15);
  std::string k = twoK ? "kl" : "k";
  if (twoK)
    form("contract:two");
  bool aKm = on("layout") && rng.chance(0.3);
  bool bNk = on("layout") && rng.chance(0.4);
  bool cNm = on("layout") && rng.chance(0.2);
  form(aKm ? "layout:a=km" : "layout:a=mk");
  form(bNk ? "layout:b=nk" : "layout:b=kn");
  form(cNm ? "layout:c=nm" : "layout:c=mn");
  std::string bK = twoK && rng.chance(0.5) ? "lk" : k;
  a = aKm ? k + "m" : "m" + k;
  b = bNk ? "n" + bK : bK + "n";
  c = cNm ? "nm" : "mn";
  std::string aBatch = batch, bBatch = batch;
  if (batch.size() == 1 && rng.chance(0.25)) {
    // A broadcast batch: B is shared by every batch entry.
    bBatch = "";
    form("batch:broadcast");
  }
  if (batch.size() == 1 && !aKm && rng.chance(0.2)) {
    a = "m" + batch + k; // A[m][b][k]: [seq, batch, features]
    aBatch = "";
    form("batch:inner");
  }
  a = aBatch + a;
  b = bBatch + b;
  c = batch + c;
  loops = batch + "mn" + k;
  problem.spec.einsum = a + "," + b + "->" + c;
}

int64_t ProblemDraw::drawSize() {
  static const std::vector<int64_t> primes = {
      2, 3, 5, 7, 11, 13, 17, 31, 61, 67, 127, 131, 251, 257, 509, 521, 1021};
  switch (rng.below(7)) {
  case 0:
    return 1;
  case 1:
    return rng.pick(primes);
  case 2: {
    int64_t p = int64_t(1) << rng.between(2, 11);
    return rng.chance(0.5) ? p - 1 : p + 1;
  }
  case 3:
    return 8 * rng.between(1, 128);
  case 4:
    return 16 * rng.between(1, 128);
  case 5:
    return 2 * rng.between(0, 700) + 1;
  default:
    return int64_t(1) << rng.between(4, 12);
  }
}

void ProblemDraw::drawSizes() {
  for (char i : batch) {
    sizes[i] = rng.chance(0.25)
                   ? 1
                   : rng.pick(std::vector<int64_t>{2, 3, 4, 5, 7, 8, 16});
    if (sizes[i] == 1)
      form("batch:extent1");
  }
  for (char i : StringRef(loops).drop_front(batch.size()))
    sizes[i] = drawSize();
  // Keep the problem small enough to check quickly: shrink the largest
  // matrix dimension until the multiply-adds fit.
  auto flops = [&] {
    int64_t f = 1;
    for (auto &[i, s] : sizes)
      f *= s;
    return f;
  };
  while (flops() > options.maxFlops) {
    char largest = 'm';
    for (char i : StringRef(loops).drop_front(batch.size()))
      if (sizes[i] > sizes[largest])
        largest = i;
    sizes[largest] = (sizes[largest] + 1) / 2;
  }
  std::set<char> dynamic;
  if (on("dynamic") && rng.chance(0.15)) {
    for (char i : StringRef("mnk"))
      if (rng.chance(0.6))
        dynamic.insert(i);
    if (dynamic.empty())
      dynamic.insert("mnk"[rng.below(3)]);
    form("size:dynamic");
  }
  std::vector<std::string> entries;
  for (char i : loops) {
    if (dynamic.count(i)) {
      entries.push_back(std::string(1, i) + "=?");
      continue;
    }
    if (batch.find(i) == std::string::npos)
      classifySize(sizes[i], problem.forms);
    entries.push_back(std::string(1, i) + "=" + std::to_string(sizes[i]));
  }
  problem.spec.sizes = llvm::join(entries, ",");
}

void ProblemDraw::drawDtypes() {
  if (on("dtype")) {
    uint64_t r = rng.below(20);
    aType = r < 7 ? "f16" : r < 13 ? "bf16" : r < 17 ? "f32" : "e4m3";
    cType = rng.pick(kOutTypes);
  }
  form("dtype:a=" + aType);
  if (aType == "f32" && rng.chance(0.8)) {
    tf32 = true;
    problem.flags.push_back("--allow-tf32");
  }
  if (on("accumulate") && rng.chance(0.12)) {
    // C += A B in C's dtype, which A's dtype must convert to exactly.
    accumulate = true;
    if (aType != "f16" && aType != "bf16")
      cType = "f32";
    else if (cType != "f32")
      cType = aType;
    problem.spec.accumulate = true;
    form("accumulate");
  }
  form("dtype:c=" + cType);
  if (aType != "f16")
    dtypes.push_back("a=" + aType);
  if (cType != "f32")
    dtypes.push_back("c=" + cType);
  if (aType == "f16" && !accumulate && on("dtype") && rng.chance(0.1)) {
    dtypes.push_back("acc=f16");
    form("dtype:acc=f16");
  }
}

std::string ProblemDraw::drawOperand() {
  std::string kind = rng.pick(kOperandKinds);
  form("epilogue:operand:" + kind);
  std::string name, text;
  if (kind == "scalar") {
    name = rng.chance(0.5) ? "alpha" : "beta";
    text = rng.chance(0.5) ? name : name + "[]";
  } else if (kind == "row") {
    name = "bias";
    text = "bias[n]";
  } else if (kind == "column") {
    name = "scale";
    text = "scale[m]";
  } else {
    name = "res";
    text =
        "res[" +
        llvm::join(llvm::map_range(c, [](char i) { return std::string(1, i); }),
                   ",") +
        "]";
  }
  // One operand is read at one index list: a scalar written both ways is
  // still one scalar.
  if (!operands.count(name))
    operands[name] = text;
  return text;
}

std::string ProblemDraw::drawLeaf() {
  uint64_t r = rng.below(10);
  if (r < 4)
    return dual && rng.chance(0.5) ? "acc2" : "acc";
  if (r < 6) {
    form("epilogue:literal");
    return rng.pick(kLiterals);
  }
  return drawOperand();
}

std::string ProblemDraw::drawExpr(int depth) {
  if (depth == 0 || rng.chance(0.3))
    return drawLeaf();
  uint64_t r = rng.below(10);
  if (r < 5) {
    std::string op = rng.pick(kBinaryOps);
    form("epilogue:op:" + op);
    std::string lhs = drawExpr(depth - 1);
    // Divide by something away from 0: the checks compare with float64.
    std::string rhs =
        op == "/"
            ? (rng.chance(0.5) ? rng.pick(kLiterals)
                               : "(2 + sigmoid(" + drawExpr(depth - 1) + "))")
            : drawExpr(depth - 1);
    if (op == "max" || op == "min")
      return op + "(" + lhs + ", " + rhs + ")";
    return "(" + lhs + " " + op + " " + rhs + ")";
  }
  if (r < 8) {
    std::string fn = rng.pick(kUnaryFns);
    form("epilogue:fn:" + fn);
    return fn + "(" + drawExpr(depth - 1) + ")";
  }
  if (r < 9) {
    std::string cast = rng.pick(kCasts);
    form("epilogue:cast:" + cast);
    return cast + "(" + drawExpr(depth - 1) + ")";
  }
  form("epilogue:op:neg");
  return "-" + drawExpr(depth - 1);
}

void ProblemDraw::drawEpilogue() {
  bool fp8 = aType == "e4m3";
  if (fp8 && !accumulate && rng.chance(0.7)) {
    // Per-tensor scales, as fp8 GEMMs apply them.
    problem.spec.epilogue = "acc * sa * sb";
    operands["sa"] = "sa";
    operands["sb"] = "sb";
    dtypes.push_back("sa=f32");
    dtypes.push_back("sb=f32");
    form("epilogue:fp8-scales");
    return;
  }
  if (accumulate || !on("epilogue") || !rng.chance(0.45))
    return;
  std::string e = drawExpr(int(rng.between(1, 3)));
  if (e.find("acc") == std::string::npos)
    e = "acc + " + e;
  problem.spec.epilogue = e;
  for (auto &[name, text] : operands)
    if (name != "sa" && name != "sb" && rng.chance(0.4)) {
      std::string type = rng.pick(kOutTypes);
      dtypes.push_back(name + "=" + type);
      form("epilogue:operand-dtype:" + type);
    }
}

void ProblemDraw::drawConfig() {
  if (on("prologue") && !accumulate && rng.chance(0.15)) {
    const auto &[text, operand] = rng.pick(kPrologues);
    problem.spec.prologues.push_back(text);
    form(std::string("prologue:") + operand);
  }
  if (!on("config") || !rng.chance(0.3))
    return;
  unsigned n = 1 + unsigned(rng.chance(0.3));
  for (unsigned i = 0; i < n; ++i)
    drawKnob();
  // One value per option: the last draw of a knob wins.
  std::map<std::string, std::string> last;
  for (const std::string &f : problem.flags)
    last[f.substr(0, f.find('='))] = f;
  std::vector<std::string> unique;
  for (const std::string &f : problem.flags)
    if (last[f.substr(0, f.find('='))] == f && !llvm::is_contained(unique, f))
      unique.push_back(f);
  problem.flags = unique;
}

void ProblemDraw::drawKnob() {
  std::string knob = rng.pick(kConfigs);
  form("config:" + knob);
  std::vector<std::string> &flags = problem.flags;
  if (knob == "block-tile") {
    int64_t bk = aType == "f32" ? 32 : aType == "e4m3" ? 128 : 64;
    flags.push_back(
        llvm::formatv("--block-tile={0},{1},{2}",
                      rng.pick(std::vector<int64_t>{64, 128}),
                      rng.pick(std::vector<int64_t>{64, 128, 192, 256}), bk)
            .str());
  } else if (knob == "stages") {
    flags.push_back("--stages=" + std::to_string(rng.between(2, 5)));
  } else if (knob == "cluster") {
    flags.push_back(rng.chance(0.5) ? "--cluster=2,1" : "--cluster=1,2");
  } else if (knob == "stream-k") {
    flags.push_back("--stream-k=1");
  } else if (knob == "swap") {
    flags.push_back("--swap=1");
  } else if (knob == "pack") {
    flags.push_back(rng.chance(0.5) ? "--pack=always" : "--pack=async");
  } else if (knob == "store") {
    flags.push_back(rng.chance(0.5) ? "--store=global" : "--store=tma");
  } else {
    // A back end other than sm90 where it takes the dtypes.
    std::string backend = aType == "f32"   ? "simt"
                          : aType == "f16" ? (rng.chance(0.5) ? "sm80" : "wmma")
                          : aType == "bf16" ? "sm80"
                                            : "sm90";
    if (backend == "simt" && tf32)
      llvm::erase(flags, "--allow-tf32");
    flags.push_back("--backend=" + backend);
    form("config:backend=" + backend);
  }
}

/// A grouped product (mixtures of experts, `--group g`): B [g, n, k] or
/// [g, k, n], T known at launch or here, K (and N for [g, k, n]) multiples
/// of 8 (TMA's 16-byte rows), 16-bit inputs, C of any float dtype, i32 or
/// i64 offsets, sometimes an epilogue of acc alone.
void ProblemDraw::drawGrouped() {
  bool kn = rng.chance(0.3);
  problem.spec.einsum = kn ? "tk,gkn->tn" : "tk,gnk->tn";
  problem.spec.group = "g";
  form(kn ? "grouped:b=gkn" : "grouped:b=gnk");
  int64_t t = rng.chance(0.3) ? rng.between(1, 64) : rng.between(1, 4096);
  int64_t n = kn ? 8 * rng.between(1, 96) : rng.between(1, 768);
  int64_t k = 8 * rng.between(1, 96);
  int64_t g = rng.between(1, 16);
  while (t * n * k > options.maxFlops && t > 1)
    t = (t + 1) / 2;
  bool dynamic = rng.chance(0.6);
  if (dynamic)
    form("grouped:t=?");
  problem.spec.sizes = llvm::formatv("t={0},n={1},k={2},g={3}",
                                     dynamic ? "?" : std::to_string(t), n, k, g)
                           .str();
  aType = rng.chance(0.5) ? "f16" : "bf16";
  cType = rng.pick(kOutTypes);
  dtypes = {"a=" + aType, "c=" + cType};
  if (rng.chance(0.3)) {
    dtypes.push_back("offsets=i64");
    form("grouped:offsets=i64");
  }
  problem.spec.dtypes = llvm::join(dtypes, ",");
  if (rng.chance(0.4)) {
    const std::string &fn = rng.pick(kUnaryFns);
    problem.spec.epilogue = fn + "(acc)";
    form("grouped:epilogue");
  }
}

/// Whether `expr` reads `acc` (or, with `second`, `acc2`).
static bool readsAcc(StringRef expr, bool second) {
  for (size_t at = expr.find("acc"); at != StringRef::npos;
       at = expr.find("acc", at + 3)) {
    StringRef rest = expr.drop_front(at + 3);
    bool isSecond = rest.starts_with("2");
    if (isSecond == second)
      return true;
  }
  return false;
}

/// A dual GEMM (gated MLPs, `--epilogue` reading acc2): A [m][k] (or,
/// a quarter of the time, [k][m]), B and B2 [n][k] or [k][n], C [m][n]; M, N and K drawn as a plain product's
/// (odd ones too: the sm90 kernel refuses rows TMA cannot read, with a
/// located error) with both products within the cap; f16 or bf16 in
/// (sometimes named for b or b2 as well), C of any float dtype; an
/// epilogue of kDualEpilogues; sometimes one forced configuration, some
/// of which the kernel refuses.
void ProblemDraw::drawDual() {
  dual = true;
  bool nk = rng.chance(0.5);
  // A stored [k][m] now and then: the kernel reads it like one product's.
  bool km = rng.chance(0.25);
  a = km ? "km" : "mk";
  if (km)
    form("dual:a=km");
  b = nk ? "nk" : "kn";
  c = "mn";
  loops = "mnk";
  problem.spec.einsum = a + "," + b + "->" + c;
  form(nk ? "dual:b=nk" : "dual:b=kn");
  for (char i : loops)
    sizes[i] = drawSize();
  // Two products of M x N x K each; shrink the largest as drawSizes does.
  auto largest = [&]() -> int64_t & {
    char l = 'm';
    for (char i : loops)
      if (sizes[i] > sizes[l])
        l = i;
    return sizes[l];
  };
  while (2 * sizes['m'] * sizes['n'] * sizes['k'] > options.maxFlops &&
         largest() > 1)
    largest() = (largest() + 1) / 2;
  for (char i : loops)
    classifySize(sizes[i], problem.forms);
  problem.spec.sizes =
      llvm::formatv("m={0},n={1},k={2}", sizes['m'], sizes['n'], sizes['k'])
          .str();

  aType = rng.chance(0.5) ? "f16" : "bf16";
  cType = rng.pick(kOutTypes);
  form("dtype:a=" + aType);
  form("dtype:c=" + cType);
  if (aType != "f16")
    dtypes.push_back("a=" + aType);
  if (rng.chance(0.25)) {
    // B2's dtype is B's, which --dtypes may say.
    if (rng.chance(0.5))
      dtypes.push_back("b=" + aType);
    dtypes.push_back("b2=" + aType);
    form("dual:dtypes:b2");
  }
  if (cType != "f32")
    dtypes.push_back("c=" + cType);
  if (aType == "f16" && rng.chance(0.1)) {
    dtypes.push_back("acc=f16");
    form("dtype:acc=f16");
  }

  const auto &[name, pattern] = rng.pick(kDualEpilogues);
  form("dual:epilogue:" + name);
  std::string e;
  if (name == "random") {
    e = drawExpr(int(rng.between(1, 3)));
    if (!readsAcc(e, /*second=*/false))
      e = "acc + " + e;
    if (!readsAcc(e, /*second=*/true))
      e = "(" + e + ") * acc2";
  } else {
    for (char ch : pattern) {
      if (ch == 'F') {
        const std::string &fn = rng.pick(kUnaryFns);
        form("epilogue:fn:" + fn);
        e += fn;
      } else if (ch == 'X') {
        e += drawOperand();
      } else if (ch == 'L') {
        form("epilogue:literal");
        e += rng.pick(kLiterals);
      } else {
        e += ch;
      }
    }
  }
  problem.spec.epilogue = e;
  for (auto &[operand, text] : operands)
    if (rng.chance(0.4)) {
      std::string type = rng.pick(kOutTypes);
      dtypes.push_back(operand + "=" + type);
      form("epilogue:operand-dtype:" + type);
    }
  if (rng.chance(0.25))
    drawKnob();
}

/// Block-scaled fp8 (--block-scales): replaces the problem drawn so far
/// by e4m3 mk,nk->mn with K a multiple of 128, M and N any, C of a drawn
/// dtype, nothing else (the form takes no batch, prologue or C += A B).
void ProblemDraw::drawBlockScaled() {
  problem.forms.clear();
  problem.flags.clear();
  problem.spec = SpecStrings();
  form("blockscale");
  problem.spec.einsum = "mk,nk->mn";
  int64_t k = 128 * rng.between(1, 16);
  int64_t m = drawSize(), n = drawSize();
  while (m * n * k > options.maxFlops)
    (m > n ? m : n) = ((m > n ? m : n) + 1) / 2;
  classifySize(m, problem.forms);
  classifySize(n, problem.forms);
  problem.spec.sizes = llvm::formatv("m={0},n={1},k={2}", m, n, k).str();
  cType = rng.pick(kOutTypes);
  form("dtype:a=e4m3");
  form("dtype:c=" + cType);
  dtypes = {"a=e4m3"};
  if (cType != "f32")
    dtypes.push_back("c=" + cType);
  problem.spec.blockScales = "a=1x128,b=128x128";
}

GeneratedProblem ProblemDraw::draw() {
  // Grouped products only where --kinds names them (one draw, so that a
  // list of the other kinds stays what it was).
  if (options.kinds.count("grouped") &&
      (options.kinds.size() == 1 || rng.chance(0.5))) {
    drawGrouped();
    return problem;
  }
  // Dual GEMMs likewise, from the same stream after the grouped draw;
  // every problem where no other kind is named.
  bool namedOnly = llvm::all_of(options.kinds, [](const std::string &k) {
    return llvm::is_contained(kNamedOnlyKinds, k);
  });
  if (options.kinds.count("dual") && (namedOnly || rng.chance(0.5))) {
    drawDual();
    problem.spec.dtypes = llvm::join(dtypes, ",");
    return problem;
  }
  drawShape();
  drawSizes();
  drawDtypes();
  drawEpilogue();
  drawConfig();
  // Drawn last, from this problem's own stream: the problems before it
  // draw the same as without the kind.
  bool blockScaled = on("blockscale") && rng.chance(0.05);
  if (blockScaled)
    drawBlockScaled();
  problem.spec.dtypes = llvm::join(dtypes, ",");
  if (blockScaled)
    return problem;
  // Combinations that hid defects: a matrix dimension of extent 1 (whose
  // stride says nothing) next to a batch the kernel reads between the
  // matrix dimensions (a summed batch, a batch stored inside), and with a
  // cluster (which splits a shared tile by how the kernel reads it).
  // Recorded, so that the generator's tests see they are still drawn.
  bool unit = llvm::any_of(StringRef(loops).drop_front(batch.size()),
                           [&](char i) { return sizes[i] == 1; });
  if (unit && problem.forms.count("contract:two"))
    form("combo:size1+contract:two");
  if (unit && problem.forms.count("batch:inner"))
    form("combo:size1+batch:inner");
  if (unit && problem.forms.count("config:cluster"))
    form("combo:size1+cluster");
  return problem;
}

const std::vector<std::string> &mlir::tcgen::generatorKinds() { return kKinds; }

std::vector<std::string> mlir::tcgen::generatorForms() {
  std::vector<std::string> forms = {
      "size:1",           "size:prime",          "size:2^k+-1",
      "size:mult8",       "size:mult16",         "size:odd",
      "size:dynamic",     "layout:a=mk",         "layout:a=km",
      "layout:b=kn",      "layout:b=nk",         "layout:c=mn",
      "layout:c=nm",      "batch:one",           "batch:two",
      "batch:extent1",    "batch:broadcast",     "batch:inner",
      "contract:two",     "accumulate",          "dtype:acc=f16",
      "epilogue:literal", "epilogue:fp8-scales", "prologue:a",
      "prologue:b",       "blockscale"};
  // Combinations (ProblemDraw::draw).
  for (const char *combo : {"combo:size1+contract:two",
                            "combo:size1+batch:inner", "combo:size1+cluster"})
    forms.push_back(combo);
  for (const char *t : {"f16", "bf16", "f32", "e4m3"})
    forms.push_back(std::string("dtype:a=") + t);
  for (const std::string &t : kOutTypes) {
    forms.push_back("dtype:c=" + t);
    forms.push_back("epilogue:operand-dtype:" + t);
  }
  for (const std::string &op : kBinaryOps)
    forms.push_back("epilogue:op:" + op);
  forms.push_back("epilogue:op:neg");
  for (const std::string &fn : kUnaryFns)
    forms.push_back("epilogue:fn:" + fn);
  for (const std::string &cast : kCasts)
    forms.push_back("epilogue:cast:" + cast);
  for (const std::string &k : kOperandKinds)
    forms.push_back("epilogue:operand:" + k);
  for (const std::string &k : kConfigs)
    forms.push_back("config:" + k);
  for (const char *b : {"sm80", "wmma", "simt", "sm90"})
    forms.push_back(std::string("config:backend=") + b);
  return forms;
}

std::vector<std::string> mlir::tcgen::generatorDualForms() {
  std::vector<std::string> forms = {"dual:a=km", "dual:b=nk", "dual:b=kn",
                                    "dual:dtypes:b2"};
  for (const auto &[name, pattern] : kDualEpilogues)
    forms.push_back("dual:epilogue:" + name);
  return forms;
}

std::string
mlir::tcgen::unknownGeneratorKind(const std::set<std::string> &kinds) {
  for (const std::string &k : kinds)
    if (!llvm::is_contained(kKinds, k))
      return k;
  return "";
}

GeneratedProblem mlir::tcgen::generateProblem(const GenerateOptions &options,
                                              unsigned index) {
  return ProblemDraw(options, index).draw();
}

std::vector<GeneratedProblem>
mlir::tcgen::generateProblems(const GenerateOptions &options) {
  std::vector<GeneratedProblem> problems;
  for (unsigned i = 0; i < options.count; ++i)
    problems.push_back(generateProblem(options, i));
  return problems;
}

/// `value` as one token of a batch line: in double quotes unless it is
/// made of characters a shell and the batch reader leave alone.
static std::string quoted(const std::string &value) {
  bool plain = llvm::all_of(value, [](char ch) {
    return llvm::isAlnum(ch) || StringRef("_=,.?:+-/").contains(ch);
  });
  return plain && !value.empty() ? value : "\"" + value + "\"";
}

std::string mlir::tcgen::formatBatchLine(const GeneratedProblem &problem) {
  const SpecStrings &s = problem.spec;
  std::string line = problem.name + " --einsum=" + quoted(s.einsum) +
                     " --sizes=" + quoted(s.sizes);
  if (!s.dtypes.empty())
    line += " --dtypes=" + quoted(s.dtypes);
  if (!s.epilogue.empty())
    line += " --epilogue=" + quoted(s.epilogue);
  for (const std::string &p : s.prologues)
    line += " --prologue=" + quoted(p);
  if (s.accumulate)
    line += " --accumulate";
  if (!s.group.empty())
    line += " --group=" + quoted(s.group);
  if (!s.blockScales.empty())
    line += " --block-scales=" + quoted(s.blockScales);
  for (const std::string &f : problem.flags)
    line += " " + quoted(f);
  return line;
}
