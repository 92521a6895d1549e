"""tcgen kernels as PyTorch custom operators.

This file implements two operators, registered once per process with
``torch.library.custom_op``, that launch any loaded Kernel by its id:

- ``tcgen::launch(int kernel_id, Tensor[] inputs) -> Tensor``: allocates and
  returns the output;
- ``tcgen::launch_out(int kernel_id, Tensor[] inputs, Tensor(a!) out)``:
  writes a given output (also C of C += A*B).

Each has a fake implementation that computes the output's shape and dtype
from the kernel's manifest, so a function calling a Kernel traces under
``torch.compile`` (fullgraph too) as one opaque node, and the launch itself
runs in the compiled graph, also inside CUDA graphs (the launch is a plain
kernel launch on the current stream).
"""

import sys
import threading

_lock = threading.Lock()
_ops = None


def ensure_registered():
    """Defines the operators (idempotent); returns (launch, launch_out)."""
    global _ops
    if _ops is not None:
        return _ops
    with _lock:
        if _ops is None:
            _ops = _define()
    return _ops


def _define():
    import torch

    from .bundle import registered

    @torch.library.custom_op("tcgen::launch", mutates_args=())
    def launch(kernel_id: int, inputs: list[torch.Tensor]) -> torch.Tensor:
        return registered(kernel_id).run_torch(list(inputs), None)

    @launch.register_fake
    def _launch_fake(kernel_id, inputs):
        kernel = registered(kernel_id)
        shape = kernel.output_shape([(t.shape, t.stride()) for t in inputs])
        dtype = _torch_dtype(kernel.result.dtype)
        return torch.empty(shape, dtype=dtype, device=inputs[0].device)

    @torch.library.custom_op("tcgen::launch_out", mutates_args=("out",))
    def launch_out(kernel_id: int, inputs: list[torch.Tensor],
                   out: torch.Tensor) -> None:
        registered(kernel_id).run_torch(list(inputs), out)

    @launch_out.register_fake
    def _launch_out_fake(kernel_id, inputs, out):
        return None

    return launch, launch_out


def _torch_dtype(name):
    from ._tensors import torch_dtypes

    for k, v in torch_dtypes().items():
        if v == name:
            return k
    raise KeyError(name)


def call(kernel, inputs, result):
    """Calls a Kernel through the operators (what Kernel.__call__ does while
    torch.compile traces): returns the output tensor."""
    torch = sys.modules["torch"]
    ensure_registered()
    if result is None:
        return torch.ops.tcgen.launch(kernel.id, list(inputs))
    torch.ops.tcgen.launch_out(kernel.id, list(inputs), result)
    return result
