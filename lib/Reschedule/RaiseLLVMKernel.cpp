//===- RaiseLLVMKernel.cpp - LLVM-dialect kernel to func/memref/gpu -------===//
//
// This file implements tcgen-raise-llvm-kernel: every `ptx_kernelcc`
// llvm.func becomes a func.func whose pointers are memrefs, whose address
// arithmetic is memref indices, whose special registers are gpu ids and
// whose arithmetic and branches are arith and cf.
//
//===----------------------------------------------------------------------===//

#include "tcgen/Reschedule/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tcgen {
#define GEN_PASS_DEF_TCGENRAISELLVMKERNELPASS
#include "tcgen/Reschedule/Passes.h.inc"
} // namespace mlir::tcgen

using namespace mlir;
using namespace mlir::tcgen;

namespace {

/// A raised pointer: a memref and the indices of the element (or
/// sub-array) it points to. `indices.size()` dimensions are fixed; the
/// pointee is the memref's shape from that dimension on.
struct RaisedPtr {
  Value memref;
  SmallVector<Value> indices;
};

/// The scalar element type and shape of an LLVM array type (nested arrays
/// of a scalar), or failure for anything else.
static FailureOr<std::pair<SmallVector<int64_t>, Type>> arrayShape(Type type) {
  SmallVector<int64_t> shape;
  while (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    shape.push_back(array.getNumElements());
    type = array.getElementType();
  }
  if (!type.isIntOrFloat())
    return failure();
  return std::make_pair(shape, type);
}

/// The LLVM type a pointer at `depth` of `memrefType` points to.
static Type pointeeType(MemRefType memrefType, unsigned depth) {
  Type t = memrefType.getElementType();
  for (int64_t d = memrefType.getRank() - 1; d >= (int64_t)depth; --d)
    t = LLVM::LLVMArrayType::get(t, memrefType.getDimSize(d));
  return t;
}

/// The element type every load, store and GEP through pointer parameter
/// `arg` agrees on (i8 if it is not used), or failure with an error.
static FailureOr<Type> paramElementType(BlockArgument arg) {
  Type found;
  auto agree = [&](Operation *user, Type t) -> LogicalResult {
    if (auto arrayed = arrayShape(t); succeeded(arrayed))
      t = arrayed->second;
    if (!found)
      found = t;
    if (found == t)
      return success();
    return user->emitError()
           << "pointer parameter " << arg.getArgNumber() << " is accessed as "
           << found << " and as " << t
           << " (a reinterpreting access is outside the subset)";
  };
  SmallVector<Value> worklist = {arg};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      LogicalResult ok = success();
      if (auto gep = dyn_cast<LLVM::GEPOp>(user)) {
        if (gep.getBase() != v)
          continue;
        ok = agree(user, gep.getElemType());
        worklist.push_back(gep.getResult());
      } else if (auto load = dyn_cast<LLVM::LoadOp>(user)) {
        ok = agree(user, load.getType());
      } else if (auto store = dyn_cast<LLVM::StoreOp>(user)) {
        if (store.getAddr() == v)
          ok = agree(user, store.getValue().getType());
      } else if (isa<LLVM::AddrSpaceCastOp>(user)) {
        worklist.push_back(user->getResult(0));
      }
      if (failed(ok))
        return failure();
    }
  }
  return found ? found : IntegerType::get(arg.getContext(), 8);
}

/// Raises one kernel function.
class KernelRaiser {
public:
  KernelRaiser(LLVM::LLVMFuncOp fn, ModuleOp module)
      : fn(fn), module(module), b(fn.getContext()) {}

  LogicalResult raise();

private:
  LogicalResult raiseSignature();
  LogicalResult raiseOp(Operation *op);
  FailureOr<RaisedPtr> lookupPtr(Operation *user, Value ptr);
  LogicalResult raiseGlobalAddress(LLVM::AddressOfOp op);
  LogicalResult raiseGEP(LLVM::GEPOp gep);
  FailureOr<std::pair<Value, SmallVector<Value>>> access(Operation *op,
                                                         Value addr, Type type);
  LogicalResult raiseIntrinsic(Operation *op, StringRef name);
  Value toIndex(Location loc, Value v);
  void decay(Location loc, RaisedPtr &ptr, Type type);
  Value idOp(Location loc, StringRef kind, gpu::Dimension dim);

