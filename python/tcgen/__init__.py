"""tcgen: tensor-core kernels from einsum specs or linalg, for Python and PyTorch.

This file implements the package's public names. ``import tcgen`` needs
neither PyTorch, the runtime library nor a GPU: the runtime is opened at the
first launch, PyTorch imported where a function needs it, and ``tcgen.nn``
(which needs PyTorch) on first access.

    import tcgen
    k = tcgen.compile(tcgen.Spec("mk,nk->mn", {"m": 3072, "n": 4096, "k": 1024},
                                 {"a": "bf16", "b": "bf16", "c": "bf16"},
                                 epilogue="gelu_tanh(acc + bias[n])"))
    y = k(x, w, bias=b)          # torch tensors on the GPU; y is allocated
"""

from .bundle import Kernel, load
from .compiler import (Spec, cache_root, compile, compile_bundle, emit_mlir,
                       find_compiler, problem_key)
from .errors import (ArgumentError, BundleError, CacheMiss, CompileError,
                     LibraryNotFound, RuntimeCallError, TcgenError)

__version__ = "0.1.0"

__all__ = [
    "ArgumentError", "BundleError", "CacheMiss", "CompileError", "Kernel",
    "LibraryNotFound", "RuntimeCallError", "Spec", "TcgenError", "cache_root",
    "compile", "compile_bundle", "emit_mlir", "find_compiler", "load", "problem_key",
    "runtime_available",
]


def runtime_available():
    """Whether libtcgen_rt can be opened here (see tcgen._rt for where it is
    looked for)."""
    from . import _rt

    return _rt.available()


def __getattr__(name):
    if name == "nn":
        import importlib

        return importlib.import_module(".nn", __name__)
    raise AttributeError("module 'tcgen' has no attribute %r" % name)
