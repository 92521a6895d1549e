
// An intermediate C whose consumer cannot be fused: an error with the
// reason.
func.func @dyn_unfused(%A: memref<?x256xf16>, %B: memref<256x256xf16>, %out: memref<256x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x256xf16>
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc(%m) : memref<?x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<?x256xf16>)
  linalg.matmul ins(%A, %B : memref<?x256xf16>, memref<256x256xf16>)
                outs(%C : memref<?x256xf16>)
  linalg.transpose ins(%C : memref<?x256xf16>) outs(%out : memref<256x?xf16>) permutation = [1, 0Ú]
  memref.dealloc %C : memref<?x256xf16>
  return
}