  LLVM::LLVMFuncOp fn;
  ModuleOp module;
  OpBuilder b;
  func::FuncOp newFn;
  IRMapping map;
  DenseMap<Value, RaisedPtr> ptrs;
  DenseMap<Block *, Block *> blocks;
};

} // namespace

void KernelRaiser::decay(Location loc, RaisedPtr &ptr, Type type) {
  auto memrefType = cast<MemRefType>(ptr.memref.getType());
  auto isDeeper = [&](unsigned depth) {
    for (unsigned d = depth + 1; d <= memrefType.getRank(); ++d)
      if (pointeeType(memrefType, d) == type)
        return true;
    return false;
  };
  while ((int64_t)ptr.indices.size() < memrefType.getRank() &&
         pointeeType(memrefType, ptr.indices.size()) != type &&
         isDeeper(ptr.indices.size()))
    ptr.indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
}

Value KernelRaiser::toIndex(Location loc, Value v) {
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

LogicalResult KernelRaiser::raiseSignature() {
  SmallVector<Type> argTypes;
  for (BlockArgument arg : fn.getArguments()) {
    Type t = arg.getType();
    if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(t)) {
      if (ptr.getAddressSpace() != 0 && ptr.getAddressSpace() != 1)
        return fn.emitError() << "pointer parameter " << arg.getArgNumber()
                              << " in address space " << ptr.getAddressSpace()
                              << " (only global pointers are raised)";
      FailureOr<Type> elem = paramElementType(arg);
      if (failed(elem))
        return failure();
      if (!elem->isIntOrFloat())
        return fn.emitError()
               << "pointer parameter " << arg.getArgNumber() << " points to "
               << *elem << " (only pointers to scalars are raised)";
      argTypes.push_back(MemRefType::get({ShapedType::kDynamic}, *elem));
    } else if (t.isIntOrFloat()) {
      argTypes.push_back(t);
    } else {
      return fn.emitError() << "parameter " << arg.getArgNumber() << " of type "
                            << t << " (only pointers and scalars are raised)";
    }
  }
  b.setInsertionPoint(fn);
  newFn = func::FuncOp::create(b, fn.getLoc(), fn.getSymName(),
                               b.getFunctionType(argTypes, {}));
  newFn->setAttr("tcgen.kernel", b.getUnitAttr());
  if (Attribute launch = fn->getAttr("tcgen.launch"))
    newFn->setAttr("tcgen.launch", launch);
  // A `__restrict__` pointer (LLVM's noalias) aliases no other parameter:
  // the pipeline analysis lets the compute statements store through it.
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (isa<MemRefType>(argTypes[i]) &&
        fn.getArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName()))
      newFn.setArgAttr(i, "tcgen.noalias", b.getUnitAttr());

  // Blocks first (with their non-pointer arguments), so that branches can
  // name blocks not raised yet.
  for (Block &block : fn.getBody()) {
    Block *nb = new Block();
    newFn.getBody().push_back(nb);
    blocks[&block] = nb;
    if (block.isEntryBlock()) {
      for (auto [arg, t] : llvm::zip(block.getArguments(), argTypes)) {
        BlockArgument na = nb->addArgument(t, arg.getLoc());
        if (isa<MemRefType>(t))
          ptrs[arg] = RaisedPtr{na, {}};
        else
          map.map(arg, na);
      }
      continue;
    }
    for (BlockArgument arg : block.getArguments()) {
      if (isa<LLVM::LLVMPointerType>(arg.getType()))
        return emitError(arg.getLoc())
               << "a pointer chosen by control flow (a pointer-valued phi) "
                  "is outside the subset";
      map.map(arg, nb->addArgument(arg.getType(), arg.getLoc()));
    }
  }
  // A pointer parameter starts as a pointer to its element 0.
  b.setInsertionPointToStart(blocks[&fn.getBody().front()]);
  Value zero = arith::ConstantIndexOp::create(b, fn.getLoc(), 0);
  for (auto &[value, raised] : ptrs)
    raised.indices = {zero};
  return success();
}

