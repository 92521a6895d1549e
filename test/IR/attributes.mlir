// RUN: tcgen-opt %s | FileCheck %s
// RUN: tcgen-opt %s | tcgen-opt | FileCheck %s

// Omitted fields take their defaults; the printer writes every field.
// CHECK-LABEL: func @defaults
// CHECK-SAME: tcgen.config = #tcgen.config<backend = "wmma", block = [128, 128, 32], warp = [64, 64, 32], mma = [16, 16, 16], stages = 1, padding = 8, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">
func.func @defaults() attributes {tcgen.config = #tcgen.config<>} {
  return
}

// CHECK-LABEL: func @explicit
// CHECK-SAME: #tcgen.config<backend = "wmma", block = [64, 32, 64], warp = [32, 16, 16], mma = [16, 16, 16], stages = 2, padding = 0, vector = 4, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global">
func.func @explicit() attributes {tcgen.config = #tcgen.config<block = [64, 32, 64], warp = [32, 16, 16], stages = 2, padding = 0, vector = 4, raster = 8, persistent = true, streamk = false, cluster = [1, 1]>} {
  return
}

// CHECK-LABEL: func @schedule
// CHECK-SAME: #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, vector = 8, raster = 1, persistent = false, streamk = false, cluster = [1, 1], store = "global">
func.func @schedule() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, raster = 1, persistent = false, streamk = false, cluster = [1, 1]>} {
  return
}

// CHECK-LABEL: func @tma_store
// CHECK-SAME: cluster = [1, 1], store = "tma">
func.func @tma_store() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, store = "tma">} {
  return
}

// CHECK-LABEL: func @target
// CHECK-SAME: tcgen.target = #tcgen.target<"sm_80">
func.func @target() attributes {tcgen.target = #tcgen.target<"sm_80">} {
  return
}

// swap is printed only when true; a swapped sm90 tile may be 8 wide.
// CHECK-LABEL: func @swap
// CHECK-SAME: #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 13, padding = 0, vector = 8, raster = 8, persistent = true, streamk = false, cluster = [1, 1], store = "global", swap = true>
func.func @swap() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 13, padding = 0, swap = true>} {
  return
}
