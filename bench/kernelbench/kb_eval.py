#!/usr/bin/env python3
"""Our kernels through KernelBench's own evaluation. For each (suite problem, spec) pair — by default every
bench/kernelbench/impl/<problem>.ucut with its suites/kernelbench/level*/<problem>.toml — `ucutlass export
--kernelbench` writes the ModelNew source (OUT/sources/<problem>.py), then KernelBench's `build_compile_cache`
compiles it and its `eval_kernel_against_ref` checks it against the reference Model (the problem file's
`[kernelbench]` source in the checkout) and times both. KernelBench's code is imported at run time from the checkout
that --kernelbench names (its src/kernelbench), never copied here.

Each stage of a problem runs in its own process with a timeout, so a compile failure, a crash or a hang costs that
problem only: compiles run --jobs at a time (CPU only), evaluations one at a time (they time the GPU). Each problem's
entry goes to OUT/problems/<problem>.json as soon as it is done; at the end OUT/kb_eval.json (environment, command,
date, every entry) and OUT/kb_eval.md (a table: compiled, correct, runtime, reference runtime, speedup).

Each evaluation gives two verdicts (kb_protocol.py) from one eval_kernel_against_ref: the paper's protocol
(KernelBench's float32 tolerance patched to 1e-2 in the imported module; the eval also times both models, and its
ref_runtime / runtime is the speedup) and KernelBench's default (1e-4 for float32: its own comparison at that
tolerance, made on the same outputs). Beside KernelBench's times, in the same process on the same inputs:
torch.compile of the reference timed by KernelBench's own timing function, and --interleave ROUNDS rounds of eager,
ours and compiled, each call timed KernelBench's way; --no-compile leaves torch.compile out of both (it costs a
compile per problem).
With --impl (the default pairs), every problem of --suite is in the report: a problem without a spec is a failure,
listed (kb_headline.py scores over them all).

KernelBench's package imports modules that evaluation never calls (the LLM clients openai and litellm, python-dotenv,
requests, tqdm) and pydantic for its result record; where one is not installed, a small stand-in takes its place
and the report lists it.

  kb_eval.py --kernelbench KERNELBENCH-CHECKOUT --out OUT [--ucutlass build/ucutlass] [--jobs 8] [--skip-done]
             [--time-limit 420] [--only L1_,L2_012] [--impl DIR] [--suite suites/kernelbench]
             [--pair PROBLEM.toml=SPEC.ucut ...] [--no-compile] [--interleave ROUNDS]
  kb_eval.py --out OUT --report-only          (rewrite kb_eval.json/.md from the entries)"""
import argparse
import concurrent.futures
import copy
import importlib.util
import inspect
import json
import os
import shlex
import subprocess
import sys
import time
import types

import kb_headline
import kb_protocol
import results
import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_IMPL = os.path.join(HERE, "impl")
DEFAULT_SUITE = os.path.join(suite.ROOT, "suites", "kernelbench")
PRECISIONS = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}
PRECISION_NAMES = {"f32": "fp32", "f16": "fp16"}  # the report's names (bf16, tf32, tf32x3 as ucutlass writes them)


class KbEvalError(Exception):
    pass


# ---- pairs ----------------------------------------------------------------------------------------------------

def suite_files(suite_dir):
    """{stem: path} of every problem file under `suite_dir`."""
    problems = {}
    for root, _, files in os.walk(suite_dir):
        for f in files:
            if f.endswith(".toml"):
                problems[f[:-5]] = os.path.join(root, f)
    return problems


def impl_specs(impl_dir):
    """{stem: spec} of `impl_dir`: every <stem>.ucut in it, and every <stem>/<stem>.ucut (the case layout that
    `pipelines.py prepare` writes under OUT/cases: a pipeline problem's generated spec)."""
    specs = {}
    for f in sorted(os.listdir(impl_dir)):
        path = os.path.join(impl_dir, f)
        if f.endswith(".ucut") and os.path.isfile(path):
            specs[f[:-5]] = path
        elif os.path.isfile(os.path.join(path, f + ".ucut")):
            specs[f] = os.path.join(path, f + ".ucut")
    return specs


