"""Loaded bundles: ``load()`` and the callable ``Kernel``.

This file implements a kernel bundle (docs/BUNDLE.md) as a Python object:
the manifest is read here (no library needed), the runtime is opened at the
first launch. A call maps the caller's tensors onto the manifest's operands
(positionally in manifest order, or by name), allocates the output with
PyTorch when none is given, and launches through a plan of the runtime
(tcgen_rt_plan_create) kept per set of shapes, strides and dtypes, so that a
steady-state call is one tcgen_rt_plan_launch_with.

Threading: a Kernel may be called from several threads; each plan is
launched under its own lock. Launches of one kernel share its workspace
(stream-K kernels), so they must be ordered on the GPU (one stream, or
streams ordered by events).
"""

import ctypes
import itertools
import json
import os
import sys
import threading

from . import _rt
from ._operands import Operand, fmt, result_shape
from ._tensors import describe, torch_dtypes
from .compiler import META_FILE
from .errors import ArgumentError, BundleError, TcgenError

_registry = {}
_ids = itertools.count(1)
_registry_lock = threading.Lock()

_INPUT_ROLES = ("lhs", "rhs", "in", "lhs2", "rhs2", "scale_a", "scale_b", "inout")
_RESULT_ROLES = ("out", "inout")


def registered(kernel_id):
    """The Kernel registered under an id (the custom op's first argument)."""
    try:
        return _registry[kernel_id]
    except KeyError:
        raise TcgenError("no tcgen kernel has id %d in this process" % kernel_id)


