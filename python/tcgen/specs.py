"""Specs of common layers, without PyTorch.

This file implements ``linear_spec`` and ``gated_linear_spec``, the specs
tcgen.nn.Linear and tcgen.nn.GatedLinear compile for a token count, so that
a machine without PyTorch (the one with the compiler) can fill a bundle
cache for a GPU machine without the compiler.
"""

from .compiler import Spec, extra_operands, reads_acc2

ACTIVATIONS = ("relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid", "tanh")
# The gate activations of a gated linear layer (act(x W^T) * (x W2^T)).
GATED_ACTIVATIONS = ("silu", "gelu_tanh", "gelu_erf", "sigmoid", "relu")
DTYPES = ("f16", "bf16", "f32")
# What a dual GEMM (an epilogue reading acc2) multiplies.
DUAL_DTYPES = ("f16", "bf16")


def linear_spec(tokens, in_features, out_features, dtype, bias=True,
                activation=None, epilogue=None, extra_dtypes=None):
    """The Spec of y[m, n] = epilogue(sum_k x[m, k] w[n, k]) for `tokens`
    rows (None: fixed at launch), with x, w, y and the epilogue's operands
    of `dtype` ("bf16", ...) unless extra_dtypes names another. An epilogue
    that reads acc2 makes a dual GEMM: a second weight b2 (w2[n, k], of
    `dtype`) and acc2 = sum_k x[m, k] w2[n, k]; it needs a token count."""
    if dtype not in DTYPES:
        raise ValueError("dtype %r is not supported (%s)" % (dtype, ", ".join(DTYPES)))
    if epilogue is not None and activation is not None:
        raise ValueError("give activation= or epilogue=, not both")
    if activation is not None and activation not in ACTIVATIONS:
        raise ValueError("activation %r is not one of %s" % (activation, ACTIVATIONS))
    if epilogue is None:
        value = "acc + bias[n]" if bias else "acc"
        if activation is not None:
            value = "%s(%s)" % (activation, value)
        epilogue = None if value == "acc" else value
    elif bias and "bias[n]" not in epilogue.replace(" ", ""):
        raise ValueError("epilogue %r does not read bias[n], but bias=True" % epilogue)
    dtypes = {"a": dtype, "b": dtype, "c": dtype}
    extras = extra_operands(epilogue or "")
    if reads_acc2(epilogue or ""):
        # The compiler refuses these too, at its column; here the message
        # can say which argument to change.
        if tokens is None:
            raise ValueError("epilogue %r reads acc2 (a dual GEMM), which needs "
                             "static sizes: give a token count, not None "
                             "(no dynamic=True)" % epilogue)
        if dtype not in DUAL_DTYPES:
            raise ValueError("epilogue %r reads acc2 (a dual GEMM), which multiplies "
                             "%s, not %s" % (epilogue, " or ".join(DUAL_DTYPES), dtype))
        dtypes["b2"] = dtype
    if "b2" in extras:
        raise ValueError("epilogue %r reads an operand 'b2': that name is reserved "
                         "for a dual GEMM's second weight (read as acc2); give the "
                         "operand another name" % epilogue)
    for name in extras:
        dtypes[name] = (extra_dtypes or {}).get(name, dtype)
    return Spec("mk,nk->mn", {"m": tokens, "n": out_features, "k": in_features},
                dtypes, epilogue=epilogue)


def gated_epilogue(activation="silu", bias=False):
    """The epilogue of a gated linear layer: act(acc [+ bias[n]]) * acc2."""
    if activation not in GATED_ACTIVATIONS:
        raise ValueError("activation %r is not one of %s" % (activation,
                                                             GATED_ACTIVATIONS))
    return "%s(%s) * acc2" % (activation, "acc + bias[n]" if bias else "acc")


def gated_linear_spec(tokens, in_features, out_features, dtype, activation="silu",
                      bias=False, epilogue=None, extra_dtypes=None):
    """The Spec of the dual GEMM y = act(x W^T [+ bias]) * (x W2^T) for
    `tokens` rows (a count: a dual GEMM has static sizes), W and W2
    [out_features, in_features]; `epilogue`, instead of the activation, is
    any expression of the spec grammar over acc (x W^T), acc2 (x W2^T),
    bias[n] and further operands, and must read acc2."""
    if epilogue is None:
        epilogue = gated_epilogue(activation, bias)
    elif activation not in (None, "silu"):
        raise ValueError("give activation= or epilogue=, not both")
    elif not reads_acc2(epilogue):
        raise ValueError("epilogue %r does not read acc2 (x W2^T), the product "
                         "that makes a gated linear layer" % epilogue)
    if tokens is None:
        raise ValueError("a gated linear layer is a dual GEMM, which needs static "
                         "sizes: give a token count, not None (no dynamic=True)")
    return linear_spec(tokens, in_features, out_features, dtype, bias,
                       None, epilogue, extra_dtypes)
