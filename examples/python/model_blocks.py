#!/usr/bin/env python3
"""Transformer blocks from PyTorch through tcgen, against PyTorch eager and
torch.compile in the same process.

Blocks (bf16):
  bert_ffn   BERT-large FFN, 3072 tokens: y = W2 gelu_tanh(W1 x + b1) + b2 + x
             (1024 -> 4096 -> 1024); tcgen: two kernels, the bias and GELU
             fused into the first, the bias and residual into the second.
  llama_mlp  Llama-7B MLP at 1, 8, 32, 128 and 2048 tokens:
             y = W2 (silu(W1 x) * (W3 x)) (4096 -> 11008 -> 4096); tcgen:
             two kernels, the gate and up projections and silu(.) * (.) as
             one dual GEMM (tcgen.nn.GatedLinear), then the down projection.

Each block runs as tcgen.nn modules (kernels from the bundle cache),
as PyTorch eager and as torch.compile (default mode); times are CUDA-event
medians of `--reps` repetitions of `--iters` calls each, the three sides
alternating within every repetition, after warm-up. Prints a table and
writes model_blocks.csv and model_blocks.png to --out.

On a machine with the compiler (no GPU needed), fill a cache:
    python3 examples/python/model_blocks.py --compile-only --cache-dir CACHE
then on the GPU machine (PyTorch, libtcgen_rt; no compiler needed):
    python3 examples/python/model_blocks.py --cache-dir CACHE --out OUT
"""

import argparse
import csv
import os
import statistics
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import tcgen
except ImportError:  # run from a checkout without pip install ./python
    sys.path.insert(0, os.path.join(REPO, "python"))
    import tcgen

from tcgen.specs import gated_linear_spec, linear_spec

BERT = dict(hidden=1024, ffn=4096, tokens=3072)
LLAMA = dict(hidden=4096, ffn=11008)
LLAMA_TOKENS = (1, 8, 32, 128, 2048)

# The Linear layers of each block: name -> (in, out, bias, activation, epilogue).
BERT_LAYERS = {
    "fc1": (BERT["hidden"], BERT["ffn"], True, "gelu_tanh", None),
    "fc2": (BERT["ffn"], BERT["hidden"], True, None, "acc + bias[n] + res[m,n]"),
}
LLAMA_LAYERS = {
    "down": (LLAMA["ffn"], LLAMA["hidden"], False, None, None),
}
# The Llama MLP's gate and up projections, one tcgen.nn.GatedLinear:
# (in, out, activation), no bias.
LLAMA_GATE_UP = (LLAMA["hidden"], LLAMA["ffn"], "silu")


def specs():
    """Every (tokens, layer spec) the run needs: what --compile-only builds."""
    out = []
    for layer in BERT_LAYERS.values():
        out.append(linear_spec(BERT["tokens"], layer[0], layer[1], "bf16", *layer[2:]))
    for tokens in LLAMA_TOKENS:
        out.append(gated_linear_spec(tokens, *LLAMA_GATE_UP[:2], "bf16", LLAMA_GATE_UP[2]))
        for layer in LLAMA_LAYERS.values():
            out.append(linear_spec(tokens, layer[0], layer[1], "bf16", *layer[2:]))
    return out


def compile_only(cache_dir, options=None):
    for spec in specs():
        path = tcgen.compile_bundle(spec, cache_dir=cache_dir, options=options)
        print("m=%-5s %-28s %s" % (spec.sizes["m"], spec.epilogue or "acc", path))


def make_linear(torch, layer, weight, bias, cache_dir, options=None):
    lin = tcgen.nn.Linear(layer[0], layer[1], bias=layer[2], activation=layer[3],
                          epilogue=layer[4], dtype=torch.bfloat16, device="cuda",
                          cache_dir=cache_dir, options=options)
    lin.weight.data = weight
    if bias is not None:
        lin.bias.data = bias
    return lin


