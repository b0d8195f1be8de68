"""A suite problem's chain as an nn.Module (docs/suites.md): one step per op, built in chain order with PyTorch's
standard modules (nn.Linear, nn.ConvNd, nn.ConvTransposeNd, nn.BatchNormNd, nn.GroupNorm, nn.InstanceNormNd,
nn.LayerNorm, the pooling modules) and nn.Parameter(torch.randn(shape)) for a `param` operand, so its parameters are
created, and registered, in chain order. Modules stay in training mode, as KernelBench leaves them.

The problem comes checked from `ucutlass suite check --json` (suite.py); this file is only the mapping from an op to
its torch module or function. Each op's keys are passed as the file gives them, and a key the file leaves out takes
PyTorch's default, which docs/suites.md's table states as ours, except `flatten`'s `start_dim` (ours is 1,
torch.flatten's 0) and `matmul`'s `transpose_self` / `transpose_other` (false). Sizes a file does not give
(in_features, in_channels, num_features) come from the op's `shape_in` as the tool inferred it. A key the mapping does
not use is an error, so a key the tool learns is never silently dropped here."""
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F


class Unary(nn.Module):
    """A step with no weights and no operand: fn(x)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class Binary(nn.Module):
    """fn(x, y), y the named value passed in or, when the op has `param`, the step's own randn parameter."""

    def __init__(self, fn, param_shape=None):
        super().__init__()
        self.fn = fn
        self.param = None if param_shape is None else nn.Parameter(torch.randn(param_shape))

    def forward(self, x, other=None):
        return self.fn(x, self.param if other is None else other)


class Keys:
    """An op's keys as the file gives them; each mapping takes the ones it uses (lists as tuples, as torch's
    arguments take them), and Chain checks that none is left over."""

    def __init__(self, op):
        self.left = dict(op.attrs)

    def take(self, key, default=None):
        v = self.left.pop(key, default)
        return tuple(v) if isinstance(v, list) else v

    def number(self, key, default=None):
        """A real-valued key as a float (the tool writes an integral number as an int)."""
        v = self.left.pop(key, default)
        return None if v is None else float(v)

    def given(self, *keys):
        """The given ones of `keys` as keyword arguments; absent ones take torch's defaults."""
        return {k: self.take(k) for k in keys if k in self.left}

    def numbers(self, *keys):
        return {k: self.number(k) for k in keys if k in self.left}


def _fn(f, read=lambda k: {}):
    """The mapping of an op without weights that takes only the running value: read(keys) gives f's keyword
    arguments, bound now; the step computes f(x, **kwargs)."""
    def build(k, x):
        kwargs = read(k)
        return Unary(lambda v: f(v, **kwargs))
    return build


def _binary(f):
    """add sub mul div: exactly one of `scalar` (bound now), `other` (Chain passes the named value) and `param`."""
    def build(k, x):
        if "scalar" in k.left:
            s = k.number("scalar")
            return Unary(lambda v: f(v, s))
        k.take("other")
        return Binary(f, k.take("param"))
    return build


def _matmul(k, x):
    ts, to = k.take("transpose_self", False), k.take("transpose_other", False)
    k.take("other")

    def fn(a, b):
        return torch.matmul(a.mT if ts else a, b.mT if to else b)
    return Binary(fn, k.take("param"))


def _reduction(f):
    return _fn(f, lambda k: {"dim": k.take("dim"), **k.given("keepdim")})


def _conv(transposed):
    def build(k, x):
        kernel = k.take("kernel")
        rank = len(kernel)
        keys = ("stride", "padding", "dilation", "groups", "bias") + (("output_padding",) if transposed else ())
        cls = getattr(nn, f"{'ConvTranspose' if transposed else 'Conv'}{rank}d")
        return cls(x[-rank - 1], k.take("out_channels"), kernel, **k.given(*keys))
    return build


def _norm_rank(x):
    """The N of the BatchNorm/InstanceNorm Nd module for a value of shape x: 1 for [N, C] and [C, L] (InstanceNorm1d's
    unbatched form) and [N, C, L], else the number of dims after [N, C]."""
    return max(1, len(x) - 2)


def _instance_norm(k, x):
    rank = _norm_rank(x)
    return getattr(nn, f"InstanceNorm{rank}d")(x[-rank - 1], **k.numbers("eps"), **k.given("affine"))


