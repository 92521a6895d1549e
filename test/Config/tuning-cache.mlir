// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/tuning-cache.txt device=GPU-A}))' 2>&1 | FileCheck %s --check-prefix=A
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/tuning-cache.txt device=GPU-B}))' 2>&1 | FileCheck %s --check-prefix=B
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/tuning-cache.txt device=GPU-A stages=3}))' 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/tuning-cache.txt}))' 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/no-such-cache.txt}))' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tcgen-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tcgen-configure{tuning-cache=%S/Inputs/bad-cache.txt}))' 2>&1 | FileCheck %s --check-prefix=BAD

// The cache's record for this problem on the device replaces the model's
// choice (128x256, no cluster); other devices' records do not apply.
// A-LABEL: func @tuned
// A: #tcgen.config<backend = "sm90", block = [64, 256, 64]{{.*}}stages = 5{{.*}}raster = 4{{.*}}cluster = [2, 1]
// B-LABEL: func @tuned
// B: #tcgen.config<backend = "sm90", block = [128, 192, 64]
// Options still override a tuned config field by field.
// OVERRIDE-LABEL: func @tuned
// OVERRIDE: block = [64, 256, 64]{{.*}}stages = 3{{.*}}raster = 4
// Two devices hold a record and none was named: the model decides.
// ANY-LABEL: func @tuned
// ANY: #tcgen.config<backend = "sm90", block = [128, 256, 64]{{.*}}cluster = [1, 1]
// A cache that does not exist yet is empty.
// MISSING-LABEL: func @tuned
// MISSING: block = [128, 256, 64]
// BAD: error: {{.*}}bad-cache.txt:1: a config record has 6 tab-separated fields (config, device, key, #tcgen.config, ms, date), not 3
func.func @tuned(%a: memref<4096x512xf16>, %b: memref<512x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x512xf16>, memref<512x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// No record for this problem: the model's choice under the device's
// calibrated constants. GPU-A has 100 SMs: 128 tiles of 128x256 would
// need two waves, 176 tiles of 128x192 fill them better; with the built-in
// 132 SMs, 128 tiles of 128x256 are one wave. Without a device, the
// constants of the only device that has some apply.
// A-LABEL: func @untuned
// A: #tcgen.config<backend = "sm90", block = [128, 192, 64]
// ANY-LABEL: func @untuned
// ANY: #tcgen.config<backend = "sm90", block = [128, 192, 64]
// MISSING-LABEL: func @untuned
// MISSING: #tcgen.config<backend = "sm90", block = [128, 256, 64]
func.func @untuned(%a: memref<2048x2048xf16>, %b: memref<2048x2048xf16>, %c: memref<2048x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2048x2048xf32>)
  linalg.matmul ins(%a, %b : memref<2048x2048xf16>, memref<2048x2048xf16>) outs(%c : memref<2048x2048xf32>)
  return
}


// -----

// Small M: the tuner times unswapped kernels only, so the small-M rule
// (C^T = B^T A^T) stands over the cache's record.
// A-LABEL: func @small_m
// A: #tcgen.config<backend = "sm90", block = [64, 8, 64]{{.*}}swap = true>
func.func @small_m(%a: memref<8x512xf16>, %b: memref<512x4096xf16>, %c: memref<8x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x4096xf32>)
  linalg.matmul ins(%a, %b : memref<8x512xf16>, memref<512x4096xf16>) outs(%c : memref<8x4096xf32>)
  return
}