FailureOr<RaisedPtr> KernelRaiser::lookupPtr(Operation *user, Value ptr) {
  auto it = ptrs.find(ptr);
  if (it != ptrs.end())
    return it->second;
  Operation *def = ptr.getDefiningOp();
  return user->emitError()
         << "address not raised: it comes from "
         << (def ? def->getName().getStringRef()
                 : StringRef("a block argument"))
         << " (only kernel parameters, shared arrays and getelementptr "
            "over them are raised)";
}

LogicalResult KernelRaiser::raiseGlobalAddress(LLVM::AddressOfOp op) {
  Operation *symbol =
      SymbolTable::lookupSymbolIn(module, op.getGlobalNameAttr());
  // Raised already (an earlier addressof of the same array): the
  // memref.global has taken the name.
  if (auto raised = dyn_cast_or_null<memref::GlobalOp>(symbol)) {
    Value get = memref::GetGlobalOp::create(b, op.getLoc(), raised.getType(),
                                            op.getGlobalName());
    ptrs[op.getResult()] = RaisedPtr{get, {}};
    return success();
  }
  auto global = dyn_cast_or_null<LLVM::GlobalOp>(symbol);
  if (!global || global.getAddrSpace() != 3)
    return op.emitError() << "address of @" << op.getGlobalName()
                          << ", which is not a shared-memory array (only "
                             "__shared__ globals are raised)";
  auto shape = arrayShape(global.getGlobalType());
  if (failed(shape))
    return op.emitError() << "shared global @" << op.getGlobalName()
                          << " of type " << global.getGlobalType()
                          << " (only arrays of scalars are raised)";
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get(shape->first, shape->second,
                              MemRefLayoutAttrInterface(), space);
  // The LLVM global is renamed away; the memref.global takes its name.
  OpBuilder gb(module.getContext());
  gb.setInsertionPoint(global);
  StringAttr name = global.getSymNameAttr();
  global.setSymName((name.getValue() + ".llvm").str());
  memref::GlobalOp::create(
      gb, global.getLoc(), name, gb.getStringAttr("private"), type, Attribute(),
      /*constant=*/false,
      global.getAlignment() ? gb.getI64IntegerAttr(*global.getAlignment())
                            : IntegerAttr());
  Value get = memref::GetGlobalOp::create(b, op.getLoc(), type, name);
  ptrs[op.getResult()] = RaisedPtr{get, {}};
  return success();
}

LogicalResult KernelRaiser::raiseGEP(LLVM::GEPOp gep) {
  FailureOr<RaisedPtr> base = lookupPtr(gep, gep.getBase());
  if (failed(base))
    return failure();
  RaisedPtr result = *base;
  auto memrefType = cast<MemRefType>(result.memref.getType());
  Location loc = gep.getLoc();
  // A pointer to an array used as a pointer to its first element (C's
  // array-to-pointer decay, or a zero GEP that LLVM folded away) descends
  // through leading zero indices.
  decay(loc, result, gep.getElemType());
  unsigned depth = result.indices.size();
  if (gep.getElemType() != pointeeType(memrefType, depth))
    return gep.emitError()
           << "getelementptr over " << gep.getElemType() << " on a pointer to "
           << pointeeType(memrefType, depth)
           << ": pointer arithmetic that is not an element index is outside "
              "the subset";
  for (auto [i, index] : llvm::enumerate(gep.getIndices())) {
    Value v;
    APInt constant;
    if (auto attr = dyn_cast<IntegerAttr>(index))
      v = arith::ConstantIndexOp::create(b, loc, attr.getInt());
    else if (Value raised = map.lookup(cast<Value>(index));
             matchPattern(raised, m_ConstantInt(&constant)))
      v = arith::ConstantIndexOp::create(b, loc, constant.getSExtValue());
    else
      v = toIndex(loc, raised);
    if (i == 0) {
      // The leading index steps over whole pointees: it adds to the
      // innermost fixed index, or must be 0 on a whole array.
      if (depth == 0) {
        APInt c;
        if (!matchPattern(v, m_ConstantInt(&c)) || !c.isZero())
          return gep.emitError() << "getelementptr steps past a whole "
                                    "shared array: pointer arithmetic "
                                    "outside the array is outside the subset";
        continue;
      }
      APInt c;
      if (matchPattern(v, m_ConstantInt(&c)) && c.isZero())
        continue;
      if (matchPattern(result.indices.back(), m_ConstantInt(&c)) && c.isZero())
        result.indices.back() = v;
      else
        result.indices.back() =
            arith::AddIOp::create(b, loc, result.indices.back(), v);
      continue;
    }
    result.indices.push_back(v);
  }
  ptrs[gep.getResult()] = result;
  return success();
}

