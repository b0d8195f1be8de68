#!/usr/bin/env python3
"""The README's headline table from a kb_eval.py run: fast_p at p = 0, 1, 1.5, 2 and the geomean speedup over the
correct problems, over EVERY problem of the run's suite (152 for suites/kernelbench: a problem without a spec, or
one not exported, compiled or correct, is a failure, never left out), for {the paper's tolerance 1e-2, KernelBench's
default 1e-4} x {eager, torch.compile}. The speedups are KernelBench's own (eval_kernel_against_ref's ref_runtime /
runtime; torch.compile timed by KernelBench's timing function in the same process on the same inputs); the
interleaved pass's geomean is a check column. Where the eval ran without torch.compile (--no-compile), a separate
pass of baseline.py on the same kind of GPU (--compile-baseline: torch.compile and eager of each suite module timed
KernelBench's way, as KernelBench's own baseline files are made) gives torch.compile's time; that row says so, and
the page gives how far that pass's eager times lie from the eval's reference times (the drift between the two
processes). The harness's own figure (a `ucutlass bench kernelbench` report at
that tolerance, --harness-1e-2 / --harness-1e-4) the second column, scored over the same denominator with its
filtered rule (flagged and weak-check results fail). The first sentence says how many problems use bf16 or TF32
operands against FP32 eager.

  kb_headline.py KB_EVAL_OUT/kb_eval.json [--harness-1e-2 REPORT.json] [--harness-1e-4 REPORT.json]
                 [--compile-baseline BASELINE.json] --out DIR
writes DIR/headline.md and DIR/headline.json."""
import argparse
import math
import os
import collections
import shlex
import statistics
import sys

import results

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402

FAST_P = (0, 1, 1.5, 2)
LOWER_PRECISION = ("bf16", "tf32", "fp16")  # operands below the FP32 the problems state


class HeadlineError(Exception):
    pass


def score(speedups, problems, filtered_out=None):
    """fast_p (share of `problems` correct and more than p times faster) and the geomean over the correct ones;
    `speedups`: problem → speedup, for the correct ones only (a correct one with no time counts for fast_0 only).
    `filtered_out`: problem → speedup of correct results a filter failed: they fail fast_p and stay in the geomean
    capped at 1x, so that a filter can only lower every figure (as src/suite/score.h)."""
    n = len(problems)
    if n == 0:
        raise HeadlineError("no problems to score")
    known = [s for p, s in speedups.items() if p in problems and s]
    correct = [p for p in speedups if p in problems]
    fast_p = {str(p): (len(correct) if p == 0 else sum(1 for s in known if s > p)) / n for p in FAST_P}
    known += [min(s, 1.0) for p, s in (filtered_out or {}).items() if p in problems and s]
    geomean = math.exp(sum(math.log(s) for s in known) / len(known)) if known else None
    return {"problems": n, "correct": len(correct), "fast_p": fast_p, "geomean": geomean}


def correct_at(entry, protocol):
    if protocol == "paper":
        return bool(entry.get("correctness"))
    return bool(((entry.get("verdicts") or {}).get("default") or {}).get("correct"))


def separate_compile(entries, baseline):
    """{problem: {"compile_ms", "eager_ms", "speedup_vs_compile", "eager_drift"}} for the correct entries with a
    time whose problem baseline.py timed under torch.compile (a baseline.json): torch.compile's mean from that pass
    over ours from the eval, and that pass's eager mean over the eval's reference mean (1.0: no drift)."""
    timed = {b["problem"]: b for b in baseline.get("problems", []) if (b.get("compile") or {}).get("mean")}
    out = {}
    for e in entries:
        b = timed.get(e["problem"])
        if not b or not e.get("correctness") or not e.get("runtime_ms"):
            continue
        row = {"compile_ms": b["compile"]["mean"], "eager_ms": (b.get("eager") or {}).get("mean"),
               "speedup_vs_compile": round(b["compile"]["mean"] / e["runtime_ms"], 4),
               "compiled_output_agrees": b.get("outputs_agree")}
        if row["eager_ms"] and e.get("ref_runtime_ms"):
            row["eager_drift"] = round(row["eager_ms"] / e["ref_runtime_ms"], 4)
        # Where the pass ran eager slower than the eval did, its torch.compile time is taken as slowed alike:
        # divided by that drift, so that this figure is never kinder to ours than either reading.
        row["speedup_vs_compile_drift_capped"] = round(row["speedup_vs_compile"] /
                                                       max(1.0, row.get("eager_drift") or 1.0), 4)
        out[e["problem"]] = row
    return out


