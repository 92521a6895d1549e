//===- BuildSpec.cpp - The linalg module of an einsum spec ------*- C++ -*-===//
//
// This file implements buildSpecModule: a checked ProblemSpec becomes one
// func.func on memrefs with a contraction linalg.generic, its zero fill,
// and elementwise linalg.generic ops for the prologues and the epilogue,
// in the forms tcgen's analyses recognize (Contraction.cpp, Epilogue.cpp).
//
// For `mk,kn->mn` with m=?, n=256, k=64, f16 in, `relu(acc + bias[n])`
// into f16:
//   func.func @einsum(%a: memref<?x64xf16>, %b: memref<64x256xf16>,
//                     %bias: memref<256xf16>, %c: memref<?x256xf16>) {
//     %m = memref.dim %a, %c0
//     %acc = memref.alloc(%m) : memref<?x256xf32>
//     linalg.fill ins(%zero : f32) outs(%acc)
//     linalg.generic {(m, n, k) -> (m, k), (k, n), (m, n)} ins(%a, %b)
//         outs(%acc) { extf, extf, mulf, addf }
//     linalg.generic {(m, n) -> (m, n), (n), (m, n)} ins(%acc, %bias)
//         outs(%c) { extf, addf, maximumf, truncf }
//     return
//   }
//
// A dual GEMM (`silu(acc) * acc2`) takes B2 after B and computes A B2 as A B
// is computed, into a buffer of its own; the epilogue reads both:
//   func.func @einsum(%a, %b, %b2, ..., %c) {
//     %acc = memref.alloc(); linalg.fill; linalg.generic ins(%a, %b)
//     %acc2 = memref.alloc(); linalg.fill; linalg.generic ins(%a, %b2)
//     linalg.generic ins(%acc, %acc2, ...) outs(%c)
//   }
//
//===----------------------------------------------------------------------===//

#include "tcgen/Frontend/BuildSpec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"

#include <map>

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// Builds the module of one spec; the members hold what the ops share.
class SpecBuilder {
public:
  SpecBuilder(MLIRContext &context, const ProblemSpec &spec)
      : context(context), spec(spec), builder(&context) {}
  OwningOpRef<ModuleOp> build();

private:
  Type elementType(SpecType type);
  /// A location naming the option an op comes from ("--epilogue":1:1), so
  /// that the pipeline's diagnostics say which part of the spec they are
  /// about.
  Location locOf(StringRef option) const {
    return FileLineColLoc::get(&context, option, 1, 1);
  }
  MemRefType memrefOf(StringRef indices, SpecType type);
  AffineMap mapOf(StringRef indices, StringRef loops);
  /// The dynamic sizes of a buffer indexed by `indices`, read from A or B.
  SmallVector<Value> dynamicSizes(StringRef indices);
  Value emitContraction(Value a, Value b, Value acc);
  /// A grouped product's contraction (sum over the groups of the products
  /// masked to each group's rows), reading the offsets argument.
  Value emitGroupedContraction(Value a, Value b, Value offsets, Value acc);
  /// Block-scaled fp8: acc + extf(a) extf(b) sa sb, the scales read at
  /// (m, k floordiv 128) and (n floordiv 128, k floordiv 128).
  Value emitBlockScaledContraction(Value a, Value b, Value sa, Value sb,
                                   Value acc);
  Value emitPrologue(const SpecPrologue &prologue, Value operand);
  /// A local buffer of C's shape in the accumulator's type.
  Value allocAccumulator();
  /// linalg.fill of `buffer` (C or an accumulator buffer) with 0.
  void emitZeroFill(Value buffer);
  /// `acc2` is the dual GEMM's second product (null without one).
  void emitEpilogue(Value acc, Value acc2, ValueRange operands, Value c);

  MLIRContext &context;
  const ProblemSpec &spec;
  OpBuilder builder;
  Value argA, argB;
  /// memref.dim of each dynamic index, made once.
  std::map<char, Value> dims;
};