FailureOr<std::pair<Value, SmallVector<Value>>>
KernelRaiser::access(Operation *op, Value addr, Type type) {
  FailureOr<RaisedPtr> ptr = lookupPtr(op, addr);
  if (failed(ptr))
    return failure();
  auto memrefType = cast<MemRefType>(ptr->memref.getType());
  decay(op->getLoc(), *ptr, type);
  if ((int64_t)ptr->indices.size() != memrefType.getRank() ||
      type != memrefType.getElementType())
    return op->emitError() << "access of " << type << " through a pointer to "
                           << pointeeType(memrefType, ptr->indices.size())
                           << " (a reinterpreting access is outside the "
                              "subset)";
  return std::make_pair(ptr->memref, ptr->indices);
}

Value KernelRaiser::idOp(Location loc, StringRef kind, gpu::Dimension dim) {
  Value id;
  if (kind == "tid")
    id = gpu::ThreadIdOp::create(b, loc, dim);
  else if (kind == "ctaid")
    id = gpu::BlockIdOp::create(b, loc, dim);
  else if (kind == "ntid")
    id = gpu::BlockDimOp::create(b, loc, dim);
  else
    id = gpu::GridDimOp::create(b, loc, dim);
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), id);
}

LogicalResult KernelRaiser::raiseIntrinsic(Operation *op, StringRef name) {
  Location loc = op->getLoc();
  if (name == "llvm.nvvm.barrier.cta.sync.aligned.all") {
    // __syncthreads() is barrier 0; a named barrier is another operation.
    APInt id;
    if (op->getNumOperands() != 1 ||
        !matchPattern(map.lookup(op->getOperand(0)), m_ConstantInt(&id)) ||
        !id.isZero())
      return op->emitError() << "barrier " << name
                             << " with an id other than 0 (named barriers "
                                "are outside the subset)";
    gpu::BarrierOp::create(b, loc);
    return success();
  }
  if (name == "llvm.nvvm.barrier0") {
    gpu::BarrierOp::create(b, loc);
    return success();
  }
  return op->emitError() << "call of intrinsic " << name
                         << " (outside the subset)";
}

/// Creates the arith/math op `OpTy` with `op`'s raised operands.
template <typename OpTy>
static Value same(OpBuilder &b, Operation *op, IRMapping &map) {
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(map.lookup(v));
  Operation *created =
      OpTy::create(b, op->getLoc(), op->getResultTypes(), operands);
  // nsw/nuw carry over: CUDA C++'s signed overflow is undefined, which
  // the loop raising relies on (tcgen-raise-cf-to-scf).
  if (auto flags = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op))
    if (auto arithFlags =
            dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(created))
      created->setAttr(
          arithFlags.getIntegerOverflowAttrName(),
          arith::IntegerOverflowFlagsAttr::get(
              b.getContext(),
              static_cast<arith::IntegerOverflowFlags>(
                  static_cast<unsigned>(flags.getOverflowFlags()))));
  // Fast-math flags carry over too: clang marks CUDA's float arithmetic
  // `contract`, which lets the back end fuse a multiply and an add into an
  // FMA as nvcc does.
  if (auto flags = dyn_cast<LLVM::FastmathFlagsInterface>(op))
    if (auto arithMath = dyn_cast<arith::ArithFastMathInterface>(created)) {
      LLVM::FastmathFlags from = flags.getFastmathAttr().getValue();
      arith::FastMathFlags to = arith::FastMathFlags::none;
      for (auto [llvmFlag, arithFlag] :
           {std::pair{LLVM::FastmathFlags::nnan, arith::FastMathFlags::nnan},
            std::pair{LLVM::FastmathFlags::ninf, arith::FastMathFlags::ninf},
            std::pair{LLVM::FastmathFlags::nsz, arith::FastMathFlags::nsz},
            std::pair{LLVM::FastmathFlags::arcp, arith::FastMathFlags::arcp},
            std::pair{LLVM::FastmathFlags::contract,
                      arith::FastMathFlags::contract},
            std::pair{LLVM::FastmathFlags::afn, arith::FastMathFlags::afn},
            std::pair{LLVM::FastmathFlags::reassoc,
                      arith::FastMathFlags::reassoc}})
        if (bitEnumContainsAll(from, llvmFlag))
          to = to | arithFlag;
      if (to != arith::FastMathFlags::none)
        created->setAttr(arithMath.getFastMathAttrName(),
                         arith::FastMathFlagsAttr::get(b.getContext(), to));
    }
  return created->getResult(0);
}

