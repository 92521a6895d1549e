"""Manifest operands and how a caller's tensors map onto them.

This file implements ``Operand`` (one manifest operand, docs/BUNDLE.md) and
the pure rules that relate a caller's tensor to it. A manifest describes
operands by their logical shapes ([m, k], [k, n], [m, n]) and the strides of
the stored layout. A caller passes tensors as they are stored: the weight of
``mk,nk->mn`` as [n, k], the C of a swapped kernel as [m, n]. So each
operand has a *storage order*, its dimensions by decreasing stride (a stride
fixed at launch counts as outermost, ties keep their order), and the
caller's tensor is read in that order. A tensor already in the manifest's
order with the manifest's strides (``w.t()``) is taken as well.
"""

from .errors import ArgumentError

DYN = -1


def fmt(dims):
    return "[" + ", ".join("?" if d == DYN else str(d) for d in dims) + "]"


def contiguous_strides(shape):
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= max(int(s), 1) if s != DYN else 1
    return tuple(reversed(out))


class Operand:
    """One operand of a manifest, with its storage order."""

    def __init__(self, index, d):
        try:
            self.index = index
            self.name = str(d["name"])
            self.role = str(d["role"])
            self.dtype = str(d["dtype"])
            self.shape = tuple(int(x) for x in d["shape"])
            self.strides = tuple(int(x) for x in d["strides"])
            self.align_bytes = int(d.get("align_bytes", 1))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError("operand %d: malformed (%s)" % (index, e))
        if len(self.shape) != len(self.strides):
            raise ValueError("operand '%s': shape %s and strides %s differ in rank"
                             % (self.name, list(self.shape), list(self.strides)))
        rank = len(self.shape)

        def outer(d):
            s = self.strides[d]
            return float("inf") if s == DYN else s

        self.perm = tuple(sorted(range(rank), key=lambda d: -outer(d)))
        self.user_shape = tuple(self.shape[p] for p in self.perm)
        self.user_strides = tuple(self.strides[p] for p in self.perm)
        self.static = DYN not in self.shape

    @property
    def rank(self):
        return len(self.shape)

    def label(self, alias=None):
        extra = " '%s'" % alias if alias and alias != self.name else ""
        return "operand %s%s (%s)" % (self.name, extra, self.role)

    def layout_words(self):
        """How the storage layout reads to a caller."""
        if DYN in self.user_strides:
            return "strides %s" % fmt(self.user_strides)
        if self.static and self.user_strides == contiguous_strides(self.user_shape):
            return "contiguous"
        return "strides %s" % fmt(self.user_strides)

    def _check(self, shape, strides):
        """None if (shape, strides) in manifest order fit this operand, else
        why not; extent-1 dimensions get the manifest's stride (any stride
        addresses their one element)."""
        for d in range(self.rank):
            if self.shape[d] != DYN and shape[d] != self.shape[d]:
                return "shape"
        for d in range(self.rank):
            want = self.strides[d]
            if want == DYN:
                continue
            if shape[d] == 1:
                strides[d] = want
            elif strides[d] != want:
                return "strides"
        return None

    def map_tensor(self, shape, strides, what):
        """The (shape, strides) in manifest order of a caller's tensor, or
        ArgumentError saying what the operand wants."""
        rank = self.rank
        shape = tuple(shape)
        strides = tuple(strides)
        if len(shape) != rank:
            raise ArgumentError("%s: expected a rank-%d tensor of shape %s, got "
                                "shape %s" % (what, rank, fmt(self.user_shape),
                                              fmt(shape)))
        ms = [0] * rank
        mt = [0] * rank
        for j, p in enumerate(self.perm):
            ms[p] = shape[j]
            mt[p] = strides[j]
        why = self._check(ms, mt)
        if why is None:
            return ms, mt
        if self.perm != tuple(range(rank)):
            ms2, mt2 = list(shape), list(strides)
            if self._check(ms2, mt2) is None:
                return ms2, mt2
        if why == "shape":
            raise ArgumentError("%s: expected shape %s, got %s" %
                                (what, fmt(self.user_shape), fmt(shape)))
        raise ArgumentError(
            "%s: expected a %s tensor of shape %s (%s), got strides %s; pass "
            "x.contiguous()" % (what, self.dtype, fmt(self.user_shape),
                                self.layout_words(), fmt(strides)))

    def stored(self, manifest_shape):
        """A manifest-order shape in this operand's storage order."""
        return tuple(manifest_shape[p] for p in self.perm)

    def from_stored(self, stored_strides):
        """Strides in storage order -> strides in manifest order."""
        out = [0] * self.rank
        for j, p in enumerate(self.perm):
            out[p] = stored_strides[j]
        return out


def resolve_sizes(op, operands, mapped):
    """Sizes of the problem from the mapped (manifest-order) shapes of the
    lhs and rhs: {'m', 'n', 'k', 'batch_dims'}."""
    sizes = {}
    by_role = {o.role: i for i, o in enumerate(operands)}
    lhs = mapped.get(by_role.get("lhs"))
    rhs = mapped.get(by_role.get("rhs"))
    if op.get("kind") == "pointwise":
        if lhs is not None:
            sizes["m"], sizes["n"] = lhs[-2], lhs[-1]
            sizes["batch_dims"] = tuple(lhs[:-2])
        return sizes
    if lhs is not None and len(lhs) >= 2:
        sizes["m"], sizes["k"] = lhs[-2], lhs[-1]
        sizes["batch_dims"] = tuple(lhs[:-2])
    if rhs is not None and len(rhs) >= 1:
        sizes["n"] = rhs[-1]
    return sizes


def result_shape(op, result, operands, mapped):
    """The result operand's manifest-order shape with its launch-time sizes
    filled in from the inputs (ArgumentError if they cannot be)."""
    if result.static:
        return result.shape
    sizes = resolve_sizes(op, operands, mapped)
    out = list(result.shape)
    rank = len(out)
    for d in range(rank):
        if out[d] != DYN:
            continue
        if d == rank - 1:
            value = sizes.get("n")
        elif d == rank - 2:
            value = sizes.get("m")
        else:
            batch = sizes.get("batch_dims", ())
            value = batch[d] if d < len(batch) else None
        if value is None:
            raise ArgumentError("cannot infer dimension %d of %s from the inputs"
                                % (d, result.label()))
        out[d] = value
    return tuple(out)
