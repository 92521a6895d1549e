// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --tcgen-raise-llvm-kernel

// Pointer arithmetic in bytes is not an element index of the float array.
llvm.mlir.global internal @F() {addr_space = 3 : i32} : !llvm.array<8 x f32> {
  %0 = llvm.mlir.undef : !llvm.array<8 x f32>
  llvm.return %0 : !llvm.array<8 x f32>
}

llvm.func ptx_kernelcc @byte_offset(%i: i64) {
  %s = llvm.mlir.addressof @F : !llvm.ptr<3>
  // expected-error @below {{getelementptr over 'i8' on a pointer to '!llvm.array<8 x f32>': pointer arithmetic that is not an element index is outside the subset}}
  %q = llvm.getelementptr %s[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
  %w = llvm.load %q : !llvm.ptr<3> -> f32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @mixed_types(%p: !llvm.ptr) {
  // expected-error @below {{pointer parameter 0 is accessed as 'i32' and as 'f32' (a reinterpreting access is outside the subset)}}
  %v = llvm.load %p : !llvm.ptr -> f32
  %w = llvm.load %p : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @pointer_phi(%p: !llvm.ptr, %q: !llvm.ptr, %c: i1) {
  llvm.cond_br %c, ^a(%p : !llvm.ptr), ^a(%q : !llvm.ptr)
// expected-error @below {{a pointer chosen by control flow (a pointer-valued phi) is outside the subset}}
^a(%r: !llvm.ptr):
  llvm.return
}

// -----

llvm.mlir.global internal @S() {addr_space = 3 : i32} : !llvm.array<8 x f32> {
  %0 = llvm.mlir.undef : !llvm.array<8 x f32>
  llvm.return %0 : !llvm.array<8 x f32>
}

llvm.func ptx_kernelcc @past_the_array(%i: i64) {
  %s = llvm.mlir.addressof @S : !llvm.ptr<3>
  // expected-error @below {{getelementptr steps past a whole shared array: pointer arithmetic outside the array is outside the subset}}
  %q = llvm.getelementptr %s[%i, %i] : (!llvm.ptr<3>, i64, i64) -> !llvm.ptr<3>, !llvm.array<8 x f32>
  llvm.return
}

// -----

llvm.mlir.global internal @G(0.0 : f32) {addr_space = 1 : i32} : f32

llvm.func ptx_kernelcc @global_variable() {
  // expected-error @below {{address of @G, which is not a shared-memory array (only __shared__ globals are raised)}}
  %g = llvm.mlir.addressof @G : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func ptx_kernelcc @lane_id(%p: !llvm.ptr) {
  // expected-error @below {{special register nvvm.read.ptx.sreg.laneid (only tid, ctaid, ntid and nctaid are raised)}}
  %l = nvvm.read.ptx.sreg.laneid : i32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @other_intrinsic(%x: f32) {
  // expected-error @below {{call of intrinsic llvm.nvvm.fmax.f (outside the subset)}}
  %r = llvm.call_intrinsic "llvm.nvvm.fmax.f"(%x, %x) : (f32, f32) -> f32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @vector_constant() {
  // expected-error @below {{constant dense<1.000000e+00> : vector<2xf32> (only scalar constants are raised)}}
  %v = llvm.mlir.constant(dense<1.0> : vector<2xf32>) : vector<2xf32>
  llvm.return
}

// -----

llvm.func ptx_kernelcc @other_operation(%x: i32) {
  // expected-error @below {{operation llvm.freeze is outside the subset tcgen reschedule raises}}
  %f = llvm.freeze %x : i32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @named_barrier() {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  // expected-error @below {{barrier llvm.nvvm.barrier.cta.sync.aligned.all with an id other than 0 (named barriers are outside the subset)}}
  llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%c1) : (i32) -> ()
  llvm.return
}

// -----

llvm.func ptx_kernelcc @pointer_compare(%p: !llvm.ptr, %q: !llvm.ptr) {
  // expected-error @below {{a pointer used as a value by llvm.icmp (only loads and stores through addresses are raised)}}
  %c = llvm.icmp "eq" %p, %q : !llvm.ptr
  llvm.return
}

// -----

// float **p: a pointer loaded from memory has no memref form.
// expected-error @below {{pointer parameter 0 points to '!llvm.ptr' (only pointers to scalars are raised)}}
llvm.func ptx_kernelcc @pointer_to_pointer(%p: !llvm.ptr) {
  %q = llvm.load %p : !llvm.ptr -> !llvm.ptr
  llvm.return
}
