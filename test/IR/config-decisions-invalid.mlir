// RUN: tcgen-opt %s -split-input-file -verify-diagnostics
// RUN: not tcgen-opt %s -split-input-file 2>&1 | FileCheck %s

// A bad value of a decision field is an error at the value.

// CHECK: config-decisions-invalid.mlir:[[# @LINE + 2]]:164: error: pack must be auto, always, never, a, b or async, not 'sometimes'
// expected-error @+1 {{pack must be auto, always, never, a, b or async, not 'sometimes'}}
func.func @pack() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, pack = "sometimes">} { return }

// -----

// CHECK: config-decisions-invalid.mlir:[[# @LINE + 2]]:75: error: prologue must be auto, regs, smem or pack, not 'nowhere'
// expected-error @+1 {{prologue must be auto, regs, smem or pack, not 'nowhere'}}
func.func @prologue() attributes {tcgen.config = #tcgen.config<prologue = "nowhere">} { return }

// -----

// CHECK: config-decisions-invalid.mlir:[[# @LINE + 2]]:87: error: epilogue_loads must be auto, fragments or tma, not 'smem'
// expected-error @+1 {{epilogue_loads must be auto, fragments or tma, not 'smem'}}
func.func @epilogue_loads() attributes {tcgen.config = #tcgen.config<epilogue_loads = "smem">} { return }

// -----

// CHECK: config-decisions-invalid.mlir:[[# @LINE + 2]]:91: error: expected true or false
// expected-error @+1 {{expected true or false}}
func.func @epilogue_in_half() attributes {tcgen.config = #tcgen.config<epilogue_in_half = 1>} { return }

// -----

// The decisions are the sm90 back end's.
// expected-error @+1 {{pack = "always" needs the sm90 back end}}
func.func @pack_wmma() attributes {tcgen.config = #tcgen.config<backend = "wmma", pack = "always">} { return }

// -----

// expected-error @+1 {{epilogue_in_half needs the sm90 back end}}
func.func @in_half_sm80() attributes {tcgen.config = #tcgen.config<backend = "sm80", block = [128, 128, 32], warp = [64, 64, 32], stages = 3, epilogue_in_half = true>} { return }
