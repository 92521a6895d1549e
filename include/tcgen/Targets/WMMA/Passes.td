//===- Passes.td - tcgen WMMA target passes ----------------*- tablegen -*-===//

#ifndef TCGEN_TARGETS_WMMA_PASSES_TD
#define TCGEN_TARGETS_WMMA_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGenWMMAMapMMAPass : Pass<"tcgen-wmma-map-mma", "func::FuncOp"> {
  let summary = "Replace the scalar point loops by gpu.subgroup_mma operations";
  let description = [{
    Rewrites the point loops (point_m, point_n, point_k) of each configured
    nest to step by the MMA shape (16x16x16) and replaces their scalar
    multiply-add body by WMMA fragment operations (paper §3.3):

    Before: `%a = affine.load %sA[...]; %b = ...; %c = affine.load %C[...];
             %p = arith.mulf ...; %s = arith.addf ...; affine.store %s, %C[...]`
    After:
    ```mlir
    %fa = gpu.subgroup_mma_load_matrix %sA[%r, %c] {leadDimension = 40 : index}
          : memref<128x40xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %sB[...] ... -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %C[...]  ... -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc ...
    gpu.subgroup_mma_store_matrix %fd, %C[...] ...
    ```
    The row stride of each memref is the fragment's leading dimension.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // TCGEN_TARGETS_WMMA_PASSES_TD
