"""Shared helpers of the bench/ scripts: run `ucutlass run ... --json` and read its report."""
import datetime
import json
import subprocess


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_report(cmd, timeout=None):
    """Runs a `ucutlass run --json` command; returns (report, exit code). A crash or a timeout becomes a
    report with `stopped_at` set, so callers record it instead of losing the run."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"stopped_at": "timeout", "message": f"over {timeout} s", "shapes": []}, -1
    try:
        return json.loads(r.stdout), r.returncode
    except json.JSONDecodeError:
        return {"stopped_at": "crash", "message": r.stderr[-2000:], "shapes": []}, r.returncode


def build_specs(args, specs):
    """`prepare`'s last step: build the kernels here, unless --no-build leaves that to the GPU visit's `build` job."""
    if args.no_build:
        print(f"wrote {len(specs)} specs (not built: --no-build)")
        return 0
    r = subprocess.run([args.ucutlass, "build", "--json"] + specs, capture_output=True, text=True)
    print(r.stdout if r.returncode else f"built {len(specs)} kernels")
    return r.returncode


def add_bench_arguments(ap, steps=("prepare", "run")):
    """The arguments every `bench.py prepare|run` shares (`steps`: the script's steps)."""
    ap.add_argument("step", choices=list(steps))
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--no-build", action="store_true", help="prepare: write specs and problems without building")
    ap.add_argument("--out", default="bench/results")
    ap.add_argument("--trials", type=int, default=100)


def gpu_environment(reports):
    """The environment of the first report that reached a GPU (runs stopped before it report an empty one)."""
    return next((r["environment"] for r in reports if (r.get("environment") or {}).get("gpu_name")), {})
