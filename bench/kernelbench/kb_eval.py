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

KernelBench's package imports modules that evaluation never calls (the LLM clients openai and litellm, python-dotenv,
requests, tqdm) and pydantic for its result record; where one is not installed, a small stand-in takes its place
and the report lists it.

  kb_eval.py --kernelbench KERNELBENCH-CHECKOUT --out OUT [--ucutlass build/ucutlass] [--jobs 8] [--skip-done]
             [--time-limit 420] [--only L1_,L2_012] [--pair PROBLEM.toml=SPEC.ucut ...]
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

import results
import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_IMPL = os.path.join(HERE, "impl")
DEFAULT_SUITE = os.path.join(suite.ROOT, "suites", "kernelbench")
PRECISIONS = {"f32": "float32", "f16": "float16", "bf16": "bfloat16"}


class KbEvalError(Exception):
    pass


# ---- pairs ----------------------------------------------------------------------------------------------------

def default_pairs(impl_dir, suite_dir):
    """(problem file, spec) for every <impl_dir>/<stem>.ucut, its problem the suite file of the same stem."""
    problems = {}
    for root, _, files in os.walk(suite_dir):
        for f in files:
            if f.endswith(".toml"):
                problems[f[:-5]] = os.path.join(root, f)
    pairs = []
    for f in sorted(os.listdir(impl_dir)):
        if not f.endswith(".ucut"):
            continue
        stem = f[:-5]
        if stem not in problems:
            raise KbEvalError(f"{os.path.join(impl_dir, f)}: no suite problem {stem}.toml under {suite_dir}")
        pairs.append((problems[stem], os.path.join(impl_dir, f)))
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
    """KernelBench's eval_kernel_against_ref on the GPU: correctness trials, then both models timed."""
    import torch
    kb, stand_ins = import_kernelbench(job["kernelbench"])
    with open(job["reference"]) as f:
        reference = f.read()
    with open(job["source"]) as f:
        source = f.read()
    result, dropped = call_supported(
        kb.eval_kernel_against_ref, original_model_src=reference, custom_model_src=source, seed_num=42,
        num_correct_trials=job["correct_trials"], num_perf_trials=job["trials"], measure_performance=True,
        timing_method="cuda_event", verbose=False, build_dir=job["build_dir"], device=torch.device("cuda:0"),
        backend="cuda", precision=getattr(torch, PRECISIONS[job["precision"]]), check_for_excessive_speedup=True)
    return {"result": _result_dict(result), "stand_ins": stand_ins, "dropped_arguments": dropped}


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


def new_entry(problem, spec):
    return {**results.describe(problem), "spec": os.path.relpath(spec, suite.ROOT), "stage": "export",
            "compiled": False, "correctness": False}


def finish_eval(entry, answer):
    """Fills the entry from eval_kernel_against_ref's result (runtimes: the mean of KernelBench's timing stats, ms)."""
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
            "correct_trials": args.correct_trials, "jobs": args.jobs}
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
               "correct_trials": args.correct_trials}
        answer = run_worker("eval", job, out, problem.stem, args.eval_timeout)
        entry["eval_seconds"] = answer.get("seconds")
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
    lines = ["# KernelBench's eval_kernel_against_ref on our kernels", "",
             f"- GPU: {env.get('gpu')}; driver {env.get('driver')}; torch {env.get('torch')}, CUDA {env.get('cuda')}, "
             f"cuDNN {env.get('cudnn')}; {env.get('nvcc') or 'nvcc: -'}",
             f"- KernelBench: {meta.get('kernelbench_commit') or meta.get('kernelbench')}; "
             f"{meta.get('correct_trials')} correctness trials, {meta.get('trials')} timed trials per model "
             "(cuda_event timing: cold L2, mean reported)",
             f"- Command: `{meta.get('command')}`",
             f"- Date: {meta.get('started')}", ""]
    stand_ins = sorted({s for e in entries for s in e.get("stand_ins") or []})
    if stand_ins:
        lines += [f"- Stand-ins for modules KernelBench imports but evaluation does not use: {', '.join(stand_ins)}", ""]
    lines += ["| problem | spec | compiled | correct | runtime ms | reference ms | speedup | note |",
              "|---|---|---|---|---|---|---|---|"]
    for e in entries:
        note = "" if e.get("stage") == "done" else f"stopped at {e.get('stage')}: {e.get('error', '')}"
        meta_issue = (e.get("metadata") or {}).get("correctness_issue")
        if meta_issue:
            note = f"{meta_issue} (max diff {(e.get('metadata') or {}).get('max_difference')})"
        note = note.replace("|", "\\|").replace("\n", " ")[:160]
        lines.append(f"| {e['problem']} | {os.path.basename(e.get('spec', ''))} | {_yes(e.get('compiled'))} | "
                     f"{_yes(e.get('correctness'))} | {_cell(e.get('runtime_ms'), '{:.3g}')} | "
                     f"{_cell(e.get('ref_runtime_ms'), '{:.3g}')} | {_cell(e.get('speedup'), '{:.2f}x')} | {note} |")
    correct = [e for e in entries if e.get("correctness")]
    lines += ["", f"{len(correct)} of {len(entries)} correct; speedup = reference mean / ours (both timed by "
                  "eval_kernel_against_ref in the same process)."]
    return "\n".join(lines) + "\n"


def report(out):
    """OUT/kb_eval.json and OUT/kb_eval.md from environment.json and every entry under OUT/problems."""
    try:
        meta = results.read_json(os.path.join(out, "environment.json"))
    except FileNotFoundError:
        meta = {}
    folder = os.path.join(out, "problems")
    names = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
    entries = [results.read_json(os.path.join(folder, f)) for f in names]
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
    ap.add_argument("--impl", default=DEFAULT_IMPL, help="the specs, <problem>.ucut (default bench/kernelbench/impl)")
    ap.add_argument("--suite", default=DEFAULT_SUITE, help="where --impl's problems are (default suites/kernelbench)")
    ap.add_argument("--only", default="", help="only the problems whose file name contains one of these (a,b)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1), help="compiles at a time")
    ap.add_argument("--trials", type=int, default=100, help="timed trials per model (num_perf_trials)")
    ap.add_argument("--correct-trials", type=int, default=5, help="correctness trials (num_correct_trials)")
    ap.add_argument("--compile-timeout", type=int, default=900, help="seconds for one problem's compile")
    ap.add_argument("--eval-timeout", type=int, default=600, help="seconds for one problem's evaluation")
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
