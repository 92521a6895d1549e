#!/usr/bin/env python3
"""Writes a linalg matmul in MLIR: C[m,n] (=|+=) A[m,k] * B[k,n], f16 inputs.

  gen_matmul.py M N K [--out f32|f16] [--accumulate] [--tensor] [--name NAME]
                [--epilogue relu-bias|gelu-bias|add-relu|add-scalar|bias-gelu-residual]
                [--batch B]

With --batch B (B > 0) the op is linalg.batch_matmul over B matrices, the
batch dimension outermost in A, B and C; --batch-middle moves it between
the matrix dimensions of some operands, and --sum-batch sums the products
into one C (C = sum_b A[b] B[b]: a contraction over two K dimensions).

Without --accumulate, C is zero-filled first (C = A*B); with it the matmul
accumulates into C (C += A*B), as in the CC'22 paper.

--epilogue writes the tensor form with a pointwise consumer of the matmul
result (whose dtype is --out); the extra operands have that dtype, the body
computes in f32 and the result is stored in --out:
  relu-bias           relu(C + bias[j])
  gelu-bias           gelu(C + bias[j])          (tanh form)
  add-relu            relu(C + D[i,j])
  add-scalar          C + 0.5
  bias-gelu-residual  gelu(C + bias[j]) + R[i,j]

--prologue relu-a writes the tensor form C = relu(A) * B: a pointwise producer
of the matmul's A operand (a prologue); relu-b the same on B.

--second-k K2 writes the tensor form C = A*B + A2*B2 (add(gemm, gemm)) as a
linalg.add of two zero-started matmuls, A2 and B2 stored like A and B.

--init relu-c writes the tensor form D = relu(C) + A*B: the matmul's init is
relu(C) of a C argument (seed 001's transformed C input).
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("m", type=int)
p.add_argument("n", type=int)
p.add_argument("k", type=int)
p.add_argument("--out", choices=["f32", "f16", "bf16"], default="f32")
p.add_argument("--in", dest="inp", choices=["f16", "bf16", "f32", "e4m3", "e5m2"], default="f16",
               help="A and B element type (f32: full f32 on CUDA cores, the simt back end; tf32 on sm90 with --allow-tf32)")
p.add_argument("--accumulate", action="store_true")
p.add_argument("--tensor", action="store_true", help="value semantics")
p.add_argument("--name", default=None)
p.add_argument("--epilogue", default=None,
               choices=["relu-bias", "gelu-bias", "add-relu", "add-scalar",
                        "bias-gelu-residual", "scale"])
p.add_argument("--init", choices=["relu-c"], default=None,
               help="tensor form whose matmul starts from relu(C) (D = relu(C) + A*B)")
p.add_argument("--prologue", choices=["relu-a", "relu-b"], default=None,
               help="tensor form whose A (or B) operand is relu(A) (C = relu(A) * B)")
p.add_argument("--second-k", type=int, default=0,
               help="tensor form C = A*B + A2*B2 (add(gemm, gemm)), A2 [m][K2] and B2 [K2][n] "
                    "stored like A and B")
p.add_argument("--a-layout", choices=["mk", "km"], default="mk",
               help="A stored [m][k] (default) or [k][m]")
p.add_argument("--b-layout", choices=["kn", "nk"], default="kn",
               help="B stored [k][n] (default) or [n][k]")
p.add_argument("--c-layout", choices=["mn", "nm"], default="mn",
               help="C stored [m][n] (default) or [n][m] (column-major)")
p.add_argument("--batch", type=int, default=0,
               help="linalg.batch_matmul over this many matrices")
p.add_argument("--batch-middle", default="",
               help="with --batch: the operands (letters of abc) that store the batch "
                    "between their two matrix dimensions, e.g. A[m][b][k] (a linalg.generic)")
p.add_argument("--sum-batch", action="store_true",
               help="with --batch: sum the batch's products into one C[m][n] "
                    "(a second K dimension read like a batch: C = sum_b A[b] B[b], "
                    "a linalg.generic)")
p.add_argument("--dynamic", default="",
               help="sizes known at run time only, e.g. 'mnk' or 'm' "
                    "(written as ?; memref form)")
a = p.parse_args()
# MLIR's spellings of the 8-bit floats.
a.inp = {"e4m3": "f8E4M3FN", "e5m2": "f8E5M2"}.get(a.inp, a.inp)
assert set(a.dynamic) <= set("mnk"), "--dynamic takes letters of mnk"
assert not a.dynamic or not (a.tensor or a.second_k or a.prologue or a.init), \
    "--dynamic writes a plain memref matmul, or one with an --epilogue"
assert not a.sum_batch or (a.batch and "c" not in a.batch_middle), \
    "--sum-batch needs --batch, and C has no batch to place"
assert not (a.batch and a.c_layout == "nm" and not a.sum_batch), \
    "linalg.batch_matmul takes C[b,m,n] only (a column-major batch needs a linalg.generic)"
name = a.name or f"mm_{a.m}x{a.n}x{a.k}_{'bf16_' if a.inp == 'bf16' else ''}{a.out}{'_acc' if a.accumulate else ''}"
bp = f"{a.batch}x" if a.batch else ""
if a.dynamic:
    sizes = {d: "?" if d in a.dynamic else getattr(a, d) for d in "mnk"}
    a.m, a.n, a.k = sizes["m"], sizes["n"], sizes["k"]
assert set(a.batch_middle) <= set("abc") and (a.batch or not a.batch_middle), \
    "--batch-middle takes letters of abc, with --batch"
def typ(name, d0, d1, elt):
    """The operand's memref shape: the batch outermost or in the middle."""
    if not a.batch or (name == "c" and a.sum_batch):
        return f"{d0}x{d1}x{elt}"
    if name in a.batch_middle:
        return f"{d0}x{a.batch}x{d1}x{elt}"
    return f"{a.batch}x{d0}x{d1}x{elt}"
