//===- SpecParserTest.cpp - Tests of the einsum spec parser -----*- C++ -*-===//
//
// This file implements the unit tests of parseSpec: what a well-formed
// spec becomes (indices, loop order, sizes, dtypes, the expression tree)
// and the option, column and message of each kind of malformed spec.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/Spec.h"

#include <gtest/gtest.h>

using namespace mlir::tcgen;

namespace {

SpecStrings plain(std::string einsum, std::string sizes) {
  SpecStrings s;
  s.einsum = std::move(einsum);
  s.sizes = std::move(sizes);
  return s;
}

/// Parses `s`, which must be malformed, and returns the error.
SpecError errorOf(const SpecStrings &s) {
  SpecError error;
  EXPECT_TRUE(failed(parseSpec(s, error))) << "parsed: " << s.einsum;
  return error;
}

/// Expects `s` to fail in `field` at `column` with a message containing
/// `text`.
void expectError(const SpecStrings &s, const std::string &field,
                 unsigned column, const std::string &text) {
  SpecError e = errorOf(s);
  EXPECT_EQ(e.field, field) << e.str();
  EXPECT_EQ(e.column, column) << e.str();
  EXPECT_NE(e.message.find(text), std::string::npos) << e.str();
}

TEST(SpecParser, GroupedProduct) {
  SpecStrings s = plain("tk,gnk->tn", "t=?,n=256,k=128,g=8");
  s.group = "g";
  s.dtypes = "a=bf16,c=bf16,offsets=i64";
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->group, 'g');
  EXPECT_EQ(spec->loops, "tnkg");
  EXPECT_EQ(spec->offsetsBits, 64u);
  // A grouped product accumulates in f32 and casts into C.
  EXPECT_EQ(spec->accType, SpecType::F32);
  EXPECT_TRUE(spec->hasEpilogue());
  // B [g, k, n] too.
  s.einsum = "tk,gkn->tn";
  s.dtypes = "";
  auto kn = parseSpec(s, error);
  ASSERT_TRUE(succeeded(kn)) << error.str();
  EXPECT_EQ(kn->offsetsBits, 32u);
}

TEST(SpecParser, GroupedProductErrors) {
  SpecStrings s = plain("tk,gnk->tn", "t=?,n=256,k=128,g=8");
  s.group = "x";
  expectError(s, "--group", 1, "is not an index of b");
  s.group = "g";
  s.einsum = "tk,ngk->tn";
  expectError(s, "--einsum", 5, "must be b's first (outermost) index");
  s.einsum = "tk,gnk->tn";
  s.sizes = "t=?,n=256,k=128,g=?";
  expectError(s, "--sizes", 0, "must be known here");
  s.sizes = "t=?,n=256,k=128,g=8";
  s.dtypes = "offsets=i16";
  expectError(s, "--dtypes", 9, "i32 or i64");
}

TEST(SpecParser, PlainMatmul) {
  SpecError error;
  auto spec = parseSpec(plain("mk,kn->mn", "m=128,n=256,k=64"), error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->a, "mk");
  EXPECT_EQ(spec->b, "kn");
  EXPECT_EQ(spec->c, "mn");
  EXPECT_EQ(spec->loops, "mnk");
  EXPECT_EQ(spec->sizes, (std::vector<int64_t>{128, 256, 64}));
  EXPECT_EQ(spec->aType, SpecType::F16);
  EXPECT_EQ(spec->bType, SpecType::F16);
  EXPECT_EQ(spec->cType, SpecType::F32);
  // No epilogue: the contraction writes C in its dtype.
  EXPECT_EQ(spec->accType, SpecType::F32);
  EXPECT_FALSE(spec->hasEpilogue());
  EXPECT_EQ(spec->name, "einsum");
}

TEST(SpecParser, LoopOrderIsOutputThenContractedInOrderOfAppearance) {
  SpecError error;
  auto spec =
      parseSpec(plain(" bikl , blkj -> bij ", "b=2,i=64,j=32,k=4,l=16"), error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->a, "bikl");
  EXPECT_EQ(spec->c, "bij");
  EXPECT_EQ(spec->loops, "bijkl");
  EXPECT_EQ(spec->sizeOf('l'), 16);
}

