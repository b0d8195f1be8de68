"""Suite problem files (docs/suites.md) for the PyTorch side: `load_problem(path)` reads and validates one file into
a Problem (every key checked against ops.py, the chain's shapes inferred by shapes.py; a mistake raises ProblemError
naming the file and the op, counted from 1), `find_problems(paths)` collects files from files and folders,
`build_module(problem)` makes the chain an nn.Module (chain.py) and `make_inputs(problem, ...)` its inputs.
Loading needs no torch; the last two import it when called."""
import dataclasses
import glob
import os
import tomllib

import ops
import shapes

FAMILIES = ("gemm", "batched_gemm", "conv", "conv_transpose", "depthwise_conv", "grouped_conv", "pipeline")
PRECISIONS = ("f32", "f16", "bf16")
DEFAULT_TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 1e-2}
INITS = ("rand", "randn", "rand_triu", "rand_tril", "rand_symmetric")
WEAK_CHECKS = ("zeros_pass_1e-4", "zeros_pass_1e-2", "input_independent_1e-4", "input_independent_1e-2",
               "algebraic", "constant_output")
TOP_KEYS = ("title", "family", "precision", "tolerance", "weak_check", "note", "kernelbench", "input", "op")
KERNELBENCH_KEYS = {"level": "int", "id": "int", "file": "text", "gflop": "number", "min_bytes": "number",
                    "eager_ms_h200_audit": "number"}
INPUT_KEYS = ("name", "shape", "init")


class ProblemError(Exception):
    pass


@dataclasses.dataclass
class Input:
    name: str
    shape: list
    init: str = "rand"


@dataclasses.dataclass
class Op:
    """One op of the chain: `args` holds every key of the op's table with defaults filled in and spatial keys
    expanded to one value per spatial dim; `shape_in` / `shape_out` are the running value's shapes around it."""
    index: int
    name: str
    args: dict
    save: str = None
    shape_in: list = None
    shape_out: list = None

    def where(self):
        return f"op {self.index + 1} ({self.name})"


@dataclasses.dataclass
class Problem:
    path: str
    stem: str
    title: str
    family: str
    precision: str
    tolerance: float
    weak_check: list
    note: str
    kernelbench: dict
    inputs: list
    ops: list

    @property
    def output_shape(self):
        return self.ops[-1].shape_out


def _value(kind, v, what, minimum=None):
    """The value v of a key of `kind` (ops.KINDS), checked; raises ValueError with what is wrong."""
    def is_int(u):
        return isinstance(u, int) and not isinstance(u, bool)

    if v is None:
        raise ValueError(f"missing key {what}")
    def int_list(u, allow_empty):
        if not isinstance(u, list) or not all(is_int(n) for n in u) or (not u and not allow_empty):
            raise ValueError(f"{what} must be a {'' if allow_empty else 'non-empty '}list of integers, got {u!r}")
        if minimum is not None and any(n < minimum for n in u):
            raise ValueError(f"{what} must have every entry >= {minimum}, got {u!r}")
        return list(u)

    if kind == "number":
        if not is_int(v) and not isinstance(v, float):
            raise ValueError(f"{what} must be a number, got {v!r}")
        return float(v)
    if kind in ("int", "spatial", "ints", "dims") and is_int(v):
        if minimum is not None and v < minimum:
            raise ValueError(f"{what} must be >= {minimum}, got {v}")
        return [v] if kind in ("ints", "dims") else v
    if kind == "int":
        raise ValueError(f"{what} must be an integer, got {v!r}")
    if kind == "bool":
        if not isinstance(v, bool):
            raise ValueError(f"{what} must be true or false, got {v!r}")
        return v
    if kind in ("text", "name"):
        if not isinstance(v, str) or not v:
            raise ValueError(f"{what} must be a non-empty string, got {v!r}")
        return v
    if kind == "rank":
        u = int_list(v, False)
        if len(u) > 3:
            raise ValueError(f"{what} must have 1 to 3 entries (the spatial rank), got {u!r}")
        return u
    return int_list(v, kind == "shape")  # shape, spatial, ints, dims or extents as a list


