//===- SpecExprParser.h - Parser of spec expressions ------------*- C++ -*-===//
//
// The tokenizer and recursive-descent parser of one prologue or epilogue
// expression (private to lib/Frontend). Names are left unresolved: the
// spec parser decides what `acc`, `a` or `bias[n]` stand for.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_LIB_FRONTEND_SPECEXPRPARSER_H
#define TCGEN_LIB_FRONTEND_SPECEXPRPARSER_H

#include "tcgen/Frontend/Spec.h"

namespace mlir::tcgen {

using llvm::failure;
using llvm::LogicalResult;
using llvm::success;

/// The arity of function `name` (a cast included), or std::nullopt.
std::optional<unsigned> specFunctionArity(llvm::StringRef name);
/// Whether `name` is a cast (f16, bf16, f32).
bool isSpecCastName(llvm::StringRef name);

/// Parses `text`, the value of option `field`:
///   sum     := product (('+' | '-') product)*
///   product := unary (('*' | '/') unary)*
///   unary   := ('-' | '+') unary | primary
///   primary := number | '(' sum ')' | name '(' sum (',' sum)* ')'
///            | name '[' (index (',' index)*)? ']' | name
/// Calls are checked against the known functions and their arities; the
/// other names become Operand nodes. On failure `error` says why.
class SpecExprParser {
public:
  struct Token {
    enum Kind { Ident, Number, Punct, End } kind;
    std::string text;
    unsigned column;
    bool is(llvm::StringRef p) const { return kind == Punct && text == p; }
  };

  SpecExprParser(std::string field, std::string text, SpecError &error)
      : field(std::move(field)), text(std::move(text)), error(error) {}

  /// The expression, or failure with `error` set.
  llvm::FailureOr<SpecExpr> parse();

private:
  /// Deep enough for any real expression, shallow enough for the stack.
  static constexpr unsigned kMaxDepth = 200;

  LogicalResult tokenize();
  LogicalResult fail(unsigned column, std::string message);
  llvm::FailureOr<SpecExpr> failExpr(unsigned column, std::string message);
  const Token &peek() const { return tokens[pos]; }
  Token next() { return pos + 1 < tokens.size() ? tokens[pos++] : tokens[pos]; }
  llvm::FailureOr<SpecExpr> parseSum();
  llvm::FailureOr<SpecExpr> parseProduct();
  llvm::FailureOr<SpecExpr> parseUnary();
  llvm::FailureOr<SpecExpr> parsePrimary();
  llvm::FailureOr<SpecExpr> parseParenthesized(Token open);
  llvm::FailureOr<SpecExpr> parseCall(Token name);
  LogicalResult expectClose(const Token &open);

  std::string field;
  std::string text;
  SpecError &error;
  std::vector<Token> tokens;
  size_t pos = 0;
  unsigned depth = 0;
};

} // namespace mlir::tcgen

#endif // TCGEN_LIB_FRONTEND_SPECEXPRPARSER_H
