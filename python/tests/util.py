"""Helpers shared by the package's tests.

This file implements the test's view of the source tree (the package under
test is the one beside this directory, not an installed copy), an
environment patcher, the fake compiler's path and a stand-in for device
tensors (an object with ``__cuda_array_interface__``).
"""

import contextlib
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
FAKE_TCGEN = os.path.join(HERE, "fake_tcgen.py")

if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)


@contextlib.contextmanager
def env(**values):
    """Sets (a value) or unsets (None) environment variables for a block."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def tempdir():
    d = tempfile.mkdtemp(prefix="tcgen-test-")
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def fake_compiler(directory, variant=""):
    """A copy of the fake compiler in `directory`; a different `variant`
    gives a binary with other bytes (another compiler version)."""
    path = os.path.join(directory, "tcgen" + (("-" + variant) if variant else ""))
    with open(FAKE_TCGEN) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text + ("\n# variant %s\n" % variant if variant else ""))
    os.chmod(path, 0o755)
    return path


_TYPESTR = {"f16": "<f2", "f32": "<f4", "f64": "<f8", "i8": "|i1", "i32": "<i4"}


class DeviceArray:
    """An object with __cuda_array_interface__ (no memory behind it)."""

    def __init__(self, shape, dtype="f16", strides=None, ptr=0x10000, itemsize=None):
        size = itemsize or int(_TYPESTR[dtype][2:])
        self.__cuda_array_interface__ = {
            "shape": tuple(shape),
            "typestr": _TYPESTR[dtype],
            "data": (ptr, False),
            "strides": None if strides is None else tuple(s * size for s in strides),
            "version": 3,
        }


def torch_or_none():
    try:
        import torch  # noqa: F401
        return torch
    except ImportError:
        return None
