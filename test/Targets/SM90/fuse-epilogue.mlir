// RUN: split-file %s %t
// RUN: tcgen-opt %t/check.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s
// RUN: tcgen-opt %t/tma.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)' | FileCheck %s --check-prefix=TMA

//--- check.mlir
// Bias along N + ReLU (the form bufferized tensors take): the consumer's
// output becomes the kernel's C, the bias its parameter E0, loaded as two
// f16 per fragment column pair; the body runs on the accumulator rounded to
// the matmul's f16. The intermediate buffer, the fill, the matmul and the
// consumer all leave the host function.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                     %bias: memref<256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x256xf16>, memref<256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<256x256xf16>
  return
}
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    {tcgen.operand = "B"}
// CHECK-SAME:    %{{.*}}: memref<256xf16> {tcgen.operand = "E0"}
// CHECK-SAME:    %{{.*}}: memref<256x256xf16> {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.fused_epilogue = {inputs = [{kind = "row", operand = "E0"}], matmul_dtype = "f16", ops = [{args = [0, 1], dtype = "f16", op = "addf"}, {args = [], dtype = "f16", op = "constant", value = 0.000000e+00 : f64}, {args = [2, 3], dtype = "f16", op = "maximumf"}], result = 4 : i64}
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   linalg.
// CHECK:       return
// CHECK:       gpu.func @bias_relu_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[C:.*]]: memref<256x256xf16>, %[[E0:.*]]: memref<256xf16>) kernel
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C", "ptr:E0"]
// The extra operands of eight fragment column groups are loaded before
// their arithmetic and stores; the accumulators are pinned after the wgmma
// wait and rounded in pairs.
// CHECK:       %[[BV:.*]] = vector.load %[[E0]][%[[COL:.*]]] : memref<256xf16>, vector<2xf16>
// CHECK:       %[[B0:.*]] = vector.extract %[[BV]][0]
// CHECK-COUNT-7: vector.load %[[E0]]
// CHECK-NOT:   vector.load
// CHECK:       %[[F0:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %{{.*}} : (f32) -> f32
// CHECK:       %[[F1:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %{{.*}} : (f32) -> f32
// CHECK:       %[[PK:.*]] = llvm.inline_asm "cvt.rn.f16x2.f32 $0, $1, $2;", "=r,f,f" %[[F1]], %[[F0]] : (f32, f32) -> i32
// CHECK:       %[[PV:.*]] = llvm.bitcast %[[PK]] : i32 to vector<2xf16>
// CHECK:       %[[R0:.*]] = vector.extract %[[PV]][0]
// CHECK:       %[[S0:.*]] = arith.addf %[[R0]], %[[B0]] : f16
// CHECK:       arith.maximumf %[[S0]], %{{.*}} : f16
// CHECK:       vector.store %{{.*}}, %[[C]][%{{.*}}, %[[COL]]] : memref<256x256xf16>, vector<2xf16>
// CHECK-NOT:   func.call
// CHECK-NOT:   tcgen_epilogue
// With TMA stores (the default) the epilogue's result, not the
// accumulator, goes into the chunk buffer.
// TMA:         gpu.func @bias_relu_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[E0:.*]]: memref<256xf16>) kernel
// TMA-SAME:      tcgen.params = ["tensormap:A", "tensormap:B", "tensormap:C", "ptr:E0"]
// TMA:         vector.load %[[E0]]
// TMA:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f16
// TMA:         %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f16
// TMA:         %[[V:.*]] = vector.from_elements %[[R]], %{{.*}} : vector<2xf16>
// TMA:         %[[I:.*]] = llvm.bitcast %[[V]] : vector<2xf16> to i32
// TMA-NEXT:    llvm.store %[[I]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// TMA:         nvvm.cp.async.bulk.tensor.global.shared.cta
// TMA-NOT:     vector.store

// -----

