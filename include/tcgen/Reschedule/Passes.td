//===- Passes.td - tcgen reschedule: raising SIMT kernels --*- tablegen -*-===//
//
// The raising steps of `tcgen reschedule`, in pipeline order: a CUDA
// kernel compiled by clang and imported into the LLVM dialect is checked
// against the accepted subset, raised to func/arith/memref/gpu/cf, its
// control flow recovered into scf, and its affine parts into affine.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_RESCHEDULE_PASSES_TD
#define TCGEN_RESCHEDULE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenRescheduleCheckSubsetPass
    : Pass<"tcgen-reschedule-check-subset", "::mlir::ModuleOp"> {
  let summary = "Refuse kernels outside the subset tcgen reschedule raises";
  let description = [{
    Looks at every `ptx_kernelcc` function of an imported LLVM-dialect
    module and reports, at the construct's location, every construct the
    raising does not handle: irreducible control flow, atomics, warp
    shuffles and votes, calls (other than the handled intrinsics), local
    memory (`llvm.alloca`), dynamic shared memory (an `extern __shared__`
    array), pointers built from integers or stored to memory, and
    pointer-valued block arguments or selects. Changes nothing.
  }];
}

def TCGenRaiseLLVMKernelPass
    : Pass<"tcgen-raise-llvm-kernel", "::mlir::ModuleOp"> {
  let summary = "Raise LLVM-dialect kernels to func/arith/memref/gpu/cf";
  let description = [{
    Rewrites every `ptx_kernelcc` `llvm.func` into a `func.func` carrying
    the `tcgen.kernel` unit attribute:
    - pointer parameters become `memref<?xT>` (T: the element type every
      access through the pointer agrees on);
    - address-space-3 globals become `memref.global`s in
      `#gpu.address_space<workgroup>` with the array's shape, read through
      `memref.get_global`;
    - `getelementptr` chains become memref indices (one per array
      dimension; a reinterpreting GEP, e.g. over bytes, is refused), loads
      and stores `memref.load`/`memref.store`;
    - `nvvm.read.ptx.sreg.{tid,ctaid,ntid,nctaid}.*` become
      `gpu.thread_id`/`block_id`/`block_dim`/`grid_dim` (then
      `arith.index_cast` to i32), the CTA barrier `gpu.barrier`;
    - integer and float arithmetic become `arith` (and `math` for the
      handled intrinsics), branches `cf.br`/`cf.cond_br`, returns
      `func.return`.
    The LLVM functions and globals the kernels no longer use are erased.

    Before: `%p = llvm.getelementptr %A[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32`
            `%v = llvm.load %p : !llvm.ptr -> f32`
    After:  `%v = memref.load %A[%ii] : memref<?xf32>`
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::ub::UBDialect"];
}

def TCGenRaiseCFToSCFPass : Pass<"tcgen-raise-cf-to-scf", "::mlir::func::FuncOp"> {
  let summary = "Recover structured control flow: scf.if, scf.while, scf.for";
  let description = [{
    Lifts the `cf` control flow of a raised kernel into `scf` with MLIR's
    CFG-to-SCF transformation, then turns every `scf.while` whose
    condition block is a single comparison of an induction variable
    against a loop-invariant bound into an `scf.for`. A function whose
    body is left with more than one block is refused.

    Before: `^hdr(%k: i32): %c = arith.cmpi slt, %k, %n ; cf.cond_br %c, ^body, ^exit`
    After:  `scf.for %k = %lb to %n step %c1_i32 : i32 { ... }`
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
}

def TCGenRaiseToAffinePass : Pass<"tcgen-raise-to-affine", "::mlir::func::FuncOp"> {
  let summary = "Raise scf.for loops and memref accesses with affine bounds and indices";
  let description = [{
    Rewrites index computations of i32 values (sign-extended and cast to
    index) into `index` arithmetic, turns every `scf.for` whose bounds are
    affine in the function's symbols (parameters, thread and block ids,
    constants) and whose step is a positive constant into an `affine.for`,
    and every `memref.load`/`memref.store` whose indices are affine in the
    enclosing affine loops and symbols into `affine.load`/`affine.store`.
    Loops and accesses that are not affine (a product of two symbols, a
    data-dependent bound) are kept as they are.

    Before: `scf.for %k = %c0 to %c16 step %c1 : i32 { memref.load %As[%i, %kk] }`
    After:  `affine.for %k = 0 to 16 { affine.load %As[symbol(%ty), %k] }`
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

#endif // TCGEN_RESCHEDULE_PASSES_TD
