"""The family specs of examples/mskb/ as PyTorch calls: for each task, the arguments its exported function takes
(`ucutlass export --torch`: the tensors the caller passes, in declaration order, then the run-time scalars by name)
at a size large enough to be bandwidth-bound, the FP64 reference of what it computes, the PyTorch eager expression
a user would write instead, and the least bytes it must move (each input read once, the output written once).

Each entry: name -> (make(dtype, gen) -> (tensors, scalars), reference(tensors, scalars) -> FP64 tensor,
eager(tensors, scalars) -> tensor, tolerance kind). Sizes are fixed here, not chosen per kernel."""
import torch
import torch.nn.functional as F

MAP_N = 1 << 26          # 64 Mi elements: 256 MiB per FP32 tensor
ROWS, COLS = 16384, 4096  # matrices of 64 Mi elements
NORM_N = 1 << 20          # the 1-D norms (MSKB's layer_norm / rms_norm are one row)
DEVICE = "cuda"           # the CPU tests shrink the sizes and set "cpu" (the tables are read at call time)


def _rand(gen, shape, dtype, lo=-4.0, hi=4.0):
    return (torch.rand(shape, generator=gen, device=DEVICE, dtype=torch.float32) * (hi - lo) + lo).to(dtype)


def _map(fn, ref=None, scalars=None, lo=-4.0, hi=4.0):
    """A one-input map over n elements."""
    scalars = scalars or {}
    ref = ref or fn

    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype, lo, hi)], dict(scalars)

    return make, lambda t, s: ref(t[0].double(), **s), lambda t, s: fn(t[0], **s)


def _selu(x, alpha, lambda_):
    return lambda_ * (torch.clamp(x, min=0) + alpha * (torch.exp(torch.clamp(x, max=0)) - 1))


def _elu(x, alpha):
    return torch.clamp(x, min=0) + alpha * (torch.exp(torch.clamp(x, max=0)) - 1)


def _two(fn):
    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype), _rand(gen, (MAP_N,), dtype)], {}

    return make, lambda t, s: fn(t[0].double(), t[1].double()), lambda t, s: fn(t[0], t[1])


def _swiglu():
    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype), _rand(gen, (MAP_N,), dtype)], {"beta": 1.0}

    def fn(t, s):
        x, v = t
        return x * torch.sigmoid(s["beta"] * x) * v

    return make, lambda t, s: fn([x.double() for x in t], s), fn


def _silu_and_mul():
    def make(dtype, gen):
        return [_rand(gen, (ROWS, 2 * (COLS // 2)), dtype)], {}

    def fn(t, s):
        d = t[0].shape[1] // 2
        return F.silu(t[0][:, :d]) * t[0][:, d:]

    return make, lambda t, s: fn([t[0].double()], s), fn


def _hinge():
    def make(dtype, gen):
        targets = torch.randint(0, 2, (MAP_N,), generator=gen, device=DEVICE, dtype=torch.int32)
        return [_rand(gen, (MAP_N,), dtype), targets], {}

    def fn(t, s):
        y = t[1].to(t[0].dtype) * 2 - 1
        return torch.clamp(1 - y * t[0], min=0)

    return make, lambda t, s: fn([t[0].double(), t[1]], s), fn


def _matrix(fn, scalars=None):
    def make(dtype, gen):
        return [_rand(gen, (ROWS, COLS), dtype)], dict(scalars or {})

    return make, lambda t, s: fn(t[0].double(), **s), lambda t, s: fn(t[0], **s)


def _reduce2(fn, lo=-4.0, hi=4.0, lo2=-4.0, hi2=4.0):
    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype, lo, hi), _rand(gen, (MAP_N,), dtype, lo2, hi2)], {}

    return make, lambda t, s: fn(t[0].double(), t[1].double()).reshape(1), lambda t, s: fn(t[0], t[1]).reshape(1)


def _integral(weights):
    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype, 0.0, 1.0)], {"a": 0.0, "b": 2.0}

    def fn(t, s):
        y = t[0]
        if weights == "mean":
            return ((s["b"] - s["a"]) * y.mean()).reshape(1)
        n = y.numel()
        w = torch.ones(n, dtype=y.dtype, device=y.device)
        last = n - 1 if n % 2 else n - 2  # Simpson's over the first n - 1 points when n is even
        w[1:last:2] = 4
        w[2:last - 1:2] = 2
        w[last + 1:] = 0
        return ((s["b"] - s["a"]) / (n - 1) / 3 * (w * y).sum()).reshape(1)

    return make, lambda t, s: fn([t[0].double()], s), fn


def _matvec():
    def make(dtype, gen):
        return [_rand(gen, (ROWS, COLS), dtype), _rand(gen, (COLS,), dtype)], {}

    return make, lambda t, s: t[0].double() @ t[1].double(), lambda t, s: t[0] @ t[1]


