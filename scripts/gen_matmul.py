#!/usr/bin/env python3
"""Writes a linalg matmul in MLIR: C[m,n] (=|+=) A[m,k] * B[k,n], f16 inputs.

  gen_matmul.py M N K [--out f32|f16] [--accumulate] [--tensor] [--name NAME]

Without --accumulate, C is zero-filled first (C = A*B); with it the matmul
accumulates into C (C += A*B), as in the CC'22 paper.
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("m", type=int)
p.add_argument("n", type=int)
p.add_argument("k", type=int)
p.add_argument("--out", choices=["f32", "f16", "bf16"], default="f32")
p.add_argument("--in", dest="inp", choices=["f16", "bf16"], default="f16")
p.add_argument("--accumulate", action="store_true")
p.add_argument("--tensor", action="store_true", help="value semantics")
p.add_argument("--name", default=None)
p.add_argument("--a-layout", choices=["mk", "km"], default="mk",
               help="A stored [m][k] (default) or [k][m]")
p.add_argument("--b-layout", choices=["kn", "nk"], default="kn",
               help="B stored [k][n] (default) or [n][k]")
a = p.parse_args()
name = a.name or f"mm_{a.m}x{a.n}x{a.k}_{'bf16_' if a.inp == 'bf16' else ''}{a.out}{'_acc' if a.accumulate else ''}"
A = f"{a.m}x{a.k}x{a.inp}" if a.a_layout == "mk" else f"{a.k}x{a.m}x{a.inp}"
B = f"{a.k}x{a.n}x{a.inp}" if a.b_layout == "kn" else f"{a.n}x{a.k}x{a.inp}"
C = f"{a.m}x{a.n}x{a.out}"
maps = ""
if a.a_layout != "mk" or a.b_layout != "kn":
    amap = "(m, k)" if a.a_layout == "mk" else "(k, m)"
    bmap = "(k, n)" if a.b_layout == "kn" else "(n, k)"
    maps = (f"indexing_maps = [affine_map<(m, n, k) -> {amap}>, "
            f"affine_map<(m, n, k) -> {bmap}>, affine_map<(m, n, k) -> (m, n)>] ")
if a.tensor:
    assert not a.accumulate, "--tensor writes C = A*B"
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {a.out}
  %init = tensor.empty() : tensor<{C}>
  %C = linalg.fill ins(%zero : {a.out}) outs(%init : tensor<{C}>) -> tensor<{C}>
  %D = linalg.matmul {maps}ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%C : tensor<{C}>) -> tensor<{C}>
  return %D : tensor<{C}>
}}""")
else:
    fill = "" if a.accumulate else (
        f"  %zero = arith.constant 0.0 : {a.out}\n"
        f"  linalg.fill ins(%zero : {a.out}) outs(%C : memref<{C}>)\n")
    print(f"""func.func @{name}(%A: memref<{A}>, %B: memref<{B}>, %C: memref<{C}>) {{
{fill}  linalg.matmul {maps}ins(%A, %B : memref<{A}>, memref<{B}>) outs(%C : memref<{C}>)
  return
}}""")
