"""Per-problem result files and the baseline report (results.py, baseline.py's report half), without torch."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import baseline
import results
import suite
from testutil import HERE, TESTDATA, UCUTLASS, fixture, needs_ucutlass, problem

META = {"environment": {"gpu": "NVIDIA H200", "driver": "580.1", "torch": "2.11.0", "cuda": "13.0", "cudnn": 91900,
                        "cuda_matmul_allow_tf32": False, "cudnn_allow_tf32": True,
                        "float32_matmul_precision": "highest"},
        "command": "baseline.py suites/kernelbench --jobs 8", "started": "2026-12-01T00:00:00Z", "trials": 100,
        "warmup": 3}


def stats(mean):
    return {"mean": mean, "median": mean, "std": 0.0, "min": mean, "max": mean, "trials": 100}


class Results(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.out)

    @needs_ucutlass
    def test_select_filters_and_stops_at_files_with_diagnostics(self):
        folder = os.path.join(self.out, "suite")
        shutil.copytree(TESTDATA, folder)
        self.assertEqual([p.stem for p in results.select([folder], "", UCUTLASS)],
                         ["conv_chain", "gemm_chain", "matmul_chain"])
        self.assertEqual([p.stem for p in results.select([folder], "gemm,matmul", UCUTLASS)],
                         ["gemm_chain", "matmul_chain"])
        with open(os.path.join(folder, "broken.toml"), "w") as f:
            f.write('title = "t"\nfamily = "gemm"\n')
        with self.assertRaisesRegex(suite.ProblemError, r"broken.toml:\d+:\d+: error\[S003\]"):
            results.select([folder], "gemm", UCUTLASS)

    def test_skip_done_reruns_missing_out_of_memory_and_unloadable_problems(self):
        chosen = [problem(stem) for stem in ("conv_chain", "gemm_chain", "matmul_chain")]
        results.write_entry(self.out, "conv_chain", {"problem": "conv_chain", "eager": stats(1.0)})
        results.write_entry(self.out, "gemm_chain", {"problem": "gemm_chain", "error": "OutOfMemoryError", "oom": True})
        results.write_entry(self.out, "matmul_chain", {"problem": "matmul_chain", "error": "x", "stage": "load"})
        self.assertEqual([p.stem for p in results.todo(chosen, self.out, True)], ["gemm_chain", "matmul_chain"])
        results.write_entry(self.out, "matmul_chain", {"problem": "matmul_chain", "error": "x", "stage": "compile"})
        self.assertEqual([p.stem for p in results.todo(chosen, self.out, True)], ["gemm_chain"])
        os.remove(results.entry_path(self.out, "matmul_chain"))
        self.assertEqual(len(results.todo(chosen, self.out, False)), 3)
        entries, missing = results.collect(self.out, chosen)
        self.assertEqual([e["problem"] for e in entries], ["conv_chain", "gemm_chain"])
        self.assertEqual(missing, ["matmul_chain"])

    def test_entries_are_strict_json(self):
        results.write_entry(self.out, "x", {"max_abs_diff": results.number(float("nan"))})
        with open(results.entry_path(self.out, "x")) as f:
            self.assertEqual(json.loads(f.read(), parse_constant=self.fail), {"max_abs_diff": "nan"})
        self.assertFalse(os.path.exists(results.entry_path(self.out, "x") + ".tmp"))

    @needs_ucutlass
    def test_describe(self):
        d = results.describe(fixture("gemm_chain.toml"))
        self.assertEqual(json.dumps(d), json.dumps({
            "problem": "gemm_chain", "path": os.path.join(TESTDATA, "gemm_chain.toml"),
            "title": "Linear, times 2, LeakyReLU(0.1), plus a learned row, plus y, times the saved GEMM output",
            "family": "gemm", "precision": "f32", "tolerance": 1e-4, "weak_check": ["algebraic"],
            "kernelbench": {"level": 2, "id": 12, "file": "12_Gemm_Multiply_LeakyReLU.py", "gflop": 1e-6,
                            "min_bytes": 1088.0, "eager_ms_h200_audit": 0.01},
            "input_shapes": [[4, 16], [4, 8]], "output_shape": [4, 8]}))


class Report(unittest.TestCase):
    def test_markdown(self):
        entries = [
            {"problem": "L1_001_a", "family": "gemm", "eager": stats(2.72), "compile": stats(1.36),
             "kernelbench": {"eager_ms_h200_audit": 2.7214}, "weak_check": [], "outputs_agree": True},
            {"problem": "L1_004_b", "family": "gemm", "eager": stats(2.4), "compile": stats(2.5),
             "weak_check": ["input_independent_1e-2"], "outputs_agree": False, "max_abs_diff": 0.5},
            {"problem": "L2_009_c", "family": "conv", "eager": stats(1.0), "stage": "compile",
             "error": "BackendCompilerFailed: a | b\nsecond line"},
        ]
        md = baseline.markdown(META, entries, ["L3_001_d"], "2026-12-01T01:00:00Z")
        self.assertIn("GPU NVIDIA H200, driver 580.1; torch 2.11.0, CUDA 13.0, cuDNN 91900.", md)
        self.assertIn("torch.backends.cuda.matmul.allow_tf32 = False, torch.backends.cudnn.allow_tf32 = True", md)
        self.assertIn("Command: `baseline.py suites/kernelbench --jobs 8`", md)
        self.assertIn("3 problems, 1 with errors; not measured yet: L3_001_d.", md)
        self.assertIn("| L1_001_a | gemm | 2.720 | 1.360 | 2.00 | 2.7214 |  |  |", md)
        self.assertIn("| L1_004_b | gemm | 2.400 | 2.500 | 0.96 |  | input_independent_1e-2 | compiled output "
                      "differs (max abs diff 0.5) |", md)
        self.assertIn("| L2_009_c | conv | 1.000 |  |  |  |  | error at compile: BackendCompilerFailed: a \\| b |", md)

    @needs_ucutlass
    def test_report_only_needs_no_torch(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        results.write_json(os.path.join(out, "environment.json"), META)
        results.write_entry(out, "gemm_chain", {"problem": "gemm_chain", "family": "gemm", "eager": stats(0.01)})
        r = subprocess.run([sys.executable, os.path.join(HERE, "baseline.py"), TESTDATA, "--out", out, "--report-only",
                            "--ucutlass", UCUTLASS], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "baseline.json")) as f:
            report = json.load(f)
        self.assertEqual([e["problem"] for e in report["problems"]], ["gemm_chain"])
        self.assertEqual(report["missing"], ["conv_chain", "matmul_chain"])
        self.assertEqual(report["meta"]["environment"]["gpu"], "NVIDIA H200")
        with open(os.path.join(out, "baseline.md")) as f:
            self.assertIn("| gemm_chain | gemm | 0.010 |", f.read())

    @needs_ucutlass
    def test_a_file_with_diagnostics_stops_the_run_with_the_tools_messages(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        folder, out = os.path.join(tmp, "suite"), os.path.join(tmp, "out")
        shutil.copytree(TESTDATA, folder)
        with open(os.path.join(folder, "gemm_chain.toml"), "a") as f:
            f.write('[[op]]\nop = "swizzle"\n')
        r = subprocess.run([sys.executable, os.path.join(HERE, "baseline.py"), folder, "--out", out, "--report-only",
                            "--ucutlass", UCUTLASS], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"gemm_chain.toml:\d+:6: error\[S005\]: unknown op `swizzle`")
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
