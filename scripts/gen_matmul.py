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
a = p.parse_args()
name = a.name or f"mm_{a.m}x{a.n}x{a.k}_{'bf16_' if a.inp == 'bf16' else ''}{a.out}{'_acc' if a.accumulate else ''}"
A, B, C = f"{a.m}x{a.k}x{a.inp}", f"{a.k}x{a.n}x{a.inp}", f"{a.m}x{a.n}x{a.out}"
if a.tensor:
    assert not a.accumulate, "--tensor writes C = A*B"
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {a.out}
  %init = tensor.empty() : tensor<{C}>
  %C = linalg.fill ins(%zero : {a.out}) outs(%init : tensor<{C}>) -> tensor<{C}>
  %D = linalg.matmul ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%C : tensor<{C}>) -> tensor<{C}>
  return %D : tensor<{C}>
}}""")
else:
    fill = "" if a.accumulate else (
        f"  %zero = arith.constant 0.0 : {a.out}\n"
        f"  linalg.fill ins(%zero : {a.out}) outs(%C : memref<{C}>)\n")
    print(f"""func.func @{name}(%A: memref<{A}>, %B: memref<{B}>, %C: memref<{C}>) {{
{fill}  linalg.matmul ins(%A, %B : memref<{A}>, memref<{B}>) outs(%C : memref<{C}>)
  return
}}""")
