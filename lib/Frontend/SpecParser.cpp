//===- SpecParser.cpp - Parse and check einsum specs ------------*- C++ -*-===//
//
// This file implements parseSpec: the einsum string, the sizes, the dtypes
// and the prologue and epilogue expressions of a spec, checked against each
// other, into a ProblemSpec. No MLIR: errors carry the option and column.
//
//===----------------------------------------------------------------------===//

#include "SpecExprParser.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>
#include <map>

using namespace mlir::tcgen;
using llvm::StringRef;

int64_t ProblemSpec::sizeOf(char index) const {
  size_t pos = loops.find(index);
  return pos == std::string::npos ? 0 : sizes[pos];
}

namespace {

/// One `name=value` entry of --sizes or --dtypes, with the columns of its
/// name and value.
struct Entry {
  std::string name, value;
  unsigned nameColumn = 0, valueColumn = 0;
};

/// A dtype given in --dtypes.
struct GivenType {
  SpecType type;
  unsigned column; ///< of the name
};

/// Checks one spec; the steps fill `spec` in order and stop at the first
/// error.
class SpecChecker {
public:
  SpecChecker(const SpecStrings &strings, SpecError &error)
      : strings(strings), error(error) {}
  llvm::FailureOr<ProblemSpec> run();

private:
  LogicalResult fail(StringRef field, unsigned column, std::string message) {
    error = {field.str(), column, std::move(message)};
    return failure();
  }
  /// --name: an identifier.
  LogicalResult checkName();
  /// --einsum: spec.a, b, c and loops, firstColumn.
  LogicalResult parseEinsum();
  /// --group (within the einsum's checks): spec.group, an index of b only.
  LogicalResult parseGroup(const std::string &a, const std::string &b,
                           const std::string &out);
  /// A grouped product's form: A [t, k], B [g, n, k] or [g, k, n], C [t, n],
  /// G known here, and what the grouped kernels do not take yet.
  LogicalResult checkGrouped();
  /// --sizes (after the einsum): spec.sizes, every index's.
  LogicalResult parseSizes();
  /// --dtypes: givenTypes (resolveTypes checks them against the spec).
  LogicalResult parseDtypes();
  /// --epilogue: spec.epilogue and spec.operands.
  LogicalResult parseEpilogue();
  /// Resolves the names of an epilogue: acc, operands at C's indices.
  LogicalResult resolveEpilogue(SpecExpr &e);
  /// One --prologue expression: a spec.prologues entry.
  LogicalResult parsePrologue(const std::string &text);
  /// --block-scales: spec.blockScaled, checked against the einsum, the
  /// sizes, the dtypes and the other options (after resolveTypes).
  LogicalResult parseBlockScales();
  /// Resolves the names of a prologue: `operand` becomes 'a' or 'b'.
  LogicalResult resolvePrologue(SpecExpr &e, char &operand);
  /// A dual GEMM (the epilogue reads acc2): the forms of the einsum, the
  /// sizes and the other options the back end takes with it (after
  /// resolveTypes and parseBlockScales).
  LogicalResult checkDual();
  /// Within checkDual: C [m][n] of A and B, no batch index.
  LogicalResult checkDualEinsum();
  /// The dtypes of A, B, C, the accumulator and the operands: defaults,
  /// clashes, names --dtypes gives that the spec lacks.
  LogicalResult resolveTypes();
  /// Splits `text` of option `field` into `name=value` entries.
  LogicalResult splitEntries(StringRef field, const std::string &text,
                             std::vector<Entry> &entries);

  const SpecStrings &strings;
  SpecError &error;
  ProblemSpec spec;
  /// The column in --einsum where each index first appears.
  std::map<char, unsigned> firstColumn;
  /// The column in --einsum of each index of the output.
  std::vector<unsigned> outputColumns;
  /// The column in --sizes of each index's size.
  std::map<char, unsigned> sizeColumn;
  /// The column in --epilogue of the first `acc2` (0: none).
  unsigned acc2Column = 0;
  /// Where each operand of the epilogue is first read (its column).
  std::map<std::string, unsigned> operandColumn;
  std::map<std::string, GivenType> givenTypes;
};

} // namespace

