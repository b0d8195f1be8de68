"""kb_headline.py: fast_p and geomean over every suite problem on known numbers, both tolerances against eager and
torch.compile, the harness's report scored over the same denominator with its filtered rule, the precision mix in
the first sentence, and bad input named."""
import json
import math
import os
import shutil
import tempfile
import unittest

import kb_headline


def entry(problem, speedup, vs_compile=None, strict=True, precision="fp32", interleaved=None):
    return {"problem": problem, "correctness": True, "speedup": speedup, "speedup_vs_compile": vs_compile,
            "interleaved_speedup": interleaved, "operand_precision": precision,
            "verdicts": {"paper": {"correct": True}, "default": {"correct": strict}}}


PROBLEMS = [f"P{i:03d}" for i in range(10)]
KB_EVAL = {"suite_problems": PROBLEMS, "kernelbench_commit": "423217d", "command": "kb_eval.py --out x",
           "started": "2026-12-06T00:00:00Z", "environment": {"gpu": "NVIDIA H100", "driver": "580.1", "torch": "2.11"},
           "problems": [entry("P000", 3.0, 1.2, interleaved=2.9), entry("P001", 1.2, 0.8, strict=False, precision="bf16"),
                        entry("P002", 0.5, 0.4, precision="tf32"),
                        {"problem": "P003", "correctness": False, "operand_precision": "fp32"}]}


class Score(unittest.TestCase):
    def test_fast_p_over_every_problem(self):
        s = kb_headline.score({"a": 3.0, "b": 1.2, "c": 0.5}, set("abcdefghij"))
        self.assertEqual(s["problems"], 10)
        self.assertEqual(s["fast_p"], {"0": 0.3, "1": 0.2, "1.5": 0.1, "2": 0.1})
        self.assertAlmostEqual(s["geomean"], (3.0 * 1.2 * 0.5) ** (1 / 3))
        self.assertEqual(kb_headline.score({"a": 1.0}, {"a"})["fast_p"]["1"], 0)  # strictly faster
        with self.assertRaises(kb_headline.HeadlineError):
            kb_headline.score({}, set())

    def test_both_tolerances_both_baselines(self):
        h = kb_headline.build(KB_EVAL, {})
        paper, default = h["kernelbench"]["paper"], h["kernelbench"]["default"]
        self.assertEqual((paper["eager"]["problems"], paper["eager"]["correct"]), (10, 3))
        self.assertEqual(paper["eager"]["fast_p"]["1"], 0.2)
        self.assertEqual(default["eager"]["correct"], 2)  # P001 fails KernelBench's own check at 1e-4
        self.assertAlmostEqual(default["eager"]["geomean"], math.sqrt(3.0 * 0.5))
        self.assertEqual(paper["compile"]["fast_p"]["1"], 0.1)
        self.assertEqual(paper["interleaved_eager"]["fast_p"]["2"], 0.1)
        self.assertEqual(len(h["failed"]), 7)
        self.assertEqual(h["precision"]["lower_precision"], 2)
        md = kb_headline.render_markdown(h)
        self.assertIn("Over all 10 suite problems", md)
        self.assertIn("2 of the 4 problems with a kernel use bf16 or TF32 operands against FP32 eager", md)
        self.assertIn("| 1e-2 | eager | KernelBench eval | 30.0% | 20.0% | 10.0% | 10.0% | 1.22x |", md)
        self.assertIn("| 1e-4 | torch.compile | KernelBench eval | 20.0% | 10.0% |", md)
        self.assertIn("NVIDIA H100", md)
        self.assertIn("423217d", md)

    def test_compile_not_timed_says_so(self):
        kb = dict(KB_EVAL, problems=[entry("P000", 3.0)])
        md = kb_headline.render_markdown(kb_headline.build(kb, {}))
        self.assertIn("| 1e-2 | torch.compile | KernelBench eval | not timed |", md)

    def test_the_harness_filtered_over_the_same_denominator(self):
        rows = [{"problem": "P000", "correct": True, "flagged": False, "weak_check": [], "ours_ms": 1.0,
                 "eager_ms": 4.0, "compile_ms": None},
                {"problem": "P001", "correct": True, "flagged": True, "weak_check": [], "ours_ms": 1.0,
                 "eager_ms": 9.0, "compile_ms": None},
                {"problem": "P002", "correct": True, "flagged": False, "weak_check": ["near_constant"],
                 "ours_ms": 1.0, "eager_ms": 9.0, "compile_ms": None}]
        h = kb_headline.build(KB_EVAL, {"1e-2": {"rows": rows, "date": "d", "gpu": "g", "conditions": "c"}})
        s = h["harness"]["1e-2"]["eager"]
        # P001 and P002 fail fast_p and stay in the geomean capped at 1x: (4 · 1 · 1)^(1/3), not 4x over P000 alone
        self.assertEqual((s["problems"], s["correct"]), (10, 1))
        self.assertAlmostEqual(s["geomean"], 4.0 ** (1 / 3))
        self.assertIsNone(h["harness"]["1e-2"]["compile"])
        self.assertIn("| 1e-2 | eager | harness (filtered) | 10.0% |", kb_headline.render_markdown(h))


