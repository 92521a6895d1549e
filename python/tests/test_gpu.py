"""GPU tests of the package (skipped without PyTorch, CUDA or libtcgen_rt):
kernels against float64 PyTorch references with NaN-poisoned outputs, the
torch.compile (fullgraph) path, CUDA-graph capture and replay with new input
values, streams, objects other than torch tensors, tcgen.nn.Linear, dual
GEMMs and tcgen.nn.GatedLinear (eager, torch.compile, CUDA graphs).

The bundles come from the cache (TCGEN_CACHE_DIR or the default); on a GPU
machine without the compiler, fill a cache elsewhere first:

    python3 python/tests/test_gpu.py --compile-only --cache-dir DIR
    TCGEN_CACHE_DIR=DIR python3 -m unittest discover -s python/tests -p test_gpu.py -v
"""

import argparse
import os
import sys
import unittest

import util
from util import torch_or_none

import tcgen

torch = torch_or_none()

BF = {"a": "bf16", "b": "bf16", "c": "bf16"}
F16 = {"a": "f16", "b": "f16", "c": "f16"}

# name -> spec fields (or an MLIR file of the examples).
PROBLEMS = {
    "bias_relu_mlir": os.path.join(util.REPO, "examples", "matmul_bias_relu.mlir"),
    "ffn_gelu": dict(einsum="mk,nk->mn", sizes={"m": 256, "n": 1024, "k": 512},
                     dtypes=dict(BF, bias="bf16"), epilogue="gelu_tanh(acc + bias[n])"),
    "residual": dict(einsum="mk,nk->mn", sizes={"m": 256, "n": 512, "k": 1024},
                     dtypes=dict(BF, bias="bf16", res="bf16"),
                     epilogue="acc + bias[n] + res[m,n]"),
    "gated_m8": dict(einsum="mk,nk->mn", sizes={"m": 8, "n": 1024, "k": 512},
                     dtypes=dict(BF, up="bf16"), epilogue="silu(acc) * up[m,n]"),
    "dynamic_bias": dict(einsum="mk,nk->mn", sizes={"m": None, "n": 512, "k": 256},
                         dtypes=dict(F16, bias="f16"), epilogue="acc + bias[n]"),
    # What tcgen.nn.Linear(512, 256, activation="gelu_tanh") compiles for 64
    # tokens (test_linear checks that it is).
    "linear_gelu": dict(einsum="mk,nk->mn", sizes={"m": 64, "n": 256, "k": 512},
                        dtypes=dict(BF, bias="bf16"), epilogue="gelu_tanh(acc + bias[n])"),
    # What tcgen.nn.GatedLinear(512, 1024) (SwiGLU, a dual GEMM) compiles for
    # 64 tokens, and GatedLinear(512, 256, "gelu_tanh", bias=True) for 8
    # (test_gated_linear* check that they are).
    "gated_silu": dict(einsum="mk,nk->mn", sizes={"m": 64, "n": 1024, "k": 512},
                       dtypes=dict(BF, b2="bf16"), epilogue="silu(acc) * acc2"),
    "gated_gelu_bias_m8": dict(einsum="mk,nk->mn", sizes={"m": 8, "n": 256, "k": 512},
                               dtypes=dict(BF, b2="bf16", bias="bf16"),
                               epilogue="gelu_tanh(acc + bias[n]) * acc2"),
    "accumulate": dict(einsum="mk,kn->mn", sizes={"m": 128, "n": 256, "k": 128},
                       dtypes={"a": "f16", "b": "f16", "c": "f32"}, accumulate=True),
}


def compile_problem(name, **kw):
    p = PROBLEMS[name]
    if isinstance(p, str):
        return tcgen.compile(mlir=p, **kw)
    return tcgen.compile(tcgen.Spec(**p), **kw)


def gpu_ready():
    if torch is None:
        return "no torch"
    if not torch.cuda.is_available():
        return "no CUDA device"
    if not tcgen.runtime_available():
        return "libtcgen_rt not found (build it, or set TCGEN_RT_LIBRARY)"
    if torch.cuda.get_device_capability() < (9, 0):
        return "the test bundles target sm_90a"
    return None