static bool isLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool isIdentifier(StringRef s) {
  if (s.empty() || !(isLetter(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) {
    return isLetter(c) || c == '_' || (c >= '0' && c <= '9');
  });
}

LogicalResult SpecChecker::checkName() {
  if (strings.name.empty())
    return success();
  if (!isIdentifier(strings.name))
    return fail("--name", 1,
                "'" + strings.name +
                    "' is not a name (a letter or '_', then letters, digits "
                    "or '_')");
  spec.name = strings.name;
  return success();
}

LogicalResult SpecChecker::parseEinsum() {
  const std::string &text = strings.einsum;
  if (text.find_first_not_of(" \t") == std::string::npos)
    return fail("--einsum", 0, "is empty (e.g. mk,kn->mn)");
  size_t arrow = text.find("->");
  if (arrow == std::string::npos)
    return fail("--einsum", text.size() + 1,
                "expected '->' and the output's indices (e.g. mk,kn->mn)");
  // The operands' indices with the column of each.
  std::vector<std::string> inputs(1);
  std::vector<std::vector<unsigned>> columns(1);
  std::vector<unsigned> starts = {1};
  for (size_t i = 0; i < arrow; ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t')
      continue;
    if (c == ',') {
      if (inputs.size() == 2)
        return fail("--einsum", i + 1,
                    "expected two inputs (a,b->c), found a third");
      inputs.emplace_back();
      columns.emplace_back();
      starts.push_back(i + 2);
      continue;
    }
    if (!isLetter(c))
      return fail("--einsum", i + 1,
                  std::string("unexpected character '") + c +
                      "' (indices are letters)");
    inputs.back() += c;
    columns.back().push_back(i + 1);
  }
  if (inputs.size() != 2)
    return fail("--einsum", arrow + 1,
                "expected two inputs separated by ',' (a,b->c)");
  std::string out;
  std::vector<unsigned> outColumns;
  for (size_t i = arrow + 2; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t')
      continue;
    if (!isLetter(c))
      return fail("--einsum", i + 1,
                  std::string("unexpected character '") + c +
                      "' in the output (one operand of letters)");
    out += c;
    outColumns.push_back(i + 1);
  }
  static const char *kNames[] = {"a", "b", "the output"};
  std::string *all[] = {&inputs[0], &inputs[1], &out};
  std::vector<unsigned> *allColumns[] = {&columns[0], &columns[1], &outColumns};
  for (int o = 0; o < 3; ++o) {
    if (all[o]->empty() && o < 2)
      return fail("--einsum", starts[o],
                  std::string("input ") + kNames[o] + " has no indices");
    for (size_t i = 0; i < all[o]->size(); ++i) {
      char c = (*all[o])[i];
      unsigned column = (*allColumns[o])[i];
      if (all[o]->find(c) != i)
        return fail("--einsum", column,
                    std::string("index '") + c + "' appears twice in " +
                        kNames[o] + " (diagonals are not supported)");
      firstColumn.emplace(c, column);
    }
  }
  const std::string &a = inputs[0], &b = inputs[1];
  for (auto [i, c] : llvm::enumerate(out))
    if (a.find(c) == std::string::npos && b.find(c) == std::string::npos)
      return fail("--einsum", outColumns[i],
                  std::string("unknown index '") + c +
                      "': every index of the output must appear in a or b");
  if (failed(parseGroup(a, b, out)))
    return failure();
  for (int o = 0; o < 2; ++o)
    for (auto [i, c] : llvm::enumerate(*all[o]))
      if (c != spec.group && out.find(c) == std::string::npos &&
          all[1 - o]->find(c) == std::string::npos)
        return fail("--einsum", (*allColumns[o])[i],
                    std::string("index '") + c + "' is summed over but " +
                        "appears in " + kNames[o] + " only (a contracted " +
                        "index must appear in both a and b)");
  spec.a = a;
  spec.b = b;
  spec.c = out;
  outputColumns = outColumns;
  spec.loops = out;
  for (char c : a + b)
    if (spec.loops.find(c) == std::string::npos)
      spec.loops += c;
  return success();
}

LogicalResult SpecChecker::splitEntries(StringRef field,
                                        const std::string &text,
                                        std::vector<Entry> &entries) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    StringRef piece = StringRef(text).slice(start, end);
    size_t lead = piece.size() - piece.ltrim().size();
    StringRef item = piece.trim();
    unsigned column = start + lead + 1;
    size_t eq = item.find('=');
    if (item.empty() || eq == StringRef::npos)
      return fail(field, column,
                  "expected 'name=value', found '" + item.str() + "'");
    Entry entry;
    StringRef name = item.take_front(eq).rtrim();
    StringRef value = item.drop_front(eq + 1);
    entry.name = name.str();
    entry.nameColumn = column;
    entry.value = value.trim().str();
    entry.valueColumn = column + eq + 1 + (value.size() - value.ltrim().size());
    if (name.empty())
      return fail(field, column, "expected a name before '='");
    if (entry.value.empty())
      return fail(field, entry.valueColumn,
                  "expected a value after '" + entry.name + "='");
    entries.push_back(std::move(entry));
    start = end + 1;
  }
  return success();
}

