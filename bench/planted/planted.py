#!/usr/bin/env python3
"""Planted cheating kernels vs the harness: each fixture in tests/gpu/fixtures cheats in one known way and
must get its flag; the honest one must get none. Runs `ucutlass run --library` on each and writes
OUT/planted.json and OUT/planted.md. Exit 0: all as expected; 1: a cheat slipped through or an honest kernel
was flagged; 77: no GPU (ctest reports SKIPPED).

  planted.py --ucutlass build/ucutlass --planted build/planted --out DIR"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from ucut_bench import run_report, utc_now, gpu_environment  # noqa: E402
# fixture: the flags it must raise on the 2048^3 shape (an honest kernel: none that disqualify)
EXPECTED = {
    "honest_naive": set(),
    "writes_nothing": {"not_verified"},
    "mutates_input": {"input_mutated"},
    "constant_output": {"not_verified", "output_constant", "output_input_independent"},
    "side_stream": {"off_stream"},
    "precomputed": {"faster_than_sol"},
}
PROBLEM = """name = "planted_bf16"
a = "bf16 row"
b = "bf16 col"
d = "bf16 row"
shapes = [ { m = 2048, n = 2048, k = 2048, label = "checked" }, { m = 256, n = 256, k = 256, label = "small" } ]
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--planted", required=True, help="folder of the built fixtures (<name>.so)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    problem = os.path.join(args.out, "planted_problem.toml")
    open(problem, "w").write(PROBLEM)
    results, ok = [], True
    for name, expected in EXPECTED.items():
        lib = os.path.join(args.planted, f"{name}.so")
        report, code = run_report([args.ucutlass, "run", "--library", lib, "--problem", problem, "--json", "--trials",
                                   str(args.trials), "--no-cublas"], 600)
        if report.get("stopped_at") in ("crash", "timeout"):
            print(f"{name}: ucutlass run failed (exit {code}): {report['message']}")
            return 1
        if report.get("stopped_at") == "gpu":
            print(f"SKIP: no GPU: {report.get('message')}")
            return 77
        flags = [{f["id"] for f in s["flags"] if f["disqualifies"]} for s in report["shapes"]]
        got = flags[0] if flags else {"(no result)"}
        passed = expected <= got if expected else not got
        ok &= passed
        results.append({"kernel": name, "expected": sorted(expected), "flags_checked_shape": sorted(got),
                        "flags_small_shape": sorted(flags[1]) if len(flags) > 1 else None, "pass": passed,
                        "report": report})
        print(f"{'ok  ' if passed else 'FAIL'} {name:16} expected {sorted(expected) or 'no flag'}, got {sorted(got) or 'no flag'}")
    env = gpu_environment(x["report"] for x in results)
    meta = {"date": utc_now(), "command": " ".join(sys.argv),
            "gpu": env.get("gpu_name"), "driver": env.get("driver_version")}
    json.dump({"meta": meta, "results": results}, open(os.path.join(args.out, "planted.json"), "w"), indent=1)
    md = [f"# Planted cheating kernels ({meta['date']})", "", f"GPU {meta['gpu']}, driver {meta['driver']}. "
          f"Command: `{meta['command']}`", "", "| kernel | expected flags (2048³) | raised (2048³) | raised (256³) | verdict |",
          "|---|---|---|---|---|"]
    for x in results:
        md.append(f"| {x['kernel']} | {', '.join(x['expected']) or 'none'} | {', '.join(x['flags_checked_shape']) or 'none'} | "
                  f"{', '.join(x['flags_small_shape'] or []) or 'none'} | {'pass' if x['pass'] else 'FAIL'} |")
    open(os.path.join(args.out, "planted.md"), "w").write("\n".join(md) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
