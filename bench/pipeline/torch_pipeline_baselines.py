#!/usr/bin/env python3
"""PyTorch baselines for bench/pipeline, timed like the ucutlass harness: cold L2 (a 4x-L2 buffer written before
every run), CUDA events around the module only, median of --trials runs after warm-up. Each module is the problem's
block as a PyTorch user writes it, x in f32, the weights in bf16:
  mlp:  y = linear(gelu(linear(x.to(bf16), W1, b1)), W2, b2).float()   (b2 in bf16: linear takes one dtype)
  conv: y = conv2d(relu(conv2d(x.to(bf16), W1, b1, ...)), W2, b2, ...).float(), channels-last (NHWC in memory,
        as the pipeline's tensors), each stage's padding, stride and dilation from the problem's stage tables.
Reads the shapes from the problem file. Prints JSON."""
import argparse
import json
import os
import sys
import tomllib

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_timing import time_op  # noqa: E402


def mlp_block(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x.to(torch.bfloat16), w1, b1)), w2, b2).float()


def mlp_case(s, dev):
    m, k, n, p = s["M"], s["K"], s["N"], s["P"]
    bf = dict(device=dev, dtype=torch.bfloat16)
    x = torch.randn(m, k, device=dev, dtype=torch.float32)
    w1, b1 = torch.randn(n, k, **bf) / k ** 0.5, torch.randn(n, **bf)
    w2, b2 = torch.randn(p, n, **bf) / n ** 0.5, torch.randn(p, **bf)
    return mlp_block, (x, w1, b1, w2, b2), f"{m}x{k}x{n}x{p}"


def conv_geometry(table):
    return {"padding": tuple(table.get("pad", [0, 0])), "stride": tuple(table.get("stride", [1, 1])),
            "dilation": tuple(table.get("dilation", [1, 1]))}


def conv_case(s, dev):
    g1, g2 = conv_geometry(s.get("c1", {})), conv_geometry(s.get("c2", {}))

    def block(x, w1, b1, w2, b2):
        return F.conv2d(F.relu(F.conv2d(x.to(torch.bfloat16), w1, b1, **g1)), w2, b2, **g2).float()

    cl = torch.channels_last
    bf = dict(device=dev, dtype=torch.bfloat16)
    n, h, w, c, k, k2 = s["N"], s["H"], s["W"], s["C"], s["K"], s["K2"]
    x = torch.randn(n, c, h, w, device=dev, dtype=torch.float32).to(memory_format=cl)
    w1 = (torch.randn(k, c, s["R"], s["S"], **bf) / (c * s["R"] * s["S"]) ** 0.5).to(memory_format=cl)
    w2 = (torch.randn(k2, k, s["R2"], s["S2"], **bf) / (k * s["R2"] * s["S2"]) ** 0.5).to(memory_format=cl)
    b1, b2 = torch.randn(k, **bf), torch.randn(k2, **bf)
    return block, (x, w1, b1, w2, b2), f"{n}x{h}x{w}x{c}x{k}x{k2}"


CASES = {"mlp": mlp_case, "conv": conv_case}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problem")
    ap.add_argument("--suite", choices=sorted(CASES), default="mlp")
    ap.add_argument("--trials", type=int, default=100)
    args = ap.parse_args()
    shapes = tomllib.load(open(args.problem, "rb"))["shapes"]
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    flush = torch.empty(4 * props.L2_cache_size, dtype=torch.uint8, device=dev)
    rows = {}
    for s in shapes:
        block, inputs, name = CASES[args.suite](s, dev)
        compiled = torch.compile(block)
        rows[s.get("label", name)] = {"eager_ms": time_op(lambda: block(*inputs), args.trials, flush),
                                      "compile_ms": time_op(lambda: compiled(*inputs), args.trials, flush)}
    print(json.dumps({"versions": {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": props.name,
                                   "cudnn": torch.backends.cudnn.version(),
                                   "tf32_matmul": torch.backends.cuda.matmul.allow_tf32},
                      "rows": rows}))


if __name__ == "__main__":
    main()
