"""A suite problem's chain as an nn.Module (docs/suites.md): one step per op, built in chain order with PyTorch's
standard modules (nn.Linear, nn.ConvNd, nn.ConvTransposeNd, nn.BatchNormNd, nn.GroupNorm, nn.InstanceNormNd,
nn.LayerNorm, the pooling modules) and nn.Parameter(torch.randn(shape)) for a `param` operand, so its parameters are
created, and registered, in chain order. Each step's input size comes from the running value's shape (shapes.py).
Modules stay in training mode, as KernelBench leaves them."""
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F

import ops
import shapes

UNARY = {"relu": F.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu, "mish": F.mish,
         "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid, "selu": F.selu, "exp": torch.exp,
         "triu": torch.triu, "tril": torch.tril}
BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}
REDUCTIONS = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax, "amin": torch.amin,
              "logsumexp": torch.logsumexp}
POOLS = {"max_pool": "MaxPool", "avg_pool": "AvgPool"}


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


def _matmul(transpose_self, transpose_other):
    def fn(x, y):
        return torch.matmul(x.mT if transpose_self else x, y.mT if transpose_other else y)
    return fn


def _scalar(fn, v):
    return lambda x: fn(x, v)


def _unary_fn(name, a):
    """The function of an op that takes only the running value, its constants bound."""
    if name in UNARY:
        return UNARY[name]
    if name in BINARY:
        return _scalar(BINARY[name], a["scalar"])
    if name == "minimum":
        return lambda x: torch.clamp(x, max=a["scalar"])
    if name == "maximum":
        return lambda x: torch.clamp(x, min=a["scalar"])
    if name == "clamp":
        return lambda x: torch.clamp(x, min=a["min"], max=a["max"])
    if name == "gelu":
        return lambda x: F.gelu(x, approximate=a["approximate"])
    if name == "leaky_relu":
        return lambda x: F.leaky_relu(x, a["negative_slope"])
    if name == "hardtanh":
        return lambda x: F.hardtanh(x, a["min_val"], a["max_val"])
    if name == "softplus":
        return lambda x: F.softplus(x, a["beta"], a["threshold"])
    if name == "elu":
        return lambda x: F.elu(x, a["alpha"])
    if name in REDUCTIONS:
        dim = tuple(a["dim"])
        return lambda x: REDUCTIONS[name](x, dim=dim, keepdim=a["keepdim"])
    if name == "softmax":
        return lambda x: F.softmax(x, dim=a["dim"])
    if name == "log_softmax":
        return lambda x: F.log_softmax(x, dim=a["dim"])
    if name == "flatten":
        return lambda x: torch.flatten(x, a["start_dim"])
    if name == "reshape":
        return lambda x: torch.reshape(x, a["shape"])
    raise AssertionError(f"no function for op {name}")


def _module(op):
    """The torch module of an op that has one (its parameters created now), else None."""
    name, a, x = op.name, op.args, op.shape_in
    if name == "linear":
        return nn.Linear(x[-1], a["out_features"], bias=a["bias"])
    if name in ("conv", "conv_transpose"):
        rank = len(a["kernel"])
        common = dict(stride=tuple(a["stride"]), padding=tuple(a["padding"]), dilation=tuple(a["dilation"]),
                      groups=a["groups"], bias=a["bias"])
        c = shapes.channels(x, rank, name)
        if name == "conv":
            return getattr(nn, f"Conv{rank}d")(c, a["out_channels"], tuple(a["kernel"]), **common)
        return getattr(nn, f"ConvTranspose{rank}d")(c, a["out_channels"], tuple(a["kernel"]),
                                                    output_padding=tuple(a["output_padding"]), **common)
    if name == "batch_norm":
        return getattr(nn, f"BatchNorm{shapes.norm_rank(x, name)}d")(x[1], eps=a["eps"], momentum=a["momentum"])
    if name == "instance_norm":
        rank = shapes.norm_rank(x, name)
        return getattr(nn, f"InstanceNorm{rank}d")(x[-rank - 1], eps=a["eps"], affine=a["affine"])
    if name == "group_norm":
        return nn.GroupNorm(a["num_groups"], x[1], eps=a["eps"])
    if name == "layer_norm":
        return nn.LayerNorm(a["normalized_shape"], eps=a["eps"])
    if name in POOLS:
        return getattr(nn, f"{POOLS[name]}{len(a['kernel'])}d")(tuple(a["kernel"]), stride=tuple(a["stride"]),
                                                                 padding=tuple(a["padding"]))
    if name == "adaptive_avg_pool":
        return getattr(nn, f"AdaptiveAvgPool{len(a['output_size'])}d")(tuple(a["output_size"]))
    return None


def _step(op):
    module = _module(op)
    if module is not None:
        return module
    if op.name == "matmul":
        return Binary(_matmul(op.args["transpose_self"], op.args["transpose_other"]), op.args["param"])
    if op.name in ops.BINARY and op.args["scalar"] is None:
        return Binary(BINARY[op.name], op.args["param"])
    return Unary(_unary_fn(op.name, op.args))


class Chain(nn.Module):
    """forward(*inputs) runs the ops on the first input; `other` operands come from the inputs (by name) and the
    values earlier ops saved."""

    def __init__(self, problem):
        super().__init__()
        self.input_names = [x.name for x in problem.inputs]
        self.steps = nn.ModuleList(_step(op) for op in problem.ops)
        self.links = [(op.args.get("other"), op.save) for op in problem.ops]

    def forward(self, *inputs):
        values = dict(zip(self.input_names, inputs))
        x = inputs[0]
        for step, (other, save) in zip(self.steps, self.links):
            x = step(x, values[other]) if other is not None else step(x)
            if save is not None:
                values[save] = x
        return x
