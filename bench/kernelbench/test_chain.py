"""The torch half of suite.py (chain.py, make_inputs) on the CPU; skipped where torch is not installed, and the
tests that load problem files where the ucutlass binary is absent. Checks that chain.py maps every op of
src/suite/ops.def, that the module's parameters are created in chain order with KernelBench's initialization, that
each op computes what docs/suites.md says, and that every suite file's module agrees with `ucutlass suite check`
(on the meta device): each step's output shape, and its parameters and buffers, counted in the minimum bytes."""
import math
import os
import re
import tempfile
import unittest

import suite
from testutil import ROOT, fixture, load, needs_ucutlass, problem

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    import chain
except ImportError:
    torch = None


def ops_def_names():
    """The op names of src/suite/ops.def, the C++ tool's op table."""
    with open(os.path.join(ROOT, "src", "suite", "ops.def")) as f:
        return re.findall(r"^SUITE_OP\((\w+),", f.read(), re.MULTILINE)


@unittest.skipIf(torch is None, "torch is not installed")
class Mapping(unittest.TestCase):
    def test_every_op_of_the_tool_has_a_torch_mapping(self):
        names = ops_def_names()
        self.assertGreater(len(names), 40)
        self.assertEqual(sorted(set(names) - set(chain.OPS)), [], "ops of src/suite/ops.def that chain.py lacks")
        self.assertEqual(sorted(set(chain.OPS) - set(names)), [], "chain.py maps ops the tool does not know")

    def test_a_key_the_mapping_does_not_use_is_an_error(self):
        p = problem("x")
        p.ops[0] = suite.Op(0, "max_pool", {"kernel": [2], "ceil_mode": True}, None, [2, 2], [2, 1])
        with self.assertRaisesRegex(ValueError, r"op 1 \(max_pool\): chain.py maps no torch argument for `ceil_mode`"):
            suite.build_module(p)
        p.ops[0] = suite.Op(0, "swizzle", {}, None, [2, 2], [2, 2])
        with self.assertRaisesRegex(ValueError, r"op 1 \(swizzle\): chain.py maps no such op"):
            suite.build_module(p)

    def test_make_inputs(self):
        p = problem("x")
        p.precision = "f16"
        p.inputs = [suite.Input("a", [2, 8, 8], "rand_triu"), suite.Input("b", [8, 8], "rand_symmetric"),
                    suite.Input("c", [8, 8], "rand_tril"), suite.Input("d", [64], "rand"),
                    suite.Input("e", [64], "randn")]
        a, b, c, d, e = suite.make_inputs(p, seed=7, device="cpu")
        self.assertEqual({t.dtype for t in (a, b, c, d, e)}, {torch.float16})
        self.assertTrue(torch.equal(a, torch.triu(a)))
        self.assertFalse(torch.equal(a, torch.tril(a)))
        self.assertTrue(torch.equal(c, torch.tril(c)))
        self.assertTrue(torch.equal(b, b.mT))
        self.assertTrue(bool((a >= 0).all()) and bool((a < 1).all()) and bool((d >= 0).all()))
        self.assertTrue(bool((e < 0).any()))
        again = suite.make_inputs(p, seed=7, device="cpu")
        self.assertTrue(all(torch.equal(x, y) for x, y in zip((a, b, c, d, e), again)))
        self.assertEqual(suite.make_inputs(p, seed=7, device="cpu", dtype=torch.float32)[0].dtype, torch.float32)
        p.inputs[0].init = "ones"
        with self.assertRaisesRegex(suite.ProblemError, "no `init = \"ones\"`"):
            suite.make_inputs(p, device="cpu")


