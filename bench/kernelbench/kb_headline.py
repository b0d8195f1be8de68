#!/usr/bin/env python3
"""The README's headline table from a kb_eval.py run: fast_p at p = 0, 1, 1.5, 2 and the geomean speedup over the
correct problems, over EVERY problem of the run's suite (152 for suites/kernelbench: a problem without a spec, or
one not exported, compiled or correct, is a failure, never left out), for {the paper's tolerance 1e-2, KernelBench's
default 1e-4} x {eager, torch.compile}. The speedups are KernelBench's own (eval_kernel_against_ref's ref_runtime /
runtime; torch.compile timed by KernelBench's timing function in the same process on the same inputs); the
interleaved pass's geomean is a check column; the harness's own figure (a `ucutlass bench kernelbench` report at
that tolerance, --harness-1e-2 / --harness-1e-4) the second column, scored over the same denominator with its
filtered rule (flagged and weak-check results fail). The first sentence says how many problems use bf16 or TF32
operands against FP32 eager.

  kb_headline.py KB_EVAL_OUT/kb_eval.json [--harness-1e-2 REPORT.json] [--harness-1e-4 REPORT.json] --out DIR
writes DIR/headline.md and DIR/headline.json."""
import argparse
import math
import os
import shlex
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


def kernelbench_scores(entries, problems):
    """{protocol: {baseline: score}} from kb_eval.py's entries, and the interleaved check."""
    out = {}
    for protocol in ("paper", "default"):
        ok = [e for e in entries if correct_at(e, protocol)]
        out[protocol] = {
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


def build(kb_eval, harness):
    entries = kb_eval.get("problems", [])
    problems = set(kb_eval.get("suite_problems") or [e["problem"] for e in entries])
    env = kb_eval.get("environment") or {}
    return {"date": utc_now(), "command": shlex.join(sys.argv), "kb_eval_command": kb_eval.get("command"),
            "kb_eval_started": kb_eval.get("started"), "kernelbench_commit": kb_eval.get("kernelbench_commit"),
            "gpu": env.get("gpu"), "driver": env.get("driver"), "torch": env.get("torch"), "cuda": env.get("cuda"),
            "tolerance_protocols": kb_eval.get("tolerance_protocols"), "problems": len(problems),
            "failed": sorted(p for p in problems if not any(e["problem"] == p and e.get("correctness")
                                                            for e in entries)),
            "precision": precision_mix(entries), "kernelbench": kernelbench_scores(entries, problems),
            "harness": {tol: harness_scores(r, problems) for tol, r in harness.items()}}


def _pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def _x(x):
    return "-" if x is None else f"{x:.2f}x"


def _cells(s):
    if s is None:
        return ["not timed"] * (len(FAST_P) + 1)
    return [_pct(s["fast_p"][str(p)]) for p in FAST_P] + [_x(s["geomean"])]


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
        f"- GPU: {h['gpu']}; driver {h['driver']}; torch {h['torch']}, CUDA {h['cuda']}",
        f"- KernelBench: {h['kernelbench_commit']}; 1e-2: {(h.get('tolerance_protocols') or {}).get('paper')}; "
        f"1e-4: {(h.get('tolerance_protocols') or {}).get('default')}",
        f"- Evaluated: `{h['kb_eval_command']}` ({h['kb_eval_started']}); this page: `{h['command']}` ({h['date']})",
        "- Speedup: KernelBench's own (reference mean / ours, cuda_event timing, cold L2, same process); "
        "torch.compile of the reference timed by KernelBench's timing function in the same process on the same "
        "inputs; interleaved: rounds of eager, ours and compiled, one call each timed KernelBench's way (the check "
        "column); harness: `ucutlass bench kernelbench` (its own run: our kernels first, PyTorch eager afterwards in "
        "another process on its own draws, not interleaved; filtered: flagged and weak-check results fail) scored "
        "over the same denominator", "",
        "| tolerance | baseline | source | " + " | ".join(f"fast_{p}" for p in FAST_P) + " | geomean (correct) |",
        "|---|---|---|" + "---|" * (len(FAST_P) + 1)]
    for protocol, tol in (("paper", "1e-2"), ("default", "1e-4")):
        k = h["kernelbench"][protocol]
        harness = h["harness"].get(tol)
        for base in ("eager", "compile"):
            rows = [("KernelBench eval", k[base]), ("interleaved (check)", k[f"interleaved_{base}"])]
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
    ap.add_argument("--out", required=True, help="folder for headline.md and headline.json")
    args = ap.parse_args(argv)
    try:
        kb_eval = results.read_json(args.kb_eval)
        harness = {tol: results.read_json(path) for tol, path in (("1e-2", args.h2), ("1e-4", args.h4)) if path}
        h = build(kb_eval, harness)
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