/// Emits one expression per element: `leaf` stands for Acc, `leaf2` for
/// Acc2 (a dual GEMM's epilogue; null otherwise), `operands[k]` for
/// spec.operands[k]; every operation computes in `computeType`.
class ExprEmitter {
public:
  ExprEmitter(OpBuilder &b, Location loc, Type computeType, Value leaf,
              const ProblemSpec &spec, ValueRange operands,
              Value leaf2 = Value())
      : b(b), loc(loc), computeType(computeType), leaf(leaf), leaf2(leaf2),
        spec(spec), operands(operands) {}
  Value emit(const SpecExpr &e);
  /// `v` as a value of `type`: extf, truncf, or both through f32 (f16 and
  /// bf16 into each other).
  Value convert(Value v, Type type);

private:
  Value constant(double value);
  Value emitCall(const SpecExpr &e);
  Value gelu(Value x, bool tanhForm);

  OpBuilder &b;
  Location loc;
  Type computeType;
  Value leaf, leaf2;
  const ProblemSpec &spec;
  ValueRange operands;
  std::map<double, Value> constants;
};

} // namespace

Type SpecBuilder::elementType(SpecType type) {
  switch (type) {
  case SpecType::F16:
    return builder.getF16Type();
  case SpecType::BF16:
    return builder.getBF16Type();
  case SpecType::F32:
    return builder.getF32Type();
  case SpecType::F8E4M3FN:
    return Float8E4M3FNType::get(&context);
  case SpecType::F8E5M2:
    return Float8E5M2Type::get(&context);
  }
  return Type();
}

MemRefType SpecBuilder::memrefOf(StringRef indices, SpecType type) {
  SmallVector<int64_t> shape;
  for (char c : indices) {
    int64_t size = spec.sizeOf(c);
    shape.push_back(size == kDynamicSpecSize ? ShapedType::kDynamic : size);
  }
  return MemRefType::get(shape, elementType(type));
}

AffineMap SpecBuilder::mapOf(StringRef indices, StringRef loops) {
  SmallVector<AffineExpr> results;
  for (char c : indices)
    results.push_back(builder.getAffineDimExpr(loops.find(c)));
  return AffineMap::get(loops.size(), 0, results, &context);
}

SmallVector<Value> SpecBuilder::dynamicSizes(StringRef indices) {
  SmallVector<Value> sizes;
  for (char c : indices) {
    if (spec.sizeOf(c) != kDynamicSpecSize)
      continue;
    Value &dim = dims[c];
    if (!dim) {
      // Every index is in A or B (parseSpec checks it).
      bool inA = spec.a.find(c) != std::string::npos;
      Value source = inA ? argA : argB;
      size_t pos = (inA ? spec.a : spec.b).find(c);
      Location loc = locOf("--sizes");
      Value index = arith::ConstantIndexOp::create(builder, loc, pos);
      dim = memref::DimOp::create(builder, loc, source, index);
    }
    sizes.push_back(dim);
  }
  return sizes;
}

Value ExprEmitter::constant(double value) {
  Value &c = constants[value];
  if (!c)
    c = arith::ConstantOp::create(b, loc, b.getFloatAttr(computeType, value));
  return c;
}

Value ExprEmitter::convert(Value v, Type type) {
  Type from = v.getType();
  if (from == type)
    return v;
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = type.getIntOrFloatBitWidth();
  if (fromBits < toBits)
    return arith::ExtFOp::create(b, loc, type, v);
  if (fromBits > toBits)
    return arith::TruncFOp::create(b, loc, type, v);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, type, wide);
}

