"""The torch half of suite.py (chain.py, make_inputs) on the CPU; skipped where torch is not installed. Checks that
the module's parameters are created in chain order with KernelBench's initialization, that each op computes what
docs/suites.md says, and that every suite file's module gives the shape shapes.py infers (on the meta device)."""
import os
import unittest

import suite

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
TESTDATA = os.path.join(HERE, "testdata")


def fixture(name):
    return suite.load_problem(os.path.join(TESTDATA, name))


@unittest.skipIf(torch is None, "torch is not installed")
class Chain(unittest.TestCase):
    def test_gemm_chain_matches_a_hand_written_module(self):
        p = fixture("gemm_chain.toml")
        torch.manual_seed(42)
        module = suite.build_module(p)
        torch.manual_seed(42)
        linear, row = nn.Linear(16, 8), nn.Parameter(torch.randn(8))  # the order KernelBench would create them in
        self.assertEqual([tuple(q.shape) for q in module.parameters()], [(8, 16), (8,), (8,)])
        for got, want in zip(module.parameters(), [linear.weight, linear.bias, row]):
            self.assertTrue(torch.equal(got, want))
        x, y = suite.make_inputs(p, seed=1, device="cpu")
        h = linear(x)
        want = (F.leaky_relu(h * 2.0, 0.1) + row + y) * h
        self.assertTrue(torch.equal(module(x, y), want))
        self.assertTrue(module.training)

    def test_conv_chain(self):
        p = fixture("conv_chain.toml")
        torch.manual_seed(42)
        module = suite.build_module(p)
        steps = list(module.steps)
        self.assertIsInstance(steps[0], nn.Conv2d)
        self.assertEqual((steps[0].in_channels, steps[0].stride, steps[0].padding), (3, (2, 2), (1, 1)))
        self.assertIsInstance(steps[1], nn.BatchNorm2d)
        self.assertIsInstance(steps[3], nn.MaxPool2d)
        self.assertEqual((steps[4].num_groups, steps[4].num_channels), (4, 8))
        self.assertIsInstance(steps[5], nn.ConvTranspose2d)
        self.assertEqual((steps[5].in_channels, steps[5].groups, steps[5].output_padding, steps[5].bias),
                         (8, 2, (1, 1), None))
        self.assertEqual(steps[8].in_features, 4)
        (x,) = suite.make_inputs(p, seed=3, device="cpu")
        self.assertEqual(x.dtype, torch.bfloat16)
        module = module.to(torch.bfloat16)
        out = module(x)
        self.assertEqual(list(out.shape), p.output_shape)
        self.assertTrue(torch.allclose(out.float().sum(-1), torch.ones(2), atol=1e-2))  # softmax rows

    def test_matmul_chain(self):
        p = fixture("matmul_chain.toml")
        torch.manual_seed(42)
        module = suite.build_module(p)
        torch.manual_seed(42)
        w = torch.randn(8, 6)
        a, b = suite.make_inputs(p, seed=5, device="cpu", dtype=torch.float32)
        want = torch.clamp(torch.logsumexp(torch.matmul(torch.matmul(a, b.mT), w), dim=-1, keepdim=True), min=-1.0)
        self.assertTrue(torch.allclose(module(a, b), want))

    def test_make_inputs(self):
        p = fixture("matmul_chain.toml")
        a, b = suite.make_inputs(p, seed=7, device="cpu")
        self.assertEqual((a.dtype, b.dtype), (torch.float16, torch.float16))
        self.assertTrue(torch.equal(a, torch.triu(a)))
        self.assertFalse(torch.equal(a, torch.tril(a)))
        self.assertTrue(torch.equal(b, b.mT))
        self.assertTrue(bool((a >= 0).all()) and bool((a < 1).all()))
        again = suite.make_inputs(p, seed=7, device="cpu")
        self.assertTrue(torch.equal(a, again[0]) and torch.equal(b, again[1]))
        x, y = suite.make_inputs(fixture("gemm_chain.toml"), seed=7, device="cpu")
        self.assertTrue(bool((x >= 0).all()) and bool((y < 0).any()))  # rand, randn

    def test_every_op_against_torch(self):
        x = torch.randn(2, 4, 6, 6)
        cases = [
            ("relu", {}, F.relu(x)), ("sigmoid", {}, torch.sigmoid(x)), ("tanh", {}, torch.tanh(x)),
            ("silu", {}, x * torch.sigmoid(x)), ("mish", {}, F.mish(x)), ("hardswish", {}, F.hardswish(x)),
            ("hardsigmoid", {}, F.hardsigmoid(x)), ("selu", {}, F.selu(x)), ("exp", {}, torch.exp(x)),
            ("triu", {}, torch.triu(x)), ("tril", {}, torch.tril(x)),
            ("gelu", {"approximate": "tanh"}, F.gelu(x, approximate="tanh")),
            ("leaky_relu", {"negative_slope": 0.2}, F.leaky_relu(x, 0.2)),
            ("hardtanh", {"min_val": -0.5, "max_val": 0.5}, F.hardtanh(x, -0.5, 0.5)),
            ("softplus", {"beta": 2, "threshold": 10}, F.softplus(x, 2, 10)), ("elu", {"alpha": 0.5}, F.elu(x, 0.5)),
            ("sub", {"scalar": 0.5}, x - 0.5), ("div", {"scalar": 2}, x / 2),
            ("minimum", {"scalar": 0.1}, torch.clamp(x, max=0.1)), ("maximum", {"scalar": 0.1}, torch.clamp(x, min=0.1)),
            ("clamp", {"max": 0.3}, torch.clamp(x, max=0.3)),
            ("sum", {"dim": [1, 2]}, x.sum((1, 2))), ("mean", {"dim": [1], "keepdim": True}, x.mean(1, keepdim=True)),
            ("amax", {"dim": [1]}, torch.max(x, 1)[0]), ("amin", {"dim": [-1]}, torch.min(x, -1)[0]),
            ("logsumexp", {"dim": [1]}, torch.logsumexp(x, 1)),
            ("softmax", {"dim": 1}, F.softmax(x, 1)), ("log_softmax", {"dim": -1}, F.log_softmax(x, -1)),
            ("instance_norm", {}, F.instance_norm(x, eps=1e-5)),
            ("batch_norm", {}, F.batch_norm(x, None, None, training=True, eps=1e-5)),
            ("group_norm", {"num_groups": 2}, F.group_norm(x, 2, eps=1e-5)),
            ("layer_norm", {"normalized_shape": [6, 6]}, F.layer_norm(x, [6, 6])),
            ("avg_pool", {"kernel": [3, 3], "stride": [2, 2], "padding": 1}, F.avg_pool2d(x, 3, 2, 1)),
            ("max_pool", {"kernel": [2, 2]}, F.max_pool2d(x, 2)),
            ("adaptive_avg_pool", {"output_size": [1, 1]}, x.mean((2, 3), keepdim=True)),
            ("flatten", {"start_dim": 2}, x.flatten(2)), ("reshape", {"shape": [2, -1, 3]}, x.reshape(2, -1, 3)),
        ]
        for name, keys, want in cases:
            with self.subTest(op=name):
                body = "".join(f"{k} = {v!r}\n".replace("'", '"').replace("True", "true") for k, v in keys.items())
                p = problem_with(f'[[op]]\nop = "{name}"\n{body}')
                got = suite.build_module(p)(x)
                self.assertEqual(list(got.shape), p.output_shape)
                self.assertTrue(torch.allclose(got, want, atol=1e-6), name)

    def test_every_suite_file_builds_the_inferred_shape(self):
        folder = os.path.join(ROOT, "suites", "kernelbench")
        if not os.path.isdir(folder):
            self.skipTest("no suites/kernelbench yet")
        for path in suite.find_problems([folder]):
            p = suite.load_problem(path)
            with self.subTest(problem=p.stem), torch.device("meta"):
                module = suite.build_module(p)
                out = module(*[torch.empty(x.shape) for x in p.inputs])
                self.assertEqual(list(out.shape), p.output_shape)


def problem_with(ops):
    """A problem on one input x [2, 4, 6, 6] with the given [[op]] tables."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(f'title = "t"\nfamily = "conv"\n[[input]]\nname = "x"\nshape = [2, 4, 6, 6]\n{ops}')
    try:
        return suite.load_problem(f.name)
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