def default_pairs(impl_dir, suite_dir):
    """(problem file, spec) for every spec of impl_specs(impl_dir), its problem the suite file of the same stem."""
    problems = suite_files(suite_dir)
    pairs = []
    for stem, spec in sorted(impl_specs(impl_dir).items()):
        if stem not in problems:
            raise KbEvalError(f"{spec}: no suite problem {stem}.toml under {suite_dir}")
        pairs.append((problems[stem], spec))
    return pairs


def parse_pair(text):
    problem, sep, spec = text.partition("=")
    if not sep or not problem or not spec:
        raise KbEvalError(f"--pair takes PROBLEM.toml=SPEC.ucut, got {text!r}")
    return problem, spec


def select(pairs, only):
    """The pairs whose problem file name contains one of the comma-separated `only` parts (all when empty)."""
    parts = [p for p in only.split(",") if p]
    return [x for x in pairs if not parts or any(p in os.path.basename(x[0]) for p in parts)]


def reference_source(kernelbench, problem):
    """KernelBench's own source of the problem (`[kernelbench]` level and file) in the checkout."""
    kb = problem.kernelbench
    if not kb:
        raise KbEvalError(f"{problem.path}: no [kernelbench] section names the reference problem")
    path = os.path.join(kernelbench, "KernelBench", f"level{kb['level']}", kb["file"])
    if not os.path.isfile(path):
        raise KbEvalError(f"{path}: not in the KernelBench checkout (--kernelbench names the checkout's root, "
                          "which holds KernelBench/level1..3 and src/kernelbench)")
    return path


# ---- KernelBench, imported from the checkout ------------------------------------------------------------------

def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__ucut_stand_in__ = True
    return m


class _BaseModel:
    """pydantic's BaseModel as far as KernelBench's result record uses it: annotated fields, each starting from a
    copy of its class default, set by keyword; model_dump() gives them as a dict."""

    def __init__(self, **values):
        for name in self._fields():
            setattr(self, name, copy.deepcopy(getattr(type(self), name, None)))
        for name, value in values.items():
            setattr(self, name, value)

    @classmethod
    def _fields(cls):
        names = []
        for klass in reversed(cls.__mro__):
            names += [n for n in getattr(klass, "__annotations__", {}) if n not in names]
        return names

    def model_dump(self):
        return {name: getattr(self, name) for name in self._fields()}


def _unavailable(what):
    def fail(*args, **kwargs):
        raise RuntimeError(f"{what} is a kb_eval.py stand-in: evaluation does not call it")
    return fail


STAND_INS = {
    "dotenv": lambda: _module("dotenv", load_dotenv=lambda *a, **k: False),
    "openai": lambda: _module("openai", OpenAI=_unavailable("openai.OpenAI")),
    "litellm": lambda: _module("litellm", completion=_unavailable("litellm.completion")),
    "pydantic": lambda: _module("pydantic", BaseModel=_BaseModel),
    "requests": lambda: _module("requests", get=_unavailable("requests.get"), post=_unavailable("requests.post")),
    "tqdm": lambda: _module("tqdm", tqdm=_unavailable("tqdm.tqdm")),
}


def install_stand_ins(stand_ins=None, find=None):
    """Puts a stand-in into sys.modules for each module of `stand_ins` that `find` (importlib's find_spec) cannot
    find; returns their names."""
    find = find or importlib.util.find_spec
    installed = []
    for name, make in (stand_ins or STAND_INS).items():
        if name not in sys.modules and find(name) is None:
            sys.modules[name] = make()
            installed.append(name)
    return installed


