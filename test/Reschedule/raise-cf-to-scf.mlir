// RUN: tcgen-opt %s -split-input-file --tcgen-raise-cf-to-scf | FileCheck %s

// The loop clang writes for `for (k = 0; k < 16; ++k) s += x[k]`: a header
// block comparing the induction variable, a body incrementing it.
// CHECK-LABEL: func.func @counted_loop
// CHECK-NOT:     cf.
// CHECK:         %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f32)  : i32 {
// CHECK:           memref.load
// CHECK:           scf.yield
// CHECK:         return %[[R]]
func.func @counted_loop(%x: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.0 : f32
  cf.br ^header(%c0, %zero : i32, f32)
^header(%k: i32, %s: f32):
  %cmp = arith.cmpi slt, %k, %c16 : i32
  cf.cond_br %cmp, ^body, ^exit
^body:
  %i = arith.index_cast %k : i32 to index
  %v = memref.load %x[%i] : memref<?xf32>
  %s2 = arith.addf %s, %v : f32
  %k2 = arith.addi %k, %c1 overflow<nsw> : i32
  cf.br ^header(%k2, %s2 : i32, f32)
^exit:
  return %s : f32
}

// -----

// `a <= end` with `a += 16` (nsw): the bound becomes end + 1, strict.
// CHECK-LABEL: func.func @inclusive_bound
// CHECK:         %[[END1:.*]] = arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[END1]] step %{{.*}}  : i32
func.func @inclusive_bound(%begin: i32, %end: i32, %x: memref<?xf32>) {
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  cf.br ^header(%begin : i32)
^header(%a: i32):
  %cmp = arith.cmpi sle, %a, %end : i32
  cf.cond_br %cmp, ^body, ^exit
^body:
  %i = arith.index_cast %a : i32 to index
  memref.store %one, %x[%i] : memref<?xf32>
  %a2 = arith.addi %a, %c16 overflow<nsw> : i32
  cf.br ^header(%a2 : i32)
^exit:
  return
}

// -----

// `if (t < n) x[t] = 1`: an scf.if. A loop whose increment may wrap (no
// nsw) and an `<=` bound keeps its scf.while.
// CHECK-LABEL: func.func @guard_and_while
// CHECK:         scf.if
// CHECK:         scf.while
// CHECK-NOT:     scf.for
func.func @guard_and_while(%t: i32, %n: i32, %x: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : i32
  %cmp = arith.cmpi slt, %t, %n : i32
  cf.cond_br %cmp, ^then, ^loop(%t : i32)
^then:
  %i = arith.index_cast %t : i32 to index
  memref.store %one, %x[%i] : memref<?xf32>
  cf.br ^loop(%t : i32)
^loop(%a: i32):
  %c = arith.cmpi sle, %a, %n : i32
  cf.cond_br %c, ^body, ^exit
^body:
  %j = arith.index_cast %a : i32 to index
  memref.store %one, %x[%j] : memref<?xf32>
  %a2 = arith.addi %a, %c1 : i32
  cf.br ^loop(%a2 : i32)
^exit:
  return
}
