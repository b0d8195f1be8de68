#!/usr/bin/env python3
"""PyTorch baselines of the KernelBench-derived suite on one GPU, timed the KernelBench way (kb_timing.py): for every
problem file given (files or folders), the eager module built from the file (seed 42) and `torch.compile(module)`
(inductor, default mode), mean / median / std / min / max of --trials runs, whether both outputs agree at the
problem's tolerance, the compile time. TF32 flags are left at PyTorch's defaults and reported.

Each problem's entry goes to OUT/problems/<stem>.json as soon as it is done (measure.py); at the end OUT/baseline.json
(all entries) and OUT/baseline.md (a table). A problem's exception, OOM included, is recorded in its entry and the
run goes on. --jobs N compiles N problems at once in worker processes while timing stays serialized (a file lock
around each timing loop and the GPU work next to it); a worker that dies leaves an entry saying so and is replaced.

The problem files are checked, and read, by `ucutlass suite check` (--ucutlass PATH); a file with diagnostics stops
the run before anything is measured, with the tool's messages.

  baseline.py suites/kernelbench --out OUT [--ucutlass build/ucutlass] [--jobs 8] [--skip-done] [--time-limit 500]
              [--only L2_0] [--no-compile]
  baseline.py suites/kernelbench --out OUT --report-only      (rewrite baseline.json/.md from the entries; no torch)"""
import argparse
import math
import multiprocessing
from multiprocessing import connection
import os
import shlex
import sys
import time

import results
import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402


def record_run(args, compile_threads):
    import environment
    meta = {"environment": environment.environment(), "command": shlex.join(sys.argv), "started": utc_now(),
            "jobs": args.jobs, "trials": args.trials, "warmup": args.warmup, "compile": not args.no_compile,
            "inductor_compile_threads": compile_threads}
    results.write_json(os.path.join(args.out, "environment.json"), meta)


def run_serial(todo, opts):
    import measure
    for problem in todo:
        print(measure.run_problem(problem, opts), flush=True)


def run_parallel(todo, opts, jobs):
    """Runs the problems in `jobs` spawned worker processes, each reporting on its own pipe (written synchronously,
    so a worker's last report survives its crash); a worker that dies mid-problem leaves an entry that says so and
    is replaced."""
    import measure
    ctx = multiprocessing.get_context("spawn")
    tasks = ctx.Queue()
    for problem in todo:
        tasks.put(problem)
    for _ in range(jobs):
        tasks.put(None)
    problems = {p.stem: p for p in todo}

    def start():
        receive, send = ctx.Pipe(duplex=False)
        w = ctx.Process(target=measure.worker_loop, args=(tasks, send, opts))
        w.start()
        send.close()
        return {"process": w, "reports": receive, "current": None}

    live, replacements = [start() for _ in range(jobs)], 0
    while live:
        connection.wait([w["reports"] for w in live] + [w["process"].sentinel for w in live])
        for w in list(live):
            alive = w["process"].is_alive()  # before reading: a dead worker's reports are all in the pipe by now
            try:
                while w["reports"].poll():
                    kind, stem, *line = w["reports"].recv()
                    w["current"] = stem if kind == "start" else None
                    if line:
                        print(line[0], flush=True)
            except EOFError:
                pass
            if alive:
                continue
            w["process"].join()
            live.remove(w)
            if w["process"].exitcode == 0:
                continue
            if w["current"] is not None:
                entry = {**results.describe(problems[w["current"]]), "stage": "worker", "measured_at": utc_now(),
                         "error": f"the worker process died (exit code {w['process'].exitcode})"}
                results.write_entry(opts["out"], w["current"], entry)
                print(f"{w['current']}  ERROR: {entry['error']}", flush=True)
            if replacements < len(todo):
                live.append(start())
                replacements += 1


def cell(entry, mode):
    return f"{entry[mode]['mean']:.3f}" if mode in entry else ""


def note(entry):
    if "error" in entry:
        return results.md_cell(f"error at {entry.get('stage')}: {entry['error'][:160]}")
    if entry.get("outputs_agree") is False:
        return f"compiled output differs (max abs diff {entry['max_abs_diff']})"
    return ""