def bert_block(torch, cache_dir, options=None):
    F = torch.nn.functional
    g = torch.Generator(device="cuda").manual_seed(0)

    def rand(*shape, scale=1.0):
        return ((torch.rand(*shape, device="cuda", generator=g) * 2 - 1) * scale).to(torch.bfloat16)

    h, f, t = BERT["hidden"], BERT["ffn"], BERT["tokens"]
    w1, b1 = rand(f, h, scale=h ** -0.5), rand(f, scale=0.1)
    w2, b2 = rand(h, f, scale=f ** -0.5), rand(h, scale=0.1)
    x = rand(t, h)
    fc1 = make_linear(torch, BERT_LAYERS["fc1"], w1, b1, cache_dir, options)
    fc2 = make_linear(torch, BERT_LAYERS["fc2"], w2, b2, cache_dir, options)

    def tcgen_fn(x):
        return fc2(fc1(x), res=x)

    def eager_fn(x):
        return F.linear(F.gelu(F.linear(x, w1, b1), approximate="tanh"), w2, b2) + x

    flops = 2 * t * (h * f * 2)
    return [("bert_ffn", t, flops, tcgen_fn, eager_fn, x)]


def llama_blocks(torch, cache_dir, options=None):
    F = torch.nn.functional
    g = torch.Generator(device="cuda").manual_seed(1)

    def rand(*shape, scale=1.0):
        return ((torch.rand(*shape, device="cuda", generator=g) * 2 - 1) * scale).to(torch.bfloat16)

    h, f = LLAMA["hidden"], LLAMA["ffn"]
    w1, w3 = rand(f, h, scale=h ** -0.5), rand(f, h, scale=h ** -0.5)
    w2 = rand(h, f, scale=f ** -0.5)
    gate_up = tcgen.nn.GatedLinear(*LLAMA_GATE_UP[:2], activation=LLAMA_GATE_UP[2],
                                   dtype=torch.bfloat16, device="cuda",
                                   cache_dir=cache_dir, options=options)
    gate_up.weight.data = w1
    gate_up.weight2.data = w3
    down = make_linear(torch, LLAMA_LAYERS["down"], w2, None, cache_dir, options)

    def tcgen_fn(x):
        return down(gate_up(x))

    def eager_fn(x):
        return F.linear(F.silu(F.linear(x, w1)) * F.linear(x, w3), w2)

    blocks = []
    for t in LLAMA_TOKENS:
        blocks.append(("llama_mlp", t, 2 * t * h * f * 3, tcgen_fn, eager_fn, rand(t, h)))
    return blocks


def time_sides(torch, sides, x, iters, reps, warmup):
    """Median microseconds per call of each side, the sides alternating."""
    for fn in sides.values():
        for _ in range(warmup):
            fn(x)
    torch.cuda.synchronize()
    times = {name: [] for name in sides}
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(reps * len(sides))]
    order = list(sides.items())
    e = iter(events)
    pending = []
    for rep in range(reps):
        for name, fn in (order if rep % 2 == 0 else order[::-1]):
            start, end = next(e)
            start.record()
            for _ in range(iters):
                fn(x)
            end.record()
            pending.append((name, start, end))
    torch.cuda.synchronize()
    for name, start, end in pending:
        times[name].append(start.elapsed_time(end) * 1000.0 / iters)
    return {name: statistics.median(v) for name, v in times.items()}


