#!/usr/bin/env python3
"""The agents' GPU run with SCRIPTED model turns: `ucutlass optimize --agent orchestrated` (with the LLM game
detector) and `--agent in-prompt` on two KernelBench problems, and `ucutlass mskb optimize` (CUDAMaster's four
roles) on three MSKB tasks, each against bench/agents/scripted_model.py serving its script of
bench/agents/scripts/. Writes OUT/agents.json and OUT/agents.md (rewritten after every run, so a run cut short
keeps the others), and per run OUT/<run>/: the workspace (w.db), the llm config, the model server's log, the
command's output, `ucutlass workspace show` and `ucutlass report`.

  scripted_run.py --ucutlass build/ucutlass --out DIR [--runs cudamaster,orchestrated,in-prompt] [--jobs N]

The GEMM kernels the scripts propose are compiled first, in parallel (`ucutlass build`, --no-prebuild skips it),
while the CUDAMaster run measures; the MANTIS runs then find them in the kernel cache. Exit 0: every run exited
0 and every model request matched a rule; 1 otherwise (the summary says which)."""
import argparse
import contextlib
import datetime
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from scripted_model import TOKEN_COUNTING  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(HERE, "scripts")
SERVER = os.path.join(HERE, "scripted_model.py")
PROBLEMS = ["suites/kernelbench/level1/L1_001_square_matmul.toml",
            "suites/kernelbench/level2/L2_086_matmul_divide_gelu.toml"]
SEEDS = "bench/kernelbench/impl"
MSKB_TASKS = ["RELU", "sigmoid", "gelu"]
RUN_ORDER = ["cudamaster", "orchestrated", "in-prompt"]
HEADLINE = (
    "The model turns of these runs are SCRIPTED: written by hand (bench/agents/scripts/) and served by "
    "bench/agents/scripted_model.py, a loopback OpenAI-compatible server that answers each request by rule; no "
    "language model took part. What they show: μCUTLASS's agent code drives the real tools end to end on this "
    "GPU — every prompt rendered from the workspace, every answer parsed and validated, every proposed spec "
    "checked, built, verified against the reference and timed, every CUDA candidate built, interface-checked, "
    "verified and timed, every call recorded in the workspace with its tokens. What they do not show: how well "
    "any model optimizes — the proposals are ones a person chose, informed by earlier measured runs, and the token "
    "counts are the scripted server's (UTF-8 bytes / 4), not a tokenizer's.")
GPU_KEYS = [("H100", "h100_sxm"), ("H200", "h200"), ("A100", "a100_sxm"), ("B200", "b200"), ("L40S", "l40s"),
            ("4090", "rtx_4090")]


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def gpu_name():
    """The first GPU's name by nvidia-smi, or None."""
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                           text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    name = r.stdout.strip().splitlines()[0].strip() if r.returncode == 0 and r.stdout.strip() else ""
    return name or None


def gpu_key(name):
    """The data/gpus.toml key for a GPU name, for the SOL bounds; None keeps ucutlass's default."""
    return next((key for part, key in GPU_KEYS if name and part in name), None)


def run_argv(name, ucutlass, d, args, gpu):
    """The command of run `name`, its workspace and files in folder `d`."""
    ws, cfg = os.path.join(d, "w.db"), os.path.join(d, "llm.toml")
    common = ["--workspace", ws, "--llm-config", cfg] + (["--gpu", gpu] if gpu else [])
    mantis = PROBLEMS + common + ["--tolerance", "1e-2", "--inputs", "framework", "--no-cublas", "--seeds", SEEDS]
    mantis += ["-j", str(args.jobs)] if args.jobs else []
    if name == "orchestrated":
        return [ucutlass, "optimize"] + mantis + ["--agent", "orchestrated", "--detector", "--budget", "10",
                                                  "--iterations", "2", "--hypotheses", "2", "--attempts", "2"]
    if name == "in-prompt":
        return [ucutlass, "optimize"] + mantis + ["--agent", "in-prompt", "--budget", "6"]
    return [ucutlass, "mskb", "optimize"] + MSKB_TASKS + common + [
        "--precision", "fp32", "--rounds", "2", "--debug-tries", "2", "--profile", "filtered", "--detector",
        "--trial-seconds", str(args.trial_seconds), "--out", os.path.join(d, "cudamaster-out"), "--json"]