/// GELU, written as test/utils/gen_matmul.py writes it (the forms the GPU
/// tests check): tanh form 0.5 x (1 + tanh(0.7978845608 (x + 0.044715
/// x^3))), erf form 0.5 x (1 + erf(x / sqrt 2)).
Value ExprEmitter::gelu(Value x, bool tanhForm) {
  if (tanhForm) {
    Value x2 = arith::MulFOp::create(b, loc, x, x);
    Value x3 = arith::MulFOp::create(b, loc, x2, x);
    Value k1 = constant(0.044715);
    Value cubic = arith::MulFOp::create(b, loc, x3, k1);
    Value inner = arith::AddFOp::create(b, loc, x, cubic);
    Value k0 = constant(0.7978845608); // sqrt(2 / pi)
    Value scaled = arith::MulFOp::create(b, loc, inner, k0);
    Value t = math::TanhOp::create(b, loc, scaled);
    Value onePlus = arith::AddFOp::create(b, loc, t, constant(1.0));
    Value halfOf = arith::MulFOp::create(b, loc, onePlus, constant(0.5));
    return arith::MulFOp::create(b, loc, x, halfOf);
  }
  Value rsqrt2 = constant(0.70710678); // 1 / sqrt(2)
  Value scaled = arith::MulFOp::create(b, loc, x, rsqrt2);
  Value e = math::ErfOp::create(b, loc, scaled);
  Value onePlus = arith::AddFOp::create(b, loc, e, constant(1.0));
  Value halfX = arith::MulFOp::create(b, loc, x, constant(0.5));
  return arith::MulFOp::create(b, loc, halfX, onePlus);
}

