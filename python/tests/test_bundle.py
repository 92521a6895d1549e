"""CPU tests of tcgen.bundle: manifests -> operands, the mapping of a call's
tensors onto them and the errors of a wrong call. The tensors are stand-ins
with __cuda_array_interface__ (no memory), checked without the runtime."""

import json
import os
import sys
import unittest

import util  # noqa: F401
from util import DeviceArray, tempdir, torch_or_none

import tcgen
from tcgen import _tensors
from tcgen._operands import Operand


def operand(name, role, shape, strides, dtype="f16", align=16):
    return {"name": name, "role": role, "dtype": dtype, "shape": shape,
            "strides": strides, "align_bytes": align}


def epilogue(operands):
    """op.epilogue adding every `in` operand (a row [n], a matrix or a
    scalar) to the product, in the out operand's dtype."""
    ins = [o for o in operands if o["role"] == "in"]
    if not ins:
        return None
    dtype = next(o["dtype"] for o in operands if o["role"] in ("out", "inout"))
    kinds = {0: "scalar", 1: "row", 2: "matrix"}
    ops = [{"op": "addf", "args": [i, i + 1] if i == 0 else [len(ins) + i, i + 1],
            "dtype": dtype} for i in range(len(ins))]
    return {"matmul_dtype": dtype,
            "inputs": [{"operand": o["name"], "kind": kinds[len(o["shape"])]} for o in ins],
            "ops": ops, "result": 2 * len(ins)}


def manifest(operands, m, n, k, entry="k0", kind="matmul"):
    op = {"kind": kind, "batch": 1, "m": m, "n": n, "k": k,
          "accumulate": any(o["role"] == "inout" for o in operands)}
    if epilogue(operands):
        op["epilogue"] = epilogue(operands)
    return {"format": "tcgen.bundle", "version": 1, "entry": entry,
            "target": {"arch": "sm_90a", "backend": "sm90", "min_cc": 90},
            "op": op,
            "cubin": entry + ".cubin", "ptx": entry + ".ptx",
            "operands": operands,
            "params": [{"kind": "ptr", "operand": o["name"]} for o in operands],
            "launch": {"grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1],
                       "dynamic_smem_bytes": 0}}


# y[m, n] = acc + bias[n] of mk,nk->mn, m = 128, n = 256, k = 64.
LINEAR = manifest([
    operand("A", "lhs", [128, 64], [64, 1]),
    operand("B", "rhs", [64, 256], [1, 64]),
    operand("C", "out", [128, 256], [256, 1]),
    operand("E0", "in", [256], [1], align=2),
], 128, 256, 64)

# The same at m = 8 with a swapped config: C^T = W X^T, the operands in the
# function's order (x first), C stored as the caller's [m, n].
SWAPPED = manifest([
    operand("B", "rhs", [64, 8], [1, 64]),
    operand("A", "lhs", [256, 64], [64, 1]),
    operand("C", "out", [256, 8], [1, 256]),
], 256, 8, 64)

# m fixed at launch.
DYNAMIC = manifest([
    operand("A", "lhs", [-1, 64], [64, 1]),
    operand("B", "rhs", [64, 256], [1, 64]),
    operand("C", "out", [-1, 256], [256, 1]),
], -1, 256, 64)

# A dual GEMM (what gated_linear_spec(128, 64, 256, "f16", bias=True)
# compiles to): B2 of role rhs2 right after B, then the bias.
DUAL = manifest([
    operand("A", "lhs", [128, 64], [64, 1]),
    operand("B", "rhs", [64, 256], [1, 64]),
    operand("B2", "rhs2", [64, 256], [1, 64]),
    operand("E0", "in", [256], [1], align=2),
    operand("C", "out", [128, 256], [256, 1]),
], 128, 256, 64)
DUAL["op"]["dual"] = True

ACCUMULATE = manifest([
    operand("A", "lhs", [128, 64], [64, 1]),
    operand("B", "rhs", [64, 256], [256, 1]),
    operand("C", "inout", [128, 256], [256, 1], dtype="f32"),
], 128, 256, 64)


class BundleTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempdir()
        self.dir = self._tmp.__enter__()

    def tearDown(self):
        self._tmp.__exit__(None, None, None)

    def load(self, m, meta=None, name="b"):
        d = os.path.join(self.dir, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, m["entry"] + ".json"), "w") as f:
            json.dump(m, f)
        for ext in ("ptx", "cubin"):
            with open(os.path.join(d, m["entry"] + "." + ext), "w") as f:
                f.write("// not a kernel\n")
        if meta is not None:
            with open(os.path.join(d, ".tcgen-cache"), "w") as f:
                json.dump(meta, f)
        return tcgen.load(d)

    def check(self, kernel, *args, out=None, **kwargs):
        ins, result = kernel.bind(args, kwargs, out)
        views = [_tensors.describe(t, "t") for t in kernel._with_result(ins, result)]
        return kernel.check(views)[0]

    def test_operands(self):
        k = self.load(LINEAR, {"operand_names": ["a", "b", "bias"]})
        self.assertEqual([o.name for o in k.inputs], ["A", "B", "E0"])
        self.assertEqual(k.result.name, "C")
        self.assertEqual([o.user_shape for o in k.operands],
                         [(128, 64), (256, 64), (128, 256), (256,)])
        self.assertEqual(k.names["bias"], 3)
        self.assertEqual(k.names["a"], 0)
        self.assertIn("E0/bias:f16[256]", repr(k))

    def test_mapping(self):
        k = self.load(LINEAR, {"operand_names": ["a", "b", "bias"]})
        x = DeviceArray((128, 64))
        w = DeviceArray((256, 64))
        y = DeviceArray((128, 256))
        mapped = self.check(k, x, w, bias=DeviceArray((256,)), out=y)
        self.assertEqual(mapped[1], ([64, 256], [1, 64]))
        self.assertEqual(mapped[0], ([128, 64], [64, 1]))
        # The weight given in the manifest's order (w.t()) is taken too.
        wt = DeviceArray((64, 256), strides=(1, 64))
        self.assertEqual(self.check(k, x, wt, DeviceArray((256,)), out=y)[1],
                         ([64, 256], [1, 64]))
        # By the manifest's names.
        self.check(k, A=x, B=w, E0=DeviceArray((256,)), C=y)

    def test_argument_errors(self):
        k = self.load(LINEAR, {"operand_names": ["a", "b", "bias"]})
        x, w, b = DeviceArray((128, 64)), DeviceArray((256, 64)), DeviceArray((256,))
        y = DeviceArray((128, 256))
        cases = [
            (lambda: k.bind((x, w, b, y), {}),
             r"k0 takes 3 input tensors \(operand A \(lhs\), operand B "
             r"\(rhs\), operand E0 'bias' \(in\)\), got 4"),
            (lambda: k.bind((x, w), {}), r"k0: missing operand E0 'bias' \(in\)"),
            (lambda: k.bind((x, w), {"bais": b}), r"no operand named 'bais'"),
            (lambda: k.bind((x, w, b), {"a": x}), r"operand A \(lhs\) given twice"),
            (lambda: k.bind((x, w, b), {"c": y}, y), r"given twice \(out= and c=\)"),
            (lambda: self.check(k, DeviceArray((128, 64), "f32"), w, b, out=y),
             r"operand A \(lhs\): expected dtype f16, got f32"),
            (lambda: self.check(k, x, DeviceArray((64, 256)), b, out=y),
             r"operand B \(rhs\): expected shape \[256, 64\], got \[64, 256\]"),
            (lambda: self.check(k, DeviceArray((128, 64), strides=(1, 128)), w, b, out=y),
             r"expected a f16 tensor of shape \[128, 64\] \(contiguous\), got strides "
             r"\[1, 128\]; pass x.contiguous\(\)"),
            (lambda: self.check(k, DeviceArray((128,)), w, b, out=y),
             r"operand A \(lhs\): expected a rank-2 tensor of shape \[128, 64\], "
             r"got shape \[128\]"),
            (lambda: self.check(k, DeviceArray((128, 64), ptr=0x10002), w, b, out=y),
             r"address 0x10002 is not aligned to 16 bytes"),
            (lambda: self.check(k, x, w, b, out=DeviceArray((128, 255))),
             r"operand C \(out\): expected shape \[128, 256\], got \[128, 255\]"),
        ]
        for fn, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(tcgen.ArgumentError, pattern):
                    fn()

    def test_dual(self):
        k = self.load(DUAL, {"operand_names": ["a", "b", "b2", "bias"]})
        self.assertEqual([o.name for o in k.inputs], ["A", "B", "B2", "E0"])
        self.assertEqual((k.names["B2"], k.names["b2"]), (2, 2))
        self.assertIn("B2:f16[256, 64]", repr(k))
        x, w, w2 = DeviceArray((128, 64)), DeviceArray((256, 64)), DeviceArray((256, 64))
        b, y = DeviceArray((256,)), DeviceArray((128, 256))
        # Positionally (x, w, w2, bias), by the spec's names, by the manifest's.
        want = [([128, 64], [64, 1]), ([64, 256], [1, 64]), ([64, 256], [1, 64]),
                ([256], [1]), ([128, 256], [256, 1])]
        self.assertEqual(self.check(k, x, w, w2, b, out=y), want)
        ins, _ = k.bind((x, w), {"b2": w2, "bias": b})
        self.assertEqual([id(t) for t in ins], [id(x), id(w), id(w2), id(b)])
        self.assertEqual(self.check(k, x, w, b2=w2, bias=b, out=y), want)
        self.assertEqual(self.check(k, A=x, B=w, B2=w2, E0=b, C=y), want)
        # W2 given in the manifest's order (w2.t()) is taken as well.
        self.assertEqual(self.check(k, x, w, DeviceArray((64, 256), strides=(1, 64)),
                                    b, out=y)[2], ([64, 256], [1, 64]))
        cases = [
            (lambda: k.bind((x, w), {"bias": b}), r"k0: missing operand B2 \(rhs2\)"),
            (lambda: k.bind((x, w, w2), {"B2": w2, "bias": b}),
             r"operand B2 \(rhs2\) given twice \(by position and as B2=\)"),
            (lambda: self.check(k, x, w, DeviceArray((128, 64)), b, out=y),
             r"operand B2 \(rhs2\): expected shape \[256, 64\], got \[128, 64\]"),
            (lambda: self.check(k, x, w, DeviceArray((256, 64), "f32"), b, out=y),
             r"operand B2 \(rhs2\): expected dtype f16, got f32"),
            (lambda: self.check(k, x, w, DeviceArray((256, 64), strides=(1, 256)), b,
                                out=y),
             r"operand B2 \(rhs2\): expected a f16 tensor of shape \[256, 64\] "
             r"\(contiguous\)"),
        ]
        for fn, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(tcgen.ArgumentError, pattern):
                    fn()

    def test_extent_one_strides(self):
        m = manifest([operand("A", "lhs", [1, 64], [64, 1]),
                      operand("B", "rhs", [64, 32], [32, 1]),
                      operand("C", "out", [1, 32], [32, 1])], 1, 32, 64)
        k = self.load(m)
        # A row sliced out of a column-major matrix: any stride along m.
        mapped = self.check(k, DeviceArray((1, 64), strides=(1, 1)),
                            DeviceArray((64, 32)), out=DeviceArray((1, 32)))
        self.assertEqual(mapped[0], ([1, 64], [64, 1]))

    def test_swapped(self):
        k = self.load(SWAPPED, {"operand_names": ["a", "b"]})
        self.assertEqual([o.user_shape for o in k.operands], [(8, 64), (256, 64), (8, 256)])
        self.assertEqual(k.output_shape([((8, 64), (64, 1)), ((256, 64), (64, 1))]),
                         (8, 256))
        mapped = self.check(k, DeviceArray((8, 64)), DeviceArray((256, 64)),
                            out=DeviceArray((8, 256)))
        self.assertEqual(mapped, [([64, 8], [1, 64]), ([256, 64], [64, 1]),
                                  ([256, 8], [1, 256])])
        self.assertEqual(k.names["a"], 0)

    def test_dynamic(self):
        k = self.load(DYNAMIC)
        self.assertEqual(k.operands[0].user_shape, (-1, 64))
        self.assertEqual(k.output_shape([((5, 64), (64, 1)), ((256, 64), (64, 1))]),
                         (5, 256))
        self.check(k, DeviceArray((5, 64)), DeviceArray((256, 64)),
                   out=DeviceArray((5, 256)))
        with self.assertRaisesRegex(tcgen.ArgumentError,
                                    r"operand C \(out\): expected shape \[5, 256\], "
                                    r"got \[6, 256\]"):
            self.check(k, DeviceArray((5, 64)), DeviceArray((256, 64)),
                       out=DeviceArray((6, 256)))

    def test_accumulate(self):
        k = self.load(ACCUMULATE)
        c = DeviceArray((128, 256), "f32")
        ins, result = k.bind((DeviceArray((128, 64)), DeviceArray((64, 256)), c), {})
        self.assertIs(result, c)
        self.assertEqual(len(ins), 2)
        with self.assertRaisesRegex(tcgen.ArgumentError, r"read and written .* not out="):
            k.bind((DeviceArray((128, 64)), DeviceArray((64, 256)), c), {}, c)

    def test_load_errors(self):
        with self.assertRaisesRegex(tcgen.BundleError, "no bundle at"):
            tcgen.load(os.path.join(self.dir, "nothing"))
        os.makedirs(os.path.join(self.dir, "empty"))
        with self.assertRaisesRegex(tcgen.BundleError, "no manifest"):
            tcgen.load(os.path.join(self.dir, "empty"))
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            f.write("{\"entry\": 1}")
        with self.assertRaisesRegex(tcgen.BundleError, "not a tcgen manifest"):
            tcgen.load(bad)
        two = dict(LINEAR, operands=LINEAR["operands"] + [operand("D", "out", [1], [1])])
        with self.assertRaisesRegex(tcgen.BundleError, "one out/inout operand, found 2"):
            self.load(two, name="two")

    def test_cuda_array_interface(self):
        v = _tensors.describe(DeviceArray((4, 8), "f32", strides=(1, 4)), "x")
        self.assertEqual((v.shape, v.strides, v.dtype, v.ptr), ((4, 8), (1, 4), "f32", 0x10000))
        bad = DeviceArray((4,), "f32")
        bad.__cuda_array_interface__["typestr"] = "<c8"
        with self.assertRaisesRegex(tcgen.ArgumentError, "typestr '<c8'"):
            _tensors.describe(bad, "x")
        odd = DeviceArray((4, 4), "f32", strides=(4, 1))
        odd.__cuda_array_interface__["strides"] = (16, 2)
        with self.assertRaisesRegex(tcgen.ArgumentError, "not multiples of the element size 4"):
            _tensors.describe(odd, "x")
        with self.assertRaisesRegex(tcgen.ArgumentError, "x: expected a tensor"):
            _tensors.describe([1, 2], "x")

    def test_dlpack_capsule(self):
        torch = torch_or_none()
        if torch is None:
            self.skipTest("no torch to make a DLPack capsule")
        t = torch.zeros(3, 5, dtype=torch.bfloat16)[:, 1:]
        v = _tensors.from_dlpack_capsule(t.__dlpack__(), t, "x")
        self.assertEqual((v.shape, v.strides, v.dtype, v.device), ((3, 4), (5, 1), "bf16", "cpu"))
        self.assertEqual(v.ptr, t.data_ptr())
        k = self.load(LINEAR)
        views = [_tensors.describe(DeviceArray((128, 64)), "a")] * 4
        views[0] = _tensors.from_dlpack_capsule(
            torch.zeros(128, 64, dtype=torch.float16).__dlpack__(), None, "a")
        with self.assertRaisesRegex(tcgen.ArgumentError, "on cpu; tcgen kernels take CUDA"):
            k.check(views)

    def test_launch_needs_the_runtime(self):
        k = self.load(LINEAR)
        args = (DeviceArray((128, 64)), DeviceArray((256, 64)), DeviceArray((256,)))
        if "torch" not in sys.modules:
            with self.assertRaisesRegex(tcgen.ArgumentError, "pass out="):
                k(*args)
        # Without the library: LibraryNotFound; with it on a machine without a
        # GPU: the runtime's error (no driver or device).
        with self.assertRaises((tcgen.LibraryNotFound, tcgen.RuntimeCallError)) as cm:
            k(*args, out=DeviceArray((128, 256)))
        if isinstance(cm.exception, tcgen.RuntimeCallError):
            self.assertIn(cm.exception.status_name, ("TCGEN_ERROR_NO_DRIVER",
                                                     "TCGEN_ERROR_NO_DEVICE"))

    def test_operand_storage_order(self):
        o = Operand(0, operand("X", "in", [2, 3, 4], [4, 1, 8]))
        self.assertEqual(o.perm, (2, 0, 1))
        self.assertEqual(o.user_shape, (4, 2, 3))
        o = Operand(0, operand("X", "lhs", [-1, -1], [1, -1]))
        self.assertEqual(o.perm, (1, 0))


if __name__ == "__main__":
    unittest.main()
