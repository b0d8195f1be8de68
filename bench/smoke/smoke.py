#!/usr/bin/env python3
"""Smoke run of every example spec on the GPU: examples/<name>.ucut against problems/examples/<name>.toml
(one small shape with a CPU FP64 reference, one odd-M shape with the cuBLAS FP32 reference), verified with the
problem's tolerance and timed next to cuBLAS. Writes OUT/smoke.json and OUT/smoke.md; exit 1 if any example
fails verification or gets a disqualifying flag, 77 without a GPU. --specs and --problem run other specs the same way
(e.g. the variants of one kernel in bench/smoke/tf32_row_b against the example's problem).

  smoke.py --ucutlass build/ucutlass --out DIR [--specs 'DIR/*.ucut' --problem FILE]"""
import argparse
import glob
import json
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from ucut_bench import run_report, utc_now, gpu_environment  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--from", dest="start", default="",
                    help="start at this example (alphabetical order): resume a run a time limit cut short")
    ap.add_argument("--only", default="", help="comma-separated examples to run (default: all)")
    ap.add_argument("--specs", default=os.path.join(ROOT, "examples", "*.ucut"),
                    help="the specs to run, a glob (default: examples/*.ucut)")
    ap.add_argument("--problem", default="",
                    help="run every spec against this problem file (default: problems/examples/<spec name>.toml)")
    ap.add_argument("--run-args", default="",
                    help="more arguments for every `ucutlass run`, e.g. \"--inputs framework\" (the problem's framework_inputs)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results, ok = [], True
    for spec in sorted(glob.glob(args.specs)):
        name = os.path.splitext(os.path.basename(spec))[0]
        if name < args.start or (args.only and name not in args.only.split(",")):
            continue
        began = time.time()
        problem = args.problem or os.path.join(ROOT, "problems", "examples", f"{name}.toml")
        cmd = [args.ucutlass, "run", spec, "--problem", problem, "--json", "--trials", str(args.trials)] + args.run_args.split()
        report, _ = run_report(cmd, 600)
        # A worker that cannot use a GPU skips the run; any other stop at the GPU step is this example's failure.
        if report.get("stopped_at") == "gpu" and "none is usable" in report.get("message", ""):
            print(f"SKIP: no GPU: {report.get('message')}")
            return 77
        passed = not report.get("stopped_at") and report["shapes"] and all(s["counts"] for s in report["shapes"])
        ok &= bool(passed)
        results.append({"example": name, "pass": bool(passed), "report": report})
        print(f"{'ok  ' if passed else 'FAIL'} {name} ({time.time() - began:.0f} s): {report.get('message', '')[:300]}",
              flush=True)
    env = gpu_environment(x["report"] for x in results)
    meta = {"date": utc_now(), "command": " ".join(sys.argv),
            "gpu": env.get("gpu_name"), "driver": env.get("driver_version"), "cuda_runtime": env.get("runtime_version")}
    json.dump({"meta": meta, "results": results}, open(os.path.join(args.out, "smoke.json"), "w"), indent=1)
    md = [f"# Example smoke run ({meta['date']})", "",
          f"GPU {meta['gpu']}, driver {meta['driver']}, CUDA runtime {meta['cuda_runtime']}. Command: `{meta['command']}`", "",
          "| example | shape | reference | tolerance (atol/rtol) | max rel err | rel L2 | ours ms | cuBLAS ms | cuBLAS baseline | verdict |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for x in results:
        rep = x["report"]
        if rep.get("stopped_at"):
            md.append(f"| {x['example']} | | | | | | | | stopped at {rep['stopped_at']} | FAIL |")
            continue
        for s in rep["shapes"]:
            res, sh = s["result"], s["result"]["shape"]
            shape = (f"grouped {len(sh['groups'])}x" if sh.get("groups") else
                     f"{sh['m']}x{sh['n']}x{sh['k']}" + (f"x{sh['batch']}" if sh["batch"] > 1 else ""))
            md.append(f"| {x['example']} | {shape} | {res['reference_kind']} | {rep['tolerance']['atol']:g}/{rep['tolerance']['rtol']:g} | "
                      f"{res['verify']['max_rel_err']} | {res['verify']['rel_l2']} | "
                      f"{res['candidate']['event_ms']['median']:.4f} | {res['cublas']['event_ms']['median']:.4f} | "
                      f"{res['cublas_kernel']} | {'pass' if s['counts'] else 'FAIL: ' + ', '.join(f['id'] for f in s['flags'])} |")
    open(os.path.join(args.out, "smoke.md"), "w").write("\n".join(md) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
