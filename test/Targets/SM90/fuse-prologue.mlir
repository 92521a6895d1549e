// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/regs.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=REGS
// RUN: tcgen-opt %t/pack.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=PACK

//--- check.mlir
// With prologue=pack the operand is transformed once, by a pack kernel
// into the copy the kernel reads; the main loop has no prologue.
// PACK-LABEL: func.func @relu_a(
// PACK:       gpu.func @relu_a_kernel(
// PACK-SAME:    tcgen.packs = [{block = array<i64: 256, 1, 1>, entry = "relu_a_kernel_pack_A"
// PACK-NOT:     !llvm.ptr<3> -> vector<8xf16>
// PACK:       gpu.func @relu_a_kernel_pack_A(
// PACK:         arith.maximumf
// PACK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>

// By default (prologue=auto, as prologue=regs) a prologue on A runs in
// registers: lane l of warp v of warpgroup w addresses row 16 v + l % 16 of
// the w-th 8 KiB slab, 16-byte chunk (2 kk + l / 16) ^ (l % 8) for k-step
// kk; each k-step loads the next one's fragment with ldmatrix, transforms
// it, and multiplies with wgmma's register-A form as a group of its own,
// waiting until at most two groups are in flight. The loop carries the
// next k-tile's first fragment; nothing is written back to shared memory.
// REGS-LABEL: gpu.func @relu_a_kernel(
// REGS:         %[[HALF:.*]] = arith.divui %{{.*}}, %c16_i32{{.*}} : i32
// REGS:         %[[ROW8:.*]] = arith.remui %{{.*}}, %c8_i32 : i32
// REGS:         arith.muli %{{.*}}, %c8192_i32{{.*}} : i32
// REGS:         %[[Y:.*]] = arith.xori %[[HALF]], %[[ROW8]] : i32
// REGS:         arith.xori %[[Y]], %c0_i32{{.*}} : i32
// REGS:         arith.xori %[[Y]], %c2_i32 : i32
// REGS:         arith.xori %[[Y]], %c4_i32{{.*}} : i32
// REGS:         arith.xori %[[Y]], %c6_i32 : i32
// REGS:         nvgpu.mbarrier.try_wait.parity
// REGS:         %[[M:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// REGS:         %[[R:.*]] = llvm.extractvalue %[[M]][0]
// REGS:         %[[V:.*]] = llvm.bitcast %[[R]] : i32 to vector<2xf16>
// REGS:         %[[X:.*]] = vector.extract %[[V]][0] : f16 from vector<2xf16>
// REGS:         arith.maximumf %[[X]], %{{.*}} : f16
// REGS:         nvvm.ldmatrix
// REGS:         nvvm.wgmma.fence.aligned
// REGS:         llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $69, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, {$64, $65, $66, $67}, $68, p, 1, 1, 1; }", "=f,{{.*}},=f,r,r,r,r,l,r,0,1,{{.*}},63"
// REGS-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// REGS-NEXT:    nvvm.wgmma.wait.group.sync.aligned 2
// REGS:         %{{.*}}:5 = scf.for {{.*}} -> (!llvm.struct<({{.*}})>, i32, i32, i32, i32)
// REGS-NOT:     nvvm.barrier id
// REGS-NOT:     llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// REGS:         nvvm.wgmma.wait.group.sync.aligned 2
// REGS:         scf.yield
// REGS-NEXT:    }
// REGS-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// REGS-NOT:     func.call @tcgen_prologue
// The prologue on B is not in registers (wgmma reads B from shared memory).
// REGS-LABEL: gpu.func @relu_b_kernel(
// REGS-NOT:     nvvm.ldmatrix
// REGS:         llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// REGS:         nvvm.wgmma.mma_async

// C = relu(A) * B: the producer of A (a local buffer) becomes the kernel's
// prologue. The kernel reads the producer's input through A's tensor map;
// after a stage's A tile lands, each consumer warpgroup rewrites its 8 KiB
// slab in shared memory (four 16-byte pieces per thread, the producer's
// body per element), fences the writes for the async proxy and waits for
// its 128 threads before its wgmma; the producer and the buffer are gone.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}
// CHECK-LABEL: func.func @relu_a(
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<256x128xf16> {tcgen.operand = "A"}
// CHECK-SAME:    tcgen.fused_prologue = {inputs = [], matmul_dtype = "f16", ops = [{args = [], dtype = "f16", op = "constant", value = 0.000000e+00 : f64}, {args = [0, 1], dtype = "f16", op = "maximumf"}], result = 2 : i64}
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.alloc
// CHECK:         return
// CHECK:       gpu.func @relu_a_kernel(
// The consumers' prologue: slab 8192 w, thread t at 16 t within it.
// CHECK:         %[[T16:.*]] = arith.muli %{{.*}}, %c16_i32 : i32
// CHECK:         %[[SLAB:.*]] = arith.muli %{{.*}}, %c8192_i32 : i32
// CHECK:         arith.addi %[[SLAB]], %[[T16]] : i32
// CHECK:         nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[S:.*]]],
// CHECK:         %[[P:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[V:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK:         %[[X:.*]] = vector.extract %[[V]][0] : f16 from vector<8xf16>
// CHECK:         %[[Y:.*]] = arith.maximumf %[[X]], %{{.*}} : f16
// CHECK:         vector.insert %[[Y]], %[[V]] [0]
// CHECK:         llvm.store %{{.*}}, %[[P]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK:         nvvm.wgmma.mma_async
// CHECK-NOT:     func.call @tcgen_prologue

