"""CPU tests of tcgen.compiler: specs, the CLI invocation, cache keys and the
cache's atomic writes, with a fake compiler (fake_tcgen.py) as TCGEN_BIN."""

import json
import os
import subprocess
import sys
import threading
import unittest

import util  # noqa: F401  (puts the source package first on sys.path)
from util import env, fake_compiler, tempdir

import tcgen
from tcgen import compiler, specs


def spec(**changes):
    fields = dict(einsum="mk,nk->mn", sizes={"m": 128, "n": 256, "k": 64},
                  dtypes={"a": "bf16", "b": "bf16", "c": "bf16"},
                  epilogue="gelu_tanh(acc + bias[n])")
    fields.update(changes)
    return tcgen.Spec(**fields)


class SpecTest(unittest.TestCase):
    def test_cli_args(self):
        s = spec(sizes={"n": 256, "m": None, "k": 64}, prologue="relu(a)",
                 accumulate=True, name="ffn1")
        self.assertEqual(s.cli_args(), [
            "--einsum", "mk,nk->mn", "--sizes", "k=64,m=?,n=256",
            "--dtypes", "a=bf16,b=bf16,c=bf16",
            "--epilogue", "gelu_tanh(acc + bias[n])", "--prologue", "relu(a)",
            "--accumulate", "--name", "ffn1"])

    def test_bad_fields(self):
        with self.assertRaisesRegex(ValueError, "einsum must be"):
            tcgen.Spec("mk nk", {}, {})
        with self.assertRaisesRegex(ValueError, "size of 'm' must be a positive int"):
            spec(sizes={"m": 0, "n": 1, "k": 1})
        with self.assertRaisesRegex(ValueError, "bad index name"):
            spec(sizes={"m,n": 1})
        with self.assertRaisesRegex(TypeError, "spec must be"):
            compiler.as_spec("mk,nk->mn")

    def test_operand_names(self):
        s = spec(epilogue="silu(acc) * up[m, n] + alpha * bias[n] + f16(res[m,n]) + 1e-3")
        self.assertEqual(s.operand_names(), ["a", "b", "up", "alpha", "bias", "res"])
        self.assertEqual(spec(epilogue=None).operand_names(), ["a", "b"])
        self.assertEqual(spec(accumulate=True).operand_names(), ["a", "b", "bias", "c"])
        self.assertEqual(compiler.extra_operands("max(acc, 0.5e2) + scale[]"), ["scale"])

    def test_dual(self):
        # An epilogue reading acc2 is a dual GEMM: b2 is no extra operand but
        # the second weight, right after b, of b's dtype (filled in).
        s = spec(epilogue="silu(acc + bias[n]) * acc2")
        self.assertTrue(s.dual)
        self.assertFalse(spec().dual)
        self.assertEqual(s.dtypes["b2"], "bf16")
        self.assertEqual(s.operand_names(), ["a", "b", "b2", "bias"])
        self.assertEqual(s.cli_args(), [
            "--einsum", "mk,nk->mn", "--sizes", "k=64,m=128,n=256",
            "--dtypes", "a=bf16,b=bf16,b2=bf16,c=bf16",
            "--epilogue", "silu(acc + bias[n]) * acc2"])
        explicit = spec(dtypes={"a": "bf16", "b": "bf16", "b2": "bf16", "c": "bf16"},
                        epilogue="silu(acc + bias[n]) * acc2")
        self.assertEqual(explicit.cli_args(), s.cli_args())
        with self.assertRaisesRegex(ValueError, "b2 is f16 and of b bf16"):
            spec(dtypes={"a": "bf16", "b": "bf16", "b2": "f16"}, epilogue="silu(acc) * acc2")
        # Without b in dtypes (the compiler's default for both), nothing is added.
        self.assertNotIn("b2", spec(dtypes={"a": "f16"}, epilogue="acc * acc2").dtypes)
        self.assertEqual(compiler.extra_operands("silu(acc) * acc2 + res[m,n]"), ["res"])
        self.assertTrue(compiler.reads_acc2("gelu_tanh(acc)*acc2"))
        self.assertFalse(compiler.reads_acc2("acc * acc20 + x[acc2]"))

    def test_option_args(self):
        self.assertEqual(compiler.option_args({"swap": 0, "allow_tf32": True,
                                               "block_tile": [128, 256, 64],
                                               "no_promote": False}),
                         ["--allow-tf32", "--block-tile=128,256,64", "--swap=0"])
        self.assertEqual(compiler.option_args(["--stages=4"]), ["--stages=4"])
        with self.assertRaises(TypeError):
            compiler.option_args("--stages=4")


