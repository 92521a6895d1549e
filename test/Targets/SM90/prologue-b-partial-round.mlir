// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s

// A prologue on B in shared memory with three consumer warpgroups (block
// tile M = 192): B's tile, 128 rows of 128 bytes, is 16 KiB, and the 384
// consumer threads rewrite 6 KiB a round, so the third round covers the
// last 4 KiB only and its threads past the tile's end skip. (Two whole
// rounds alone left a quarter of B untransformed: a wrong result found by
// the random-problem run.)
// CHECK-LABEL: gpu.func @neg_b_kernel(
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:         arith.negf
// CHECK:         llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:         llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         %[[LAST:.*]] = arith.cmpi ult, %{{.*}}, %c4096_i32{{.*}} : i32
// CHECK-NEXT:    scf.if %[[LAST]] {
// CHECK:           llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:           arith.negf
// CHECK:           llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// CHECK-NEXT:    nvvm.barrier id = %c7_i32 number_of_threads = %c384_i32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @neg_b(%A: memref<384x128xf16>, %B: memref<128x256xf16>,
                 %C: memref<384x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.negf %x : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f16) outs(%C : memref<384x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [192, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 4, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%A, %R : memref<384x128xf16>, memref<128x256xf16>)
                outs(%C : memref<384x256xf16>)
  return
}