def _norm1d(kind):
    def make(dtype, gen):
        return [_rand(gen, (NORM_N,), dtype), _rand(gen, (NORM_N,), dtype), _rand(gen, (NORM_N,), dtype)], \
            {"epsilon": 1e-5}

    def fn(t, s):
        x, w, b = t
        if kind == "layer":
            return F.layer_norm(x, (x.numel(),), w, b, s["epsilon"])
        return x * torch.rsqrt((x * x).mean() + s["epsilon"]) * w + b

    return make, lambda t, s: fn([x.double() for x in t], s), fn


def _batch_norm():
    def make(dtype, gen):
        return [_rand(gen, (ROWS, COLS), dtype), _rand(gen, (COLS,), dtype), _rand(gen, (COLS,), dtype)], \
            {"epsilon": 1e-5}

    def fn(t, s):
        x, g, b = t
        return F.batch_norm(x, None, None, g, b, training=True, eps=s["epsilon"])

    return make, lambda t, s: fn([x.double() for x in t], s), fn


ROPE_ROWS = 128  # MSKB's positions: rope's M goes up to 128 (f32 angles stay within 1e-5 of exact there)


def _rope():
    """Rotary embedding of [positions, D]: pairs (2p, 2p + 1) of row m turned by m · base^(-2p/D), as a user writes
    it in PyTorch (angles in f32, or in f64 for the reference)."""
    def make(dtype, gen):
        cols = max(2, MAP_N // ROPE_ROWS // 2 * 2)
        return [_rand(gen, (ROPE_ROWS, cols), dtype, -1.0, 1.0)], {"base": 10000.0}

    def fn(t, s):
        x = t[0]
        m, d = x.shape
        dt = torch.float64 if x.dtype == torch.float64 else torch.float32
        inv = s["base"] ** (-torch.arange(0, d, 2, device=x.device, dtype=dt) / d)
        angle = torch.arange(m, device=x.device, dtype=dt)[:, None] * inv[None, :]
        c, sn = torch.cos(angle), torch.sin(angle)
        xf = x.to(dt)
        x0, x1 = xf[:, 0::2], xf[:, 1::2]
        return torch.stack((x0 * c - x1 * sn, x0 * sn + x1 * c), -1).reshape(m, d).to(x.dtype)

    return make, lambda t, s: fn([t[0].double()], s), fn


def _scan():
    def make(dtype, gen):
        return [_rand(gen, (MAP_N,), dtype, 0.0, 1.0)], {}

    return make, lambda t, s: torch.cumsum(t[0].double(), 0), lambda t, s: torch.cumsum(t[0], 0)


TASKS = {
    "RELU": _map(torch.relu),
    "leaky_RELU": _map(lambda x, alpha: F.leaky_relu(x, alpha), scalars={"alpha": 0.01}),
    "elu": _map(_elu, scalars={"alpha": 1.0}),
    "selu": _map(_selu, scalars={"alpha": 1.6732632423543772, "lambda_": 1.0507009873554805}),
    "gelu": _map(lambda x: F.gelu(x)),
    "sigmoid": _map(torch.sigmoid),
    "row_tanh": _map(torch.tanh),
    "vector_add": _two(torch.add),
    "matrix_scalar_mul": _matrix(lambda a, scalar: a * scalar, {"scalar": 1.5}),
    "matrix_copy": _matrix(lambda a: a.clone()),
    "matrix_transpose": _matrix(lambda a: a.t().contiguous().t()),  # the same matrix, stored column-major
    "reverse_array": _map(lambda x: torch.flip(x, (0,))),
    "SwiGLU": _swiglu(),
    "silu_and_mul": _silu_and_mul(),
    "hinge_loss": _hinge(),
    "dot_product": _reduce2(lambda x, y: torch.dot(x, y)),
    "MSE_loss": _reduce2(lambda x, y: F.mse_loss(x, y)),
    "cross_entropy_loss": _reduce2(lambda x, y: (-(y * torch.log(torch.clamp(x, min=1e-8)))).sum(), 0.0, 1.0, 0.0,
                                   1.0),
    "monte_carlo_int": _integral("mean"),
    "simpson_int": _integral("simpson"),
    "matrix_vector_mul": _matvec(),
    "softmax": _matrix(lambda x: torch.softmax(x, -1)),
    "layer_norm": _norm1d("layer"),
    "rms_norm": _norm1d("rms"),
    "batch_norm": _batch_norm(),
    "prefix_sum": _scan(),
    "rope": _rope(),
}


def least_bytes(tensors, out):
    """Each input read once and the output written once."""
    return sum(t.numel() * t.element_size() for t in tensors) + out.numel() * out.element_size()


def tolerance(dtype):
    """The largest rel_error accepted: FP32 accumulation (FP32), or the output's rounding to bf16 (BF16)."""
    return 2e-2 if dtype == torch.bfloat16 else 1e-4


def rel_error(got, want):
    """max |got - want| / max(1, max |want|): one number per output."""
    return (got.double() - want).abs().max().item() / max(1.0, want.abs().max().item())

