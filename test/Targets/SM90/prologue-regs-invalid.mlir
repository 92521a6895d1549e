// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// prologue=regs (A in registers, wgmma's register-A form) refuses what it
// cannot do, naming the reason; prologue=auto falls back to shared memory
// or a pack for these.

// A prologue on B: wgmma reads B from shared memory only.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @regs_on_b(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
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
  // expected-error @below {{prologue = regs applies to A only (wgmma reads B from shared memory)}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 64], warp = [64, 128, 64], mma = [64, 128, 16], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "regs">} ins(%A, %R : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<128x256xf16>
  return
}

