//===- LoopTags.h - Roles of the loops of a tcgen nest ----------*- C++ -*-===//
//
// tcgen passes communicate through attributes: each loop of a contraction's
// nest is tagged with its role (`tcgen.loop = "block_m"`), the outermost loop
// carries the #tcgen.config, and buffers carry the operand they hold. These
// helpers read and write the tags.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_TRANSFORMS_LOOPTAGS_H
#define TCGEN_TRANSFORMS_LOOPTAGS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tcgen/Analysis/Epilogue.h"
#include "tcgen/IR/TCGenDialect.h"

namespace mlir::tcgen {

constexpr llvm::StringLiteral kLoopAttrName = "tcgen.loop";
constexpr llvm::StringLiteral kOperandAttrName = "tcgen.operand";
constexpr llvm::StringLiteral kCopyAttrName = "tcgen.copy";
constexpr llvm::StringLiteral kOverwriteAttrName = "tcgen.overwrite";
/// On a host function whose kernel computes a fused epilogue: its
/// description for the manifest (describeEpilogue).
constexpr llvm::StringLiteral kFusedEpilogueAttrName = "tcgen.fused_epilogue";
/// On a host function whose kernel applies a fused prologue to A: the
/// producer's body, as describeEpilogue writes it (manifest op.prologue).
constexpr llvm::StringLiteral kFusedPrologueAttrName = "tcgen.fused_prologue";
/// The kernel operand ("A" or "B") the fused prologue transforms.
constexpr llvm::StringLiteral kFusedPrologueOperandAttrName =
    "tcgen.fused_prologue_operand";
constexpr llvm::StringLiteral kParallelAttrName = "tcgen.parallel";
/// On the pointwise consumer an sm80 kernel computes in its staged
/// epilogue: EpilogueInfo::argSource per block argument, and the
/// EpilogueOperandKind of each extra operand.
constexpr llvm::StringLiteral kEpilogueSourcesAttrName =
    "tcgen.epilogue_sources";
constexpr llvm::StringLiteral kEpilogueKindsAttrName = "tcgen.epilogue_kinds";
/// On the pointwise producer of A or B an sm80 kernel applies to its tiles
/// (tcgen-apply-prologue): EpilogueInfo::argSource of its body.
constexpr llvm::StringLiteral kPrologueSourcesAttrName =
    "tcgen.prologue_sources";
/// On a function whose bf16 A and B are carried as f16 bit patterns
/// through the fragment passes (sm80: gpu.subgroup_mma has no bf16).
constexpr llvm::StringLiteral kBF16OperandsAttrName = "tcgen.bf16_operands";
/// Threads per warp.
constexpr int64_t kWarpSize = 32;
/// NVVM's address space of shared memory, the memory space of the shared
/// buffers tcgen-promote-operands creates (numeric, not
/// #gpu.address_space<workgroup>: see docs/log/NOTES.md).
constexpr unsigned kSharedMemorySpace = 3;

/// Returns the role tag of `op` ("" when untagged).
StringRef getLoopRole(Operation *op);
/// Sets the role tag of `op`.
void setLoopRole(Operation *op, StringRef role);
/// Returns the first loop tagged `role` nested in `root` (root included).
affine::AffineForOp findLoop(Operation *root, StringRef role);
/// Returns the outermost configured loops (those carrying #tcgen.config).
SmallVector<affine::AffineForOp> getConfiguredNests(Operation *root);
/// Returns the config of the nest enclosing `op`, or null.
ConfigAttr getEnclosingConfig(Operation *op);

/// The linalg op in `func` tcgen-lower-contraction marked with `sourcesAttr`
/// (kEpilogueSourcesAttrName or kPrologueSourcesAttrName), rebuilt as the
/// EpilogueInfo emitEpilogueBody takes: its argument sources, the extra
/// operands (with the kinds of kEpilogueKindsAttrName, when present) and
/// `matmulType` for the value it transforms; std::nullopt if there is none.
std::optional<EpilogueInfo> findMarkedBody(func::FuncOp func,
                                           StringRef sourcesAttr,
                                           Type matmulType);

/// Erases the local buffer `buffer` whose producer or consumer a kernel now
/// computes itself, with its deallocations; any other remaining use is an
/// error naming `what`.
LogicalResult eraseLocalBuffer(Value buffer, StringRef what);

/// Creates a private shared-memory global `name` (renamed if taken) of
/// `rows` x `cols` `elementType` elements, 128-byte aligned, at the start
/// of `module`.
memref::GlobalOp createSharedBuffer(ModuleOp module, Location loc,
                                    StringRef name, int64_t rows,
                                    int64_t cols, Type elementType);

/// MLIR text for the generated kernels' templates: the indices of a
/// grid-stride loop over one dimension, %first (this thread's first index)
/// and %step (the threads of the launch), from %cThreads (a block's
/// threads, an index constant the template defines).
constexpr llvm::StringLiteral kGridStrideIndicesText = R"(
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %nb = gpu.grid_dim x
    %first0 = arith.muli %bid, %cThreads : index
    %first = arith.addi %first0, %tid : index
    %step = arith.muli %nb, %cThreads : index
)";

