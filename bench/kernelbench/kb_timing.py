"""KernelBench's way of timing a module (`time_execution_with_cuda_event`, src/kernelbench/timing.py at 423217d),
which the suite's baselines must match rather than bench/torch_timing.py's: `warmup` calls each followed by a
synchronize, torch.cuda.empty_cache(), then per trial: synchronize, write a fresh 256 MB buffer (L2 thrash), CUDA
events around the one forward call, synchronize. The first trial is discarded (KernelBench's `discard_first=1`).
Returns the per-trial times; `stats` summarizes them (KernelBench reports the mean)."""
import statistics

import torch


def thrash_l2(device):
    dummy = torch.empty((32, 1024, 1024), dtype=torch.int64, device=device)  # 256 MB, as KernelBench
    dummy.fill_(42)
    del dummy


def time_forward(fn, args, trials, warmup=3, discard_first=1):
    device = torch.cuda.current_device()
    for _ in range(warmup):
        fn(*args)
        torch.cuda.synchronize(device)
    torch.cuda.empty_cache()
    times = []
    for trial in range(trials + discard_first):
        torch.cuda.synchronize(device)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        thrash_l2(device)
        start.record()
        fn(*args)
        end.record()
        torch.cuda.synchronize(device)
        if trial >= discard_first:
            times.append(start.elapsed_time(end))
    return times


def stats(times):
    """mean (KernelBench's statistic), median, population std (as numpy.std), min, max in ms, and the count."""
    return {"mean": statistics.fmean(times), "median": statistics.median(times), "std": statistics.pstdev(times),
            "min": min(times), "max": max(times), "trials": len(times)}
