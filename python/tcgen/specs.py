"""Specs of common layers, without PyTorch.

This file implements ``linear_spec``, the spec tcgen.nn.Linear compiles for
a token count, so that a machine without PyTorch (the one with the
compiler) can fill a bundle cache for a GPU machine without the compiler.
"""

from .compiler import Spec, extra_operands

ACTIVATIONS = ("relu", "gelu_tanh", "gelu_erf", "silu", "sigmoid", "tanh")
DTYPES = ("f16", "bf16", "f32")


def linear_spec(tokens, in_features, out_features, dtype, bias=True,
                activation=None, epilogue=None, extra_dtypes=None):
    """The Spec of y[m, n] = epilogue(sum_k x[m, k] w[n, k]) for `tokens`
    rows (None: fixed at launch), with x, w, y and the epilogue's operands
    of `dtype` ("bf16", ...) unless extra_dtypes names another."""
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
    for name in extra_operands(epilogue or ""):
        dtypes[name] = (extra_dtypes or {}).get(name, dtype)
    return Spec("mk,nk->mn", {"m": tokens, "n": out_features, "k": in_features},
                dtypes, epilogue=epilogue)
