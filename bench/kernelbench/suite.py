"""Suite problem files (docs/suites.md) for the PyTorch side. `ucutlass suite check` is the one parser, validator
and shape inferrer of these files: `load_problems(paths, ucutlass)` runs `ucutlass suite check --json PATHS...` once
and makes a Problem of each file from its answer (each op with the keys the file gives and the shapes it takes and
makes); a file with diagnostics stops the load with the tool's own text (rule ids, file, line and column).
`build_module(problem)` makes the chain an nn.Module (chain.py) and `make_inputs(problem, ...)` its inputs.
Loading needs no torch; the last two import it when called."""
import dataclasses
import json
import os
import shlex
import shutil
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The order of `[kernelbench]`'s keys in docs/suites.md and the files; result entries keep it.
KERNELBENCH_ORDER = ("level", "id", "file", "gflop", "min_bytes", "eager_ms_h200_audit")


class ProblemError(Exception):
    pass


@dataclasses.dataclass
class Input:
    name: str
    shape: list
    init: str


@dataclasses.dataclass
class Op:
    """One op of the chain: `attrs` holds the keys the file gives (values as the file writes them, an integral
    number as an int), `shape_in` / `shape_out` the running value's shapes around it, as the tool inferred them."""
    index: int
    name: str
    attrs: dict
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
    output_shape: list
    flops: float
    min_bytes: float
    sol_seconds: dict


def default_ucutlass():
    """The ucutlass binary when --ucutlass is not given: $UCUTLASS, else `ucutlass` on PATH, else the repository's
    build/ucutlass."""
    return os.environ.get("UCUTLASS") or shutil.which("ucutlass") or os.path.join(ROOT, "build", "ucutlass")


def add_ucutlass_option(parser):
    parser.add_argument("--ucutlass", default=None,
                        help="the ucutlass binary that checks the problem files (default: $UCUTLASS, else ucutlass "
                             "on PATH, else build/ucutlass)")


def problem_from_json(d):
    """A Problem from one entry of `ucutlass suite check --json`'s "problems"."""
    kb = d.get("kernelbench")
    if kb is not None:
        order = {k: i for i, k in enumerate(KERNELBENCH_ORDER)}
        kb = {k: kb[k] for k in sorted(kb, key=lambda k: order.get(k, len(order)))}
    ops = [Op(i, o["op"], o["attrs"], o.get("save"), o["shape_in"], o["shape_out"]) for i, o in enumerate(d["ops"])]
    return Problem(path=os.path.normpath(d["path"]), stem=d["problem"], title=d["title"], family=d["family"],
                   precision=d["precision"], tolerance=d["tolerance"], weak_check=d["weak_check"], note=d["note"],
                   kernelbench=kb, inputs=[Input(x["name"], x["shape"], x["init"]) for x in d["inputs"]], ops=ops,
                   output_shape=d["output_shape"], flops=d["flops"], min_bytes=d["min_bytes"],
                   sol_seconds=d["sol_seconds"])


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise ProblemError(f"cannot run {cmd[0]}: {e.strerror}; pass --ucutlass PATH or set UCUTLASS") from None


def load_problems(paths, ucutlass=None):
    """The problems of the files under `paths` (files, or folders searched recursively for *.toml), checked by
    `ucutlass suite check --json` in one run, sorted by file name. Raises ProblemError with the tool's diagnostics
    (its text form, run again on the files that failed) when any file has them, or when two files share a name (a
    problem's name is its id in reports)."""
    exe = ucutlass or default_ucutlass()
    cmd = [exe, "suite", "check", "--json", *paths]
    r = _run(cmd)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        report = None
    if r.returncode != 0 or report is None or report.get("failed"):
        failed = [f["path"] for f in report["failed"]] if report else []
        text = r.stderr
        if failed:
            text += _run([exe, "suite", "check", *failed]).stderr
            text += f"{len(failed)} problem file(s) have errors (above)\n"
        raise ProblemError(f"`{shlex.join(cmd)}` failed (exit code {r.returncode}):\n{text.rstrip()}")
    problems = sorted((problem_from_json(d) for d in report["problems"]),
                      key=lambda p: (os.path.basename(p.path), p.path))
    for a, b in zip(problems, problems[1:]):
        if a.stem == b.stem:
            same = [p.path for p in problems if p.stem == a.stem]
            raise ProblemError(f"two problem files are named {a.stem}: {same}")
    return problems


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
    `dtype` (default: the problem's precision). `init` (docs/suites.md): rand, randn, and rand_triu, rand_tril,
    rand_symmetric of a rand matrix."""
    import torch
    after_fill = {"rand": None, "randn": None, "rand_triu": torch.triu, "rand_tril": torch.tril,
                "rand_symmetric": lambda t: (t + t.mT) / 2}
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    out = []
    for x in problem.inputs:
        if x.init not in after_fill:
            raise ProblemError(f"{problem.path}: input {x.name}: suite.make_inputs has no `init = \"{x.init}\"`")
        fill = torch.randn if x.init == "randn" else torch.rand
        t = fill(x.shape, generator=g, device=device, dtype=torch.float32)
        if after_fill[x.init] is not None:
            t = after_fill[x.init](t)
        out.append(t.to(dtype or torch_dtype(problem.precision)))
    return out
