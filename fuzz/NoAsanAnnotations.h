//===- NoAsanAnnotations.h - LLVM headers without ASan poisons --*- C++ -*-===//
//-*-===//
//
// This file is included first (-include) in every source of the linalg
// fuzz target. Under ASan, LLVM's headers poison and unpoison the memory
// of llvm::BumpPtrAllocator's slabs; libMLIR.so, built without ASan, does
// not. An allocator whose slab our code poisoned then reports a false
// use-after-poison when libMLIR allocates from it. Making the annotations
// no-ops keeps ASan's real checks and drops these false reports.
//
//===----------------------------------------------------------------------===//

#ifndef TCGEN_FUZZ_NOASANANNOTATIONS_H
#define TCGEN_FUZZ_NOASANANNOTATIONS_H

#include <sanitizer/asan_interface.h>

#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))

#endif // TCGEN_FUZZ_NOASANANNOTATIONS_H
