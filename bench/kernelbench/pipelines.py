#!/usr/bin/env python3
"""KernelBench problems that lower to pipeline problems (docs/suites.md "Chains that go on past an epilogue"), run
through our harness on the GPU.

  prepare --ucutlass U --out DIR   `suite lower --seeds` every suite problem into DIR/lowered and lay each pipeline
                                   problem out as a case for `visit.sh smokedir` (SMOKE_DIR=DIR/cases):
                                   <case>/problem.toml naming <case>/semantics/<stem>.ucut, and the spec that runs it,
                                   <case>/<stem>.ucut — bench/kernelbench/impl_pipeline/<stem>.ucut when there is one,
                                   else the problem's starting spec, `optimize`'s own seed (engine/search/seed_spec.h:
                                   the pipeline with its GEMM stages exact FP32, 3xTF32 on the CUTLASS 2.x multistage
                                   kernel, and a first convolution with an odd channel count padded). The same specs
                                   also go flat into DIR/impl/<stem>.ucut, for `ucutlass bench kernelbench --impl`
                                   (visit.sh kbours: eager and torch.compile timed beside them). Prints how many
                                   cases and which specs were chosen by hand.
  report --runs SMOKE_DIR --out DIR  the smoke.json of every case (visit.sh smokedir's smokedir.tgz, unpacked) into
                                   DIR/kb_pipelines.json and .md: per problem, verified or not, error, time, baseline.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAND = os.path.join(ROOT, "bench", "kernelbench", "impl_pipeline")
def prepare(args):
    lowered = os.path.join(args.out, "lowered")
    cases, flat = os.path.join(args.out, "cases"), os.path.join(args.out, "impl")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(cases)
    os.makedirs(flat)
    said = subprocess.run([args.ucutlass, "suite", "lower", os.path.join(ROOT, "suites", "kernelbench"), "--out",
                           lowered, "--seeds"], check=False, stdout=subprocess.PIPE, text=True).stdout
    hand, unseeded = [], []
    for problem in sorted(glob.glob(os.path.join(lowered, "*.toml"))):
        with open(problem) as f:
            text = f.read()
        if 'op = "pipeline"' not in text:
            continue
        stem = os.path.splitext(os.path.basename(problem))[0]
        if args.only and stem not in args.only.split(","):
            continue
        chosen = os.path.join(HAND, stem + ".ucut")
        seed = os.path.join(lowered, stem + ".seed.ucut")
        if not os.path.exists(chosen) and not os.path.exists(seed):  # `suite lower` said why
            unseeded.append(next((line.strip() for line in said.splitlines()
                                  if line.startswith(stem) and "no starting spec" in line), stem))
            continue
        case = os.path.join(cases, stem)
        os.makedirs(os.path.join(case, "semantics"))
        shutil.copy(os.path.join(lowered, stem + ".ucut"), os.path.join(case, "semantics", stem + ".ucut"))
        open(os.path.join(case, "problem.toml"), "w").write(
            text.replace(f'semantics = "{stem}.ucut"', f'semantics = "semantics/{stem}.ucut"'))
        if os.path.exists(chosen):
            hand.append(stem)
            shutil.copy(chosen, os.path.join(case, stem + ".ucut"))
        else:
            shutil.copy(seed, os.path.join(case, stem + ".ucut"))
        shutil.copy(os.path.join(case, stem + ".ucut"), os.path.join(flat, stem + ".ucut"))
    n = len(os.listdir(cases))
    print(f"{n} pipeline problems in {cases}; specs chosen by hand: {', '.join(hand) or 'none'}")
    for line in unseeded:
        print(f"left out, no starting spec: {line}", file=sys.stderr)


def report(args):
    rows, meta = [], {}
    for path in sorted(glob.glob(os.path.join(args.runs, "*", "smoke.json"))):
        data = json.load(open(path))
        if data["meta"].get("gpu") and not meta.get("gpu"):
            meta = data["meta"]
        for x in data["results"]:
            rep = x["report"]
            problem = os.path.basename(os.path.dirname(path))
            if rep.get("stopped_at"):
                rows.append({"problem": problem, "verified": False, "stopped_at": rep["stopped_at"],
                             "message": rep.get("message", "")[:400]})
                continue
            for s in rep["shapes"]:
                res = s["result"]
                row = {"problem": problem, "verified": bool(s["counts"]), "shape": res["shape"].get("label", ""),
                       "max_rel_err": res["verify"]["max_rel_err"], "rel_l2": res["verify"]["rel_l2"],
                       "mismatches": res["verify"].get("mismatches"), "checked": res["verify"].get("checked"),
                       "flags": [f["id"] for f in s["flags"]], "baseline": res.get("cublas_kernel", ""),
                       "message": (res.get("error") or res.get("message") or "")[:400]}
                if res["verify"].get("checked"):
                    row["ours_ms"] = res["candidate"]["event_ms"]["median"]
                if res.get("cublas", {}).get("event_ms", {}).get("median"):
                    row["baseline_ms"] = res["cublas"]["event_ms"]["median"]
                rows.append(row)
    os.makedirs(args.out, exist_ok=True)
    json.dump({"meta": meta, "rows": rows}, open(os.path.join(args.out, "kb_pipelines.json"), "w"), indent=1)
    problems = sorted({r["problem"] for r in rows})
    ok = [p for p in problems if all(r["verified"] for r in rows if r["problem"] == p)]
    md = ["# KernelBench pipeline problems through our harness", "",
          f"GPU {meta.get('gpu')}, driver {meta.get('driver')}, CUDA runtime {meta.get('cuda_runtime')}, "
          f"{meta.get('date')}. `ucutlass run` of each case (bench/kernelbench/pipelines.py prepare; visit.sh smokedir).",
          f"{len(ok)} of {len(problems)} problems verified on every shape at the problem's tolerance.", "",
          "| problem | shape | verified | max rel err | rel L2 | mismatches | ours ms | separate-calls baseline ms | note |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        note = r.get("message") or ("; ".join(r.get("flags", [])))
        md.append(f"| {r['problem']} | {r.get('shape', '')} | {'yes' if r['verified'] else 'NO'} | "
                  f"{r.get('max_rel_err', '')} | {r.get('rel_l2', '')} | {r.get('mismatches', '')} | "
                  f"{r.get('ours_ms', '')} | {r.get('baseline_ms', 'not run')} | {note.replace('|', '/')[:200]} |")
    open(os.path.join(args.out, "kb_pipelines.md"), "w").write("\n".join(md) + "\n")
    print(f"{len(ok)} of {len(problems)} problems verified")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--ucutlass", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--only", default="", help="comma-separated problem stems")
    r = sub.add_parser("report")
    r.add_argument("--runs", required=True)
    r.add_argument("--out", required=True)
    args = ap.parse_args()
    return prepare(args) if args.cmd == "prepare" else report(args)


if __name__ == "__main__":
    sys.exit(main())
