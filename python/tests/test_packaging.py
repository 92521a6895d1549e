"""CPU test of the packaging: ``pip install`` of python/ into a directory of
its own, then the installed package imported and used (with the fake
compiler) from another process and directory."""

import os
import shutil
import subprocess
import sys
import unittest

import util
from util import fake_compiler, tempdir


def has_pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


class PackagingTest(unittest.TestCase):
    def test_install_and_import(self):
        if not has_pip():
            self.skipTest("no pip for %s (scripts/setup.sh installs it)" % sys.executable)
        with tempdir() as d:
            src = os.path.join(d, "src")
            shutil.copytree(util.PYTHON_DIR, src, ignore=shutil.ignore_patterns(
                "build", "*.egg-info", "__pycache__", "tests"))
            site = os.path.join(d, "site")
            p = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                 "--no-build-isolation", "--no-index", "--target", site, src],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertTrue(os.path.isfile(os.path.join(site, "tcgen", "_rt.py")))
            code = (
                "import sys, os, tcgen\n"
                "assert tcgen.__file__.startswith(sys.argv[1]), tcgen.__file__\n"
                "assert 'torch' not in sys.modules\n"
                "s = tcgen.Spec('mk,nk->mn', {'m': 8, 'n': 16, 'k': 32},"
                " {'a': 'f16', 'b': 'f16', 'c': 'f16'}, epilogue='relu(acc + bias[n])')\n"
                "k = tcgen.compile(s, cache_dir=sys.argv[2])\n"
                "print(k.entry, [o.name for o in k.operands], tcgen.__version__)\n")
            env = dict(os.environ, PYTHONPATH=site, TCGEN_BIN=fake_compiler(d))
            p = subprocess.run([sys.executable, "-c", code, site, os.path.join(d, "cache")],
                               cwd=d, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            self.assertEqual(p.returncode, 0, p.stdout)
            self.assertEqual(p.stdout.strip(), "spec_kernel ['A', 'B', 'E0', 'C'] 0.1.0")


if __name__ == "__main__":
    unittest.main()
