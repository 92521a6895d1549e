// RUN: tcgen-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(tcgen-dynamic-shared-memory))'

// A shared buffer with a strided layout cannot become a view of the
// dynamic region (memref.view makes identity layouts only).
memref.global "private" @strided : memref<128x128xf16, strided<[256, 1]>, 3> {alignment = 128 : i64}
func.func @strided_buffer(%v: vector<8xf16>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{shared buffer strided must have a static shape and identity layout to move into dynamic shared memory}}
    %a = memref.get_global @strided : memref<128x128xf16, strided<[256, 1]>, 3>
    vector.store %v, %a[%c0, %c0] : memref<128x128xf16, strided<[256, 1]>, 3>, vector<8xf16>
    gpu.terminator
  }
  return
}
