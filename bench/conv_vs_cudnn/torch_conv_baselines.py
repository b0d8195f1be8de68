#!/usr/bin/env python3
"""PyTorch eager baselines for bench/conv_vs_cudnn's grouped and depthwise suites: each shape of a problem file as
torch.nn.functional.conv2d(groups=G) in NCHW (how KernelBench's modules run it) and in channels_last, with
PyTorch's default cuDNN flags (benchmark off, TF32 for convolutions allowed), timed like the ucutlass harness (cold
L2, CUDA events around the op, median). Prints JSON: {"versions": ..., "rows": {label: {nchw_ms, channels_last_ms}}}.

  torch_conv_baselines.py PROBLEM.toml [--trials 100]"""
import argparse
import json
import os
import sys
import tomllib

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_timing import time_op  # noqa: E402

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("problem")
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    with open(args.problem, "rb") as f:
        problem = tomllib.load(f)
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    flush = torch.empty(4 * props.L2_cache_size, dtype=torch.uint8, device=dev)
    dtype = DTYPES[problem["a"].split()[0]]
    depthwise = problem["op"] == "depthwise_conv2d"
    rows = {}
    for s in problem["shapes"]:
        c = s["c"]
        groups = c if depthwise else s.get("groups", 1)
        k = c if depthwise else s["k"]
        x = torch.randn(s["n"], c, s["h"], s["w"], device=dev, dtype=dtype)
        w = torch.randn(k, c // groups, s["r"], s["s"], device=dev, dtype=dtype)
        kw = {"stride": tuple(s.get("stride", [1, 1])), "padding": tuple(s.get("pad", [0, 0])),
              "dilation": tuple(s.get("dilation", [1, 1])), "groups": groups}
        row = {"nchw_ms": time_op(lambda: F.conv2d(x, w, **kw), args.trials, flush)}
        xl, wl = x.to(memory_format=torch.channels_last), w.to(memory_format=torch.channels_last)
        row["channels_last_ms"] = time_op(lambda: F.conv2d(xl, wl, **kw), args.trials, flush)
        rows[s.get("label", str(len(rows)))] = row
        del x, w, xl, wl
        torch.cuda.empty_cache()
    print(json.dumps({"versions": {"torch": torch.__version__, "cuda": torch.version.cuda,
                                   "cudnn": torch.backends.cudnn.version(), "gpu": props.name,
                                   "allow_tf32_conv": torch.backends.cudnn.allow_tf32},
                      "rows": rows}))


if __name__ == "__main__":
    main()
