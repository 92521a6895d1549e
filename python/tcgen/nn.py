"""PyTorch modules backed by tcgen kernels.

This file implements ``Linear``: y = epilogue(x W^T) with W [out, in] as in
``torch.nn.Linear``, the bias and an activation (or any epilogue of the spec
grammar) fused into the kernel; and ``GatedLinear``: y = act(x W^T [+ b]) *
(x W2^T), the gate and up projections of a gated MLP (SwiGLU, GeGLU) as one
dual GEMM, both products and their combination in one kernel. Their forward
compiles, through the bundle cache, one kernel per token count (the rows of
x flattened to [tokens, in]), or for a Linear one kernel for all token
counts with ``dynamic=True`` (m fixed at launch).

    mlp_in = tcgen.nn.GatedLinear(4096, 11008, activation="silu")
    down = tcgen.nn.Linear(11008, 4096, bias=False)
    y = down(mlp_in(x))      # Llama's MLP: W2 (silu(W1 x) * (W3 x))
"""

import math

import torch

from .compiler import compile as _compile, reads_acc2
from .specs import (ACTIVATIONS, GATED_ACTIVATIONS,
                    gated_linear_spec as _gated_linear_spec,
                    linear_spec as _linear_spec)

__all__ = ["ACTIVATIONS", "GATED_ACTIVATIONS", "GatedLinear", "Linear",
           "gated_linear_spec", "linear_spec"]

_DTYPES = {
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float32: "f32",
}


def _dtype_name(dtype):
    d = _DTYPES.get(dtype)
    if d is None:
        raise ValueError("dtype %s is not supported (float16, bfloat16, float32)"
                         % dtype)
    return d


def linear_spec(tokens, in_features, out_features, dtype, bias=True,
                activation=None, epilogue=None, extra_dtypes=None):
    """tcgen.specs.linear_spec with a PyTorch dtype."""
    return _linear_spec(tokens, in_features, out_features, _dtype_name(dtype),
                        bias, activation, epilogue, extra_dtypes)


def gated_linear_spec(tokens, in_features, out_features, dtype, activation="silu",
                      bias=False, epilogue=None, extra_dtypes=None):
    """tcgen.specs.gated_linear_spec with a PyTorch dtype."""
    return _gated_linear_spec(tokens, in_features, out_features, _dtype_name(dtype),
                              activation, bias, epilogue, extra_dtypes)


def _input_order(kernel, positional, extra):
    """Where each of the kernel's inputs (manifest order) is among (x, the
    weights, *extra.values()), `positional` of them (x and the weights)
    passed by position: the kernel's own binding of those names, done once
    on the positions themselves as stand-ins (plain ints, which
    torch.compile traces where a kernel was prepared but not yet called)."""
    ins, _ = kernel.bind(tuple(range(positional)),
                         dict(zip(extra, range(positional, positional + len(extra)))))
    return tuple(ins)


