//===- SpecExpr.cpp - Prologue and epilogue expressions ---------*- C++ -*-===//
//
// This file implements the tokenizer and the recursive-descent parser of
// the spec front end's pointwise expressions (`gelu_tanh(acc + bias[n])`),
// and the names and types shared by the spec parser.
//
//===----------------------------------------------------------------------===//

#include "SpecExprParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdlib>

using namespace mlir::tcgen;
using llvm::StringRef;

std::string SpecError::str() const {
  std::string s = field;
  if (column)
    s += ":" + std::to_string(column);
  return s + ": " + message;
}

StringRef mlir::tcgen::stringifySpecType(SpecType type) {
  switch (type) {
  case SpecType::F16:
    return "f16";
  case SpecType::BF16:
    return "bf16";
  case SpecType::F32:
    return "f32";
  case SpecType::F8E4M3FN:
    return "f8E4M3FN";
  case SpecType::F8E5M2:
    return "f8E5M2";
  }
  return "?";
}

std::optional<SpecType> mlir::tcgen::parseSpecType(StringRef name) {
  return llvm::StringSwitch<std::optional<SpecType>>(name)
      .Case("f16", SpecType::F16)
      .Case("bf16", SpecType::BF16)
      .Case("f32", SpecType::F32)
      .Cases({"f8E4M3FN", "e4m3"}, SpecType::F8E4M3FN)
      .Cases({"f8E5M2", "e5m2"}, SpecType::F8E5M2)
      .Default(std::nullopt);
}

unsigned mlir::tcgen::specTypeBits(SpecType type) {
  switch (type) {
  case SpecType::F16:
  case SpecType::BF16:
    return 16;
  case SpecType::F32:
    return 32;
  case SpecType::F8E4M3FN:
  case SpecType::F8E5M2:
    return 8;
  }
  return 0;
}

/// The functions and their arities; the casts (f16, bf16, f32) are apart.
static const std::pair<StringRef, unsigned> kFunctions[] = {
    {"max", 2},      {"min", 2},  {"relu", 1},    {"gelu", 1}, {"gelu_tanh", 1},
    {"gelu_erf", 1}, {"silu", 1}, {"sigmoid", 1}, {"tanh", 1}, {"exp", 1}};

StringRef mlir::tcgen::knownSpecFunctions() {
  return "max, min, relu, gelu (= gelu_erf), gelu_tanh, gelu_erf, silu, "
         "sigmoid, tanh, exp, and the casts f16, bf16, f32";
}

std::optional<unsigned> mlir::tcgen::specFunctionArity(StringRef name) {
  for (auto [fn, arity] : kFunctions)
    if (fn == name)
      return arity;
  if (isSpecCastName(name))
    return 1;
  return std::nullopt;
}

bool mlir::tcgen::isSpecCastName(StringRef name) {
  return name == "f16" || name == "bf16" || name == "f32";
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

LogicalResult SpecExprParser::tokenize() {
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    unsigned column = i + 1;
    if (c == ' ' || c == '\t') {
      ++i;
      continue;
    }
    if (isIdentStart(c)) {
      size_t j = i;
      while (j < n && (isIdentStart(text[j]) || isDigit(text[j])))
        ++j;
      tokens.push_back({Token::Ident, text.substr(i, j - i), column});
      i = j;
      continue;
    }
    if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(text[i + 1]))) {
      size_t j = i;
      while (j < n && (isDigit(text[j]) || text[j] == '.'))
        ++j;
      if (j < n && (text[j] == 'e' || text[j] == 'E')) {
        size_t k = j + 1;
        if (k < n && (text[k] == '+' || text[k] == '-'))
          ++k;
        if (k < n && isDigit(text[k])) {
          while (k < n && isDigit(text[k]))
            ++k;
          j = k;
        }
      }
      tokens.push_back({Token::Number, text.substr(i, j - i), column});
      i = j;
      continue;
    }
    if (StringRef("+-*/()[],").contains(c)) {
      tokens.push_back({Token::Punct, text.substr(i, 1), column});
      ++i;
      continue;
    }
    return fail(column, std::string("unexpected character '") + c + "'");
  }
  tokens.push_back({Token::End, "", unsigned(n + 1)});
  return success();
}

LogicalResult SpecExprParser::fail(unsigned column, std::string message) {
  error = {field, column, std::move(message)};
  return failure();
}

llvm::FailureOr<SpecExpr> SpecExprParser::failExpr(unsigned column,
                                                   std::string message) {
  error = {field, column, std::move(message)};
  return failure();
}