def baseline_summary(baseline, separate, eval_gpus):
    """Where the separate pass ran and how far its eager times drift from the eval's; refuses a pass that ran on
    another kind of GPU than the eval's entries."""
    env = (baseline.get("meta") or {}).get("environment") or {}
    if set(eval_gpus) - {env.get("gpu")}:
        raise HeadlineError(f"--compile-baseline ran on {env.get('gpu')}, the eval on {', '.join(sorted(eval_gpus))}: "
                            "time torch.compile on the GPU that ran the eval")
    drift = sorted(r["eager_drift"] for r in separate.values() if r.get("eager_drift"))
    return {"gpu": env.get("gpu"), "driver": env.get("driver"), "torch": env.get("torch"),
            "command": (baseline.get("meta") or {}).get("command"), "date": baseline.get("date"),
            "problems": len(separate),
            "compiled_output_differs": sorted(p for p, r in separate.items() if r["compiled_output_agrees"] is False),
            "eager_drift": {"median": statistics.median(drift), "min": drift[0], "max": drift[-1]} if drift else None}


def entry_gpus(entries):
    """How many evaluated entries ran on each GPU (the `gpu` kb_eval.py records in each entry)."""
    return dict(collections.Counter(e.get("gpu") or "unrecorded" for e in entries if e.get("stage") == "done"))


def kernelbench_scores(entries, problems, separate=None):
    """{protocol: {baseline: score}} from kb_eval.py's entries, the interleaved check and, with `separate`
    (separate_compile's rows), torch.compile from the separate pass."""
    out = {}
    for protocol in ("paper", "default"):
        ok = [e for e in entries if correct_at(e, protocol)]
        out[protocol] = {
            "compile_separate": score({e["problem"]: separate[e["problem"]]["speedup_vs_compile"]
                                       for e in ok if e["problem"] in separate}, problems)
            if separate else None,
            "compile_separate_capped": score({e["problem"]: separate[e["problem"]]["speedup_vs_compile_drift_capped"]
                                              for e in ok if e["problem"] in separate}, problems)
            if separate else None,
            "eager": score({e["problem"]: e.get("speedup") for e in ok}, problems),
            "compile": score({e["problem"]: e.get("speedup_vs_compile") for e in ok}, problems)
            if any(e.get("speedup_vs_compile") for e in ok) else None,
            "interleaved_eager": score({e["problem"]: e.get("interleaved_speedup") for e in ok}, problems)
            if any(e.get("interleaved_speedup") for e in ok) else None,
            "interleaved_compile": score({e["problem"]: e.get("interleaved_speedup_vs_compile") for e in ok},
                                         problems)
            if any(e.get("interleaved_speedup_vs_compile") for e in ok) else None}
    return out


def harness_scores(report, problems):
    """A `bench kernelbench` report scored over `problems` with its filtered rule: a row counts when correct, not
    flagged and without a weak check; a problem it has no row for fails."""
    timed = [r for r in report.get("rows", []) if r.get("correct") and r.get("ours_ms")]
    ok = [r for r in timed if not r.get("flagged") and not r.get("weak_check")]
    out = [r for r in timed if r.get("flagged") or r.get("weak_check")]

    def ratio(r, key):
        return r[key] / r["ours_ms"] if r.get(key) else None

    def scored(key):
        return score({r["problem"]: ratio(r, key) for r in ok}, problems, {r["problem"]: ratio(r, key) for r in out})

    return {"eager": scored("eager_ms"),
            "compile": scored("compile_ms") if any(r.get("compile_ms") for r in ok) else None,
            "report": {"date": report.get("date"), "gpu": report.get("gpu"), "conditions": report.get("conditions")}}