def close(testcase, got, ref, rel=2e-2, abs_frac=1e-2):
    """Every element within rel * |ref| + abs_frac * max|ref|, none NaN."""
    got = got.double()
    testcase.assertFalse(torch.isnan(got).any().item(), "NaN in the output")
    bound = rel * ref.abs() + abs_frac * ref.abs().max()
    err = (got - ref).abs()
    worst = (err - bound).max().item()
    testcase.assertLessEqual(worst, 0.0, "max error %.4g over the bound" % err.max().item())


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


@unittest.skipIf(gpu_ready() is not None, gpu_ready() or "")
class GpuTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kernels = {}

    def kernel(self, name):
        if name not in self.kernels:
            self.kernels[name] = compile_problem(name)
        return self.kernels[name]

    def rand(self, *shape, dtype=None, seed=0):
        dtype = dtype or torch.bfloat16
        g = torch.Generator(device="cuda").manual_seed(seed + sum(shape))
        return (torch.rand(*shape, device="cuda", generator=g) * 2 - 1).to(dtype)

    def nan_like(self, shape, dtype):
        return torch.full(shape, float("nan"), device="cuda", dtype=dtype)

    def test_bias_relu_mlir(self):
        k = self.kernel("bias_relu_mlir")
        a, b = self.rand(1024, 1024, dtype=torch.float16), self.rand(1024, 1024, dtype=torch.float16, seed=1)
        bias = self.rand(1024, dtype=torch.float16)
        out = self.nan_like((1024, 1024), torch.float16)
        self.assertIs(k(a, b, bias, out=out), out)
        torch.cuda.synchronize()
        ref = torch.relu(a.double() @ b.double() + bias.double())
        close(self, out, ref)

    def test_ffn_gelu(self):
        k = self.kernel("ffn_gelu")
        x, w, bias = self.rand(256, 512), self.rand(1024, 512, seed=1), self.rand(1024)
        ref = gelu_tanh(x.double() @ w.double().t() + bias.double())
        out = self.nan_like((256, 1024), torch.bfloat16)
        k(x, w, bias=bias, out=out)
        close(self, out, ref)
        y = k(x, w, bias=bias)  # allocated
        self.assertEqual((y.shape, y.dtype), ((256, 1024), torch.bfloat16))
        close(self, y, ref)

    def test_residual(self):
        k = self.kernel("residual")
        x, w, bias = self.rand(256, 1024), self.rand(512, 1024, seed=1), self.rand(512)
        res = self.rand(256, 512, seed=2)
        out = self.nan_like((256, 512), torch.bfloat16)
        k(x, w, bias=bias, res=res, out=out)
        close(self, out, x.double() @ w.double().t() + bias.double() + res.double())

    def test_gated_small_m(self):
        k = self.kernel("gated_m8")
        x, w, up = self.rand(8, 512), self.rand(1024, 512, seed=1), self.rand(8, 1024, seed=2)
        out = self.nan_like((8, 1024), torch.bfloat16)
        k(x, w, up=up, out=out)
        acc = x.double() @ w.double().t()
        close(self, out, acc * torch.sigmoid(acc) * up.double())

    def test_dynamic_m(self):
        k = self.kernel("dynamic_bias")
        w, bias = self.rand(512, 256, dtype=torch.float16), self.rand(512, dtype=torch.float16)
        for m in (1, 100, 256):
            with self.subTest(m=m):
                x = self.rand(m, 256, dtype=torch.float16, seed=m)
                y = k(x, w, bias=bias)
                self.assertEqual(y.shape, (m, 512))
                close(self, y, x.double() @ w.double().t() + bias.double())

    def test_accumulate(self):
        k = self.kernel("accumulate")
        a, b = self.rand(128, 128, dtype=torch.float16), self.rand(128, 256, dtype=torch.float16, seed=1)
        c = self.rand(128, 256, dtype=torch.float32, seed=2)
        ref = c.double() + a.double() @ b.double()
        self.assertIs(k(a, b, c), c)
        close(self, c, ref, rel=1e-3, abs_frac=1e-4)

    def test_errors(self):
        k = self.kernel("ffn_gelu")
        x, w, bias = self.rand(256, 512), self.rand(1024, 512, seed=1), self.rand(1024)
        with self.assertRaisesRegex(tcgen.ArgumentError, "expected dtype bf16, got f16"):
            k(x.half(), w, bias=bias)
        with self.assertRaisesRegex(tcgen.ArgumentError, "expected shape"):
            k(x[:128], w, bias=bias)
        # Positional calls leave the address checks to the runtime, which
        # refuses before launching.
        with self.assertRaisesRegex(tcgen.TcgenError, "not aligned|misaligned"):
            k(self.rand(256 * 512 + 1).narrow(0, 1, 256 * 512).view(256, 512), w, bias=bias)
        with self.assertRaisesRegex(tcgen.ArgumentError, "on cpu"):
            k(x.cpu(), w, bias=bias)

    def test_stream(self):
        k = self.kernel("ffn_gelu")
        x, w, bias = self.rand(256, 512), self.rand(1024, 512, seed=1), self.rand(1024)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            y = k(x, w, bias=bias)
        s.synchronize()
        close(self, y, gelu_tanh(x.double() @ w.double().t() + bias.double()))

    def test_other_tensor_objects(self):
        k = self.kernel("dynamic_bias")
        w, bias = self.rand(512, 256, dtype=torch.float16), self.rand(512, dtype=torch.float16)
        x = self.rand(64, 256, dtype=torch.float16)

        class DLPackOnly:
            def __init__(self, t):
                self.t = t

            def __dlpack__(self, **kw):
                return self.t.__dlpack__(**kw)

            def __dlpack_device__(self):
                return self.t.__dlpack_device__()

        class CAIOnly:
            def __init__(self, t):
                self.t = t
                self.__cuda_array_interface__ = t.__cuda_array_interface__

        out = self.nan_like((64, 512), torch.float16)
        k(DLPackOnly(x), CAIOnly(w), bias=DLPackOnly(bias), out=CAIOnly(out))
        torch.cuda.synchronize()
        close(self, out, x.double() @ w.double().t() + bias.double())

    def test_torch_compile(self):
        k = self.kernel("ffn_gelu")
        x, w, bias = self.rand(256, 512), self.rand(1024, 512, seed=1), self.rand(1024)

        def f(x, w, bias):
            return k(x, w, bias=bias) * 2 + 1

        want = f(x, w, bias)
        torch._dynamo.reset()
        got = torch.compile(f, fullgraph=True)(x, w, bias)
        torch.testing.assert_close(got, want)
        out = self.nan_like((256, 1024), torch.bfloat16)

        def g(x, w, bias, out):
            k(x, w, bias=bias, out=out)
            return out.float().sum()

        got = torch.compile(g, fullgraph=True)(x, w, bias, out)
        close(self, out, gelu_tanh(x.double() @ w.double().t() + bias.double()))

    def test_cuda_graph(self):
        k = self.kernel("ffn_gelu")
        x, w, bias = self.rand(256, 512), self.rand(1024, 512, seed=1), self.rand(1024)
        out = torch.empty(256, 1024, device="cuda", dtype=torch.bfloat16)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            k(x, w, bias=bias, out=out)  # the plan is made outside capture
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            k(x, w, bias=bias, out=out)
            y = k(x, w, bias=bias)  # allocated from the graph's pool
        for seed in (5, 6):
            x.copy_(self.rand(256, 512, seed=seed))
            bias.copy_(self.rand(1024, seed=seed))
            out.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            ref = gelu_tanh(x.double() @ w.double().t() + bias.double())
            close(self, out, ref)
            close(self, y, ref)

    def test_capture_without_plan(self):
        k = self.kernel("residual")
        x, w, bias = self.rand(256, 1024), self.rand(512, 1024, seed=1), self.rand(512)
        res = self.rand(256, 512, seed=2)
        graph = torch.cuda.CUDAGraph()
        with self.assertRaisesRegex(tcgen.TcgenError, "before capturing"):
            with torch.cuda.graph(graph):
                k(x, w, bias=bias, res=res)

    def test_linear(self):
        lin = tcgen.nn.Linear(512, 256, activation="gelu_tanh", dtype=torch.bfloat16,
                              device="cuda")
        self.assertEqual(lin.spec(64).fields(),
                         tcgen.Spec(**PROBLEMS["linear_gelu"]).fields())
        x = self.rand(2, 32, 512)
        with torch.no_grad():
            y = lin(x)
            ref = gelu_tanh(x.double() @ lin.weight.double().t() + lin.bias.double())
        self.assertEqual(y.shape, (2, 32, 256))
        close(self, y, ref)

    def swiglu_ref(self, x, w, w2, bias=None, act=None):
        """act(x W^T [+ bias]) * (x W2^T) (act: silu), computed in float32,
        for x flattened to [tokens, k]."""
        x = x.reshape(-1, x.shape[-1]).float()
        acc = x @ w.float().t()
        if bias is not None:
            acc = acc + bias.float()
        return (act or torch.nn.functional.silu)(acc) * (x @ w2.float().t())

    def test_dual_kernel(self):
        k = self.kernel("gated_silu")
        x, w, w2 = self.rand(64, 512), self.rand(1024, 512, seed=1), self.rand(1024, 512, seed=2)
        ref = self.swiglu_ref(x, w, w2).double()
        out = self.nan_like((64, 1024), torch.bfloat16)
        self.assertIs(k(x, w, w2, out=out), out)  # positionally: x, W, W2
        close(self, out, ref)
        close(self, k(x, w, b2=w2), ref)  # by name, allocated
        close(self, k(a=x, b=w, B2=w2), ref)
        with self.assertRaisesRegex(tcgen.ArgumentError,
                                    r"operand B2 \(rhs2\): expected shape \[1024, 512\]"):
            k(x, w, w2[:512])
        with self.assertRaisesRegex(tcgen.ArgumentError, r"missing operand B2 \(rhs2\)"):
            k(x, w)

    def test_gated_linear(self):
        lin = tcgen.nn.GatedLinear(512, 1024, dtype=torch.bfloat16, device="cuda")
        self.assertEqual(lin.spec(64).fields(),
                         tcgen.Spec(**PROBLEMS["gated_silu"]).fields())
        x = self.rand(2, 32, 512)
        with torch.no_grad():
            y = lin(x)
            ref = self.swiglu_ref(x, lin.weight, lin.weight2)
        self.assertEqual((y.shape, y.dtype), ((2, 32, 1024), torch.bfloat16))
        close(self, y.reshape(64, 1024), ref.double())

    def test_gated_linear_bias_small_m(self):
        lin = tcgen.nn.GatedLinear(512, 256, activation="gelu_tanh", bias=True,
                                   dtype=torch.bfloat16, device="cuda")
        self.assertEqual(lin.spec(8).fields(),
                         tcgen.Spec(**PROBLEMS["gated_gelu_bias_m8"]).fields())
        x = self.rand(8, 512)
        with torch.no_grad():
            y = lin(x)
            ref = self.swiglu_ref(x, lin.weight, lin.weight2, lin.bias, act=gelu_tanh)
        close(self, y, ref.double())

    def test_gated_linear_compile_and_graph(self):
        lin = tcgen.nn.GatedLinear(512, 1024, dtype=torch.bfloat16, device="cuda")
        x = self.rand(64, 512)
        with torch.no_grad():
            lin.prepare(64)
            torch._dynamo.reset()
            got = torch.compile(lin, fullgraph=True)(x)
            close(self, got, self.swiglu_ref(x, lin.weight, lin.weight2).double())
            # CUDA graphs: one call first (the plan), then capture and replay
            # with new values in x.
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                lin(x)
            torch.cuda.current_stream().wait_stream(s)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                y = lin(x)
            for seed in (5, 6):
                x.copy_(self.rand(64, 512, seed=seed))
                y.fill_(float("nan"))
                graph.replay()
                torch.cuda.synchronize()
                close(self, y, self.swiglu_ref(x, lin.weight, lin.weight2).double())


def compile_all(cache_dir):
    """Compiles every bundle the tests use into cache_dir."""
    for name in PROBLEMS:
        k = compile_problem(name, cache_dir=cache_dir)
        print("%-20s %s" % (name, k.directory))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compile-only", action="store_true",
                        help="compile the tests' bundles into the cache and stop")
    parser.add_argument("--cache-dir", help="the bundle cache (default: TCGEN_CACHE_DIR "
                        "or ~/.cache/tcgen)")
    args, rest = parser.parse_known_args()
    if args.cache_dir:
        os.environ["TCGEN_CACHE_DIR"] = os.path.abspath(args.cache_dir)
    if args.compile_only:
        compile_all(args.cache_dir)
        sys.exit(0)
    unittest.main(argv=[sys.argv[0]] + rest)