def rel_error(torch, got, ref):
    ref = ref.double()
    return ((got.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["%s\n%d tok" % (r["block"], r["tokens"]) for r in rows]
    sides = [("tcgen", "tcgen_us", "#1f77b4"), ("torch.compile", "compile_us", "#ff7f0e"),
             ("eager", "eager_us", "#7f7f7f")]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    width = 0.27
    xs = range(len(rows))
    for i, (name, key, color) in enumerate(sides):
        ax1.bar([x + (i - 1) * width for x in xs], [r[key] for r in rows], width,
                label=name, color=color)
        if key != "eager_us":
            bars = ax2.bar([x + (i - 1) * width for x in xs],
                           [r["eager_us"] / r[key] for r in rows], width, label=name,
                           color=color)
            ax2.bar_label(bars, fmt="%.2f", fontsize=7)
    ax1.set_yscale("log")
    ax1.set_ylabel("time per block (us, log)")
    ax1.legend()
    ax2.axhline(1.0, color="black", linewidth=0.8)
    ax2.axhline(1.2, color="black", linewidth=0.8, linestyle="--", label="1.2x")
    ax2.set_ylabel("speed-up over eager")
    ax2.set_xticks(list(xs))
    ax2.set_xticklabels(labels)
    ax2.legend()
    fig.suptitle("Transformer blocks, bf16: tcgen vs PyTorch eager and torch.compile")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args):
    import torch

    if not torch.cuda.is_available():
        sys.exit("model_blocks: no CUDA device (use --compile-only on a machine without one)")
    os.makedirs(args.out, exist_ok=True)
    blocks = (bert_block(torch, args.cache_dir, args.options) +
              llama_blocks(torch, args.cache_dir, args.options))
    rows = []
    print("%s, torch %s, %d x %d calls per side (median of the repetitions)" % (
        torch.cuda.get_device_name(), torch.__version__, args.reps, args.iters))
    print("%-10s %6s %11s %11s %11s %8s %8s %9s" % (
        "block", "tokens", "tcgen us", "compile us", "eager us", "x eager", "x compile",
        "rel err"))
    with torch.inference_mode():
        for name, tokens, flops, tcgen_fn, eager_fn, x in blocks:
            torch._dynamo.reset()
            sides = {"tcgen": tcgen_fn, "eager": eager_fn}
            compiled = torch.compile(eager_fn, dynamic=False)
            try:
                compiled(x)  # compiles now, outside the timing
                sides["compile"] = compiled
            except Exception as e:  # the table says so; the other sides still run
                print("torch.compile failed on %s/%d: %s" % (name, tokens, e))
            err = rel_error(torch, tcgen_fn(x), eager_fn(x))
            t = time_sides(torch, sides, x, args.iters, args.reps, args.warmup)
            t.setdefault("compile", float("nan"))
            row = {"block": name, "tokens": tokens, "tcgen_us": t["tcgen"],
                   "compile_us": t["compile"], "eager_us": t["eager"],
                   "tcgen_tflops": flops / t["tcgen"] / 1e6,
                   "speedup_vs_eager": t["eager"] / t["tcgen"],
                   "speedup_vs_compile": t["compile"] / t["tcgen"], "rel_err": err}
            rows.append(row)
            print("%-10s %6d %11.1f %11.1f %11.1f %8.2f %8.2f %9.2e" % (
                name, tokens, t["tcgen"], t["compile"], t["eager"],
                row["speedup_vs_eager"], row["speedup_vs_compile"], err))
    device = torch.cuda.get_device_name()
    name = "model_blocks" + args.label
    csv_path = os.path.join(args.out, name + ".csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["device"] + list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, device=device))
    plot(rows, os.path.join(args.out, name + ".png"))
    print("wrote %s and %s.png (%s, torch %s)" % (csv_path, name, device, torch.__version__))
    bad = [r for r in rows if r["rel_err"] > 2e-2]
    if bad:
        sys.exit("model_blocks: tcgen differs from eager by more than 2%% of the output's "
                 "magnitude: %s" % ", ".join("%s/%d" % (r["block"], r["tokens"]) for r in bad))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compile-only", action="store_true",
                   help="compile every bundle the run needs into the cache and stop")
    p.add_argument("--cache-dir", help="the bundle cache (default: TCGEN_CACHE_DIR "
                   "or ~/.cache/tcgen)")
    p.add_argument("--out", default="out/model_blocks", help="where the CSV and PNG go")
    p.add_argument("--iters", type=int, default=20, help="calls per timed repetition")
    p.add_argument("--reps", type=int, default=15, help="timed repetitions (median)")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls first")
    p.add_argument("--tuning-cache", help="a tuning cache (tcgen tune --import) "
                   "every kernel is compiled with; part of each bundle's cache key")
    p.add_argument("--label", default="", help="a suffix for the CSV and PNG names")
    args = p.parse_args()
    if args.cache_dir:
        args.cache_dir = os.path.abspath(args.cache_dir)
    args.options = (["--tuning-cache=" + os.path.abspath(args.tuning_cache)]
                    if args.tuning_cache else None)
    if args.compile_only:
        compile_only(args.cache_dir, args.options)
    else:
        run(args)


if __name__ == "__main__":
    main()