def precision_mix(entries):
    """How many problems with an exported kernel use lower-precision operands than the FP32 they state."""
    exported = [e for e in entries if e.get("operand_precision")]
    lower = [e for e in exported if e["operand_precision"] in LOWER_PRECISION]
    correct = [e for e in lower if e.get("correctness")]
    return {"exported": len(exported), "lower_precision": len(lower), "lower_precision_correct_1e-2": len(correct),
            "problems": sorted(e["problem"] for e in lower)}


def build(kb_eval, harness, baseline=None):
    entries = kb_eval.get("problems", [])
    problems = set(kb_eval.get("suite_problems") or [e["problem"] for e in entries])
    env = kb_eval.get("environment") or {}
    gpus = entry_gpus(entries)
    separate = separate_compile(entries, baseline) if baseline else {}
    return {"date": utc_now(), "command": shlex.join(sys.argv), "kb_eval_command": kb_eval.get("command"),
            "kb_eval_started": kb_eval.get("started"), "kernelbench_commit": kb_eval.get("kernelbench_commit"),
            "gpu": env.get("gpu"), "entry_gpus": gpus, "driver": env.get("driver"), "torch": env.get("torch"),
            "cuda": env.get("cuda"),
            "compile_baseline": baseline_summary(baseline, separate, gpus) if baseline else None,
            "separate_compile": separate,
            "tolerance_protocols": kb_eval.get("tolerance_protocols"), "problems": len(problems),
            "failed": sorted(p for p in problems if not any(e["problem"] == p and e.get("correctness")
                                                            for e in entries)),
            "precision": precision_mix(entries), "kernelbench": kernelbench_scores(entries, problems, separate),
            "harness": {tol: harness_scores(r, problems) for tol, r in harness.items()}}


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def _x(x):
    return "-" if x is None else f"{x:.2f}x"


def _cells(s):
    if s is None:
        return ["not timed"] * (len(FAST_P) + 1)
    return [_pct(s["fast_p"][str(p)]) for p in FAST_P] + [_x(s["geomean"])]


def _gpus(h):
    """The GPU the entries ran on, each with its count when they ran on more than one (or the run's own)."""
    gpus = h.get("entry_gpus") or {}
    if len(gpus) == 1:
        return f"{next(iter(gpus))} (all {next(iter(gpus.values()))} evaluated problems)"
    if gpus:
        return "; ".join(f"{g}: {n} problems" for g, n in sorted(gpus.items())) + " (MIXED: not one GPU)"
    return str(h.get("gpu"))


def _separate_lines(h):
    b = h.get("compile_baseline")
    if not b:
        return []
    drift = b.get("eager_drift") or {}
    differs = b.get("compiled_output_differs") or []
    return [f"- torch.compile, separate pass (the eval ran without it): `{b['command']}` ({b['date']}, {b['gpu']}): "
            f"torch.compile(Model) (inductor, default mode) of each suite module timed KernelBench's way in its own "
            f"process, as KernelBench's own baseline files are made, over ours from the eval; "
            f"{b['problems']} problems. Its eager means are {drift.get('min', 0):.2f}-{drift.get('max', 0):.2f}x "
            f"(median {drift.get('median', 0):.2f}x) the eval's reference means for the same problems; the "
            f"drift-capped row divides each problem's ratio by that drift where it exceeds 1 (the pass's torch.compile "
            f"time taken as slowed alike), so it is never kinder to ours than either reading"
            + (f"; torch.compile's output differs from eager's at the problem's tolerance on {', '.join(differs)}"
               if differs else "")]


