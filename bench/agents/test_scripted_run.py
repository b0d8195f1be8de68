"""scripted_run.py: what it reads from a workspace and how it reports a GPU run's results; and, when UCUTLASS
names the ucutlass binary, the run end to end without a GPU: the MANTIS runs with an nvcc that refuses every
compile, so each script is played to its end through the real prompts, the real checker and the real problems in
seconds (every proposed spec checks and fits its problem, only the build fails), and the CUDAMaster run with the
real nvcc up to the first candidate of each task that builds (exit 4: no GPU), gelu's through its compile error
and Debug. Each run: every request matched a rule, and the tokens the workspace recorded are the ones the server
counted."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scripted_run  # noqa: E402
UCUTLASS = os.environ.get("UCUTLASS")
FAKE_NVCC = """#!/bin/sh
# An nvcc that answers --version and refuses every compile: the model side of a run, with no nvcc time.
if [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0; fi
echo "fake nvcc: compiling is switched off in this test" >&2
exit 1
"""


def nvcc():
    return shutil.which("nvcc") or next((p for p in ["/usr/local/cuda/bin/nvcc"] if os.path.exists(p)), None)


@unittest.skipUnless(UCUTLASS, "set UCUTLASS to the ucutlass binary")
class ScriptedRunWithoutAGpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.env = dict(os.environ, CUDA_VISIBLE_DEVICES="", UCUT_CACHE_DIR=os.path.join(cls.tmp.name, "cache"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def drive(self, runs, env):
        out = os.path.join(self.tmp.name, runs.replace(",", "+"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "scripted_run.py"), "--ucutlass", UCUTLASS,
                            "--out", out, "--runs", runs, "--jobs", "2", "--no-prebuild"],
                           env=env, capture_output=True, text=True, timeout=600)
        with open(os.path.join(out, "agents.json")) as f:
            summary = json.load(f)
        with open(os.path.join(out, "agents.md")) as f:
            self.assertIn("SCRIPTED", f.read())
        return {run["run"]: run for run in summary["runs"]}, r

    def assert_served_and_recorded(self, run, unused=()):
        server, ws = run["model_server"], run["workspace"]
        self.assertEqual(server["unmatched"], 0, server["errors"])
        self.assertEqual(sorted(server["rules_unused"]), sorted(unused))
        roles = ws["calls_by_role"].values()
        self.assertEqual(sum(r["prompt_tokens"] for r in roles), server["prompt_tokens"])
        self.assertEqual(sum(r["completion_tokens"] for r in roles), server["completion_tokens"])
        self.assertTrue(all(r["calls"] == r["ok"] for r in roles), ws["calls_by_role"])

    def calls(self, run):
        return {role: v["calls"] for role, v in run["workspace"]["calls_by_role"].items()}

    def statuses(self, run):
        return {p["id"]: p["statuses"] for p in run["workspace"]["problems"]}

    def test_the_mantis_scripts_play_to_their_end(self):
        fake = os.path.join(self.tmp.name, "fake-nvcc")
        with open(fake, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(fake, 0o755)
        runs, r = self.drive("orchestrated,in-prompt", dict(self.env, CUDACXX=fake))
        orchestrated, in_prompt = runs["orchestrated"], runs["in-prompt"]
        self.assertEqual(orchestrated["exit_code"], 0, orchestrated.get("stderr_tail"))
        self.assertEqual(in_prompt["exit_code"], 0, in_prompt.get("stderr_tail"))
        # The detector reviews verified attempts only: without a build, none.
        self.assert_served_and_recorded(orchestrated, unused=["detector: every reviewed spec"])
        self.assert_served_and_recorded(in_prompt)
        # Two iterations of two problems; one Implement call per kept hypothesis: no spec went back for repair.
        self.assertEqual(self.calls(orchestrated), {"measure": 4, "analyze": 4, "nominate": 4, "triage": 4,
                                                    "implement": 8, "summarize": 4})
        self.assertEqual(self.statuses(orchestrated), {"L1_001_square_matmul": {"build_failed": 6},
                                                       "L2_086_matmul_divide_gelu": {"build_failed": 6}})
        self.assertEqual(self.calls(in_prompt), {"controller": 16})
        self.assertEqual(self.statuses(in_prompt), {"L1_001_square_matmul": {"build_failed": 3},
                                                    "L2_086_matmul_divide_gelu": {"build_failed": 2}})

    @unittest.skipUnless(nvcc(), "no nvcc")
    def test_the_cudamaster_script_reaches_a_building_candidate_of_each_task(self):
        runs, r = self.drive("cudamaster", self.env)
        cm = runs["cudamaster"]
        self.assertEqual(cm["exit_code"], 4, cm.get("stderr_tail"))  # builds, then needs a GPU
        # Round 2 and the detector (which reviews verified launchers only) need the GPU.
        self.assert_served_and_recorded(cm, unused=[f"{role} {task} round 2" for task in ("RELU", "sigmoid", "gelu")
                                                    for role in ("planner", "coder")]
                                        + ["detector: every verified launcher"])
        self.assertEqual(self.calls(cm), {"planner": 3, "coder": 4, "compiler": 4, "debug": 1})
        self.assertEqual(self.statuses(cm), {"RELU": {"pending": 1}, "sigmoid": {"pending": 1},
                                             "gelu": {"build_failed": 1, "pending": 1}})
        self.assertEqual(r.returncode, 1)  # not every run exited 0


class Summary(unittest.TestCase):
    """The summary of measured runs, from a workspace with the columns the driver reads."""

    def workspace(self, path):
        db = sqlite3.connect(path)
        db.executescript("""
            CREATE TABLE problems (seq INTEGER PRIMARY KEY, id TEXT, baseline_ms REAL);
            CREATE TABLE attempts (id INTEGER PRIMARY KEY, problem_id TEXT, proposer TEXT, status TEXT,
                                   correct INTEGER, flagged INTEGER, time_ms REAL, tokens INTEGER,
                                   precision_change INTEGER, spec TEXT);
            CREATE TABLE llm_calls (id INTEGER PRIMARY KEY, role TEXT, status TEXT, prompt_tokens INTEGER,
                                    completion_tokens INTEGER, cost_usd REAL);""")
        db.execute("INSERT INTO problems VALUES (1, 'L1', 2.7)")
        db.executemany("INSERT INTO attempts VALUES (?, 'L1', ?, ?, ?, ?, ?, ?, ?, ?)", [
            (1, "seed", "measured", 1, 0, 2.0, 0, 0, "kernel seed_k : sm90a\n"),
            (2, "model:scripted", "measured", 1, 0, 0.5, 40, 1, "# a comment\nkernel fast_k : sm90a\n"),
            (3, "model:scripted", "measured", 1, 1, 0.1, 40, 1, "kernel flagged_k : sm90a\n"),  # never best
            (4, "model:scripted", "measured", 0, 0, 0.2, 40, 0, "kernel wrong_k : sm90a\n"),  # wrong result
            (5, "model:scripted", "build_failed", 0, 0, None, 30, 0, "kernel broken_k : sm90a\n")])
        db.executemany("INSERT INTO llm_calls VALUES (?, ?, ?, ?, ?, 0)", [
            (1, "measure", "ok", 100, 10), (2, "implement", "ok", 900, 90), (3, "implement", "failed", 5, 0)])
        db.commit()
        db.close()

    def test_the_best_counts_only_verified_unflagged_attempts(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.db")
            self.workspace(path)
            ws = scripted_run.workspace_summary(path)
        (p,) = ws["problems"]
        self.assertEqual((p["seed_ms"], p["best_ms"], p["best_attempt"], p["best_kernel"]), (2.0, 0.5, 2, "fast_k"))
        self.assertEqual(p["speedup_over_seed"], 4.0)
        self.assertTrue(p["best_precision_change"])
        self.assertEqual((p["proposed"], p["verified"], p["flagged"]), (4, 1, 1))
        self.assertEqual(p["statuses"], {"build_failed": 1, "measured": 3})
        self.assertEqual(ws["calls_by_role"]["implement"]["calls"], 2)
        self.assertEqual(ws["calls_by_role"]["implement"]["failed"], 1)
        self.assertEqual(ws["calls_by_role"]["implement"]["prompt_tokens"], 905)

    def test_the_markdown_states_the_turns_were_scripted_and_the_results(self):
        problem = {"id": "L1", "baseline_ms": 2.7, "seed_ms": 2.0, "best_ms": 0.5, "best_attempt": 2,
                   "best_proposer": "model:scripted", "best_kernel": "fast_k", "best_precision_change": True,
                   "speedup_over_seed": 4.0, "proposed": 4, "verified": 1, "statuses": {"measured": 4},
                   "flagged": 1, "tokens_on_attempts": 120}
        server = {"requests": 3, "answered": 3, "unmatched": 0, "errors": [], "rules_used": {"a": 3},
                  "rules_unused": ["b"], "prompt_tokens": 1005, "completion_tokens": 100}
        roles = {"implement": {"calls": 2, "ok": 1, "failed": 1, "prompt_tokens": 905, "completion_tokens": 90}}
        runs = [{"run": "orchestrated", "script": "s.json", "command": "ucutlass optimize", "exit_code": 0,
                 "wall_s": 61.0, "model_server": server, "workspace": {"calls_by_role": roles, "problems": [problem]}},
                {"run": "cudamaster", "script": "c.json", "command": "ucutlass mskb optimize", "exit_code": 0,
                 "wall_s": 90.0, "model_server": server, "workspace": {"calls_by_role": roles, "problems": []},
                 "pairs": [{"pair": "gelu", "improved": True, "best_score_P": 12.345, "naive_ms": 0.05,
                            "best_path": "x", "error": "", "needs_gpu": "",
                            "rounds": [{"round": 1, "outcome": "faster", "score": 12.345, "debug_tries": 1},
                                       {"round": 2, "outcome": "not_faster", "score": 11.0, "debug_tries": 0}]}]}]
        meta = {"gpu": "NVIDIA H100 80GB HBM3", "ucutlass": "ucutlass 0.1.0", "started": "now",
                "token_counting": scripted_run.TOKEN_COUNTING, "prebuild": {"kernels": 14, "cached": 2,
                                                                             "failed": [], "wall_s": 70.0}}
        md = scripted_run.markdown(meta, runs)
        self.assertIn("SCRIPTED", md)
        self.assertIn("not a tokenizer", md)
        self.assertIn("| orchestrated | 0 | 61.0 s | 3 (0) | 2 | 905 + 90 | 4 / 1 | L1 4.00x |", md)
        self.assertIn("| L1 | 2 ms | 0.5 ms | 4.00x | #2 fast_k (model:scripted, precision_change) |", md)
        self.assertIn("`gelu`: naive 0.05 ms, best P = 12.35 over the naive launcher (improved); round 1: faster "
                      "P 12.35 after 1 debug try; round 2: not_faster P 11.00", md)
        self.assertIn("Rules not used: b.", md)
        self.assertIn("14 kernels, 2 already cached", md)


if __name__ == "__main__":
    unittest.main()
