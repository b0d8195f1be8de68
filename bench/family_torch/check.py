"""GPU check of `ucutlass export --torch` for the memory-bound families: each family spec of examples/mskb/ (both
precisions) exported as a PyTorch function, built, run on bandwidth-bound sizes (tasks.py), compared with an FP64
reference, and timed side by side with the PyTorch eager expression a user would write, and with a device copy of
the same bytes (the achievable bandwidth, measured in the same run).

    python3 bench/family_torch/check.py --ucutlass build/ucutlass --work DIR --out DIR [--only a,b] [--trials 50]
                                        [--jobs N]

Timing: bench/torch_timing.py (cold L2: a buffer of 4x the L2 written before every run, CUDA events around the call,
median). Writes family_torch.json and family_torch.md (GPU, driver, command, date) into --out."""
import argparse
import datetime
import importlib.util
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))
import tasks  # noqa: E402
from torch_timing import time_op  # noqa: E402


def export(ucutlass, spec, folder):
    """`ucutlass export --torch` of one spec into folder; the path of its Python module."""
    r = subprocess.run([ucutlass, "export", "--torch", spec, "-o", folder], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"export --torch {spec} failed:\n{r.stderr}")
    return os.path.join(folder, f"ucut_{os.path.splitext(os.path.basename(spec))[0]}.py")


def load_function(path):
    """The exported function of the module at path (its extension built on the first call, or by build())."""
    name = os.path.splitext(os.path.basename(path))[0]
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module, getattr(module, name)


def build(path):
    """Builds one extension (in a worker process); None, or the error."""
    try:
        load_function(path)[0]._ucut_load()
        return None
    except Exception:  # noqa: BLE001  reported with its task
        return traceback.format_exc()


def copy_bandwidth(flush, trials):
    """Bytes per ms of a device-to-device copy of 1 GiB: the achievable bandwidth, this run."""
    src = torch.empty(1 << 28, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    ms = time_op(lambda: dst.copy_(src), trials, flush)
    return 2 * src.numel() * src.element_size() / ms


def run_one(name, dtype, fn, flush, trials):
    make, reference, eager = tasks.TASKS[name]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(2026)
    tensors, scalars = make(dtype, gen)
    out = fn(*tensors, **scalars)
    torch.cuda.synchronize()
    want = reference(tensors, scalars)
    err = tasks.rel_error(out, want)
    row = {"task": name, "dtype": str(dtype).replace("torch.", ""), "shape": [list(t.shape) for t in tensors],
           "rel_error": err, "tolerance": tasks.tolerance(dtype), "correct": bool(err <= tasks.tolerance(dtype))}
    if name == "matrix_transpose":
        row["correct"] = row["correct"] and out.stride() == (1, out.shape[0])
    ours = time_op(lambda: fn(*tensors, **scalars), trials, flush)
    theirs = time_op(lambda: eager(tensors, scalars), trials, flush)
    row.update({"ours_ms": ours, "eager_ms": theirs, "speedup_vs_eager": theirs / ours,
                "least_bytes": tasks.least_bytes(tensors, out)})
    return row


def markdown(rows, meta):
    lines = ["# `export --torch` of the family specs vs PyTorch eager", "",
             f"- GPU: {meta['gpu']}; driver {meta['driver']}; torch {meta['torch']}", f"- command: `{meta['command']}`",
             f"- date: {meta['date']}",
             "- timing: cold L2 (4x-L2 buffer written before each run), CUDA events, median of "
             f"{meta['trials']} runs; eager = the PyTorch expression in bench/family_torch/tasks.py, same dtype",
             f"- copy bandwidth (1 GiB device copy, this run): {meta['copy_gbs']:.0f} GB/s; `% copy` = least bytes "
             "(inputs once, output once) / our time, as a share of it",
             "- correct: max |ours - FP64 reference| / max(1, max |reference|) within 1e-4 (FP32) or 2e-2 (BF16)", "",
             "| task | dtype | shapes | rel. error | correct | ours ms | eager ms | vs eager | GB/s | % copy |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['task']} | {r['dtype']} | — | — | **failed**: {r['error'].splitlines()[-1][:120]} "
                         "| | | | | |")
            continue
        gbs = r["least_bytes"] / r["ours_ms"] / 1e6
        lines.append(f"| {r['task']} | {r['dtype']} | {' '.join('x'.join(map(str, s)) for s in r['shape'])} | "
                     f"{r['rel_error']:.1e} | {'yes' if r['correct'] else '**no**'} | {r['ours_ms']:.4f} | "
                     f"{r['eager_ms']:.4f} | {r['speedup_vs_eager']:.2f}x | {gbs:.0f} | "
                     f"{100 * gbs * 1e6 / meta['copy_bytes_per_ms']:.0f}% |")
    ok = [r for r in rows if "error" not in r]
    if ok:
        shares = sorted(r["least_bytes"] / r["ours_ms"] / meta["copy_bytes_per_ms"] for r in ok)
        geo = statistics.geometric_mean(r["speedup_vs_eager"] for r in ok)
        lines += ["", f"{sum(r['correct'] for r in ok)} of {len(rows)} correct; median share of the copy bandwidth "
                      f"{100 * statistics.median(shares):.0f}% (lowest {100 * shares[0]:.0f}%); geomean vs eager "
                      f"{geo:.2f}x"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--work", required=True, help="where the exported extensions go")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="", help="comma-separated task names")
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="extensions built at once")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("check.py: needs a CUDA GPU (torch.cuda.is_available() is False)")
    only = [t for t in args.only.split(",") if t]
    names = [n for n in tasks.TASKS if not only or n in only]
    flush = torch.empty(4 * torch.cuda.get_device_properties(0).L2_cache_size // 4, device="cuda",
                        dtype=torch.float32)
    copy = copy_bandwidth(flush, args.trials)
    specs = [(name, spec_name, dtype) for name in names
             for spec_name, dtype in ((name, torch.float32), (name + "_bf16", torch.bfloat16))]
    modules, failed = {}, {}
    for name, spec_name, dtype in specs:
        try:
            modules[spec_name] = export(args.ucutlass, os.path.join(ROOT, "examples", "mskb", spec_name + ".ucut"),
                                        os.path.join(args.work, spec_name))
        except Exception:  # noqa: BLE001
            failed[spec_name] = traceback.format_exc()
    # The extensions build in parallel first (each with nvcc and torch's headers); the runs below load them.
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for spec_name, error in zip(modules, pool.map(build, list(modules.values()))):
            if error:
                failed[spec_name] = error
    rows = []
    for name, spec_name, dtype in specs:
        try:
            if spec_name in failed:
                raise RuntimeError(failed[spec_name])
            row = run_one(name, dtype, load_function(modules[spec_name])[1], flush, args.trials)
        except Exception:  # noqa: BLE001  a failing task is a row of the report, not the end of the run
            row = {"task": name, "dtype": str(dtype).replace("torch.", ""), "error": traceback.format_exc()}
        print(json.dumps({k: v for k, v in row.items() if k != "error"}) if "error" not in row
              else f"{spec_name}: FAILED\n{row['error']}", flush=True)
        rows.append(row)
        torch.cuda.empty_cache()
    smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout.strip()
    meta = {"gpu": torch.cuda.get_device_name(0), "driver": smi, "torch": torch.__version__,
            "command": " ".join(sys.argv), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "trials": args.trials, "copy_bytes_per_ms": copy, "copy_gbs": copy / 1e6}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "family_torch.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    text = markdown(rows, meta)
    with open(os.path.join(args.out, "family_torch.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
