#!/usr/bin/env python3
"""Writes an einsum-style contraction as a linalg.generic on memrefs.

  gen_einsum.py SPEC SIZE... [--in f16|bf16] [--out f32|f16|bf16] [--name N]

SPEC is "A,B->C" with one letter per dimension (e.g. "bhqd,bhkd->bhqk");
each SIZE is letter=extent. C is zero-filled first (C = A B). The
contraction sums over the letters that C lacks.
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("spec")
p.add_argument("sizes", nargs="+")
p.add_argument("--in", dest="inp", choices=["f16", "bf16"], default="f16")
p.add_argument("--out", choices=["f32", "f16", "bf16"], default="f32")
p.add_argument("--name", default="einsum")
a = p.parse_args()
ins, out = a.spec.split("->")
sa, sb = ins.split(",")
sizes = dict(s.split("=") for s in a.sizes)
loops = [c for c in out] + [c for c in dict.fromkeys(sa + sb) if c not in out]
assert all(c in sizes for c in loops), "every letter needs a size"
dims = ", ".join(loops)
amap = lambda s: f"affine_map<({dims}) -> ({', '.join(s)})>"
mt = lambda s, t: f"memref<{'x'.join(sizes[c] for c in s)}x{t}>"
A, B, C = mt(sa, a.inp), mt(sb, a.inp), mt(out, a.out)
iters = ", ".join('"parallel"' if c in out else '"reduction"' for c in loops)
acc = "f32"
# The body is the canonical multiply-add (so that linalg recognizes the
# contraction): sums in f32, rounded to C's type.
cvt = (f"    %cf = arith.extf %c : {a.out} to f32\n" if a.out != "f32" else "")
cf = "%cf" if a.out != "f32" else "%c"
res = (f"    %r = arith.truncf %t : f32 to {a.out}\n" if a.out != "f32" else "")
r = "%r" if a.out != "f32" else "%t"
print(f"""func.func @{a.name}(%A: {A}, %B: {B}, %C: {C}) {{
  %zero = arith.constant 0.0 : {a.out}
  linalg.fill ins(%zero : {a.out}) outs(%C : {C})
  linalg.generic {{indexing_maps = [{amap(sa)}, {amap(sb)}, {amap(out)}],
                  iterator_types = [{iters}]}}
      ins(%A, %B : {A}, {B}) outs(%C : {C}) {{
  ^bb0(%x: {a.inp}, %y: {a.inp}, %c: {a.out}):
    %xf = arith.extf %x : {a.inp} to f32
    %yf = arith.extf %y : {a.inp} to f32
{cvt}    %p = arith.mulf %xf, %yf : f32
    %t = arith.addf {cf}, %p : f32
{res}    linalg.yield {r} : {a.out}
  }}
  return
}}""")
