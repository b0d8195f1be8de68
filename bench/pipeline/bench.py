#!/usr/bin/env python3
"""bench/pipeline: 3-stage pipelines against the same stages run as separate library calls, in one run on one GPU.
Suites: `mlp` — f32 activations converted to bf16, GEMM + bias + GELU, GEMM + bias into f32
(problems/mlp_block_pipeline.toml, a transformer MLP block as PyTorch hands it over); `conv` — the same for two
convolutions, conv + bias + ReLU then conv + bias (problems/conv_block_pipeline.toml, a ResNet-style block):
  - our pipeline (one host entry point: conversion kernel, two CUTLASS kernels, the bf16 intermediate in its
    workspace), best of a few DSL configurations, timed by the ucutlass harness;
  - in the same worker process, the stages as separate library calls: a conversion kernel and one cuBLASLt matmul
    per stage fusing what cuBLASLt can (bias, GELU — its tanh form), or one cuDNN convolution per stage;
  - PyTorch eager and torch.compile (torch_pipeline_baselines.py).

  bench.py prepare --suite mlp|conv --ucutlass build/ucutlass --work DIR [--no-build]
  bench.py run --suite mlp|conv --ucutlass build/ucutlass --work DIR --out RESULTS_DIR [--python python3]"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
from ucut_bench import run_report, utc_now, build_specs, add_bench_arguments, gpu_environment  # noqa: E402

# The suites: a problem, spec variants (each stage's configuration calls), and how a row names its shape.
SUITES = {
    "mlp": {
        "problem": os.path.join(ROOT, "problems", "mlp_block_pipeline.toml"),
        "title": "3-stage pipeline (f32 -> bf16, GEMM + bias + GELU, GEMM + bias -> f32)",
        "baseline": "cuBLASLt calls",
        "dims": "M, K, N, P",
        "spec": ("pipeline mlp_{name} : sm90a\n"
                 "  stage up = gemm(A: bf16[M,K] row from(f32), B: bf16[K,N] col, acc: f32){0}\n"
                 "    >> bias(col) >> gelu >> store(H: bf16[M,N] row)\n"
                 "  stage down = gemm(A: H, B: bf16[N,P] col, acc: f32){1}\n"
                 "    >> bias(col) >> store(Y: f32[M,P] row)\n"),
        "variants": [
            ("up128x256_down128x128", ".with_threadblockshape(128, 256, 64)", ""),
            ("up128x256c2_down128x256c2", ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)"),
            ("up256x128c1x2_down128x256", ".with_threadblockshape(256, 128, 64).with_cluster(1, 2, 1)",
             ".with_threadblockshape(128, 256, 64)"),
            ("up256x128c1x2_down256x128c1x2", ".with_threadblockshape(256, 128, 64).with_cluster(1, 2, 1)",
             ".with_threadblockshape(256, 128, 64).with_cluster(1, 2, 1)"),
            ("up128x256c2_down128x128sk", ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(128, 128, 64).with_tile_scheduler(stream_k)"),
            ("up128x128sk_down128x128sk", ".with_threadblockshape(128, 128, 64).with_tile_scheduler(stream_k)",
             ".with_threadblockshape(128, 128, 64).with_tile_scheduler(stream_k)"),
            # Small or odd M: the down projection's N is a quarter of the up's, so 128x128 tiles fill half the SMs.
            ("up128x256c2_down128x64", ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(128, 64, 64)"),
            ("up128x256c2_down64x128", ".with_threadblockshape(128, 256, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(64, 128, 64)"),
        ],
    },
    "conv": {
        "problem": os.path.join(ROOT, "problems", "conv_block_pipeline.toml"),
        "title": "3-stage conv pipeline (f32 -> bf16, conv + bias + ReLU, conv + bias -> f32)",
        "baseline": "cuDNN calls",
        "dims": "N, H, W, C, K, K2",
        "spec": ("pipeline conv_{name} : sm90a\n"
                 "  stage c1 = conv2d(X: bf16[N,H,W,C] from(f32), W: bf16[K,R,S,C], acc: f32){0}\n"
                 "    >> bias(col) >> relu >> store(Y1: bf16[N,P,Q,K])\n"
                 "  stage c2 = conv2d(X: Y1, W: bf16[K2,R2,S2,K], acc: f32){1}\n"
                 "    >> bias(col) >> store(Y: f32[N,P2,Q2,K2])\n"),
        "variants": [
            ("128x128", ".with_threadblockshape(128, 128, 64)", ".with_threadblockshape(128, 128, 64)"),
            ("128x128c2", ".with_threadblockshape(128, 128, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(128, 128, 64).with_cluster(2, 1, 1)"),
            ("128x64", ".with_threadblockshape(128, 64, 64)", ".with_threadblockshape(128, 64, 64)"),
            ("128x64c2", ".with_threadblockshape(128, 64, 64).with_cluster(2, 1, 1)",
             ".with_threadblockshape(128, 64, 64).with_cluster(2, 1, 1)"),
            ("256x64", ".with_threadblockshape(256, 64, 64)", ".with_threadblockshape(256, 64, 64)"),
        ],
    },
}


def spec_text(suite, name, first, second):
    s = SUITES[suite]
    return (f"# bench/pipeline {suite} variant {name}: {os.path.relpath(s['problem'], ROOT)}'s stages with these tiles.\n"
            + s["spec"].format(first, second, name=name))


def shape_dims(suite, shape):
    """The row's shape: the symbols the problem file gives."""
    st = (shape or {}).get("stages", [])
    if len(st) != 2:
        return "?"
    if suite == "mlp":
        return f"{st[0]['m']}, {st[0]['k']}, {st[0]['n']}, {st[1]['n']}"
    c1, c2 = st[0]["conv"], st[1]["conv"]
    return f"{c1['n']}, {c1['in'][1]}, {c1['in'][2]}, {c1['c']}, {c1['k']}, {c2['k']}"


