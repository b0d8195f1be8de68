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

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "testdata")

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

    def test_select_filters_and_records_files_that_do_not_load(self):
        folder = os.path.join(self.out, "suite")
        shutil.copytree(TESTDATA, folder)
        with open(os.path.join(folder, "broken.toml"), "w") as f:
            f.write('title = "t"\nfamily = "gemm"\n')
        chosen = results.select([folder], "", self.out)
        self.assertEqual([results.stem_of(p) for p, _ in chosen],
                         ["broken", "conv_chain", "gemm_chain", "matmul_chain"])
        self.assertIsNone(chosen[0][1])
        entry = results.read_entry(self.out, "broken")
        self.assertEqual(entry["stage"], "load")
        self.assertIn("broken.toml: needs at least one [[input]]", entry["error"])
        self.assertEqual([results.stem_of(p) for p, _ in results.select([folder], "gemm,matmul", self.out)],
                         ["gemm_chain", "matmul_chain"])

    def test_skip_done_reruns_missing_out_of_memory_and_unloadable_problems(self):
        chosen = results.select([TESTDATA], "", self.out)
        results.write_entry(self.out, "conv_chain", {"problem": "conv_chain", "eager": stats(1.0)})
        results.write_entry(self.out, "gemm_chain", {"problem": "gemm_chain", "error": "OutOfMemoryError", "oom": True})
        results.write_entry(self.out, "matmul_chain", {"problem": "matmul_chain", "error": "x", "stage": "load"})
        self.assertEqual([p.stem for _, p in results.todo(chosen, self.out, True)], ["gemm_chain", "matmul_chain"])
        results.write_entry(self.out, "matmul_chain", {"problem": "matmul_chain", "error": "x", "stage": "compile"})
        self.assertEqual([p.stem for _, p in results.todo(chosen, self.out, True)], ["gemm_chain"])
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

    def test_describe(self):
        (_, p), = results.select([os.path.join(TESTDATA, "gemm_chain.toml")], "", self.out)
        d = results.describe(p)
        self.assertEqual((d["problem"], d["family"], d["tolerance"], d["output_shape"]),
                         ("gemm_chain", "gemm", 1e-4, [4, 8]))
        self.assertEqual(d["input_shapes"], [[4, 16], [4, 8]])


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

    def test_report_only_needs_no_torch(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        results.write_json(os.path.join(out, "environment.json"), META)
        results.write_entry(out, "gemm_chain", {"problem": "gemm_chain", "family": "gemm", "eager": stats(0.01)})
        r = subprocess.run([sys.executable, os.path.join(HERE, "baseline.py"), TESTDATA, "--out", out, "--report-only"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "baseline.json")) as f:
            report = json.load(f)
        self.assertEqual([e["problem"] for e in report["problems"]], ["gemm_chain"])
        self.assertEqual(report["missing"], ["conv_chain", "matmul_chain"])
        self.assertEqual(report["meta"]["environment"]["gpu"], "NVIDIA H200")
        with open(os.path.join(out, "baseline.md")) as f:
            self.assertIn("| gemm_chain | gemm | 0.010 |", f.read())


if __name__ == "__main__":
    unittest.main()
