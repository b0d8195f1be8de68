#!/usr/bin/env python3
"""bench/conv_vs_cudnn: KernelBench level-1 convolutions through the DSL's SM90 implicit-GEMM kernels, best of a
fixed set of tile/cluster configurations per shape, against cuDNN at the same precision (f32 data, TF32 math, NHWC,
the fastest algorithm cudnnFind reports) timed in the same worker process as each configuration. Suites:
  conv2d            problems/kernelbench_conv2d_tf32.toml (L1/55, 56, 62, 63, 80) vs cudnnConvolutionForward
  conv_transpose2d  problems/kernelbench_conv_transpose2d_tf32.toml (L1/57, 65, 69, 71, 78: stride 1) vs
                    cudnnConvolutionBackwardData (a transposed convolution is its forward's data gradient)
  conv_transpose1d  problems/kernelbench_conv_transpose1d_tf32.toml (L1/64, 74), likewise
  conv_transpose3d  problems/kernelbench_conv_transpose3d_tf32.toml (L1/58, 61, 68, 70), likewise
  conv_transpose2d_strided  problems/kernelbench_conv_transpose_strided_tf32.toml (the stride-2 and stride-5
                    upsampling layers of L2/2, 5, 16 and L1/81 without its dilation) through CUTLASS 2.x's strided
                    dgrad on sm90a, likewise
  grouped_conv2d    problems/kernelbench_grouped_conv2d_bf16.toml (ResNeXt and ShuffleNet grouped layers, bf16) through
                    the CUTLASS 2.x grouped kernel on sm90a vs cudnnConvolutionForward with a group count
  depthwise_conv2d  problems/kernelbench_depthwise_f32.toml (L1/82-85, exact f32) through the direct convolution; its
                    filter size is compiled in, so each configuration runs the shapes of its own filter

  bench.py prepare --suite S --ucutlass build/ucutlass --work DIR          # write specs (and build unless --no-build)
  bench.py run     --suite S --ucutlass build/ucutlass --work DIR --out RESULTS_DIR   # on the GPU machine

`run` writes RESULTS_DIR/<out>.json (every measurement) and <out>.md (the table): conv_vs_cudnn for conv2d,
conv_transpose_vs_cudnn for conv_transpose2d, conv_transpose1d_vs_cudnn, conv_transpose3d_vs_cudnn,
conv_transpose_strided_vs_cudnn, grouped_conv2d_vs_cudnn and depthwise_conv2d_vs_cudnn."""
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

