//===- Passes.td - tcgen sm80 target passes ----------------*- tablegen -*-===//

#ifndef TCGEN_TARGETS_SM80_PASSES_TD
#define TCGEN_TARGETS_SM80_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenSM80LowerMMAPass : Pass<"tcgen-sm80-lower-mma", "func::FuncOp"> {
  let summary = "Lower 16x16x16 gpu.subgroup_mma fragments to ldmatrix and mma.sync";
  let description = [{
    In functions whose `#tcgen.config` selects the `sm80` back end, rewrites
    the warp-level fragment operations that tcgen-wmma-map-mma and
    tcgen-hoist-accumulators left (on scf loops, after lower-affine) into
    the explicit Ampere instructions, with the per-lane layouts of PTX's
    m16n8k16 `mma.sync`:

    - an A fragment (16x16 of a row-major shared tile) is one
      `nvgpu.ldmatrix` of four 8x8 matrices (lane l addresses row l % 16,
      column 8 (l / 16)): `vector<4x2xf16>`;
    - a B fragment (16 k x 16 n of a [k][n] shared tile) is one
      `nvgpu.ldmatrix` with `transpose = true` and the same addressing; its
      rows 0-1 are the first n8 half's operand, rows 2-3 the second's;
    - a C fragment is `vector<4x2xT>` (T = f32 or f16): rows 2h and 2h + 1
      hold the n8 half h's accumulator pairs at rows l / 4 and l / 4 + 8,
      columns 8h + 2 (l % 4); C is loaded and stored as `vector<2xT>` per
      row and half;
    - `gpu.subgroup_mma_compute` is two `nvgpu.mma.sync` m16n8k16, one per
      n8 half; a constant fragment is a splat vector. In a function marked
      `tcgen.bf16_operands` (bf16 A and B carried as f16 bits by
      tcgen-lower-contraction) the two products are `nvvm.mma.sync` with
      bf16 multiplicands on the fragments' registers reinterpreted as i32.

    Loop-carried fragments (scf.for iter_args) are converted with them.
    Fragments of another shape, transposed loads, A or B fragments read from
    outside shared memory and elementwise fragment ops are errors.
  }];
  let dependentDialects = ["::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TCGenSM80SwizzleSharedPass : Pass<"tcgen-sm80-swizzle-shared", "func::FuncOp"> {
  let summary = "XOR-swizzle the unpadded shared tiles of sm80 kernels";
  let description = [{
    In functions whose `#tcgen.config` selects the `sm80` back end with
    `padding = 0`, rewrites the indices of every access to a shared tile
    (the `nvgpu.device_async_copy` stores and the `nvgpu.ldmatrix` loads)
    through the XOR swizzle of include/tcgen/Targets/SM80/Swizzle.h: each
    128-byte line's eight 16-byte chunks are permuted by the line (or, for
    rows of 128 bytes or more, the row) modulo 8, so that the eight rows of
    an ldmatrix 8x8 matrix and the eight chunks of a quarter warp's copies
    fall on distinct banks. Every access goes through the same function of
    (row, chunk), so the layout stays consistent; an access the pass cannot
    rewrite (any other op reading or writing a shared tile, a column index
    that is not a multiple of the 16-byte chunk) is an error, never a
    silently unswizzled access.

    Before: `nvgpu.ldmatrix %sA[%r, %c]`
    After:  `nvgpu.ldmatrix %sA[%r', %c']` with `(%r', %c' / 8) = swizzle(%r, %c / 8)`
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TCGEN_TARGETS_SM80_PASSES_TD