def script_vars(name, out, gpu):
    """The values of the script's {{NAME}}s: the GPU's data/gpus.toml key, and for the in-prompt controller the
    workspace whose lessons it reads (the orchestrated run's)."""
    variables = {"GPU": gpu or "h200"}
    if name == "in-prompt":
        variables["LESSONS_WORKSPACE"] = os.path.join(out, "orchestrated", "w.db")
    return variables


# ---- the scripted model server ----

def start_server(script, log, variables, stderr):
    """The server process and the port it prints once it listens."""
    argv = [sys.executable, SERVER, script, "--log", log]
    for k, v in variables.items():
        argv += ["--var", f"{k}={v}"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr, text=True)
    line = proc.stdout.readline().strip()
    if not line.isdigit():
        proc.wait(timeout=10)
        raise RuntimeError(f"the scripted model server did not start (exit {proc.returncode}); see its stderr")
    return proc, int(line)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def write_llm_config(path, port):
    with open(path, "w") as f:
        f.write("# The scripted model server of bench/agents/scripted_run.py (loopback; no key, no prices).\n"
                f"[llm]\nbase_url = \"http://127.0.0.1:{port}/v1\"\nmodel = \"scripted\"\ntimeout_s = 60\n"
                "max_retries = 0\nstream = false\n")


def model_log_summary(path):
    """What the server's log says: requests, how they were answered, the rules used and left unused."""
    out = {"requests": 0, "answered": 0, "unmatched": 0, "errors": [], "rules_used": {}, "rules_unused": [],
           "prompt_tokens": 0, "completion_tokens": 0, "token_counting": None}
    rules = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                e = json.loads(line)
                if e.get("event") == "start":
                    rules = e.get("rules", [])
                    out["token_counting"] = e.get("token_counting")
                    continue
                out["requests"] += 1
                if e.get("status") == 200:
                    out["answered"] += 1
                    out["rules_used"][e["rule"]] = out["rules_used"].get(e["rule"], 0) + 1
                    out["prompt_tokens"] += e.get("prompt_tokens", 0)
                    out["completion_tokens"] += e.get("completion_tokens", 0)
                else:
                    out["unmatched"] += 1
                    out["errors"].append(e.get("error", ""))
    except OSError:
        return out
    out["rules_unused"] = [r for r in rules if r not in out["rules_used"]]
    return out


# ---- what the workspace holds ----

def workspace_summary(path):
    """Model calls by role and, per problem, the attempts and the seed's and best's times (sqlite, read-only)."""
    if not os.path.exists(path):
        return {"error": "no workspace was written"}
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            calls = db.execute("SELECT role, status, count(*), sum(prompt_tokens), sum(completion_tokens), "
                               "sum(cost_usd) FROM llm_calls GROUP BY role, status ORDER BY min(id)").fetchall()
            attempts = {pid: (baseline, db.execute(
                "SELECT id, proposer, status, correct, flagged, time_ms, tokens, precision_change, spec FROM attempts "
                "WHERE problem_id = ? ORDER BY id", (pid,)).fetchall())
                for pid, baseline in db.execute("SELECT id, baseline_ms FROM problems ORDER BY seq").fetchall()}
    except sqlite3.Error as e:
        return {"error": f"cannot read {path}: {e}"}
    roles = {}
    for role, status, n, p, c, usd in calls:
        r = roles.setdefault(role, {"calls": 0, "ok": 0, "failed": 0, "pending": 0, "prompt_tokens": 0,
                                    "completion_tokens": 0, "cost_usd": 0.0})
        r["calls"] += n
        r[status] = r.get(status, 0) + n
        r["prompt_tokens"] += p or 0
        r["completion_tokens"] += c or 0
        r["cost_usd"] += usd or 0.0
    problems = []
    for pid, (baseline, rows) in attempts.items():
        verified = [r for r in rows if r[2] == "measured" and r[3] and not r[4] and r[5] is not None]
        seed = next((r for r in rows if r[1] == "seed"), None)
        best = min(verified, key=lambda r: r[5]) if verified else None
        proposed = [r for r in rows if r[1] != "seed"]
        seed_ms = seed[5] if seed and seed in verified else None
        problems.append({
            "id": pid, "baseline_ms": baseline, "seed_ms": seed_ms,
            "best_ms": best[5] if best else None, "best_attempt": best[0] if best else None,
            "best_proposer": best[1] if best else None,
            "best_kernel": kernel_name(best[8]) if best else None,
            "best_precision_change": bool(best[7]) if best else None,
            "speedup_over_seed": seed_ms / best[5] if best and seed_ms else None,
            "proposed": len(proposed),
            "verified": sum(1 for r in proposed if r in verified),
            "statuses": {s: sum(1 for r in proposed if r[2] == s) for s in sorted({r[2] for r in proposed})},
            "flagged": sum(1 for r in proposed if r[4]),
            "tokens_on_attempts": sum(r[6] for r in rows)})
    return {"calls_by_role": roles, "problems": problems}