Value ExprEmitter::emitCall(const SpecExpr &e) {
  StringRef name = e.name;
  if (name == "f16" || name == "bf16" || name == "f32") {
    Type type = name == "f16"    ? Type(b.getF16Type())
                : name == "bf16" ? Type(b.getBF16Type())
                                 : Type(b.getF32Type());
    return convert(emit(e.args[0]), type);
  }
  // Every function takes one or two arguments (parseSpec checks it).
  Value x = convert(emit(e.args[0]), computeType);
  if (name == "max" || name == "min") {
    Value y = convert(emit(e.args[1]), computeType);
    if (name == "max")
      return arith::MaximumFOp::create(b, loc, x, y);
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  if (name == "relu")
    return arith::MaximumFOp::create(b, loc, x, constant(0.0));
  if (name == "tanh")
    return math::TanhOp::create(b, loc, x);
  if (name == "exp")
    return math::ExpOp::create(b, loc, x);
  if (name == "gelu" || name == "gelu_erf" || name == "gelu_tanh")
    return gelu(x, name == "gelu_tanh");
  // sigmoid(x) = 1 / (1 + exp(-x)), silu(x) = x / (1 + exp(-x)).
  Value negX = arith::NegFOp::create(b, loc, x);
  Value expNegX = math::ExpOp::create(b, loc, negX);
  Value den = arith::AddFOp::create(b, loc, expNegX, constant(1.0));
  Value num = name == "silu" ? x : constant(1.0);
  return arith::DivFOp::create(b, loc, num, den);
}

Value ExprEmitter::emit(const SpecExpr &e) {
  using Kind = SpecExpr::Kind;
  switch (e.kind) {
  case Kind::Number:
    return constant(e.value);
  case Kind::Acc:
    return leaf;
  case Kind::Acc2:
    return leaf2;
  case Kind::Operand: {
    auto it = llvm::find_if(
        spec.operands, [&](const SpecOperand &o) { return o.name == e.name; });
    return operands[it - spec.operands.begin()];
  }
  case Kind::Call:
    return emitCall(e);
  case Kind::Neg:
    return arith::NegFOp::create(b, loc, convert(emit(e.args[0]), computeType));
  default:
    break;
  }
  Value lhs = convert(emit(e.args[0]), computeType);
  Value rhs = convert(emit(e.args[1]), computeType);
  switch (e.kind) {
  case Kind::Add:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case Kind::Sub:
    return arith::SubFOp::create(b, loc, lhs, rhs);
  case Kind::Mul:
    return arith::MulFOp::create(b, loc, lhs, rhs);
  default:
    return arith::DivFOp::create(b, loc, lhs, rhs);
  }
}

Value SpecBuilder::emitContraction(Value a, Value b, Value acc) {
  SmallVector<AffineMap> maps = {mapOf(spec.a, spec.loops),
                                 mapOf(spec.b, spec.loops),
                                 mapOf(spec.c, spec.loops)};
  SmallVector<utils::IteratorType> iterators;
  for (char c : spec.loops)
    iterators.push_back(spec.c.find(c) != std::string::npos
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Type accType = elementType(spec.accType);
  // linalg.matmul's body: the inputs widened to the accumulator's type,
  // multiplied and added.
  linalg::GenericOp::create(
      builder, locOf("--einsum"), ValueRange{a, b}, ValueRange{acc}, maps,
      iterators, [&](OpBuilder &nb, Location loc, ValueRange args) {
        ExprEmitter conv(nb, loc, accType, Value(), spec, {});
        Value x = conv.convert(args[0], accType);
        Value y = conv.convert(args[1], accType);
        Value p = arith::MulFOp::create(nb, loc, x, y);
        Value s = arith::AddFOp::create(nb, loc, args[2], p);
        linalg::YieldOp::create(nb, loc, s);
      });
  return acc;
}

/// The grouped product as one linalg.generic over (t, n, k, g):
///   %starts = memref.subview %offsets[0] [G] [1]
///   %ends = memref.subview %offsets[1] [G] [1]
///   linalg.generic {(t, n, k, g) -> (t, k), (g, n, k), (g), (g), (t, n)}
///       ins(%a, %b, %starts, %ends) outs(%acc) {
///     ^bb0(%x, %w, %lo, %hi, %s):
///       %row = linalg.index 0; in = lo <= row < hi
///       yield select(in, s + ext(x) * ext(w), s)
///   }
/// Each row t of C sums the products of the one group whose rows hold it,
/// so the op is the grouped product in plain linalg (docs/USER-GUIDE.md).
Value SpecBuilder::emitGroupedContraction(Value a, Value b, Value offsets,
                                          Value acc) {
  Location loc = locOf("--group");
  int64_t groups = spec.sizeOf(spec.group);
  auto slice = [&](int64_t first) -> Value {
    return memref::SubViewOp::create(
        builder, loc, offsets,
        ArrayRef<OpFoldResult>{builder.getIndexAttr(first)},
        ArrayRef<OpFoldResult>{builder.getIndexAttr(groups)},
        ArrayRef<OpFoldResult>{builder.getIndexAttr(1)});
  };
  Value starts = slice(0), ends = slice(1);
  std::string g(1, spec.group);
  SmallVector<AffineMap> maps = {
      mapOf(spec.a, spec.loops), mapOf(spec.b, spec.loops),
      mapOf(g, spec.loops), mapOf(g, spec.loops), mapOf(spec.c, spec.loops)};
  SmallVector<utils::IteratorType> iterators;
  for (char c : spec.loops)
    iterators.push_back(spec.c.find(c) != std::string::npos
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Type accType = elementType(spec.accType);
  Type offsetType = builder.getIntegerType(spec.offsetsBits);
  int64_t rowLoop = spec.loops.find(spec.c[0]);
  linalg::GenericOp::create(
      builder, locOf("--einsum"), ValueRange{a, b, starts, ends},
      ValueRange{acc}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ExprEmitter conv(nb, l, accType, Value(), spec, {});
        Value row = linalg::IndexOp::create(nb, l, rowLoop);
        Value rowInt = arith::IndexCastOp::create(nb, l, offsetType, row);
        Value afterStart = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::sge, rowInt, args[2]);
        Value beforeEnd = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::slt, rowInt, args[3]);
        Value inGroup = arith::AndIOp::create(nb, l, afterStart, beforeEnd);
        Value x = conv.convert(args[0], accType);
        Value y = conv.convert(args[1], accType);
        Value p = arith::MulFOp::create(nb, l, x, y);
        Value sum = arith::AddFOp::create(nb, l, args[4], p);
        Value r = arith::SelectOp::create(nb, l, inGroup, sum, args[4]);
        linalg::YieldOp::create(nb, l, r);
      });
  return acc;
}

