"""One problem of the KernelBench baseline, on CUDA: build the module (seed 42) and inputs from the problem (a
suite.Problem, as `ucutlass suite check` read it), time the eager module and then `torch.compile(module)` (inductor,
default mode) with kb_timing under torch.no_grad(), check that both give the same output at the problem's tolerance,
and write `<out>/problems/<stem>.json`. Timing loops, and the GPU work around them, hold an exclusive lock on a file shared by
all worker processes, so two problems are never timed at once; compiling runs outside it. `worker_loop` is a worker process of baseline.py --jobs."""
import contextlib
import fcntl
import gc
import os
import sys
import time

import torch

import kb_timing
import results
import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402


@contextlib.contextmanager
def exclusive(lock_path):
    with open(lock_path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def agreement(a, b, tolerance):
    a, b = a.float(), b.float()
    return {"outputs_agree": bool(torch.allclose(a, b, atol=tolerance, rtol=tolerance)),
            "outputs_agree_1e-2": bool(torch.allclose(a, b, atol=1e-2, rtol=1e-2)),
            "max_abs_diff": results.number((a - b).abs_().max().item())}


def measure(problem, opts, entry):
    """Fills entry stage by stage; `entry["stage"]` names the stage an exception interrupts (removed on success).
    All GPU work but the compile's first call runs under the lock, so no other worker's GPU work but a compile
    overlaps a timing loop."""
    entry["stage"] = "build"
    torch.manual_seed(42)
    module = suite.build_module(problem)
    entry["parameters"] = sum(p.numel() for p in module.parameters())
    with torch.no_grad():
        with exclusive(opts["lock"]):
            module = module.to("cuda", suite.torch_dtype(problem.precision))
            inputs = suite.make_inputs(problem, seed=42, device="cuda")
            entry["stage"] = "eager"
            entry["eager"] = kb_timing.stats(kb_timing.time_forward(module, inputs, opts["trials"], opts["warmup"]))
            if not opts["compile"]:
                return
            eager_out = module(*inputs)
            torch.cuda.synchronize()
        if list(eager_out.shape) != problem.output_shape:
            raise AssertionError(f"output shape {list(eager_out.shape)}, the file implies {problem.output_shape}")
        entry["stage"] = "compile"
        torch._dynamo.reset()
        compiled = torch.compile(module)
        began = time.perf_counter()
        compiled_out = compiled(*inputs)
        torch.cuda.synchronize()
        entry["compile_s"] = time.perf_counter() - began
        entry["stage"] = "compiled"
        with exclusive(opts["lock"]):
            entry.update(agreement(eager_out, compiled_out, problem.tolerance))
            del eager_out, compiled_out
            entry["compile"] = kb_timing.stats(kb_timing.time_forward(compiled, inputs, opts["trials"],
                                                                      opts["warmup"]))


def free_memory():
    gc.collect()
    torch._dynamo.reset()
    torch.cuda.empty_cache()


def run_problem(problem, opts):
    """Measures one problem (a suite.Problem) and writes its entry; returns a one-line summary. Does nothing past
    the deadline."""
    if time.time() > opts["deadline"]:
        return f"{problem.stem}: not started (time limit)"
    entry = results.describe(problem)
    try:
        measure(problem, opts, entry)
        del entry["stage"]
    except Exception as e:  # noqa: BLE001  one problem's failure is recorded in its entry, and the run goes on
        entry["error"] = f"{type(e).__name__}: {e}"[:4000]
        entry["oom"] = isinstance(e, torch.cuda.OutOfMemoryError) or "out of memory" in str(e)
    entry["measured_at"] = utc_now()
    results.write_entry(opts["out"], problem.stem, entry)
    free_memory()
    return summary(entry)


def summary(entry):
    line = entry["problem"]
    for mode in ("eager", "compile"):
        if mode in entry:
            line += f"  {mode} {entry[mode]['mean']:.3f} ms"
    if "outputs_agree" in entry:
        line += f"  (compiled in {entry['compile_s']:.0f} s, outputs {'agree' if entry['outputs_agree'] else 'DIFFER'})"
    if "error" in entry:
        line += f"  ERROR at {entry['stage']}: {entry['error'][:200]}"
    return line


def worker_loop(tasks, reports, opts):
    """A worker process: takes problems (suite.Problem) from `tasks` until None; sends ("start", stem) and then
    ("done", stem, summary) on its pipe `reports`."""
    while (problem := tasks.get()) is not None:
        reports.send(("start", problem.stem))
        reports.send(("done", problem.stem, run_problem(problem, opts)))
