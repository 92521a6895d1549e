// RUN: tcgen-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{sm90 configs need block = [64 | 128 | 192, N, 64]}}
func.func @bad_k() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 32], warp = [64, 256, 32], mma = [64, 256, 16]>} { return }

// -----

// expected-error @+1 {{streamk needs the sm90 back end and persistent = true}}
func.func @streamk_not_persistent() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], persistent = false, streamk = true>} { return }

// -----

// expected-error @+1 {{streamk needs the sm90 back end and persistent = true}}
func.func @streamk_wmma() attributes {tcgen.config = #tcgen.config<streamk = true>} { return }

// -----

// expected-error @+1 {{clusters of more than 2 blocks are not generated (cluster = [2, 2])}}
func.func @cluster_too_big() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], cluster = [2, 2]>} { return }

// -----

// expected-error @+1 {{cluster [2, 1] needs the sm90 back end without streamk}}
func.func @cluster_streamk() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], streamk = true, cluster = [2, 1]>} { return }

// -----

// expected-error @+1 {{cluster [1, 2] needs the sm90 back end without streamk}}
func.func @cluster_wmma() attributes {tcgen.config = #tcgen.config<cluster = [1, 2]>} { return }

// -----

// expected-error @+1 {{cluster needs 2 positive sizes [m, n]}}
func.func @cluster_rank() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], cluster = [2]>} { return }

// -----

// expected-error @+1 {{unknown store 'smem' (available: global, tma, staged)}}
func.func @store_unknown() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], store = "smem">} { return }

// -----

// expected-error @+1 {{store = "tma" needs the sm90 back end}}
func.func @store_tma_wmma() attributes {tcgen.config = #tcgen.config<store = "tma">} { return }
