"""How the bench/ PyTorch baselines time a module, like the ucutlass harness: cold L2 (a 4x-L2 buffer written before
every run), CUDA events around the call only, median of `trials` runs after ten warm-ups."""
import statistics

import torch


def time_op(fn, trials, flush):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
    for i in range(trials):
        flush.fill_(i & 0xFF)
        starts[i].record()
        fn()
        stops[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, stops))
