#!/usr/bin/env python3
"""Planted cheating kernels vs the harness: each fixture in tests/gpu/fixtures cheats in one known way and
must get its flag; the honest one must get none. The precision fixtures (f32_*) run on an FP32 problem at 1e-2,
which their downgraded multiplies pass: they must get the measured class and the precision_change label
(docs/harness.md, "Measured precision") whatever their config declares (plain FP32, every one). The honest ones
also check the harness itself: the empty launch that floors the wall-clock check must time below them. Runs `ucutlass run --library` on each and writes
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
    # precision: the label the run must (True) or must not (False) raise, and the class each shape must measure
    "f32_honest": {"checked": set(), "small": set(), "problem": "f32", "precision": (False, "fp32")},
    "f32_as_tf32": {"checked": {"not_verified"}, "small": {"not_verified"}, "problem": "f32", "precision": (True, "tf32")},
    "f32_as_fp16": {"checked": {"not_verified"}, "small": {"not_verified"}, "problem": "f32", "precision": (True, "fp16")},
    "f32_as_bf16": {"checked": {"not_verified"}, "small": {"not_verified"}, "problem": "f32", "precision": (True, "bf16")},
    # the issue's case: unsigned (framework) draws at 1e-2, which an fp16 multiply passes and which the probe cannot
    # measure; a prebuilt library's FP32 claim is then labelled unproven
    "f32_as_fp16_framework": {"fixture": "f32_as_fp16", "args": ["--inputs", "framework"], "checked": set(),
                              "small": set(), "problem": "f32", "precision": (True, "unmeasured")},
    "cublas_handoff": {"checked": {"library_main_op", "library_kernels"},
                       "small": {"library_main_op", "library_kernels"}},
    "dlopen_handoff": {"checked": {"library_kernels"}, "small": {"library_kernels"}},
}
LABELS = ("checked", "small")
SHAPES = 'shapes = [ { m = 2048, n = 2048, k = 2048, label = "checked" }, { m = 256, n = 256, k = 256, label = "small" } ]\n'
PROBLEMS = {
    "bf16": 'name = "planted_bf16"\na = "bf16 row"\nb = "bf16 col"\nd = "bf16 row"\n' + SHAPES,
    # 1e-2; on the signed draws the downgraded multiplies still fail verification (outputs near zero), and the
    # measured precision names them whatever they declare
    "f32": 'name = "planted_f32"\na = "f32 row"\nb = "f32 col"\nd = "f32 row"\n'
           'tolerance = { atol = 1e-2, rtol = 1e-2 }\nframework_inputs = { a = "rand", b = "rand" }\n' + SHAPES,
}


def fmt(flags):
    """A flag set for people: none, uncaught (None: not expected to be caught), or the ids."""
    if flags is None:
        return "not caught (known limit)"
    return ", ".join(sorted(flags)) or "none"


def fmt_raised(flags):
    return "(no result)" if flags is None else fmt(flags)


def precision_of(report):
    """The run's precision_change label and each shape's measured class, by shape label."""
    return report.get("precision_change"), {
        sh["result"]["shape"].get("label", ""): sh["result"].get("integrity", {}).get("measured_precision")
        for sh in report.get("shapes", [])}


def precision_verdict(expected, report):
    """None when the fixture expects nothing of its precision, else whether label and classes are as expected."""
    if "precision" not in expected:
        return None
    want_label, want_class = expected["precision"]
    label, classes = precision_of(report)
    return label == want_label and all(classes.get(shape) == want_class for shape in LABELS)


def fmt_precision(expected, report):
    if "precision" not in expected:
        return ""
    want_label, want_class = expected["precision"]
    label, classes = precision_of(report)
    return (f"; precision: expected {want_class}{' labelled' if want_label else ''}, got "
            f"{', '.join(f'{k} {v}' for k, v in classes.items())}{' labelled' if label else ''}")


def floor_verdict(expected, report):
    """For an honest fixture (nothing expected on either shape): whether the harness's own floor for the wall-clock
    check, an empty launch timed under the same conditions, stays below the kernel's wall time on every shape. An
    empty launch slower than a real kernel means the floor absorbed a harness cost (it did: a CUPTI buffer flush
    before it, 0.5 ms on an H100), and then the off-stream wall-clock check cannot fire. None for the others (a
    kernel that launches nothing is legitimately faster than the empty launch)."""
    if any(expected[label] for label in LABELS):
        return None
    shapes = [sh["result"] for sh in report.get("shapes", [])]
    return bool(shapes) and all(
        r.get("integrity", {}).get("empty_launch_wall_ms", 0) < r.get("candidate", {}).get("wall_ms", {}).get("median", 0)
        for r in shapes)


def fmt_floor(verdict, report):
    if verdict is None:
        return ""
    floors = ", ".join(f"{sh['result']['shape'].get('label', '')} {sh['result'].get('integrity', {}).get('empty_launch_wall_ms', 0):.4f}"
                       f" < {sh['result'].get('candidate', {}).get('wall_ms', {}).get('median', 0):.4f}"
                       for sh in report.get("shapes", []))
    return f"; wall floor (empty launch < kernel, ms): {floors}{'' if verdict else ' FAILED'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--planted", required=True, help="folder of the built fixtures (<name>.so)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    problems = {}
    for kind, text in PROBLEMS.items():
        problems[kind] = os.path.join(args.out, f"planted_problem_{kind}.toml")
        open(problems[kind], "w").write(text)
    results, ok = [], True
    for name, expected in EXPECTED.items():
        lib = os.path.join(args.planted, f"{expected.get('fixture', name)}.so")
        problem = problems[expected.get("problem", "bf16")]
        report, code = run_report([args.ucutlass, "run", "--library", lib, "--problem", problem, "--json", "--trials",
                                   str(args.trials), "--no-cublas"] + expected.get("args", []), 600)
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
        precision = precision_verdict(expected, report)
        floor = floor_verdict(expected, report)
        passed = all(v is not False for v in verdicts.values()) and precision is not False and floor is not False
        ok &= passed
        results.append({"kernel": name, "expected": {k: sorted(expected[k]) if expected[k] is not None else None
                                                     for k in LABELS},
                        "expected_precision": expected.get("precision"), "precision": precision_of(report),
                        "raised": {k: sorted(v) for k, v in raised.items()}, "verdicts": verdicts,
                        "precision_verdict": precision, "floor_verdict": floor, "pass": passed, "report": report})
        print(f"{'ok  ' if passed else 'FAIL'} {name:18} " + "; ".join(
            f"{label}: expected {fmt(expected[label])}, got {fmt_raised(raised.get(label))}" for label in LABELS)
            + fmt_precision(expected, report) + fmt_floor(floor, report))
    env = gpu_environment(x["report"] for x in results)
    meta = {"date": utc_now(), "command": " ".join(sys.argv),
            "gpu": env.get("gpu_name"), "driver": env.get("driver_version")}
    json.dump({"meta": meta, "results": results}, open(os.path.join(args.out, "planted.json"), "w"), indent=1)
    md = [f"# Planted cheating kernels ({meta['date']})", "", f"GPU {meta['gpu']}, driver {meta['driver']}. "
          f"Command: `{meta['command']}`", "",
          "| kernel | expected (2048³) | raised (2048³) | expected (256³) | raised (256³) | precision expected | "
          "precision measured | verdict |",
          "|---|---|---|---|---|---|---|---|"]
    for x in results:
        e, r = x["expected"], x["raised"]
        want = x["expected_precision"]
        label, classes = x["precision"]
        md.append(f"| {x['kernel']} | {fmt(e['checked'])} | {fmt_raised(r.get('checked'))} | {fmt(e['small'])} | "
                  f"{fmt_raised(r.get('small'))} | "
                  f"{'—' if want is None else want[1] + (', precision_change' if want[0] else ', no label')} | "
                  f"{', '.join(f'{v}' for v in classes.values())}{', precision_change' if label else ''} | "
                  f"{'pass' if x['pass'] else 'FAIL'} |")
    open(os.path.join(args.out, "planted.md"), "w").write("\n".join(md) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
