"""Loading problem files through `ucutlass suite check --json` (suite.py), without torch: the fixtures in testdata/,
every file of suites/kernelbench, and what a file with diagnostics, a missing path or a missing binary gives.
Validation itself is the tool's (its golden tests cover every rule); here only that its answer arrives whole."""
import json
import os
import tempfile
import unittest

import suite
from testutil import ROOT, TESTDATA, UCUTLASS, fixture, load, needs_ucutlass

GOOD = """title = "t"
family = "gemm"
[[input]]
name = "x"
shape = [4, 16]
[[op]]
op = "relu"
"""


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


@needs_ucutlass
class Fixtures(unittest.TestCase):
    def test_gemm_chain(self):
        p = fixture("gemm_chain.toml")
        self.assertEqual((p.stem, p.family, p.precision, p.tolerance), ("gemm_chain", "gemm", "f32", 1e-4))
        self.assertEqual(p.path, os.path.normpath(os.path.join(TESTDATA, "gemm_chain.toml")))
        self.assertEqual(p.weak_check, ["algebraic"])
        self.assertEqual(p.kernelbench, {"level": 2, "id": 12, "file": "12_Gemm_Multiply_LeakyReLU.py",
                                         "gflop": 1e-6, "min_bytes": 1088.0, "eager_ms_h200_audit": 0.01})
        self.assertEqual(list(p.kernelbench), ["level", "id", "file", "gflop", "min_bytes", "eager_ms_h200_audit"])
        self.assertEqual([(x.name, x.shape, x.init) for x in p.inputs], [("x", [4, 16], "rand"), ("y", [4, 8], "randn")])
        self.assertEqual([op.name for op in p.ops], ["linear", "mul", "leaky_relu", "add", "add", "mul"])
        self.assertEqual([op.save for op in p.ops], ["h", None, None, None, None, None])
        self.assertEqual(p.ops[0].attrs, {"out_features": 8})  # the keys the file gives, no defaults
        self.assertEqual(p.ops[1].attrs, {"scalar": 2})  # an integral number comes as an int
        self.assertEqual(p.ops[3].attrs, {"param": [8]})
        self.assertEqual(p.ops[5].attrs, {"other": "h"})
        self.assertEqual((p.ops[0].shape_in, p.ops[0].shape_out), ([4, 16], [4, 8]))
        self.assertEqual(p.output_shape, [4, 8])
        self.assertEqual((p.flops, p.min_bytes), (1024.0, 1088.0))
        self.assertEqual(sorted(p.sol_seconds), ["fp16", "fp32", "tf32"])

    def test_conv_chain_keys_as_given(self):
        p = fixture("conv_chain.toml")
        self.assertEqual((p.precision, p.tolerance, p.note), ("bf16", 0.05, "fixture"))
        conv, bn, _, pool, gn, convt = p.ops[:6]
        self.assertEqual(conv.attrs, {"out_channels": 8, "kernel": [3, 3], "stride": 2, "padding": [1, 1]})
        self.assertEqual(bn.attrs, {})
        self.assertEqual(pool.shape_out, [2, 8, 8, 8])  # a pool's stride defaults to its kernel
        self.assertEqual(gn.shape_in, [2, 8, 8, 8])
        self.assertEqual(convt.attrs["output_padding"], 1)
        self.assertEqual(convt.shape_out, [2, 4, 16, 16])
        self.assertEqual(p.output_shape, [2, 5])

    def test_matmul_chain(self):
        p = fixture("matmul_chain.toml")
        self.assertEqual(p.tolerance, 1e-2)  # the f16 default
        self.assertEqual([x.init for x in p.inputs], ["rand_triu", "rand_symmetric"])
        self.assertEqual(p.ops[0].attrs, {"other": "B", "transpose_other": True})
        self.assertEqual(p.ops[3].attrs, {"min": -1})
        self.assertEqual(p.output_shape, [2, 8, 1])

    def test_one_run_sorts_by_file_name(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "z/a.toml", GOOD)
            write(d, "a/b.toml", GOOD)
            c = write(d, "c.toml", GOOD)
            self.assertEqual([p.stem for p in load(d)], ["a", "b", "c"])
            self.assertEqual([p.stem for p in load(c, os.path.join(d, "z"))], ["a", "c"])

    def test_two_files_with_one_name_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            for sub in ("a", "b"):
                write(d, f"{sub}/same.toml", GOOD)
            with self.assertRaisesRegex(suite.ProblemError, "two problem files are named same"):
                load(d)


