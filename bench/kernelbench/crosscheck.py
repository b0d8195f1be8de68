#!/usr/bin/env python3
"""Checks each problem file against the KernelBench problem it names (`[kernelbench]` level and file), on CUDA in
IEEE float32 (TF32 off for cuBLAS and cuDNN, so the two sides round alike):
  (i)   the parameters: KernelBench's Model(*get_init_inputs()) and our module (suite.build_module), each built
        after torch.manual_seed(42), shapes and values compared exactly;
  (ii)  the inputs: our make_inputs' shapes against KernelBench's get_inputs() shapes;
  (iii) the outputs on the same inputs (ours): allclose at atol = rtol = 1e-4, and the max abs difference.
Parameters pair up in order, or else by shape (KernelBench's parameters() lists a module's own parameters before its
submodules', not always in creation order); the note names any left unpaired. When paired values differ,
KernelBench's are copied into ours and the outputs are compared with those: "weights copied". Problems run one at a
time; each entry goes to OUT/problems/<stem>.json as it is done, then OUT/crosscheck.json and OUT/crosscheck.md.
--device cpu runs small problems without a GPU. The problem files are checked, and read, by `ucutlass suite check`
(--ucutlass PATH); a file with diagnostics stops the run with the tool's messages.

  crosscheck.py suites/kernelbench --kernelbench KernelBench-checkout/KernelBench --out OUT [--ucutlass build/ucutlass]
                [--skip-done]"""
import argparse
import gc
import importlib.util
import math
import os
import shlex
import sys
import time

import torch

import environment
import results
import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402

TOLERANCE = 1e-4


