"""CPU tests of the package with the real compiler of this tree (skipped
where it is not built): specs to MLIR and to bundles (PTX, no ptxas
needed), the spec's operand names against the manifests the compiler
writes (a dual GEMM's too), and a malformed spec's error."""

import os
import subprocess
import unittest

import util
from util import DeviceArray, env, tempdir

import tcgen
from tcgen import _tensors, specs

COMPILER = os.environ.get("TCGEN_BIN") or os.path.join(util.REPO, "build", "bin", "tcgen")
HAVE_COMPILER = os.path.isfile(COMPILER) and os.access(COMPILER, os.X_OK)


def has_spec_front_end():
    if not HAVE_COMPILER:
        return False
    p = subprocess.run([COMPILER, "compile", "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return "einsum" in p.stdout


BF = {"a": "bf16", "b": "bf16", "c": "bf16"}
PTX = {"emit": "ptx"}


@unittest.skipUnless(HAVE_COMPILER, "no tcgen binary built in this tree")
class RealCompilerTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempdir()
        self.cache = self._tmp.__enter__()
        self._env = env(TCGEN_BIN=COMPILER)
        self._env.__enter__()

    def tearDown(self):
        self._env.__exit__(None, None, None)
        self._tmp.__exit__(None, None, None)

    def check(self, kernel, *args, out=None, **kwargs):
        ins, result = kernel.bind(args, kwargs, out)
        tensors = list(ins)
        tensors.insert(kernel.result.index, result)
        return kernel.check([_tensors.describe(t, "t") for t in tensors])[0]

    def test_mlir_example(self):
        k = tcgen.compile(mlir=os.path.join(util.REPO, "examples", "matmul_bias_relu.mlir"),
                          options=PTX, cache_dir=self.cache)
        self.assertEqual(k.entry, "matmul_bias_relu_kernel")
        self.assertEqual([o.role for o in k.operands], ["lhs", "rhs", "in", "out"])
        self.check(k, DeviceArray((1024, 1024)), DeviceArray((1024, 1024)),
                   DeviceArray((1024,)), out=DeviceArray((1024, 1024)))
        self.assertTrue(os.path.isfile(os.path.join(k.directory, k.entry + ".ptx")))

    @unittest.skipUnless(has_spec_front_end(), "the compiler has no --einsum")
    def test_spec_to_mlir(self):
        text = tcgen.emit_mlir(tcgen.Spec("mk,nk->mn", {"m": 64, "n": 128, "k": 32}, BF,
                                          epilogue="relu(acc + bias[n])"))
        self.assertIn("func.func", text)
        self.assertIn("linalg", text)
        self.assertIn("64x32xbf16", text)

    @unittest.skipUnless(has_spec_front_end(), "the compiler has no --einsum")
    def test_spec_operand_names(self):
        spec = tcgen.Spec("mk,nk->mn", {"m": 256, "n": 512, "k": 128},
                          dict(BF, bias="bf16", res="bf16"),
                          epilogue="gelu_tanh(acc + bias[n]) + res[m,n]")
        k = tcgen.compile(spec, options=PTX, cache_dir=self.cache)
        bias, res = k.operands[k.names["bias"]], k.operands[k.names["res"]]
        self.assertEqual((bias.role, bias.shape), ("in", (512,)))
        self.assertEqual((res.role, res.user_shape), ("in", (256, 512)))
        views = {"a": (256, 128), "b": (512, 128), "bias": (512,), "res": (256, 512)}
        for name, shape in views.items():
            o = k.operands[k.names[name]]
            self.assertEqual(o.user_shape, shape, name)
            self.assertEqual(o.dtype, "bf16")

    @unittest.skipUnless(has_spec_front_end(), "the compiler has no --einsum")
    def test_spec_small_m_and_dynamic(self):
        small = tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": 8, "n": 2048, "k": 512},
                                         {"a": "f16", "b": "f16", "c": "f16"}),
                              options=PTX, cache_dir=self.cache)
        self.check(small, DeviceArray((8, 512)), DeviceArray((2048, 512)),
                   out=DeviceArray((8, 2048)))
        self.assertEqual(small.result.user_shape, (8, 2048))
        dyn = tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": None, "n": 256, "k": 128},
                                       {"a": "f16", "b": "f16", "c": "f16", "bias": "f16"},
                                       epilogue="acc + bias[n]"),
                            options=PTX, cache_dir=self.cache)
        self.assertEqual(dyn.output_shape([((5, 128), (128, 1)), ((256, 128), (128, 1)),
                                           ((256,), (1,))]), (5, 256))
        self.check(dyn, DeviceArray((5, 128)), DeviceArray((256, 128)),
                   bias=DeviceArray((256,)), out=DeviceArray((5, 256)))

    @unittest.skipUnless(has_spec_front_end(), "the compiler has no --einsum")
    def test_dual_spec(self):
        # What tcgen.nn.GatedLinear(512, 256, "gelu_tanh", bias=True,
        # dtype=torch.float16) compiles for 8 tokens: B2 (rhs2) after B,
        # then the bias.
        spec = specs.gated_linear_spec(8, 512, 256, "f16", "gelu_tanh", bias=True)
        k = tcgen.compile(spec, options=PTX, cache_dir=self.cache)
        self.assertTrue(k.op.get("dual"))
        self.assertEqual([(o.name, o.role) for o in k.operands],
                         [("A", "lhs"), ("B", "rhs"), ("B2", "rhs2"), ("E0", "in"),
                          ("C", "out")])
        self.assertEqual([k.names[n] for n in spec.operand_names()], [0, 1, 2, 3])
        self.assertEqual(k.operands[2].user_shape, (256, 512))
        x, w, w2 = DeviceArray((8, 512)), DeviceArray((256, 512)), DeviceArray((256, 512))
        b, y = DeviceArray((256,)), DeviceArray((8, 256))
        self.assertEqual(self.check(k, x, w, w2, b, out=y),
                         self.check(k, x, w, b2=w2, bias=b, out=y))
        with self.assertRaisesRegex(tcgen.ArgumentError,
                                    r"operand B2 \(rhs2\): expected shape \[256, 512\], "
                                    r"got \[512, 256\]"):
            self.check(k, x, w, DeviceArray((512, 256)), b, out=y)
        # A spec the front end refuses for a dual GEMM (m fixed at launch).
        with self.assertRaisesRegex(tcgen.CompileError, "(?s)exit 1.*needs static sizes"):
            tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": None, "n": 256, "k": 512}, BF,
                                     epilogue="silu(acc) * acc2"),
                          options=PTX, cache_dir=self.cache)

    @unittest.skipUnless(has_spec_front_end(), "the compiler has no --einsum")
    def test_spec_error(self):
        with self.assertRaisesRegex(tcgen.CompileError, "(?s)exit 1.*gleu"):
            tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": 64, "n": 64, "k": 64}, BF,
                                     epilogue="gleu(acc)"), options=PTX, cache_dir=self.cache)
        with self.assertRaisesRegex(tcgen.CompileError, "gleu"):
            tcgen.emit_mlir(tcgen.Spec("mk,nk->mn", {"m": 64, "n": 64, "k": 64}, BF,
                                       epilogue="gleu(acc)"))


if __name__ == "__main__":
    unittest.main()
