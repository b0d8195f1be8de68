#!/usr/bin/env python3
"""bench/fused_epilogue: GEMM + bias + {relu, gelu} in bf16 at KernelBench Level-2 shapes, against what a user
would pick today, in one run on one GPU:
  - our fused kernel (best of two DSL configurations), timed by the ucutlass harness with cuBLASLt's own
    fused bias+activation epilogue (CUBLASLT_EPILOGUE_RELU_BIAS / GELU_BIAS) in the same worker process;
  - the same configurations without the epilogue (the bare GEMM), to price the epilogue;
  - PyTorch eager and torch.compile(mode="max-autotune-no-cudagraphs") (torch_baselines.py), same GPU, same run.

  bench.py prepare --ucutlass build/ucutlass --work DIR
  bench.py run --ucutlass build/ucutlass --work DIR --out RESULTS_DIR [--python python3]"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gemm_vs_cublas"))
import configs  # noqa: E402
sys.path.insert(0, os.path.join(HERE, ".."))
from ucut_bench import run_report, utc_now, build_specs, add_bench_arguments, gpu_environment  # noqa: E402

SHAPES = [(1024, 8192, 8192, "kb-l2-1024"), (16384, 4096, 4096, "prefill-16k")]
EPILOGUES = {"plain": "", "bias_relu": "bias(col) >> relu", "bias_gelu": "bias(col) >> gelu",
             "bias_gelu_tanh": "bias(col) >> gelu_tanh"}
CONFIGS = [c for c in configs.CONFIGS["bf16"] if c[0] in ("coop_128x256_c2x1", "coop_256x128_c1x2")]


def items():
    for ename, chain in EPILOGUES.items():
        for cname, tile, cluster, sched, tsched in CONFIGS:
            name = f"{ename}_{cname}"
            yield ename, cname, name, configs.spec_text(name, "bf16", "bf16", "native", tile, cluster, sched, tsched, chain)


def prepare(args):
    os.makedirs(args.work, exist_ok=True)
    specs = []
    for ename, cname, name, text in items():
        path = os.path.join(args.work, f"{name}.ucut")
        open(path, "w").write(text)
        specs.append(path)
    for ename, chain in EPILOGUES.items():
        open(os.path.join(args.work, f"problem_{ename}.toml"), "w").write(
            configs.problem_text(f"fused_{ename}", "bf16", "bf16", "native", SHAPES, chain))
    return build_specs(args, specs)


def run(args):
    os.makedirs(args.out, exist_ok=True)
    runs = []
    for ename, cname, name, _ in items():
        cmd = [args.ucutlass, "run", os.path.join(args.work, f"{name}.ucut"), "--problem",
               os.path.join(args.work, f"problem_{ename}.toml"), "--json", "--trials", str(args.trials)]
        print("$ " + " ".join(cmd), flush=True)
        report, _ = run_report(cmd, 300)
        runs.append({"epilogue": ename, "config": cname, "report": report})
    t = subprocess.run([args.python, os.path.join(HERE, "torch_baselines.py"), "--trials", str(args.trials)],
                       capture_output=True, text=True)
    try:
        torch_rows = json.loads(t.stdout)
    except json.JSONDecodeError:
        torch_rows = {"error": t.stderr[-3000:]}
    env = gpu_environment(x["report"] for x in runs)
    rows = []
    for si, (m, n, k, label) in enumerate(SHAPES):
        best = {}
        for x in runs:
            shapes = x["report"].get("shapes", [])
            if si >= len(shapes) or not shapes[si]["counts"]:
                continue
            s = shapes[si]
            ms = s["result"]["candidate"]["event_ms"]["median"]
            if x["epilogue"] not in best or ms < best[x["epilogue"]]["ms"]:
                best[x["epilogue"]] = {"config": x["config"], "ms": ms,
                                       "cublas_ms": s["result"]["cublas"]["event_ms"]["median"],
                                       "cublas_kernel": s["result"]["cublas_kernel"], "vs_cublas": s["vs_cublas"]}
        for ename in ("bias_relu", "bias_gelu", "bias_gelu_tanh"):
            b, bare = best.get(ename), best.get("plain")
            trow = (torch_rows.get("rows", {}) or {}).get(f"{m}x{n}x{k}_{ename}", {}) if isinstance(torch_rows, dict) else {}
            rows.append({"shape": [m, n, k], "label": label, "epilogue": ename, "ours": b, "bare": bare,
                         "epilogue_cost": (b["ms"] / bare["ms"] - 1) if b and bare else None, "torch": trow})
    meta = {"bench": "fused_epilogue", "date": utc_now(),
            "command": " ".join(sys.argv), "gpu": env.get("gpu_name"), "driver": env.get("driver_version"),
            "cuda_runtime": env.get("runtime_version"), "cublas": env.get("cublas_version"),
            "torch": torch_rows.get("versions") if isinstance(torch_rows, dict) else None, "trials": args.trials}
    json.dump({"meta": meta, "rows": rows, "runs": runs, "torch": torch_rows},
              open(os.path.join(args.out, "fused_epilogue.json"), "w"), indent=1)
    md = [f"# GEMM + bias + activation, bf16 ({meta['date']})", "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}, cuBLAS {meta['cublas']}, "
          f"torch {meta['torch']}. Median of {args.trials} cold-L2 runs (CUDA events). Ratios are speeds (>1 = ours faster).",
          f"Command: `{meta['command']}`", "",
          "| shape | epilogue | ours ms (config) | cuBLASLt fused ms | vs cuBLASLt | bare GEMM ms | epilogue cost | eager ms | compile ms |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        o, bare, t = r["ours"], r["bare"], r["torch"]
        shape = "x".join(map(str, r["shape"]))
        if not o:
            md.append(f"| {shape} | {r['epilogue']} | did not run | | | | | | |")
            continue
        md.append(f"| {shape} | {r['epilogue']} | {o['ms']:.4f} ({o['config']}) | {o['cublas_ms']:.4f} | {o['vs_cublas']:.3f} | "
                  f"{bare['ms'] if bare else float('nan'):.4f} | {100 * r['epilogue_cost'] if r['epilogue_cost'] is not None else float('nan'):+.1f}% | "
                  f"{t.get('eager_ms', float('nan')):.4f} | {t.get('compile_ms', float('nan')):.4f} |")
    open(os.path.join(args.out, "fused_epilogue.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_bench_arguments(ap)
    ap.add_argument("--python", default="python3")
    args = ap.parse_args()
    return prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
