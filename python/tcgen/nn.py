"""PyTorch modules backed by tcgen kernels.

This file implements ``Linear``: y = epilogue(x W^T) with W [out, in] as in
``torch.nn.Linear``, the bias and an activation (or any epilogue of the spec
grammar) fused into the kernel. Its forward compiles, through the bundle
cache, one kernel per token count (the rows of x flattened to [tokens, in]),
or one kernel for all token counts with ``dynamic=True`` (m fixed at launch).
"""

import math

import torch

from .compiler import compile as _compile
from .specs import ACTIVATIONS, linear_spec as _linear_spec

__all__ = ["ACTIVATIONS", "Linear", "linear_spec"]

_DTYPES = {
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float32: "f32",
}


def linear_spec(tokens, in_features, out_features, dtype, bias=True,
                activation=None, epilogue=None, extra_dtypes=None):
    """tcgen.specs.linear_spec with a PyTorch dtype."""
    d = _DTYPES.get(dtype)
    if d is None:
        raise ValueError("dtype %s is not supported (float16, bfloat16, float32)"
                         % dtype)
    return _linear_spec(tokens, in_features, out_features, d, bias, activation,
                        epilogue, extra_dtypes)


def _input_order(kernel, extra):
    """Where each of the kernel's inputs (manifest order) is among (x,
    weight, *extra.values()): the kernel's own binding of those names,
    done once on stand-in objects."""
    stand_ins = [object() for _ in range(2 + len(extra))]
    ins, _ = kernel.bind(tuple(stand_ins[:2]),
                         dict(zip(extra, stand_ins[2:])))
    where = {id(o): i for i, o in enumerate(stand_ins)}
    return tuple(where[id(t)] for t in ins)


class Linear(torch.nn.Module):
    """Like torch.nn.Linear (weight [out_features, in_features], bias
    [out_features]) with the bias and activation fused into a tcgen kernel.

    ``activation``: None, "relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid"
    or "tanh", applied to x W^T + bias. ``epilogue``: instead, any epilogue
    expression of the spec grammar over ``acc`` (x W^T), ``bias[n]`` (this
    module's bias) and further operands given to forward by name, e.g.
    ``"silu(acc) * up[m,n]"`` with ``forward(x, up=u)``. ``dynamic``: one
    kernel for every token count instead of one per count. ``target``,
    ``options`` and ``cache_dir`` go to tcgen.compile.
    """

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
        self.weight = torch.nn.Parameter(
            torch.empty(out_features, in_features, dtype=dtype, device=device))
        if bias:
            self.bias = torch.nn.Parameter(
                torch.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        linear_spec(1, in_features, out_features, dtype, bias, activation, epilogue)
        self._kernels = {}
        self._orders = {}
        self.reset_parameters()

    def reset_parameters(self):
        """torch.nn.Linear's initialization."""
        torch.nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
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
                    "tcgen.nn.Linear: no kernel for %s tokens yet; call "
                    "module.prepare(%s) before torch.compile" % (tokens, tokens))
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
        order_key = (k.id, tuple(extra))
        order = self._orders.get(order_key)
        if order is None:
            order = self._orders[order_key] = _input_order(k, extra)
        values = (x2, self.weight) + tuple(extra.values())
        y = k(*[values[i] for i in order])
        return y if len(shape) == 2 else y.reshape(*shape[:-1], self.out_features)
