#!/usr/bin/env python3
"""A stand-in for the tcgen compiler in the package's CPU tests.

This file implements just enough of ``tcgen compile`` for the tests: it
records its argv (argv.txt, JSON, in the output directory) and the number of its
runs (the file named by FAKE_TCGEN_COUNTER), and writes a bundle whose
manifest follows docs/BUNDLE.md for an ``mk,nk->mn`` (or ``mk,kn->mn``)
spec: A [m, k], B [k, n] (stored [n, k] for ``nk``), B2 of B's shape and
dtype where the epilogue reads ``acc2`` (a dual GEMM: role rhs2,
``op.dual``), one ``in`` operand per epilogue operand (``x[n]`` a row,
``x[m,n]`` a matrix, ``x`` a scalar), then C [m, n] (as the spec front end
orders them), sizes of ``?`` as -1. FAKE_TCGEN_FAIL makes it fail,
FAKE_TCGEN_SLEEP makes it slow (seconds), FAKE_TCGEN_SECOND writes a second
manifest.
"""

import json
import os
import re
import sys
import time


def parse(argv):
    opts = {"positional": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--einsum", "--sizes", "--dtypes", "--epilogue", "--prologue",
                 "--name", "-o"):
            opts[a.lstrip("-")] = argv[i + 1]
            i += 2
            continue
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            opts[k] = v
        elif a.startswith("--"):
            opts[a[2:]] = True
        else:
            opts["positional"].append(a)
        i += 1
    return opts


def operands(opts):
    sizes = {}
    for kv in opts.get("sizes", "m=64,n=64,k=64").split(","):
        k, v = kv.split("=")
        sizes[k] = -1 if v == "?" else int(v)
    dtypes = dict(kv.split("=") for kv in opts.get("dtypes", "").split(",") if kv)
    m, n, k = sizes.get("m", 64), sizes.get("n", 64), sizes.get("k", 64)
    einsum = opts.get("einsum", "mk,kn->mn")
    b_nk = einsum.split(",")[1].startswith("n")
    ops = [
        {"name": "A", "role": "lhs", "dtype": dtypes.get("a", "f16"),
         "shape": [m, k], "strides": [k, 1], "align_bytes": 16},
        {"name": "B", "role": "rhs", "dtype": dtypes.get("b", "f16"),
         "shape": [k, n], "strides": [1, k] if b_nk else [n, 1], "align_bytes": 16},
    ]
    if re.search(r"\bacc2\b", opts.get("epilogue", "")):
        ops.append(dict(ops[1], name="B2", role="rhs2"))
    c_role = "inout" if opts.get("accumulate") else "out"
    c = {"name": "C", "role": c_role, "dtype": dtypes.get("c", "f16"),
         "shape": [m, n], "strides": [n, 1], "align_bytes": 16}
    names = []
    for match in re.finditer(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?", opts.get("epilogue", "")):
        word, index = match.group(1), match.group(2)
        rest = opts["epilogue"][match.end():].lstrip()
        if rest.startswith("(") or word in ("acc", "acc2", "m", "n") or word in names:
            continue
        names.append(word)
        idx = (index or "[]").strip("[]").replace(" ", "")
        shape = {"": [], "n": [n], "m": [m], "m,n": [m, n]}[idx]
        strides = {"": [], "n": [1], "m": [1], "m,n": [n, 1]}[idx]
        ops.append({"name": "E%d" % (len(names) - 1), "role": "in",
                    "dtype": dtypes.get(word, dtypes.get("c", "f16")),
                    "shape": shape, "strides": strides, "align_bytes": 2})
    ops.append(c)  # the function's arguments: A, B, B2, the epilogue's, C
    op = {"batch": 1, "m": m, "n": n, "k": k}
    if ops[2]["role"] == "rhs2":
        op["dual"] = True
    return op, ops


def main():
    argv = sys.argv[1:]
    if os.environ.get("FAKE_TCGEN_COUNTER") and argv[:1] == ["compile"]:
        path = os.environ["FAKE_TCGEN_COUNTER"]
        with open(path, "a") as f:
            f.write("run\n")
    if os.environ.get("FAKE_TCGEN_SLEEP"):
        time.sleep(float(os.environ["FAKE_TCGEN_SLEEP"]))
    if argv == ["--version"]:
        print("fake tcgen 0")
        return 0
    if not argv or argv[0] != "compile":
        print("fake tcgen: expected 'compile'", file=sys.stderr)
        return 2
    opts = parse(argv[1:])
    if os.environ.get("FAKE_TCGEN_FAIL"):
        print("tcgen: error: --epilogue:5: unknown function 'gleu'", file=sys.stderr)
        return 1
    out = opts["o"]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "argv.txt"), "w") as f:
        json.dump(argv, f)
    name = opts.get("name", "spec_kernel" if "einsum" in opts else "mlir_kernel")
    op, ops = operands(opts)
    op.update({"kind": "matmul", "accumulate": bool(opts.get("accumulate")),
               "accumulator": "f32"})
    manifest = {"format": "tcgen.bundle", "version": 1, "entry": name,
                "cubin": name + ".cubin", "ptx": name + ".ptx",
                "target": {"arch": opts.get("target", "sm_90a"),
                           "backend": "sm90", "min_cc": 90},
                "op": op, "operands": ops,
                "params": [{"kind": "ptr", "operand": o["name"]} for o in ops],
                "launch": {"grid": [1, 1, 1], "block": [128, 1, 1],
                           "cluster": [1, 1, 1], "dynamic_smem_bytes": 0}}
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for ext in ("ptx", "cubin"):
        with open(os.path.join(out, name + "." + ext), "w") as f:
            f.write("// fake\n")
    if os.environ.get("FAKE_TCGEN_SECOND"):
        with open(os.path.join(out, "second_kernel.json"), "w") as f:
            json.dump(dict(manifest, entry="second_kernel"), f)
    print("remark: fake compile", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