// -----

// C = A * relu(B): B's tile is shared by the two consumer warpgroups of a
// 128-row tile, which split it (16 KiB of a 128-column tile: thread
// 128 w + t rewrites the pieces at 16 (128 w + t) + 4 KiB i, i < 4) and
// all 256 consumer threads meet at named barrier 7 before their wgmma.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">} ins(%A, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}
// CHECK-LABEL: func.func @relu_b(
// CHECK-SAME:    %{{[a-z0-9_]+}}: memref<128x256xf16> {tcgen.operand = "B"}
// CHECK-SAME:    tcgen.fused_prologue_operand = "B"
// CHECK-NOT:     linalg.generic
// CHECK:       gpu.func @relu_b_kernel(
// CHECK:         %[[T16:.*]] = arith.muli %{{.*}}, %c16_i32 : i32
// CHECK:         %[[SLAB:.*]] = arith.muli %{{.*}}, %c2048_i32 : i32
// CHECK:         %[[T0:.*]] = arith.addi %[[SLAB]], %[[T16]] : i32
// B's tile follows A's 16 KiB in the stage.
// CHECK:         arith.addi %[[T0]], %c16384_i32 : i32
// CHECK:         %[[BAR:.*]] = arith.constant 7 : i32
// CHECK:         %[[N:.*]] = arith.constant 256 : i32
// CHECK:         llvm.load {{.*}} -> vector<8xf16>
// CHECK-COUNT-4: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy
// CHECK-NEXT:    nvvm.barrier id = %[[BAR]] number_of_threads = %[[N]]
// CHECK-NEXT:    nvvm.wgmma.fence.aligned

// -----

// A stored [k][m] (read MN-major): the register form reads the same four
// 8x8 matrices per k-step from rows along K and transposes them (ldmatrix
// .trans, layout col): lane l addresses k row 8 (l / 16) + l % 8 of the
// slab, chunk (2 v + (l / 8) % 2) ^ (l % 8); k-steps are 2 KiB apart.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @relu_a_km(%A: memref<128x256xf16>, %B: memref<128x256xf16>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [#a, #b, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "smem">}
                ins(%R, %B : memref<128x256xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<128x256xf16>
  return
}
// REGS-LABEL: gpu.func @relu_a_km_kernel(
// REGS:         %[[L8:.*]] = arith.remui %{{.*}}, %c8_i32 : i32
// REGS:         arith.xori %{{.*}}, %[[L8]] : i32
// REGS:         %[[SH:.*]] = arith.shli %{{.*}}, %c4_i32 : i32
// REGS:         %[[BASE:.*]] = arith.addi %{{.*}}, %[[SH]] : i32
// REGS-NEXT:    arith.constant 0 : i32
// REGS-NEXT:    arith.addi %[[BASE]], %c0_i32{{.*}} : i32
// REGS:         arith.addi %[[BASE]], %c2048_i32{{.*}} : i32
// REGS:         arith.addi %[[BASE]], %c4096_i32{{.*}} : i32
// REGS:         arith.addi %[[BASE]], %c6144_i32{{.*}} : i32
// REGS:         nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
// REGS:         wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// REGS-NOT:     llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// REGS:         gpu.return

//--- regs.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @relu_a_km(%A: memref<128x256xf16>, %B: memref<128x256xf16>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [#a, #b, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">}
                ins(%R, %B : memref<128x256xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<128x256xf16>
  return
}

//--- pack.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_a(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf16>) outs(%R : memref<256x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "pack">} ins(%R, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_b(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                  %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%B : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "pack">} ins(%A, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @relu_a_km(%A: memref<128x256xf16>, %B: memref<128x256xf16>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %R = memref.alloc() : memref<128x256xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<128x256xf16>) outs(%R : memref<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %zh : f16
    linalg.yield %y : f16
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul indexing_maps = [#a, #b, #c] {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "pack">}
                ins(%R, %B : memref<128x256xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<128x256xf16>
  return
}
