// RUN: tcgen-opt %s -split-input-file --tcgen-raise-llvm-kernel | FileCheck %s

// The shape of clang's output for `As[ty][tx] = A[i]; __syncthreads();
// if (tx < n) C[tx] = As[tx][0] * 2`: parameters become memrefs, the
// shared array a workgroup memref.global, GEP chains indices, special
// registers gpu ids, the barrier gpu.barrier, branches cf.
llvm.mlir.global internal @As() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<16 x array<16 x f32>> {
  %0 = llvm.mlir.undef : !llvm.array<16 x array<16 x f32>>
  llvm.return %0 : !llvm.array<16 x array<16 x f32>>
}

// CHECK: memref.global "private" @As : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 4 : i64}
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    %[[C:.*]]: memref<?xf32>, %[[A:.*]]: memref<?xf32>, %[[N:.*]]: i32) attributes {tcgen.kernel}
// CHECK:         %[[AS:.*]] = memref.get_global @As : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[TX:.*]] = gpu.thread_id  x
// CHECK:         %[[TX32:.*]] = arith.index_cast %[[TX]] : index to i32
// CHECK:         %[[TY:.*]] = gpu.thread_id  y
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %[[TX32]] overflow<nsw> : i32
// CHECK:         %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK:         %[[II:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK:         %[[V:.*]] = memref.load %[[A]][%[[II]]] : memref<?xf32>
// CHECK:         memref.store %[[V]], %[[AS]][%{{.*}}, %{{.*}}] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         cf.cond_br %{{.*}}, ^[[THEN:.*]], ^[[EXIT:.*]]
// CHECK:       ^[[THEN]]:
// CHECK:         %[[AS2:.*]] = memref.get_global @As : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[S:.*]] = memref.load %[[AS2]][%{{.*}}, %{{.*}}] : memref<16x16xf32
// CHECK:         %[[M:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// Fast-math flags carry over (clang marks CUDA float arithmetic contract).
// CHECK:         arith.addf %[[M]], %{{.*}} fastmath<nnan,contract> : f32
// CHECK:         memref.store %{{.*}}, %[[C]][%{{.*}}] : memref<?xf32>
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    return
// CHECK-NOT:   llvm.mlir.global
llvm.func ptx_kernelcc @kernel(%C: !llvm.ptr, %A: !llvm.ptr, %n: i32) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c2 = llvm.mlir.constant(2.0 : f32) : f32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0_i32 = llvm.mlir.constant(0 : i32) : i32
  %as3 = llvm.mlir.addressof @As : !llvm.ptr<3>
  %as = llvm.addrspacecast %as3 : !llvm.ptr<3> to !llvm.ptr
  %tx = nvvm.read.ptx.sreg.tid.x : i32
  %ty = nvvm.read.ptx.sreg.tid.y : i32
  %row = llvm.mul %ty, %c16 overflow<nsw> : i32
  %i = llvm.add %row, %tx overflow<nsw> : i32
  %i64 = llvm.sext %i : i32 to i64
  %pa = llvm.getelementptr inbounds %A[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %pa : !llvm.ptr -> f32
  %ty64 = llvm.sext %ty : i32 to i64
  %tx64 = llvm.sext %tx : i32 to i64
  %prow = llvm.getelementptr inbounds %as[%c0, %ty64] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<16 x array<16 x f32>>
  %pe = llvm.getelementptr inbounds %prow[%c0, %tx64] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<16 x f32>
  llvm.store %v, %pe : f32, !llvm.ptr
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%c0_i32) : (i32) -> ()
  %cmp = llvm.icmp "slt" %tx, %n : i32
  llvm.cond_br %cmp, ^then, ^exit
^then:
  // As[tx] decays to &As[tx][0]: a load through a pointer to a row (from a
  // second addressof of the array).
  %as3b = llvm.mlir.addressof @As : !llvm.ptr<3>
  %asb = llvm.addrspacecast %as3b : !llvm.ptr<3> to !llvm.ptr
  %prow2 = llvm.getelementptr inbounds %asb[%c0, %tx64] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<16 x array<16 x f32>>
  %s = llvm.load %prow2 : !llvm.ptr -> f32
  %m0 = llvm.fmul %s, %c2 : f32
  %m = llvm.fadd %m0, %c2 {fastmathFlags = #llvm.fastmath<nnan, contract>} : f32
  %pc = llvm.getelementptr inbounds %C[%tx64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %m, %pc : f32, !llvm.ptr
  llvm.br ^exit
^exit:
  llvm.return
}
