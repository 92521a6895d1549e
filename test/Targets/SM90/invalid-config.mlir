// RUN: tcgen-opt %s -verify-diagnostics

// expected-error @+1 {{sm90 configs need block = [64 | 128, N, 64]}}
func.func @bad_k() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 32], warp = [64, 256, 32], mma = [64, 256, 16]>} { return }
