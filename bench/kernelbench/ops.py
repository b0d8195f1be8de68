"""The ops of a suite problem file's chain (docs/suites.md, `[[op]]`): for each op, the keys it takes, their kinds
and defaults, and which operand rule applies. One table; suite.py validates against it, shapes.py and chain.py
dispatch on the op's name. Pure Python."""

REQUIRED = "required"


class Key:
    """One key of an op: `kind` says what the file may give (see KINDS), `default` what an absent key means
    (REQUIRED: the key must be present; None: absent stays absent), `minimum` the least value of an int or of each
    int of a list."""

    def __init__(self, kind, default=None, minimum=None):
        self.kind, self.default, self.minimum = kind, default, minimum


# number: an int or a float; int; bool; text; name: an input's or a saved value's name; shape: a list of ints (a
# `param`'s shape, possibly empty); ints: an int or a non-empty list of them; rank: a list of 1-3 ints whose length
# is the op's spatial rank; spatial: an int or a list with one int per spatial dim (the op's rank); dims: an int or
# a non-empty list of ints (dimensions, negative counting from the end); extents: a non-empty list of ints (a
# reshape's target, one of them may be -1).
KINDS = ("number", "int", "bool", "text", "name", "shape", "ints", "rank", "spatial", "dims", "extents")

UNARY = ("relu", "sigmoid", "tanh", "silu", "mish", "hardswish", "hardsigmoid", "selu", "exp", "triu", "tril")
BINARY = ("add", "sub", "mul", "div")
REDUCTIONS = ("sum", "mean", "amax", "amin", "logsumexp")

_CONV = {"out_channels": Key("int", REQUIRED, 1), "kernel": Key("rank", REQUIRED, 1),
         "stride": Key("spatial", 1, 1), "padding": Key("spatial", 0, 0), "dilation": Key("spatial", 1, 1),
         "groups": Key("int", 1, 1), "bias": Key("bool", True)}
_POOL = {"kernel": Key("rank", REQUIRED, 1), "stride": Key("spatial", None, 1), "padding": Key("spatial", 0, 0)}

OPS = {
    "matmul": {"other": Key("name"), "param": Key("shape", None, 1), "transpose_self": Key("bool", False),
               "transpose_other": Key("bool", False)},
    "linear": {"out_features": Key("int", REQUIRED, 1), "bias": Key("bool", True)},
    "conv": _CONV,
    "conv_transpose": {**_CONV, "output_padding": Key("spatial", 0, 0)},
    **{op: {"scalar": Key("number"), "other": Key("name"), "param": Key("shape", None, 1)} for op in BINARY},
    "minimum": {"scalar": Key("number", REQUIRED)},
    "maximum": {"scalar": Key("number", REQUIRED)},
    "clamp": {"min": Key("number"), "max": Key("number")},
    **{op: {} for op in UNARY},
    "gelu": {"approximate": Key("text", "none")},
    "leaky_relu": {"negative_slope": Key("number", 0.01)},
    "hardtanh": {"min_val": Key("number", -1.0), "max_val": Key("number", 1.0)},
    "softplus": {"beta": Key("number", 1.0), "threshold": Key("number", 20.0)},
    "elu": {"alpha": Key("number", 1.0)},
    **{op: {"dim": Key("dims", REQUIRED), "keepdim": Key("bool", False)} for op in REDUCTIONS},
    "softmax": {"dim": Key("int", REQUIRED)},
    "log_softmax": {"dim": Key("int", REQUIRED)},
    "batch_norm": {"eps": Key("number", 1e-5), "momentum": Key("number", 0.1)},
    "group_norm": {"num_groups": Key("int", REQUIRED, 1), "eps": Key("number", 1e-5)},
    "instance_norm": {"eps": Key("number", 1e-5), "affine": Key("bool", False)},
    "layer_norm": {"normalized_shape": Key("ints", REQUIRED, 1), "eps": Key("number", 1e-5)},
    "max_pool": _POOL,
    "avg_pool": _POOL,
    "adaptive_avg_pool": {"output_size": Key("rank", REQUIRED, 1)},
    "flatten": {"start_dim": Key("int", 1)},
    "reshape": {"shape": Key("extents", REQUIRED)},
}

# Keys every op may have besides its own.
COMMON_KEYS = ("op", "save")

# Which of an op's operand keys must be given: exactly one of them, or at least one.
EXACTLY_ONE = {**{op: ("scalar", "other", "param") for op in BINARY}, "matmul": ("other", "param")}
AT_LEAST_ONE = {"clamp": ("min", "max")}

# Text keys with a fixed set of values.
CHOICES = {("gelu", "approximate"): ("none", "tanh")}
