"""ctypes binding of the tcgen runtime's C ABI (tcgen/tcgen_rt.h).

This file implements the lazy loading of libtcgen_rt and the declarations of
the functions the package calls. Nothing is loaded at import: the library is
opened by the first call of ``lib()``, so ``import tcgen`` works on machines
without the library, a driver or a GPU.

The library is looked for, in this order: the file named by the environment
variable ``TCGEN_RT_LIBRARY``; a copy inside the package directory; the build
tree of a source checkout (``<repo>/build/lib``); the dynamic loader's search
(``libtcgen_rt.so.1``, then ``ctypes.util.find_library("tcgen_rt")``).
"""

import ctypes
import ctypes.util
import os
import threading

from .errors import LibraryNotFound, RuntimeCallError

# The plan API arrived in 1.1.0 (major * 10000 + minor * 100 + patch).
MIN_VERSION = 10100
MAJOR_VERSION = 1

c_int64_p = ctypes.POINTER(ctypes.c_int64)
CUdeviceptr = ctypes.c_uint64
CUstream = ctypes.c_void_p
c_status = ctypes.c_int  # tcgen_status

# tcgen_dtype values (tcgen_rt.h) by manifest spelling.
DTYPES = {
    "f16": 0,
    "bf16": 1,
    "f32": 2,
    "f64": 3,
    "i8": 4,
    "i32": 5,
    "e4m3": 6,
    "e5m2": 7,
    "i64": 8,
}

# Bytes per element, by manifest spelling.
DTYPE_SIZES = {
    "f16": 2,
    "bf16": 2,
    "f32": 4,
    "f64": 8,
    "i8": 1,
    "i32": 4,
    "e4m3": 1,
    "e5m2": 1,
    "i64": 8,
}

STATUS_NAMES = {
    0: "TCGEN_OK",
    1: "TCGEN_ERROR_INVALID_ARGUMENT",
    2: "TCGEN_ERROR_NOT_FOUND",
    3: "TCGEN_ERROR_MANIFEST",
    4: "TCGEN_ERROR_NO_DRIVER",
    5: "TCGEN_ERROR_NO_DEVICE",
    6: "TCGEN_ERROR_UNSUPPORTED_DEVICE",
    7: "TCGEN_ERROR_VALIDATION",
    8: "TCGEN_ERROR_UNSUPPORTED",
    9: "TCGEN_ERROR_CUDA",
}


class TensorArg(ctypes.Structure):
    """tcgen_tensor_arg."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int),
        ("shape", c_int64_p),
        ("strides", c_int64_p),
        ("data", CUdeviceptr),
    ]


class OperandInfo(ctypes.Structure):
    """tcgen_operand_info."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("role", ctypes.c_char_p),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int),
        ("shape", c_int64_p),
        ("strides", c_int64_p),
        ("align_bytes", ctypes.c_int64),
    ]


class OpInfo(ctypes.Structure):
    """tcgen_op_info."""

    _fields_ = [
        ("kind", ctypes.c_char_p),
        ("batch", ctypes.c_int64),
        ("m", ctypes.c_int64),
        ("n", ctypes.c_int64),
        ("k", ctypes.c_int64),
        ("accumulate", ctypes.c_int),
    ]


_p = ctypes.c_void_p  # tcgen_kernel *, tcgen_plan *
_pp = ctypes.POINTER(ctypes.c_void_p)  # tcgen_kernel **, tcgen_plan **