def fold_wal(path):
    """Checkpoints the workspace's write-ahead log into w.db and lets SQLite remove it, so that the file alone
    holds everything (a run killed mid-write leaves its WAL beside it)."""
    try:
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass  # the summary says what cannot be read


def kernel_name(spec):
    """A spec's `kernel NAME` (None for a .cu file)."""
    m = re.search(r"^kernel\s+(\w+)", spec, re.MULTILINE)
    return m.group(1) if m else None


def mskb_pairs(stdout_path):
    """`mskb optimize --json`'s pairs: P, the naive and best times, each round's outcome."""
    try:
        with open(stdout_path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    return [{"pair": p["pair"], "improved": p.get("improved"), "best_score_P": p.get("best_score"),
             "naive_ms": p.get("naive_ms"), "best_path": p.get("best_path"), "error": p.get("error"),
             "needs_gpu": p.get("needs_gpu"),
             "rounds": [{"round": r.get("round"), "outcome": r.get("outcome"), "score": r.get("score"),
                         "debug_tries": r.get("debug_tries"), "why": r.get("why")} for r in p.get("rounds", [])]}
            for p in report.get("pairs", [])]


# ---- running one command ----

def run_command(argv, stdout, stderr, timeout):
    """(exit code or None on a timeout, wall seconds); a timeout ends the command's whole process group."""
    t0 = time.monotonic()
    with open(stdout, "w") as out, open(stderr, "w") as err:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=err, start_new_session=True)
        try:
            return proc.wait(timeout=max(1, timeout)), time.monotonic() - t0
        except subprocess.TimeoutExpired:
            for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 10)):
                try:
                    os.killpg(proc.pid, sig)
                    proc.wait(timeout=wait)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue
            return None, time.monotonic() - t0


