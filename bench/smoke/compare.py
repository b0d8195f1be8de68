#!/usr/bin/env python3
"""Two smoke runs of the same examples side by side (bench/smoke/smoke.py's smoke.json), typically the binaries of two
commits in one visit: per example and shape, each run's verdict, whether the verification errors are bit-identical
(same seeds and the same kernel code give the same outputs), each run's median time and the ratio, and the vendor
baseline's ratio between the two runs (the run-to-run spread of a kernel that did not change). Writes OUT/compare.md and
OUT/compare.json; exit 1 when a verdict differs or an example is missing from one run.

  compare.py --before DIR_A... --after DIR_B... --out DIR [--before-name A --after-name B]"""
import argparse
import json
import os
import statistics
import sys


def shapes_of(paths):
    """{(example, shape text): (pass, verify, candidate median ms, vendor median ms)} of the smoke.json in each of
    `paths` (one run split over several calls, e.g. alternating with the other binary example by example), and the
    first one's meta."""
    docs = [json.load(open(os.path.join(p, "smoke.json"))) for p in paths]
    out = {}
    for x in (x for d in docs for x in d["results"]):
        rep = x["report"]
        if rep.get("stopped_at"):
            out[(x["example"], "")] = (False, None, None, None)
            continue
        for s in rep["shapes"]:
            res, sh = s["result"], s["result"]["shape"]
            shape = (f"grouped {len(sh['groups'])}x" if sh.get("groups") else
                     f"{sh['m']}x{sh['n']}x{sh['k']}" + (f"x{sh['batch']}" if sh["batch"] > 1 else ""))
            vendor = res["cublas"]["event_ms"]["median"] if res["cublas"].get("measured") else None
            out[(x["example"], shape)] = (bool(s["counts"]), res["verify"], res["candidate"]["event_ms"]["median"], vendor)
    return docs[0]["meta"], out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, nargs="+", help="the first run's smoke.py output folders")
    ap.add_argument("--after", required=True, nargs="+", help="the second run's")
    ap.add_argument("--before-name", default="before")
    ap.add_argument("--after-name", default="after")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    meta_a, a = shapes_of(args.before)
    meta_b, b = shapes_of(args.after)
    rows, ok = [], True
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            ok = False
            rows.append({"example": key[0], "shape": key[1], "missing_in": args.before_name if key not in a else args.after_name})
            continue
        (pa, va, ta, ca), (pb, vb, tb, cb) = a[key], b[key]
        same_errors = va is not None and vb is not None and all(va[f] == vb[f] for f in ("max_abs_err", "rel_l2", "mismatches"))
        ok &= pa == pb
        rows.append({"example": key[0], "shape": key[1], "pass_before": pa, "pass_after": pb, "same_errors": same_errors,
                     "ms_before": ta, "ms_after": tb, "ratio": tb / ta if ta and tb else None,
                     "vendor_ratio": cb / ca if ca and cb else None})
    ratios = [r["ratio"] for r in rows if r.get("ratio")]
    vendor = [r["vendor_ratio"] for r in rows if r.get("vendor_ratio")]
    summary = {"shapes": len(rows), "same_verdicts": sum(1 for r in rows if r.get("pass_before") == r.get("pass_after") and "missing_in" not in r),
               "passed_after": sum(1 for r in rows if r.get("pass_after")),
               "bit_identical_errors": sum(1 for r in rows if r.get("same_errors")),
               "geomean_time_ratio": statistics.geometric_mean(ratios) if ratios else None,
               "geomean_vendor_ratio": statistics.geometric_mean(vendor) if vendor else None}
    os.makedirs(args.out, exist_ok=True)
    json.dump({"before": {"name": args.before_name, **meta_a}, "after": {"name": args.after_name, **meta_b},
               "summary": summary, "rows": rows}, open(os.path.join(args.out, "compare.json"), "w"), indent=1)
    fmt = lambda v, f: "" if v is None else format(v, f)
    md = [f"# Smoke run, {args.before_name} vs {args.after_name}", "",
          f"GPU {meta_b.get('gpu')}, driver {meta_b.get('driver')}, CUDA runtime {meta_b.get('cuda_runtime')}; "
          f"{args.before_name}: {meta_a.get('date')} `{meta_a.get('command')}`; {args.after_name}: {meta_b.get('date')} "
          f"`{meta_b.get('command')}`.", "",
          f"**{summary['passed_after']}/{summary['shapes']} shapes pass after; {summary['same_verdicts']} with the same "
          f"verdict before and after; verification errors bit-identical on {summary['bit_identical_errors']}; time "
          f"after/before geomean {fmt(summary['geomean_time_ratio'], '.3f')} (the vendor baseline's own run-to-run ratio "
          f"{fmt(summary['geomean_vendor_ratio'], '.3f')}).**", "",
          f"| example | shape | {args.before_name} | {args.after_name} | same errors | {args.before_name} ms | "
          f"{args.after_name} ms | after/before | vendor after/before |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "missing_in" in r:
            md.append(f"| {r['example']} | {r['shape']} | | | | | | | missing in {r['missing_in']} |")
            continue
        verdict = lambda p: "pass" if p else "FAIL"
        md.append(f"| {r['example']} | {r['shape']} | {verdict(r['pass_before'])} | {verdict(r['pass_after'])} | "
                  f"{'yes' if r['same_errors'] else 'no'} | {fmt(r['ms_before'], '.4f')} | {fmt(r['ms_after'], '.4f')} | "
                  f"{fmt(r['ratio'], '.3f')} | {fmt(r['vendor_ratio'], '.3f')} |")
    open(os.path.join(args.out, "compare.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md[:6]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
