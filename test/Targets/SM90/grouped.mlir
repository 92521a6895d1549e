// RUN: tcgen-opt %s --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-grouped)' | FileCheck %s

// A grouped product (tcgen/Analysis/Grouped.h; what `tcgen compile
// --einsum "tk,gnk->tn" --group g --sizes t=?,n=128,k=64,g=4` builds): the
// sm90 kernel takes A's and B's tensor maps, C and the offsets as bare
// pointers; it counts the groups' tiles from the offsets (sum over g of
// ceil((offsets[g + 1] - offsets[g]) / 128) x 1 column tile), views C at
// offsets[G] rows, walks its tiles from block %bid in steps of the grid,
// maps each tile to its group with a scan over the offsets, loads B's tile
// at the group's coordinate and stores C's rows below the group's end.
#a = affine_map<(t, n, k, g) -> (t, k)>
#b = affine_map<(t, n, k, g) -> (g, n, k)>
#g = affine_map<(t, n, k, g) -> (g)>
#c = affine_map<(t, n, k, g) -> (t, n)>
func.func @moe(%A: memref<?x64xf16>, %B: memref<4x128x64xf16>, %off: memref<5xi32>, %C: memref<?x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x128xf32>)
  %lo = memref.subview %off[0] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1]>>
  %hi = memref.subview %off[1] [4] [1] : memref<5xi32> to memref<4xi32, strided<[1], offset: 1>>
  linalg.generic {indexing_maps = [#a, #b, #g, #g, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%A, %B, %lo, %hi : memref<?x64xf16>, memref<4x128x64xf16>, memref<4xi32, strided<[1]>>, memref<4xi32, strided<[1], offset: 1>>) outs(%C : memref<?x128xf32>) {
  ^bb0(%x: f16, %w: f16, %s0: i32, %s1: i32, %acc: f32):
    %t = linalg.index 0 : index
    %ti = arith.index_cast %t : index to i32
    %ge = arith.cmpi sge, %ti, %s0 : i32
    %lt = arith.cmpi slt, %ti, %s1 : i32
    %in = arith.andi %ge, %lt : i1
    %xf = arith.extf %x : f16 to f32
    %wf = arith.extf %w : f16 to f32
    %p = arith.mulf %xf, %wf : f32
    %sum = arith.addf %acc, %p : f32
    %r = arith.select %in, %sum, %acc : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @moe(
// CHECK-SAME:    {tcgen.operand = "A"}
// CHECK-SAME:    {tcgen.operand = "B"}
// CHECK-SAME:    {tcgen.operand = "offsets"}
// CHECK-SAME:    {tcgen.operand = "C"}
// CHECK-SAME:    tcgen.groups = 4 : i64
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.subview
// CHECK:       gpu.func @moe_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[C:.*]]: memref<1xf32>, %[[OFF:.*]]: memref<5xi32>) kernel
// CHECK-SAME:    tcgen.launch = array<i64: -1, 1, 1, 384, 1, 1,
// CHECK-SAME:    tcgen.params = ["tensormap:A", "tensormap:B", "ptr:C", "ptr:offsets"]
// CHECK-SAME:    tcgen.tensormap_boxes = {A = array<i64: 64, 128>, B = array<i64: 64, 128, 1>}
// The tile count: one pass over the groups at the kernel's start.
// CHECK:         %[[LO0:.*]] = memref.load %[[OFF]][%c0] : memref<5xi32>
// CHECK:         %[[COUNT:.*]]:2 = scf.for %[[G:.*]] = %c0 to %c4 step %c1 iter_args(%[[SUM:.*]] = %c0, %[[LO:.*]] = %{{.*}})
// CHECK:           %[[G1:.*]] = arith.addi %[[G]], %c1
// CHECK:           %[[HI:.*]] = memref.load %[[OFF]][%[[G1]]]
// CHECK:           %[[HIX:.*]] = arith.index_cast %[[HI]] : i32 to index
// CHECK:           %[[ROWS:.*]] = arith.subi %[[HIX]], %[[LO]]
// CHECK:           arith.addi %[[ROWS]], %c127
// CHECK:           arith.divui
// CHECK:           scf.yield %{{.*}}, %[[HIX]]
// C viewed at offsets[G] rows.
// CHECK:         memref.load %[[OFF]][%c4]
// CHECK:         %[[CV:.*]] = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [%{{.*}}, 128], strides: [128, 1] : memref<1xf32> to memref<?x128xf32>
// The producer: its tiles, each mapped to (group, row tile, column tile)
// by a scan that starts at the previous tile's group (group 0, no tiles
// before it, offsets[0] for the first) and carries its state on.
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %[[COUNT]]#0 step %{{.*}} iter_args(%{{.*}} = %c0, %[[G0:.*]] = %c0, %[[B0:.*]] = %c0, %[[L0:.*]] = %{{.*}})
// CHECK:           %[[SCAN:.*]]:5 = scf.while (%{{.*}} = %[[G0]], %{{.*}} = %[[B0]], %{{.*}} = %[[L0]])
// CHECK:             memref.load %[[OFF]]
// CHECK:             %[[PAST:.*]] = arith.cmpi ule, %{{.*}}, %[[T]] : index
// CHECK:             scf.condition(%[[PAST]])
// CHECK:           %[[IN:.*]] = arith.subi %[[T]], %[[SCAN]]#1 : index
// CHECK:           %[[RT:.*]] = arith.remui %[[IN]], %[[SCAN]]#4 : index
// CHECK:           %[[CT:.*]] = arith.divui %[[IN]], %[[SCAN]]#4 : index
// CHECK:           %[[RO:.*]] = arith.muli %[[RT]], %c128
// CHECK:           %[[M0:.*]] = arith.addi %[[SCAN]]#2, %[[RO]] : index
// CHECK:           %[[N0:.*]] = arith.muli %[[CT]], %c128
// A at (k, offsets[g] + row tile x 128), B at (k, n0, g).
// CHECK:           nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[M0]]]
// CHECK:           nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[N0]], %[[SCAN]]#0]
// CHECK:           scf.yield %{{.*}}, %[[SCAN]]#0, %[[SCAN]]#1, %[[SCAN]]#2 : index, index, index, index
// The consumers: the same walk; rows at or past offsets[g + 1] not stored.
// CHECK:         scf.for %[[TC:.*]] = %{{.*}} to %[[COUNT]]#0 step
// CHECK:           %[[SC:.*]]:5 = scf.while
// CHECK:           %[[IN0:.*]] = arith.cmpi ult, %[[R0:.*]], %[[SC]]#3 : index
// CHECK:           %[[IN1:.*]] = arith.cmpi ult, %[[R1:.*]], %[[SC]]#3 : index
// CHECK:           scf.if %[[IN0]]
// CHECK-NEXT:        vector.store %{{.*}}, %[[CV]][%[[R0]], %{{.*}}] : memref<?x128xf32>, vector<2xf32>