Value SpecBuilder::emitBlockScaledContraction(Value a, Value b, Value sa,
                                               Value sb, Value acc) {
  // The parser accepted mk,nk->mn only: loops m, n, k.
  AffineExpr m = builder.getAffineDimExpr(0), n = builder.getAffineDimExpr(1),
             k = builder.getAffineDimExpr(2);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, &context);
  };
  SmallVector<AffineMap> maps = {
      map({m, k}), map({n, k}), map({m, k.floorDiv(128)}),
      map({n.floorDiv(128), k.floorDiv(128)}), map({m, n})};
  SmallVector<utils::IteratorType> iterators = {
      utils::IteratorType::parallel, utils::IteratorType::parallel,
      utils::IteratorType::reduction};
  Type f32 = builder.getF32Type();
  linalg::GenericOp::create(
      builder, locOf("--einsum"), ValueRange{a, b, sa, sb}, ValueRange{acc},
      maps, iterators, [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value x = arith::ExtFOp::create(nb, loc, f32, args[0]);
        Value y = arith::ExtFOp::create(nb, loc, f32, args[1]);
        Value p = arith::MulFOp::create(nb, loc, x, y);
        Value pa = arith::MulFOp::create(nb, loc, p, args[2]);
        Value pab = arith::MulFOp::create(nb, loc, pa, args[3]);
        Value s = arith::AddFOp::create(nb, loc, args[4], pab);
        linalg::YieldOp::create(nb, loc, s);
      });
  return acc;
}

Value SpecBuilder::emitPrologue(const SpecPrologue &prologue, Value operand) {
  StringRef indices = prologue.operand == 'a' ? spec.a : spec.b;
  SpecType type = prologue.operand == 'a' ? spec.aType : spec.bType;
  Location loc = locOf("--prologue");
  Value copy = memref::AllocOp::create(builder, loc, memrefOf(indices, type),
                                       dynamicSizes(indices));
  AffineMap identity = builder.getMultiDimIdentityMap(indices.size());
  SmallVector<utils::IteratorType> iterators(indices.size(),
                                             utils::IteratorType::parallel);
  // A prologue computes in its operand's dtype (the kernels apply it to
  // the operand's tiles as they are loaded).
  Type elt = elementType(type);
  linalg::GenericOp::create(
      builder, loc, ValueRange{operand}, ValueRange{copy},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ExprEmitter emitter(nb, l, elt, args[0], spec, {});
        Value y = emitter.convert(emitter.emit(prologue.body), elt);
        linalg::YieldOp::create(nb, l, y);
      });
  return copy;
}

Value SpecBuilder::allocAccumulator() {
  return memref::AllocOp::create(builder, locOf("--einsum"),
                                 memrefOf(spec.c, spec.accType),
                                 dynamicSizes(spec.c));
}

void SpecBuilder::emitZeroFill(Value buffer) {
  Location loc = locOf("--einsum");
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getFloatAttr(elementType(spec.accType), 0.0));
  linalg::FillOp::create(builder, loc, ValueRange{zero}, ValueRange{buffer});
}

void SpecBuilder::emitEpilogue(Value acc, Value acc2, ValueRange operands,
                               Value c) {
  // The products are read element for element, in the accumulator's type.
  SmallVector<Value> inputs = {acc};
  if (acc2)
    inputs.push_back(acc2);
  const unsigned products = inputs.size();
  SmallVector<AffineMap> maps(products, mapOf(spec.c, spec.c));
  for (const SpecOperand &o : spec.operands)
    maps.push_back(mapOf(o.indices, spec.c));
  maps.push_back(mapOf(spec.c, spec.c));
  llvm::append_range(inputs, operands);
  SmallVector<utils::IteratorType> iterators(spec.c.size(),
                                             utils::IteratorType::parallel);
  Type cType = elementType(spec.cType);
  linalg::GenericOp::create(
      builder, locOf("--epilogue"), inputs, ValueRange{c}, maps, iterators,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        // An epilogue computes in f32; no expression: C = acc in C's type.
        ExprEmitter emitter(nb, loc, nb.getF32Type(), args[0], spec,
                            args.slice(products, spec.operands.size()),
                            acc2 ? args[1] : Value());
        Value y = spec.epilogue ? emitter.emit(*spec.epilogue) : args[0];
        linalg::YieldOp::create(nb, loc, emitter.convert(y, cType));
      });
}

