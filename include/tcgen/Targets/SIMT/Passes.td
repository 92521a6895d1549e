//===- Passes.td - tcgen SIMT (CUDA-core) target passes ----*- tablegen -*-===//

#ifndef TCGEN_TARGETS_SIMT_PASSES_TD
#define TCGEN_TARGETS_SIMT_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenSIMTBuildKernelPass : Pass<"tcgen-simt-build-kernel", "ModuleOp"> {
  let summary = "Generate CUDA-core (FFMA) f32 matmul kernels";
  let description = [{
    Replaces each contraction whose `#tcgen.config` selects the `simt` back
    end (f32 x f32 -> f32 on CUDA cores, for GPUs or dtypes without tensor
    cores) by a `gpu.launch` of a generated kernel, after seed 002's design:

    - block tiles `block_tile = [BM, BN, BK]`: one block per BM x BN tile
      of C (grid x over N, y over M, z over the batch);
    - warp tiles `warp_tile = [WM, WN, BK]` and thread tiles
      `mma = [TM, TN, 1]`: each thread accumulates TM x TN outputs in
      registers, interleaved in strips of 4 (thread (lm, ln) of its warp
      owns rows s * (WM / TM) * 4 + lm * 4 + [0, 4) for s < TM / 4, and the
      columns likewise), so that its A and B fragments are 16-byte shared
      loads without bank conflicts;
    - both tiles in shared memory K-major (As[k][m], Bs[k][n]) with
      `padding` elements after each row; an operand whose rows run along K
      is transposed on its way in;
    - double buffering (seed 002 Algorithm 3): the next K tile is loaded
      into registers before the current one is multiplied, stored into the
      other buffer after it, one barrier per K tile;
    - any size: tiles at the edges read clamped addresses and zero what is
      out of bounds, and stores are predicated; where the sizes divide the
      tiles, no check is generated. Global accesses are 16 bytes wide where
      the rows allow (a multiple of 4 elements), else 4.

    With the zero fill of C in front the kernel writes C = A*B, otherwise
    C += A*B. An elementwise consumer that findEpilogue accepts is fused:
    the thread applies its body to each accumulator and writes the
    consumer's output.

    Before: `linalg.fill` (zero) + `linalg.matmul {tcgen.config = #tcgen.config<backend = "simt", ...>}`
    After:  `gpu.launch_func @f_kernel::@f_kernel ...` and `gpu.module
    @f_kernel { gpu.func @f_kernel(%A, %B, %C) kernel attributes
    {nvvm.minctasm = 2 : i32, ...} { ... llvm.intr.fma ... } }` (the kernel
    asks for 512 threads' worth of blocks per SM: at most 128 registers).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Compute an elementwise consumer of the result in the kernel's "
           "epilogue">,
  ];
}

#endif // TCGEN_TARGETS_SIMT_PASSES_TD