@needs_ucutlass
class Errors(unittest.TestCase):
    """A file with diagnostics stops the load with the tool's text: rule id, file, line and column."""

    def test_diagnostics_come_as_the_tool_prints_them(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "L9_001_good.toml", GOOD)
            bad = write(d, "L9_002_bad.toml", GOOD + '[[op]]\nop = "swizzle"\n')
            unknown_key = write(d, "L9_003_key.toml", GOOD.replace('op = "relu"', 'op = "linear"\nout_features = 4\n'
                                                                                    'in_features = 16'))
            with self.assertRaises(suite.ProblemError) as cm:
                load(d)
        text = str(cm.exception)
        self.assertIn(f"{UCUTLASS} suite check --json {d}` failed (exit code 1)", text)
        self.assertIn(f"{bad}:9:6: error[S005]: unknown op `swizzle`", text)
        self.assertIn("help: known: `matmul`", text)
        self.assertRegex(text, rf"{unknown_key}:\d+:\d+: error\[S002\]")
        self.assertNotIn("L9_001_good", text)
        self.assertIn("2 problem file(s) have errors", text)

    def test_missing_path(self):
        with self.assertRaisesRegex(suite.ProblemError, "no such file or folder: .*absent"):
            load(os.path.join(TESTDATA, "gemm_chain.toml"), os.path.join(TESTDATA, "absent"))
        with self.assertRaisesRegex(suite.ProblemError, r"exit code 3\).*\n.*no such file or folder"):
            load(os.path.join(TESTDATA, "absent"))


class WithoutTheTool(unittest.TestCase):
    def test_a_missing_binary_says_how_to_name_one(self):
        with self.assertRaisesRegex(suite.ProblemError, "cannot run /nonexistent/ucutlass: .*--ucutlass PATH"):
            suite.load_problems([TESTDATA], "/nonexistent/ucutlass")

    def test_problem_from_json(self):
        d = {"problem": "L1_001_x", "path": "suites//kernelbench/level1/L1_001_x.toml", "title": "t", "family": "gemm",
             "precision": "f16", "tolerance": 0.01, "weak_check": [], "note": "",
             "kernelbench": {"min_bytes": 8.0, "level": 1, "file": "1_X.py", "id": 1},
             "inputs": [{"name": "x", "shape": [2, 4], "init": "randn"}],
             "ops": [{"op": "linear", "attrs": {"out_features": 3}, "save": "h", "shape_in": [2, 4],
                      "shape_out": [2, 3]},
                     {"op": "relu", "attrs": {}, "shape_in": [2, 3], "shape_out": [2, 3]}],
             "output_shape": [2, 3], "flops": 48.0, "min_bytes": 90.0, "sol_seconds": {"fp32": 1e-9}}
        p = suite.problem_from_json(json.loads(json.dumps(d)))
        self.assertEqual((p.stem, p.path), ("L1_001_x", "suites/kernelbench/level1/L1_001_x.toml"))
        self.assertEqual(list(p.kernelbench), ["level", "id", "file", "min_bytes"])
        self.assertEqual((p.ops[0].index, p.ops[0].save, p.ops[0].attrs), (0, "h", {"out_features": 3}))
        self.assertEqual((p.ops[1].where(), p.ops[1].save), ("op 2 (relu)", None))
        self.assertEqual((p.inputs[0].init, p.output_shape), ("randn", [2, 3]))


@needs_ucutlass
class SuiteFiles(unittest.TestCase):
    def test_every_suite_file_loads_and_is_named_after_its_source(self):
        folder = os.path.join(ROOT, "suites", "kernelbench")
        if not os.path.isdir(folder):
            self.skipTest("no suites/kernelbench yet")
        problems = load(folder)
        self.assertGreaterEqual(len(problems), 59)
        for p in problems:
            with self.subTest(path=os.path.relpath(p.path, ROOT)):
                self.assertIsNotNone(p.kernelbench, "every KernelBench-derived problem names its source")
                self.assertRegex(p.stem, rf"^L{p.kernelbench['level']}_{p.kernelbench['id']:03d}_")
                self.assertEqual(os.path.basename(os.path.dirname(p.path)), f"level{p.kernelbench['level']}")


if __name__ == "__main__":
    unittest.main()