def _op(raw, index, names, path):
    """Validates the index-th [[op]] table; `names` maps the input and saved names defined so far to their shapes."""
    if not isinstance(raw, dict) or not isinstance(raw.get("op"), str):
        raise ProblemError(f"{path}: op {index + 1}: missing `op = \"name\"`")
    name = raw["op"]
    if name not in ops.OPS:
        raise ProblemError(f"{path}: op {index + 1} ({name}): unknown op; known: {', '.join(sorted(ops.OPS))}")
    table = ops.OPS[name]
    op = Op(index, name, {})
    for key in raw:
        if key not in table and key not in ops.COMMON_KEYS:
            raise ProblemError(f"{path}: {op.where()}: unknown key `{key}`; it takes "
                               f"{', '.join(f'`{k}`' for k in table) or 'no keys'} and `save`")
    try:
        for key, spec in table.items():
            if key in raw:
                op.args[key] = _value(spec.kind, raw[key], f"`{key}`", spec.minimum)
            elif spec.default == ops.REQUIRED:
                raise ValueError(f"missing key `{key}`")
            else:
                op.args[key] = spec.default
            if (name, key) in ops.CHOICES:
                choices = ops.CHOICES[(name, key)]
                if op.args[key] not in choices:
                    raise ValueError(f"`{key}` must be one of {', '.join(choices)}, got {op.args[key]!r}")
        if "save" in raw:
            op.save = _value("name", raw["save"], "`save`")
        given = [k for k in ops.EXACTLY_ONE.get(name, ()) if k in raw]
        if name in ops.EXACTLY_ONE and len(given) != 1:
            raise ValueError(f"takes exactly one of {', '.join(f'`{k}`' for k in ops.EXACTLY_ONE[name])}, "
                             f"got {len(given)}")
        if name in ops.AT_LEAST_ONE and not any(k in raw for k in ops.AT_LEAST_ONE[name]):
            raise ValueError(f"needs at least one of {', '.join(f'`{k}`' for k in ops.AT_LEAST_ONE[name])}")
        if op.args.get("other") is not None and op.args["other"] not in names:
            raise ValueError(f"`other = \"{op.args['other']}\"` names no input or earlier `save`; "
                             f"known: {', '.join(names)}")
        if "kernel" in table:
            _expand_spatial(op, table)
    except ValueError as e:
        raise ProblemError(f"{path}: {op.where()}: {e}") from None
    return op


def _expand_spatial(op, table):
    """Spatial keys as one value per spatial dim; a pool's stride defaults to its kernel."""
    rank = len(op.args["kernel"])
    for key, spec in table.items():
        if spec.kind != "spatial":
            continue
        v = op.args[key]
        if v is None:
            v = op.args["kernel"]
        if isinstance(v, int):
            v = [v] * rank
        if len(v) != rank:
            raise ValueError(f"`{key}` has {len(v)} entries but the kernel has {rank} spatial dims")
        op.args[key] = v


def _inputs(raw, path):
    if not isinstance(raw, list) or not raw:
        raise ProblemError(f"{path}: needs at least one [[input]]")
    inputs = []
    for i, t in enumerate(raw):
        where = f"{path}: input {i + 1}"
        unknown = [k for k in t if k not in INPUT_KEYS]
        if unknown:
            raise ProblemError(f"{where}: unknown key `{unknown[0]}`; an input takes `name`, `shape` and `init`")
        try:
            name = _value("name", t.get("name"), "`name`")
            shape = _value("ints", t.get("shape"), "`shape`", 1)
            init = t.get("init", "rand")
            if init not in INITS:
                raise ValueError(f"`init` must be one of {', '.join(INITS)}, got {init!r}")
            if init != "rand" and init != "randn" and (len(shape) < 2 or (init == "rand_symmetric"
                                                                          and shape[-1] != shape[-2])):
                raise ValueError(f"`init = \"{init}\"` needs a {'square ' if init == 'rand_symmetric' else ''}"
                                 f"matrix (at least 2 dims), got shape {shape}")
        except ValueError as e:
            raise ProblemError(f"{where}: {e}") from None
        if any(x.name == name for x in inputs):
            raise ProblemError(f"{where}: a second input named `{name}`")
        inputs.append(Input(name, shape, init))
    return inputs


def _kernelbench(raw, path):
    if raw is None:
        return None
    out = {}
    for key, v in raw.items():
        if key not in KERNELBENCH_KEYS:
            raise ProblemError(f"{path}: [kernelbench]: unknown key `{key}`; it takes "
                               f"{', '.join(f'`{k}`' for k in KERNELBENCH_KEYS)}")
        try:
            out[key] = _value(KERNELBENCH_KEYS[key], v, f"`{key}`")
        except ValueError as e:
            raise ProblemError(f"{path}: [kernelbench]: {e}") from None
    for key in ("level", "id", "file"):
        if key not in out:
            raise ProblemError(f"{path}: [kernelbench]: missing key `{key}`")
    return out