LogicalResult SpecChecker::parseGroup(const std::string &a,
                                      const std::string &b,
                                      const std::string &out) {
  StringRef group = StringRef(strings.group).trim();
  if (strings.group.empty())
    return success();
  if (group.size() != 1 || !isLetter(group[0]))
    return fail("--group", 1,
                "'" + strings.group +
                    "' is not an index (the one letter of b that picks a "
                    "group, e.g. g in tk,gnk->tn)");
  char g = group[0];
  if (b.find(g) == std::string::npos)
    return fail("--group", 1,
                std::string("index '") + g +
                    "' is not an index of b (the group index picks one of "
                    "B's matrices, e.g. g in tk,gnk->tn)");
  if (a.find(g) != std::string::npos || out.find(g) != std::string::npos)
    return fail("--einsum", firstColumn[g],
                std::string("the group index '") + g +
                    "' must appear in b only (A and C are the groups' rows "
                    "one after the other, e.g. tk,gnk->tn)");
  spec.group = g;
  return success();
}

LogicalResult SpecChecker::checkGrouped() {
  if (!spec.isGrouped())
    return success();
  const char g = spec.group;
  // A [t, k], C [t, n], B [g, n, k] or [g, k, n].
  if (spec.a.size() != 2 || spec.c.size() != 2 || spec.b.size() != 3)
    return fail("--einsum", 0,
                "a grouped product is A [t, k], B [g, n, k] or [g, k, n] and "
                "C [t, n] (e.g. tk,gnk->tn); other forms are not supported "
                "yet");
  char t = spec.c[0], n = spec.c[1];
  char k = spec.a[0] == t ? spec.a[1] : spec.a[0];
  if (spec.a != std::string{t, k})
    return fail("--einsum", firstColumn[spec.a[0]],
                "a grouped product reads A as [t, k], C's rows first (e.g. "
                "tk,gnk->tn); A stored [k, t] is not supported yet");
  if (spec.b[0] != g)
    return fail("--einsum", firstColumn[g],
                std::string("the group index '") + g +
                    "' must be b's first (outermost) index (B [g, n, k] or "
                    "[g, k, n])");
  if (spec.b.find(t) != std::string::npos ||
      spec.b.find(n) == std::string::npos)
    return fail("--einsum", 0,
                "a grouped product is A [t, k], B [g, n, k] or [g, k, n] and "
                "C [t, n] (e.g. tk,gnk->tn)");
  if (spec.sizeOf(g) == kDynamicSpecSize)
    return fail("--sizes", 0,
                std::string("the group count '") + g +
                    "' must be known here (a number, not '?'): the offsets "
                    "operand has G + 1 entries");
  if (spec.sizeOf(n) == kDynamicSpecSize || spec.sizeOf(k) == kDynamicSpecSize)
    return fail("--sizes", 0,
                "a grouped product takes its row count t known at launch "
                "('?') or here; n and k must be known here (not supported "
                "yet)");
  if (spec.accumulate)
    return fail("--accumulate", 0,
                "a grouped product computes C = A B (C += A B is not "
                "supported yet)");
  if (!spec.prologues.empty())
    return fail("--prologue", 0,
                "a grouped product takes no prologue (not supported yet)");
  if (!spec.operands.empty())
    return fail("--epilogue", operandColumn[spec.operands.front().name],
                "a grouped product's epilogue reads acc and numbers only "
                "(operands such as a bias per group are not supported yet)");
  if (spec.aType != SpecType::F16 && spec.aType != SpecType::BF16)
    return fail("--dtypes", 0,
                "a grouped product multiplies f16 or bf16 (not " +
                    stringifySpecType(spec.aType).str() + ")");
  if (spec.accType != SpecType::F32)
    return fail("--dtypes", 0,
                "a grouped product accumulates in f32 (acc=" +
                    stringifySpecType(spec.accType).str() +
                    " is not supported)");
  return success();
}

/// Parses a size: a positive integer that fits in int64_t, or "?".
static std::optional<int64_t> parseSize(StringRef text) {
  if (text == "?")
    return kDynamicSpecSize;
  int64_t v = 0;
  if (text.getAsInteger(10, v) || v <= 0 || !isdigit(text[0]))
    return std::nullopt;
  return v;
}