TEST(SpecParser, DynamicSizesAndRepeatedEqualSizes) {
  SpecError error;
  auto spec = parseSpec(plain("mk,nk->mn", "m=?, n=4096,k=?,n=4096"), error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->sizeOf('m'), kDynamicSpecSize);
  EXPECT_EQ(spec->sizeOf('n'), 4096);
  EXPECT_EQ(spec->sizeOf('k'), kDynamicSpecSize);
}

TEST(SpecParser, DtypeDefaults) {
  SpecStrings s = plain("mk,kn->mn", "m=1,n=1,k=1");
  s.dtypes = "a=bf16,c=bf16";
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->bType, SpecType::BF16); // b follows a
  EXPECT_EQ(spec->accType, SpecType::BF16);
  // f16 does not widen to bf16: an f32 accumulator and a cast.
  s.dtypes = "a=f16,c=bf16";
  spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->accType, SpecType::F32);
  EXPECT_TRUE(spec->hasEpilogue());
  s.dtypes = "a=e4m3,c=bf16,acc=f32";
  spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->aType, SpecType::F8E4M3FN);
  EXPECT_EQ(stringifySpecType(spec->bType), "f8E4M3FN");
}

TEST(SpecParser, EpilogueTree) {
  SpecStrings s = plain("mk,kn->mn", "m=8,n=8,k=8");
  s.dtypes = "c=f16,bias=f32";
  s.epilogue = "gelu_tanh(acc + bias[n]) * -2.5e-1 + res[m,n]/scale";
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_EQ(spec->accType, SpecType::F32);
  ASSERT_EQ(spec->operands.size(), 3u);
  EXPECT_EQ(spec->operands[0].name, "bias");
  EXPECT_EQ(spec->operands[0].indices, "n");
  EXPECT_EQ(spec->operands[0].type, SpecType::F32);
  EXPECT_EQ(spec->operands[1].name, "res");
  EXPECT_EQ(spec->operands[1].indices, "mn");
  EXPECT_EQ(spec->operands[1].type, SpecType::F16); // c's by default
  EXPECT_EQ(spec->operands[2].indices, "");         // a scalar
  const SpecExpr &e = *spec->epilogue;
  ASSERT_EQ(e.kind, SpecExpr::Kind::Add);
  const SpecExpr &mul = e.args[0];
  ASSERT_EQ(mul.kind, SpecExpr::Kind::Mul);
  EXPECT_EQ(mul.args[0].kind, SpecExpr::Kind::Call);
  EXPECT_EQ(mul.args[0].name, "gelu_tanh");
  EXPECT_EQ(mul.args[0].args[0].args[0].kind, SpecExpr::Kind::Acc);
  EXPECT_EQ(mul.args[1].kind, SpecExpr::Kind::Number);
  EXPECT_DOUBLE_EQ(mul.args[1].value, -0.25);
  EXPECT_EQ(e.args[1].kind, SpecExpr::Kind::Div);
  EXPECT_EQ(e.args[1].args[0].column, 38u);
}

TEST(SpecParser, PrologueOnB) {
  SpecStrings s = plain("mk,kn->mn", "m=8,n=8,k=8");
  s.prologues = {"max(b, 0.5) * 2"};
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  ASSERT_EQ(spec->prologues.size(), 1u);
  EXPECT_EQ(spec->prologues[0].operand, 'b');
  EXPECT_EQ(spec->prologues[0].body.args[0].args[0].kind, SpecExpr::Kind::Acc);
}

TEST(SpecParser, Accumulate) {
  SpecStrings s = plain("mk,kn->mn", "m=8,n=8,k=8");
  s.accumulate = true;
  s.dtypes = "c=f16";
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_TRUE(spec->accumulate);
  EXPECT_EQ(spec->accType, SpecType::F16);
  EXPECT_FALSE(spec->hasEpilogue());
}