# Per suite: the problem file, the operator call of its specs, the output, and (name, CTA tile M x N x K, cluster)
# configurations. The SM90 conv kernel is warp-specialized with one consumer warpgroup, so M x N is at most
# 128 x 128 in f32 accumulators (or 256 x 64); K 16 fits the 16-channel L1/63 without zero-filled channels; N 32
# fits the 32-output-channel transposed convolutions.
SUITES = {
    "conv2d": {
        "problem": "kernelbench_conv2d_tf32.toml",
        "call": "conv2d(X: f32[N,H,W,C], W: f32[K,R,S,C], acc: f32, math = tf32)",
        "out": "conv_vs_cudnn",
        "title": "Conv2d fprop vs cuDNN",
        "configs": [
            ("128x128x32", (128, 128, 32), (1, 1, 1)),
            ("128x128x32_c2x1", (128, 128, 32), (2, 1, 1)),
            ("128x64x32", (128, 64, 32), (1, 1, 1)),
            ("128x64x32_c2x1", (128, 64, 32), (2, 1, 1)),
            ("128x128x64_c2x1", (128, 128, 64), (2, 1, 1)),
            ("128x128x16", (128, 128, 16), (1, 1, 1)),
            ("64x128x32", (64, 128, 32), (1, 1, 1)),
        ],
    },
    "conv_transpose2d": {
        "problem": "kernelbench_conv_transpose2d_tf32.toml",
        "call": "conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K], acc: f32, math = tf32)",
        "out": "conv_transpose_vs_cudnn",
        "title": "ConvTranspose2d (stride 1) vs cuDNN",
        "configs": [
            ("128x64x32", (128, 64, 32), (1, 1, 1)),
            ("128x64x32_c2x1", (128, 64, 32), (2, 1, 1)),
            ("128x128x32", (128, 128, 32), (1, 1, 1)),
            ("128x32x32", (128, 32, 32), (1, 1, 1)),
            ("256x64x32", (256, 64, 32), (1, 1, 1)),
            ("128x64x64", (128, 64, 64), (1, 1, 1)),
            ("256x32x32", (256, 32, 32), (1, 1, 1)),
        ],
    },
    "conv_transpose1d": {
        "problem": "kernelbench_conv_transpose1d_tf32.toml",
        "call": "conv_transpose1d(X: f32[N,W,C], W: f32[C,S,K], acc: f32, math = tf32)",
        "output": "Y: f32[N,Q,K]",
        "out": "conv_transpose1d_vs_cudnn",
        "title": "ConvTranspose1d (stride 1) vs cuDNN",
        "configs": [("128x64x32", (128, 64, 32), (1, 1, 1)), ("128x128x32", (128, 128, 32), (1, 1, 1))],
    },
    "conv_transpose3d": {
        "problem": "kernelbench_conv_transpose3d_tf32.toml",
        "call": "conv_transpose3d(X: f32[N,D,H,W,C], W: f32[C,T,R,S,K], acc: f32, math = tf32)",
        "output": "Y: f32[N,Z,P,Q,K]",
        "out": "conv_transpose3d_vs_cudnn",
        "title": "ConvTranspose3d (stride 1) vs cuDNN",
        # K 16: one tile per 16 of the 32 or 48 input channels, none half empty.
        "configs": [("128x64x16", (128, 64, 16), (1, 1, 1)), ("128x32x16", (128, 32, 16), (1, 1, 1))],
    },
    # The 2.x suites: (name, CTA tile, filter R x S for depthwise or None); no clusters.
    "conv_transpose2d_strided": {
        "problem": "kernelbench_conv_transpose_strided_tf32.toml",
        "call": "conv_transpose2d(X: f32[N,H,W,C], W: f32[C,R,S,K], acc: f32, math = tf32)",
        "out": "conv_transpose_strided_vs_cudnn",
        "title": "Strided ConvTranspose2d (CUTLASS 2.x strided dgrad on sm90a) vs cuDNN",
        "schedule": "multistage",
        "configs": [("128x64x16", (128, 64, 16), None), ("128x64x32", (128, 64, 32), None),
                    ("128x128x16", (128, 128, 16), None), ("256x64x16", (256, 64, 16), None)],
    },
    "grouped_conv2d": {
        "problem": "kernelbench_grouped_conv2d_bf16.toml",
        "call": "grouped_conv2d(X: bf16[N,H,W,C], W: bf16[K,R,S,CG], acc: f32)",
        "output": "Y: bf16[N,P,Q,K]",
        "out": "grouped_conv2d_vs_cudnn",
        "title": "Grouped Conv2d (CUTLASS 2.x grouped implicit GEMM on sm90a) vs cuDNN",
        "schedule": "multistage",
        # K/G must divide tile N (kMultipleGroup): 8, 16 and 32 channels per group here.
        "configs": [("128x64x32", (128, 64, 32), None), ("128x128x32", (128, 128, 32), None),
                    ("64x64x32", (64, 64, 32), None), ("256x64x32", (256, 64, 32), None),
                    ("64x128x64", (64, 128, 64), None)],
    },
    "depthwise_conv2d": {
        "problem": "kernelbench_depthwise_f32.toml",
        "call": "depthwise_conv2d(X: f32[N,H,W,C], W: f32[C,{r},{s},1], acc: f32)",
        "output": "Y: f32[N,P,Q,C]",
        "out": "depthwise_conv2d_vs_cudnn",
        "title": "Depthwise Conv2d (direct convolution, exact f32) vs cuDNN",
        "schedule": "multistage",
        # M output pixels (64 = 8x8, 16 = 4x4), N channels per CTA, K = R*S; one filter size per spec.
        "configs": [("3x3_64x64", (64, 64, 9), (3, 3)), ("3x3_64x32", (64, 32, 9), (3, 3)),
                    ("3x1_64x16", (64, 16, 3), (3, 1)), ("3x7_64x64", (64, 64, 21), (3, 7)),
                    ("3x7_64x32", (64, 32, 21), (3, 7))],
    },
}


CUDNN_SETUP = {"grouped_conv2d": "bf16 data, f32 accumulation, the problem's group count",
               "depthwise_conv2d": "f32 data, exact f32 math, groups = C"}