def execute(name, ucutlass, out, args, gpu, deadline):
    """Runs `name` against its script; whatever happens, returns its summary."""
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    for f in ("w.db", "w.db-wal", "w.db-shm", "model-log.jsonl"):  # a fresh run: no resume, no stale log
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    argv = run_argv(name, ucutlass, d, args, gpu)
    script = os.path.join(SCRIPTS, name.replace("-", "_") + ".json")  # in-prompt: scripts/in_prompt.json
    result = {"run": name, "script": os.path.relpath(script, ROOT),
              "command": " ".join("ucutlass" if a == ucutlass else a.replace(out, "$OUT") for a in argv),
              "started": utc_now()}
    timeout = min(args.timeout, deadline - time.monotonic())
    if timeout < 30:
        result["error"] = "not run: the driver's --deadline-s was spent"
        return result
    with open(os.path.join(d, "model-server-stderr.txt"), "w") as server_err:
        try:
            server, port = start_server(script, os.path.join(d, "model-log.jsonl"), script_vars(name, out, gpu),
                                        server_err)
        except (RuntimeError, OSError) as e:
            result["error"] = str(e)
            return result
        try:
            write_llm_config(os.path.join(d, "llm.toml"), port)
            code, wall = run_command(argv, os.path.join(d, "stdout.txt"), os.path.join(d, "stderr.txt"), timeout)
        finally:
            stop(server)
    result.update(exit_code=code, timed_out=code is None, wall_s=round(wall, 1))
    if code is None:
        result["error"] = f"timed out after {timeout:.0f} s (killed)"
    ws = os.path.join(d, "w.db")
    if os.path.exists(ws):
        for sub, path in ((["workspace", "show", ws], "workspace.txt"),
                          (["report", ws, "-o", os.path.join(d, "report")] + (["--gpu", gpu] if gpu else []),
                           "report-log.txt")):
            with open(os.path.join(d, path), "w") as f:
                try:
                    subprocess.run([ucutlass] + sub, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, timeout=120)
                except subprocess.TimeoutExpired:
                    f.write("timed out\n")
    result["model_server"] = model_log_summary(os.path.join(d, "model-log.jsonl"))
    result["workspace"] = workspace_summary(ws)
    if os.path.exists(ws):
        fold_wal(ws)  # last: the read-only opens above leave an empty WAL beside it
    if name == "cudamaster":
        result["pairs"] = mskb_pairs(os.path.join(d, "stdout.txt"))
    with open(os.path.join(d, "stderr.txt"), errors="replace") as f:
        result["stderr_tail"] = f.read()[-1500:]
    return result


# ---- the prebuild ----

def prebuild_specs():
    """The seeds of the two problems and every spec under bench/agents/specs/ (not its drafts/)."""
    specs = sorted(os.path.join("bench/agents/specs", f) for f in os.listdir(os.path.join(HERE, "specs"))
                   if f.endswith(".ucut"))
    return [os.path.join(SEEDS, os.path.basename(p)[:-5] + ".ucut") for p in PROBLEMS] + specs


def start_prebuild(ucutlass, out, jobs):
    """`ucutlass build` of the seeds and every spec the scripts propose, in the background."""
    report = open(os.path.join(out, "prebuild.json"), "w")
    log = open(os.path.join(out, "prebuild-log.txt"), "w")
    argv = [ucutlass, "build", "--json"] + (["-j", str(jobs)] if jobs else []) + prebuild_specs()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=report, stderr=log, start_new_session=True)
    return {"proc": proc, "started": time.monotonic(), "files": (report, log)}


def finish_prebuild(build, out, timeout):
    """Waits for the prebuild (killing it after `timeout` s) and says what it built."""
    proc = build["proc"]
    try:
        code = proc.wait(timeout=max(1, timeout))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        code = None
    for f in build["files"]:
        f.close()
    summary = {"exit_code": code, "wall_s": round(time.monotonic() - build["started"], 1)}
    try:
        with open(os.path.join(out, "prebuild.json")) as f:
            built = json.load(f)
        summary.update(kernels=len(built), cached=sum(1 for b in built if b.get("cached")),
                       failed=[b["spec"] for b in built if not b.get("ok")])
    except (OSError, ValueError):
        summary["error"] = "no build report (killed or crashed): the runs build what is missing themselves"
    return summary


# ---- the summary ----

def ms(v):
    """A time for people; none, or 0 (not timed), is a dash."""
    return f"{v:.4g} ms" if isinstance(v, (int, float)) and v > 0 else "—"


def round_text(r):
    """One CUDAMaster round for people: its outcome, P and debug tries."""
    text = f"round {r['round']}: {r['outcome']}" + (f" P {r['score']:.2f}" if r.get("score") else "")
    if r.get("debug_tries"):
        text += f" after {r['debug_tries']} debug tr{'y' if r['debug_tries'] == 1 else 'ies'}"
    return text


def run_ok(r):
    return r.get("exit_code") == 0 and r.get("model_server", {}).get("unmatched", 1) == 0