LogicalResult SpecChecker::parseSizes() {
  spec.sizes.assign(spec.loops.size(), 0);
  std::vector<Entry> entries;
  if (strings.sizes.find_first_not_of(" \t") != std::string::npos &&
      failed(splitEntries("--sizes", strings.sizes, entries)))
    return failure();
  for (const Entry &e : entries) {
    if (e.name.size() != 1 || !isLetter(e.name[0]))
      return fail("--sizes", e.nameColumn,
                  "'" + e.name + "' is not an index (indices are letters)");
    size_t pos = spec.loops.find(e.name[0]);
    if (pos == std::string::npos)
      return fail("--sizes", e.nameColumn,
                  "unknown index '" + e.name + "' (not in the einsum '" +
                      strings.einsum + "')");
    std::optional<int64_t> size = parseSize(e.value);
    if (!size)
      return fail("--sizes", e.valueColumn,
                  "the size of '" + e.name + "' must be a positive integer " +
                      "or '?', not '" + e.value + "'");
    int64_t &slot = spec.sizes[pos];
    auto text = [](int64_t s) {
      return s == kDynamicSpecSize ? std::string("?") : std::to_string(s);
    };
    if (slot != 0 && slot != *size)
      return fail("--sizes", e.nameColumn,
                  "index '" + e.name + "' has two sizes: " + text(slot) +
                      " and " + text(*size));
    slot = *size;
    sizeColumn.emplace(e.name[0], e.valueColumn);
  }
  for (auto [i, c] : llvm::enumerate(spec.loops))
    if (spec.sizes[i] == 0)
      return fail("--einsum", firstColumn[c],
                  std::string("no size for index '") + c +
                      "' (give it in --sizes: " + c + "=1024, or " + c +
                      "=? for a size known at launch)");
  return success();
}

LogicalResult SpecChecker::parseDtypes() {
  std::vector<Entry> entries;
  if (strings.dtypes.find_first_not_of(" \t") != std::string::npos &&
      failed(splitEntries("--dtypes", strings.dtypes, entries)))
    return failure();
  for (const Entry &e : entries) {
    if (!isIdentifier(e.name))
      return fail("--dtypes", e.nameColumn, "'" + e.name + "' is not a name");
    if (e.name == "offsets" && spec.isGrouped()) {
      if (e.value != "i32" && e.value != "i64")
        return fail("--dtypes", e.valueColumn,
                    "the offsets of a grouped product are i32 or i64, not '" +
                        e.value + "'");
      spec.offsetsBits = e.value == "i32" ? 32 : 64;
      continue;
    }
    std::optional<SpecType> type = parseSpecType(e.value);
    if (!type)
      return fail("--dtypes", e.valueColumn,
                  "unknown dtype '" + e.value +
                      "' (known: f16, bf16, f32, f8E4M3FN or e4m3, f8E5M2 "
                      "or e5m2)");
    auto [it, inserted] =
        givenTypes.try_emplace(e.name, GivenType{*type, e.nameColumn});
    if (!inserted && it->second.type != *type)
      return fail("--dtypes", e.nameColumn,
                  "dtype clash: '" + e.name + "' is given as " +
                      stringifySpecType(it->second.type).str() + " and as " +
                      stringifySpecType(*type).str());
  }
  return success();
}

/// How an operand reads in a message: "res[m,n]".
static std::string operandRef(const std::string &name,
                              const std::string &indices) {
  std::string s = name + "[";
  for (auto [i, c] : llvm::enumerate(indices))
    s += (i ? "," : "") + std::string(1, c);
  return s + "]";
}

