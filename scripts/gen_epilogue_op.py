#!/usr/bin/env python3
"""Writes C = f(A*B, D, alpha, beta) in tensor form: an f16 matmul into f32,
then one linalg.generic computing f in f32 and storing --out. One op (or
op chain) of the fusion issue's list per function, for GPU checks:

  gen_epilogue_op.py OP M N K [--out f16|f32|bf16] [--name NAME]

OP: sub mul div max min leaky-relu gelu-erf silu sigmoid tanh exp clamp
    alpha-beta
D is an [m][n] matrix (sub, mul, div, max, min, alpha-beta), alpha and beta
rank-0 scalars (alpha-beta).
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("op")
p.add_argument("m", type=int)
p.add_argument("n", type=int)
p.add_argument("k", type=int)
p.add_argument("--out", choices=["f16", "f32", "bf16"], default="f16")
p.add_argument("--name", default=None)
a = p.parse_args()
name = a.name or "ep_" + a.op.replace("-", "_")
t = a.out
M, N, K = a.m, a.n, a.k
uses_d = a.op in ("sub", "mul", "div", "max", "min", "alpha-beta")
scalars = a.op == "alpha-beta"
body = {
    "sub": "%y = arith.subf %x, %d : f32",
    "mul": "%y = arith.mulf %x, %d : f32",
    "div": "%dd = arith.mulf %d, %d : f32\n    %den = arith.addf %dd, %one : f32\n    %y = arith.divf %x, %den : f32",
    "max": "%y = arith.maximumf %x, %d : f32",
    "min": "%y = arith.minimumf %x, %d : f32",
    "leaky-relu": "%pos = arith.cmpf ogt, %x, %zero : f32\n    %sl = arith.mulf %x, %slope : f32\n    %y = arith.select %pos, %x, %sl : f32",
    "gelu-erf": "%xs = arith.mulf %x, %rsqrt2 : f32\n    %er = math.erf %xs : f32\n    %e1 = arith.addf %er, %one : f32\n    %hx = arith.mulf %x, %half : f32\n    %y = arith.mulf %hx, %e1 : f32",
    "silu": "%nx = arith.negf %x : f32\n    %ex = math.exp %nx : f32\n    %den = arith.addf %ex, %one : f32\n    %y = arith.divf %x, %den : f32",
    "sigmoid": "%nx = arith.negf %x : f32\n    %ex = math.exp %nx : f32\n    %den = arith.addf %ex, %one : f32\n    %y = arith.divf %one, %den : f32",
    "tanh": "%y = math.tanh %x : f32",
    "exp": "%xs = arith.mulf %x, %tenth : f32\n    %y = math.exp %xs : f32",
    "clamp": "%lo = arith.maximumf %x, %mone : f32\n    %y = arith.minimumf %lo, %one : f32",
    "alpha-beta": "%ax = arith.mulf %x, %al : f32\n    %bd = arith.mulf %d, %be : f32\n    %y = arith.addf %ax, %bd : f32",
}[a.op]
args = f"%A: tensor<{M}x{K}xf16>, %B: tensor<{K}x{N}xf16>"
ins = ["%P"]
ins_t = [f"tensor<{M}x{N}xf32>"]
maps = ["#id"]
bb = ["%x: f32"]
if uses_d:
    args += f", %D: tensor<{M}x{N}xf32>"
    ins.append("%D"); ins_t.append(f"tensor<{M}x{N}xf32>"); maps.append("#id"); bb.append("%d: f32")
if scalars:
    args += ", %alpha: tensor<f32>, %beta: tensor<f32>"
    ins += ["%alpha", "%beta"]; ins_t += ["tensor<f32>", "tensor<f32>"]
    maps += ["#sc", "#sc"]; bb += ["%al: f32", "%be: f32"]
maps.append("#id")
bb.append(f"%o: {t}")
store = f"%yo = arith.truncf %y : f32 to {t}\n    linalg.yield %yo : {t}" if t != "f32" else "linalg.yield %y : f32"
print(f"""#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
func.func @{name}({args}) -> tensor<{M}x{N}x{t}> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %F = linalg.fill ins(%z : f32) outs(%e : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %P = linalg.matmul ins(%A, %B : tensor<{M}x{K}xf16>, tensor<{K}x{N}xf16>) outs(%F : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %eo = tensor.empty() : tensor<{M}x{N}x{t}>
  %Y = linalg.generic {{indexing_maps = [{", ".join(maps)}], iterator_types = ["parallel", "parallel"]}}
      ins({", ".join(ins)} : {", ".join(ins_t)}) outs(%eo : tensor<{M}x{N}x{t}>) {{
  ^bb0({", ".join(bb)}):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %mone = arith.constant -1.0 : f32
    %half = arith.constant 0.5 : f32
    %tenth = arith.constant 0.1 : f32
    %slope = arith.constant 0.01 : f32
    %rsqrt2 = arith.constant 0.70710678 : f32
    {body}
    {store}
  }} -> tensor<{M}x{N}x{t}>
  return %Y : tensor<{M}x{N}x{t}>
}}""")
