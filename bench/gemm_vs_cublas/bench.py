#!/usr/bin/env python3
"""bench/gemm_vs_cublas: the best of a fixed set of DSL configurations (configs.py) vs cuBLAS, per shape and
dtype, with cuBLAS measured in the same worker process as each configuration.

  bench.py prepare --ucutlass build/ucutlass --work DIR     # write specs + problems, build every kernel (no GPU)
  bench.py run     --ucutlass build/ucutlass --work DIR --out RESULTS_DIR   # on the GPU machine

`run` writes RESULTS_DIR/gemm_vs_cublas.json (every measurement) and gemm_vs_cublas.md (the table)."""
import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import configs  # noqa: E402
from ucut_bench import run_report, utc_now, build_specs, add_bench_arguments, gpu_environment  # noqa: E402


def jobs():
    """(dtype, config, spec text, problem file stem): aligned configs run every shape, unaligned ones the odd shapes."""
    for dname, (dtype, out, mth) in configs.DTYPES.items():
        for cname, tile, cluster, sched, tsched in configs.CONFIGS[dname]:
            yield (dname, cname, configs.spec_text(f"{dname}_{cname}", dtype, out, mth, tile, cluster, sched, tsched),
                   f"problem_{dname}")
        for cname, tile, cluster, sched, tsched in configs.UNALIGNED_CONFIGS.get(dname, []):
            yield (dname, cname, configs.spec_text(f"{dname}_{cname}", dtype, out, mth, tile, cluster, sched, tsched,
                                                   align=1),
                   f"problem_{dname}_unaligned")


def prepare(args):
    os.makedirs(args.work, exist_ok=True)
    specs = []
    for dname, cname, text, _ in jobs():
        path = os.path.join(args.work, f"{dname}_{cname}.ucut")
        with open(path, "w") as f:
            f.write(text)
        specs.append(path)
    for dname, (dtype, out, mth) in configs.DTYPES.items():
        with open(os.path.join(args.work, f"problem_{dname}.toml"), "w") as f:
            f.write(configs.problem_text(f"gemm_{dname}", dtype, out, mth, configs.SHAPES))
        if dname in configs.UNALIGNED_CONFIGS:
            with open(os.path.join(args.work, f"problem_{dname}_unaligned.toml"), "w") as f:
                f.write(configs.problem_text(f"gemm_{dname}_unaligned", dtype, out, mth, configs.UNALIGNED_SHAPES))
    return build_specs(args, specs)


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def run(args):
    os.makedirs(args.out, exist_ok=True)
    runs = []
    only = set(args.only.split(",")) if args.only else None
    for dname, cname, _, problem_stem in jobs():
        if only and f"{dname}_{cname}" not in only and dname not in only:
            continue
        spec = os.path.join(args.work, f"{dname}_{cname}.ucut")
        problem = os.path.join(args.work, f"{problem_stem}.toml")
        cmd = [args.ucutlass, "run", spec, "--problem", problem, "--json", "--trials", str(args.trials),
               "--timeout-per-shape", "60"]
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.time()
        report, code = run_report(cmd, args.run_timeout)
        runs.append({"dtype": dname, "config": cname, "exit": code, "seconds": time.time() - t0, "report": report})
        secs = [round(s["result"].get("seconds", 0), 1) for s in report.get("shapes", [])]
        print(f"  {time.time() - t0:.0f} s; per shape {secs}", flush=True)
        if report.get("stopped_at"):
            print(f"  stopped at {report['stopped_at']}: {report.get('message', '')[:500]}", flush=True)
        summarize(args, runs)
    return 0


def shape_of(report, m, n, k):
    """The report's entry for shape m x n x k (reports list only the shapes of their problem file)."""
    for s in report.get("shapes", []):
        sh = s["result"].get("shape") or {}
        if (sh.get("m"), sh.get("n"), sh.get("k")) == (m, n, k):
            return s
    return None


def summarize(args, runs):
    env = gpu_environment(x["report"] for x in runs)
    rows, summary = [], {}
    for dname in configs.DTYPES:
        ratios = []
        for m, n, k, label in configs.SHAPES:
            best = None
            tried = []
            for x in runs:
                if x["dtype"] != dname:
                    continue
                s = shape_of(x["report"], m, n, k)
                if s is None:
                    continue
                res = s["result"]
                tried.append(res["status"])
                if res["status"] != "ok" or not s["counts"]:
                    continue
                t = res["candidate"]["event_ms"]["median"]
                if best is None or t < best["ms"]:
                    best = {"config": x["config"], "ms": t, "cublas_ms": res["cublas"]["event_ms"]["median"],
                            "ratio": s["vs_cublas"], "tflops": s["tflops"], "pct_sol_fp16": s["pct_sol_fp16"],
                            "max_rel_err": res["verify"]["max_rel_err"], "cublas_kernel": res["cublas_kernel"]}
            statuses = sorted(set(tried))
            rows.append({"dtype": dname, "m": m, "n": n, "k": k, "label": label, "best": best, "statuses": statuses})
            if best:
                ratios.append(best["ratio"])
        summary[dname] = {"geomean_vs_cublas": geomean(ratios), "min_vs_cublas": min(ratios) if ratios else 0,
                          "shapes_measured": len(ratios), "shapes": len(configs.SHAPES)}
    meta = {"bench": "gemm_vs_cublas", "date": utc_now(),
            "command": " ".join(sys.argv), "gpu": env.get("gpu_name"), "driver": env.get("driver_version"),
            "cuda_runtime": env.get("runtime_version"), "cublas": env.get("cublas_version"), "trials": args.trials}
    with open(os.path.join(args.out, "gemm_vs_cublas.json"), "w") as f:
        json.dump({"meta": meta, "summary": summary, "rows": rows, "runs": runs}, f, indent=1)
    md = [f"# GEMM vs cuBLAS ({meta['date']})", "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}, cuBLAS {meta['cublas']}; "
          f"{args.trials} timed runs per kernel, cold L2, median of CUDA events; cuBLAS timed in the same process.",
          f"Command: `{meta['command']}`", "",
          "| dtype | shape (MxNxK) | best config | ours ms | cuBLAS ms | ours/cuBLAS speed | TFLOP/s | % FP16 SOL |",
          "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b = r["best"]
        shape = f"{r['m']}x{r['n']}x{r['k']} ({r['label']})"
        if b:
            md.append(f"| {r['dtype']} | {shape} | {b['config']} | {b['ms']:.4f} | {b['cublas_ms']:.4f} | "
                      f"{b['ratio']:.3f} | {b['tflops']:.0f} | {b['pct_sol_fp16']:.0f} |")
        else:
            why = ", ".join(r["statuses"]) or "not run"
            md.append(f"| {r['dtype']} | {shape} | none ran: {why} | | | | | |")
    md += ["", "| dtype | geomean ours/cuBLAS | min | shapes measured |", "|---|---|---|---|"]
    for d, s in summary.items():
        md.append(f"| {d} | {s['geomean_vs_cublas']:.3f} | {s['min_vs_cublas']:.3f} | {s['shapes_measured']}/{s['shapes']} |")
    with open(os.path.join(args.out, "gemm_vs_cublas.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md[-6:]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_bench_arguments(ap)
    ap.add_argument("--only", default="", help="comma-separated dtypes or dtype_config names to run")
    ap.add_argument("--run-timeout", type=int, default=300, help="seconds for one configuration over all shapes")
    args = ap.parse_args()
    return prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
