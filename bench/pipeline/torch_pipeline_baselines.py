#!/usr/bin/env python3
"""PyTorch baselines for bench/pipeline, timed like the ucutlass harness: cold L2 (a 4x-L2 buffer written before
every run), CUDA events around the module only, median of --trials runs after warm-up. The module is the problem's
MLP block as a PyTorch user writes it: y = linear(gelu(linear(x.to(bf16), W1, b1)), W2, b2).float(), x in f32, the
weights in bf16 (b2 in bf16: PyTorch's linear takes one dtype). Reads the shapes from the problem file. Prints JSON."""
import argparse
import json
import os
import sys
import tomllib

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_timing import time_op  # noqa: E402


def block(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x.to(torch.bfloat16), w1, b1)), w2, b2).float()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problem")
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    shapes = tomllib.load(open(args.problem, "rb"))["shapes"]
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    flush = torch.empty(4 * props.L2_cache_size, dtype=torch.uint8, device=dev)
    compiled = torch.compile(block)
    rows = {}
    for s in shapes:
        m, k, n, p = s["M"], s["K"], s["N"], s["P"]
        bf = dict(device=dev, dtype=torch.bfloat16)
        x = torch.randn(m, k, device=dev, dtype=torch.float32)
        w1, b1 = torch.randn(n, k, **bf) / k ** 0.5, torch.randn(n, **bf)
        w2, b2 = torch.randn(p, n, **bf) / n ** 0.5, torch.randn(p, **bf)
        rows[s.get("label", f"{m}x{k}x{n}x{p}")] = {
            "eager_ms": time_op(lambda: block(x, w1, b1, w2, b2), args.trials, flush),
            "compile_ms": time_op(lambda: compiled(x, w1, b1, w2, b2), args.trials, flush)}
    print(json.dumps({"versions": {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": props.name,
                                   "tf32_matmul": torch.backends.cuda.matmul.allow_tf32},
                      "rows": rows}))


if __name__ == "__main__":
    main()