LogicalResult SpecChecker::resolveEpilogue(SpecExpr &e) {
  if (e.kind == SpecExpr::Kind::Operand) {
    if (e.name == "acc") {
      if (e.indexed)
        return fail("--epilogue", e.column,
                    "'acc' takes no indices (it is the contraction result, "
                    "read at the output's indices)");
      e.kind = SpecExpr::Kind::Acc;
      return success();
    }
    if (e.name == "acc2") {
      if (e.indexed)
        return fail("--epilogue", e.column,
                    "'acc2' takes no indices (it is the second product A B2 "
                    "of a dual GEMM, read at the output's indices)");
      e.kind = SpecExpr::Kind::Acc2;
      spec.dual = true;
      if (!acc2Column)
        acc2Column = e.column;
      return success();
    }
    // B2 is an argument of the function (after B) that only acc2 reads: an
    // epilogue operand of that name would be a second argument named b2.
    if (e.name == "b2")
      return fail("--epilogue", e.column,
                  "'b2' is reserved: it is the B of a dual GEMM's second "
                  "product, which the epilogue reads as 'acc2' (A B2); give "
                  "the operand another name");
    if (e.name == "a" || e.name == "b" || e.name == "c")
      return fail("--epilogue", e.column,
                  "'" + e.name +
                      "' is an operand of the contraction; an epilogue reads "
                      "the contraction result as 'acc' (--prologue "
                      "transforms a or b)");
    if (specFunctionArity(e.name))
      return fail("--epilogue", e.column,
                  "'" + e.name + "' is a function: call it as " + e.name +
                      "(...)");
    for (auto [i, c] : llvm::enumerate(e.indices)) {
      std::string ref = operandRef(e.name, e.indices);
      if (spec.c.find(c) == std::string::npos)
        return fail("--epilogue", e.indexColumns[i],
                    std::string("unknown index '") + c + "' in " + ref +
                        " (an epilogue operand is read at indices of the "
                        "output, '" +
                        spec.c + "')");
      if (e.indices.find(c) != i)
        return fail("--epilogue", e.indexColumns[i],
                    std::string("index '") + c + "' appears twice in " + ref);
    }
    auto it = llvm::find_if(
        spec.operands, [&](const SpecOperand &o) { return o.name == e.name; });
    if (it == spec.operands.end()) {
      spec.operands.push_back({e.name, e.indices, SpecType::F32});
      operandColumn[e.name] = e.column;
    } else if (it->indices != e.indices) {
      auto ref = [&](const std::string &indices) {
        return operandRef(e.name, indices);
      };
      return fail("--epilogue", e.column,
                  "operand '" + e.name + "' is read as " + ref(it->indices) +
                      " at column " + std::to_string(operandColumn[e.name]) +
                      " and as " + ref(e.indices) + " here");
    }
    return success();
  }
  for (SpecExpr &arg : e.args)
    if (failed(resolveEpilogue(arg)))
      return failure();
  return success();
}

/// The first Operand node named `name` in `e` (depth first), or null.
static const SpecExpr *findName(const SpecExpr &e, StringRef name) {
  if (e.kind == SpecExpr::Kind::Operand && e.name == name)
    return &e;
  for (const SpecExpr &arg : e.args)
    if (const SpecExpr *found = findName(arg, name))
      return found;
  return nullptr;
}

LogicalResult SpecChecker::parseEpilogue() {
  if (strings.epilogue.empty())
    return success();
  if (strings.accumulate) {
    // A dual GEMM is named at its acc2; any other epilogue (even a
    // malformed one) gets the general refusal, as before acc2 existed.
    SpecError ignored;
    SpecExprParser parser("--epilogue", strings.epilogue, ignored);
    llvm::FailureOr<SpecExpr> e = parser.parse();
    if (succeeded(e))
      if (const SpecExpr *acc2 = findName(*e, "acc2"))
        return fail("--epilogue", acc2->column,
                    "a dual GEMM (acc2) computes C = epilogue(A B, A B2) "
                    "from zero; --accumulate (C += A B) is not supported "
                    "with it");
    return fail("--epilogue", 0,
                "an epilogue needs C = A B; --accumulate computes C += A B "
                "in place");
  }
  SpecExprParser parser("--epilogue", strings.epilogue, error);
  llvm::FailureOr<SpecExpr> e = parser.parse();
  if (failed(e) || failed(resolveEpilogue(*e)))
    return failure();
  spec.epilogue = std::move(*e);
  return success();
}

LogicalResult SpecChecker::resolvePrologue(SpecExpr &e, char &operand) {
  if (e.kind == SpecExpr::Kind::Operand) {
    if (e.name == "acc" || e.name == "acc2")
      return fail("--prologue", e.column,
                  e.name == "acc"
                      ? "'acc' is the contraction result; a prologue reads "
                        "its operand, a or b"
                      : "'acc2' is a dual GEMM's second product (epilogue "
                        "only); a prologue reads its operand, a or b");
    if (e.name != "a" && e.name != "b")
      return fail("--prologue", e.column,
                  "unknown name '" + e.name +
                      "' (a prologue reads its operand, a or b, and "
                      "numbers)");
    if (e.indexed)
      return fail("--prologue", e.column,
                  "a prologue reads its operand element by element: write '" +
                      e.name + "', not " + e.name + "[...]");
    if (operand && operand != e.name[0])
      return fail("--prologue", e.column,
                  "a prologue reads one operand, and this one reads a and b");
    operand = e.name[0];
    e.kind = SpecExpr::Kind::Acc;
    return success();
  }
  for (SpecExpr &arg : e.args)
    if (failed(resolvePrologue(arg, operand)))
      return failure();
  return success();
}

