// RUN: not tcgen-opt %S/Inputs/bias-relu.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 epilogue-loads=tma}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=NOMAT
// RUN: not tcgen-opt %S/Inputs/bias-relu.mlir --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 epilogue-loads=smem}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: tcgen-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 store=global epilogue-loads=tma}),tcgen-sm90-build-kernel)'
// RUN: not tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 stream-k=1 epilogue-loads=tma}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=SK
// RUN: not tcgen-opt %s --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,128,64 warp-tile=128,128,64 epilogue-loads=tma}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not tcgen-opt %S/epilogue-loads-tma.mlir --split-input-file --pass-pipeline='builtin.module(tcgen-attach-target{arch=sm_90a},func.func(tcgen-configure{backend=sm90 block-tile=128,144,64 epilogue-loads=tma}),tcgen-sm90-build-kernel)' 2>&1 | FileCheck %s --check-prefix=CHUNK

// epilogue-loads = tma refuses what it does not cover, naming it.
// NOMAT: error: 'linalg.matmul' op epilogue-loads = tma needs a fused epilogue with a matrix operand of C's dtype
// MODE: error: 'linalg.matmul' op --epilogue-loads must be auto, fragments or tma, not 'smem'
// CHUNK: error: 'linalg.matmul' op epilogue-loads = tma needs a block tile N that is a multiple of the store chunk
// SK: error: 'linalg.matmul' op epilogue-loads = tma needs no batch, stream-K, cluster, run-time sizes or consumer row blocks
// ROWS: error: 'linalg.matmul' op epilogue-loads = tma needs no batch, stream-K, cluster, run-time sizes or consumer row blocks

// Stores from registers (store = global): no chunk buffers to load into.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_relu(%A: memref<256x128xf16>, %B: memref<128x256xf16>,
                    %D: memref<256x256xf16>, %out: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %C = memref.alloc() : memref<256x256xf16>
  linalg.fill ins(%zero : f16) outs(%C : memref<256x256xf16>)
  // expected-error @below {{epilogue-loads = tma needs TMA stores of a row-major C}}
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x256xf16>)
                outs(%C : memref<256x256xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %D : memref<256x256xf16>, memref<256x256xf16>)
      outs(%out : memref<256x256xf16>) {
  ^bb0(%x: f16, %d: f16, %o: f16):
    %s = arith.addf %x, %d : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}
