"""CPU tests of the PyTorch integration (skipped without torch): the custom
operators and their fake implementations under torch.compile (fullgraph),
torch.library.opcheck, and tcgen.nn.Linear's and GatedLinear's specs and
kernel caches. The launch itself is replaced by a CPU stand-in (x W^T plus
the epilogue's operands; silu of that times x W2^T for a dual GEMM), so
these run without a GPU; test_gpu.py runs the real kernels."""

import os
import unittest

import util  # noqa: F401  (the source package first on sys.path)
from util import env, fake_compiler, tempdir, torch_or_none

torch = torch_or_none()

import tcgen  # noqa: E402
from tcgen import bundle  # noqa: E402


def cpu_launch(self, ins, result, stream=None):
    """Stand-in for Kernel.run_torch: y = x W^T (+ each epilogue operand), or
    for a dual GEMM y = silu(x W^T (+ each operand)) * (x W2^T)."""
    dual = self.op.get("dual", False)
    acc = ins[0].float() @ ins[1].float().t()
    for e in ins[3 if dual else 2:]:
        acc = acc + e.float()
    if dual:
        acc = torch.nn.functional.silu(acc) * (ins[0].float() @ ins[2].float().t())
    y = acc.to(ins[0].dtype)
    if result is None:
        return y
    result.copy_(y)
    return result