def import_kernelbench(checkout):
    """KernelBench's eval module from `checkout`/src/kernelbench, and the stand-ins it needed."""
    src = os.path.join(checkout, "src")
    if not os.path.isfile(os.path.join(src, "kernelbench", "eval.py")):
        raise KbEvalError(f"{checkout}: no src/kernelbench/eval.py; --kernelbench names a KernelBench checkout "
                          "(KERNELBENCH=1 scripts/device/carry.sh packs one in .carry/kernelbench)")
    sys.path.insert(0, src)
    stand_ins = install_stand_ins()
    eval_module = importlib.import_module("kernelbench.eval")
    return eval_module, stand_ins


def call_supported(fn, **kwargs):
    """fn(**kwargs) without the keywords its signature lacks (KernelBench's evolve); returns (result, dropped)."""
    params = inspect.signature(fn).parameters
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return fn(**kwargs), []
    dropped = sorted(k for k in kwargs if k not in params)
    return fn(**{k: v for k, v in kwargs.items() if k in params}), dropped


def checkout_commit(checkout):
    """The checkout's commit: its COMMIT file (carry.sh writes one), else git's HEAD, else None."""
    try:
        with open(os.path.join(checkout, "COMMIT")) as f:
            return f.read().strip()
    except OSError:
        pass
    r = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


# ---- workers (one process per stage and problem) --------------------------------------------------------------

def _plain(value):
    """A JSON-safe copy: exceptions and other objects as text."""
    return json.loads(json.dumps(value, default=str))


def _result_dict(result):
    if result is None:
        return None
    for method in ("model_dump", "dict"):
        if hasattr(result, method):
            return _plain(getattr(result, method)())
    return _plain(vars(result))


def worker_compile(job):
    """KernelBench's build_compile_cache: builds the ModelNew source's extension into job's build folder."""
    kb, stand_ins = import_kernelbench(job["kernelbench"])
    with open(job["source"]) as f:
        source = f.read()
    (ok, stdout, error), dropped = call_supported(kb.build_compile_cache, custom_model_src=source, verbose=False,
                                                  build_dir=job["build_dir"])
    return {"compiled": bool(ok), "error": error, "log_tail": (stdout or "")[-4000:], "stand_ins": stand_ins,
            "dropped_arguments": dropped}


def worker_eval(job):
    """KernelBench's eval_kernel_against_ref on the GPU, at the paper's tolerance with both models timed and at
    KernelBench's default correctness-only (kb_protocol.two_verdicts); then, for a kernel correct at the paper's,
    the timings beside (torch.compile, interleaved) in the same process on the same inputs."""
    import torch
    kb, stand_ins = import_kernelbench(job["kernelbench"])
    with open(job["reference"]) as f:
        reference = f.read()
    with open(job["source"]) as f:
        source = f.read()
    device, precision = torch.device("cuda:0"), getattr(torch, PRECISIONS[job["precision"]])
    dropped = set()

    def evaluate(measure_performance):
        result, missing = call_supported(
            kb.eval_kernel_against_ref, original_model_src=reference, custom_model_src=source, seed_num=42,
            num_correct_trials=job["correct_trials"], num_perf_trials=job["trials"],
            measure_performance=measure_performance, timing_method="cuda_event", verbose=False,
            build_dir=job["build_dir"], device=device, backend="cuda", precision=precision,
            check_for_excessive_speedup=True)
        dropped.update(missing)
        return _result_dict(result)

    verdicts = kb_protocol.two_verdicts(kb, evaluate, precision)
    answer = {"result": verdicts["paper"]["result"], "verdicts": verdicts, "stand_ins": stand_ins,
              "dropped_arguments": sorted(dropped)}
    if (verdicts["paper"]["result"] or {}).get("correctness") and (job["compile"] or job["interleave"]):
        try:
            answer["beside"] = kb_protocol.time_beside(kb, torch, job, device, precision, job["compile"],
                                                       job["interleave"])
        except Exception as e:  # noqa: BLE001 — KernelBench's verdict and times stand; this column says why not
            answer["beside"] = {"error": f"{type(e).__name__}: {e}"}
    return answer


WORKERS = {"compile": worker_compile, "eval": worker_eval}


