// RUN: tcgen-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{block tile m=100 is not a multiple of warp tile 64}}
func.func @block_not_multiple_of_warp() attributes {tcgen.config = #tcgen.config<block = [100, 128, 32]>} { return }

// -----

// expected-error @+1 {{warp tile n=24 is not a multiple of the mma shape 16}}
func.func @warp_not_multiple_of_mma() attributes {tcgen.config = #tcgen.config<block = [128, 48, 32], warp = [64, 24, 32]>} { return }

// -----

// expected-error @+1 {{padding 4 must be a non-negative multiple of 8 elements}}
func.func @bad_padding() attributes {tcgen.config = #tcgen.config<padding = 4>} { return }

// -----

// expected-error @+1 {{unknown #tcgen.config field 'tile'}}
func.func @unknown_field() attributes {tcgen.config = #tcgen.config<tile = [1, 2, 3]>} { return }

// -----

// expected-error @+1 {{duplicate #tcgen.config field 'stages'}}
func.func @duplicate_field() attributes {tcgen.config = #tcgen.config<stages = 1, stages = 2>} { return }

// -----

// expected-error @+1 {{unknown backend 'cuda' (available: wmma, sm80, sm90, simt)}}
func.func @unknown_backend() attributes {tcgen.config = #tcgen.config<backend = "cuda">} { return }

// -----

// expected-error @+1 {{block, warp and mma tiles need 3 sizes [m, n, k]}}
func.func @two_sizes() attributes {tcgen.config = #tcgen.config<block = [128, 128]>} { return }

// -----

// expected-error @+1 {{64 warps exceed 1024 threads per block}}
func.func @too_many_warps() attributes {tcgen.config = #tcgen.config<block = [256, 256, 32], warp = [32, 32, 32]>} { return }

// -----

// expected-error @+1 {{vector width 3 must be 1, 2, 4 or 8 elements}}
func.func @bad_vector() attributes {tcgen.config = #tcgen.config<vector = 3>} { return }

// -----

// expected-error @+1 {{malformed target architecture 'gfx90a'}}
func.func @bad_target() attributes {tcgen.target = #tcgen.target<"gfx90a">} { return }

// -----

// expected-error @+1 {{target 'sm_61' has no tensor cores usable by tcgen}}
func.func @old_target() attributes {tcgen.target = #tcgen.target<"sm_61">} { return }

// -----

// expected-error @+1 {{unsupported target 'sm_100a' (tcgen generates code for sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90 and sm_90a)}}
func.func @new_target() attributes {tcgen.target = #tcgen.target<"sm_100a">} { return }

// -----

// expected-error @+1 {{raster 0 must be at least 1}}
func.func @bad_raster() attributes {tcgen.config = #tcgen.config<raster = 0>} { return }

// -----

// expected-error @+1 {{expected true or false}}
func.func @bad_persistent() attributes {tcgen.config = #tcgen.config<persistent = maybe>} { return }

// -----

// expected-error @+1 {{simt configs need mma = [TM, TN, 1] (the thread tile, multiples of 4) with 32 thread tiles per warp tile and warp K = block K}}
func.func @simt_lanes() attributes {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [64, 64, 16], mma = [8, 8, 1], stages = 2, padding = 4>} { return }

// -----

// expected-error @+1 {{simt configs double-buffer (stages = 2), not 3}}
func.func @simt_stages() attributes {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 3, padding = 4>} { return }

// -----

// expected-error @+1 {{simt padding 2 must be a non-negative multiple of 4 elements (16-byte shared rows)}}
func.func @simt_padding() attributes {tcgen.config = #tcgen.config<backend = "simt", block = [128, 128, 16], warp = [32, 64, 16], mma = [8, 8, 1], stages = 2, padding = 2>} { return }

// -----

// expected-error @+1 {{swap needs the sm90 back end with store = "global" or "tma" and no cluster}}
func.func @swap_staged_store() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 16, 64], warp = [64, 16, 64], mma = [64, 16, 16], stages = 4, padding = 0, store = "staged", swap = true>} { return }

// -----

// expected-error @+1 {{swap needs the sm90 back end with store = "global" or "tma" and no cluster}}
func.func @swap_wmma() attributes {tcgen.config = #tcgen.config<swap = true>} { return }

// -----

// Without swap an sm90 tile is at least 64 wide.
// expected-error @+1 {{sm90 configs need block = [64 | 128 | 192, N, 64] with N a multiple of 16 from 64 to 256 (192 rows: to 192; with swap, of 8 from 8)}}
func.func @narrow_unswapped() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 8, 64], warp = [64, 8, 64], mma = [64, 8, 16], stages = 4, padding = 0>} { return }

// -----

// expected-error @+1 {{expected true or false}}
func.func @swap_not_bool() attributes {tcgen.config = #tcgen.config<swap = 1>} { return }