def load(path, entry=None):
    """Loads the bundle at `path`: a directory holding its manifest (or
    several, one of them picked by `entry`), or a manifest (.json) itself."""
    path = os.fspath(path)
    meta = None
    if os.path.isdir(path):
        manifests = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        meta_path = os.path.join(path, META_FILE)
        if os.path.isfile(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        if entry is not None:
            manifests = [n for n in manifests if n[:-5] == entry]
            if not manifests:
                raise BundleError("no manifest %s.json in %s" % (entry, path))
        if not manifests:
            raise BundleError("no manifest (.json) in %s" % path)
        if len(manifests) > 1:
            raise BundleError(
                "%s holds %d bundles (%s): pass entry= to pick one (a consumer "
                "the compiler could not fuse becomes a kernel of its own)"
                % (path, len(manifests), ", ".join(n[:-5] for n in manifests)))
        path = os.path.join(path, manifests[0])
    elif not os.path.isfile(path):
        raise BundleError("no bundle at %s" % path)
    return Kernel(path, meta)


# (torch, torch.compiler.is_compiling, torch.Tensor) once PyTorch is imported.
_TORCH = None


def _torch_state():
    global _TORCH
    torch = sys.modules.get("torch")
    if torch is not None and _TORCH is None:
        _TORCH = (torch, torch.compiler.is_compiling, torch.Tensor)
    return _TORCH


def _current_stream(device):
    """The raw CUstream of PyTorch's current stream on a device index (the
    C call inductor's generated code uses, else the public API)."""
    torch = sys.modules["torch"]
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(device)
    return torch.cuda.current_stream(device).cuda_stream


class _Plan:
    """A runtime plan and the address array its launches fill."""

    __slots__ = ("handle", "n", "ptrs", "lock", "lib", "keep", "fn")

    def __init__(self, lib, handle, n, keep):
        self.lib = lib
        self.fn = lib.cdll.tcgen_rt_plan_launch_with
        self.handle = handle
        self.n = n
        self.ptrs = (_rt.CUdeviceptr * n)()
        self.lock = threading.Lock()
        self.keep = keep  # the arrays the plan was created from

    def launch(self, ptrs, stream):
        with self.lock:
            self.ptrs[:] = ptrs
            status = self.fn(self.handle, self.ptrs, self.n, stream)
        if status:
            self.lib.check("tcgen_rt_plan_launch_with", status)


class Kernel:
    """A loaded bundle; call it on tensors: ``kernel(a, b, bias=x, out=None)``.

    Inputs are every operand but the output, in manifest order, positionally
    or by name (the manifest's name, its lower case, or the spec's name):
    ``kernel(x, w, w2)`` or ``kernel(x, w, b2=w2)`` for a dual GEMM (its
    second weight B2, role rhs2, right after B). The result is the output
    tensor: ``out`` if given, else a new PyTorch tensor; for C += A*B the C
    passed in.
    """

    def __init__(self, manifest_path, meta=None):
        self.manifest_path = os.path.abspath(manifest_path)
        self.directory = os.path.dirname(self.manifest_path)
        try:
            with open(self.manifest_path, encoding="utf-8") as f:
                m = json.load(f)
            self.manifest = m
            self.entry = str(m["entry"])
            self.op = dict(m["op"])
            self.target = dict(m.get("target", {}))
            self.operands = [Operand(i, d) for i, d in enumerate(m["operands"])]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise BundleError("%s: not a tcgen manifest: %s" % (manifest_path, e))
        results = [o for o in self.operands if o.role in _RESULT_ROLES]
        if len(results) != 1:
            raise BundleError("%s: expected one out/inout operand, found %d" %
                              (manifest_path, len(results)))
        self.result = results[0]
        self.inputs = [o for o in self.operands if o.role != "out"]
        # Calls that pass every input positionally and no inout operand
        # skip bind().
        self._n_inputs = len(self.inputs)
        self._positional = self.result.role == "out"
        self.meta = meta or {}
        self.names = self._aliases(self.meta.get("operand_names"))
        self._labels = {o.index: o.label(self._spec_name(o)) for o in self.operands}
        with _registry_lock:
            self.id = next(_ids)
            _registry[self.id] = self
        self._handles = {}
        self._plans = {}
        self._fast = {}  # (input shapes/strides/dtypes, device) -> plan, result
        self._lock = threading.RLock()
        if "torch" in sys.modules:
            from . import torch_ops
            torch_ops.ensure_registered()

    # -- names --------------------------------------------------------------

    def _aliases(self, spec_names):
        names = {}
        # A kernel that computes C^T = B^T A^T lists the caller's a as its
        # rhs "B": lower-case a and b (and a dual GEMM's b2) would then
        # mislead, so they are only names where the lhs comes first.
        products = ("lhs", "rhs", "rhs2")
        roles = [o.role for o in self.operands if o.role in ("lhs", "rhs")]
        lower = roles[:1] != ["rhs"]
        for o in self.operands:
            names[o.name] = o.index
            if lower or o.role not in products:
                names.setdefault(o.name.lower(), o.index)
        names.setdefault("out", self.result.index)
        non_out = [o for o in self.operands if o.role != "out"]
        if spec_names and len(spec_names) == len(non_out):
            for n, o in zip(spec_names, non_out):
                names[n] = o.index
        return names

    def _spec_name(self, operand):
        for n, i in self.names.items():
            if i == operand.index and n not in (operand.name, operand.name.lower(), "out"):
                return n
        return None

    def __repr__(self):
        parts = []
        for o in self.operands:
            alias = self._spec_name(o)
            parts.append("%s%s:%s%s" % (o.name, "/" + alias if alias else "",
                                        o.dtype, fmt(o.user_shape)))
        return "<tcgen.Kernel %s (%s)>" % (self.entry, ", ".join(parts))

    # -- binding ------------------------------------------------------------

    def bind(self, args, kwargs, out=None):
        """Maps a call's tensors onto the operands: returns (inputs, result)
        with inputs in manifest order without the result operand, and the
        result tensor (out=, or the inout input) or None."""
        slots = [None] * len(self.operands)
        if len(args) > len(self.inputs):
            raise ArgumentError(
                "%s takes %d input tensors (%s), got %d" %
                (self.entry, len(self.inputs),
                 ", ".join(self._labels[o.index] for o in self.inputs), len(args)))
        for o, t in zip(self.inputs, args):
            slots[o.index] = t
        for name, t in kwargs.items():
            index = self.names.get(name)
            if index is None:
                raise ArgumentError(
                    "%s has no operand named '%s' (operands: %s)" %
                    (self.entry, name, ", ".join(self._labels[o.index]
                                                 for o in self.operands)))
            if index == self.result.index and self.result.role == "out":
                if out is not None:
                    raise ArgumentError("%s given twice (out= and %s=)" %
                                        (self._labels[index], name))
                out = t
                continue
            if slots[index] is not None:
                raise ArgumentError("%s given twice (by position and as %s=)" %
                                    (self._labels[index], name))
            slots[index] = t
        missing = [self._labels[o.index] for o in self.inputs if slots[o.index] is None]
        if missing:
            raise ArgumentError("%s: missing %s" % (self.entry, ", ".join(missing)))
        if self.result.role == "inout":
            if out is not None:
                raise ArgumentError("%s is read and written (C += A*B): pass it as "
                                    "an input, not out=" % self._labels[self.result.index])
            out = slots[self.result.index]
        ins = [slots[o.index] for o in self.operands if o.role not in _RESULT_ROLES]
        return ins, out

    def _with_result(self, ins, result):
        """Manifest-order list of all operands' tensors."""
        it = iter(ins)
        return [result if o is self.result else next(it) for o in self.operands]

    # -- checks (no library needed) ------------------------------------------

    def check(self, views):
        """Checks Views (manifest order, all operands) against the manifest:
        returns their manifest-order (shape, strides), or ArgumentError."""
        if len(views) != len(self.operands):
            raise ArgumentError("%s: expected %d tensors, got %d" %
                                (self.entry, len(self.operands), len(views)))
        mapped = []
        device = None
        for o, v in zip(self.operands, views):
            what = self._labels[o.index]
            if v.dtype != o.dtype:
                raise ArgumentError("%s: expected dtype %s, got %s" % (what, o.dtype, v.dtype))
            if isinstance(v.device, str):
                raise ArgumentError("%s: the tensor is on %s; tcgen kernels take "
                                    "CUDA tensors" % (what, v.device))
            if v.device is not None:
                if device is not None and v.device != device:
                    raise ArgumentError("%s: on cuda:%d, other operands on cuda:%d"
                                        % (what, v.device, device))
                device = v.device
            if v.ptr % max(o.align_bytes, 1):
                raise ArgumentError("%s: address 0x%x is not aligned to %d bytes" %
                                    (what, v.ptr, o.align_bytes))
            mapped.append(o.map_tensor(v.shape, v.strides, what))
        want = result_shape(self.op, self.result, self.operands,
                            {i: s for i, (s, _) in enumerate(mapped)})
        got = mapped[self.result.index][0]
        if tuple(got) != tuple(want):
            raise ArgumentError("%s: expected shape %s, got %s" % (
                self._labels[self.result.index], fmt(self.result.stored(want)),
                fmt(self.result.stored(got))))
        return mapped, device

    def output_shape(self, ins_shapes_strides):
        """The caller's shape of the result for inputs given as (shape,
        strides) pairs, in the order of bind()'s inputs."""
        if self.result.static:
            return self.result.user_shape
        mapped = {}
        it = iter(ins_shapes_strides)
        for o in self.operands:
            if o.role in _RESULT_ROLES:
                continue
            shape, strides = next(it)
            if o.role in ("lhs", "rhs"):
                mapped[o.index] = o.map_tensor(shape, strides, self._labels[o.index])[0]
        want = result_shape(self.op, self.result, self.operands, mapped)
        return self.result.stored(want)

    # -- launching ------------------------------------------------------------

    def __call__(self, *args, out=None, stream=None, **kwargs):
        if not kwargs and self._positional and len(args) == self._n_inputs:
            ins, result = list(args), out  # the common case, bound as given
        else:
            ins, result = self.bind(args, kwargs, out)
        state = _TORCH or _torch_state()
        if state is not None:
            if state[1]():  # torch.compiler.is_compiling()
                from . import torch_ops
                return torch_ops.call(self, ins, result)
            tensor = state[2]
            for t in ins:
                if not isinstance(t, tensor):
                    break
            else:
                if result is None or isinstance(result, tensor):
                    return self.run_torch(ins, result, stream)
        return self.run_views(ins, result, stream)

    def run_torch(self, ins, result, stream=None):
        """Launches on PyTorch tensors (the custom op's body): allocates the
        result if None, launches on `stream` (default: the current stream of
        the tensors' device) and returns the result."""
        if result is None and stream is None:
            # The steady state of a framework: inputs of shapes seen before,
            # the result allocated here. One dictionary look-up keyed by the
            # inputs alone finds the plan and the result's shape and dtype.
            key = tuple([(t.shape, t.stride(), t.dtype) for t in ins])
            fast = self._fast.get((key, ins[0].get_device()))
            if fast is not None:
                plan, shape, dtype, device = fast
                torch = sys.modules["torch"]
                result = torch.empty(shape, dtype=dtype, device=ins[0].device)
                ptrs = [t.data_ptr() for t in ins]
                ptrs.insert(self.result.index, result.data_ptr())
                plan.launch(ptrs, _current_stream(device))
                return result
            result = self._run_torch_slow(ins, None, None)
            device = ins[0].get_device()
            plan = self._plans.get(self._plan_key(ins, result))
            if plan is not None:
                self._fast[(key, device)] = (plan, result.shape, result.dtype, device)
            return result
        return self._run_torch_slow(ins, result, stream)

    @staticmethod
    def _plan_key_of(tensors):
        return tuple([(t.shape, t.stride(), t.dtype, t.device) for t in tensors])

    def _plan_key(self, ins, result):
        tensors = list(ins)
        tensors.insert(self.result.index, result)
        return self._plan_key_of(tensors)

    def _run_torch_slow(self, ins, result, stream=None):
        if result is None:
            result = self._allocate(ins, sys.modules["torch"])
        tensors = list(ins)
        tensors.insert(self.result.index, result)
        key = self._plan_key_of(tensors)
        plan = self._plans.get(key)
        if plan is None:
            views = [describe(t, self._labels[o.index])
                     for o, t in zip(self.operands, tensors)]
            plan = self._make_plan(key, views, sys.modules["torch"])
        if stream is None:
            stream = _current_stream(tensors[0].get_device())
        elif not isinstance(stream, int):
            stream = stream.cuda_stream
        plan.launch([t.data_ptr() for t in tensors], stream)
        return result

    def _allocate(self, ins, torch):
        if self.result.static:
            shape = self.result.user_shape
        else:
            shape = self.output_shape([(t.shape, t.stride()) for t in ins])
        dtype = {v: k for k, v in torch_dtypes().items()}[self.result.dtype]
        return torch.empty(shape, dtype=dtype, device=ins[0].device)

    def run_views(self, ins, result, stream=None):
        """Launches on any tensors describe() reads; the result must be given
        unless PyTorch is there to allocate it."""
        views = [describe(t, self._labels[o.index]) for o, t in
                 zip([o for o in self.operands if o.role not in _RESULT_ROLES], ins)]
        if result is None:
            torch = sys.modules.get("torch")
            if torch is None:
                raise ArgumentError("%s: pass out= (no PyTorch to allocate the "
                                    "output)" % self._labels[self.result.index])
            shape = self.output_shape([(v.shape, v.strides) for v in views])
            dtype = {v: k for k, v in torch_dtypes().items()}[self.result.dtype]
            device = next((v.device for v in views if isinstance(v.device, int)), None)
            result = torch.empty(shape, dtype=dtype,
                                 device="cuda" if device is None else "cuda:%d" % device)
        rview = describe(result, self._labels[self.result.index])
        all_views = self._with_result(views, rview)
        key = tuple((v.shape, v.strides, v.dtype, v.device) for v in all_views)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._make_plan(key, all_views, sys.modules.get("torch"))
        if stream is None:
            stream = 0
        elif not isinstance(stream, int):
            stream = stream.cuda_stream
        plan.launch([v.ptr for v in all_views], stream)
        return result

    def _make_plan(self, key, views, torch):
        with self._lock:  # one plan per key, also when threads race to it
            plan = self._plans.get(key)
            if plan is None:
                plan = self._new_plan(views, torch)
                self._plans[key] = plan
            return plan

    def _new_plan(self, views, torch):
        mapped, device = self.check(views)
        if torch is not None and torch.cuda.is_available() and \
                torch.cuda.is_current_stream_capturing():
            raise TcgenError(
                "%s: no plan for these shapes yet, and a plan cannot be made during "
                "CUDA graph capture: call the kernel once with them before "
                "capturing" % self.entry)
        lib = _rt.lib()
        handle = self._handle(lib, device, torch)
        n = len(views)
        args = (_rt.TensorArg * n)()
        keep = [args]
        for i, (o, v, (shape, strides)) in enumerate(zip(self.operands, views, mapped)):
            sh = (ctypes.c_int64 * max(len(shape), 1))(*shape)
            st = (ctypes.c_int64 * max(len(strides), 1))(*strides)
            name = o.name.encode()
            keep += [sh, st, name]
            args[i].name = name
            args[i].dtype = _rt.DTYPES[o.dtype]
            args[i].rank = len(shape)
            args[i].shape = ctypes.cast(sh, _rt.c_int64_p)
            args[i].strides = ctypes.cast(st, _rt.c_int64_p)
            args[i].data = v.ptr
        out = ctypes.c_void_p()
        lib.check("tcgen_rt_plan_create",
                  lib.cdll.tcgen_rt_plan_create(handle, args, n, ctypes.byref(out)))
        return _Plan(lib, out, n, keep)

    def _handle(self, lib, device, torch):
        with self._lock:
            h = self._handles.get(device)
            if h is not None:
                return h
            h = ctypes.c_void_p()
            path = self.manifest_path.encode()
            if torch is not None and isinstance(device, int):
                with torch.cuda.device(device):
                    status = lib.cdll.tcgen_rt_load(path, ctypes.byref(h))
            else:
                status = lib.cdll.tcgen_rt_load(path, ctypes.byref(h))
            lib.check("tcgen_rt_load", status)
            self._handles[device] = h
            return h

    def close(self):
        """Frees the runtime's plans and handles of this kernel (also done
        when it is collected; a later call loads it again)."""
        with self._lock:
            plans, self._plans = self._plans, {}
            handles, self._handles = self._handles, {}
            self._fast = {}
        if not plans and not handles:
            return
        lib = _rt.lib()
        for p in plans.values():
            lib.cdll.tcgen_rt_plan_destroy(p.handle)
        for h in handles.values():
            lib.cdll.tcgen_rt_unload(h)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown; nothing to report to
            pass

    def unregister(self):
        """Drops the kernel from the registry the custom op looks ids up in."""
        with _registry_lock:
            _registry.pop(self.id, None)