def _top(raw, path):
    """The top-level keys, checked; returns (title, family, precision, tolerance, weak_check, note)."""
    for key in raw:
        if key not in TOP_KEYS:
            raise ProblemError(f"{path}: unknown top-level key `{key}`; the format has {', '.join(TOP_KEYS)}")
    try:
        title = _value("text", raw.get("title"), "`title`")
        family = raw.get("family")
        if family not in FAMILIES:
            raise ValueError(f"`family` must be one of {', '.join(FAMILIES)}, got {family!r}")
        precision = raw.get("precision", "f32")
        if precision not in PRECISIONS:
            raise ValueError(f"`precision` must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        tolerance = raw.get("tolerance", DEFAULT_TOLERANCE[precision])
        tolerance = _value("number", tolerance, "`tolerance`")
        if tolerance <= 0:
            raise ValueError(f"`tolerance` must be positive, got {tolerance}")
        weak = raw.get("weak_check", [])
        if not isinstance(weak, list) or any(w not in WEAK_CHECKS for w in weak):
            raise ValueError(f"`weak_check` must be a list of {', '.join(WEAK_CHECKS)}, got {weak!r}")
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise ValueError(f"`note` must be a string, got {note!r}")
    except ValueError as e:
        raise ProblemError(f"{path}: {e}") from None
    return title, family, precision, tolerance, list(weak), note


def load_problem(path):
    """Reads, validates and shape-checks one problem file."""
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ProblemError(f"{path}: not valid TOML: {e}") from None
    title, family, precision, tolerance, weak, note = _top(raw, path)
    kernelbench = _kernelbench(raw.get("kernelbench"), path)
    inputs = _inputs(raw.get("input"), path)
    raw_ops = raw.get("op")
    if not isinstance(raw_ops, list) or not raw_ops:
        raise ProblemError(f"{path}: needs at least one [[op]]")
    names = {x.name: x.shape for x in inputs}
    x, chain = inputs[0].shape, []
    for i, t in enumerate(raw_ops):
        op = _op(t, i, names, path)
        other = op.args.get("other")
        try:
            op.shape_in, op.shape_out = list(x), shapes.infer(op, x, names[other] if other else None)
        except shapes.ShapeError as e:
            raise ProblemError(f"{path}: {op.where()}: on a value of shape {list(x)}: {e}") from None
        x = op.shape_out
        if op.save:
            names[op.save] = x
        chain.append(op)
    stem = os.path.splitext(os.path.basename(path))[0]
    return Problem(path, stem, title, family, precision, tolerance, weak, note, kernelbench, inputs, chain)


def find_problems(paths):
    """The problem files among `paths` (files, or folders searched recursively for *.toml), sorted by file name;
    raises ProblemError when two files share a name (the name is a problem's id in reports)."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += glob.glob(os.path.join(p, "**", "*.toml"), recursive=True)
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise ProblemError(f"{p}: no such file or folder")
    files = sorted(set(os.path.normpath(f) for f in files), key=lambda f: (os.path.basename(f), f))
    stems = [os.path.basename(f) for f in files]
    for a, b in zip(stems, stems[1:]):
        if a == b:
            raise ProblemError(f"two problem files are named {a}: {[f for f in files if f.endswith(os.sep + a)]}")
    return files


def torch_dtype(precision):
    import torch
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[precision]


def build_module(problem):
    """The chain as an nn.Module in float32 on the default device, its parameters created in chain order (seed
    torch before calling it to get KernelBench's weights); the caller moves it (`.to(device, dtype)`)."""
    import chain
    return chain.Chain(problem)


def make_inputs(problem, seed=42, device="cuda", dtype=None):
    """The problem's inputs, generated on `device` in float32 from a generator seeded with `seed`, then cast to
    `dtype` (default: the problem's precision)."""
    import torch
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    out = []
    for x in problem.inputs:
        fill = torch.randn if x.init == "randn" else torch.rand
        t = fill(x.shape, generator=g, device=device, dtype=torch.float32)
        if x.init == "rand_triu":
            t = torch.triu(t)
        elif x.init == "rand_tril":
            t = torch.tril(t)
        elif x.init == "rand_symmetric":
            t = (t + t.mT) / 2
        out.append(t.to(dtype or torch_dtype(problem.precision)))
    return out