/// How a token reads in a message.
static std::string describe(const SpecExprParser::Token &t) {
  if (t.kind == SpecExprParser::Token::End)
    return "the end";
  return "'" + t.text + "'";
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

llvm::FailureOr<SpecExpr> SpecExprParser::parse() {
  if (text.find_first_not_of(" \t") == std::string::npos) {
    error = {field, 0, "is empty"};
    return failure();
  }
  if (failed(tokenize()))
    return failure();
  llvm::FailureOr<SpecExpr> e = parseSum();
  if (failed(e))
    return failure();
  const Token &t = peek();
  if (t.kind != Token::End) {
    if (t.is(")") || t.is("]"))
      return failExpr(t.column, "unbalanced '" + t.text + "': no matching '" +
                                    (t.is(")") ? "(" : "[") + "'");
    return failExpr(t.column,
                    "expected an operator or the end, found " + describe(t));
  }
  return e;
}

llvm::FailureOr<SpecExpr> SpecExprParser::parseSum() {
  llvm::FailureOr<SpecExpr> lhs = parseProduct();
  while (succeeded(lhs) && (peek().is("+") || peek().is("-"))) {
    Token op = next();
    llvm::FailureOr<SpecExpr> rhs = parseProduct();
    if (failed(rhs))
      return failure();
    SpecExpr e;
    e.kind = op.is("+") ? SpecExpr::Kind::Add : SpecExpr::Kind::Sub;
    e.column = lhs->column;
    e.args = {std::move(*lhs), std::move(*rhs)};
    lhs = std::move(e);
  }
  return lhs;
}

llvm::FailureOr<SpecExpr> SpecExprParser::parseProduct() {
  llvm::FailureOr<SpecExpr> lhs = parseUnary();
  while (succeeded(lhs) && (peek().is("*") || peek().is("/"))) {
    Token op = next();
    llvm::FailureOr<SpecExpr> rhs = parseUnary();
    if (failed(rhs))
      return failure();
    SpecExpr e;
    e.kind = op.is("*") ? SpecExpr::Kind::Mul : SpecExpr::Kind::Div;
    e.column = lhs->column;
    e.args = {std::move(*lhs), std::move(*rhs)};
    lhs = std::move(e);
  }
  return lhs;
}

llvm::FailureOr<SpecExpr> SpecExprParser::parseUnary() {
  if (!peek().is("-") && !peek().is("+"))
    return parsePrimary();
  Token op = next();
  if (++depth > kMaxDepth)
    return failExpr(op.column, "the expression is nested too deeply");
  llvm::FailureOr<SpecExpr> operand = parseUnary();
  --depth;
  if (failed(operand) || op.is("+"))
    return operand;
  // A negative literal is one number.
  if (operand->kind == SpecExpr::Kind::Number) {
    operand->value = -operand->value;
    operand->column = op.column;
    return operand;
  }
  SpecExpr e;
  e.kind = SpecExpr::Kind::Neg;
  e.column = op.column;
  e.args.push_back(std::move(*operand));
  return e;
}

/// Parses `(` expr `)` after the opening parenthesis `open`.
llvm::FailureOr<SpecExpr> SpecExprParser::parseParenthesized(Token open) {
  if (++depth > kMaxDepth)
    return failExpr(open.column, "the expression is nested too deeply");
  llvm::FailureOr<SpecExpr> e = parseSum();
  --depth;
  if (failed(e))
    return failure();
  if (failed(expectClose(open)))
    return failure();
  return e;
}

LogicalResult SpecExprParser::expectClose(const Token &open) {
  StringRef close = open.is("(") ? ")" : "]";
  const Token &t = peek();
  if (t.is(close)) {
    next();
    return success();
  }
  if (t.kind == Token::End || (t.is(")") || t.is("]")))
    return fail(open.column, "unbalanced '" + open.text + "': no matching '" +
                                 close.str() + "'");
  return fail(t.column,
              "expected ',' or '" + close.str() + "', found " + describe(t));
}

llvm::FailureOr<SpecExpr> SpecExprParser::parsePrimary() {
  Token t = next();
  if (t.kind == Token::Number) {
    char *end = nullptr;
    double v = std::strtod(t.text.c_str(), &end);
    if (end != t.text.c_str() + t.text.size())
      return failExpr(t.column, "malformed number '" + t.text + "'");
    if (!std::isfinite(v))
      return failExpr(t.column, "number '" + t.text + "' is out of range");
    SpecExpr e;
    e.kind = SpecExpr::Kind::Number;
    e.value = v;
    e.column = t.column;
    return e;
  }
  if (t.is("("))
    return parseParenthesized(t);
  if (t.kind != Token::Ident) {
    if (t.is(")") || t.is("]"))
      return failExpr(t.column, "unbalanced '" + t.text + "': no matching '" +
                                    (t.is(")") ? "(" : "[") + "'");
    return failExpr(t.column,
                    "expected a number, a name or '(', found " + describe(t));
  }
  if (peek().is("("))
    return parseCall(t);
  SpecExpr e;
  e.kind = SpecExpr::Kind::Operand;
  e.name = t.text;
  e.column = t.column;
  if (peek().is("[")) {
    Token open = next();
    e.indexColumns.clear();
    while (!peek().is("]")) {
      Token index = next();
      if (index.kind != Token::Ident)
        return index.kind == Token::End || index.is(")")
                   ? failExpr(open.column, "unbalanced '[': no matching ']'")
                   : failExpr(index.column,
                              "expected an index, found " + describe(index));
      e.indices += index.text;
      for (size_t i = 0; i < index.text.size(); ++i)
        e.indexColumns.push_back(index.column + i);
      if (peek().is(","))
        next();
      else if (!peek().is("]"))
        break;
    }
    if (failed(expectClose(open)))
      return failure();
    e.indexed = true;
  }
  return e;
}

llvm::FailureOr<SpecExpr> SpecExprParser::parseCall(Token name) {
  Token open = next();
  if (++depth > kMaxDepth)
    return failExpr(open.column, "the expression is nested too deeply");
  SpecExpr e;
  e.kind = SpecExpr::Kind::Call;
  e.name = name.text;
  e.column = name.column;
  if (!peek().is(")")) {
    while (true) {
      llvm::FailureOr<SpecExpr> arg = parseSum();
      if (failed(arg))
        return failure();
      e.args.push_back(std::move(*arg));
      if (!peek().is(","))
        break;
      next();
    }
  }
  --depth;
  if (failed(expectClose(open)))
    return failure();
  std::optional<unsigned> arity = specFunctionArity(name.text);
  if (!arity)
    return failExpr(name.column, "unknown function '" + name.text +
                                     "' (known: " + knownSpecFunctions().str() +
                                     ")");
  if (e.args.size() != *arity)
    return failExpr(name.column,
                    name.text + " takes " + std::to_string(*arity) +
                        (*arity == 1 ? " argument" : " arguments") + ", not " +
                        std::to_string(e.args.size()));
  return e;
}
