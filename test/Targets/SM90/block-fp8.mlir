// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure),tcgen-sm90-build-kernel)' | FileCheck %s

// Block-scaled fp8 (DeepSeek-V3's recipe): the kernel takes the scales SA
// and SB as plain pointers after C, and per k-tile (one 128-wide K block)
// loads the thread's two SA scales and the tile's SB scale, multiplies the
// k-tile into a temporary accumulator set from zero (four wgmma m64n128k32
// e4m3, the first with scale-d 0), waits for it, releases the stage and
// promotes: acc = fma(tmp, SA[row][kb] x SB[nb][kb], acc) on the 64
// accumulator registers (zero before the first k-tile).
// CHECK-LABEL: func.func @bfp8(
// CHECK-SAME:    {tcgen.operand = "SA"}
// CHECK-SAME:    {tcgen.operand = "SB"}
// CHECK-SAME:    attributes {tcgen.block_scales, tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 128], warp = [64, 128, 128], mma = [64, 128, 32]
// CHECK:       gpu.func @bfp8_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:SA", "ptr:SB"]
// CHECK:         %[[SA:.+]] = llvm.addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
// CHECK:         %[[SB:.+]] = llvm.addrspacecast %arg4 : !llvm.ptr to !llvm.ptr<1>
// CHECK:         %[[ROW0:.+]] = llvm.getelementptr %[[SA]][%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         %[[ROW1:.+]] = llvm.getelementptr %[[SA]][%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         %[[NB:.+]] = llvm.getelementptr %[[SB]][%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK:         scf.for %[[KB:.+]] = %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]])
// CHECK:           %[[KB64:.+]] = arith.index_cast %[[KB]] : index to i64
// CHECK:           %[[P0:.+]] = llvm.getelementptr %[[ROW0]][%[[KB64]]]
// CHECK-NEXT:      %[[SA0:.+]] = llvm.load %[[P0]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %[[P1:.+]] = llvm.getelementptr %[[ROW1]][%[[KB64]]]
// CHECK-NEXT:      %[[SA1:.+]] = llvm.load %[[P1]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %[[PB:.+]] = llvm.getelementptr %[[NB]][%[[KB64]]]
// CHECK-NEXT:      %[[SBV:.+]] = llvm.load %[[PB]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %[[S0:.+]] = llvm.fmul %[[SA0]], %[[SBV]] : f32
// CHECK-NEXT:      %[[S1:.+]] = llvm.fmul %[[SA1]], %[[SBV]] : f32
// CHECK:           %[[UNDEF:.+]] = llvm.mlir.undef
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           %[[W0:.+]] = nvvm.wgmma.mma_async {{.*}}, %[[UNDEF]], <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>]
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:      %[[STAGE:.+]] = arith.remui
// CHECK-NEXT:      nvgpu.mbarrier.arrive
// CHECK-NEXT:      %[[T0:.+]] = llvm.extractvalue %[[TMP:.+]][0]
// CHECK-NEXT:      %[[A0:.+]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT:      %[[F0:.+]] = llvm.intr.fma(%[[T0]], %[[S0]], %[[A0]])
// CHECK-NEXT:      llvm.insertvalue %[[F0]], %[[ACC]][0]
// CHECK:           llvm.intr.fma(%{{.+}}, %[[S0]], %{{.+}})
// CHECK:           llvm.intr.fma(%{{.+}}, %[[S1]], %{{.+}})
// CHECK:           llvm.intr.fma(%{{.+}}, %[[S1]], %{{.+}})
// CHECK-COUNT-60:  llvm.intr.fma
// CHECK-NOT:       llvm.intr.fma
// CHECK:           scf.yield
func.func @bfp8(%a: memref<256x512xf8E4M3FN>, %b: memref<320x512xf8E4M3FN>,
                %sa: memref<256x4xf32>, %sb: memref<3x4xf32>, %c: memref<256x320xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x320xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, k floordiv 128)>,
                                   affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<256x512xf8E4M3FN>, memref<320x512xf8E4M3FN>, memref<256x4xf32>, memref<3x4xf32>)
      outs(%c : memref<256x320xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %s: f32, %t: f32, %acc: f32):
    // The factors in another order than the spec's: any order is the form.
    %st = arith.mulf %s, %t : f32
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %q = arith.mulf %st, %p : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  }
  return
}