TEST(SpecParser, DualGemm) {
  SpecStrings s = plain("mk,nk->mn", "m=256,n=384,k=128");
  s.dtypes = "a=bf16,b2=bf16,c=bf16";
  s.epilogue = "silu(acc + bias[n]) * acc2";
  SpecError error;
  auto spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_TRUE(spec->dual);
  EXPECT_EQ(spec->bType, SpecType::BF16);
  EXPECT_EQ(spec->accType, SpecType::F32);
  // acc2 is no operand: the bias is the only one.
  ASSERT_EQ(spec->operands.size(), 1u);
  EXPECT_EQ(spec->operands[0].name, "bias");
  const SpecExpr &e = *spec->epilogue;
  ASSERT_EQ(e.kind, SpecExpr::Kind::Mul);
  EXPECT_EQ(e.args[1].kind, SpecExpr::Kind::Acc2);
  EXPECT_EQ(e.args[1].column, 23u);
  // B2 takes b's dtype where --dtypes does not name it; B [k][n] too.
  s.einsum = "mk,kn->mn";
  s.dtypes = "";
  spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_TRUE(spec->dual);
  EXPECT_EQ(spec->bType, SpecType::F16);
  // Without acc2, no dual GEMM.
  s.epilogue = "silu(acc + bias[n])";
  spec = parseSpec(s, error);
  ASSERT_TRUE(succeeded(spec)) << error.str();
  EXPECT_FALSE(spec->dual);
}

TEST(SpecParserErrors, DualGemm) {
  SpecStrings s = plain("mk,nk->mn", "m=64,n=64,k=64");
  s.epilogue = "silu(acc) * acc2";
  s.accumulate = true;
  expectError(s, "--epilogue", 13, "--accumulate (C += A B) is not supported");
  s.accumulate = false;
  s.prologues = {"relu(a)"};
  expectError(s, "--epilogue", 13, "a dual GEMM (acc2) takes no --prologue");
  s.prologues = {"relu(acc2)"};
  s.epilogue = "";
  expectError(s, "--prologue", 6, "'acc2' is a dual GEMM's second product");
  s.prologues.clear();
  s.epilogue = "silu(acc) * acc2";
  s.einsum = "bmk,bnk->bmn";
  s.sizes = "b=2,m=64,n=64,k=64";
  expectError(s, "--einsum", 10,
              "a dual GEMM (acc2) takes an einsum without batch indices");
  s.einsum = "mbk,nk->bmn";
  expectError(s, "--einsum", 9, "the output 'bmn' has 3 indices");
  s.einsum = "mk,nk->nm";
  s.sizes = "m=64,n=64,k=64";
  expectError(s, "--einsum", 8, "writes C [m][n]");
  s.einsum = "mk,k->m";
  s.sizes = "m=64,k=64";
  expectError(s, "--einsum", 7, "writes C [m][n]");
  s.einsum = "mkl,nlk->mn";
  s.sizes = "m=64,n=64,k=64,l=2";
  expectError(s, "--einsum", 3, "one contracted index");
  s.einsum = "mk,nk->mn";
  s.sizes = "m=64,n=64, k=?";
  expectError(s, "--sizes", 14, "needs static sizes; 'k'");
  s.sizes = "m=64,n=64,k=64";
  s.dtypes = "a=bf16,b2=f16";
  expectError(s, "--dtypes", 8, "dtype clash: b2 is f16 and b is bf16");
  s.dtypes = "c=bf16,a=f32";
  expectError(s, "--dtypes", 8, "multiplies f16 or bf16, not f32");
  s.dtypes = "b2=f16";
  s.epilogue = "silu(acc)";
  expectError(s, "--dtypes", 1, "this spec has none");
  s.dtypes = "";
  s.epilogue = "silu(acc) * b2[n]";
  expectError(s, "--epilogue", 13, "'b2' is reserved");
  s.epilogue = "acc + b2";
  expectError(s, "--epilogue", 7, "'b2' is reserved");
  s.epilogue = "acc * acc2[m,n]";
  expectError(s, "--epilogue", 7, "'acc2' takes no indices");
  s.epilogue = "2 * silu(acc2)";
  expectError(s, "--epilogue", 10, "reads acc2 only");
  s.epilogue = "silu(acc) * acc2";
  s.einsum = "tk,gnk->tn";
  s.group = "g";
  s.sizes = "t=64,g=4,n=64,k=64";
  expectError(s, "--epilogue", 13, "a grouped product takes no dual GEMM");
  s.einsum = "mk,nk->mn";
  s.group = "";
  s.sizes = "m=64,n=64,k=128";
  s.dtypes = "a=e4m3";
  s.blockScales = "a=1x128,b=128x128";
  expectError(s, "--epilogue", 13, "block-scaled fp8 takes no dual GEMM");
}