LogicalResult SpecChecker::parsePrologue(const std::string &text) {
  SpecExprParser parser("--prologue", text, error);
  llvm::FailureOr<SpecExpr> e = parser.parse();
  if (failed(e))
    return failure();
  char operand = 0;
  if (failed(resolvePrologue(*e, operand)))
    return failure();
  if (!operand)
    return fail("--prologue", 0,
                "'" + text +
                    "' reads neither a nor b (a prologue transforms "
                    "one of them, e.g. relu(a))");
  for (const SpecPrologue &p : spec.prologues)
    if (p.operand == operand)
      return fail("--prologue", 0,
                  std::string("a second prologue of ") + operand +
                      " (one per operand)");
  spec.prologues.push_back({operand, std::move(*e)});
  return success();
}

/// Whether a value of type `from` converts to `to` exactly, with arith.extf
/// or no cast (f16 and bf16 do not convert into each other).
static bool widens(SpecType from, SpecType to) {
  return from == to || specTypeBits(from) < specTypeBits(to);
}

static bool isFloat16Or32(SpecType t) {
  return t == SpecType::F16 || t == SpecType::BF16 || t == SpecType::F32;
}

LogicalResult SpecChecker::resolveTypes() {
  for (const auto &[name, given] : givenTypes) {
    if (name == "b2" && !spec.dual)
      return fail("--dtypes", given.column,
                  "'b2' is the B of a dual GEMM's second product, and this "
                  "spec has none (an epilogue that reads acc2 makes one)");
    if (name != "a" && name != "b" && name != "c" && name != "acc" &&
        name != "b2" && !operandColumn.count(name))
      return fail("--dtypes", given.column,
                  "unknown name '" + name +
                      "' (not a, b, c, acc or an operand of the epilogue)");
  }
  auto typeOf = [&](StringRef name, SpecType byDefault) {
    auto it = givenTypes.find(name.str());
    return it == givenTypes.end() ? byDefault : it->second.type;
  };
  auto columnOf = [&](StringRef name) {
    auto it = givenTypes.find(name.str());
    return it == givenTypes.end() ? 0u : it->second.column;
  };
  auto text = [](SpecType t) { return stringifySpecType(t).str(); };
  spec.aType = typeOf("a", SpecType::F16);
  spec.bType = typeOf("b", spec.aType);
  if (spec.aType != spec.bType)
    return fail("--dtypes", columnOf("b") ? columnOf("b") : columnOf("a"),
                "dtype clash: a is " + text(spec.aType) + " and b is " +
                    text(spec.bType) + " (A and B must have one dtype)");
  // B2 is read as B is (one ring of B tiles, one wgmma form): b's dtype.
  if (spec.dual && typeOf("b2", spec.bType) != spec.bType)
    return fail("--dtypes", columnOf("b2"),
                "dtype clash: b2 is " + text(typeOf("b2", spec.bType)) +
                    " and b is " + text(spec.bType) +
                    " (a dual GEMM's B2 has b's dtype)");
  spec.cType = typeOf("c", SpecType::F32);
  if (!isFloat16Or32(spec.cType))
    return fail("--dtypes", columnOf("c"),
                "c cannot be " + text(spec.cType) + " (C is f16, bf16 or f32)");
  for (SpecOperand &o : spec.operands) {
    o.type = typeOf(o.name, spec.cType);
    if (!isFloat16Or32(o.type))
      return fail("--dtypes", columnOf(o.name),
                  "operand '" + o.name + "' cannot be " + text(o.type) +
                      " (epilogue operands are f16, bf16 or f32)");
  }
  bool accGiven = givenTypes.count("acc");
  if (strings.accumulate) {
    spec.accType = spec.cType;
    if (accGiven && typeOf("acc", spec.cType) != spec.cType)
      return fail("--dtypes", columnOf("acc"),
                  "dtype clash: --accumulate adds A B to C in C's dtype (" +
                      text(spec.cType) + "), not in " +
                      text(typeOf("acc", spec.cType)));
    if (!widens(spec.aType, spec.cType))
      return fail("--dtypes", columnOf("c"),
                  "dtype clash: --accumulate adds A B to C in C's dtype, and "
                  "a's " +
                      text(spec.aType) + " does not widen to c's " +
                      text(spec.cType));
    return success();
  }
  // (A grouped product accumulates in f32 whatever C is.)
  SpecType byDefault =
      !spec.epilogue && !spec.isGrouped() && widens(spec.aType, spec.cType)
          ? spec.cType
          : SpecType::F32;
  spec.accType = typeOf("acc", byDefault);
  if (accGiven && spec.accType != SpecType::F16 &&
      spec.accType != SpecType::F32)
    return fail("--dtypes", columnOf("acc"),
                "acc cannot be " + text(spec.accType) +
                    " (the accumulator is f16 or f32)");
  if (!widens(spec.aType, spec.accType))
    return fail("--dtypes", columnOf("acc"),
                "dtype clash: a's " + text(spec.aType) +
                    " does not widen to the accumulator's " +
                    text(spec.accType));
  return success();
}