class KeyTest(unittest.TestCase):
    def test_same_inputs_same_key(self):
        a = tcgen.problem_key(spec(), options={"swap": 1, "stages": 4})
        b = tcgen.problem_key(spec(sizes={"k": 64, "n": 256, "m": 128}),
                              options={"stages": 4, "swap": 1})
        self.assertEqual(a, b)
        self.assertEqual(len(a), 64)

    def test_every_field_changes_the_key(self):
        base = tcgen.problem_key(spec())
        variants = [
            tcgen.problem_key(spec(sizes={"m": 129, "n": 256, "k": 64})),
            tcgen.problem_key(spec(sizes={"m": None, "n": 256, "k": 64})),
            tcgen.problem_key(spec(dtypes={"a": "f16", "b": "bf16", "c": "bf16"})),
            tcgen.problem_key(spec(epilogue="relu(acc + bias[n])")),
            tcgen.problem_key(spec(prologue="relu(a)")),
            tcgen.problem_key(spec(accumulate=True)),
            tcgen.problem_key(spec(einsum="mk,kn->mn")),
            tcgen.problem_key(spec(), options={"swap": 0}),
            tcgen.problem_key(spec(), target="sm_80"),
            tcgen.problem_key(mlir="func.func @f() { return }"),
        ]
        self.assertEqual(len(set(variants + [base])), len(variants) + 1)

    def test_dual_key(self):
        # A dual GEMM is keyed apart from the single product fused with an
        # operand (the two-kernel form of the same layer), and b2 spelled
        # out or not is the same problem.
        dual = tcgen.problem_key(spec(epilogue="silu(acc) * acc2"))
        self.assertNotEqual(dual, tcgen.problem_key(spec(epilogue="silu(acc) * up[m,n]")))
        self.assertNotEqual(dual, tcgen.problem_key(spec(epilogue="silu(acc)")))
        self.assertEqual(dual, tcgen.problem_key(spec(
            dtypes={"a": "bf16", "b": "bf16", "b2": "bf16", "c": "bf16"},
            epilogue="silu(acc) * acc2")))
        self.assertNotEqual(dual, tcgen.problem_key(spec(epilogue="gelu_tanh(acc) * acc2")))

    def test_tuning_cache_contents(self):
        with tempdir() as d:
            path = os.path.join(d, "tune.txt")
            with open(path, "w") as f:
                f.write("a\n")
            first = tcgen.problem_key(spec(), options={"tuning_cache": path})
            self.assertEqual(first, tcgen.problem_key(spec(), options={"tuning_cache": path}))
            with open(path, "w") as f:
                f.write("b\n")
            self.assertNotEqual(first, tcgen.problem_key(spec(), options={"tuning_cache": path}))

    def test_exactly_one_problem(self):
        with self.assertRaisesRegex(TypeError, "exactly one"):
            tcgen.problem_key()
        with self.assertRaisesRegex(TypeError, "exactly one"):
            tcgen.problem_key(spec(), mlir="x")

    def test_cache_root(self):
        with env(TCGEN_CACHE_DIR="/tmp/x-cache", XDG_CACHE_HOME=None):
            self.assertEqual(tcgen.cache_root(), "/tmp/x-cache")
        with env(TCGEN_CACHE_DIR=None, XDG_CACHE_HOME="/tmp/xdg"):
            self.assertEqual(tcgen.cache_root(), "/tmp/xdg/tcgen")
        with env(TCGEN_CACHE_DIR=None, XDG_CACHE_HOME=None):
            self.assertEqual(tcgen.cache_root(),
                             os.path.join(os.path.expanduser("~"), ".cache", "tcgen"))
        self.assertEqual(tcgen.cache_root("/tmp/y"), "/tmp/y")


class CompileTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempdir()
        self.dir = self._tmp.__enter__()
        self.cache = os.path.join(self.dir, "cache")
        self.tcgen = fake_compiler(self.dir)
        self.counter = os.path.join(self.dir, "runs")
        self._env = env(TCGEN_BIN=self.tcgen, FAKE_TCGEN_COUNTER=self.counter,
                        TCGEN_CACHE_DIR=None, TCGEN_COMPILER_ID=None,
                        FAKE_TCGEN_FAIL=None, FAKE_TCGEN_SECOND=None)
        self._env.__enter__()

    def tearDown(self):
        self._env.__exit__(None, None, None)
        self._tmp.__exit__(None, None, None)

    def runs(self):
        if not os.path.exists(self.counter):
            return 0
        with open(self.counter) as f:
            return len(f.readlines())

    def test_invocation_and_hit(self):
        path = tcgen.compile_bundle(spec(), options={"swap": 0}, cache_dir=self.cache)
        with open(os.path.join(path, "argv.txt")) as f:
            argv = json.load(f)
        self.assertEqual(argv[:1], ["compile"])
        n = len(spec().cli_args())
        self.assertEqual(argv[1:1 + n], spec().cli_args())
        self.assertEqual(argv[1 + n:3 + n], ["--target=sm_90a", "-o"])
        self.assertTrue(os.path.basename(argv[3 + n]).startswith(".tmp-"))
        self.assertEqual(argv[4 + n:], ["--swap=0"])
        key = tcgen.problem_key(spec(), options={"swap": 0})
        self.assertEqual(os.path.dirname(path), os.path.join(self.cache, key[:32]))
        with open(os.path.join(path, compiler.META_FILE)) as f:
            meta = json.load(f)
        self.assertEqual(meta["problem_key"], key)
        self.assertEqual(meta["compiler_id"], os.path.basename(path))
        self.assertEqual(meta["operand_names"], ["a", "b", "bias"])
        with open(os.path.join(path, "compile.log")) as f:
            self.assertIn("remark: fake compile", f.read())
        self.assertEqual(self.runs(), 1)
        # A hit runs nothing.
        self.assertEqual(tcgen.compile_bundle(spec(), options={"swap": 0},
                                              cache_dir=self.cache), path)
        self.assertEqual(self.runs(), 1)
        # Another option, target or compiler is another bundle.
        self.assertNotEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache), path)
        self.assertNotEqual(tcgen.compile_bundle(spec(), options={"swap": 0},
                                                 target="sm_80", cache_dir=self.cache), path)
        other = fake_compiler(self.dir, "v2")
        with env(TCGEN_BIN=other):
            p2 = tcgen.compile_bundle(spec(), options={"swap": 0}, cache_dir=self.cache)
        self.assertEqual(os.path.dirname(p2), os.path.dirname(path))
        self.assertNotEqual(p2, path)
        self.assertEqual(self.runs(), 4)

    def test_dual_bundle(self):
        s = specs.gated_linear_spec(8, 64, 128, "bf16", bias=True)
        path = tcgen.compile_bundle(s, cache_dir=self.cache)
        with open(os.path.join(path, "argv.txt")) as f:
            argv = json.load(f)
        self.assertEqual(argv[1:1 + len(s.cli_args())], s.cli_args())
        self.assertIn("a=bf16,b=bf16,b2=bf16,bias=bf16,c=bf16", argv)
        with open(os.path.join(path, compiler.META_FILE)) as f:
            self.assertEqual(json.load(f)["operand_names"], ["a", "b", "b2", "bias"])
        k = tcgen.load(path)
        self.assertTrue(k.op["dual"])
        self.assertEqual([o.name for o in k.inputs], ["A", "B", "B2", "E0"])
        self.assertEqual((k.names["b2"], k.names["B2"], k.names["bias"]), (2, 2, 3))

    def test_mlir_input(self):
        mlir = "func.func @f() {\n  return\n}\n"
        path = tcgen.compile_bundle(mlir=mlir, cache_dir=self.cache)
        with open(os.path.join(path, "argv.txt")) as f:
            argv = json.load(f)
        self.assertEqual(argv[0], "compile")
        self.assertTrue(argv[1].endswith("problem.mlir"))
        with open(os.path.join(path, "problem.mlir")) as f:
            self.assertEqual(f.read(), mlir)
        # The same text from a file is the same problem.
        src = os.path.join(self.dir, "f.mlir")
        with open(src, "w") as f:
            f.write(mlir)
        self.assertEqual(tcgen.compile_bundle(mlir=src, cache_dir=self.cache), path)
        self.assertEqual(self.runs(), 1)

    def test_hit_without_compiler(self):
        path = tcgen.compile_bundle(spec(), cache_dir=self.cache)
        # compiler=False: the cache only, as on a machine without tcgen.
        self.assertEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache,
                                              compiler=False), path)
        k = tcgen.compile(spec(), cache_dir=self.cache, compiler=False)
        self.assertEqual(k.directory, path)
        with env(TCGEN_COMPILER_ID=os.path.basename(path)):
            self.assertEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache,
                                                  compiler=False), path)
        # Bundles of two compilers: the newest is taken, unless one is pinned.
        with env(TCGEN_BIN=fake_compiler(self.dir, "v2")):
            newer = tcgen.compile_bundle(spec(), cache_dir=self.cache)
        self.assertEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache,
                                              compiler=False), newer)
        with env(TCGEN_COMPILER_ID=os.path.basename(path)):
            self.assertEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache,
                                                  compiler=False), path)

    def test_miss_without_compiler(self):
        with self.assertRaisesRegex(tcgen.CacheMiss, "no bundle for this problem"):
            tcgen.compile_bundle(spec(), cache_dir=self.cache, compiler=False)
        tcgen.compile_bundle(spec(), cache_dir=self.cache)
        with env(TCGEN_COMPILER_ID="0123"):
            with self.assertRaisesRegex(tcgen.CacheMiss, "TCGEN_COMPILER_ID=0123"):
                tcgen.compile_bundle(spec(), cache_dir=self.cache, compiler=False)

    def test_find_compiler(self):
        self.assertEqual(tcgen.find_compiler(), self.tcgen)
        bindir = os.path.join(self.dir, "bin")
        os.mkdir(bindir)
        on_path = fake_compiler(bindir)
        with env(TCGEN_BIN=None, PATH=bindir):
            self.assertEqual(tcgen.find_compiler(), on_path)

    def test_compiler_that_cannot_run(self):
        # A tcgen copied to a machine without its libraries: --version fails.
        broken = os.path.join(self.dir, "broken")
        with open(broken, "w") as f:
            f.write("#!/bin/sh\necho 'error while loading shared libraries' >&2\nexit 127\n")
        os.chmod(broken, 0o755)
        with env(TCGEN_BIN=broken):
            with self.assertRaisesRegex(tcgen.CacheMiss,
                                        "cannot run here.*exit 127.*shared libraries"):
                tcgen.compile_bundle(spec(), cache_dir=self.cache)
        path = tcgen.compile_bundle(spec(), cache_dir=self.cache)
        with env(TCGEN_BIN=broken):
            self.assertEqual(tcgen.compile_bundle(spec(), cache_dir=self.cache), path)

    def test_bad_tcgen_bin(self):
        with env(TCGEN_BIN=os.path.join(self.dir, "nope")):
            with self.assertRaisesRegex(tcgen.CompileError, "not an executable"):
                tcgen.compile_bundle(spec(), cache_dir=self.cache)

    def test_stale_temporaries_removed(self):
        pdir = os.path.join(self.cache, tcgen.problem_key(spec())[:32])
        os.makedirs(os.path.join(pdir, ".tmp-dead"))
        os.makedirs(os.path.join(pdir, ".tmp-live"))
        old = os.stat(pdir).st_mtime - compiler.STALE_SECONDS - 60
        os.utime(os.path.join(pdir, ".tmp-dead"), (old, old))
        path = tcgen.compile_bundle(spec(), cache_dir=self.cache)
        self.assertEqual(sorted(os.listdir(pdir)), [".tmp-live", os.path.basename(path)])

    def test_failure_leaves_nothing(self):
        with env(FAKE_TCGEN_FAIL="1"):
            with self.assertRaisesRegex(tcgen.CompileError,
                                        "(?s)exit 1.*--einsum.*unknown function 'gleu'"):
                tcgen.compile_bundle(spec(), cache_dir=self.cache)
        pdir = os.path.join(self.cache, tcgen.problem_key(spec())[:32])
        self.assertEqual(os.listdir(pdir), [])

    def test_two_manifests(self):
        with env(FAKE_TCGEN_SECOND="1"):
            path = tcgen.compile_bundle(spec(), cache_dir=self.cache)
        with self.assertRaisesRegex(tcgen.BundleError, "holds 2 bundles.*entry="):
            tcgen.load(path)
        self.assertEqual(tcgen.load(path, entry="second_kernel").entry, "second_kernel")

    def test_concurrent_processes(self):
        # Four processes compile the same problem at once: each gets the same
        # complete bundle, and no temporary directory is left.
        code = ("import sys; sys.path.insert(0, %r); import tcgen, json;"
                "print(tcgen.compile_bundle(tcgen.Spec(**json.loads(sys.argv[1])),"
                " cache_dir=%r))" % (util.PYTHON_DIR, self.cache))
        fields = json.dumps(dict(einsum="mk,kn->mn", sizes={"m": 8, "n": 8, "k": 8},
                                 dtypes={"a": "f16"}))
        with env(FAKE_TCGEN_SLEEP="0.3"):
            procs = [subprocess.Popen([sys.executable, "-c", code, fields],
                                      stdout=subprocess.PIPE, text=True)
                     for _ in range(4)]
            outs = [p.communicate()[0].strip() for p in procs]
        self.assertEqual([p.returncode for p in procs], [0] * 4)
        self.assertEqual(len(set(outs)), 1)
        pdir = os.path.dirname(outs[0])
        self.assertEqual(os.listdir(pdir), [os.path.basename(outs[0])])
        self.assertTrue(os.path.isfile(os.path.join(outs[0], compiler.META_FILE)))

    def test_concurrent_threads(self):
        results = []
        s = spec(sizes={"m": 16, "n": 16, "k": 16})
        threads = [threading.Thread(target=lambda: results.append(
            tcgen.compile_bundle(s, cache_dir=self.cache))) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(results), 3)
        self.assertEqual(len(set(results)), 1)