TEST(SpecParserErrors, Einsum) {
  expectError(plain("", "m=1"), "--einsum", 0, "is empty");
  expectError(plain("mk,kn", "m=1"), "--einsum", 6, "expected '->'");
  expectError(plain("mk->mn", "m=1"), "--einsum", 3, "two inputs");
  expectError(plain("mk,kn,nj->mj", "m=1"), "--einsum", 6, "a third");
  expectError(plain("m1,kn->mn", "m=1"), "--einsum", 2,
              "unexpected character '1'");
  expectError(plain(",kn->n", "k=1,n=1"), "--einsum", 1, "input a has no");
  expectError(plain("mm,mn->mn", "m=1,n=1"), "--einsum", 2,
              "index 'm' appears twice in a");
  // An index used inconsistently: in the output but in neither input.
  expectError(plain("mk,kn->mq", "m=1,n=1,k=1,q=1"), "--einsum", 9,
              "unknown index 'q'");
  expectError(plain("mkj,kn->mn", "m=1,n=1,k=1,j=1"), "--einsum", 3,
              "index 'j' is summed over but appears in a only");
  expectError(plain("mk,kn->m-n", "m=1"), "--einsum", 9,
              "unexpected character '-'");
}

TEST(SpecParserErrors, Sizes) {
  expectError(plain("mk,kn->mn", "m=1,n=1"), "--einsum", 2,
              "no size for index 'k'");
  expectError(plain("mk,kn->mn", "m=1,n=1,k"), "--sizes", 9,
              "expected 'name=value'");
  expectError(plain("mk,kn->mn", "m=1,,k=1"), "--sizes", 5,
              "expected 'name=value'");
  expectError(plain("mk,kn->mn", "m=1,n=x,k=1"), "--sizes", 7,
              "must be a positive integer or '?', not 'x'");
  expectError(plain("mk,kn->mn", "m=0,n=1,k=1"), "--sizes", 3,
              "positive integer");
  expectError(plain("mk,kn->mn", "m=99999999999999999999,n=1,k=1"), "--sizes",
              3, "positive integer");
  expectError(plain("mk,kn->mn", "m=1,n=1,k=1,q=4"), "--sizes", 13,
              "unknown index 'q'");
  expectError(plain("mk,kn->mn", "mm=1"), "--sizes", 1, "is not an index");
  expectError(plain("mk,kn->mn", "m=1,n=2,k=3, m=4"), "--sizes", 14,
              "index 'm' has two sizes: 1 and 4");
  expectError(plain("mk,kn->mn", "m=1,n=2,k=3,m="), "--sizes", 15,
              "expected a value after 'm='");
}

TEST(SpecParserErrors, Dtypes) {
  SpecStrings s = plain("mk,kn->mn", "m=1,n=1,k=1");
  s.dtypes = "a=f17";
  expectError(s, "--dtypes", 3, "unknown dtype 'f17'");
  s.dtypes = "a=f16,b=bf16";
  expectError(s, "--dtypes", 7, "dtype clash: a is f16 and b is bf16");
  s.dtypes = "b=bf16";
  expectError(s, "--dtypes", 1, "dtype clash: a is f16 and b is bf16");
  s.dtypes = "a=f16,a=f32";
  expectError(s, "--dtypes", 7, "'a' is given as f16 and as f32");
  s.dtypes = "c=e5m2";
  expectError(s, "--dtypes", 1, "c cannot be f8E5M2");
  s.dtypes = "a=f32,acc=f16";
  expectError(s, "--dtypes", 7, "a's f32 does not widen to the accumulator");
  s.dtypes = "acc=bf16";
  expectError(s, "--dtypes", 1, "acc cannot be bf16");
  s.dtypes = "bias=f16";
  expectError(s, "--dtypes", 1, "unknown name 'bias'");
  s.epilogue = "acc + bias[n]";
  s.dtypes = "bias=e4m3";
  expectError(s, "--dtypes", 1, "operand 'bias' cannot be f8E4M3FN");
  s.epilogue = "";
  s.accumulate = true;
  s.dtypes = "c=f16,acc=f32";
  expectError(s, "--dtypes", 7, "--accumulate adds A B to C in C's dtype");
  s.dtypes = "c=bf16";
  expectError(s, "--dtypes", 1, "a's f16 does not widen to c's bf16");
}

