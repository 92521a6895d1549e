// Every refusal of the pipeline analysis, at the construct it names.
// RUN: tcgen-opt %s -split-input-file -verify-diagnostics --tcgen-reschedule-analyze

// A tiled transpose: the copy is not in a loop.
memref.global "private" @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
func.func @transpose(%in: memref<?xf32>, %out: memref<?xf32>) attributes {tcgen.kernel} {
  %t = memref.get_global @tile : memref<32x33xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %v = memref.load %in[%tx] : memref<?xf32>
  // expected-error @below {{nothing to pipeline: the copy into @tile is not inside a loop with barriers, so there is no later iteration to overlap it with}}
  memref.store %v, %t[%ty, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %w = memref.load %t[%tx, %ty] : memref<32x33xf32, #gpu.address_space<workgroup>>
  memref.store %w, %out[%tx] : memref<?xf32>
  return
}

// -----

// A block reduction: the shared array holds sums, not copies.
memref.global "private" @partial : memref<256xf32, #gpu.address_space<workgroup>>
func.func @reduce(%in: memref<?xf32>) attributes {tcgen.kernel} {
  %p = memref.get_global @partial : memref<256xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %a = memref.load %in[%tx] : memref<?xf32>
  %b = arith.addf %a, %a : f32
  // expected-error @below {{nothing to pipeline: the store into @partial stores a computed value, not a value loaded from global memory, and no other store copies global data into shared memory}}
  memref.store %b, %p[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @noShared(%in: memref<?xf32>) attributes {tcgen.kernel} {
  // expected-error @above {{nothing to pipeline: no global load is stored to a shared buffer}}
  return
}

// -----

// A loop without an induction variable: its trip count depends on data.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @whileLoop(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c1 = arith.constant 1 : index
  // expected-error @below {{the loop around the copies has no induction variable: its trip count is data-dependent, so later iterations' copies cannot be issued early}}
  %r = scf.while (%i = %tx) : (index) -> index {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i : index
  } do {
  ^bb0(%i: index):
    %v = memref.load %A[%i] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %j = arith.shli %i, %c1 : index
    scf.yield %j : index
  }
  return
}

// -----

// The trip count is read from memory.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @loadedBound(%A: memref<?xf32>, %N: memref<?xindex>) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.load %N[%c0] : memref<?xindex>
  // expected-error @below {{the loop around the copies has a data-dependent trip count (a bound is computed from a load)}}
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  return
}

// -----

// The compute statements write the shared buffer.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @computeWritesShared(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{the shared buffer @As is written after the barrier (by the compute statements), not only by copies}}
    memref.store %w, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  return
}

// -----

// Two copies in two loops.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
memref.global "private" @Bs : memref<16xf32, #gpu.address_space<workgroup>>
func.func @twoLoops(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %bs = memref.get_global @Bs : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.barrier
  }
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    // expected-error @below {{the copy into @Bs is in a different loop than the copy into @As; the schedule pipelines one loop}}
    memref.store %v, %bs[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.barrier
  }
  return
}

// -----

// The copy and its use in different loops.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @useInAnotherLoop(%A: memref<?xf32>, %C: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    // expected-error @below {{the shared buffer @As is copied into but not read between the barriers}}
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.barrier
  }
  scf.for %k = %c0 to %n step %c1 {
    %w = memref.load %as[%k] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %w, %C[%k] : memref<?xf32>
  }
  return
}

// -----

// The buffer is read after the loop too.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @readAfterLoop(%A: memref<?xf32>, %C: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  // expected-error @below {{the shared buffer @As is also accessed outside the pipelined loop}}
  %w = memref.load %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
  memref.store %w, %C[%tx] : memref<?xf32>
  return
}

// -----

// One barrier: nothing protects the buffer from the next copy.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @oneBarrier(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{the loop around the copies has 1 barrier(s) at its top level; the schedule pipelines a loop with one barrier after its copies and one after their uses}}
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A barrier in a branch of the loop.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @nestedBarrier(%A: memref<?xf32>, %n: index, %c: i1) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    scf.if %c {
      // expected-error @below {{a barrier inside a nested construct of the loop around the copies; the schedule pipelines a loop whose barriers are at its top level}}
      gpu.barrier
    }
    gpu.barrier
  }
  return
}

// -----

// The copy's address is a running value that is not an induction.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @carriedAddress(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %k = %c0 to %n step %c1 iter_args(%p = %c1) -> (index) {
    // expected-error @below {{the copy's address depends on a value the loop carries (iter_arg #0) that is not stepped by a loop-invariant value}}
    %v = memref.load %A[%p] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %q = arith.muli %p, %c2 : index
    scf.yield %q : index
  }
  return
}

// -----

// The compute statements store to global memory.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @computeWritesGlobal(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{the compute statements write memory other than registers, which a later iteration's copies may read (a __restrict__ parameter that no copy reads may be written)}}
    memref.store %w, %A[%k] : memref<?xf32>
    gpu.barrier
  }
  return
}

// -----

// A __restrict__ parameter (tcgen.noalias) that the copies also read: a
// later iteration's copy may read what the compute statements stored.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
func.func @restrictButCopied(%A: memref<?xf32> {tcgen.noalias}, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{the compute statements write memory other than registers, which a later iteration's copies may read (a __restrict__ parameter that no copy reads may be written)}}
    memref.store %w, %A[%k] : memref<?xf32>
    gpu.barrier
  }
  return
}

// -----

// cp.async moves at least 4 bytes.
memref.global "private" @As : memref<16xf16, #gpu.address_space<workgroup>>
func.func @halfCopy(%A: memref<?xf16>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf16, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf16>
    // expected-error @below {{cp.async moves 4, 8 or 16 bytes; the copy into @As moves 2}}
    memref.store %v, %as[%tx] : memref<16xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  return
}

// -----

// A store of a computed value into a shared buffer among the copies.
memref.global "private" @As : memref<16xf32, #gpu.address_space<workgroup>>
memref.global "private" @Bs : memref<16xf32, #gpu.address_space<workgroup>>
func.func @computedStore(%A: memref<?xf32>, %n: index) attributes {tcgen.kernel} {
  %as = memref.get_global @As : memref<16xf32, #gpu.address_space<workgroup>>
  %bs = memref.get_global @Bs : memref<16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %A[%k] : memref<?xf32>
    memref.store %v, %as[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    %u = arith.constant 1.0 : f32
    // expected-error @below {{the store into @Bs before the barrier stores a computed value, not a value loaded from global memory}}
    memref.store %u, %bs[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %as[%c1] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  return
}