class LayerSpecTest(unittest.TestCase):
    """tcgen.specs (no PyTorch): the specs of tcgen.nn's layers."""

    def test_linear_spec_dual(self):
        s = specs.linear_spec(8, 64, 128, "f16", bias=False,
                              epilogue="silu(acc) * acc2 + res[m,n]")
        self.assertTrue(s.dual)
        self.assertEqual(s.dtypes, {"a": "f16", "b": "f16", "b2": "f16", "c": "f16",
                                    "res": "f16"})
        self.assertEqual(s.operand_names(), ["a", "b", "b2", "res"])
        with self.assertRaisesRegex(ValueError, "needs static sizes"):
            specs.linear_spec(None, 64, 128, "f16", bias=False, epilogue="silu(acc) * acc2")
        with self.assertRaisesRegex(ValueError, "multiplies f16 or bf16, not f32"):
            specs.linear_spec(8, 64, 128, "f32", bias=False, epilogue="silu(acc) * acc2")
        with self.assertRaisesRegex(ValueError, "'b2': that name is reserved"):
            specs.linear_spec(8, 64, 128, "f16", bias=False, epilogue="acc * b2[n]")

    def test_gated_linear_spec(self):
        s = specs.gated_linear_spec(8, 4096, 11008, "bf16")
        self.assertEqual(s.cli_args(), [
            "--einsum", "mk,nk->mn", "--sizes", "k=4096,m=8,n=11008",
            "--dtypes", "a=bf16,b=bf16,b2=bf16,c=bf16", "--epilogue", "silu(acc) * acc2"])
        self.assertEqual(specs.gated_linear_spec(8, 64, 128, "f16", "gelu_tanh",
                                                 bias=True).epilogue,
                         "gelu_tanh(acc + bias[n]) * acc2")
        # The same spec as linear_spec's with that epilogue.
        self.assertEqual(s.fields(), specs.linear_spec(8, 4096, 11008, "bf16", bias=False,
                                                       epilogue="silu(acc) * acc2").fields())
        custom = specs.gated_linear_spec(8, 64, 128, "bf16",
                                         epilogue="silu(acc) * acc2 * scale")
        self.assertEqual(custom.operand_names(), ["a", "b", "b2", "scale"])
        cases = [
            (lambda: specs.gated_linear_spec(None, 64, 128, "bf16"), "needs static sizes"),
            (lambda: specs.gated_linear_spec(8, 64, 128, "bf16", "tanh"),
             "activation 'tanh' is not one of"),
            (lambda: specs.gated_linear_spec(8, 64, 128, "bf16", epilogue="silu(acc)"),
             r"does not read acc2"),
            (lambda: specs.gated_linear_spec(8, 64, 128, "bf16", "relu",
                                             epilogue="relu(acc) * acc2"), "not both"),
            (lambda: specs.gated_linear_spec(8, 64, 128, "bf16", bias=True,
                                             epilogue="silu(acc) * acc2"),
             r"does not read bias\[n\]"),
            (lambda: specs.gated_linear_spec(8, 64, 128, "f32"), "not f32"),
        ]
        for fn, pattern in cases:
            with self.subTest(pattern=pattern):
                with self.assertRaisesRegex(ValueError, pattern):
                    fn()


if __name__ == "__main__":
    unittest.main()
