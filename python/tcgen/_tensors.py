"""Views of the tensors a kernel call is given.

This file implements ``describe()``, which turns a PyTorch tensor, an object
with ``__cuda_array_interface__`` (CuPy, Numba, ...) or one with
``__dlpack__`` into a ``View``: device address, shape and strides in
elements, manifest dtype and device. DLPack capsules are read with ctypes
when PyTorch is absent.
"""

import ctypes
import sys

from .errors import ArgumentError

# __cuda_array_interface__ typestr (without the byte order) -> dtype.
_TYPESTRS = {
    "f2": "f16",
    "f4": "f32",
    "f8": "f64",
    "i1": "i8",
    "i4": "i32",
}

# DLPack (code, bits) -> dtype: kDLInt 0, kDLFloat 2, kDLBfloat 4,
# kDLFloat8_e4m3fn 10, kDLFloat8_e5m2 12.
_DL_DTYPES = {
    (2, 16): "f16",
    (2, 32): "f32",
    (2, 64): "f64",
    (4, 16): "bf16",
    (0, 8): "i8",
    (0, 32): "i32",
    (10, 8): "e4m3",
    (12, 8): "e5m2",
}
_DL_CUDA = 2
_DL_CUDA_MANAGED = 13
_DL_DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 13: "cuda_managed"}


class View:
    """One tensor argument as the runtime needs it."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "device", "owner")

    def __init__(self, ptr, shape, strides, dtype, device, owner):
        self.ptr = ptr
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = dtype
        self.device = device  # CUDA device index, None if unknown, "cpu" ...
        self.owner = owner  # keeps the memory alive while the view is used

    def __repr__(self):
        return "View(%s%s strides %s on %s)" % (
            self.dtype, list(self.shape), list(self.strides), self.device)


def torch_dtypes():
    """PyTorch dtype -> manifest dtype (only the ones this torch has)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return {}
    out = {}
    for tname, dname in (("float16", "f16"), ("bfloat16", "bf16"),
                         ("float32", "f32"), ("float64", "f64"),
                         ("int8", "i8"), ("int32", "i32"),
                         ("float8_e4m3fn", "e4m3"), ("float8_e5m2", "e5m2")):
        t = getattr(torch, tname, None)
        if t is not None:
            out[t] = dname
    return out


def is_torch_tensor(obj):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def describe(obj, what):
    """A View of `obj`; ArgumentError naming `what` if it is no tensor."""
    if is_torch_tensor(obj):
        return _from_torch(obj, what)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return from_cuda_array_interface(cai, obj, what)
    if hasattr(obj, "__dlpack__"):
        torch = sys.modules.get("torch")
        if torch is not None:
            return _from_torch(torch.from_dlpack(obj), what)
        return from_dlpack_capsule(obj.__dlpack__(), obj, what)
    raise ArgumentError("%s: expected a tensor (torch.Tensor, or an object with "
                        "__cuda_array_interface__ or __dlpack__), got %s" %
                        (what, type(obj).__name__))


def _from_torch(t, what):
    dtype = torch_dtypes().get(t.dtype)
    if dtype is None:
        raise ArgumentError("%s: dtype %s has no tcgen equivalent" % (what, t.dtype))
    dev = t.device
    device = dev.index if dev.type == "cuda" else dev.type
    return View(t.data_ptr(), t.shape, t.stride(), dtype, device, t)


def from_cuda_array_interface(cai, owner, what):
    """A View of a __cuda_array_interface__ dict (version 2 or 3)."""
    try:
        shape = tuple(int(s) for s in cai["shape"])
        typestr = cai["typestr"]
        ptr = int(cai["data"][0])
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ArgumentError("%s: malformed __cuda_array_interface__: %s" % (what, e))
    dtype = _TYPESTRS.get(typestr[1:])
    if dtype is None:
        raise ArgumentError("%s: __cuda_array_interface__ typestr %r has no tcgen "
                            "equivalent (f2, f4, f8, i1, i4)" % (what, typestr))
    if typestr[0] == ">":
        raise ArgumentError("%s: big-endian data (%r) is not supported" % (what, typestr))
    size = int(typestr[2:])
    strides = cai.get("strides")
    if strides is None:
        elems, acc = [], 1
        for s in reversed(shape):
            elems.append(acc)
            acc *= s
        strides = tuple(reversed(elems))
    else:
        if any(int(b) % size for b in strides):
            raise ArgumentError("%s: byte strides %s are not multiples of the "
                                "element size %d" % (what, list(strides), size))
        strides = tuple(int(b) // size for b in strides)
    if cai.get("mask") is not None:
        raise ArgumentError("%s: masked arrays are not supported" % what)
    return View(ptr, shape, strides, dtype, None, owner)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_capsule_get = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get.restype = ctypes.c_void_p
_capsule_get.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_valid.restype = ctypes.c_int
_capsule_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


def from_dlpack_capsule(capsule, owner, what):
    """A View of a legacy "dltensor" capsule (DLManagedTensor, whose first
    member is the DLTensor). The capsule is not consumed: it stays owned by
    its producer and is kept alive by the View."""
    if not _capsule_valid(capsule, b"dltensor"):
        raise ArgumentError("%s: __dlpack__() did not return a 'dltensor' capsule"
                            % what)
    t = _DLTensor.from_address(_capsule_get(capsule, b"dltensor"))
    key = (t.dtype.code, t.dtype.bits)
    dtype = _DL_DTYPES.get(key)
    if dtype is None or t.dtype.lanes != 1:
        raise ArgumentError("%s: DLPack dtype (code %d, bits %d, lanes %d) has no "
                            "tcgen equivalent" % (what, key[0], key[1], t.dtype.lanes))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:
        elems, acc = [], 1
        for s in reversed(shape):
            elems.append(acc)
            acc *= s
        strides = tuple(reversed(elems))
    kind = t.device.device_type
    device = t.device.device_id if kind in (_DL_CUDA, _DL_CUDA_MANAGED) else \
        _DL_DEVICE_NAMES.get(kind, "device type %d" % kind)
    ptr = (t.data or 0) + t.byte_offset
    return View(ptr, shape, strides, dtype, device, (owner, capsule))