/// Erases a contraction a generated kernel now computes: `op`, its zero
/// `fill` (may be null) and `others` (ops of the same computation, such as
/// an add(gemm, gemm)'s first product). With a fused `epilogue` (may be
/// null) the consumer goes too, its body is recorded on `func`
/// (kFusedEpilogueAttrName) and the intermediate result's local buffer is
/// erased (eraseLocalBuffer's error if anything else still reads it).
LogicalResult eraseComputedContraction(func::FuncOp func, linalg::LinalgOp op,
                                       Operation *fill,
                                       const EpilogueInfo *epilogue,
                                       ArrayRef<Operation *> others = {});

/// Tags the function arguments behind the extra operands of `epilogue` as
/// E0, E1, ... (tagOperandArgument's errors).
LogicalResult tagEpilogueOperands(func::FuncOp func,
                                  const EpilogueInfo &epilogue);

/// The linalg ops under `root` whose `#tcgen.config` selects `backend`, in
/// walk order (collected first: the generators replace them).
SmallVector<linalg::LinalgOp> getOpsForBackend(Operation *root,
                                               StringRef backend);

/// Moves the shared-memory globals `launch` reads into views of one dynamic
/// shared region (`__tcgen_dsmem`, created in `symbols`' op) when together
/// they exceed `staticLimit` bytes, and sets the launch's dynamic shared
/// memory size; buffers nothing reads any more are erased. Fails (with an
/// error) on a buffer without a static shape and identity layout.
LogicalResult moveSharedBuffersToDynamic(gpu::LaunchOp launch,
                                         SymbolTable &symbols,
                                         int64_t staticLimit);

/// Whether result `result` of the access `map` with `operands` (an
/// affine.load's) indexes the K dimension: one of its dims is the induction
/// variable of a loop tagged k, block_k, warp_k or point_k.
bool indexesK(AffineMap map, ValueRange operands, unsigned result);

/// Returns the operand ("A", "B", "C") a memref value holds: a function
/// argument tagged `tcgen.operand`, or a `memref.get_global` of a global
/// tagged `tcgen.operand`. Returns "" otherwise.
StringRef getOperandRole(Value memref);

/// Tags the function argument behind `value` (an operand of `op`) with the
/// operand name `role` for the kernel ABI. Fails with an error at `op` when
/// the value is not a memref argument of `func` or plays another role.
LogicalResult tagOperandArgument(func::FuncOp func, Operation *op, Value value,
                                 StringRef role);

} // namespace mlir::tcgen

#endif // TCGEN_TRANSFORMS_LOOPTAGS_H