def markdown(meta, entries, missing, date):
    env = meta.get("environment", {})
    lines = [f"# KernelBench-derived suite: PyTorch baselines ({date})", "",
             f"GPU {env.get('gpu')}, driver {env.get('driver')}; torch {env.get('torch')}, CUDA {env.get('cuda')}, "
             f"cuDNN {env.get('cudnn')}. Float32 math as PyTorch defaults it (KernelBench changes nothing): "
             f"torch.backends.cuda.matmul.allow_tf32 = {env.get('cuda_matmul_allow_tf32')}, "
             f"torch.backends.cudnn.allow_tf32 = {env.get('cudnn_allow_tf32')}, float32 matmul precision "
             f"\"{env.get('float32_matmul_precision')}\".", "",
             f"KernelBench's timing: torch.no_grad(), {meta.get('warmup')} warm-ups, then {meta.get('trials')} trials "
             f"(after one discarded), each after a 256 MB L2 thrash, CUDA events around the one forward call; mean in "
             f"ms. Compile: torch.compile(module), inductor, default mode. Command: `{meta.get('command')}` "
             f"(started {meta.get('started')}).", "",
             f"{len(entries)} problems, {sum('error' in e for e in entries)} with errors"
             + (f"; not measured yet: {', '.join(missing)}" if missing else "") + ".", "",
             "| problem | family | eager ms | compile ms | eager/compile | audit eager ms | weak check | note |",
             "|---|---|---|---|---|---|---|---|"]
    for e in entries:
        ratio = ""
        if "eager" in e and "compile" in e:
            ratio = f"{e['eager']['mean'] / e['compile']['mean']:.2f}"
        audit = (e.get("kernelbench") or {}).get("eager_ms_h200_audit", "")
        lines.append(f"| {e['problem']} | {e.get('family', '')} | {cell(e, 'eager')} | {cell(e, 'compile')} | "
                     f"{ratio} | {audit} | {', '.join(e.get('weak_check', []))} | {note(e)} |")
    return "\n".join(lines) + "\n"


def write_report(out, chosen):
    meta_path = os.path.join(out, "environment.json")
    meta = results.read_json(meta_path) if os.path.exists(meta_path) else {}
    entries, missing = results.collect(out, chosen)
    date = utc_now()
    results.write_json(os.path.join(out, "baseline.json"),
                       {"meta": meta, "date": date, "problems": entries, "missing": missing})
    with open(os.path.join(out, "baseline.md"), "w") as f:
        f.write(markdown(meta, entries, missing, date))
    print(f"wrote {out}/baseline.json and baseline.md: {len(entries)} problems, {len(missing)} not measured")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="problem files or folders of them")
    ap.add_argument("--out", default="out/kernelbench")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes compiling at once (timing stays serial)")
    ap.add_argument("--no-compile", action="store_true", help="time the eager modules only")
    ap.add_argument("--only", default="", help="comma-separated substrings: run the problems whose name has one")
    ap.add_argument("--skip-done", action="store_true",
                    help="skip problems that have an entry in OUT/problems (except out-of-memory and load errors)")
    ap.add_argument("--time-limit", type=float, default=math.inf,
                    help="start no problem after this many seconds (finished ones are kept; resume with --skip-done)")
    ap.add_argument("--report-only", action="store_true", help="only rewrite baseline.json/.md from the entries")
    suite.add_ucutlass_option(ap)
    args = ap.parse_args()
    began = time.time()
    try:
        chosen = results.select(args.paths, args.only, args.ucutlass)
    except suite.ProblemError as e:
        sys.exit(str(e))
    os.makedirs(args.out, exist_ok=True)
    todo = results.todo(chosen, args.out, args.skip_done)
    if todo and not args.report_only:
        threads = None
        if args.jobs > 1:
            threads = os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS",
                                            str(max(1, (os.cpu_count() or 1) // args.jobs)))
        record_run(args, threads)
        opts = {"out": args.out, "trials": args.trials, "warmup": args.warmup, "compile": not args.no_compile,
                "lock": os.path.join(args.out, "timing.lock"), "deadline": began + args.time_limit}
        print(f"{len(todo)} problems to run ({len(chosen) - len(todo)} skipped)", flush=True)
        if args.jobs > 1:
            run_parallel(todo, opts, min(args.jobs, len(todo)))
        else:
            run_serial(todo, opts)
    write_report(args.out, chosen)


if __name__ == "__main__":
    main()