TEST(SpecParserErrors, Epilogue) {
  SpecStrings s = plain("mk,kn->mn", "m=1,n=1,k=1");
  auto epilogue = [&](std::string text) {
    s.epilogue = std::move(text);
    return s;
  };
  expectError(epilogue("gelu_tanh(acc) + gleu(acc)"), "--epilogue", 18,
              "unknown function 'gleu' (known: max, min, relu");
  expectError(epilogue("relu(acc, acc)"), "--epilogue", 1,
              "relu takes 1 argument, not 2");
  expectError(epilogue("max(acc)"), "--epilogue", 1,
              "max takes 2 arguments, not 1");
  expectError(epilogue("relu(acc + bias[n]"), "--epilogue", 5,
              "unbalanced '(': no matching ')'");
  expectError(epilogue("relu(acc))"), "--epilogue", 10,
              "unbalanced ')': no matching '('");
  expectError(epilogue("acc + bias[n"), "--epilogue", 11, "unbalanced '['");
  expectError(epilogue("acc + bias[k]"), "--epilogue", 12,
              "unknown index 'k' in bias[k]");
  expectError(epilogue("acc + res[m,m]"), "--epilogue", 13,
              "index 'm' appears twice in res[m,m]");
  expectError(epilogue("acc + bias[n] * bias[m]"), "--epilogue", 17,
              "operand 'bias' is read as bias[n] at column 7 and as bias[m]");
  expectError(epilogue("acc + a"), "--epilogue", 7,
              "'a' is an operand of the contraction");
  expectError(epilogue("relu + acc"), "--epilogue", 1, "is a function");
  expectError(epilogue("acc[m]"), "--epilogue", 1, "'acc' takes no indices");
  expectError(epilogue("acc + $"), "--epilogue", 7, "unexpected character '$'");
  expectError(epilogue("acc +"), "--epilogue", 6,
              "expected a number, a name or '(', found the end");
  expectError(epilogue("acc acc"), "--epilogue", 5,
              "expected an operator or the end, found 'acc'");
  expectError(epilogue("1.2.3 * acc"), "--epilogue", 1, "malformed number");
  expectError(epilogue("acc * 1e999"), "--epilogue", 7, "out of range");
  expectError(epilogue("   "), "--epilogue", 0, "is empty");
  expectError(epilogue(std::string(300, '(') + "acc" + std::string(300, ')')),
              "--epilogue", 201, "nested too deeply");
  s.accumulate = true;
  expectError(epilogue("relu(acc)"), "--epilogue", 0,
              "--accumulate computes C += A B in place");
}

TEST(SpecParserErrors, Prologue) {
  SpecStrings s = plain("mk,kn->mn", "m=1,n=1,k=1");
  s.prologues = {"relu(a) + b"};
  expectError(s, "--prologue", 11, "reads a and b");
  s.prologues = {"relu(acc)"};
  expectError(s, "--prologue", 6, "'acc' is the contraction result");
  s.prologues = {"relu(x)"};
  expectError(s, "--prologue", 6, "unknown name 'x'");
  s.prologues = {"relu(a[m,k])"};
  expectError(s, "--prologue", 6, "element by element");
  s.prologues = {"relu(1.0)"};
  expectError(s, "--prologue", 0, "reads neither a nor b");
  s.prologues = {"relu(a)", "a * 2"};
  expectError(s, "--prologue", 0, "a second prologue of a");
  s.prologues = {"silu(a"};
  expectError(s, "--prologue", 5, "unbalanced '('");
}

TEST(SpecParserErrors, Name) {
  SpecStrings s = plain("mk,kn->mn", "m=1,n=1,k=1");
  s.name = "my-kernel";
  expectError(s, "--name", 1, "is not a name");
}

TEST(SpecError, Str) {
  SpecError e{"--epilogue", 14, "unknown function 'gleu'"};
  EXPECT_EQ(e.str(), "--epilogue:14: unknown function 'gleu'");
  e.column = 0;
  EXPECT_EQ(e.str(), "--epilogue: unknown function 'gleu'");
}

} // namespace