@needs_ucutlass
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

    def test_every_op_against_torch(self):
        x = torch.randn(2, 4, 6, 6)
        cases = [  # (op, keys, the expected value, or a function of none that makes it after torch.manual_seed(0))
            ("relu", {}, F.relu(x)), ("sigmoid", {}, torch.sigmoid(x)), ("tanh", {}, torch.tanh(x)),
            ("silu", {}, x * torch.sigmoid(x)), ("mish", {}, F.mish(x)), ("hardswish", {}, F.hardswish(x)),
            ("hardsigmoid", {}, F.hardsigmoid(x)), ("selu", {}, F.selu(x)), ("exp", {}, torch.exp(x)),
            ("triu", {}, torch.triu(x)), ("tril", {}, torch.tril(x)),
            ("gelu", {"approximate": "tanh"}, F.gelu(x, approximate="tanh")), ("gelu", {}, F.gelu(x)),
            ("leaky_relu", {"negative_slope": 0.2}, F.leaky_relu(x, 0.2)), ("leaky_relu", {}, F.leaky_relu(x, 0.01)),
            ("hardtanh", {"min_val": -0.5, "max_val": 0.5}, F.hardtanh(x, -0.5, 0.5)),
            ("hardtanh", {}, F.hardtanh(x, -1.0, 1.0)),
            ("softplus", {"beta": 2, "threshold": 10}, F.softplus(x, 2, 10)), ("softplus", {}, F.softplus(x, 1, 20)),
            ("elu", {"alpha": 0.5}, F.elu(x, 0.5)), ("elu", {}, F.elu(x, 1.0)),
            ("add", {"scalar": 1.5}, x + 1.5), ("add", {"other": "x"}, x + x),
            ("sub", {"scalar": 0.5}, x - 0.5), ("div", {"scalar": 2}, x / 2), ("mul", {"scalar": 3}, x * 3),
            ("mul", {"param": [4, 1, 1]}, lambda: x * torch.randn(4, 1, 1)),
            ("minimum", {"scalar": 0.1}, torch.clamp(x, max=0.1)), ("maximum", {"scalar": 0.1}, torch.clamp(x, min=0.1)),
            ("clamp", {"max": 0.3}, torch.clamp(x, max=0.3)), ("clamp", {"min": -1, "max": 1}, torch.clamp(x, -1, 1)),
            ("sum", {"dim": [1, 2]}, x.sum((1, 2))), ("mean", {"dim": [1], "keepdim": True}, x.mean(1, keepdim=True)),
            ("amax", {"dim": [1]}, torch.max(x, 1)[0]), ("amin", {"dim": -1}, torch.min(x, -1)[0]),
            ("logsumexp", {"dim": [1]}, torch.logsumexp(x, 1)),
            ("softmax", {"dim": 1}, F.softmax(x, 1)), ("log_softmax", {"dim": -1}, F.log_softmax(x, -1)),
            ("instance_norm", {}, F.instance_norm(x, eps=1e-5)),
            ("batch_norm", {}, F.batch_norm(x, None, None, training=True, eps=1e-5)),
            ("group_norm", {"num_groups": 2}, F.group_norm(x, 2, eps=1e-5)),
            ("layer_norm", {"normalized_shape": [6, 6]}, F.layer_norm(x, [6, 6])),
            ("avg_pool", {"kernel": [3, 3], "stride": [2, 2], "padding": 1}, F.avg_pool2d(x, 3, 2, 1)),
            ("max_pool", {"kernel": [2, 2]}, F.max_pool2d(x, 2)),
            ("adaptive_avg_pool", {"output_size": [1, 1]}, x.mean((2, 3), keepdim=True)),
            ("flatten", {"start_dim": 2}, x.flatten(2)), ("flatten", {}, x.flatten(1)),  # ours: start_dim 1
            ("reshape", {"shape": [2, -1, 3]}, x.reshape(2, -1, 3)),
            ("linear", {"out_features": 3}, lambda: nn.Linear(6, 3)(x)),
            ("linear", {"out_features": 3, "bias": False}, lambda: nn.Linear(6, 3, bias=False)(x)),
            ("matmul", {"param": [6, 5]}, lambda: torch.matmul(x, torch.randn(6, 5))),
            ("matmul", {"other": "x"}, torch.matmul(x, x)),  # transposes: matmul_chain.toml
            ("conv", {"out_channels": 2, "kernel": [3, 3], "padding": 1, "groups": 2},
             lambda: nn.Conv2d(4, 2, 3, padding=1, groups=2)(x)),
            ("conv", {"out_channels": 3, "kernel": [3, 1], "stride": [1, 2], "dilation": 2, "bias": False},
             lambda: nn.Conv2d(4, 3, (3, 1), stride=(1, 2), dilation=2, bias=False)(x)),
            ("conv_transpose", {"out_channels": 2, "kernel": [2, 2], "stride": 2, "output_padding": [1, 0]},
             lambda: nn.ConvTranspose2d(4, 2, 2, stride=2, output_padding=(1, 0))(x)),
        ]
        self.assertEqual(sorted(set(ops_def_names()) - {c[0] for c in cases}), [], "ops without a case here")
        for name, keys, want in cases:
            with self.subTest(op=name, keys=keys):
                body = "".join(f"{k} = {v!r}\n".replace("'", '"').replace("True", "true").replace("False", "false")
                               for k, v in keys.items())
                p = problem_with(f'[[op]]\nop = "{name}"\n{body}')
                torch.manual_seed(0)
                got = suite.build_module(p)(x)
                if callable(want):
                    torch.manual_seed(0)
                    want = want()
                self.assertEqual(list(got.shape), p.output_shape)
                self.assertTrue(torch.allclose(got, want, atol=1e-5), name)

    def test_every_suite_file_agrees_with_the_tool(self):
        """On the meta device: each step's output has the shape the tool inferred, each `param` operand the shape
        the file gives, and inputs, parameters, buffers and output hold the tool's minimum bytes (so every module's
        weights have the sizes the tool counted)."""
        folder = os.path.join(ROOT, "suites", "kernelbench")
        if not os.path.isdir(folder):
            self.skipTest("no suites/kernelbench yet")
        for p in load(folder):
            with self.subTest(problem=p.stem), torch.device("meta"):
                module = suite.build_module(p)
                shapes = []
                for s in module.steps:
                    s.register_forward_hook(lambda m, args, out: shapes.append(list(out.shape)))
                out = module(*[torch.empty(x.shape) for x in p.inputs])
                self.assertEqual(shapes, [op.shape_out for op in p.ops])
                self.assertEqual(list(out.shape), p.output_shape)
                for s, op in zip(module.steps, p.ops):
                    if "param" in op.attrs:
                        self.assertEqual(list(s.param.shape), op.attrs["param"], op.where())
                elements = (sum(t.numel() for t in module.parameters()) + sum(t.numel() for t in module.buffers())
                            + sum(math.prod(x.shape) for x in p.inputs) + out.numel())
                self.assertEqual(elements * suite.torch_dtype(p.precision).itemsize, p.min_bytes)


def problem_with(ops):
    """A problem on one input x [2, 4, 6, 6] with the given [[op]] tables, checked by the tool."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.toml")
        with open(path, "w") as f:
            f.write(f'title = "t"\nfamily = "conv"\n[[input]]\nname = "x"\nshape = [2, 4, 6, 6]\n{ops}')
        (p,) = load(path)
        return p


if __name__ == "__main__":
    unittest.main()
