#!/usr/bin/env python3
"""Planted cheating kernels vs the harness: each fixture in tests/gpu/fixtures cheats in one known way and
must get its flag; the honest one must get none. Runs `ucutlass run --library` on each and writes
OUT/planted.json and OUT/planted.md. Exit 0: all as expected; 1: a cheat slipped through or an honest kernel
was flagged, on either shape; 77: no GPU (ctest reports SKIPPED).

  planted.py --ucutlass build/ucutlass --planted build/planted --out DIR"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from ucut_bench import run_report, utc_now, gpu_environment  # noqa: E402
# fixture: the flags it must raise on each shape, by label (an honest kernel: no flag that disqualifies; None: the
# harness cannot catch it on that shape, said so in docs/harness.md; the shape is still run and its flags reported)
EXPECTED = {
    "honest_naive": {"checked": set(), "small": set()},
    "writes_nothing": {"checked": {"not_verified"}, "small": {"not_verified"}},
    "mutates_input": {"checked": {"input_mutated"}, "small": {"input_mutated"}},
    "constant_output": {"checked": {"not_verified", "output_constant", "output_input_independent"},
                        "small": {"not_verified", "output_constant", "output_input_independent"}},
    "side_stream": {"checked": {"off_stream"}, "small": {"off_stream"}},
    "precomputed": {"checked": {"not_verified"}, "small": {"not_verified"}},
    "cached_answer": {"checked": {"faster_than_sol"}, "small": None},
    "persisting_l2": {"checked": {"l2_persistence"}, "small": {"l2_persistence"}},
    "schedule_aware": {"checked": {"reverify_failed"}, "small": {"reverify_failed"}},
    "side_stream_third": {"checked": {"off_stream"}, "small": {"off_stream"}},
    "cublas_handoff": {"checked": {"library_main_op", "library_kernels"},
                       "small": {"library_main_op", "library_kernels"}},
    "dlopen_handoff": {"checked": {"library_kernels"}, "small": {"library_kernels"}},
}
LABELS = ("checked", "small")
PROBLEM = """name = "planted_bf16"
a = "bf16 row"
b = "bf16 col"
d = "bf16 row"
shapes = [ { m = 2048, n = 2048, k = 2048, label = "checked" }, { m = 256, n = 256, k = 256, label = "small" } ]
"""


def fmt(flags):
    """A flag set for people: none, uncaught (None: not expected to be caught), or the ids."""
    if flags is None:
        return "not caught (known limit)"
    return ", ".join(sorted(flags)) or "none"


def fmt_raised(flags):
    return "(no result)" if flags is None else fmt(flags)


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
        raised = {sh["result"]["shape"].get("label", ""): {f["id"] for f in sh["flags"] if f["disqualifies"]}
                  for sh in report.get("shapes", [])}
        verdicts = {}
        for label in LABELS:
            want, got = expected[label], raised.get(label)
            if got is None:
                verdicts[label] = False  # the shape has no result
            elif want is None:
                verdicts[label] = None   # not expected to be caught: reported, not judged
            else:
                verdicts[label] = want <= got if want else not got
        passed = all(v is not False for v in verdicts.values())
        ok &= passed
        results.append({"kernel": name, "expected": {k: sorted(v) if v is not None else None for k, v in expected.items()},
                        "raised": {k: sorted(v) for k, v in raised.items()}, "verdicts": verdicts, "pass": passed,
                        "report": report})
        print(f"{'ok  ' if passed else 'FAIL'} {name:18} " + "; ".join(
            f"{label}: expected {fmt(expected[label])}, got {fmt_raised(raised.get(label))}" for label in LABELS))
    env = gpu_environment(x["report"] for x in results)
    meta = {"date": utc_now(), "command": " ".join(sys.argv),
            "gpu": env.get("gpu_name"), "driver": env.get("driver_version")}
    json.dump({"meta": meta, "results": results}, open(os.path.join(args.out, "planted.json"), "w"), indent=1)
    md = [f"# Planted cheating kernels ({meta['date']})", "", f"GPU {meta['gpu']}, driver {meta['driver']}. "
          f"Command: `{meta['command']}`", "",
          "| kernel | expected (2048³) | raised (2048³) | expected (256³) | raised (256³) | verdict |",
          "|---|---|---|---|---|---|"]
    for x in results:
        e, r = x["expected"], x["raised"]
        md.append(f"| {x['kernel']} | {fmt(e['checked'])} | {fmt_raised(r.get('checked'))} | {fmt(e['small'])} | "
                  f"{fmt_raised(r.get('small'))} | {'pass' if x['pass'] else 'FAIL'} |")
    open(os.path.join(args.out, "planted.md"), "w").write("\n".join(md) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