LogicalResult KernelRaiser::raiseOp(Operation *op) {
  Location loc = op->getLoc();
  StringRef opName = op->getName().getStringRef();
  // Special registers: nvvm.read.ptx.sreg.{tid,ctaid,ntid,nctaid}.{x,y,z}.
  if (opName.consume_front("nvvm.read.ptx.sreg.")) {
    auto [kind, dimName] = opName.split('.');
    std::optional<gpu::Dimension> dim =
        llvm::StringSwitch<std::optional<gpu::Dimension>>(dimName)
            .Case("x", gpu::Dimension::x)
            .Case("y", gpu::Dimension::y)
            .Case("z", gpu::Dimension::z)
            .Default(std::nullopt);
    if (!dim ||
        !llvm::is_contained(
            ArrayRef<StringRef>{"tid", "ctaid", "ntid", "nctaid"}, kind))
      return op->emitError() << "special register " << op->getName()
                             << " (only tid, ctaid, ntid and nctaid are "
                                "raised)";
    map.map(op->getResult(0), idOp(loc, kind, *dim));
    return success();
  }
  if (opName == "nvvm.barrier0") {
    gpu::BarrierOp::create(b, loc);
    return success();
  }
  // Pointers are raised only as addresses (GEP, load, store, casts); a
  // pointer compared, selected or converted has no memref form.
  if (!isa<LLVM::GEPOp, LLVM::LoadOp, LLVM::StoreOp, LLVM::AddrSpaceCastOp>(op))
    for (Value v : op->getOperands())
      if (isa<LLVM::LLVMPointerType>(v.getType()))
        return op->emitError()
               << "a pointer used as a value by " << op->getName()
               << " (only loads and stores through addresses are raised)";
  Value result;
  LogicalResult ok = success();
  bool handled = true;
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](LLVM::ConstantOp c) {
        auto attr = dyn_cast<TypedAttr>(c.getValue());
        if (!attr || !attr.getType().isIntOrFloat()) {
          ok = c.emitError() << "constant " << c.getValue()
                             << " (only scalar constants are raised)";
          return;
        }
        result = arith::ConstantOp::create(b, loc, attr);
      })
      .Case([&](LLVM::PoisonOp p) {
        result = ub::PoisonOp::create(b, loc, p.getType());
      })
      .Case([&](LLVM::UndefOp u) {
        result = ub::PoisonOp::create(b, loc, u.getType());
      })
      .Case([&](LLVM::AddressOfOp a) { ok = raiseGlobalAddress(a); })
      .Case([&](LLVM::AddrSpaceCastOp c) {
        FailureOr<RaisedPtr> p = lookupPtr(c, c.getArg());
        if (failed(p))
          ok = failure();
        else
          ptrs[c.getResult()] = *p;
      })
      .Case([&](LLVM::GEPOp g) { ok = raiseGEP(g); })
      .Case([&](LLVM::LoadOp l) {
        if (l.getVolatile_() ||
            l.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
          ok = l.emitError() << "volatile or atomic load (outside the subset)";
          return;
        }
        auto a = access(l, l.getAddr(), l.getType());
        if (failed(a)) {
          ok = failure();
          return;
        }
        result = memref::LoadOp::create(b, loc, a->first, a->second);
      })
      .Case([&](LLVM::StoreOp s) {
        if (s.getVolatile_() ||
            s.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
          ok = s.emitError() << "volatile or atomic store (outside the subset)";
          return;
        }
        if (isa<LLVM::LLVMPointerType>(s.getValue().getType())) {
          ok = s.emitError() << "a pointer stored to memory (outside the "
                                "subset)";
          return;
        }
        auto a = access(s, s.getAddr(), s.getValue().getType());
        if (failed(a)) {
          ok = failure();
          return;
        }
        memref::StoreOp::create(b, loc, map.lookup(s.getValue()), a->first,
                                a->second);
      })
      .Case([&](LLVM::AddOp) { result = same<arith::AddIOp>(b, op, map); })
      .Case([&](LLVM::SubOp) { result = same<arith::SubIOp>(b, op, map); })
      .Case([&](LLVM::MulOp) { result = same<arith::MulIOp>(b, op, map); })
      .Case([&](LLVM::SDivOp) { result = same<arith::DivSIOp>(b, op, map); })
      .Case([&](LLVM::UDivOp) { result = same<arith::DivUIOp>(b, op, map); })
      .Case([&](LLVM::SRemOp) { result = same<arith::RemSIOp>(b, op, map); })
      .Case([&](LLVM::URemOp) { result = same<arith::RemUIOp>(b, op, map); })
      .Case([&](LLVM::AndOp) { result = same<arith::AndIOp>(b, op, map); })
      .Case([&](LLVM::OrOp) { result = same<arith::OrIOp>(b, op, map); })
      .Case([&](LLVM::XOrOp) { result = same<arith::XOrIOp>(b, op, map); })
      .Case([&](LLVM::ShlOp) { result = same<arith::ShLIOp>(b, op, map); })
      .Case([&](LLVM::AShrOp) { result = same<arith::ShRSIOp>(b, op, map); })
      .Case([&](LLVM::LShrOp) { result = same<arith::ShRUIOp>(b, op, map); })
      .Case([&](LLVM::FAddOp) { result = same<arith::AddFOp>(b, op, map); })
      .Case([&](LLVM::FSubOp) { result = same<arith::SubFOp>(b, op, map); })
      .Case([&](LLVM::FMulOp) { result = same<arith::MulFOp>(b, op, map); })
      .Case([&](LLVM::FDivOp) { result = same<arith::DivFOp>(b, op, map); })
      .Case([&](LLVM::FRemOp) { result = same<arith::RemFOp>(b, op, map); })
      .Case([&](LLVM::FNegOp) { result = same<arith::NegFOp>(b, op, map); })
      .Case([&](LLVM::SExtOp) { result = same<arith::ExtSIOp>(b, op, map); })
      .Case([&](LLVM::ZExtOp) { result = same<arith::ExtUIOp>(b, op, map); })
      .Case([&](LLVM::TruncOp) { result = same<arith::TruncIOp>(b, op, map); })
      .Case([&](LLVM::FPExtOp) { result = same<arith::ExtFOp>(b, op, map); })
      .Case(
          [&](LLVM::FPTruncOp) { result = same<arith::TruncFOp>(b, op, map); })
      .Case([&](LLVM::SIToFPOp) { result = same<arith::SIToFPOp>(b, op, map); })
      .Case([&](LLVM::UIToFPOp) { result = same<arith::UIToFPOp>(b, op, map); })
      .Case([&](LLVM::FPToSIOp) { result = same<arith::FPToSIOp>(b, op, map); })
      .Case([&](LLVM::FPToUIOp) { result = same<arith::FPToUIOp>(b, op, map); })
      .Case([&](LLVM::SelectOp) { result = same<arith::SelectOp>(b, op, map); })
      .Case([&](LLVM::FMulAddOp) { result = same<math::FmaOp>(b, op, map); })
      .Case([&](LLVM::FMAOp) { result = same<math::FmaOp>(b, op, map); })
      .Case([&](LLVM::SMaxOp) { result = same<arith::MaxSIOp>(b, op, map); })
      .Case([&](LLVM::SMinOp) { result = same<arith::MinSIOp>(b, op, map); })
      .Case(
          [&](LLVM::MaxNumOp) { result = same<arith::MaxNumFOp>(b, op, map); })
      .Case(
          [&](LLVM::MinNumOp) { result = same<arith::MinNumFOp>(b, op, map); })
      .Case([&](LLVM::SqrtOp) { result = same<math::SqrtOp>(b, op, map); })
      .Case([&](LLVM::ExpOp) { result = same<math::ExpOp>(b, op, map); })
      .Case([&](LLVM::FAbsOp) { result = same<math::AbsFOp>(b, op, map); })
      .Case([&](LLVM::ICmpOp c) {
        result = arith::CmpIOp::create(
            b, loc, static_cast<arith::CmpIPredicate>(c.getPredicate()),
            map.lookup(c.getLhs()), map.lookup(c.getRhs()));
      })
      .Case([&](LLVM::FCmpOp c) {
        result = arith::CmpFOp::create(
            b, loc, static_cast<arith::CmpFPredicate>(c.getPredicate()),
            map.lookup(c.getLhs()), map.lookup(c.getRhs()));
      })
      .Case([&](LLVM::CallIntrinsicOp c) {
        ok = raiseIntrinsic(c, c.getIntrin());
      })
      .Case([&](LLVM::BrOp br) {
        SmallVector<Value> args;
        for (Value v : br.getDestOperands())
          args.push_back(map.lookup(v));
        cf::BranchOp::create(b, loc, blocks[br.getDest()], args);
      })
      .Case([&](LLVM::CondBrOp br) {
        SmallVector<Value> t, f;
        for (Value v : br.getTrueDestOperands())
          t.push_back(map.lookup(v));
        for (Value v : br.getFalseDestOperands())
          f.push_back(map.lookup(v));
        cf::CondBranchOp::create(b, loc, map.lookup(br.getCondition()),
                                 blocks[br.getTrueDest()], t,
                                 blocks[br.getFalseDest()], f);
      })
      .Case([&](LLVM::ReturnOp) { func::ReturnOp::create(b, loc); })
      .Default([&](Operation *) { handled = false; });
  if (!handled)
    return op->emitError() << "operation " << op->getName()
                           << " is outside the subset tcgen reschedule raises";
  if (failed(ok))
    return failure();
  if (result)
    map.map(op->getResult(0), result);
  return success();
}

