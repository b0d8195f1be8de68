#!/usr/bin/env python3
"""scripts/device/profile_table.py — a Markdown table of `ucutlass profile --json` reports: per problem, every
kernel of the profiled launch with its duration and share of the launch, and the classified kernel's bottleneck."""
import json
import re
import sys


def short(name):
    """The kernel's name without template arguments or the per-config namespace."""
    name = re.sub(r"ucut_[0-9a-f]{16}::", "", name)
    depth, out = 0, ""
    for c in name:
        if c == "<":
            depth += 1
        if depth == 0:
            out += c
        if c == ">":
            depth -= 1
    return out.split("(")[0]


def main(paths):
    print("| problem | kernel | µs | share | class |")
    print("|---|---|---|---|---|")
    for path in paths:
        problem = path.rsplit("/", 1)[-1].removesuffix(".json")
        try:
            report = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"| {problem} | no report ({e}) | | | |")
            continue
        kernels = report.get("kernels", [])
        total = sum(k.get("duration_ns") or 0 for k in kernels)
        if not kernels:
            why = report.get("message") or report.get("profile", {}).get("reason", "")
            print(f"| {problem} | no counters: {str(why)[:120]} | | | |")
            continue
        prof = report.get("profile", {})
        pct = lambda key: f"{prof[key]:.0f}%" if prof.get(key) is not None else "n/a"
        cls = f"{prof.get('bottleneck', '')} (SM {pct('sm_pct')}, DRAM {pct('dram_pct')})"
        longest = max(kernels, key=lambda k: k.get("duration_ns") or 0)
        for k in kernels:
            ns = k.get("duration_ns") or 0
            share = 100 * ns / total if total else 0
            print(f"| {problem} | {short(k['kernel'])} | {ns / 1e3:.1f} | {share:.0f}% | {cls if k is longest else ''} |")
        print(f"| {problem} | **launch total** | {total / 1e3:.1f} | | |")


if __name__ == "__main__":
    main(sys.argv[1:])
