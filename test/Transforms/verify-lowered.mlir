// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --tcgen-verify-lowered

// A linalg op left in a host function is an error, not a silent omission.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @leftover(%X: memref<64x64xf32>, %Y: memref<64x64xf32>) {
  // expected-error @below {{'linalg.generic' op is not compiled into any kernel}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%X : memref<64x64xf32>) outs(%Y : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Nothing left: no diagnostic.
func.func @empty(%X: memref<64x64xf32>) {
  return
}