def import_source(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernelbench_input_shapes(source):
    """The shapes of get_inputs()'s tensors, made on the meta device when the file allows (no memory, no time)."""
    try:
        with torch.device("meta"):
            inputs = source.get_inputs()
    except Exception:  # noqa: BLE001  a file that insists on real tensors (e.g. calls .cuda()) gets them
        torch.manual_seed(42)
        inputs = source.get_inputs()
    return [list(x.shape) for x in inputs if isinstance(x, torch.Tensor)]


def kernelbench_model(source, device):
    """Model(*get_init_inputs()) as KernelBench's eval builds it: seed, init inputs (tensors to the device), seed
    again, construct on the CPU."""
    torch.manual_seed(42)
    init = [x.to(device, torch.float32) if isinstance(x, torch.Tensor) else x for x in source.get_init_inputs()]
    torch.manual_seed(42)
    return source.Model(*init)


def pair_parameters(a, b):
    """For each of our parameters b[j], the index of the KernelBench parameter a[i] it stands for, or None: in order
    when the shapes agree in order, else by shape, preferring equal values (KernelBench's parameters() lists a
    module's own parameters before its submodules', which need not be the order it created them in)."""
    if [p.shape for p in a] == [q.shape for q in b]:
        return list(range(len(a)))
    unused, pairs = list(range(len(a))), []
    for q in b:
        same_shape = [i for i in unused if a[i].shape == q.shape]
        i = next((i for i in same_shape if torch.equal(a[i], q)), same_shape[0] if same_shape else None)
        if i is not None:
            unused.remove(i)
        pairs.append(i)
    return pairs


def compare_parameters(theirs, ours, entry):
    """Fills entry's parameter fields; copies KernelBench's values into the paired parameters of ours whose values
    differ. Returns the note."""
    a, b = list(theirs.parameters()), list(ours.parameters())
    entry["parameters"] = {"kernelbench": [list(p.shape) for p in a], "ours": [list(q.shape) for q in b]}
    pairs = pair_parameters(a, b)
    paired = [(a[i], q) for i, q in zip(pairs, b) if i is not None]
    extra_theirs = [list(a[i].shape) for i in sorted(set(range(len(a))) - set(pairs))]
    extra_ours = [list(q.shape) for i, q in zip(pairs, b) if i is None]
    differ = [(p, q) for p, q in paired if not torch.equal(p, q)]
    entry["params_equal"] = not (differ or extra_theirs or extra_ours)
    notes = []
    if pairs != list(range(len(a))) and not extra_theirs and not extra_ours:
        notes.append("parameters paired by shape: KernelBench lists them in another order")
    if extra_theirs:
        notes.append(f"KernelBench has parameters ours lacks: {extra_theirs}")
    if extra_ours:
        notes.append(f"ours has parameters KernelBench lacks: {extra_ours}")
    if differ:
        with torch.no_grad():
            for p, q in differ:
                q.copy_(p)
        entry["weights_copied"] = True
        notes.append(f"weights copied ({len(differ)} of {len(paired)} paired parameters differed)")
    elif paired and (extra_theirs or extra_ours):
        notes.append("the paired parameters are equal")
    return "; ".join(notes)


def check(problem, kb_dir, device, entry):
    """Fills the cross-check entry of one problem step by step (an exception leaves what was found before it)."""
    kb = problem.kernelbench
    if kb is None:
        entry["note"] = "no [kernelbench] table"
        return
    path = os.path.join(kb_dir, f"level{kb['level']}", kb["file"])
    entry["kernelbench_source"] = path
    source = import_source(path, f"kernelbench_l{kb['level']}_{kb['id']}")
    entry["kernelbench_input_shapes"] = kernelbench_input_shapes(source)
    entry["input_shapes_equal"] = entry["kernelbench_input_shapes"] == entry["input_shapes"]
    theirs = kernelbench_model(source, device)
    torch.manual_seed(42)
    ours = suite.build_module(problem)
    entry["note"] = compare_parameters(theirs, ours, entry)
    theirs, ours = theirs.to(device, torch.float32), ours.to(device, torch.float32)
    with torch.no_grad():
        # Fresh, identical inputs for each side, in case a module writes into its inputs.
        expected = theirs(*suite.make_inputs(problem, seed=42, device=device, dtype=torch.float32))
        got = ours(*suite.make_inputs(problem, seed=42, device=device, dtype=torch.float32))
    if not isinstance(expected, torch.Tensor):
        entry["note"] += f"; KernelBench's forward returns a {type(expected).__name__}, not a tensor"
        return
    entry["output_shape_kernelbench"] = list(expected.shape)
    entry["output_shapes_equal"] = expected.shape == got.shape
    if entry["output_shapes_equal"]:
        entry["outputs_close"] = bool(torch.allclose(got, expected, atol=TOLERANCE, rtol=TOLERANCE))
        entry["max_abs_diff"] = results.number((got - expected).abs_().max().item())
        entry["outputs_close_1e-2"] = bool(torch.allclose(got, expected, atol=1e-2, rtol=1e-2))


def run_one(problem, args):
    began = time.perf_counter()
    entry = results.describe(problem)
    try:
        check(problem, args.kernelbench, args.device, entry)
    except Exception as e:  # noqa: BLE001  one problem's failure is recorded in its entry, and the run goes on
        entry["error"] = f"{type(e).__name__}: {e}"[:4000]
        entry["oom"] = isinstance(e, torch.cuda.OutOfMemoryError) or "out of memory" in str(e)
    entry["seconds"] = time.perf_counter() - began
    entry["measured_at"] = utc_now()
    results.write_entry(args.out, problem.stem, entry)
    gc.collect()
    if args.device == "cuda":
        torch.cuda.empty_cache()
    return entry


def yes_no(entry, key):
    return {True: "yes", False: "**no**"}.get(entry.get(key), "")


def params_cell(entry):
    if entry.get("weights_copied"):
        return "weights copied"
    return yes_no(entry, "params_equal")


def markdown(meta, entries, missing, date):
    env = meta["environment"]
    lines = [f"# KernelBench-derived suite: cross-check against KernelBench ({date})", "",
             f"Run on {meta['device']}: GPU {env['gpu']}, driver {env['driver']}; torch {env['torch']}, CUDA {env['cuda']}, cuDNN "
             f"{env['cudnn']}. IEEE float32: torch.backends.cuda.matmul.allow_tf32 = {env['cuda_matmul_allow_tf32']}, "
             f"torch.backends.cudnn.allow_tf32 = {env['cudnn_allow_tf32']} (set by the cross-check). Both modules built "
             f"after torch.manual_seed(42); outputs on the same inputs, allclose at atol = rtol = {TOLERANCE}. "
             f"Command: `{meta['command']}`.", "",
             f"{len(entries)} problems, {sum('error' in e for e in entries)} with errors"
             + (f"; not checked yet: {', '.join(missing)}" if missing else "") + ".", "",
             "| problem | KernelBench file | params equal | input shapes equal | output shapes equal | outputs close "
             "| max abs diff | note |",
             "|---|---|---|---|---|---|---|---|"]
    for e in entries:
        diff = e.get("max_abs_diff", "")
        lines.append(f"| {e['problem']} | {(e.get('kernelbench') or {}).get('file', '')} | {params_cell(e)} | "
                     f"{yes_no(e, 'input_shapes_equal')} | {yes_no(e, 'output_shapes_equal')} | "
                     f"{yes_no(e, 'outputs_close')} | {f'{diff:.3g}' if isinstance(diff, float) else diff} | "
                     f"{results.md_cell(e.get('error', '')[:160] or e.get('note', ''))} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="problem files or folders of them")
    ap.add_argument("--kernelbench", required=True, help="a KernelBench checkout's KernelBench/ folder (level1..3)")
    ap.add_argument("--out", default="out/kernelbench_crosscheck")
    ap.add_argument("--only", default="", help="comma-separated substrings: check the problems whose name has one")
    ap.add_argument("--skip-done", action="store_true", help="skip problems that have an entry in OUT/problems (except out-of-memory and load errors)")
    ap.add_argument("--time-limit", type=float, default=math.inf, help="start no problem after this many seconds")
    ap.add_argument("--device", default="cuda", help="where to run the modules (cpu: small problems, no GPU)")
    suite.add_ucutlass_option(ap)
    args = ap.parse_args()
    began = time.time()
    try:
        chosen = results.select(args.paths, args.only, args.ucutlass)
    except suite.ProblemError as e:
        sys.exit(str(e))
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(args.out, exist_ok=True)
    for problem in results.todo(chosen, args.out, args.skip_done):
        if time.time() - began > args.time_limit:
            print("time limit reached; resume with --skip-done", flush=True)
            break
        e = run_one(problem, args)
        print(f"{problem.stem}: params {params_cell(e) or '-'}, outputs close {yes_no(e, 'outputs_close') or '-'}"
              f" {e.get('error', '')[:200]}", flush=True)
    meta = {"environment": environment.environment(), "device": args.device, "command": shlex.join(sys.argv)}
    entries, missing = results.collect(args.out, chosen)
    date = utc_now()
    results.write_json(os.path.join(args.out, "crosscheck.json"),
                       {"meta": meta, "date": date, "problems": entries, "missing": missing})
    with open(os.path.join(args.out, "crosscheck.md"), "w") as f:
        f.write(markdown(meta, entries, missing, date))
    print(f"wrote {args.out}/crosscheck.json and crosscheck.md")


if __name__ == "__main__":
    main()
