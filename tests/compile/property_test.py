#!/usr/bin/env python3
"""valid => compiles: sample random specs across the DSL, keep what `ucutlass check` accepts, and build
those with nvcc. Every accepted spec must compile; the acceptance rate is reported honestly.

  tests/compile/property_test.py --ucutlass build/ucutlass --count 12 --seed 7 --jobs 2 --out DIR
  tests/compile/property_test.py ... --family depthwise|conv2x   (one operator family only)

Exit status 0 only if every accepted spec built. A JSON summary is written to DIR/summary.json.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

DTYPES = [("bf16", "bf16"), ("f16", "f16"), ("f32", "f32"), ("e4m3", "e4m3"), ("e4m3", "e5m2"), ("i8", "i8")]
OUT_TYPES = ["bf16", "f16", "f32", "e4m3"]
ACTIVATIONS = ["relu", "leaky_relu(0.1)", "gelu", "gelu_tanh", "silu", "swish", "sigmoid", "tanh", "hardswish",
               "clamp(-2, 2)", "hardtanh", "mish", "softplus", "softplus(beta = 2)",
               "expr(x * sigmoid(1.702 * x))", "expr(max(x, 0.1 * x) - exp(min(x, 0)) / 2)",
               "expr(sqrt(abs(x)) + log(1 + x * x) * tanh(x))"]


def sample_chain(rng, mn, d_l, out_types):
    """A random `>>` chain and store; row-major tensors mostly (the 2.x backend needs them)."""
    stages = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
        kind = rng.random()
        if kind < 0.15:
            stages.append(rng.choice(["scale(alpha)", "scale(0.5)", "scale(beta2 = 2)"]))
        elif kind < 0.3:
            stages.append(f"bias({rng.choice(['col', 'col', 'row'])}{rng.choice(['', ', f32', ', bf16', ', f16'])})")
        elif kind < 0.37:
            stages.append(f"channel_scale({rng.choice(['col', 'row'])})")
        elif kind < 0.45 and not any(s.startswith("residual") for s in stages):
            stages.append(f"residual(C: {rng.choice(['bf16', 'f16', 'f32'])}[{mn}] {d_l}, beta = {rng.choice([1.0, 0.5])})")
        elif kind < 0.52 and sum(s.startswith("aux_store") for s in stages) < 1:
            stages.append(f"aux_store(Z: {rng.choice(['bf16', 'f16', 'f32'])}[{mn}] {rng.choice(['row', d_l])})")
        elif kind < 0.57:
            stages.append(f"cast({rng.choice(['f16', 'bf16'])})")
        else:
            stages.append(rng.choice(ACTIVATIONS))
    out_t = rng.choice(out_types)
    scaled = " scaled" if out_t == "e4m3" else ""
    align = f" align({rng.choice([1, 2, 4])})" if rng.random() < 0.2 else ""
    return [f"  >> {s}" for s in stages] + [f"  >> store(D: {out_t}[{mn}] {d_l}{align}{scaled})"]


def sample_spec_2x(rng, index):
    """The CUTLASS 2.x backend: sm75/sm80/sm86/sm89, or `multistage` on sm90a."""
    arch = rng.choice(["sm75", "sm80", "sm80", "sm86", "sm89", "sm90a"])
    a_t, b_t, math = rng.choice([("bf16", "bf16", ""), ("f16", "f16", ""), ("f32", "f32", ", math = tf32"),
                                 ("f32", "f32", ", math = tf32x3"), ("f32", "f32", ", math = native"),
                                 ("f64", "f64", ""), ("i8", "i8", ""), ("e4m3", "e4m3", ""), ("e4m3", "e5m2", "")])
    op, lead = sample_gemm_op(rng)
    a_l = rng.choice(["row", "row", "col"])
    b_l = rng.choice(["col", "col", "row"])
    acc = {"i8": "i32", "f64": "f64"}.get(a_t, rng.choice(["f32", "f32", "f16"]))
    def al(t):
        if t == "f64" or "native" in math:
            return rng.choice(["", " align(1)"])
        return rng.choice(["", "", f" align({rng.choice([1, 2, 4, 8])})"])
    lines = [f"# property sample {index} (2.x backend)", f"kernel sample_{index} : {arch}",
             f"  {op}(A: {a_t}[{lead}M,K] {a_l}{al(a_t)}{' scaled' if is_fp8(a_t) and rng.random() < 0.5 else ''}, "
             f"B: {b_t}[{lead}K,N] {b_l}{al(b_t)}, acc: {acc}{math})"]
    if arch == "sm90a":
        lines.append("    .with_scheduler(multistage)")
    if rng.random() < 0.85:
        tm, tn = rng.choice([(128, 128), (128, 128), (256, 128), (128, 256), (128, 64), (64, 128), (64, 64), (64, 256),
                             (256, 64), (32, 32), (96, 128)])
        k_choices = {"bf16": [32, 64], "f16": [32, 64], "i8": [64, 128], "e4m3": [64, 128], "f64": [16]}.get(a_t)
        if a_t == "f32":
            k_choices = [8] if "native" in math else [16, 32]
        lines.append(f"    .with_threadblockshape({tm}, {tn}, {rng.choice(k_choices + [16])})")
    if rng.random() < 0.3:
        lines.append(f"    .with_stages({rng.choice(['auto', 3, 4, 5])})")
    if rng.random() < 0.25:
        lines.append(f"    .with_raster(auto, swizzle = {rng.choice([1, 2, 4, 8])})")
    if rng.random() < 0.2:
        lines.append("    .with_tile_scheduler(stream_k)")
    out_types = ["f64"] if acc == "f64" else ["bf16", "f16", "f32"] + (["i32", "i8"] if acc == "i32" else [])
    lines += sample_chain(rng, f"{lead}M,N", "row", out_types)
    return "\n".join(lines) + "\n"


# (operand a name and extents, operand b, output name and extents) per convolution operator.
CONV_SIGNATURES = {}
for _d, (_act, _flt, _flt_t, _out) in {1: ("N,W,C", "K,S,C", "C,S,K", "N,Q,K"),
                                       2: ("N,H,W,C", "K,R,S,C", "C,R,S,K", "N,P,Q,K"),
                                       3: ("N,D,H,W,C", "K,T,R,S,C", "C,T,R,S,K", "N,Z,P,Q,K")}.items():
    CONV_SIGNATURES[f"conv{_d}d"] = (("X", _act), ("W", _flt), ("Y", _out))
    CONV_SIGNATURES[f"conv_transpose{_d}d"] = (("X", _act), ("W", _flt_t), ("Y", _out))
    CONV_SIGNATURES[f"conv{_d}d_wgrad"] = (("DY", _out), ("X", _act), ("DW", _flt))


def sample_spec_conv(rng, index):
    """SM90 implicit-GEMM convolutions (forward, transposed, filter gradient; channels-last), with the same
    epilogue chains."""
    op = rng.choice(list(CONV_SIGNATURES))
    (a_name, a_dims), (b_name, b_dims), (d_name, d_dims) = CONV_SIGNATURES[op]
    a_t, b_t = rng.choice([("bf16", "bf16"), ("f16", "f16"), ("f32", "f32"), ("i8", "i8"), ("e4m3", "e4m3")])
    acc = "i32" if a_t == "i8" else rng.choice(["f32", "f32", "f16"])
    math = ", math = tf32" if a_t == "f32" else ""
    lines = [f"# property sample {index} (conv)", f"kernel sample_{index} : sm90a",
             f"  {op}({a_name}: {a_t}[{a_dims}], {b_name}: {b_t}[{b_dims}], acc: {acc}{math})"]
    k_unit = {"bf16": 16, "f16": 16, "f32": 8, "e4m3": 32, "i8": 32}[a_t]
    if rng.random() < 0.85:
        lines.append(f"    .with_threadblockshape({rng.choice([64, 128, 128])}, {rng.choice([64, 128, 128, 256])}, "
                     f"{k_unit * rng.choice([2, 4, 4, 8])})")
    if rng.random() < 0.4:
        lines.append(f"    .with_cluster({rng.choice([1, 2])}, {rng.choice([1, 1, 2])}, 1)")
    if rng.random() < 0.5:
        lines.append(f"    .with_scheduler({rng.choice(['tma_warpspecialized', 'tma_warpspecialized', 'auto', 'tma_cooperative'])})")
    if rng.random() < 0.3:
        lines.append(f"    .with_stages({rng.choice(['auto', 2, 3, 4, 6])})")
    chain = sample_chain(rng, d_dims, "", ["bf16", "f16", "f32"])
    # Convolutions have no aux_store (check: C416); keep the sample's acceptance rate useful.
    lines += [c for c in chain if "aux_store" not in c]
    return "\n".join(lines) + "\n"


def sample_spec_conv_2x(rng, index):
    """CUTLASS 2.x implicit-GEMM convolutions (every conv operator on sm75-sm89, `multistage` on sm90a, and
    grouped_conv2d), with chains mostly of their functor form act(alpha * acc + beta * C) or, for forward
    convolutions, of the broadcast form T = alpha * acc + beta * C + bias, Y = act(T) with T as aux_store, or
    ending in a per-channel col_sum."""
    op = rng.choice(list(CONV_SIGNATURES) + ["grouped_conv2d"] * 3)
    grouped = op == "grouped_conv2d"
    sig = (("X", "N,H,W,C"), ("W", "K,R,S,CG"), ("Y", "N,P,Q,K")) if grouped else CONV_SIGNATURES[op]
    (a_name, a_dims), (b_name, b_dims), (d_name, d_dims) = sig
    arch = rng.choice(["sm75", "sm80", "sm80", "sm86", "sm89", "sm90a", "sm90a"])
    t = rng.choice(["f16", "f16", "bf16", "bf16", "f32", "f32", "i8"])
    math = ""
    if t == "f32":
        math = rng.choice(["", ", math = tf32", ", math = tf32x3", ", math = native"])
    acc = "i32" if t == "i8" else "f32"
    lines = [f"# property sample {index} (2.x conv)", f"kernel sample_{index} : {arch}",
             f"  {op}({a_name}: {t}[{a_dims}], {b_name}: {t}[{b_dims}], acc: {acc}{math})"]
    if arch == "sm90a" and (not grouped or rng.random() < 0.5):
        lines.append("    .with_scheduler(multistage)")
    k_unit = {"bf16": 32, "f16": 32, "f32": 16, "i8": 64}[t]
    if rng.random() < 0.7:
        tm, tn = rng.choice([(128, 128), (128, 64), (64, 64), (64, 128), (256, 128)])
        lines.append(f"    .with_threadblockshape({tm}, {tn}, {k_unit})")
    if rng.random() < 0.25:
        lines.append(f"    .with_stages({rng.choice(['auto', 2, 3, 4])})")
    out = "f32" if op.endswith("wgrad") and rng.random() < 0.5 else t
    forward = op in ("conv1d", "conv2d", "conv3d")
    r = rng.random()
    stages = []
    if forward and r < 0.35:
        stages = sample_broadcast_chain(rng, out, d_dims)
    elif forward and r < 0.55:
        stages = sample_reduction_chain(rng, out, d_dims)
    for _ in range(0 if stages else rng.choice([0, 1, 2, 2, 3, 4])):
        kind = rng.random()
        if kind < 0.2:
            stages.append(rng.choice(["scale(alpha)", "scale(0.5)"]))
        elif kind < 0.45:
            stages.append(rng.choice(["bias(col)", "bias(col)", "bias(row)", "bias(col, f32)", "bias(col, bf16)"]))
        elif kind < 0.6 and not any(x.startswith("residual") for x in stages):
            stages.append(f"residual(C: {out}[{d_dims}], beta = {rng.choice([1.0, 0.5])})")
        elif kind < 0.72 and not any(x.startswith("aux_store") for x in stages):
            stages.append(f"aux_store(Aux: {rng.choice([out, 'f16', 'bf16', 'f32'])}[{d_dims}])")
        else:
            stages.append(rng.choice(ACTIVATIONS))
    lines += [f"  >> {x}" for x in stages] + [f"  >> store({d_name}: {out}[{d_dims}])"]
    return "\n".join(lines) + "\n"


def sample_broadcast_chain(rng, out, dims):
    """A chain of the 2.x forward convolutions' broadcast form: [scale] >> residual and/or bias(col) in either order
    (the bias of any float type) >> [aux_store of T] >> [one activation]."""
    middle = []
    if rng.random() < 0.5:
        middle.append(f"residual(C: {out}[{dims}], beta = {rng.choice([1.0, 0.5])})")
    if rng.random() < 0.7:
        middle.append(f"bias(col{rng.choice(['', ', f32', ', bf16', ', f16'])})")
    rng.shuffle(middle)
    stages = ([rng.choice(["scale(alpha)", "scale(0.5)"])] if rng.random() < 0.3 else []) + middle
    if rng.random() < 0.7:
        stages.append(f"aux_store(Aux: {rng.choice([out, 'f16', 'bf16', 'f32'])}[{dims}])")
    if rng.random() < 0.7:
        stages.append(rng.choice([a for a in ACTIVATIONS if not a.startswith("expr")]))
    return stages


def sample_reduction_chain(rng, out, dims):
    """A chain ending in the 2.x forward convolutions' per-channel sum: [scale] >> [residual or bias(col)] >>
    col_sum (sometimes col_max or an activation before it, which C421 refuses)."""
    stages = [rng.choice(["scale(alpha)", "scale(0.5)"])] if rng.random() < 0.3 else []
    r = rng.random()
    if r < 0.35:
        stages.append(f"residual(C: {out}[{dims}])")
    elif r < 0.7:
        stages.append("bias(col)")
    if rng.random() < 0.1:
        stages.append(rng.choice(["relu", "gelu"]))
    stages.append(f"{rng.choice(['col_sum'] * 9 + ['col_max'])}(S: f32[K])")
    return stages


def sample_spec_depthwise(rng, index):
    """depthwise_conv2d: CUTLASS's direct convolution (f32 SIMT, filter size compiled in, epilogue
    act(alpha * acc + beta * C)), on the 2.x targets and sm90a; some samples break its rules on purpose."""
    arch = rng.choice(["sm80", "sm80", "sm86", "sm89", "sm90a", "sm90a", "sm75"])
    t = rng.choice(["f32"] * 8 + ["f16"])
    r, s = rng.choice([1, 2, 3, 3, 3, 5, 5, 7]), rng.choice([1, 2, 3, 3, 3, 5, 5, 7])
    lines = [f"# property sample {index} (depthwise)", f"kernel sample_{index} : {arch}",
             f"  depthwise_conv2d(X: {t}[N,H,W,C], W: {t}[C,{r},{s},1], acc: f32)"]
    if rng.random() < 0.8:
        k = r * s if rng.random() < 0.9 else r * s + 1
        lines.append(f"    .with_threadblockshape({rng.choice([16, 64, 64, 32])}, {rng.choice([16, 32, 64, 64, 128])}, {k})")
    if rng.random() < 0.4:
        lines.append(f"    .with_stages({rng.choice(['auto', 2, 3, 4, 5])})")
    stages = []
    for _ in range(rng.choice([0, 1, 2, 2, 3])):
        kind = rng.random()
        if kind < 0.2:
            stages.append(rng.choice(["scale(alpha)", "scale(0.5)"]))
        elif kind < 0.45:
            stages.append(rng.choice(["bias(col)", "bias(col)", "bias(row)"]))
        elif kind < 0.6 and not any(x.startswith("residual") for x in stages):
            stages.append(f"residual(C: f32[N,P,Q,C], beta = {rng.choice([1.0, 0.5])})")
        else:
            stages.append(rng.choice(ACTIVATIONS))
    lines += [f"  >> {x}" for x in stages] + ["  >> store(Y: f32[N,P,Q,C])"]
    return "\n".join(lines) + "\n"


def sample_gemm_op(rng):
    """gemm, batched_gemm (tensors prefixed with L) or grouped_gemm (prefixed with G), and that prefix."""
    r = rng.random()
    if r < 0.15:
        return "batched_gemm", "L,"
    if r < 0.3:
        return "grouped_gemm", "G,"
    return "gemm", ""


def is_fp8(t):
    return t in ("e4m3", "e5m2")


def sample_spec(rng, index, family="all"):
    if family == "depthwise":
        return sample_spec_depthwise(rng, index)
    r = rng.random()
    if family == "conv2x":
        return sample_spec_conv_2x(rng, index)
    if r < 0.05:
        return sample_spec_depthwise(rng, index)
    if r < 0.15:
        return sample_spec_conv_2x(rng, index)
    if r < 0.35:
        return sample_spec_2x(rng, index)
    if r < 0.5:
        return sample_spec_conv(rng, index)
    a_t, b_t = rng.choice(DTYPES)
    op, lead = sample_gemm_op(rng)
    a_l = rng.choice(["row", "row", "row", "col"])
    b_l = rng.choice(["col", "col", "col", "row"])
    acc = "i32" if a_t == "i8" else rng.choice(["f32", "f32", "f32", "f16"])
    lines = [f"# property sample {index}", f"kernel sample_{index} : sm90a"]
    math = ", math = tf32" if a_t == "f32" else ""
    # Sometimes rows of any length, loaded through `pad` (copied to 16-byte rows) or through cp.async (4-byte rows).
    r = rng.random()
    a_pad = " align(1) pad" if r < 0.1 else (" align(1)" if a_t == "f32" and r < 0.2 else "")
    b_pad = a_pad if rng.random() < 0.7 else ""
    lines.append(f"  {op}(A: {a_t}[{lead}M,K] {a_l}{a_pad}{' scaled' if a_t in ('e4m3',) and rng.random() < 0.5 else ''}, "
                 f"B: {b_t}[{lead}K,N] {b_l}{b_pad}, acc: {acc}{math})")
    k_unit = {"bf16": 16, "f16": 16, "f32": 8, "e4m3": 32, "e5m2": 32, "i8": 32}[a_t]
    if rng.random() < 0.85:
        tm = rng.choice([64, 128, 128, 256, 192])
        tn = rng.choice([32, 64, 128, 128, 192, 256, 96])
        tk = k_unit * rng.choice([2, 4, 4, 8])
        lines.append(f"    .with_threadblockshape({tm}, {tn}, {tk})")
    if rng.random() < 0.6:
        lines.append(f"    .with_cluster({rng.choice([1, 2, 2, 4])}, {rng.choice([1, 1, 2])}, 1)")
    if rng.random() < 0.8:
        kernel = rng.choice(["tma_cooperative", "tma_cooperative", "tma_pingpong", "tma_pingpong",
                             "tma_warpspecialized", "tma", "auto", "cp_async_cooperative", "cp_async_warpspecialized"])
        epi = rng.choice(["", "", ", epilogue = tma", ", epilogue = tma_cooperative", ", epilogue = nosmem",
                          ", epilogue = auto"])
        lines.append(f"    .with_scheduler({kernel}{epi})")
    if rng.random() < 0.3:
        lines.append(f"    .with_stages({rng.choice(['auto', 2, 3, 4, 5, 7])})")
    if rng.random() < 0.25:
        lines.append(f"    .with_raster({rng.choice(['auto', 'along_m', 'along_n'])}, swizzle = {rng.choice([1, 2, 4, 8])})")
    if rng.random() < 0.2:
        lines.append(f"    .with_tile_scheduler({rng.choice(['persistent', 'stream_k', 'split_k(2)', 'split_k(3)'])})")
    if a_t in ("e4m3",) and rng.random() < 0.4:
        lines.append("    .with_fp8_fast_accum()")
    d_l = rng.choice(["row", "row", "row", "col"])
    lines += sample_chain(rng, f"{lead}M,N", d_l, OUT_TYPES)
    return "\n".join(l for l in lines if l) + "\n"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--count", type=int, default=20, help="accepted specs to compile")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("UCUT_PROPERTY_SEED", int(time.time()) % 100000)))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="property-test")
    ap.add_argument("--max-samples", type=int, default=5000)
    ap.add_argument("--family", choices=["all", "depthwise", "conv2x"], default="all", help="sample one operator family only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    print(f"property test: seed {args.seed} (rerun with --seed {args.seed})", flush=True)
    sampled, accepted, rules = 0, [], {}
    while len(accepted) < args.count and sampled < args.max_samples:
        text = sample_spec(rng, sampled, args.family)
        sampled += 1
        r = run([args.ucutlass, "check", "--json", "-"], input=text)
        try:
            answer = json.loads(r.stdout)
        except json.JSONDecodeError:
            print(f"ucutlass check crashed on sample {sampled - 1} (exit {r.returncode}):\n{text}\n{r.stderr}")
            return 1
        if answer["ok"]:
            path = os.path.join(args.out, f"sample_{sampled - 1}.ucut")
            with open(path, "w") as f:
                f.write(text)
            accepted.append(path)
        else:
            for d in answer["diagnostics"]:
                if d["severity"] == "error":
                    rules[d["rule"]] = rules.get(d["rule"], 0) + 1
    print(f"sampled {sampled}, accepted {len(accepted)} ({100.0 * len(accepted) / max(sampled, 1):.1f}%)", flush=True)
    print("rejections by rule: " + ", ".join(f"{k} {v}" for k, v in sorted(rules.items(), key=lambda kv: -kv[1])))
    t0 = time.time()
    r = run([args.ucutlass, "build", "--json", "--jobs", str(args.jobs)] + accepted)
    try:
        results = json.loads(r.stdout)
    except json.JSONDecodeError:
        print(f"ucutlass build failed (exit {r.returncode}): {r.stderr}")
        return 1
    failed = [x for x in results if not x["ok"]]
    summary = {"seed": args.seed, "sampled": sampled, "accepted": len(accepted),
               "acceptance_rate": len(accepted) / max(sampled, 1), "compiled": len(results) - len(failed),
               "failed": [{"spec": x["spec"], "error": x["error"], "log": x["log"]} for x in failed],
               "rejections_by_rule": rules, "build_seconds": time.time() - t0}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(f"compiled {summary['compiled']}/{len(accepted)} accepted specs in {summary['build_seconds']:.0f} s")
    for x in failed:
        print(f"FAILED {x['spec']}: {x['error']}\n  log: {x['log']}")
        with open(x["spec"]) as f:
            print(f.read())
    return 0 if not failed and len(accepted) >= args.count else 1


if __name__ == "__main__":
    sys.exit(main())
