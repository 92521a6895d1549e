// RUN: tcgen-opt %s -split-input-file | FileCheck %s
// RUN: tcgen-opt %s -split-input-file | tcgen-opt -split-input-file | FileCheck %s

// The sm90 back end's decisions are #tcgen.config fields, printed only
// where they differ from their defaults ("auto", false).

// CHECK-LABEL: func @unset
// CHECK-SAME: store = "global">
func.func @unset() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, pack = "auto", prologue = "auto", epilogue_loads = "auto", epilogue_in_half = false>} { return }

// -----

// CHECK-LABEL: func @pack
// CHECK-SAME: store = "global", pack = "async">
func.func @pack() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, pack = "async">} { return }

// -----

// CHECK-LABEL: func @prologue
// CHECK-SAME: store = "global", prologue = "smem">
func.func @prologue() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, prologue = "smem">} { return }

// -----

// CHECK-LABEL: func @epilogue_loads
// CHECK-SAME: store = "global", epilogue_loads = "fragments">
func.func @epilogue_loads() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, epilogue_loads = "fragments">} { return }

// -----

// CHECK-LABEL: func @epilogue_in_half
// CHECK-SAME: store = "global", epilogue_in_half = true>
func.func @epilogue_in_half() attributes {tcgen.config = #tcgen.config<backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, epilogue_in_half = true>} { return }

// -----

// All four, in the printer's order.
// CHECK-LABEL: func @all
// CHECK-SAME: store = "tma", pack = "b", prologue = "regs", epilogue_loads = "tma", epilogue_in_half = true>
func.func @all() attributes {tcgen.config = #tcgen.config<epilogue_in_half = true, epilogue_loads = "tma", prologue = "regs", pack = "b", backend = "sm90", block = [128, 256, 64], warp = [64, 256, 64], mma = [64, 256, 16], stages = 4, padding = 0, store = "tma">} { return }
