#!/usr/bin/env python3
"""PyTorch baselines for bench/fused_epilogue, timed like the ucutlass harness: cold L2 (a 4x-L2 buffer written
before every run), CUDA events around the op only, median of --trials runs after warm-up. Prints JSON."""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_timing import time_op  # noqa: E402

SHAPES = [(1024, 8192, 8192), (16384, 4096, 4096)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    flush = torch.empty(4 * props.L2_cache_size, dtype=torch.uint8, device=dev)
    rows = {}
    for m, n, k in SHAPES:
        x = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
        w = torch.randn(n, k, device=dev, dtype=torch.bfloat16)
        b = torch.randn(n, device=dev, dtype=torch.bfloat16)
        acts = (("bias_relu", F.relu), ("bias_gelu", F.gelu),
                ("bias_gelu_tanh", lambda t: F.gelu(t, approximate="tanh")))
        for name, act in acts:
            eager = lambda: act(F.linear(x, w, b))  # noqa: E731
            compiled_fn = torch.compile(lambda x, w, b: act(F.linear(x, w, b)), mode="max-autotune-no-cudagraphs")
            compiled = lambda: compiled_fn(x, w, b)  # noqa: E731
            rows[f"{m}x{n}x{k}_{name}"] = {"eager_ms": time_op(eager, args.trials, flush),
                                           "compile_ms": time_op(compiled, args.trials, flush)}
        rows[f"{m}x{n}x{k}_gemm"] = {"eager_ms": time_op(lambda: F.linear(x, w), args.trials, flush)}
    print(json.dumps({"versions": {"torch": torch.__version__, "cuda": torch.version.cuda,
                                   "cudnn": torch.backends.cudnn.version(), "gpu": props.name},
                      "rows": rows}))


if __name__ == "__main__":
    main()