LogicalResult SpecChecker::parseBlockScales() {
  const std::string &text = strings.blockScales;
  if (text.find_first_not_of(" \t") == std::string::npos)
    return success();
  std::vector<Entry> entries;
  if (failed(splitEntries("--block-scales", text, entries)))
    return failure();
  std::map<std::string, unsigned> given;
  for (const Entry &e : entries) {
    if (e.name != "a" && e.name != "b")
      return fail("--block-scales", e.nameColumn,
                  "unknown operand '" + e.name +
                      "' (block scales are given for a and b)");
    if (given.count(e.name))
      return fail("--block-scales", e.nameColumn,
                  "a second block shape for '" + e.name + "'");
    given[e.name] = e.nameColumn;
    std::string want = e.name == "a" ? "1x128" : "128x128";
    std::string lower = StringRef(e.value).lower();
    if (lower == "1xk")
      return fail("--block-scales", e.valueColumn,
                  "scales constant along K (" + e.name +
                      "=1xK, one per " + (e.name == "a" ? "row" : "column") +
                      ") are not supported yet; the kernel takes a=1x128 "
                      "and b=128x128");
    if (lower != want)
      return fail("--block-scales", e.valueColumn,
                  "unsupported block shape '" + e.value + "' for " + e.name +
                      " (supported: a=1x128 and b=128x128, DeepSeek-V3's "
                      "blocks)");
  }
  for (const char *name : {"a", "b"})
    if (!given.count(name))
      return fail("--block-scales", 0,
                  std::string("needs the block shapes of both a and b "
                              "(a=1x128,b=128x128); ") +
                      name + " is missing");
  // A [m][k], B [n][k], C [m][n]: the K-major layouts of fp8 wgmma.
  const std::string &a = spec.a, &b = spec.b, &c = spec.c;
  if (a.size() != 2 || b.size() != 2 || c.size() != 2 || a[1] != b[1] ||
      c[0] != a[0] || c[1] != b[0])
    return fail("--einsum", 0,
                "block scales need the form mk,nk->mn (A [m][k], B [n][k], "
                "C [m][n]), not '" + strings.einsum + "'");
  for (char index : spec.loops)
    if (spec.sizeOf(index) == kDynamicSpecSize)
      return fail("--sizes", 0,
                  std::string("block scales need static sizes; '") + index +
                      "' is known at launch only (not supported yet)");
  int64_t k = spec.sizeOf(a[1]);
  if (k % 128 != 0)
    return fail("--sizes", 0,
                std::string("block scales need K a multiple of 128 (the "
                            "blocks along K), but ") +
                    a[1] + "=" + std::to_string(k));
  if (spec.aType != SpecType::F8E4M3FN && spec.aType != SpecType::F8E5M2)
    return fail("--dtypes", 0,
                "block scales need fp8 inputs (a=f8E4M3FN or a=f8E5M2), not " +
                    stringifySpecType(spec.aType).str());
  if (givenTypes.count("acc") && spec.accType != SpecType::F32)
    return fail("--dtypes", givenTypes.at("acc").column,
                "block-scaled products accumulate in f32, not " +
                    stringifySpecType(spec.accType).str());
  if (strings.accumulate)
    return fail("--block-scales", 0,
                "block scales compute C = A B; --accumulate is not "
                "supported with them yet");
  if (!spec.prologues.empty())
    return fail("--prologue", 0,
                "block-scaled fp8 takes no prologue (not supported yet)");
  for (const SpecOperand &o : spec.operands)
    if (o.name == "sa" || o.name == "sb")
      return fail("--epilogue", operandColumn[o.name],
                  "'" + o.name + "' names a block-scale operand; give the "
                  "epilogue operand another name");
  spec.accType = SpecType::F32;
  spec.blockScaled = true;
  return success();
}