def _pool(kind):
    def build(k, x):
        kernel = k.take("kernel")
        return getattr(nn, f"{kind}{len(kernel)}d")(kernel, **k.given("stride", "padding"))
    return build


def _adaptive_avg_pool(k, x):
    size = k.take("output_size")
    return getattr(nn, f"AdaptiveAvgPool{len(size)}d")(size)


# op → its mapping: (keys, shape_in) → the step (an nn.Module). One entry for every op of src/suite/ops.def.
OPS = {
    "matmul": _matmul,
    "linear": lambda k, x: nn.Linear(x[-1], k.take("out_features"), **k.given("bias")),
    "conv": _conv(False),
    "conv_transpose": _conv(True),
    "add": _binary(operator.add),
    "sub": _binary(operator.sub),
    "mul": _binary(operator.mul),
    "div": _binary(operator.truediv),
    "minimum": _fn(torch.clamp, lambda k: {"max": k.number("scalar")}),
    "maximum": _fn(torch.clamp, lambda k: {"min": k.number("scalar")}),
    "clamp": _fn(torch.clamp, lambda k: k.numbers("min", "max")),
    "relu": _fn(F.relu),
    "sigmoid": _fn(torch.sigmoid),
    "tanh": _fn(torch.tanh),
    "silu": _fn(F.silu),
    "mish": _fn(F.mish),
    "hardswish": _fn(F.hardswish),
    "hardsigmoid": _fn(F.hardsigmoid),
    "selu": _fn(F.selu),
    "exp": _fn(torch.exp),
    "triu": _fn(torch.triu),
    "tril": _fn(torch.tril),
    "gelu": _fn(F.gelu, lambda k: k.given("approximate")),
    "leaky_relu": _fn(F.leaky_relu, lambda k: k.numbers("negative_slope")),
    "hardtanh": _fn(F.hardtanh, lambda k: k.numbers("min_val", "max_val")),
    "softplus": _fn(F.softplus, lambda k: k.numbers("beta", "threshold")),
    "elu": _fn(F.elu, lambda k: k.numbers("alpha")),
    "sum": _reduction(torch.sum),
    "mean": _reduction(torch.mean),
    "amax": _reduction(torch.amax),
    "amin": _reduction(torch.amin),
    "logsumexp": _reduction(torch.logsumexp),
    "softmax": _fn(F.softmax, lambda k: {"dim": k.take("dim")}),
    "log_softmax": _fn(F.log_softmax, lambda k: {"dim": k.take("dim")}),
    "batch_norm": lambda k, x: getattr(nn, f"BatchNorm{_norm_rank(x)}d")(x[1], **k.numbers("eps", "momentum")),
    "group_norm": lambda k, x: nn.GroupNorm(k.take("num_groups"), x[1], **k.numbers("eps")),
    "instance_norm": _instance_norm,
    "layer_norm": lambda k, x: nn.LayerNorm(k.take("normalized_shape"), **k.numbers("eps")),
    "max_pool": _pool("MaxPool"),
    "avg_pool": _pool("AvgPool"),
    "adaptive_avg_pool": _adaptive_avg_pool,
    "flatten": _fn(torch.flatten, lambda k: {"start_dim": k.take("start_dim", 1)}),  # ours: 1 (docs/suites.md)
    "reshape": _fn(torch.reshape, lambda k: {"shape": k.take("shape")}),
}


def step(problem, op):
    """The op's step, its parameters created now."""
    if op.name not in OPS:
        raise ValueError(f"{problem.path}: {op.where()}: chain.py maps no such op")
    keys = Keys(op)
    module = OPS[op.name](keys, op.shape_in)
    if keys.left:
        raise ValueError(f"{problem.path}: {op.where()}: chain.py maps no torch argument for "
                         f"{', '.join(f'`{k}`' for k in sorted(keys.left))}")
    return module


class Chain(nn.Module):
    """forward(*inputs) runs the ops on the first input; `other` operands come from the inputs (by name) and the
    values earlier ops saved."""

    def __init__(self, problem):
        super().__init__()
        self.input_names = [x.name for x in problem.inputs]
        self.steps = nn.ModuleList(step(problem, op) for op in problem.ops)
        self.links = [(op.attrs.get("other"), op.save) for op in problem.ops]

    def forward(self, *inputs):
        values = dict(zip(self.input_names, inputs))
        x = inputs[0]
        for s, (other, save) in zip(self.steps, self.links):
            x = s(x, values[other]) if other is not None else s(x)
            if save is not None:
                values[save] = x
        return x
