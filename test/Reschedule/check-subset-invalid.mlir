// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --tcgen-reschedule-check-subset | FileCheck %s

llvm.func ptx_kernelcc @atomic(%p: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  // expected-error @below {{atomic operation llvm.atomicrmw (atomics are outside the subset)}}
  %0 = llvm.atomicrmw add %p, %c1 monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func ptx_kernelcc @shuffle(%p: !llvm.ptr) {
  %m = llvm.mlir.constant(-1 : i32) : i32
  %c = llvm.mlir.constant(31 : i32) : i32
  %o = llvm.mlir.constant(1 : i32) : i32
  %v = llvm.load %p : !llvm.ptr -> f32
  // expected-error @below {{warp-level operation nvvm.shfl.sync (warp shuffles, votes and reductions are outside the subset)}}
  %s = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> f32
  llvm.store %s, %p : f32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @helper(f32) -> f32

llvm.func ptx_kernelcc @call(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> f32
  // expected-error @below {{call to helper (calls are outside the subset; only inlined code is raised)}}
  %r = llvm.call @helper(%v) : (f32) -> f32
  llvm.store %r, %p : f32, !llvm.ptr
  llvm.return
}

// -----

llvm.func ptx_kernelcc @local_array(%p: !llvm.ptr) {
  %c4 = llvm.mlir.constant(4 : i32) : i32
  // expected-error @below {{local memory (llvm.alloca: a local array or a variable whose address is taken) is outside the subset}}
  %a = llvm.alloca %c4 x f32 : (i32) -> !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global external @dyn() {addr_space = 3 : i32} : !llvm.array<0 x f32>

llvm.func ptx_kernelcc @dynamic_shared(%p: !llvm.ptr) {
  // expected-error @below {{dynamic shared memory (extern __shared__ @dyn) is outside the subset: declare the array with its size}}
  %s = llvm.mlir.addressof @dyn : !llvm.ptr<3>
  llvm.return
}

// -----

// Two entries into the loop {^a, ^b}: from the entry to ^a and to ^b.
llvm.func ptx_kernelcc @irreducible(%c: i1, %d: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.br ^b
^b:
  // expected-error @below {{irreducible control flow: this branch enters a loop whose header does not dominate it}}
  llvm.cond_br %d, ^a, ^exit
^exit:
  llvm.return
}

// -----

llvm.func ptx_kernelcc @int_to_ptr(%p: !llvm.ptr, %i: i64) {
  // expected-error @below {{llvm.inttoptr: pointer arithmetic on integers is outside the subset}}
  %q = llvm.inttoptr %i : i64 to !llvm.ptr
  llvm.return
}

// -----

llvm.func ptx_kernelcc @pointer_select(%p: !llvm.ptr, %q: !llvm.ptr, %c: i1) {
  // expected-error @below {{a pointer chosen by a select is outside the subset}}
  %r = llvm.select %c, %p, %q : i1, !llvm.ptr
  llvm.return
}

// -----

// A kernel inside the subset passes unchanged; functions that are not
// kernels are not looked at.
// CHECK-LABEL: llvm.func ptx_kernelcc @fine
llvm.func ptx_kernelcc @fine(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @not_a_kernel(%p: !llvm.ptr, %i: i64) {
  %q = llvm.inttoptr %i : i64 to !llvm.ptr
  llvm.return
}