def prepare(args):
    os.makedirs(args.work, exist_ok=True)
    specs = []
    for name, first, second in SUITES[args.suite]["variants"]:
        path = os.path.join(args.work, f"{args.suite}_{name}.ucut")
        open(path, "w").write(spec_text(args.suite, name, first, second))
        specs.append(path)
    return build_specs(args, specs)


def run(args):
    suite = SUITES[args.suite]
    problem = suite["problem"]
    os.makedirs(args.out, exist_ok=True)
    runs = []
    for name, _, _ in suite["variants"]:
        cmd = [args.ucutlass, "run", os.path.join(args.work, f"{args.suite}_{name}.ucut"), "--problem", problem, "--json",
               "--trials", str(args.trials)]
        print("$ " + " ".join(cmd), flush=True)
        report, _ = run_report(cmd, 400)
        runs.append({"variant": name, "report": report})
    t = subprocess.run([args.python, os.path.join(HERE, "torch_pipeline_baselines.py"), problem, "--suite", args.suite,
                        "--trials", str(args.trials)], capture_output=True, text=True)
    try:
        torch_rows = json.loads(t.stdout)
    except json.JSONDecodeError:
        torch_rows = {"error": t.stderr[-3000:]}
    env = gpu_environment(x["report"] for x in runs)
    n_shapes = max(len(x["report"].get("shapes", [])) for x in runs)
    rows = []
    for si in range(n_shapes):
        best, shape = None, None
        for x in runs:
            shapes = x["report"].get("shapes", [])
            if si >= len(shapes):
                continue
            s = shapes[si]
            shape = s["result"]["shape"]
            if not s["counts"]:
                continue
            ms = s["result"]["candidate"]["event_ms"]["median"]
            if best is None or ms < best["ms"]:
                best = {"variant": x["variant"], "ms": ms, "max_rel_err": s["result"]["verify"]["max_rel_err"],
                        "cublas_ms": s["result"]["cublas"]["event_ms"]["median"] if s["result"]["cublas"]["measured"] else None,
                        "cublas_kernel": s["result"]["cublas_kernel"], "vs_cublas": s["vs_cublas"],
                        "pct_sol_fp16": s["pct_sol_fp16"]}
        label = (shape or {}).get("label", "")
        trow = (torch_rows.get("rows", {}) or {}).get(label, {}) if isinstance(torch_rows, dict) else {}
        if best and trow.get("eager_ms"):
            best["vs_eager"] = trow["eager_ms"] / best["ms"]
        if best and trow.get("compile_ms"):
            best["vs_compile"] = trow["compile_ms"] / best["ms"]
        rows.append({"shape": shape, "label": label, "ours": best, "torch": trow})
    meta = {"bench": f"pipeline-{args.suite}", "date": utc_now(), "command": " ".join(sys.argv), "gpu": env.get("gpu_name"),
            "driver": env.get("driver_version"), "cuda_runtime": env.get("runtime_version"),
            "cublas": env.get("cublas_version"),
            "torch": torch_rows.get("versions") if isinstance(torch_rows, dict) else None, "trials": args.trials}
    json.dump({"meta": meta, "rows": rows, "runs": runs, "torch": torch_rows},
              open(os.path.join(args.out, f"{args.suite}.json"), "w"), indent=1)
    md = [f"# {suite['title']} vs separate library calls ({meta['date']})",
          "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}, cuBLAS {meta['cublas']}, "
          f"torch {meta['torch']}. Median of {args.trials} cold-L2 runs (CUDA events); every pipeline run verified "
          "against the harness's reference (FP32 stage by stage for GEMMs, FP64 direct for convolutions). Ratios are speeds (>1 = ours faster).",
          f"Command: `{meta['command']}`", "",
          f"| shape ({suite['dims']}) | ours ms (variant) | %SOL fp16 | {suite['baseline']} ms | vs {suite['baseline']} | eager ms | vs eager | compile ms | vs compile |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        o, t = r["ours"], r["torch"]
        dims = shape_dims(args.suite, r["shape"])
        if not o:
            md.append(f"| {dims} ({r['label']}) | did not run | | | | | | | |")
            continue
        nan = float("nan")
        md.append(f"| {dims} ({r['label']}) | {o['ms']:.4f} ({o['variant']}) | {o['pct_sol_fp16']:.1f} | "
                  f"{o['cublas_ms'] or nan:.4f} | {o['vs_cublas']:.3f} | {t.get('eager_ms', nan):.4f} | "
                  f"{o.get('vs_eager', nan):.3f} | {t.get('compile_ms', nan):.4f} | {o.get('vs_compile', nan):.3f} |")
    if rows and rows[0]["ours"]:
        md += ["", f"{suite['baseline']}: {rows[0]['ours']['cublas_kernel']}"]
    open(os.path.join(args.out, f"{args.suite}.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_bench_arguments(ap)
    ap.add_argument("--python", default="python3")
    ap.add_argument("--suite", choices=sorted(SUITES), default="mlp")
    args = ap.parse_args()
    return prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
