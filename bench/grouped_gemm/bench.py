#!/usr/bin/env python3
"""bench/grouped_gemm: grouped GEMMs (every problem its own M, N, K, all in one launch) through the DSL's SM90
pointer-array kernels, best of a fixed set of configurations per shape, against two cuBLAS baselines timed in the
same worker process as each configuration, at the same precision:
  cuBLAS loop     one cuBLASLt matmul per problem, back to back on the launch stream, timed as one run (the
                  epilogue fused as cuBLASLt fuses it for one GEMM);
  cuBLAS grouped  one cublasGemmGroupedBatchedEx call, every problem its own group (alpha fused, nothing else).
Suites (problem files in problems/):
  bf16      grouped_gemm_bf16.toml      bf16, no epilogue: MoE (16 experts), 64 small problems, odd M
  f16_relu  grouped_gemm_f16_relu.toml  f16, scale(alpha = 0.5) >> relu: MoE (8 experts), 32 small problems

  bench.py prepare --suite S --ucutlass build/ucutlass --work DIR          # write specs (and build unless --no-build)
  bench.py run     --suite S --ucutlass build/ucutlass --work DIR --out RESULTS_DIR   # on the GPU machine
  bench.py report  --suite S --ucutlass build/ucutlass --work DIR --out RESULTS_DIR   # the table again from its JSON

`run` writes RESULTS_DIR/grouped_gemm_<suite>.json (every measurement) and .md (per shape: ours, both baselines,
ours/each speed ratio, and their geomeans)."""
import argparse
import json
import math
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
from ucut_bench import run_report, utc_now, build_specs, add_bench_arguments, gpu_environment  # noqa: E402

SUITES = {
    "bf16": {"problem": "grouped_gemm_bf16.toml", "dtype": "bf16", "chain": [],
             "title": "Grouped GEMM bf16 vs cuBLAS"},
    "f16_relu": {"problem": "grouped_gemm_f16_relu.toml", "dtype": "f16", "chain": ["scale(alpha = 0.5)", "relu"],
                 "title": "Grouped GEMM f16 + scale + relu vs cuBLAS"},
}
# (name, CTA tile M x N x K, cluster, kernel schedule): CUTLASS's pointer-array kernels exist as tma_cooperative
# (tile M a multiple of 128) and tma_pingpong.
CONFIGS = [
    ("coop_128x128x64_c2x1", (128, 128, 64), (2, 1, 1), "tma_cooperative"),
    ("coop_128x256x64_c2x1", (128, 256, 64), (2, 1, 1), "tma_cooperative"),
    ("coop_256x128x64_c1x2", (256, 128, 64), (1, 2, 1), "tma_cooperative"),
    ("pingpong_64x128x64", (64, 128, 64), (1, 1, 1), "tma_pingpong"),
    ("pingpong_64x256x64_c1x2", (64, 256, 64), (1, 2, 1), "tma_pingpong"),
]


def spec_text(suite, name, tile, cluster, schedule):
    t = SUITES[suite]["dtype"]
    chain = "".join(f"  >> {stage}\n" for stage in SUITES[suite]["chain"])
    return (f"# bench/grouped_gemm {suite} configuration {name}\n"
            f"kernel grouped_{suite}_{name} : sm90a\n"
            f"  grouped_gemm(A: {t}[G,M,K] row, B: {t}[G,K,N] col, acc: f32)\n"
            f"    .with_threadblockshape({tile[0]}, {tile[1]}, {tile[2]})\n"
            f"    .with_cluster({cluster[0]}, {cluster[1]}, {cluster[2]})\n"
            f"    .with_scheduler({schedule})\n"
            f"{chain}"
            f"  >> store(D: {t}[G,M,N] row)\n")


def spec_path(args, name):
    return os.path.join(args.work, f"grouped_{args.suite}_{name}.ucut")


def problem_path(args):
    return os.path.join(args.work, f"grouped_{args.suite}.toml")


def results_path(args, ext):
    return os.path.join(args.out, f"grouped_gemm_{args.suite}.{ext}")


def prepare(args):
    os.makedirs(args.work, exist_ok=True)
    specs = []
    for name, tile, cluster, schedule in CONFIGS:
        path = spec_path(args, name)
        with open(path, "w") as f:
            f.write(spec_text(args.suite, name, tile, cluster, schedule))
        specs.append(path)
    shutil.copy(os.path.join(ROOT, "problems", SUITES[args.suite]["problem"]), problem_path(args))
    return build_specs(args, specs)


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def median_ms(timing):
    return timing["event_ms"]["median"] if timing and timing.get("measured") else None


