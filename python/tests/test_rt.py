"""CPU tests of the ctypes binding (tcgen._rt): every bound function against
its declaration in tcgen_rt.h, where the library is looked for, and the
library itself where it has been built (on a machine without a GPU it
reports no driver or no device)."""

import ctypes
import os
import re
import subprocess
import sys
import unittest

import util
from util import env

from tcgen import _rt

HEADER = os.path.join(util.REPO, "runtime", "include", "tcgen", "tcgen_rt.h")

# Functions of the runtime that every version of the header declares.
CORE = ["tcgen_rt_status_name", "tcgen_rt_last_error", "tcgen_rt_device_count",
        "tcgen_rt_load", "tcgen_rt_unload", "tcgen_rt_launch", "tcgen_rt_entry",
        "tcgen_rt_num_operands", "tcgen_rt_operand", "tcgen_rt_op"]


def declarations(text):
    """{name: (return type, [parameter declarations])} of tcgen_rt_* functions."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out = {}
    for m in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(tcgen_rt_\w+)\s*\(([^;{]*?)\)\s*;",
                         text, flags=re.S):
        ret = " ".join(m.group(1).split()).replace("extern \"C\" ", "")
        params = " ".join(m.group(3).split())
        args = [] if params in ("", "void") else [p.strip() for p in params.split(",")]
        out[m.group(2)] = (ret.split("}")[-1].strip(), args)
    return out


class HeaderTest(unittest.TestCase):
    def setUp(self):
        if not os.path.isfile(HEADER):
            self.skipTest("no runtime header in this tree")
        with open(HEADER) as f:
            self.decls = declarations(f.read())

    def test_core_declared(self):
        for name in CORE:
            self.assertIn(name, self.decls)
            self.assertIn(name, _rt.SIGNATURES)

    def test_signatures_match(self):
        checked = 0
        for name, (restype, argtypes) in _rt.SIGNATURES.items():
            if name not in self.decls:
                continue  # declared by a later runtime than this header
            ret, params = self.decls[name]
            with self.subTest(name=name):
                self.assertEqual(len(argtypes), len(params), (name, params))
                self.assertEqual(restype is None, ret == "void", (name, ret))
                for t, p in zip(argtypes, params):
                    pointer = "*" in p
                    ctypes_pointer = t in (ctypes.c_void_p, ctypes.c_char_p) or \
                        hasattr(t, "_type_") and not isinstance(t._type_, str)
                    stream = p.startswith("CUstream")
                    self.assertEqual(pointer or stream, ctypes_pointer or t is _rt.CUstream,
                                     (name, p, t))
            checked += 1
        self.assertGreaterEqual(checked, len(CORE))

    def test_structs(self):
        # Field counts of the structs the binding lays out.
        with open(HEADER) as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        for cname, struct in (("tcgen_tensor_arg", _rt.TensorArg),
                              ("tcgen_operand_info", _rt.OperandInfo),
                              ("tcgen_op_info", _rt.OpInfo)):
            m = re.search(r"typedef struct %s \{(.*?)\} %s;" % (cname, cname), text, re.S)
            self.assertIsNotNone(m, cname)
            fields = sum(len(decl.split(",")) for decl in m.group(1).split(";")
                         if decl.strip())
            self.assertEqual(fields, len(struct._fields_), cname)

    def test_dtype_values(self):
        with open(HEADER) as f:
            text = f.read()
        for name, value in _rt.DTYPES.items():
            self.assertRegex(text, r"TCGEN_DTYPE_%s = %d\b" % (name.upper(), value))


class LocateTest(unittest.TestCase):
    def run_py(self, code, **extra):
        e = dict(os.environ, PYTHONPATH=util.PYTHON_DIR)
        e.update(extra)
        return subprocess.run([sys.executable, "-c", code], env=e,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def test_env_names_a_missing_file(self):
        p = self.run_py("import tcgen._rt as r\ntry:\n r.lib()\nexcept OSError as e:\n print(e)",
                        TCGEN_RT_LIBRARY="/nonexistent/libtcgen_rt.so.1")
        self.assertIn("TCGEN_RT_LIBRARY names '/nonexistent/libtcgen_rt.so.1', "
                      "which is not a file", p.stdout)

    def test_candidates_order(self):
        with env(TCGEN_RT_LIBRARY="/x/lib.so"):
            c = _rt.candidates()
        self.assertEqual(c[0], "/x/lib.so")
        self.assertTrue(c[1].endswith(os.path.join("tcgen", "lib", "libtcgen_rt.so.1")))
        self.assertEqual(c[3], os.path.join(util.REPO, "build", "lib", "libtcgen_rt.so.1"))
        self.assertIn("libtcgen_rt.so.1", c)

    def test_import_needs_nothing(self):
        p = self.run_py("import sys, tcgen; print('torch' in sys.modules, "
                        "tcgen._rt._lib is None)")
        self.assertEqual(p.stdout.strip(), "False True")


class LibraryTest(unittest.TestCase):
    def setUp(self):
        if not _rt.available():
            self.skipTest("libtcgen_rt not built or not found")

    def test_version_and_devices(self):
        lib = _rt.lib()
        self.assertGreaterEqual(lib.version, _rt.MIN_VERSION)
        self.assertEqual(lib.version // 10000, _rt.MAJOR_VERSION)
        try:
            n = lib.device_count()
            self.assertGreaterEqual(n, 0)
        except Exception as e:  # no driver or no device: the named statuses
            self.assertIn(getattr(e, "status_name", ""),
                          ("TCGEN_ERROR_NO_DRIVER", "TCGEN_ERROR_NO_DEVICE"))
        self.assertEqual(lib.cdll.tcgen_rt_status_name(7), b"TCGEN_ERROR_VALIDATION")


if __name__ == "__main__":
    unittest.main()
