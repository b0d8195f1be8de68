"""What the tests share: the ucutlass binary they load problem files with (suite.default_ucutlass(): $UCUTLASS, else
ucutlass on PATH, else build/ucutlass), a skip for tests that need it, and hand-made problems for those that
don't."""
import os
import shutil
import unittest

import suite

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(HERE, "testdata")
UCUTLASS = suite.default_ucutlass()

needs_ucutlass = unittest.skipUnless(
    shutil.which(UCUTLASS), f"needs the ucutlass binary, and {UCUTLASS} is not an executable: set UCUTLASS=PATH "
                            f"(or build build/ucutlass)")


def load(*paths):
    return suite.load_problems(list(paths), UCUTLASS)


def fixture(name):
    (p,) = load(os.path.join(TESTDATA, name))
    return p


def problem(stem, path=None):
    """A hand-made problem: one input x [2, 2], relu."""
    return suite.Problem(path=path or f"suite/{stem}.toml", stem=stem, title="t", family="gemm", precision="f32",
                         tolerance=1e-4, weak_check=[], note="", kernelbench=None,
                         inputs=[suite.Input("x", [2, 2], "rand")],
                         ops=[suite.Op(0, "relu", {}, None, [2, 2], [2, 2])], output_shape=[2, 2], flops=0.0,
                         min_bytes=32.0, sol_seconds={})
