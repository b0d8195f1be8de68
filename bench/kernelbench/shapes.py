"""Shape inference for a suite problem's chain, by PyTorch's rules: `infer(op, x, other)` is the shape of the value
an op makes from the running value's shape `x` (and its named operand's shape `other`), or a ShapeError saying why
the op cannot apply. build_module sizes in_features / in_channels from these shapes. Pure Python."""
from ops import BINARY, REDUCTIONS


class ShapeError(Exception):
    pass


def broadcast(a, b):
    """torch's broadcasting of two shapes."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        p, q = a[-i] if i <= len(a) else 1, b[-i] if i <= len(b) else 1
        if p != q and 1 not in (p, q):
            raise ShapeError(f"shapes {list(a)} and {list(b)} do not broadcast (dim -{i}: {p} vs {q})")
        out.append(q if p == 1 else p)
    return out[::-1]


def transposed(shape, what):
    if len(shape) < 2:
        raise ShapeError(f"cannot transpose {what} of shape {list(shape)}: it needs at least 2 dims")
    return list(shape[:-2]) + [shape[-1], shape[-2]]


def matmul(a, b):
    """torch.matmul's result shape (1-D operands get a dim added, then removed; batch dims broadcast)."""
    if not a or not b:
        raise ShapeError("matmul needs operands with at least 1 dim")
    a2, b2 = ([1] + list(a) if len(a) == 1 else list(a)), (list(b) + [1] if len(b) == 1 else list(b))
    if a2[-1] != b2[-2]:
        raise ShapeError(f"matmul of {list(a)} and {list(b)}: inner dims {a2[-1]} and {b2[-2]} differ")
    out = broadcast(a2[:-2], b2[:-2]) + [a2[-2], b2[-1]]
    if len(a) == 1:
        out.pop(-2)
    if len(b) == 1:
        out.pop(-1)
    return out


def dim_index(d, ndim):
    if not -ndim <= d < ndim:
        raise ShapeError(f"dim {d} is out of range for a value with {ndim} dims")
    return d % ndim


def channels(x, rank, what):
    """The channel count of x as an Nd module with `rank` spatial dims takes it: [N, C, *spatial] or, unbatched,
    [C, *spatial]."""
    if len(x) not in (rank + 1, rank + 2):
        raise ShapeError(f"{what} with {rank} spatial dims needs a {rank + 2}-d input [N, C, ...] or a {rank + 1}-d "
                         f"one [C, ...], got {list(x)}")
    return x[-rank - 1]


def conv(x, a, transpose):
    k, s, p, d = a["kernel"], a["stride"], a["padding"], a["dilation"]
    c = channels(x, len(k), "conv_transpose" if transpose else "conv")
    g, oc = a["groups"], a["out_channels"]
    if c % g or oc % g:
        raise ShapeError(f"groups = {g} must divide the input channels ({c}) and out_channels ({oc})")
    out = []
    for i, n in enumerate(x[-len(k):]):
        if transpose:
            op = a["output_padding"][i]
            if op >= max(s[i], d[i]):
                raise ShapeError(f"output_padding {op} must be smaller than stride or dilation (dim {i})")
            out.append((n - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op + 1)
        else:
            out.append((n + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1)
    if min(out) < 1:
        raise ShapeError(f"the output's spatial extents {out} are not positive (input {list(x)})")
    return list(x[:-len(k) - 1]) + [oc] + out


def pool(x, a, name):
    k, s, p = a["kernel"], a["stride"], a["padding"]
    channels(x, len(k), name)
    if any(2 * p[i] > k[i] for i in range(len(k))):
        raise ShapeError(f"padding {p} must be at most half the kernel {k}")
    out = [(n + 2 * p[i] - k[i]) // s[i] + 1 for i, n in enumerate(x[-len(k):])]
    if min(out) < 1:
        raise ShapeError(f"the output's spatial extents {out} are not positive (input {list(x)})")
    return list(x[:-len(k)]) + out


def reduce(x, a):
    dims = sorted({dim_index(d, len(x)) for d in a["dim"]})
    if len(dims) != len(a["dim"]):
        raise ShapeError(f"dim {a['dim']} names a dimension twice")
    if a["keepdim"]:
        return [1 if i in dims else n for i, n in enumerate(x)]
    return [n for i, n in enumerate(x) if i not in dims]


def reshape(x, target):
    """torch.reshape's result shape: the same number of elements, one extent of -1 inferred."""
    size = 1
    for n in x:
        size *= n
    known = 1
    for n in target:
        if n < -1 or n == 0:
            raise ShapeError(f"reshape: extents must be positive or -1, got {target}")
        known *= n if n != -1 else 1
    if target.count(-1) > 1:
        raise ShapeError(f"reshape: at most one extent may be -1, got {target}")
    if -1 in target:
        if size % known:
            raise ShapeError(f"reshape of {list(x)} ({size} elements) to {target}: {size} is not a multiple of {known}")
        return [size // known if n == -1 else n for n in target]
    if known != size:
        raise ShapeError(f"reshape of {list(x)} ({size} elements) to {target} ({known} elements)")
    return list(target)


def norm_rank(x, name):
    """The N of the BatchNorm/InstanceNorm Nd module that takes x: 1 for 2-d and 3-d inputs ([N, C] or [C, L] and
    [N, C, L]), else the number of dims after [N, C]."""
    if not 2 <= len(x) <= 5:
        raise ShapeError(f"{name} takes a 2-d to 5-d input, got {list(x)}")
    return max(1, len(x) - 2)


def infer(op, x, other):
    """The shape op (a suite.Op with defaults filled in) makes from x; `other` is the named operand's shape."""
    name, a = op.name, op.args
    if name == "matmul":
        y = other if other is not None else a["param"]
        if a["transpose_self"]:
            x = transposed(x, "the running value")
        if a["transpose_other"]:
            y = transposed(y, "the other operand")
        return matmul(x, y)
    if name == "linear":
        if not x:
            raise ShapeError("linear needs an input with at least 1 dim")
        return list(x[:-1]) + [a["out_features"]]
    if name in ("conv", "conv_transpose"):
        return conv(x, a, name == "conv_transpose")
    if name in BINARY:
        y = other if other is not None else a["param"]
        return broadcast(x, y) if y is not None else list(x)
    if name in REDUCTIONS:
        return reduce(x, a)
    if name in ("softmax", "log_softmax"):
        dim_index(a["dim"], len(x))
    elif name in ("triu", "tril"):
        if len(x) < 2:
            raise ShapeError(f"{name} needs a matrix or a batch of them (at least 2 dims), got {list(x)}")
    elif name in ("batch_norm", "instance_norm"):
        norm_rank(x, name)
    elif name == "group_norm":
        if len(x) < 2 or x[1] % a["num_groups"]:
            raise ShapeError(f"group_norm: num_groups = {a['num_groups']} must divide the channels (dim 1) "
                             f"of {list(x)}")
    elif name == "layer_norm":
        ns = a["normalized_shape"]
        if list(x[len(x) - len(ns):]) != ns:
            raise ShapeError(f"layer_norm: normalized_shape {ns} is not the last dims of {list(x)}")
    elif name in ("max_pool", "avg_pool"):
        return pool(x, a, name)
    elif name == "adaptive_avg_pool":
        channels(x, len(a["output_size"]), name)
        return list(x[:-len(a["output_size"])]) + a["output_size"]
    elif name == "reshape":
        return reshape(x, a["shape"])
    elif name == "flatten":
        start = dim_index(a["start_dim"], len(x)) if x else 0
        size = 1
        for n in x[start:]:
            size *= n
        return list(x[:start]) + [size]
    return list(x)