# Every function the package binds: name -> (restype, argtypes). The CPU
# tests parse tcgen_rt.h and compare each one's argument count with it.
SIGNATURES = {
    "tcgen_rt_version": (ctypes.c_int, []),
    "tcgen_rt_status_name": (ctypes.c_char_p, [c_status]),
    "tcgen_rt_last_error": (ctypes.c_char_p, []),
    "tcgen_rt_device_count": (c_status, [ctypes.POINTER(ctypes.c_int)]),
    "tcgen_rt_load": (c_status, [ctypes.c_char_p, _pp]),
    "tcgen_rt_unload": (None, [_p]),
    "tcgen_rt_launch": (
        c_status,
        [_p, ctypes.POINTER(TensorArg), ctypes.c_int, CUstream],
    ),
    "tcgen_rt_entry": (ctypes.c_char_p, [_p]),
    "tcgen_rt_device_name": (ctypes.c_char_p, [_p]),
    "tcgen_rt_binary_kind": (ctypes.c_char_p, [_p]),
    "tcgen_rt_num_operands": (ctypes.c_int, [_p]),
    "tcgen_rt_operand": (
        c_status,
        [_p, ctypes.c_int, ctypes.POINTER(OperandInfo)],
    ),
    "tcgen_rt_op": (c_status, [_p, ctypes.POINTER(OpInfo)]),
    "tcgen_rt_plan_create": (
        c_status,
        [_p, ctypes.POINTER(TensorArg), ctypes.c_int, _pp],
    ),
    "tcgen_rt_plan_set_address": (c_status, [_p, ctypes.c_int, CUdeviceptr]),
    "tcgen_rt_plan_launch": (c_status, [_p, CUstream]),
    "tcgen_rt_plan_launch_with": (
        c_status,
        [_p, ctypes.POINTER(CUdeviceptr), ctypes.c_int, CUstream],
    ),
    "tcgen_rt_plan_destroy": (None, [_p]),
}


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def candidates():
    """The library paths tried, in order (loader names last)."""
    out = []
    env = os.environ.get("TCGEN_RT_LIBRARY")
    if env:
        out.append(env)
    pkg = _package_dir()
    for name in ("libtcgen_rt.so.1", "libtcgen_rt.so"):
        out.append(os.path.join(pkg, "lib", name))
    repo = os.path.dirname(os.path.dirname(pkg))
    for name in ("libtcgen_rt.so.1", "libtcgen_rt.so"):
        out.append(os.path.join(repo, "build", "lib", name))
    out.append("libtcgen_rt.so.1")
    found = ctypes.util.find_library("tcgen_rt")
    if found:
        out.append(found)
    return out


def _open():
    tried = []
    env = os.environ.get("TCGEN_RT_LIBRARY")
    for path in candidates():
        is_file = os.path.sep in path
        if is_file and not os.path.isfile(path):
            if path == env:
                raise LibraryNotFound(
                    "TCGEN_RT_LIBRARY names %r, which is not a file" % path)
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            if path == env:
                raise LibraryNotFound("cannot open TCGEN_RT_LIBRARY %r: %s" %
                                      (path, e))
            tried.append("%s (%s)" % (path, e) if is_file else path)
    raise LibraryNotFound(
        "libtcgen_rt not found; set TCGEN_RT_LIBRARY to the file, or build "
        "the runtime (cmake --build build, or cmake --install to a prefix on "
        "the loader's path). Tried: " + ", ".join(tried))


def declare(cdll):
    """Sets restype and argtypes of every bound function; returns the names
    the library lacks."""
    missing = []
    for name, (restype, argtypes) in SIGNATURES.items():
        fn = getattr(cdll, name, None)
        if fn is None:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    return missing


class Library:
    """The opened runtime, its functions declared and its version checked."""

    def __init__(self, cdll, path):
        self.cdll = cdll
        self.path = path
        missing = declare(cdll)
        if missing:
            raise LibraryNotFound(
                "%s lacks %s: the package needs libtcgen_rt %d.%d or later" %
                (path, ", ".join(missing), MIN_VERSION // 10000,
                 MIN_VERSION // 100 % 100))
        self.version = cdll.tcgen_rt_version()
        if self.version // 10000 != MAJOR_VERSION or self.version < MIN_VERSION:
            raise LibraryNotFound(
                "%s is version %s; the package needs %d.x, at least %s" %
                (path, format_version(self.version), MAJOR_VERSION,
                 format_version(MIN_VERSION)))

    def check(self, call, status):
        """Raises RuntimeCallError for a status other than TCGEN_OK."""
        if status != 0:
            msg = self.cdll.tcgen_rt_last_error() or b""
            raise RuntimeCallError(call, status,
                                   STATUS_NAMES.get(status, "status %d" % status),
                                   msg.decode("utf-8", "replace"))

    def device_count(self):
        n = ctypes.c_int(0)
        self.check("tcgen_rt_device_count",
                   self.cdll.tcgen_rt_device_count(ctypes.byref(n)))
        return n.value


def format_version(v):
    return "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100)


_lock = threading.Lock()
_lib = None


def lib():
    """Returns the Library, opening it on first use (LibraryNotFound if it
    cannot be)."""
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                cdll, path = _open()
                _lib = Library(cdll, path)
    return _lib


def available():
    """Whether the runtime library can be opened (no exception)."""
    try:
        lib()
        return True
    except LibraryNotFound:
        return False