def summarize(args, runs):
    env = gpu_environment(x["report"] for x in runs)
    labels = []
    for x in runs:
        for s in x["report"].get("shapes", []):
            if s["result"]["shape"].get("label") not in labels:
                labels.append(s["result"]["shape"]["label"])
    rows = []
    for label in labels:
        best, statuses, shape = None, set(), None
        for x in runs:
            s = next((s for s in x["report"].get("shapes", []) if s["result"]["shape"].get("label") == label), None)
            if s is None:
                continue
            res = s["result"]
            shape = shape or res["shape"]
            statuses.add(res["status"])
            if res["status"] != "ok" or not s["counts"]:
                continue
            t = res["candidate"]["event_ms"]["median"]
            if best is None or t < best["ms"]:
                best = {"config": x["config"], "ms": t, "loop_ms": median_ms(res.get("cublas")),
                        "grouped_ms": median_ms(res.get("cublas_grouped")), "vs_loop": s.get("vs_cublas") or None,
                        "vs_grouped": s.get("vs_cublas_grouped") or None, "tflops": s["tflops"],
                        "pct_sol_fp16": s.get("pct_sol_fp16"), "max_rel_err": res["verify"]["max_rel_err"],
                        "gflop": s["sol"]["work"]["gemm_flops"] / 1e9, "loop_kernel": res.get("cublas_kernel"),
                        "grouped_kernel": res.get("cublas_grouped_kernel") or res.get("cublas_grouped_error")}
        rows.append({"label": label, "problems": len((shape or {}).get("groups", [])), "best": best,
                     "statuses": sorted(statuses)})
    loop = [r["best"]["vs_loop"] for r in rows if r["best"] and r["best"]["vs_loop"]]
    grouped = [r["best"]["vs_grouped"] for r in rows if r["best"] and r["best"]["vs_grouped"]]
    summary = {"geomean_vs_cublas_loop": geomean(loop), "geomean_vs_cublas_grouped": geomean(grouped),
               "shapes_vs_loop": len(loop), "shapes_vs_grouped": len(grouped), "shapes": len(rows)}
    suite = SUITES[args.suite]
    meta = {"bench": "grouped_gemm", "suite": args.suite, "date": utc_now(), "command": " ".join(sys.argv),
            "gpu": env.get("gpu_name"), "driver": env.get("driver_version"), "cuda_runtime": env.get("runtime_version"),
            "cublas": env.get("cublas_version"), "trials": args.trials}
    with open(results_path(args, "json"), "w") as f:
        json.dump({"meta": meta, "summary": summary, "rows": rows, "runs": runs}, f, indent=1)
    fmt_ms = lambda v: f"{v:.4f}" if v else "-"  # noqa: E731
    fmt_x = lambda v: f"{v:.3f}" if v else "-"  # noqa: E731
    md = [f"# {suite['title']} ({meta['date']})", "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}, cuBLAS {meta['cublas']}; "
          f"{args.trials} timed runs per kernel, cold L2, median of CUDA events. Both baselines are timed in the same "
          "process as each configuration: the cuBLAS loop is one cuBLASLt matmul per problem on the launch stream, "
          "timed as one run; cuBLAS grouped is one cublasGemmGroupedBatchedEx call (each problem its own group; it "
          "fuses only alpha). Speed ratios are baseline time / our time (above 1: ours is faster).",
          f"Command: `{meta['command']}`", "",
          "| shape | problems | GFLOP | best config | ours ms | cuBLAS loop ms | cuBLAS grouped ms | ours/loop | "
          "ours/grouped | TFLOP/s | max rel err |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b = r["best"]
        if b:
            md.append(f"| {r['label']} | {r['problems']} | {b['gflop']:.2f} | {b['config']} | {b['ms']:.4f} | "
                      f"{fmt_ms(b['loop_ms'])} | {fmt_ms(b['grouped_ms'])} | {fmt_x(b['vs_loop'])} | "
                      f"{fmt_x(b['vs_grouped'])} | {b['tflops']:.0f} | {b['max_rel_err']} |")
        else:
            md.append(f"| {r['label']} | {r['problems']} | | none ran: {', '.join(r['statuses']) or 'not run'} "
                      "| | | | | | | |")
    md += ["", f"Geomean ours/cuBLAS loop over {summary['shapes_vs_loop']}/{summary['shapes']} shapes: "
               f"{summary['geomean_vs_cublas_loop']:.3f}; ours/cuBLAS grouped over "
               f"{summary['shapes_vs_grouped']}/{summary['shapes']}: {summary['geomean_vs_cublas_grouped']:.3f}."]
    md += ["", "What the baselines ran:"]
    md += [f"- {r['label']}: loop: {r['best']['loop_kernel']}; grouped: {r['best']['grouped_kernel']}"
           for r in rows if r["best"]]
    with open(results_path(args, "md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md[5:]), flush=True)


def run(args):
    os.makedirs(args.out, exist_ok=True)
    runs = []
    only = set(args.only.split(",")) if args.only else None
    for name, _, _, _ in CONFIGS:
        if only and name not in only:
            continue
        cmd = [args.ucutlass, "run", spec_path(args, name), "--problem", problem_path(args), "--json",
               "--trials", str(args.trials), "--input-sets", str(args.input_sets), "--timeout-per-shape", "180"]
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.time()
        report, code = run_report(cmd, args.run_timeout)
        runs.append({"config": name, "exit": code, "seconds": time.time() - t0, "report": report})
        print(f"  {time.time() - t0:.0f} s; " + ", ".join(
            f"{s['result']['shape'].get('label')}: {s['result']['status']}"
            + (f" {s['vs_cublas']:.3f}x loop" if s.get("vs_cublas") else "")
            + (f" {s['vs_cublas_grouped']:.3f}x grouped" if s.get("vs_cublas_grouped") else "")
            for s in report.get("shapes", [])), flush=True)
        if report.get("stopped_at"):
            print(f"  stopped at {report['stopped_at']}: {report.get('message', '')[:500]}", flush=True)
        summarize(args, runs)
    return 0


def report(args):
    with open(results_path(args, "json")) as f:
        results = json.load(f)
    args.trials = results.get("meta", {}).get("trials", args.trials)
    summarize(args, results["runs"])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_bench_arguments(ap, steps=("prepare", "run", "report"))
    ap.add_argument("--suite", choices=sorted(SUITES), default="bf16", help="which problems (default bf16)")
    ap.add_argument("--only", default="", help="comma-separated configuration names to run")
    ap.add_argument("--input-sets", type=int, default=3, help="seeded input sets, verified and rotated while timing")
    ap.add_argument("--run-timeout", type=int, default=900, help="seconds for one configuration over all shapes")
    args = ap.parse_args()
    return {"prepare": prepare, "run": run, "report": report}[args.step](args)


if __name__ == "__main__":
    sys.exit(main())
