"""Loading and validating problem files (suite.py, ops.py), without torch: the fixtures in testdata/, every file of
suites/kernelbench, the op table against docs/suites.md, and the errors a broken file gets."""
import os
import re
import tempfile
import textwrap
import unittest

import ops
import suite

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(HERE, "testdata")

GOOD = """
title = "t"
family = "gemm"
[[input]]
name = "x"
shape = [4, 16]
[[input]]
name = "y"
shape = [4, 8]
"""


def load_text(text):
    """Loads a problem written to a temporary file; returns the Problem (the file is gone afterwards)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "L9_001_case.toml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return suite.load_problem(path)


class Fixtures(unittest.TestCase):
    def test_gemm_chain(self):
        p = suite.load_problem(os.path.join(TESTDATA, "gemm_chain.toml"))
        self.assertEqual((p.stem, p.family, p.precision, p.tolerance), ("gemm_chain", "gemm", "f32", 1e-4))
        self.assertEqual(p.weak_check, ["algebraic"])
        self.assertEqual(p.kernelbench["file"], "12_Gemm_Multiply_LeakyReLU.py")
        self.assertEqual([(x.name, x.shape, x.init) for x in p.inputs], [("x", [4, 16], "rand"), ("y", [4, 8], "randn")])
        self.assertEqual([op.name for op in p.ops], ["linear", "mul", "leaky_relu", "add", "add", "mul"])
        self.assertEqual(p.ops[0].save, "h")
        self.assertEqual(p.ops[0].args, {"out_features": 8, "bias": True})
        self.assertEqual(p.ops[1].args, {"scalar": 2.0, "other": None, "param": None})
        self.assertEqual(p.ops[3].args["param"], [8])
        self.assertEqual(p.ops[5].args["other"], "h")
        self.assertEqual(p.output_shape, [4, 8])

    def test_conv_chain_defaults_and_spatial_keys(self):
        p = suite.load_problem(os.path.join(TESTDATA, "conv_chain.toml"))
        self.assertEqual((p.precision, p.tolerance, p.note), ("bf16", 0.05, "fixture"))
        conv, bn, _, pool, gn, convt = p.ops[:6]
        self.assertEqual(conv.args, {"out_channels": 8, "kernel": [3, 3], "stride": [2, 2], "padding": [1, 1],
                                     "dilation": [1, 1], "groups": 1, "bias": True})
        self.assertEqual(bn.args, {"eps": 1e-5, "momentum": 0.1})
        self.assertEqual(pool.args["stride"], [2, 2])  # a pool's stride defaults to its kernel
        self.assertEqual(gn.shape_in, [2, 8, 8, 8])
        self.assertEqual(convt.args["output_padding"], [1, 1])
        self.assertEqual(convt.shape_out, [2, 4, 16, 16])
        self.assertEqual(p.output_shape, [2, 5])

    def test_matmul_chain(self):
        p = suite.load_problem(os.path.join(TESTDATA, "matmul_chain.toml"))
        self.assertEqual(p.tolerance, 1e-2)  # the f16 default
        self.assertEqual([x.init for x in p.inputs], ["rand_triu", "rand_symmetric"])
        self.assertTrue(p.ops[0].args["transpose_other"])
        self.assertEqual(p.ops[3].args, {"min": -1.0, "max": None})
        self.assertEqual(p.output_shape, [2, 8, 1])

    def test_find_problems_sorts_by_name_and_rejects_duplicates(self):
        files = suite.find_problems([TESTDATA])
        self.assertEqual([os.path.basename(f) for f in files], ["conv_chain.toml", "gemm_chain.toml",
                                                                "matmul_chain.toml"])
        with tempfile.TemporaryDirectory() as d:
            for sub in ("a", "b"):
                os.makedirs(os.path.join(d, sub))
                open(os.path.join(d, sub, "same.toml"), "w").close()
            with self.assertRaisesRegex(suite.ProblemError, "two problem files are named same.toml"):
                suite.find_problems([d])
        with self.assertRaisesRegex(suite.ProblemError, "no such file or folder"):
            suite.find_problems([os.path.join(TESTDATA, "absent")])


class SuiteFiles(unittest.TestCase):
    def test_every_suite_file_loads(self):
        folder = os.path.join(ROOT, "suites", "kernelbench")
        if not os.path.isdir(folder):
            self.skipTest("no suites/kernelbench yet")
        for path in suite.find_problems([folder]):
            with self.subTest(path=os.path.relpath(path, ROOT)):
                p = suite.load_problem(path)
                self.assertIsNotNone(p.kernelbench, "every KernelBench-derived problem names its source")
                level = os.path.basename(os.path.dirname(path))
                self.assertRegex(p.stem, rf"^L{p.kernelbench['level']}_{p.kernelbench['id']:03d}_")
                self.assertEqual(level, f"level{p.kernelbench['level']}")


class DocsTable(unittest.TestCase):
    """ops.OPS has exactly the ops and keys of docs/suites.md's op table."""

    def test_ops_and_keys_match_the_docs(self):
        docs = os.path.join(ROOT, "docs", "suites.md")
        if not os.path.exists(docs):
            self.skipTest("no docs/suites.md")
        with open(docs) as f:
            text = f.read()
        table = text[text.index("| op | keys (defaults) | PyTorch meaning |"):].split("\n\n")[0].splitlines()[2:]
        documented = {}
        for row in table:
            names, keys = row.split("|")[1:3]
            found = set(re.findall(r"`([a-z_]+)`", keys))
            if keys.strip().startswith("as `conv`"):
                found = (found - {"conv"}) | documented["conv"]
            for name in re.findall(r"`([a-z_]+)`", names):
                documented[name] = found
        self.assertEqual(sorted(documented), sorted(ops.OPS))
        for name, keys in documented.items():
            self.assertEqual(keys, set(ops.OPS[name]), name)