class Linear(torch.nn.Module):
    """Like torch.nn.Linear (weight [out_features, in_features], bias
    [out_features]) with the bias and activation fused into a tcgen kernel.

    ``activation``: None, "relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid"
    or "tanh", applied to x W^T + bias. ``epilogue``: instead, any epilogue
    expression of the spec grammar over ``acc`` (x W^T), ``bias[n]`` (this
    module's bias) and further operands given to forward by name, e.g.
    ``"silu(acc) * up[m,n]"`` with ``forward(x, up=u)``. ``dynamic``: one
    kernel for every token count instead of one per count. ``target``,
    ``options`` and ``cache_dir`` go to tcgen.compile. An epilogue that
    reads acc2 (a second product) is a GatedLinear's.
    """

    # The weight parameters, [out_features, in_features] each, in the order
    # the kernel takes them after x (A, then B, then B2 of a dual GEMM).
    _WEIGHTS = ("weight",)

    def __init__(self, in_features, out_features, bias=True, activation=None,
                 dtype=torch.bfloat16, device=None, epilogue=None, dynamic=False,
                 target="sm_90a", options=None, cache_dir=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.activation = activation
        self.epilogue = epilogue
        self.dynamic = dynamic
        self.target = target
        self.options = options
        self.cache_dir = cache_dir
        for name in self._WEIGHTS:
            setattr(self, name, torch.nn.Parameter(
                torch.empty(out_features, in_features, dtype=dtype, device=device)))
        if bias:
            self.bias = torch.nn.Parameter(
                torch.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.spec(1)  # refuses what the spec cannot be
        self._kernels = {}
        self._orders = {}
        self.reset_parameters()

    def reset_parameters(self):
        """torch.nn.Linear's initialization (of each weight)."""
        for name in self._WEIGHTS:
            torch.nn.init.kaiming_uniform_(getattr(self, name), a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            torch.nn.init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        return "in_features=%d, out_features=%d, bias=%s, %s, dtype=%s" % (
            self.in_features, self.out_features, self.bias is not None,
            "epilogue=%r" % self.epilogue if self.epilogue else
            "activation=%s" % self.activation, self.weight.dtype)

    def spec(self, tokens):
        """The Spec of the kernel for `tokens` rows."""
        if self.epilogue is not None and reads_acc2(self.epilogue):
            raise ValueError("epilogue %r reads acc2, the second product of a dual "
                             "GEMM: use tcgen.nn.GatedLinear, which has its second "
                             "weight" % self.epilogue)
        return linear_spec(None if self.dynamic else tokens, self.in_features,
                           self.out_features, self.weight.dtype,
                           self.bias is not None, self.activation, self.epilogue)

    def kernel(self, tokens):
        """The Kernel for `tokens` rows, compiled (or found in the cache) on
        first use."""
        key = None if self.dynamic else int(tokens)
        k = self._kernels.get(key)
        if k is None:
            k = _compile(self.spec(tokens), target=self.target, options=self.options,
                         cache_dir=self.cache_dir)
            self._kernels[key] = k
        return k

    def prepare(self, *token_counts):
        """Compiles (or loads) the kernels of these token counts now, as
        torch.compile needs: it cannot trace a compilation."""
        for t in token_counts or (1,):
            self.kernel(t)
        return self

    def forward(self, x, **operands):
        shape = x.shape
        x2 = x.reshape(-1, self.in_features)
        if not x2.is_contiguous():
            x2 = x2.contiguous()
        tokens = x2.shape[0]
        key = None if self.dynamic else tokens
        k = self._kernels.get(key)
        if k is None:
            if torch.compiler.is_compiling():
                raise RuntimeError(
                    "tcgen.nn.%s: no kernel for %s tokens yet; call "
                    "module.prepare(%s) before torch.compile"
                    % (type(self).__name__, tokens, tokens))
            k = self.kernel(tokens)
        extra = {}
        for name, t in operands.items():
            t = t.reshape(-1, t.shape[-1]) if t.dim() > 2 else t
            extra[name] = t if t.is_contiguous() else t.contiguous()
        if self.bias is not None:
            extra["bias"] = self.bias
        # The kernel's inputs in manifest order, found once per kernel and
        # set of operand names: a positional call skips the kernel's
        # binding by name.
        weights = tuple(getattr(self, name) for name in self._WEIGHTS)
        order_key = (k.id, tuple(extra))
        order = self._orders.get(order_key)
        if order is None:
            order = self._orders[order_key] = _input_order(k, 1 + len(weights), extra)
        values = (x2,) + weights + tuple(extra.values())
        y = k(*[values[i] for i in order])
        return y if len(shape) == 2 else y.reshape(*shape[:-1], self.out_features)


class GatedLinear(Linear):
    """The gate and up projections of a gated MLP as one dual GEMM:
    y = act(x W^T [+ bias]) * (x W2^T), with ``weight`` (W, the gate) and
    ``weight2`` (W2, the up projection) [out_features, in_features] each,
    initialized as torch.nn.Linear's, and ``bias`` [out_features] (if
    ``bias=True``) added to the gate. Llama's MLP W2 (silu(W1 x) * (W3 x))
    is ``down(gated(x))`` with ``gated = GatedLinear(h, f)`` (weight W1,
    weight2 W3) and ``down = Linear(f, h, bias=False)``.

    ``activation``: "silu" (SwiGLU), "gelu_tanh" or "gelu_erf" (GeGLU),
    "sigmoid" or "relu". ``epilogue``: instead (leave activation as it
    is), any epilogue expression over ``acc`` (x W^T), ``acc2`` (x W2^T),
    ``bias[n]`` and further operands given to forward by name, e.g.
    ``"silu(acc) * acc2 + res[m,n]"``; it must read acc2. One kernel per
    token count: the dual GEMM needs static sizes, so there is no
    ``dynamic=True``. ``target``, ``options`` and ``cache_dir`` go to
    tcgen.compile; under torch.compile, call ``prepare(*token_counts)``
    first, as for Linear.
    """

    _WEIGHTS = ("weight", "weight2")

    def __init__(self, in_features, out_features, activation="silu", bias=False,
                 dtype=torch.bfloat16, device=None, epilogue=None, dynamic=False,
                 target="sm_90a", options=None, cache_dir=None):
        if dynamic:
            raise ValueError("tcgen.nn.GatedLinear takes no dynamic=True: its dual "
                             "GEMM needs static sizes (it compiles one kernel per "
                             "token count; prepare() them for torch.compile)")
        if epilogue is not None:
            if activation not in (None, "silu"):
                raise ValueError("give activation= or epilogue=, not both")
            activation = None
        super().__init__(in_features, out_features, bias=bias, activation=activation,
                         dtype=dtype, device=device, epilogue=epilogue,
                         target=target, options=options, cache_dir=cache_dir)

    def spec(self, tokens):
        """The Spec of the kernel for `tokens` rows (a dual GEMM)."""
        return gated_linear_spec(tokens, self.in_features, self.out_features,
                                 self.weight.dtype, self.activation,
                                 self.bias is not None, self.epilogue)