@unittest.skipIf(torch is None, "no torch")
class TorchCpuTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempdir()
        self.dir = self._tmp.__enter__()
        self._env = env(TCGEN_BIN=fake_compiler(self.dir),
                        TCGEN_CACHE_DIR=os.path.join(self.dir, "cache"))
        self._env.__enter__()
        self._saved = bundle.Kernel.run_torch
        bundle.Kernel.run_torch = cpu_launch
        torch._dynamo.reset()

    def tearDown(self):
        bundle.Kernel.run_torch = self._saved
        self._env.__exit__(None, None, None)
        self._tmp.__exit__(None, None, None)

    def kernel(self, m=8, n=16, k=32, epilogue="acc + bias[n]"):
        return tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": m, "n": n, "k": k},
                                        {"a": "f16", "b": "f16", "c": "f16"},
                                        epilogue=epilogue))

    def inputs(self, m=8, n=16, k=32):
        g = torch.Generator().manual_seed(0)
        return (torch.randn(m, k, generator=g).half(), torch.randn(n, k, generator=g).half(),
                torch.randn(n, generator=g).half())

    def test_compile_fullgraph(self):
        kern = self.kernel()
        x, w, b = self.inputs()

        def f(x, w, b):
            return kern(x, w, bias=b) * 2

        want = cpu_launch(kern, [x, w, b], None) * 2
        for backend in ("aot_eager", "inductor"):
            with self.subTest(backend=backend):
                torch._dynamo.reset()
                got = torch.compile(f, fullgraph=True, backend=backend)(x, w, b)
                self.assertEqual(got.shape, (8, 16))
                torch.testing.assert_close(got, want)

    def test_compile_out(self):
        kern = self.kernel()
        x, w, b = self.inputs()

        def g(x, w, b, out):
            kern(x, w, b, out=out)
            return out + 1

        out = torch.zeros(8, 16, dtype=torch.float16)
        got = torch.compile(g, fullgraph=True, backend="aot_eager")(x, w, b, out)
        torch.testing.assert_close(out, cpu_launch(kern, [x, w, b], None))
        torch.testing.assert_close(got, out + 1)

    def test_opcheck(self):
        kern = self.kernel()
        x, w, b = self.inputs()
        torch.library.opcheck(torch.ops.tcgen.launch.default, (kern.id, [x, w, b]),
                              test_utils=("test_schema", "test_faketensor"))
        out = torch.empty(8, 16, dtype=torch.float16)
        torch.library.opcheck(torch.ops.tcgen.launch_out.default,
                              (kern.id, [x, w, b], out),
                              test_utils=("test_schema", "test_faketensor"))

    def test_fake_shape_dynamic(self):
        kern = self.kernel(m=None)
        self.assertEqual(kern.result.user_shape, (-1, 16))
        x, w, b = self.inputs(m=5)
        from torch._subclasses.fake_tensor import FakeTensorMode
        with FakeTensorMode() as mode:
            fx, fw, fb = (mode.from_tensor(t) for t in (x, w, b))
            y = torch.ops.tcgen.launch(kern.id, [fx, fw, fb])
        self.assertEqual(tuple(y.shape), (5, 16))
        self.assertEqual(y.dtype, torch.float16)

    def test_linear(self):
        lin = tcgen.nn.Linear(32, 16, activation="relu", dtype=torch.float16)
        x = torch.randn(2, 3, 32).half()
        y = lin(x)
        self.assertEqual(y.shape, (2, 3, 16))
        s = lin.spec(6)
        self.assertEqual(s.sizes, {"m": 6, "n": 16, "k": 32})
        self.assertEqual(s.epilogue, "relu(acc + bias[n])")
        self.assertEqual(s.dtypes, {"a": "f16", "b": "f16", "c": "f16", "bias": "f16"})
        self.assertIs(lin.kernel(6), lin._kernels[6])
        self.assertEqual(lin.kernel(6).names["bias"], 2)
        # torch.compile needs the kernel made before tracing.
        with self.assertRaisesRegex(Exception, r"prepare\(4\)"), torch.no_grad():
            torch.compile(lin, fullgraph=True, backend="aot_eager")(torch.randn(4, 32).half())
        torch._dynamo.reset()
        lin.prepare(4)
        # Inference only (the operators have no autograd formula).
        with torch.no_grad():
            got = torch.compile(lin, fullgraph=True, backend="aot_eager")(
                torch.randn(4, 32).half())
        self.assertEqual(got.shape, (4, 16))

    def test_linear_specs(self):
        f16 = torch.float16
        plain = tcgen.nn.linear_spec(8, 32, 16, f16, bias=False)
        self.assertIsNone(plain.epilogue)
        self.assertEqual(tcgen.nn.linear_spec(None, 32, 16, f16).sizes["m"], "?")
        gated = tcgen.nn.linear_spec(8, 32, 16, torch.bfloat16, bias=False,
                                     epilogue="silu(acc) * up[m,n]")
        self.assertEqual(gated.dtypes["up"], "bf16")
        with self.assertRaisesRegex(ValueError, "not both"):
            tcgen.nn.linear_spec(8, 32, 16, f16, activation="relu", epilogue="acc")
        with self.assertRaisesRegex(ValueError, "activation 'gelu2'"):
            tcgen.nn.linear_spec(8, 32, 16, f16, activation="gelu2")
        with self.assertRaisesRegex(ValueError, "not supported"):
            tcgen.nn.linear_spec(8, 32, 16, torch.int8)
        with self.assertRaisesRegex(ValueError, "does not read bias"):
            tcgen.nn.Linear(32, 16, epilogue="silu(acc)")

    def test_linear_dynamic_and_epilogue_operands(self):
        lin = tcgen.nn.Linear(32, 16, bias=False, epilogue="silu(acc) * up[m,n]",
                              dtype=torch.float16, dynamic=True)
        x = torch.randn(5, 32).half()
        up = torch.randn(5, 16).half()
        y = lin(x, up=up)
        self.assertEqual(y.shape, (5, 16))
        torch.testing.assert_close(y, (x.float() @ lin.weight.float().t() + up.float()).half())
        self.assertEqual(list(lin._kernels), [None])
        lin(torch.randn(7, 32).half(), up=torch.randn(7, 16).half())
        self.assertEqual(list(lin._kernels), [None])

    def test_gated_linear(self):
        lin = tcgen.nn.GatedLinear(32, 16, bias=True, dtype=torch.float16)
        self.assertEqual(sorted(n for n, _ in lin.named_parameters()),
                         ["bias", "weight", "weight2"])
        self.assertEqual(lin.weight2.shape, (16, 32))
        self.assertFalse(torch.equal(lin.weight, lin.weight2))
        s = lin.spec(6)
        self.assertEqual(s.sizes, {"m": 6, "n": 16, "k": 32})
        self.assertEqual(s.epilogue, "silu(acc + bias[n]) * acc2")
        self.assertEqual(s.dtypes, {"a": "f16", "b": "f16", "b2": "f16", "c": "f16",
                                    "bias": "f16"})
        self.assertEqual(s.fields(), tcgen.nn.gated_linear_spec(
            6, 32, 16, torch.float16, bias=True).fields())
        x = torch.randn(2, 3, 32).half()
        y = lin(x)
        self.assertEqual(y.shape, (2, 3, 16))
        x2 = x.reshape(6, 32).float()
        want = (torch.nn.functional.silu(x2 @ lin.weight.float().t() + lin.bias.float())
                * (x2 @ lin.weight2.float().t())).half()
        torch.testing.assert_close(y.reshape(6, 16), want)
        k = lin.kernel(6)
        self.assertTrue(k.op["dual"])
        self.assertEqual((k.names["b2"], k.names["bias"]), (2, 3))
        self.assertIn("activation=silu", repr(lin))
        # torch.compile, as for Linear: the kernel made before tracing.
        pattern = r"GatedLinear: no kernel for 4 tokens yet; call module.prepare\(4\)"
        with self.assertRaisesRegex(Exception, pattern), torch.no_grad():
            torch.compile(lin, fullgraph=True, backend="aot_eager")(torch.randn(4, 32).half())
        torch._dynamo.reset()
        lin.prepare(4)
        x4 = torch.randn(4, 32).half()
        with torch.no_grad():
            got = torch.compile(lin, fullgraph=True, backend="aot_eager")(x4)
            torch.testing.assert_close(got, lin(x4))

    def test_gated_linear_epilogue(self):
        lin = tcgen.nn.GatedLinear(32, 16, epilogue="gelu_tanh(acc) * acc2 + res[m,n]",
                                   dtype=torch.bfloat16)
        self.assertIsNone(lin.activation)
        self.assertEqual(lin.spec(5).operand_names(), ["a", "b", "b2", "res"])
        y = lin(torch.randn(5, 32).bfloat16(), res=torch.randn(5, 16).bfloat16())
        self.assertEqual((y.shape, y.dtype), ((5, 16), torch.bfloat16))
        self.assertEqual(tcgen.nn.GatedLinear(32, 16, activation="gelu_erf").spec(2).epilogue,
                         "gelu_erf(acc) * acc2")

    def test_gated_linear_refusals(self):
        cases = [
            (lambda: tcgen.nn.GatedLinear(32, 16, dynamic=True),
             "no dynamic=True: its dual GEMM needs static sizes"),
            (lambda: tcgen.nn.GatedLinear(32, 16, activation="tanh"),
             "activation 'tanh' is not one of"),
            (lambda: tcgen.nn.GatedLinear(32, 16, activation="relu",
                                          epilogue="relu(acc) * acc2"), "not both"),
            (lambda: tcgen.nn.GatedLinear(32, 16, epilogue="silu(acc) * up[m,n]"),
             "does not read acc2"),
            (lambda: tcgen.nn.GatedLinear(32, 16, bias=True, epilogue="silu(acc) * acc2"),
             r"does not read bias\[n\]"),
            (lambda: tcgen.nn.GatedLinear(32, 16, dtype=torch.float32), "not f32"),
            (lambda: tcgen.nn.Linear(32, 16, bias=False, epilogue="silu(acc) * acc2"),
             "reads acc2.*use tcgen.nn.GatedLinear"),
        ]
        for fn, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(ValueError, pattern):
                    fn()


if __name__ == "__main__":
    unittest.main()