// A column vector, a scalar and a matrix, f32 accumulator, bf16 output:
// the scalar is loaded once per consumer, the column vector once per tile
// (two rows per thread), the matrix per element pair.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @mixed(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                 %scale: memref<256xf32>, %alpha: memref<f32>,
                 %res: memref<256x256xbf16>, %out: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #col, #scalar, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %scale, %alpha, %res : memref<256x256xf32>, memref<256xf32>, memref<f32>, memref<256x256xbf16>)
      outs(%out : memref<256x256xbf16>) {
  ^bb0(%x: f32, %s: f32, %a: f32, %r: bf16, %o: bf16):
    %p = arith.mulf %x, %s : f32
    %q = arith.mulf %p, %a : f32
    %re = arith.extf %r : bf16 to f32
    %y = arith.addf %q, %re : f32
    %t = math.tanh %y : f32
    %yb = arith.truncf %t : f32 to bf16
    linalg.yield %yb : bf16
  }
  return
}
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:    memref<256xf32> {tcgen.operand = "E0"}
// CHECK-SAME:    memref<f32> {tcgen.operand = "E1"}
// CHECK-SAME:    memref<256x256xbf16> {tcgen.operand = "E2"}
// CHECK-SAME:    memref<256x256xbf16> {tcgen.operand = "C"}
// CHECK-SAME:    inputs = [{kind = "col", operand = "E0"}, {kind = "scalar", operand = "E1"}, {kind = "matrix", operand = "E2"}], matmul_dtype = "f32"
// CHECK:       gpu.func @mixed_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[C:.*]]: memref<256x256xbf16>, %[[E0:.*]]: memref<256xf32>, %[[E1:.*]]: memref<f32>, %[[E2:.*]]: memref<256x256xbf16>) kernel
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C", "ptr:E0", "ptr:E1", "ptr:E2"]
// CHECK:       %[[ALPHA:.*]] = memref.load %[[E1]][] : memref<f32>
// CHECK:       scf.for
// CHECK:       %[[S0:.*]] = memref.load %[[E0]][%[[ROW0:.*]]] : memref<256xf32>
// CHECK:       %[[S1:.*]] = memref.load %[[E0]][%[[ROW1:.*]]] : memref<256xf32>
// CHECK:       %[[RV:.*]] = vector.load %[[E2]][%[[ROW0]], %{{.*}}] : memref<256x256xbf16>, vector<2xbf16>
// CHECK-NOT:   cvt.rn
// CHECK:       %[[P:.*]] = arith.mulf %{{.*}}, %[[S0]] : f32
// CHECK:       arith.mulf %[[P]], %[[ALPHA]] : f32
// A 16-bit output: tanh is the hardware's tanh.approx.f32, not libdevice's.
// CHECK-NOT:   math.tanh
// CHECK:       llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK:       vector.store %{{.*}}, %[[C]][%[[ROW0]], %{{.*}}] : memref<256x256xbf16>, vector<2xbf16>

// -----

// In place: the consumer updates the matmul's own output (a function
// argument that nobody reads in between), taking the result from its output
// block argument.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<256x256xf32>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %two : f32
    linalg.yield %y : f32
  }
  return
}
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME:    memref<256x256xf32> {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.fused_epilogue = {inputs = [], matmul_dtype = "f32", ops = [{args = [], dtype = "f32", op = "constant", value = 2.000000e+00 : f64}, {args = [0, 1], dtype = "f32", op = "mulf"}], result = 2 : i64}
// CHECK-NOT:   linalg.
// CHECK:       gpu.func @in_place_kernel(
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C"]
// CHECK:       %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:       arith.mulf %{{.*}}, %[[TWO]] : f32

// -----

// An f32 output keeps the precise tanh (libdevice's, after lowering).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tanh_f32(%A: memref<256x128xf16>, %B: memref<128x256xf16>, %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 7, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  }
  return
}
// CHECK-LABEL: gpu.func @tanh_f32_kernel(
// CHECK:         math.tanh %{{.*}} : f32
// CHECK-NOT:     tanh.approx
// TMA-LABEL:   gpu.func @tanh_f32_kernel(
// TMA:           math.tanh %{{.*}} : f32

//--- tma.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                     %bias: memref<256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<256x256xf16>, memref<256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %b: f16, %o: f16):
    %s = arith.addf %x, %b : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %C : memref<256x256xf16>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @mixed(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                 %scale: memref<256xf32>, %alpha: memref<f32>,
                 %res: memref<256x256xbf16>, %out: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #col, #scalar, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %scale, %alpha, %res : memref<256x256xf32>, memref<256xf32>, memref<f32>, memref<256x256xbf16>)
      outs(%out : memref<256x256xbf16>) {
  ^bb0(%x: f32, %s: f32, %a: f32, %r: bf16, %o: bf16):
    %p = arith.mulf %x, %s : f32
    %q = arith.mulf %p, %a : f32
    %re = arith.extf %r : bf16 to f32
    %y = arith.addf %q, %re : f32
    %t = math.tanh %y : f32
    %yb = arith.truncf %t : f32 to bf16
    linalg.yield %yb : bf16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<256x256xf32>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %two : f32
    linalg.yield %y : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tanh_f32(%A: memref<256x128xf16>, %B: memref<128x256xf16>, %out: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma">} ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  }
  return
}
