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

def TCGenRescheduleAnalyzePass
    : Pass<"tcgen-reschedule-analyze", "::mlir::func::FuncOp"> {
  let summary = "Find the copy and compute statements of a raised kernel";
  let description = [{
    On a kernel (`tcgen.kernel`) raised to affine/scf, finds the loop whose
    iterations copy global data into shared buffers, synchronize, read the
    buffers, and synchronize again (Pipeline.h), and reports with a remark
    at the loop the copy statements, the compute statements, the
    dependences between them over the loop (copy(k) -> compute(k), true;
    compute(k) -> copy(k+1), false) and the buffers' footprints. A kernel
    outside that pattern is refused with an error at the construct that
    breaks it. Changes nothing.
  }];
}

def TCGenReschedulePipelinePass
    : Pass<"tcgen-reschedule-pipeline", "::mlir::func::FuncOp"> {
  let summary = "Multi-buffer a kernel's shared copies and issue them "
                "asynchronously, stages ahead";
  let description = [{
    Lowers the kernel's affine ops to scf, analyzes it as
    tcgen-reschedule-analyze does, and rewrites its pipelined loop with S
    stages: every copied shared buffer becomes S buffers
    (`memref<S x ...>`); a prologue issues the copies of iterations
    0 .. S-2; the steady-state loop waits for the copy of iteration k
    (`nvgpu.device_async_wait`, S-2 groups left pending), synchronizes,
    issues the copy of iteration k+S-1 into stage (k+S-1) mod S and
    commits it as a group, and computes on stage k mod S; a drain loop
    runs the last S-1 iterations without copies. The barrier before the
    compute both publishes stage k and tells that every thread finished
    reading the stage the next copy overwrites, so the loop keeps one
    barrier an iteration. Copies become `nvgpu.device_async_copy` of one
    element (4 or 8 bytes), lowered later to `nvvm.cp.async.shared.global`
    with `cp.async.commit.group` / `cp.async.wait.group`. Each group
    says where it was issued (`tcgen.group`: prologue, steady, drain).

    `stages` > 0 asks for that many stages; 0 chooses the most that fit
    `budget` bytes of shared memory (at most 4 and at most the trip count).
  }];
  let options = [
    Option<"stages", "stages", "int64_t", "0",
           "Pipeline stages (0: the most that fit the budget, up to 4)">,
    Option<"budget", "budget", "int64_t", "49152",
           "Static shared memory a block may use, in bytes">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TCGenRescheduleToGPUModulePass
    : Pass<"tcgen-reschedule-to-gpu-module", "::mlir::ModuleOp"> {
  let summary = "Move the raised kernel into a gpu.module as a gpu.func kernel";
  let description = [{
    Makes the module's one `tcgen.kernel` function a `gpu.func` kernel of
    `gpu.module @tcgen_reschedule`, with the module's shared buffers
    (`memref.global`s in workgroup memory) moved along, so that the
    project's NVVM lowering (tcgen-lower-to-nvvm) and
    `gpu-module-to-binary` compile it. Its `memref<?xT>` parameters become
    `memref<2^40 x T>`: the bare-pointer calling convention the lowering
    uses passes a statically shaped memref as one pointer, which is the
    kernel's original parameter (the raised kernel never reads a size).
    The launch's block size (`tcgen.launch`) becomes the kernel's
    `known_block_size`.

    Before: `func.func @k(%A: memref<?xf32>) attributes {tcgen.kernel}`
    After:  `gpu.module @tcgen_reschedule { gpu.func @k(%A: memref<1099511627776xf32>) kernel }`
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // TCGEN_RESCHEDULE_PASSES_TD