class Errors(unittest.TestCase):
    """A broken file gets a ProblemError naming the file and, for an op, its number (from 1) and name."""

    def assertError(self, text, pattern):
        with self.assertRaises(suite.ProblemError) as cm:
            load_text(text)
        self.assertIn("L9_001_case.toml", str(cm.exception))
        self.assertRegex(str(cm.exception), pattern)

    def test_unknown_op(self):
        self.assertError(GOOD + '[[op]]\nop = "relu"\n[[op]]\nop = "swizzle"\n', r"op 2 \(swizzle\): unknown op")

    def test_unknown_key(self):
        self.assertError(GOOD + '[[op]]\nop = "linear"\nout_features = 4\nin_features = 16\n',
                         r"op 1 \(linear\): unknown key `in_features`")

    def test_missing_required_key(self):
        self.assertError(GOOD + '[[op]]\nop = "conv"\nkernel = [3]\n', r"op 1 \(conv\): missing key `out_channels`")

    def test_wrong_type(self):
        self.assertError(GOOD + '[[op]]\nop = "linear"\nout_features = 4\nbias = "no"\n',
                         r"op 1 \(linear\): `bias` must be true or false")
        self.assertError(GOOD + '[[op]]\nop = "linear"\nout_features = true\n', r"`out_features` must be an integer")
        self.assertError(GOOD + '[[op]]\nop = "linear"\nout_features = 0\n', r"`out_features` must be >= 1")
        self.assertError(GOOD + '[[op]]\nop = "conv"\nout_channels = 4\nkernel = 3\n', r"`kernel` must be a")
        self.assertError(GOOD + '[[op]]\nop = "gelu"\napproximate = "fast"\n', r"`approximate` must be one of none")

    def test_operand_rules(self):
        self.assertError(GOOD + '[[op]]\nop = "add"\n', r"op 1 \(add\): takes exactly one of `scalar`")
        self.assertError(GOOD + '[[op]]\nop = "add"\nscalar = 1.0\nother = "y"\n', "got 2")
        self.assertError(GOOD + '[[op]]\nop = "clamp"\n', r"op 1 \(clamp\): needs at least one of `min`, `max`")
        self.assertError(GOOD + '[[op]]\nop = "mul"\nother = "z"\n',
                         r"op 1 \(mul\): `other = \"z\"` names no input or earlier `save`")
        # a name saved later is not yet known
        self.assertError(GOOD + '[[op]]\nop = "add"\nother = "s"\n[[op]]\nop = "relu"\nsave = "s"\n', "names no input")

    def test_spatial_rank(self):
        self.assertError(GOOD.replace("[4, 16]", "[1, 2, 8, 8]") +
                         '[[op]]\nop = "conv"\nout_channels = 4\nkernel = [3, 3]\nstride = [1, 1, 1]\n',
                         r"op 1 \(conv\): `stride` has 3 entries but the kernel has 2 spatial dims")

    def test_shape_errors_name_the_op(self):
        self.assertError(GOOD + '[[op]]\nop = "relu"\n[[op]]\nop = "matmul"\nother = "y"\n',
                         r"op 2 \(matmul\): on a value of shape \[4, 16\]: matmul of \[4, 16\] and \[4, 8\]")
        self.assertError(GOOD + '[[op]]\nop = "add"\nother = "y"\n', r"op 1 \(add\):.*do not broadcast")
        self.assertError(GOOD + '[[op]]\nop = "conv"\nout_channels = 4\nkernel = [3, 3]\n', r"op 1 \(conv\):.*needs a 4-d")

    def test_top_level(self):
        self.assertError(GOOD.replace('family = "gemm"', 'family = "fft"'), "`family` must be one of")
        self.assertError(GOOD.replace('family = "gemm"', 'family = "gemm"\nprecision = "f64"'), "`precision`")
        self.assertError(GOOD.replace('title = "t"', 'title = "t"\nauthor = "me"'), "unknown top-level key `author`")
        self.assertError(GOOD.replace('title = "t"', 'title = "t"\nweak_check = ["flaky"]'), "`weak_check`")
        self.assertError(GOOD.replace('title = "t"\n', ''), "missing key `title`")
        self.assertError(GOOD, r"needs at least one \[\[op\]\]")
        self.assertError('title = "t"\nfamily = "gemm"\n[[op]]\nop = "relu"\n', r"needs at least one \[\[input\]\]")
        self.assertError(GOOD + "[[op]\n", "not valid TOML")

    def test_inputs(self):
        self.assertError(GOOD.replace('shape = [4, 8]', 'shape = [4, 8]\ninit = "ones"'), r"input 2: `init`")
        self.assertError(GOOD.replace('shape = [4, 8]', 'shape = [4, 8]\ninit = "rand_symmetric"'),
                         r"input 2: .*square matrix")
        self.assertError(GOOD.replace('name = "y"', 'name = "x"'), "a second input named `x`")
        self.assertError(GOOD.replace('shape = [4, 8]', 'shape = [4, 8]\ndtype = "f16"'), "unknown key `dtype`")

    def test_kernelbench_table(self):
        self.assertError(GOOD.replace('family = "gemm"', 'family = "gemm"\n[kernelbench]\nlevel = 1\nid = 2\n'),
                         r"\[kernelbench\]: missing key `file`")
        self.assertError(GOOD.replace('family = "gemm"', 'family = "gemm"\n[kernelbench]\nlevel = 1\nid = 2\n'
                                      'file = "a.py"\nurl = "x"\n'), r"\[kernelbench\]: unknown key `url`")

    def test_save_may_be_used_by_later_ops(self):
        p = load_text(GOOD + '[[op]]\nop = "linear"\nout_features = 8\nsave = "s"\n[[op]]\nop = "add"\nother = "s"\n')
        self.assertEqual(p.output_shape, [4, 8])


if __name__ == "__main__":
    unittest.main()
