// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --tcgen-verify-lowered

// A linalg op left in a host function is an error, not a silent omission.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @leftover(%X: memref<64x64xf32>, %Y: memref<64x64xf32>) {
  // expected-error @below {{'linalg.generic' op is not compiled into any kernel: tcgen generates kernels for contractions, the pointwise consumers it fuses into them, and 2-d pointwise ops on function arguments, but it was left to tcgen-build-pointwise, which did not run}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%X : memref<64x64xf32>) outs(%Y : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// One tcgen-build-pointwise cannot take either: the error says why.
func.func @transposed(%X: memref<64x32xf32>, %Y: memref<32x64xf32>) {
  // expected-error @below {{'linalg.generic' op is not compiled into any kernel: tcgen generates kernels for contractions, the pointwise consumers it fuses into them, and 2-d pointwise ops on function arguments, but it reads no input of its output's shape element for element}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%X : memref<64x32xf32>) outs(%Y : memref<32x64xf32>) {
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