OwningOpRef<ModuleOp> SpecBuilder::build() {
  Location loc = locOf("--einsum");
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes = {memrefOf(spec.a, spec.aType),
                                memrefOf(spec.b, spec.bType)};
  // A dual GEMM: B2, B's indices and dtype, right after B.
  const unsigned b2 = spec.dual ? 1 : 0;
  if (spec.dual)
    argTypes.push_back(memrefOf(spec.b, spec.bType));
  // Block scales: sa [m][k/128] and sb [ceil(n/128)][k/128] of f32.
  const unsigned scales = spec.blockScaled ? 2 : 0;
  if (spec.blockScaled) {
    int64_t m = spec.sizeOf(spec.a[0]), k = spec.sizeOf(spec.a[1]);
    int64_t n = spec.sizeOf(spec.b[0]);
    argTypes.push_back(MemRefType::get({m, k / 128}, builder.getF32Type()));
    argTypes.push_back(
        MemRefType::get({(n + 127) / 128, k / 128}, builder.getF32Type()));
  }
  for (const SpecOperand &o : spec.operands)
    argTypes.push_back(memrefOf(o.indices, o.type));
  if (spec.isGrouped())
    argTypes.push_back(
        MemRefType::get({spec.sizeOf(spec.group) + 1},
                        builder.getIntegerType(spec.offsetsBits)));
  argTypes.push_back(memrefOf(spec.c, spec.cType));
  auto func = func::FuncOp::create(builder, loc, spec.name,
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  argA = entry->getArgument(0);
  argB = entry->getArgument(1);
  Value c = entry->getArguments().back();
  ValueRange operands =
      entry->getArguments().slice(2 + b2 + scales, spec.operands.size());

  Value a = argA, b = argB;
  for (const SpecPrologue &p : spec.prologues)
    (p.operand == 'a' ? a : b) = emitPrologue(p, p.operand == 'a' ? a : b);
  Value acc = spec.hasEpilogue() ? allocAccumulator() : c;
  if (!spec.accumulate)
    emitZeroFill(acc);
  if (spec.isGrouped())
    emitGroupedContraction(a, b, entry->getArguments().drop_back().back(), acc);
  else if (spec.blockScaled)
    emitBlockScaledContraction(a, b, entry->getArgument(2 + b2),
                               entry->getArgument(3 + b2), acc);
  else
    emitContraction(a, b, acc);
  // The second product after the first and before the consumer, from its
  // own zero fill (the form findDualProduct recognizes). parseSpec refuses
  // a dual GEMM with a prologue, a group or block scales.
  Value acc2;
  if (spec.dual) {
    acc2 = allocAccumulator();
    emitZeroFill(acc2);
    emitContraction(a, entry->getArgument(2), acc2);
  }
  if (spec.hasEpilogue())
    emitEpilogue(acc, acc2, operands, c);
  func::ReturnOp::create(builder, loc);
  return module;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::tcgen::buildSpecModule(MLIRContext &context, const ProblemSpec &spec) {
  context.loadDialect<func::FuncDialect, linalg::LinalgDialect,
                      memref::MemRefDialect, arith::ArithDialect,
                      math::MathDialect>();
  OwningOpRef<ModuleOp> module = SpecBuilder(context, spec).build();
  if (failed(verify(*module)))
    return failure();
  return module;
}
