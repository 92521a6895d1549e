//===- Spec.h - Problems written as einsum specs ----------------*- C++ -*-===//
//
// The spec front end: a contraction problem written as an einsum string
// with sizes, dtypes and pointwise prologue and epilogue expressions
// (`mk,nk->mn`, `m=3072,n=4096,k=1024`, `gelu_tanh(acc + bias[n])`), parsed
// into a ProblemSpec. This header and its parser use no MLIR (BuildSpec.h
// builds the linalg module that `tcgen compile` reads). The grammar is in
// docs/USER-GUIDE.md ("Problems as einsum specs").
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_FRONTEND_SPEC_H
#define TCGEN_FRONTEND_SPEC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tcgen {

/// The spec as the user wrote it, one string per option. Empty strings are
/// options not given (only `einsum` and `sizes` are required).
struct SpecStrings {
  std::string einsum;   ///< "mk,kn->mn"
  std::string sizes;    ///< "m=3072,n=4096,k=1024" ("?": known at launch)
  std::string dtypes;   ///< "a=bf16,b=bf16,c=bf16,bias=f16"
  std::string epilogue; ///< "gelu_tanh(acc + bias[n]) + res[m,n]"
  /// One expression per transformed input: "relu(a)", "silu(b)".
  std::vector<std::string> prologues;
  std::string name; ///< the function's (and kernels') name; default "einsum"
  bool accumulate = false; ///< C += A B instead of C = A B
  /// A grouped product (mixtures of experts): the index of B that picks a
  /// group ("g" in `tk,gnk->tn`); empty for an ordinary contraction.
  std::string group;
  /// Block-scaled fp8: "a=1x128,b=128x128" (f32 scales sa of 1 x 128
  /// blocks of A, sb of 128 x 128 blocks of B).
  std::string blockScales;
};

/// A malformed spec: the option it is in (`--einsum`, `--sizes`, ...), the
/// 1-based column of the offending character in that option's string (0
/// where the error is about the whole option) and what is wrong.
struct SpecError {
  std::string field;
  unsigned column = 0;
  std::string message;
  /// "--epilogue:14: unknown function 'gleu' (...)" (no column where 0).
  std::string str() const;
};

/// The element types a spec names (MLIR's spellings: f16, bf16, f32,
/// f8E4M3FN, f8E5M2; e4m3 and e5m2 are accepted for the last two).
enum class SpecType { F16, BF16, F32, F8E4M3FN, F8E5M2 };

/// MLIR's spelling of `type`.
llvm::StringRef stringifySpecType(SpecType type);
/// The type `name` spells, or std::nullopt.
std::optional<SpecType> parseSpecType(llvm::StringRef name);
/// The width of `type` in bits.
unsigned specTypeBits(SpecType type);

/// The size of an index known only at launch (`?`).
constexpr int64_t kDynamicSpecSize = -1;

/// A node of a prologue or epilogue expression.
struct SpecExpr {
  enum class Kind {
    Number,  ///< a literal: `value`
    Acc,     ///< the contraction result (epilogue) or the operand (prologue)
    Acc2,    ///< a dual GEMM's second product A B2 (epilogue only)
    Operand, ///< an extra epilogue input: `name`, read at its indices
    Neg,     ///< -args[0]
    Add,     ///< args[0] + args[1]
    Sub,     ///< args[0] - args[1]
    Mul,     ///< args[0] * args[1]
    Div,     ///< args[0] / args[1]
    Call,    ///< `name`(args...): a function or a cast to a type
  };
  Kind kind = Kind::Number;
  double value = 0;
  /// The operand's or the function's name (Operand, Call).
  std::string name;
  /// An Operand's indices (`res[m,n]`: "mn") and their columns; `indexed`
  /// where it has brackets (`scale[]`), not where it is a bare name.
  std::string indices;
  std::vector<unsigned> indexColumns;
  bool indexed = false;
  std::vector<SpecExpr> args;
  /// 1-based column of the node's first character in its option's string.
  unsigned column = 0;
};

/// An extra input of the epilogue: a tensor indexed by some of the output's
/// indices (none: a scalar; `bias[n]`: a row; `res[m,n]`: a matrix).
struct SpecOperand {
  std::string name;
  std::string indices; ///< the output indices it is read at, in its order
  SpecType type = SpecType::F32;
};

/// A pointwise producer of A or B: `body` reads the operand as Acc.
struct SpecPrologue {
  char operand = 'a'; ///< 'a' or 'b'
  SpecExpr body;
};

/// A parsed, checked problem: C[c] (=|+=) sum over the other indices of
/// A[a] B[b], then `epilogue` per element of C. Every index has a size
/// (kDynamicSpecSize for `?`); `loops` orders them: the output's, then the
/// contracted ones in the order they first appear in A and B.
struct ProblemSpec {
  std::string name = "einsum";
  std::string a, b, c;
  std::string loops;
  /// The size of each index of `loops`, in its order.
  std::vector<int64_t> sizes;
  SpecType aType = SpecType::F16, bType = SpecType::F16, cType = SpecType::F32;
  /// The contraction's result type (its accumulator). Defaults: f32 with an
  /// epilogue or where A and B do not widen to C, C's type otherwise.
  SpecType accType = SpecType::F32;
  bool accumulate = false;
  std::vector<SpecOperand> operands; ///< in first-use order
  /// std::nullopt: C is the contraction result (converted to C's type
  /// where accType differs).
  std::optional<SpecExpr> epilogue;
  std::vector<SpecPrologue> prologues;
  /// A grouped product: B's index that picks the group (0: none). Then A is
  /// [t, k], B [g, n, k] or [g, k, n], C [t, n], and a function argument
  /// `offsets` of G + 1 integers of `offsetsBits` bits (32 or 64) says
  /// which rows of A and C each group owns: group g's are offsets[g] ..<
  /// offsets[g + 1] (docs/USER-GUIDE.md, "Grouped products").
  char group = 0;
  unsigned offsetsBits = 32;
  bool isGrouped() const { return group != 0; }
  /// Block-scaled fp8 (--block-scales): the contraction also reads the f32
  /// scales sa[m][k/128] (1 x 128 blocks of A) and sb[ceil(n/128)][k/128]
  /// (128 x 128 blocks of B), function arguments after A and B, and
  /// computes acc + a b sa sb (DeepSeek-V3's recipe). A is [m][k], B
  /// [n][k], the sizes static, K a multiple of 128, the accumulator f32.
  bool blockScaled = false;
  /// A dual GEMM (the epilogue reads `acc2`): a second contraction of A
  /// with B2, a function argument right after B with B's indices, sizes
  /// and dtype, written from zero into its own accumulator buffer, which
  /// the epilogue reads beside the first (docs/USER-GUIDE.md, "Dual
  /// GEMMs"). The einsum has no batch index, C is row-major, the sizes are
  /// static, and there is no prologue, --accumulate, group or block scales.
  bool dual = false;

  /// The size of index `index` (which must be one of `loops`).
  int64_t sizeOf(char index) const;
  /// Whether the module needs an elementwise op after the contraction.
  bool hasEpilogue() const { return epilogue || accType != cType; }
};

/// The function names an expression may call (casts excluded), as listed in
/// error messages.
llvm::StringRef knownSpecFunctions();

/// Parses and checks a spec. Returns the problem, or the first error found.
llvm::FailureOr<ProblemSpec> parseSpec(const SpecStrings &strings,
                                       SpecError &error);

} // namespace mlir::tcgen

#endif // TCGEN_FRONTEND_SPEC_H
