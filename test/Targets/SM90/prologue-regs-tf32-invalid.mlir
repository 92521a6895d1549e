// RUN: tcgen-opt %s --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},tcgen-sm90-build-kernel)'

// f32 operands (tf32 wgmma): the register form loads 16-bit fragments.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @regs_tf32(%A: memref<256x128xf32>, %B: memref<128x256xf32>,
                     %C: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %R = memref.alloc() : memref<256x128xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x128xf32>) outs(%R : memref<256x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  linalg.fill ins(%zero : f32) outs(%C : memref<256x256xf32>)
  // expected-error @below {{prologue = regs needs f16 or bf16 operands}}
  linalg.matmul {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 128, 32], warp = [64, 128, 32], mma = [64, 128, 8], stages = 6, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "tma", prologue = "regs">} ins(%R, %B : memref<256x128xf32>, memref<128x256xf32>)
                outs(%C : memref<256x256xf32>)
  memref.dealloc %R : memref<256x128xf32>
  return
}