LogicalResult KernelRaiser::raise() {
  if (failed(raiseSignature())) {
    if (newFn)
      newFn.erase();
    return failure();
  }
  // Raise blocks in dominator-tree preorder: every value is raised before
  // its uses (block arguments exist already). A single block has no tree.
  SmallVector<Block *> order;
  DominanceInfo dom(fn);
  if (fn.getBody().hasOneBlock()) {
    order.push_back(&fn.getBody().front());
  } else {
    llvm::DominatorTreeBase<Block, false> &tree = dom.getDomTree(&fn.getBody());
    for (auto *node : llvm::depth_first(tree.getRootNode()))
      order.push_back(node->getBlock());
  }
  for (Block *block : order) {
    b.setInsertionPointToEnd(blocks[block]);
    for (Operation &op : *block)
      if (failed(raiseOp(&op))) {
        // Half raised: values may be used in blocks erased before them.
        newFn.getBody().dropAllReferences();
        newFn.erase();
        return failure();
      }
  }
  // Blocks no path reaches were not raised: drop them.
  DenseSet<Block *> raised(order.begin(), order.end());
  for (Block &block : fn.getBody())
    if (!raised.contains(&block))
      blocks[&block]->erase();
  StringAttr name = fn.getSymNameAttr();
  fn.erase();
  newFn.setSymName(name);
  return success();
}

namespace {
struct RaiseLLVMKernelPass final
    : tcgen::impl::TCGenRaiseLLVMKernelPassBase<RaiseLLVMKernelPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal() && fn.getCConv() == LLVM::CConv::PTX_Kernel)
        kernels.push_back(fn);
    for (LLVM::LLVMFuncOp fn : kernels)
      if (failed(KernelRaiser(fn, module).raise()))
        return signalPassFailure();
    // The LLVM symbols nothing uses any more: the raised shared globals,
    // the intrinsics' declarations, the builtins' globals, comdats.
    SmallVector<Operation *> dead;
    for (Operation &op : module.getBody()->getOperations()) {
      if (!isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op))
        continue;
      auto sym = cast<SymbolOpInterface>(op);
      if (SymbolTable::symbolKnownUseEmpty(sym, module))
        dead.push_back(&op);
    }
    for (Operation *op : dead)
      op->erase();
    // The comdats go with the last LLVM symbol that names one.
    if (module.getOps<LLVM::LLVMFuncOp>().empty() &&
        module.getOps<LLVM::GlobalOp>().empty())
      for (auto comdat :
           llvm::make_early_inc_range(module.getOps<LLVM::ComdatOp>()))
        comdat.erase();
  }
};
} // namespace