def spec_text(suite, name, tile, extra):
    """`extra` is the cluster of an SM90 configuration, or the filter (R, S) of a depthwise one (None otherwise)."""
    s = SUITES[suite]
    output = s.get("output", "Y: f32[N,P,Q,K]")
    call = s["call"].format(r=extra[0], s=extra[1]) if "{r}" in s["call"] else s["call"]
    lines = [f"# bench/conv_vs_cudnn {suite} configuration {name}", f"kernel {suite}_{name} : sm90a", f"  {call}",
             f"    .with_threadblockshape({tile[0]}, {tile[1]}, {tile[2]})"]
    if s.get("schedule") == "multistage":
        lines.append("    .with_scheduler(multistage)")
    else:
        lines += [f"    .with_cluster({extra[0]}, {extra[1]}, {extra[2]})", "    .with_scheduler(tma_warpspecialized)"]
    return "\n".join(lines + [f"  >> store({output})"]) + "\n"


def spec_path(args, name):
    return os.path.join(args.work, f"{args.suite}_{name}.ucut")


def prepare(args):
    os.makedirs(args.work, exist_ok=True)
    specs = []
    suite = SUITES[args.suite]
    for name, tile, extra in suite["configs"]:
        path = spec_path(args, name)
        with open(path, "w") as f:
            f.write(spec_text(args.suite, name, tile, extra))
        specs.append(path)
    shutil.copy(os.path.join(ROOT, "problems", suite["problem"]), os.path.join(args.work, f"{args.suite}.toml"))
    return build_specs(args, specs)


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def summarize(args, runs):
    env = gpu_environment(x["report"] for x in runs)
    labels = []
    for x in runs:
        for s in x["report"].get("shapes", []):
            if s["result"]["shape"].get("label") not in labels:
                labels.append(s["result"]["shape"]["label"])
    rows = []
    for label in labels:
        best, statuses = None, set()
        for x in runs:
            s = next((s for s in x["report"].get("shapes", []) if s["result"]["shape"].get("label") == label), None)
            if s is None:
                continue
            res = s["result"]
            statuses.add(res["status"])
            if res["status"] != "ok" or not s["counts"] or not res["cublas"]["measured"]:
                continue
            t = res["candidate"]["event_ms"]["median"]
            if best is None or t < best["ms"]:
                best = {"config": x["config"], "ms": t, "cudnn_ms": res["cublas"]["event_ms"]["median"],
                        "ratio": s["vs_cublas"], "tflops": s["tflops"], "pct_sol": s.get("pct_sol_tf32"),
                        "max_rel_err": res["verify"]["max_rel_err"], "cudnn": res["cublas_kernel"]}
        rows.append({"label": label, "best": best, "statuses": sorted(statuses)})
    torch_rows = {}
    if args.torch:  # PyTorch eager, timed in its own process on the same GPU in this visit (torch_conv_baselines.py)
        with open(args.torch) as f:
            torch_doc = json.load(f)
        torch_rows = torch_doc["rows"]
    for r in rows:
        t = torch_rows.get(r["label"])
        if r["best"] and t:
            r["best"]["torch_nchw_ms"] = t["nchw_ms"]
            r["best"]["torch_channels_last_ms"] = t["channels_last_ms"]
    ratios = [r["best"]["ratio"] for r in rows if r["best"]]
    eager = [r["best"]["torch_nchw_ms"] / r["best"]["ms"] for r in rows if r["best"] and "torch_nchw_ms" in r["best"]]
    summary = {"geomean_vs_cudnn": geomean(ratios), "min_vs_cudnn": min(ratios) if ratios else 0,
               "shapes_measured": len(ratios), "shapes": len(rows)}
    if eager:
        summary["geomean_vs_torch_eager_nchw"] = geomean(eager)
    suite = SUITES[args.suite]
    meta = {"bench": "conv_vs_cudnn", "suite": args.suite, "date": utc_now(), "command": " ".join(sys.argv), "gpu": env.get("gpu_name"),
            "driver": env.get("driver_version"), "cuda_runtime": env.get("runtime_version"), "trials": args.trials}
    if torch_rows:
        meta["torch"] = torch_doc["versions"]
    with open(os.path.join(args.out, suite["out"] + ".json"), "w") as f:
        json.dump({"meta": meta, "summary": summary, "rows": rows, "runs": runs}, f, indent=1)
    md = [f"# {suite['title']} ({meta['date']})", "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}; {args.trials} timed runs "
          "per kernel, cold L2, median of CUDA events; cuDNN (" + CUDNN_SETUP.get(args.suite, "f32 data, TF32 math")
          + ", NHWC, fastest algorithm from cudnnFind) timed in the same process as each configuration."
          + (" Our time includes the filter flip the transposed-convolution kernel runs before every launch."
             if args.suite in ("conv_transpose1d", "conv_transpose2d", "conv_transpose3d") else "")
          + (f" Runs merged from an earlier visit: {', '.join(sorted({r['config'] for r in runs if r.get('merged_from')}))}."
             if any(r.get("merged_from") for r in runs) else ""),
          f"Command: `{meta['command']}`", "",
          "| shape | best config | ours ms | cuDNN ms | ours/cuDNN speed | TFLOP/s | % of SOL | max rel err | cuDNN ran |"
          + (" PyTorch eager ms (NCHW / channels_last) | ours/eager NCHW speed |" if torch_rows else ""),
          "|---|---|---|---|---|---|---|---|---|" + ("---|---|" if torch_rows else "")]
    if torch_rows:
        md.insert(3, f"PyTorch {torch_doc['versions']['torch']} eager F.conv2d(groups=G) with its default flags, timed the "
                     "same way in its own process on the same GPU during this visit "
                     "(bench/conv_vs_cudnn/torch_conv_baselines.py).")
    for r in rows:
        b = r["best"]
        if b and "torch_nchw_ms" in b:
            md.append(f"| {r['label']} | {b['config']} | {b['ms']:.4f} | {b['cudnn_ms']:.4f} | {b['ratio']:.3f} | "
                      f"{b['tflops']:.1f} | {b['pct_sol'] or 0:.0f} | {b['max_rel_err']} | {b['cudnn']} |"
                      f" {b['torch_nchw_ms']:.4f} / {b['torch_channels_last_ms']:.4f} | {b['torch_nchw_ms'] / b['ms']:.3f} |")
        elif b:
            md.append(f"| {r['label']} | {b['config']} | {b['ms']:.4f} | {b['cudnn_ms']:.4f} | {b['ratio']:.3f} | "
                      f"{b['tflops']:.1f} | {b['pct_sol'] or 0:.0f} | {b['max_rel_err']} | {b['cudnn']} |")
        else:
            md.append(f"| {r['label']} | none ran: {', '.join(r['statuses']) or 'not run'} | | | | | | | |")
    md += ["", f"Geomean ours/cuDNN over {summary['shapes_measured']}/{summary['shapes']} shapes: "
               f"{summary['geomean_vs_cudnn']:.3f} (min {summary['min_vs_cudnn']:.3f})."
               + (f" Geomean ours/PyTorch eager (NCHW): {summary['geomean_vs_torch_eager_nchw']:.3f}."
                  if "geomean_vs_torch_eager_nchw" in summary else "")]
    with open(os.path.join(args.out, suite["out"] + ".md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md[-len(rows) - 3:]), flush=True)


def run(args):
    os.makedirs(args.out, exist_ok=True)
    runs = []
    if args.merge:  # earlier runs of other configurations (each ratio was measured within its own run)
        with open(args.merge) as f:
            runs = [dict(r, merged_from=args.merge) for r in json.load(f)["runs"]]
    only = set(args.only.split(",")) if args.only else None
    for name, _, _ in SUITES[args.suite]["configs"]:
        if only and name not in only:
            continue
        cmd = [args.ucutlass, "run", spec_path(args, name), "--problem",
               os.path.join(args.work, f"{args.suite}.toml"), "--json", "--trials", str(args.trials),
               "--input-sets", str(args.input_sets), "--timeout-per-shape", "120"]
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.time()
        report, code = run_report(cmd, args.run_timeout)
        runs.append({"config": name, "exit": code, "seconds": time.time() - t0, "report": report})
        print(f"  {time.time() - t0:.0f} s; " + ", ".join(
            f"{s['result']['shape'].get('label')}: {s['result']['status']}"
            + (f" {s['vs_cublas']:.3f}x" if s.get("vs_cublas") else "") for s in report.get("shapes", [])), flush=True)
        if report.get("stopped_at"):
            print(f"  stopped at {report['stopped_at']}: {report.get('message', '')[:500]}", flush=True)
        summarize(args, runs)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_bench_arguments(ap)
    ap.add_argument("--suite", choices=sorted(SUITES), default="conv2d", help="which convolutions (default conv2d)")
    ap.add_argument("--only", default="", help="comma-separated configuration names to run")
    ap.add_argument("--input-sets", type=int, default=2, help="seeded input sets (L1/63's output is 8.5 GB per copy)")
    ap.add_argument("--run-timeout", type=int, default=600, help="seconds for one configuration over all shapes")
    ap.add_argument("--torch", default="", help="torch_conv_baselines.py's JSON for this suite's problem file")
    ap.add_argument("--merge", default="", help="a previous results .json of the same suite whose runs join this table")
    args = ap.parse_args()
    return prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