def markdown(meta, results):
    lines = ["# Agents end to end on the GPU, with SCRIPTED model turns", "", HEADLINE, "",
             f"GPU: {meta['gpu'] or 'none found'}; {meta['ucutlass']}; started {meta['started']}; "
             f"{meta['token_counting']}.", ""]
    if meta.get("prebuild"):
        p = meta["prebuild"]
        lines += [f"Prebuild (`ucutlass build` of the 2 seeds and the scripts' specs, during the CUDAMaster run): "
                  f"{p.get('kernels', '?')} kernels, {p.get('cached', '?')} already cached, failed: "
                  f"{', '.join(p.get('failed', [])) or 'none'}; {p.get('wall_s')} s"
                  + (f" ({p['error']})" if p.get("error") else "") + ".", ""]
    lines += ["| run | exit | wall | model requests (unmatched) | calls in the workspace | tokens (prompt + "
              "completion) | attempts proposed / verified | best vs seed |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        ws, srv = r.get("workspace", {}), r.get("model_server", {})
        roles = ws.get("calls_by_role", {})
        calls = sum(v["calls"] for v in roles.values())
        prompt, completion = (sum(v[k] for v in roles.values()) for k in ("prompt_tokens", "completion_tokens"))
        tokens = f"{prompt} + {completion}"
        probs = ws.get("problems", [])
        attempts = f"{sum(p['proposed'] for p in probs)} / {sum(p['verified'] for p in probs)}"
        best = "; ".join(f"{p['id']} {p['speedup_over_seed']:.2f}x" if p.get("speedup_over_seed")
                         else f"{p['id']} —" for p in probs)
        exit_text = "timeout" if r.get("timed_out") else str(r.get("exit_code", "not run"))
        lines.append(f"| {r['run']} | {exit_text} | {r.get('wall_s', '—')} s | {srv.get('requests', 0)} "
                     f"({srv.get('unmatched', 0)}) | {calls} | {tokens} | {attempts} | {best or '—'} |")
    for r in results:
        lines += ["", f"## {r['run']}", "", f"Script `{r['script']}`; command:", "", "```", r["command"], "```", ""]
        if r.get("error"):
            lines += [f"**Error:** {r['error']}", ""]
        ws, srv = r.get("workspace", {}), r.get("model_server", {})
        if ws.get("error"):
            lines += [f"Workspace: {ws['error']}", ""]
        if ws.get("calls_by_role"):
            lines += ["| role | calls | ok | failed | prompt tokens | completion tokens |", "|---|---|---|---|---|---|"]
            for role, v in ws["calls_by_role"].items():
                lines.append(f"| {role} | {v['calls']} | {v.get('ok', 0)} | {v.get('failed', 0)} | "
                             f"{v['prompt_tokens']} | {v['completion_tokens']} |")
            lines.append("")
        if ws.get("problems"):
            lines += ["| problem | seed | best | best vs seed | best attempt | proposed | verified | outcomes of the "
                      "proposed | tokens on attempts |", "|---|---|---|---|---|---|---|---|---|"]
            for p in ws["problems"]:
                outcomes = ", ".join(f"{n} {s}" for s, n in p["statuses"].items()) or "—"
                speed = f"{p['speedup_over_seed']:.2f}x" if p.get("speedup_over_seed") else "—"
                attempt = "—"
                if p.get("best_attempt"):
                    attempt = f"#{p['best_attempt']} {p['best_kernel'] or ''} ({p['best_proposer']}" + (
                        ", precision_change" if p["best_precision_change"] else "") + ")"
                lines.append(f"| {p['id']} | {ms(p['seed_ms'])} | {ms(p['best_ms'])} | {speed} | {attempt} | "
                             f"{p['proposed']} | {p['verified']} | {outcomes} | {p['tokens_on_attempts']} |")
            lines.append("")
        for pair in r.get("pairs") or []:
            rounds = "; ".join(round_text(x) for x in pair["rounds"])
            p_text = f"{pair['best_score_P']:.2f}" if isinstance(pair.get("best_score_P"), (int, float)) else "—"
            lines.append(f"- `{pair['pair']}`: naive {ms(pair['naive_ms'])}, best P = {p_text} over the naive "
                         f"launcher ({'improved' if pair['improved'] else 'not improved'}); {rounds or 'no round'}"
                         + (f"; error: {pair['error']}" if pair.get("error") else "")
                         + ("; stopped: needs a GPU" if pair.get("needs_gpu") else ""))
        if r.get("pairs"):
            lines.append("")
        if srv:
            used = len(srv.get("rules_used", {}))
            text = (f"Model server: {srv.get('requests', 0)} requests, {srv.get('answered', 0)} answered by {used} "
                    f"of {used + len(srv.get('rules_unused', []))} rules, {srv.get('unmatched', 0)} unmatched; "
                    f"{srv.get('prompt_tokens', 0)} + {srv.get('completion_tokens', 0)} tokens served "
                    f"({srv.get('token_counting') or 'its counting not logged'}).")
            if srv.get("rules_unused"):
                text += f" Rules not used: {', '.join(srv['rules_unused'])}."
            lines.append(text)
            for e in srv.get("errors", [])[:3]:
                lines.append(f"- {e}")
    lines += ["", "Files (per run, under `<run>/`): `w.db` (the workspace: attempts, stages, every model call with "
              "its request and answer), `model-log.jsonl` (every request and the rule that answered), `stdout.txt`, "
              "`stderr.txt`, `workspace.txt`, `report/` (`ucutlass report`), `llm.toml`; the CUDAMaster run's "
              "files are under `cudamaster/cudamaster-out/`.", ""]
    return "\n".join(lines)


def write_summary(out, meta, results):
    with open(os.path.join(out, "agents.json"), "w") as f:
        json.dump({"headline": HEADLINE, **meta, "runs": results}, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, "agents.md"), "w") as f:
        f.write(markdown(meta, results))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ucutlass", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", default=",".join(RUN_ORDER),
                    help=f"comma-separated, run in this order: {', '.join(RUN_ORDER)} (default all)")
    ap.add_argument("--jobs", type=int, help="parallel nvcc processes (default: ucutlass's, by cores and memory)")
    ap.add_argument("--no-prebuild", dest="prebuild", action="store_false",
                    help="do not compile the GEMM kernels ahead (the MANTIS runs then build them themselves)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    ap.add_argument("--deadline-s", type=float, default=480,
                    help="seconds for the whole driver: a run starts only with 30 s left, and gets at most what "
                         "is left (default 480)")
    ap.add_argument("--trial-seconds", type=float, default=0.25, help="mskb optimize's cold-L2 timing per launcher "
                    "and case (default 0.25)")
    args = ap.parse_args(argv)
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    unknown = [r for r in runs if r not in RUN_ORDER]
    if unknown:
        ap.error(f"unknown runs {unknown}: choose from {RUN_ORDER}")
    deadline = time.monotonic() + args.deadline_s
    ucutlass = os.path.abspath(args.ucutlass)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    name = gpu_name()
    version = subprocess.run([ucutlass, "--version"], capture_output=True, text=True).stdout.strip()
    meta = {"scripted": True, "started": utc_now(), "gpu": name, "ucutlass": version,
            "token_counting": TOKEN_COUNTING, "prebuild": None}
    prebuild = None
    if args.prebuild and any(r != "cudamaster" for r in runs):
        prebuild = start_prebuild(ucutlass, out, args.jobs)
    results = []
    for r in RUN_ORDER:
        if r not in runs:
            continue
        if r != "cudamaster" and prebuild:
            meta["prebuild"] = finish_prebuild(prebuild, out, deadline - time.monotonic() - 60)
            prebuild = None
        print(f"scripted_run: {r} ...", flush=True)
        results.append(execute(r, ucutlass, out, args, gpu_key(name), deadline))
        print(f"scripted_run: {r}: exit {results[-1].get('exit_code')}, "
              f"{results[-1].get('model_server', {}).get('requests', 0)} model requests", flush=True)
        write_summary(out, meta, results)
    write_summary(out, meta, results)
    return 0 if results and all(run_ok(r) for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