def worker_main(stage, job_path):
    """Runs one stage of one problem; its answer goes to <job>.result.json (a crash leaves none)."""
    with open(job_path) as f:
        job = json.load(f)
    answer = WORKERS[stage](job)
    results.write_json(job_path + ".result.json", answer)


def worker_command(stage, job_path):
    return [sys.executable, os.path.abspath(__file__), "--worker", stage, job_path]


def run_worker(stage, job, out, stem, timeout):
    """Runs `stage` for one problem in a process of its own; returns its answer, or {"error": ...} when it timed out,
    crashed or answered nothing. Its output goes to OUT/logs/<stem>.<stage>.log."""
    jobs = os.path.join(out, "jobs")
    logs = os.path.join(out, "logs")
    os.makedirs(jobs, exist_ok=True)
    os.makedirs(logs, exist_ok=True)
    job_path = os.path.join(jobs, f"{stem}.{stage}.json")
    results.write_json(job_path, job)
    answer_path = job_path + ".result.json"
    if os.path.exists(answer_path):
        os.remove(answer_path)
    log_path = os.path.join(logs, f"{stem}.{stage}.log")
    started = time.time()
    with open(log_path, "w") as log:
        try:
            r = subprocess.run(worker_command(stage, job_path), stdout=log, stderr=subprocess.STDOUT, timeout=timeout,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
            code = r.returncode
        except subprocess.TimeoutExpired:
            code = None
    seconds = round(time.time() - started, 1)
    if code is not None and os.path.exists(answer_path):
        answer = results.read_json(answer_path)
        answer["seconds"] = seconds
        return answer
    with open(log_path, errors="replace") as f:
        tail = f.read()[-3000:]
    why = f"timed out after {timeout} s" if code is None else f"exited with code {code} without an answer"
    last = [line for line in tail.splitlines() if line.strip()][-1:]  # a crash's exception, usually
    return {"error": f"{stage} {why}" + (f": {last[0].strip()}" if last else ""), "log_tail": tail,
            "seconds": seconds}


# ---- one problem ----------------------------------------------------------------------------------------------

def export(ucutlass, problem_path, spec, source_path):
    """`ucutlass export --kernelbench`: (ok, diagnostics as the tool's JSON)."""
    cmd = [ucutlass, "export", "--kernelbench", problem_path, spec, "-o", source_path, "--json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, [{"message": f"`{shlex.join(cmd)}` failed: {e}"}]
    try:
        answer = json.loads(r.stdout)
    except ValueError:
        return False, [{"message": f"`{shlex.join(cmd)}` exited {r.returncode}: {r.stderr[-2000:]}"}]
    return bool(answer.get("ok")) and r.returncode == 0, answer.get("diagnostics", [])


def operand_precision(problem_precision, diagnostics):
    """(the precision the kernel multiplies in, whether that is a precision change): X005's "multiplies in bf16
    (operands converted from f32)" / "multiplies in tf32" when the export reported one, else the problem's own
    (a kernel without X005 multiplies at the precision the problem states, 3xTF32 included)."""
    for d in diagnostics:
        if d.get("rule") == "X005":
            words = d.get("message", "").split("multiplies in ", 1)
            if len(words) == 2:
                return PRECISION_NAMES.get(words[1].split()[0], words[1].split()[0]), True
    return PRECISION_NAMES.get(problem_precision, problem_precision), False


def new_entry(problem, spec):
    return {**results.describe(problem), "spec": os.path.relpath(spec, suite.ROOT), "stage": "export",
            "compiled": False, "correctness": False}


def finish_eval(entry, answer):
    """Fills the entry from eval_kernel_against_ref's result (runtimes: the mean of KernelBench's timing stats, ms):
    the paper protocol's verdict is `correctness` (the timed one), both verdicts are in `verdicts`, and the times
    beside KernelBench's (torch.compile, interleaved) with their speedups over ours."""
    entry["stand_ins"] = answer.get("stand_ins", [])
    entry["dropped_arguments"] = answer.get("dropped_arguments", [])
    result = answer.get("result")
    if "error" in answer or result is None:
        entry["error"] = answer.get("error") or ("eval_kernel_against_ref returned None (KernelBench: a build "
                                                 "lock or missing-file error; retry)")
        entry["log_tail"] = answer.get("log_tail")
        return entry
    entry["stage"] = "done"
    entry["compiled"] = bool(result.get("compiled"))
    entry["correctness"] = bool(result.get("correctness"))
    entry["metadata"] = result.get("metadata", {})
    for ours, theirs in (("runtime_ms", "runtime"), ("ref_runtime_ms", "ref_runtime")):
        value = result.get(theirs, -1.0)
        entry[ours] = value if value is not None and value > 0 else None
    entry["runtime_stats"] = result.get("runtime_stats") or {}
    entry["ref_runtime_stats"] = result.get("ref_runtime_stats") or {}
    if entry["correctness"] and entry["runtime_ms"] and entry["ref_runtime_ms"]:
        entry["speedup"] = round(entry["ref_runtime_ms"] / entry["runtime_ms"], 4)
    verdicts = answer.get("verdicts") or {}
    default = (verdicts.get("default") or {}).get("result")
    entry["verdicts"] = {
        "paper": {"float32_tolerance": (verdicts.get("paper") or {}).get("float32_tolerance"),
                  "correct": entry["correctness"]},
        "default": {"float32_tolerance": (verdicts.get("default") or {}).get("float32_tolerance"),
                    "correct": bool(default and default.get("correctness")),
                    "comparisons": (default or {}).get("comparisons"), "how": (verdicts.get("default") or {}).get("how")}}
    beside = answer.get("beside") or {}
    if beside.get("error") or beside.get("compile_error"):
        entry["beside_error"] = beside.get("error") or beside.get("compile_error")
    compiled = (beside.get("compile") or {}).get("mean")
    entry["compile_ms"] = compiled
    if entry.get("speedup") and compiled:
        entry["speedup_vs_compile"] = round(compiled / entry["runtime_ms"], 4)
    interleaved = beside.get("interleaved")
    if interleaved and entry.get("speedup"):
        entry["interleaved"] = interleaved
        ours = interleaved["ours"]["mean"]
        entry["interleaved_speedup"] = round(interleaved["eager"]["mean"] / ours, 4)
        if "compile" in interleaved:
            entry["interleaved_speedup_vs_compile"] = round(interleaved["compile"]["mean"] / ours, 4)
    return entry


# ---- the run --------------------------------------------------------------------------------------------------

def run(args):
    kernelbench = os.path.abspath(args.kernelbench)
    pairs = [parse_pair(p) for p in args.pair] if args.pair else default_pairs(args.impl, args.suite)
    pairs = select(pairs, args.only)
    if not pairs:
        raise KbEvalError("no (problem, spec) pairs selected")
    loaded = {p.path: p for p in suite.load_problems([x[0] for x in pairs], args.ucutlass)}
    start = time.time()
    out = os.path.abspath(args.out)
    ucutlass = args.ucutlass or suite.default_ucutlass()
    meta = {"command": shlex.join(sys.argv), "started": utc_now(), "kernelbench": kernelbench,
            "kernelbench_commit": checkout_commit(kernelbench), "trials": args.trials,
            "correct_trials": args.correct_trials, "jobs": args.jobs, "impl": os.path.relpath(args.impl, suite.ROOT),
            "tolerance_protocols": {"paper": f"KernelBench's float32 tolerance set to "
                                             f"{kb_protocol.PAPER_FLOAT32_TOLERANCE:g} in the imported "
                                             "kernelbench.eval (get_tolerance_for_precision replaced for float32)",
                                    "default": "KernelBench's own get_tolerance_for_precision, unpatched"},
            "compile_timed": not args.no_compile, "interleave_rounds": args.interleave,
            # The denominator: every problem of --suite (a --pair run scores its pairs only).
            "suite_problems": None if args.pair else sorted(suite_files(args.suite))}
    todo = []
    for problem_path, spec in pairs:
        problem = loaded[os.path.normpath(problem_path)]
        if args.skip_done and results.read_entry(out, problem.stem) is not None:
            continue
        entry = new_entry(problem, spec)
        entry["reference"] = reference_source(kernelbench, problem)
        source = os.path.join(out, "sources", f"{problem.stem}.py")
        os.makedirs(os.path.dirname(source), exist_ok=True)
        ok, diagnostics = export(ucutlass, problem.path, spec, source)
        entry["export_diagnostics"] = diagnostics
        entry["operand_precision"], entry["precision_change"] = operand_precision(problem.precision, diagnostics)
        if not ok:
            entry["error"] = "export refused: " + "; ".join(
                f"{d.get('rule', '')} {d.get('message', '')}".strip() for d in diagnostics)
            results.write_entry(out, problem.stem, entry)
            print(f"{problem.stem}: {entry['error']}", flush=True)
            continue
        entry["source"] = os.path.relpath(source, out)
        entry["stage"] = "compile"
        todo.append((problem, entry, {"kernelbench": kernelbench, "source": source,
                                      "build_dir": os.path.join(out, "build", problem.stem)}))
    meta["environment"] = gpu_environment()
    results.write_json(os.path.join(out, "environment.json"), meta)

    def late():
        return args.time_limit and time.time() - start > args.time_limit

    def compile_one(item):
        problem, entry, job = item
        if late():
            return item, None
        return item, run_worker("compile", job, out, problem.stem, args.compile_timeout)

    compiled = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (problem, entry, job), answer in pool.map(compile_one, todo):
            if answer is None:
                print(f"{problem.stem}: not compiled (--time-limit)", flush=True)
                continue
            entry["compile_seconds"] = answer.get("seconds")
            entry["stand_ins"] = answer.get("stand_ins", [])
            if not answer.get("compiled"):
                entry["error"] = answer.get("error") or "build_compile_cache failed"
                entry["log_tail"] = answer.get("log_tail")
                results.write_entry(out, problem.stem, entry)
                print(f"{problem.stem}: compile failed: {str(entry['error'])[:300]}", flush=True)
                continue
            entry["compiled"] = True
            entry["stage"] = "eval"
            compiled.append((problem, entry, job))
    for problem, entry, job in compiled:
        if late():
            print(f"{problem.stem}: not evaluated (--time-limit)", flush=True)
            continue
        job = {**job, "reference": entry["reference"], "precision": problem.precision, "trials": args.trials,
               "correct_trials": args.correct_trials, "compile": not args.no_compile, "interleave": args.interleave}
        answer = run_worker("eval", job, out, problem.stem, args.eval_timeout)
        entry["eval_seconds"] = answer.get("seconds")
        entry["gpu"], entry["measured_at"] = meta["environment"].get("gpu"), utc_now()  # a resumed run may differ
        entry = finish_eval(entry, answer)
        results.write_entry(out, problem.stem, entry)
        print(f"{problem.stem}: {summary(entry)}", flush=True)
    report(out)
    return 0


def gpu_environment():
    """GPU, driver, torch and CUDA versions (needs torch; None fields without a GPU)."""
    try:
        import environment
        env = environment.environment()
    except ImportError as e:
        env = {"error": f"no torch here: {e}"}
    try:
        r = subprocess.run(["nvcc", "--version"], capture_output=True, text=True)
        env["nvcc"] = r.stdout.strip().splitlines()[-1] if r.returncode == 0 else None
    except OSError:
        env["nvcc"] = None
    env["cutlass_dir"] = os.environ.get("CUTLASS_DIR")
    return env


# ---- report ---------------------------------------------------------------------------------------------------

def summary(entry):
    if entry.get("stage") != "done":
        return f"failed at {entry.get('stage')}: {str(entry.get('error', ''))[:200]}"
    ms = entry.get("runtime_ms")
    ref = entry.get("ref_runtime_ms")
    return (f"compiled {entry['compiled']}, correct {entry['correctness']}, "
            f"{ms if ms is not None else '-'} ms vs reference {ref if ref is not None else '-'} ms, "
            f"speedup {entry.get('speedup', '-')}")


def _cell(value, fmt="{}"):
    return "-" if value is None else fmt.format(value)


def _yes(flag):
    return "yes" if flag else "no"


def render_markdown(meta, entries):
    env = meta.get("environment", {})
    mix = kb_headline.precision_mix(entries)
    lines = ["# KernelBench's eval_kernel_against_ref on our kernels", "",
             f"**{mix['lower_precision']} of the {mix['exported']} problems with a kernel use bf16 or TF32 operands "
             "against FP32 eager.**", "",
             f"- GPU: {env.get('gpu')} (the last run's; evaluated entries by GPU: "
             f"{', '.join(f'{g} {n}' for g, n in sorted(kb_headline.entry_gpus(entries).items())) or '-'}); "
             f"driver {env.get('driver')}; torch {env.get('torch')}, CUDA {env.get('cuda')}, "
             f"cuDNN {env.get('cudnn')}; {env.get('nvcc') or 'nvcc: -'}",
             f"- KernelBench: {meta.get('kernelbench_commit') or meta.get('kernelbench')}; "
             f"{meta.get('correct_trials')} correctness trials, {meta.get('trials')} timed trials per model "
             "(cuda_event timing: cold L2, mean reported)",
             f"- Command: `{meta.get('command')}`",
             f"- Date: {meta.get('started')}", ""]
    stand_ins = sorted({s for e in entries for s in e.get("stand_ins") or []})
    if stand_ins:
        lines += [f"- Stand-ins for modules KernelBench imports but evaluation does not use: {', '.join(stand_ins)}", ""]
    lines += ["| problem | spec | operands | compiled | correct 1e-2 | correct 1e-4 | runtime ms | reference ms | "
              "speedup | compile ms | vs compile | interleaved vs eager / compile | note |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for e in entries:
        note = "" if e.get("stage") == "done" else f"stopped at {e.get('stage')}: {e.get('error', '')}"
        meta_issue = (e.get("metadata") or {}).get("correctness_issue")
        if meta_issue:
            note = f"{meta_issue} (max diff {(e.get('metadata') or {}).get('max_difference')})"
        note = note.replace("|", "\\|").replace("\n", " ")[:160]
        default = ((e.get("verdicts") or {}).get("default") or {}).get("correct")
        interleaved = (f"{_cell(e.get('interleaved_speedup'), '{:.2f}x')} / "
                       f"{_cell(e.get('interleaved_speedup_vs_compile'), '{:.2f}x')}")
        lines.append(f"| {e['problem']} | {os.path.basename(e.get('spec', '')) or '-'} | "
                     f"{e.get('operand_precision') or '-'} | {_yes(e.get('compiled'))} | "
                     f"{_yes(e.get('correctness'))} | {_yes(default)} | {_cell(e.get('runtime_ms'), '{:.3g}')} | "
                     f"{_cell(e.get('ref_runtime_ms'), '{:.3g}')} | {_cell(e.get('speedup'), '{:.2f}x')} | "
                     f"{_cell(e.get('compile_ms'), '{:.3g}')} | {_cell(e.get('speedup_vs_compile'), '{:.2f}x')} | "
                     f"{interleaved} | {note} |")
    correct = [e for e in entries if e.get("correctness")]
    strict = [e for e in entries if ((e.get("verdicts") or {}).get("default") or {}).get("correct")]
    lines += ["", f"{len(correct)} of {len(entries)} correct at the paper's float32 tolerance (1e-2, KernelBench's "
                  f"patched), {len(strict)} at KernelBench's default (1e-4); speedup = reference mean / ours (both "
                  "timed by eval_kernel_against_ref in the same process); vs compile: torch.compile of the reference, "
                  "timed by KernelBench's timing function in the same process on the same inputs; interleaved: "
                  "rounds of eager, ours, compiled, one call each (means). kb_headline.py scores them."]
    return "\n".join(lines) + "\n"


def with_denominator(meta, entries):
    """`entries` and, for each problem of the run's suite without one, a failed entry saying why: no spec in --impl,
    or a spec not run (--time-limit, --only)."""
    have = {e["problem"] for e in entries}
    specs = set()
    impl = os.path.join(suite.ROOT, meta.get("impl") or "")
    if meta.get("impl") and os.path.isdir(impl):
        specs = set(impl_specs(impl))
    missing = [{"problem": stem, "stage": "none", "compiled": False, "correctness": False,
                "error": "not run (--time-limit or --only)" if stem in specs else "no spec"}
               for stem in meta.get("suite_problems") or [] if stem not in have]
    return sorted(entries + missing, key=lambda e: e["problem"])


def report(out):
    """OUT/kb_eval.json and OUT/kb_eval.md from environment.json and every entry under OUT/problems."""
    try:
        meta = results.read_json(os.path.join(out, "environment.json"))
    except FileNotFoundError:
        meta = {}
    folder = os.path.join(out, "problems")
    names = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
    entries = with_denominator(meta, [results.read_json(os.path.join(folder, f)) for f in names])
    results.write_json(os.path.join(out, "kb_eval.json"), {**meta, "problems": entries})
    with open(os.path.join(out, "kb_eval.md"), "w") as f:
        f.write(render_markdown(meta, entries))
    return entries


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        worker_main(argv[1], argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernelbench", help="a KernelBench checkout: the folder holding KernelBench/level1..3 and "
                                          "src/kernelbench")
    ap.add_argument("--out", required=True)
    suite.add_ucutlass_option(ap)
    ap.add_argument("--pair", action="append", default=[], metavar="PROBLEM.toml=SPEC.ucut",
                    help="a suite problem and the spec to run on it (repeatable; default: every spec of --impl)")
    ap.add_argument("--impl", default=DEFAULT_IMPL, help="the specs, <problem>.ucut or <problem>/<problem>.ucut "
                                                         "(default bench/kernelbench/impl; e.g. "
                                                         "bench/kernelbench/best_1e-2, or pipelines.py prepare's "
                                                         "OUT/cases for the pipeline problems)")
    ap.add_argument("--suite", default=DEFAULT_SUITE, help="where --impl's problems are, and the report's denominator: "
                                                           "its problems without a spec are failures (default "
                                                           "suites/kernelbench, 152)")
    ap.add_argument("--only", default="", help="only the problems whose file name contains one of these (a,b)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1), help="compiles at a time")
    ap.add_argument("--trials", type=int, default=100, help="timed trials per model (num_perf_trials)")
    ap.add_argument("--correct-trials", type=int, default=5, help="correctness trials (num_correct_trials)")
    ap.add_argument("--compile-timeout", type=int, default=900, help="seconds for one problem's compile")
    ap.add_argument("--eval-timeout", type=int, default=600, help="seconds for one problem's evaluation")
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile of the reference out: not timed, not in the interleaved rounds")
    ap.add_argument("--interleave", type=int, default=0, metavar="ROUNDS",
                    help="rounds of eager, ours and (without --no-compile) compiled, one call each timed "
                         "KernelBench's way (0: none)")
    ap.add_argument("--skip-done", action="store_true", help="skip problems that have an entry in OUT/problems")
    ap.add_argument("--time-limit", type=float, default=0, help="start no compile or evaluation after this many s")
    ap.add_argument("--report-only", action="store_true", help="rewrite kb_eval.json/.md from the entries")
    args = ap.parse_args(argv)
    if args.report_only:
        report(os.path.abspath(args.out))
        return 0
    if not args.kernelbench:
        ap.error("--kernelbench is required (unless --report-only)")
    try:
        return run(args)
    except (KbEvalError, suite.ProblemError) as e:
        print(f"kb_eval.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
