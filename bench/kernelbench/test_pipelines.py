"""Tests of bench/kernelbench/pipelines.py: the case layout `prepare` writes with the real `ucutlass suite lower
--seeds` (when UCUTLASS names a built binary; the seed itself is tested in tests/unit/engine), and `report` on a
run's smoke.json."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipelines  # noqa: E402


@unittest.skipUnless(os.environ.get("UCUTLASS"), "needs UCUTLASS, a built ucutlass")
class Prepare(unittest.TestCase):
    def test_every_pipeline_problem_becomes_a_case_whose_problem_names_its_semantics(self):
        with tempfile.TemporaryDirectory() as out:
            pipelines.prepare(type("A", (), {"ucutlass": os.environ["UCUTLASS"], "out": out, "only": ""})())
            cases = os.path.join(out, "cases")
            self.assertGreaterEqual(len(os.listdir(cases)), 30)
            case = os.path.join(cases, "L2_099_matmul_gelu_softmax")
            self.assertIn('semantics = "semantics/L2_099_matmul_gelu_softmax.ucut"',
                          open(os.path.join(case, "problem.toml")).read())
            self.assertIn("math = tf32x3", open(os.path.join(case, "L2_099_matmul_gelu_softmax.ucut")).read())
            self.assertEqual(sorted(os.listdir(os.path.join(out, "impl"))),
                             sorted(c + ".ucut" for c in os.listdir(cases)))
            padded = os.path.join(cases, "L2_050_convtranspose3d_scaling_avgpool_biasadd_scaling")
            self.assertIn("align(1) pad", open(os.path.join(padded, os.path.basename(padded) + ".ucut")).read())


class Report(unittest.TestCase):
    def test_verified_and_stopped_cases_are_both_reported(self):
        with tempfile.TemporaryDirectory() as d:
            meta = {"date": "2026-12-07", "command": "c", "gpu": "H100", "driver": "580", "cuda_runtime": "13.0"}
            ok = {"example": "a", "pass": True, "report": {"shapes": [{"counts": True, "flags": [], "result": {
                "shape": {"label": "L2/1"}, "verify": {"max_rel_err": 1e-6, "rel_l2": 1e-7, "checked": 4},
                "candidate": {"event_ms": {"median": 1.5}},
                "cublas_kernel": "not run: no separate-calls baseline", "cublas": {}}}]}}
            bad = {"example": "b", "pass": False, "report": {"stopped_at": "verify", "message": "max rel err 0.3"}}
            for name, x in (("L2_001", ok), ("L2_002", bad)):
                os.makedirs(os.path.join(d, "runs", name))
                json.dump({"meta": meta, "results": [x]}, open(os.path.join(d, "runs", name, "smoke.json"), "w"))
            pipelines.report(type("A", (), {"runs": os.path.join(d, "runs"), "out": os.path.join(d, "out")})())
            rows = json.load(open(os.path.join(d, "out", "kb_pipelines.json")))["rows"]
            self.assertEqual([r["verified"] for r in rows], [True, False])
            self.assertEqual(rows[0]["ours_ms"], 1.5)
            self.assertEqual(rows[1]["stopped_at"], "verify")
            md = open(os.path.join(d, "out", "kb_pipelines.md")).read()
            self.assertIn("1 of 2 problems verified", md)
            self.assertIn("GPU H100", md)


if __name__ == "__main__":
    unittest.main()
