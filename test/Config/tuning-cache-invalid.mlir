// RUN: not tcgen-opt %s --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/tuning-cache.txt device=GPU-A}))' 2>&1 | FileCheck %s

// A record that is not a valid #tcgen.config is an error naming the cache.
// CHECK: error: 'linalg.matmul' op the tuning cache {{.*}}tuning-cache.txt holds '#tcgen.config<backend = "sm90", block = [64, 999]>' for this problem on 'GPU-A', which is not a valid #tcgen.config
func.func @broken(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf32>)
  return
}
