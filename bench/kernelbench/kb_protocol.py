"""The two verdicts of KernelBench's own check on one ModelNew, and the timings beside KernelBench's own.

Verdicts: KernelBench (423217d) compares outputs with atol = rtol = get_tolerance_for_precision(precision), 1e-4 for
float32 ("default"). The KernelBench paper's protocol compared float32 at 1e-2 ("paper"): here that is KernelBench's
own function replaced, for float32 only, in the imported eval module while one eval_kernel_against_ref runs, and
the report records it. The paper-protocol eval also times both models (its speedup is the headline); then an
unpatched correctness-only eval on the same seed gives the default verdict, so a problem counts at 1e-4 only when
KernelBench's own check passed it at 1e-4. A kernel that fails at 1e-2 fails at 1e-4 (a smaller tolerance), so the
second eval is skipped then.

Timings beside KernelBench's (GPU only): torch.compile of the reference Model, built and fed as KernelBench builds
and feeds its models (same seed, same weights, same inputs), timed by KernelBench's own timing function; and an
interleaved pass: rounds of one call each of eager Model, ModelNew and compiled Model, each call timed KernelBench's
way (L2 flush, CUDA events: its timing function with one trial), so drift of clocks and temperature hits all three
alike."""
import contextlib
import statistics

PAPER_FLOAT32_TOLERANCE = 1e-2
FLOAT32_NAMES = ("torch.float32", "float32", "fp32")


def is_float32(precision):
    """Whether `precision` (a torch dtype or KernelBench's name for one) is float32, without importing torch."""
    return str(precision) in FLOAT32_NAMES


@contextlib.contextmanager
def float32_tolerance(kb, tolerance):
    """KernelBench's get_tolerance_for_precision, in the imported eval module `kb`, answering `tolerance` for
    float32 (other precisions unchanged) while the block runs; the block gets KernelBench's own float32 value."""
    original = kb.get_tolerance_for_precision
    default = original("fp32")
    kb.get_tolerance_for_precision = lambda precision: tolerance if is_float32(precision) else original(precision)
    try:
        yield default
    finally:
        kb.get_tolerance_for_precision = original


def two_verdicts(kb, evaluate):
    """{"paper": ..., "default": ...}: evaluate(measure_performance) is one eval_kernel_against_ref (its result as a
    dict, or None); the paper protocol's with timing under the patched tolerance, then the default's unpatched and
    correctness-only (None when the paper protocol already failed it). Each verdict records its tolerance."""
    with float32_tolerance(kb, PAPER_FLOAT32_TOLERANCE) as default_tolerance:
        paper = evaluate(True)
    out = {"paper": {"float32_tolerance": PAPER_FLOAT32_TOLERANCE, "result": paper},
           "default": {"float32_tolerance": default_tolerance, "result": None}}
    if paper and paper.get("correctness"):
        out["default"]["result"] = evaluate(False)
    else:
        out["default"]["skipped"] = "failed at the paper tolerance, so also at the smaller default one"
    return out


def summary_ms(times):
    """KernelBench reports the mean; the median beside it."""
    return {"mean": statistics.fmean(times), "median": statistics.median(times), "trials": len(times)}


# ---- GPU: the reference under torch.compile, and the interleaved pass ------------------------------------------

def models_and_inputs(kb, torch, reference_src, custom_src, seed, device, precision, build_dir):
    """The reference Model, ModelNew and the timing inputs, made as eval_kernel_against_ref makes them: init inputs
    and weights drawn after set_seed(seed), the inputs after set_seed(seed) again, cast by its own helper."""
    context = {}
    Model, get_init_inputs, get_inputs = kb.load_original_model_and_inputs(reference_src, context)
    kb.set_seed(seed)
    init_inputs = [kb._process_input_tensor(x, device, "cuda", precision) for x in get_init_inputs()]
    with torch.no_grad():
        kb.set_seed(seed)
        reference = Model(*init_inputs).to(device=device, dtype=precision)
        ModelNew = kb.load_custom_model(custom_src, context, build_dir)
        kb.set_seed(seed)
        custom = ModelNew(*init_inputs).to(device=device, dtype=precision)
    kb.set_seed(seed)
    inputs = [kb._process_input_tensor(x, device, "cuda", precision) for x in get_inputs()]
    return reference, custom, inputs


def time_beside(kb, torch, job, device, precision, compile_reference=True, interleave_rounds=0):
    """{"compile": KernelBench's timing of torch.compile(Model) on the same inputs, "interleaved": per model the
    summary of `interleave_rounds` rounds}; a part that raises records its error instead."""
    import kernelbench.timing as timing
    with open(job["reference"]) as f:
        reference_src = f.read()
    with open(job["source"]) as f:
        custom_src = f.read()
    timing_fn = timing.get_timing_function("cuda_event")
    reference, custom, inputs = models_and_inputs(kb, torch, reference_src, custom_src, 42, device, precision,
                                                  job["build_dir"])
    out = {}
    compiled = None
    if compile_reference or interleave_rounds:
        try:
            compiled = torch.compile(reference, backend="inductor", mode="default")
            compiled(*inputs)  # compiles (lazily, at the first call)
        except Exception as e:  # noqa: BLE001 — the compile's failure is this column's answer
            out["compile_error"] = f"{type(e).__name__}: {e}"
            compiled = None
    # Timed as eval_kernel_against_ref times (outside no_grad, as it does).
    if compile_reference and compiled is not None:
        times = timing_fn(compiled, inputs, num_warmup=3, num_trials=job["trials"], verbose=False, device=device)
        out["compile"] = timing.get_timing_stats(times, device=device)
    if interleave_rounds:
        models = {"eager": reference, "ours": custom}
        if compiled is not None:
            models["compile"] = compiled
        for fn in models.values():
            timing_fn(fn, inputs, num_warmup=3, num_trials=1, discard_first=0, verbose=False, device=device)
        rounds = {name: [] for name in models}
        for _ in range(interleave_rounds):
            for name, fn in models.items():
                rounds[name] += timing_fn(fn, inputs, num_warmup=0, num_trials=1, discard_first=0, verbose=False,
                                          device=device)
        out["interleaved"] = {name: summary_ms(times) for name, times in rounds.items()}
    return out
