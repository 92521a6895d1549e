// RUN: tcgen-opt %s --tcgen-attach-target=arch=sm_80 | FileCheck %s
// RUN: not tcgen-opt %s --tcgen-attach-target=arch=sm_6x 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: module attributes {tcgen.target = #tcgen.target<"sm_80">}
// ERR: invalid --tcgen-attach-target: malformed target architecture 'sm_6x'
module {}