class SeparateCompilePass(unittest.TestCase):
    """An eval run with --no-compile gets torch.compile's times from a baseline.py pass on the same kind of GPU."""

    def eval_run(self, gpu="NVIDIA H100"):
        def timed(problem, ours, reference, **kw):
            return dict(entry(problem, reference / ours, **kw), stage="done", gpu=gpu, runtime_ms=ours,
                        ref_runtime_ms=reference)
        return dict(KB_EVAL, problems=[timed("P000", 1.0, 3.0), timed("P001", 2.0, 2.4, strict=False),
                                       {"problem": "P003", "correctness": False, "stage": "done", "gpu": gpu}])

    def baseline(self, gpu="NVIDIA H100"):
        return {"meta": {"environment": {"gpu": gpu}, "command": "baseline.py suites/kernelbench"}, "date": "d",
                "problems": [{"problem": "P000", "eager": {"mean": 3.3}, "compile": {"mean": 1.5},
                              "outputs_agree": True},
                             {"problem": "P001", "eager": {"mean": 2.4}, "compile": {"mean": 3.0},
                              "outputs_agree": False},
                             {"problem": "P003", "eager": {"mean": 1.0}, "compile": {"mean": 1.0}}]}

    def test_scores_ours_from_the_eval_over_compile_from_the_pass(self):
        h = kb_headline.build(self.eval_run(), {}, self.baseline())
        paper = h["kernelbench"]["paper"]["compile_separate"]
        self.assertEqual((paper["problems"], paper["correct"]), (10, 2))  # P003 failed: not scored, still counted
        self.assertAlmostEqual(paper["geomean"], math.sqrt(1.5 / 1.0 * 3.0 / 2.0))
        self.assertEqual(paper["fast_p"]["1"], 0.2)
        self.assertEqual(h["kernelbench"]["default"]["compile_separate"]["correct"], 1)  # P001 fails at 1e-4
        self.assertEqual(h["separate_compile"]["P000"]["eager_drift"], 1.1)
        self.assertEqual(h["compile_baseline"]["eager_drift"], {"median": 1.05, "min": 1.0, "max": 1.1})
        self.assertEqual(h["compile_baseline"]["compiled_output_differs"], ["P001"])
        md = kb_headline.render_markdown(h)
        self.assertIn("| 1e-2 | torch.compile | separate pass (baseline.py) | 20.0% | 20.0% |", md)
        # P000's pass ran eager 1.1x slower than the eval: its 1.5x over compile counts as 1.5 / 1.1.
        capped = h["kernelbench"]["paper"]["compile_separate_capped"]
        self.assertAlmostEqual(capped["geomean"], math.sqrt(round(1.5 / 1.1, 4) * 1.5), places=4)
        self.assertIn("| 1e-2 | torch.compile | separate pass, drift-capped | 20.0% | 20.0% |", md)
        self.assertIn("Its eager means are 1.00-1.10x (median 1.05x) the eval's reference means", md)
        self.assertIn("NVIDIA H100 (all 3 evaluated problems)", md)

    def test_refuses_a_pass_on_another_gpu(self):
        with self.assertRaisesRegex(kb_headline.HeadlineError, "ran on NVIDIA H200, the eval on NVIDIA H100"):
            kb_headline.build(self.eval_run(), {}, self.baseline(gpu="NVIDIA H200"))

    def test_entries_from_two_gpus_are_called_mixed(self):
        run = self.eval_run()
        run["problems"][1]["gpu"] = "NVIDIA H200"
        md = kb_headline.render_markdown(kb_headline.build(run, {}))
        self.assertIn("NVIDIA H100: 2 problems; NVIDIA H200: 1 problems (MIXED: not one GPU)", md)


class Cli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_writes_both_files_and_names_a_missing_input(self):
        path = os.path.join(self.tmp, "kb_eval.json")
        with open(path, "w") as f:
            json.dump(KB_EVAL, f)
        out = os.path.join(self.tmp, "h")
        self.assertEqual(kb_headline.main([path, "--out", out]), 0)
        self.assertTrue(os.path.isfile(os.path.join(out, "headline.md")))
        with open(os.path.join(out, "headline.json")) as f:
            self.assertEqual(json.load(f)["problems"], 10)
        self.assertEqual(kb_headline.main([os.path.join(self.tmp, "none.json"), "--out", out]), 2)


if __name__ == "__main__":
    unittest.main()
