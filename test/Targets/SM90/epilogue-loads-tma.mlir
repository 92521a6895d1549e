// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/frag.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=FRAG
// RUN: tcgen-opt %t/auto.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=AUTO
// RUN: tcgen-opt %t/autosk.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=AUTOSK

//--- check.mlir
// relu(A B + D) with epilogue-loads = tma: D becomes a tensor map (the C
// store chunk's box) and is read through the TMA-store chunk buffers. At
// each chunk, once the buffer is free, the warpgroup's leader loads D's
// chunk there (one mbarrier per warpgroup and buffer, 8 KiB expected),
// every thread waits on it with the buffer's use count as the phase, and
// reads its pairs where it then stores its results: no global loads of D.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}
// CHECK-LABEL: gpu.func @add_relu_kernel(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[PE:.*]]: !llvm.ptr) kernel
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "tensormap:E0"]
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 64>, C = array<i64: 64, 64>, E0 = array<i64: 64, 64>}
// CHECK:         %[[TE:.*]] = builtin.unrealized_conversion_cast %[[PE]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b
// CHECK:         %[[EBAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK:         nvgpu.mbarrier.init %[[EBAR]][%{{.*}}], %{{.*}} : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// The block's first item: before its main loop, the warpgroup's leader
// loads D's chunks 0 and 1 (no store has used the buffers yet), so that the
// loads overlap the main loop.
// CHECK:         nvvm.setmaxregister increase
// CHECK:         %[[DONE:.*]] = arith.subi %arg{{[0-9]+}}, %{{.*}} : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpi ult, %[[DONE]], %{{.*}} : index
// CHECK-NEXT:    %[[LEAD0:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[PLEAD:.*]] = arith.andi %[[LEAD0]], %[[FIRST]] : i1
// CHECK:         scf.if %[[PLEAD]] {
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[EBAR]][%{{.*}}], %c8192{{.*}}
// CHECK-NEXT:      nvgpu.tma.async.load %[[TE]][%{{.*}}, %{{.*}}], %[[EBAR]][%{{.*}}] to %{{.*}} : <tensor = memref<64x64xf16, 3>{{.*}} -> memref<64x64xf16, 3>
// CHECK:         scf.if %[[PLEAD]] {
// CHECK:           nvgpu.tma.async.load %[[TE]]
// CHECK:         nvvm.wgmma.mma_async
// The first chunk: once every store has read the buffers, later items load
// chunks 0 and 1 here (chunk 1 overlaps chunk 0's work); then chunk 0's is
// waited for.
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:    nvvm.barrier id
// CHECK:         %[[LATER:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[LEAD01:.*]] = arith.andi %{{.*}}, %[[LATER]] : i1
// CHECK:         scf.if %[[LEAD01]] {
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[EBAR]][%{{.*}}], %c8192{{.*}}
// CHECK-NEXT:      nvgpu.tma.async.load %[[TE]][%{{.*}}, %{{.*}}], %[[EBAR]][%{{.*}}] to %{{.*}} : <tensor = memref<64x64xf16, 3>{{.*}} -> memref<64x64xf16, 3>
// CHECK:         scf.if %[[LEAD01]] {
// CHECK:           nvgpu.tma.async.load %[[TE]]
// CHECK:         nvgpu.mbarrier.try_wait.parity %[[EBAR]][%{{.*}}], %{{.*}}, %{{.*}}
// The pair comes from the chunk buffer, then the epilogue, then the store
// to the same address.
// CHECK:         %[[P:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-NEXT:    %[[L:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT:    %[[V:.*]] = llvm.bitcast %[[L]] : i32 to vector<2xf16>
// CHECK:         arith.maximumf
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// The second (last) chunk waits for every store to have read its buffer
// and loads nothing more; its data came with chunk 0.
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT:     nvgpu.tma.async.load
// CHECK:         nvgpu.mbarrier.try_wait.parity %[[EBAR]]
// CHECK-NOT:     vector.load
// CHECK:         gpu.return
// By default (epilogue-loads = auto) D is read with TMA where that applies;
// with stream-K it is not, and auto falls back to the fragment loads.
// AUTO-LABEL: gpu.func @add_relu_kernel(
// AUTO-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "tensormap:E0"]
// AUTOSK-LABEL: gpu.func @add_relu_kernel(
// AUTOSK-SAME:    "tensormap:C", "ptr:E0"
// AUTOSK:         vector.load %{{.*}} : memref<256x256xf16>, vector<2xf16>
// FRAG-LABEL: gpu.func @add_relu_kernel(
// FRAG-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:E0"]
// FRAG:         vector.load %{{.*}} : memref<256x256xf16>, vector<2xf16>

//--- frag.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", epilogue_loads = "fragments">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

//--- auto.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

//--- autosk.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = true, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}