A = typ("a", *((a.m, a.k) if a.a_layout == "mk" else (a.k, a.m)), a.inp)
B = typ("b", *((a.k, a.n) if a.b_layout == "kn" else (a.n, a.k)), a.inp)
crows, ccols = (a.m, a.n) if a.c_layout == "mn" else (a.n, a.m)
C = typ("c", crows, ccols, a.out)
op = "linalg.batch_matmul" if a.batch else "linalg.matmul"
maps = ""
if a.a_layout != "mk" or a.b_layout != "kn" or a.c_layout != "mn":
    d, r = ("(b, m, n, k)", "b, ") if a.batch else ("(m, n, k)", "")
    amap = f"({r}m, k)" if a.a_layout == "mk" else f"({r}k, m)"
    bmap = f"({r}k, n)" if a.b_layout == "kn" else f"({r}n, k)"
    cmap = f"({r}m, n)" if a.c_layout == "mn" else f"({r}n, m)"
    maps = (f"indexing_maps = [affine_map<{d} -> {amap}>, "
            f"affine_map<{d} -> {bmap}>, affine_map<{d} -> {cmap}>] ")
GELU = """    %g0 = arith.mulf %s, %s : f32
    %g1 = arith.mulf %g0, %s : f32
    %g2 = arith.mulf %g1, %k1 : f32
    %g3 = arith.addf %s, %g2 : f32
    %g4 = arith.mulf %g3, %k0 : f32
    %g5 = math.tanh %g4 : f32
    %g6 = arith.addf %g5, %one : f32
    %g7 = arith.mulf %g6, %half : f32
    %g = arith.mulf %s, %g7 : f32
"""
if a.epilogue:
    assert not a.accumulate, "--epilogue writes C = A*B"
    assert not (a.batch and (a.batch_middle or a.sum_batch or a.dynamic)), \
        "--epilogue takes a batch outermost in A, B and C"
    t = a.out
    extras = {"relu-bias": [("bias", "row")], "gelu-bias": [("bias", "row")],
              "add-relu": [("D", "matrix")], "add-scalar": [],
              "bias-gelu-residual": [("bias", "row"), ("R", "matrix")],
              "scale": [("SA", "scalar"), ("SB", "scalar")]}[a.epilogue]
    # A batch: matrix operands hold one matrix per batch entry, vectors
    # and scalars are shared.
    bx = f"{a.batch}x" if a.batch else ""
    shape = {"row": f"{ccols}x{t}", "matrix": f"{bx}{crows}x{ccols}x{t}", "scalar": t}
    dims = "(b, i, j)" if a.batch else "(i, j)"
    amap = {"row": f"affine_map<{dims} -> (j)>", "matrix": f"affine_map<{dims} -> {dims}>",
            "scalar": f"affine_map<{dims} -> ()>"}
    ident = f"affine_map<{dims} -> {dims}>"
    iters = ", ".join(['"parallel"'] * (3 if a.batch else 2))
    args = "".join(f", %{n}: tensor<{shape[k]}>" for n, k in extras)
    ins = ", ".join(["%M"] + [f"%{n}" for n, _ in extras])
    ins_t = ", ".join([f"tensor<{C}>"] + [f"tensor<{shape[k]}>" for _, k in extras])
    maps_e = ", ".join([ident] + [amap[k] for _, k in extras] + [ident])
    bb = ", ".join([f"%x: {t}"] + [f"%{n.lower()}v: {t}" for n, _ in extras] + [f"%o: {t}"])
    ext = lambda v: f"arith.extf {v} : {t} to f32" if t != "f32" else f"arith.addf {v}, %zf : f32"
    body = "    %zf = arith.constant 0.0 : f32\n    %half = arith.constant 0.5 : f32\n"
    body += "    %one = arith.constant 1.0 : f32\n    %k0 = arith.constant 0.7978845608 : f32\n"
    body += "    %k1 = arith.constant 0.044715 : f32\n"
    body = body.replace("\\n", "\n")
    body += f"    %xf = {ext('%x')}\n"
    for n, _ in extras:
        body += f"    %{n.lower()}f = {ext('%' + n.lower() + 'v')}\n"
    e = a.epilogue
    if e == "relu-bias":
        body += "    %s = arith.addf %xf, %biasf : f32\n    %y = arith.maximumf %s, %zf : f32\n"
    elif e == "gelu-bias":
        body += "    %s = arith.addf %xf, %biasf : f32\n" + GELU + "    %y = arith.addf %g, %zf : f32\n"
    elif e == "add-relu":
        body += "    %s = arith.addf %xf, %df : f32\n    %y = arith.maximumf %s, %zf : f32\n"
    elif e == "add-scalar":
        body += "    %y = arith.addf %xf, %half : f32\n"
    elif e == "scale":
        # per-tensor scales (fp8): out = (A B) * sa * sb
        body += "    %s = arith.mulf %xf, %saf : f32\n    %y = arith.mulf %s, %sbf : f32\n"
    else:
        body += "    %s = arith.addf %xf, %biasf : f32\n" + GELU + "    %y = arith.addf %g, %rf : f32\n"
    store = "    %yo = arith.truncf %y : f32 to " + t + "\n    linalg.yield %yo : " + t if t != "f32" else "    linalg.yield %y : f32"
    # Sizes known at run time only: C's empty tensors take them from A and B.
    dyn = ""
    sizes_of = {}
    if a.dynamic:
        am, an = (0, 1) if a.a_layout == "mk" else (1, 0)
        bn = 1 if a.b_layout == "kn" else 0
        dyn = (f"  %i0 = arith.constant 0 : index\n  %i1 = arith.constant 1 : index\n"
               f"  %dm = tensor.dim %A, %i{am} : tensor<{A}>\n"
               f"  %dn = tensor.dim %B, %i{bn} : tensor<{B}>\n")
        sizes_of = {"m": "%dm", "n": "%dn"}
    rows_cols = ("m", "n") if a.c_layout == "mn" else ("n", "m")
    empty = ", ".join(sizes_of[d] for d in rows_cols if d in a.dynamic and d in sizes_of)
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>{args}) -> tensor<{C}> {{
{dyn}  %zero = arith.constant 0.0 : {t}
  %init = tensor.empty({empty}) : tensor<{C}>
  %C = linalg.fill ins(%zero : {t}) outs(%init : tensor<{C}>) -> tensor<{C}>
  %M = {op} {maps}ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%C : tensor<{C}>) -> tensor<{C}>
  %e = tensor.empty({empty}) : tensor<{C}>
  %Y = linalg.generic {{indexing_maps = [{maps_e}], iterator_types = [{iters}]}}
      ins({ins} : {ins_t}) outs(%e : tensor<{C}>) {{
  ^bb0({bb}):
{body}{store}
  }} -> tensor<{C}>
  return %Y : tensor<{C}>
}}""")
elif a.second_k:
    assert not a.accumulate and not a.batch and a.c_layout == "mn", \
        "--second-k writes an unbatched row-major C = A*B + A2*B2"
    k2 = a.second_k
    A2 = f"{a.m}x{k2}x{a.inp}" if a.a_layout == "mk" else f"{k2}x{a.m}x{a.inp}"
    B2 = f"{k2}x{a.n}x{a.inp}" if a.b_layout == "kn" else f"{a.n}x{k2}x{a.inp}"
    t = a.out
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>, %A2: tensor<{A2}>, %B2: tensor<{B2}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {t}
  %e = tensor.empty() : tensor<{C}>
  %f = linalg.fill ins(%zero : {t}) outs(%e : tensor<{C}>) -> tensor<{C}>
  %P = {op} {maps}ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%f : tensor<{C}>) -> tensor<{C}>
  %Q = {op} {maps}ins(%A2, %B2 : tensor<{A2}>, tensor<{B2}>) outs(%f : tensor<{C}>) -> tensor<{C}>
  %S = linalg.add ins(%P, %Q : tensor<{C}>, tensor<{C}>) outs(%e : tensor<{C}>) -> tensor<{C}>
  return %S : tensor<{C}>
}}""")
elif a.prologue:
    assert not a.accumulate, "--prologue writes C = relu(A) * B"
    t = a.out
    X, xt = ("A", A) if a.prologue == "relu-a" else ("B", B)
    ins = "%R, %B" if X == "A" else "%A, %R"
    pid = "affine_map<(b, i, j) -> (b, i, j)>" if a.batch else "affine_map<(i, j) -> (i, j)>"
    pit = '"parallel", "parallel", "parallel"' if a.batch else '"parallel", "parallel"'
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {t}
  %zin = arith.constant 0.0 : {a.inp}
  %ex = tensor.empty() : tensor<{xt}>
  %R = linalg.generic {{indexing_maps = [{pid}, {pid}],
                        iterator_types = [{pit}]}}
      ins(%{X} : tensor<{xt}>) outs(%ex : tensor<{xt}>) {{
  ^bb0(%x: {a.inp}, %o: {a.inp}):
    %r = arith.maximumf %x, %zin : {a.inp}
    linalg.yield %r : {a.inp}
  }} -> tensor<{xt}>
  %e = tensor.empty() : tensor<{C}>
  %C = linalg.fill ins(%zero : {t}) outs(%e : tensor<{C}>) -> tensor<{C}>
  %D = {op} {maps}ins({ins} : tensor<{A}>, tensor<{B}>) outs(%C : tensor<{C}>) -> tensor<{C}>
  return %D : tensor<{C}>
}}""")
elif a.init:
    assert not a.accumulate and not a.batch, "--init writes an unbatched D = relu(C) + A*B"
    t = a.out
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>, %C: tensor<{C}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {t}
  %e = tensor.empty() : tensor<{C}>
  %R = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%C : tensor<{C}>) outs(%e : tensor<{C}>) {{
  ^bb0(%c: {t}, %o: {t}):
    %r = arith.maximumf %c, %zero : {t}
    linalg.yield %r : {t}
  }} -> tensor<{C}>
  %D = {op} {maps}ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%R : tensor<{C}>) -> tensor<{C}>
  return %D : tensor<{C}>
}}""")
elif a.tensor:
    assert not a.accumulate, "--tensor writes C = A*B"
    print(f"""func.func @{name}(%A: tensor<{A}>, %B: tensor<{B}>) -> tensor<{C}> {{
  %zero = arith.constant 0.0 : {a.out}
  %init = tensor.empty() : tensor<{C}>
  %C = linalg.fill ins(%zero : {a.out}) outs(%init : tensor<{C}>) -> tensor<{C}>
  %D = {op} {maps}ins(%A, %B : tensor<{A}>, tensor<{B}>) outs(%C : tensor<{C}>) -> tensor<{C}>
  return %D : tensor<{C}>
}}""")
elif a.batch_middle or a.sum_batch:
    # A contraction whose batch sits between the matrix dimensions of some
    # operands: a linalg.generic over (b, m, n, k).
    def amap(name, d0, d1):
        return f"({d0}, b, {d1})" if name in a.batch_middle else f"(b, {d0}, {d1})"
    ma = amap("a", *(("m", "k") if a.a_layout == "mk" else ("k", "m")))
    mb = amap("b", *(("k", "n") if a.b_layout == "kn" else ("n", "k")))
    mc = amap("c", *(("m", "n") if a.c_layout == "mn" else ("n", "m")))
    if a.sum_batch:
        mc = "(m, n)" if a.c_layout == "mn" else "(n, m)"
    biter = "reduction" if a.sum_batch else "parallel"
    ext = "" if a.inp == a.out else f"""    %xa = arith.extf %x : {a.inp} to {a.out}
    %xb = arith.extf %y : {a.inp} to {a.out}
"""
    xa, xb = ("%xa", "%xb") if ext else ("%x", "%y")
    fill = "" if a.accumulate else (
        f"  %zero = arith.constant 0.0 : {a.out}\n"
        f"  linalg.fill ins(%zero : {a.out}) outs(%C : memref<{C}>)\n")
    print(f"""func.func @{name}(%A: memref<{A}>, %B: memref<{B}>, %C: memref<{C}>) {{
{fill}  linalg.generic {{indexing_maps = [affine_map<(b, m, n, k) -> {ma}>, affine_map<(b, m, n, k) -> {mb}>, affine_map<(b, m, n, k) -> {mc}>], iterator_types = ["{biter}", "parallel", "parallel", "reduction"]}}
      ins(%A, %B : memref<{A}>, memref<{B}>) outs(%C : memref<{C}>) {{
  ^bb0(%x: {a.inp}, %y: {a.inp}, %acc: {a.out}):
{ext}    %p = arith.mulf {xa}, {xb} : {a.out}
    %s = arith.addf %acc, %p : {a.out}
    linalg.yield %s : {a.out}
  }}
  return
}}""")
else:
    fill = "" if a.accumulate else (
        f"  %zero = arith.constant 0.0 : {a.out}\n"
        f"  linalg.fill ins(%zero : {a.out}) outs(%C : memref<{C}>)\n")
    print(f"""func.func @{name}(%A: memref<{A}>, %B: memref<{B}>, %C: memref<{C}>) {{
{fill}  {op} {maps}ins(%A, %B : memref<{A}>, memref<{B}>) outs(%C : memref<{C}>)
  return
}}""")