def render_markdown(h):
    mix = h["precision"]
    paper, default = h["kernelbench"]["paper"], h["kernelbench"]["default"]
    lines = [
        "# KernelBench's own evaluation of our kernels: the headline", "",
        f"**Over all {h['problems']} suite problems (a problem without a correct kernel is a failure), KernelBench's "
        f"eval_kernel_against_ref gives a geomean speedup of {_x(paper['eager']['geomean'])} over PyTorch eager on the "
        f"{paper['eager']['correct']} correct at the paper's float32 tolerance (1e-2) and "
        f"{_x(default['eager']['geomean'])} on the {default['eager']['correct']} correct at KernelBench's default "
        f"(1e-4); {mix['lower_precision']} of the {mix['exported']} problems with a kernel use bf16 or TF32 operands "
        f"against FP32 eager.**", "",
        f"- GPU: {_gpus(h)}; driver {h['driver']}; torch {h['torch']}, CUDA {h['cuda']}",
        f"- KernelBench: {h['kernelbench_commit']}; 1e-2: {(h.get('tolerance_protocols') or {}).get('paper')}; "
        f"1e-4: {(h.get('tolerance_protocols') or {}).get('default')}",
        f"- Evaluated: `{h['kb_eval_command']}` ({h['kb_eval_started']}); this page: `{h['command']}` ({h['date']})",
        "- Speedup: KernelBench's own (reference mean / ours, cuda_event timing, cold L2, same process); "
        "torch.compile of the reference timed by KernelBench's timing function in the same process on the same "
        "inputs; interleaved: rounds of eager, ours and compiled, one call each timed KernelBench's way (the check "
        "column); harness: `ucutlass bench kernelbench` (its own run: our kernels first, PyTorch eager afterwards in "
        "another process on its own draws, not interleaved; filtered: flagged and weak-check results fail) scored "
        "over the same denominator"] + _separate_lines(h) + ["",
        "| tolerance | baseline | source | " + " | ".join(f"fast_{p}" for p in FAST_P) + " | geomean (correct) |",
        "|---|---|---|" + "---|" * (len(FAST_P) + 1)]
    for protocol, tol in (("paper", "1e-2"), ("default", "1e-4")):
        k = h["kernelbench"][protocol]
        harness = h["harness"].get(tol)
        for base in ("eager", "compile"):
            rows = [("KernelBench eval", k[base]), ("interleaved (check)", k[f"interleaved_{base}"])]
            if base == "compile" and k.get("compile_separate"):
                rows += [("separate pass (baseline.py)", k["compile_separate"]),
                         ("separate pass, drift-capped", k["compile_separate_capped"])]
            if harness:
                rows.append(("harness (filtered)", harness[base]))
            for source, s in rows:
                lines.append(f"| {tol} | {'eager' if base == 'eager' else 'torch.compile'} | {source} | "
                             + " | ".join(_cells(s)) + " |")
    lines += ["", f"Lower-precision operands ({mix['lower_precision']}): {', '.join(mix['problems']) or '-'}",
              "", f"Failed at 1e-2 ({len(h['failed'])}): {', '.join(h['failed']) or '-'}"]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kb_eval", help="kb_eval.py's OUT/kb_eval.json")
    ap.add_argument("--harness-1e-2", dest="h2", help="a `bench kernelbench` report (kernelbench.json) at 1e-2")
    ap.add_argument("--harness-1e-4", dest="h4", help="a `bench kernelbench` report (kernelbench.json) at 1e-4")
    ap.add_argument("--compile-baseline", help="a baseline.py report (baseline.json) from the GPU that ran the eval: "
                    "torch.compile's times for an eval run with --no-compile")
    ap.add_argument("--out", required=True, help="folder for headline.md and headline.json")
    args = ap.parse_args(argv)
    try:
        kb_eval = results.read_json(args.kb_eval)
        harness = {tol: results.read_json(path) for tol, path in (("1e-2", args.h2), ("1e-4", args.h4)) if path}
        baseline = results.read_json(args.compile_baseline) if args.compile_baseline else None
        h = build(kb_eval, harness, baseline)
    except (OSError, ValueError, KeyError, HeadlineError) as e:
        print(f"kb_headline.py: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    results.write_json(os.path.join(args.out, "headline.json"), h)
    with open(os.path.join(args.out, "headline.md"), "w") as f:
        f.write(render_markdown(h))
    return 0


if __name__ == "__main__":
    sys.exit(main())