LogicalResult SpecChecker::checkDualEinsum() {
  const std::string &a = spec.a, &b = spec.b, &c = spec.c;
  auto inA = [&](char x) { return a.find(x) != std::string::npos; };
  auto inB = [&](char x) { return b.find(x) != std::string::npos; };
  // findDualProduct (Epilogue.cpp) takes unbatched products only: no
  // index of C in both A and B, and no third index of C (a batch that one
  // operand broadcasts).
  const std::string noBatch = "a dual GEMM (acc2) takes an einsum without "
                              "batch indices (C [m][n], e.g. mk,nk->mn)";
  for (auto [i, x] : llvm::enumerate(c))
    if (inA(x) && inB(x))
      return fail("--einsum", outputColumns[i],
                  noBatch + "; '" + std::string(1, x) +
                      "' is in a, b and the output");
  if (c.size() > 2)
    return fail("--einsum", outputColumns.front(),
                noBatch + "; the output '" + c + "' has " +
                    std::to_string(c.size()) + " indices");
  // A column-major C would make the kernel's A the op's B (Contraction.cpp),
  // which the two products do not share.
  if (c.size() != 2 || !inA(c[0]) || !inB(c[1]))
    return fail("--einsum", outputColumns.empty() ? 0 : outputColumns.front(),
                "a dual GEMM (acc2) writes C [m][n], its first index from a "
                "and its second from b (e.g. mk,nk->mn or mk,kn->mn), not '" +
                    c + "'");
  // The loops are C's two indices, then the contracted ones: the analysis
  // sees two as a batch-reduce, which findDualProduct refuses.
  if (spec.loops.size() > 3)
    return fail("--einsum", firstColumn[spec.loops[3]],
                std::string("a dual GEMM (acc2) takes one contracted index "
                            "(k in mk,nk->mn); '") +
                    spec.loops[3] + "' is a second");
  return success();
}

/// Whether `e` has a node of kind `kind`.
static bool hasKind(const SpecExpr &e, SpecExpr::Kind kind) {
  return e.kind == kind || llvm::any_of(e.args, [&](const SpecExpr &arg) {
           return hasKind(arg, kind);
         });
}

LogicalResult SpecChecker::checkDual() {
  if (!spec.dual)
    return success();
  if (spec.isGrouped())
    return fail("--epilogue", acc2Column,
                "a grouped product takes no dual GEMM (acc2) yet");
  if (spec.blockScaled)
    return fail("--epilogue", acc2Column,
                "block-scaled fp8 takes no dual GEMM (acc2) yet");
  // The kernel's consumer is found from the first product: one it does
  // not read is not the first product's epilogue.
  if (!hasKind(*spec.epilogue, SpecExpr::Kind::Acc))
    return fail("--epilogue", acc2Column,
                "a dual GEMM's epilogue reads both products, acc (A B) and "
                "acc2 (A B2); this one reads acc2 only");
  if (!spec.prologues.empty())
    return fail("--epilogue", acc2Column,
                "a dual GEMM (acc2) takes no --prologue (not supported "
                "yet)");
  if (failed(checkDualEinsum()))
    return failure();
  // The kernel plans both products' tiles at compile time.
  for (char x : spec.loops)
    if (spec.sizeOf(x) == kDynamicSpecSize)
      return fail("--sizes", sizeColumn[x],
                  std::string("a dual GEMM (acc2) needs static sizes; '") + x +
                      "' is known at launch only (not supported yet)");
  // The sm90 kernel's (BuildKernel.cpp); other back ends compute one
  // product per function. (A dtype other than f16 is a's: b alone would
  // clash with a's default.)
  if (spec.aType != SpecType::F16 && spec.aType != SpecType::BF16)
    return fail("--dtypes",
                givenTypes.count("a") ? givenTypes.at("a").column : 0,
                "a dual GEMM (acc2) multiplies f16 or bf16, not " +
                    stringifySpecType(spec.aType).str());
  return success();
}

llvm::FailureOr<ProblemSpec> SpecChecker::run() {
  spec.accumulate = strings.accumulate;
  if (failed(checkName()) || failed(parseEinsum()) || failed(parseSizes()) ||
      failed(parseDtypes()) || failed(parseEpilogue()))
    return failure();
  for (const std::string &p : strings.prologues)
    if (failed(parsePrologue(p)))
      return failure();
  if (failed(resolveTypes()) || failed(checkGrouped()) ||
      failed(parseBlockScales()) || failed(checkDual()))
    return failure();
  return std::move(spec);
}

llvm::FailureOr<ProblemSpec> mlir::tcgen::parseSpec(const SpecStrings &strings,
                                                    SpecError &error) {
  return SpecChecker(strings, error).run();
}
