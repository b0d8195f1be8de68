"""The ModelNew sources `ucutlass export --kernelbench` writes for bench/kernelbench/impl (needs the ucutlass binary):
they parse, embed the kernel exactly as `ucutlass emit --stage cpp` prints it, and bind module-level names that start
with `_ucut` only (KernelBench runs the reference and ModelNew in one namespace). With torch (CPU is enough), each is
executed with load_inline replaced by a stand-in extension: ModelNew() creates the parameters chain.py's module
creates after the same seed (and so KernelBench's Model's), and forward hands the kernel its operands in the layouts
the spec declares (row-major, column-major views, channels-last), vectors as 1-D tensors, and returns the problem's
output shape (on the meta device: no memory, no arithmetic). Without CUTLASS_DIR the source stops with a
RuntimeError that says to set it. With torch's headers, CUDA's and a C++ compiler, the embedded binding of a GEMM
and of a convolution compiles (syntax only: linking needs PyTorch's build, which the GPU run does).

The pipeline problems (pipelines.py prepare's cases, each with its generated spec): each exports a ModelNew that
py_compile accepts, or is refused with X004 only; with torch, each ModelNew run with a stand-in for its binding creates
chain.py's modules and parameters, hands the binding every tensor in the shape and layout the binding checks, and
returns Model's output shape; two pipelines' bindings compile."""
import argparse
import ast
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import kb_eval
import pipelines
import suite
from testutil import UCUTLASS, load, needs_ucutlass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from torch_headers import cuda_include, syntax_check_command  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

PAIRS = kb_eval.default_pairs(kb_eval.DEFAULT_IMPL, kb_eval.DEFAULT_SUITE)
OWN_NAMES = {"os", "torch", "nn", "load_inline", "ModelNew"}


def run_tool(*args):
    r = subprocess.run([UCUTLASS, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"ucutlass {' '.join(args)} failed:\n{r.stderr}")
    return r.stdout


def exported(problem, spec):
    return run_tool("export", "--kernelbench", problem, spec)


def assigned_literal(tree, name):
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"no module-level {name} = <literal>")


def stem(path):
    return os.path.basename(path)[:-5]


@needs_ucutlass
class Sources(unittest.TestCase):
    def test_every_impl_exports_and_parses(self):
        self.assertGreaterEqual(len(PAIRS), 10)
        for problem, spec in PAIRS:
            with self.subTest(stem(problem)):
                source = exported(problem, spec)
                tree = ast.parse(source)
                self.assertEqual(assigned_literal(tree, "_UCUT_CUDA_SOURCE"), run_tool("emit", "--stage", "cpp", spec))
                self.assertIn("PYBIND11_MODULE", assigned_literal(tree, "_UCUT_BINDING_SOURCE"))
                names = set()
                for node in tree.body:
                    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                        names.add(node.name)
                    elif isinstance(node, ast.Assign):
                        names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                    elif isinstance(node, (ast.Import, ast.ImportFrom)):
                        names.update((a.asname or a.name).split(".")[0] for a in node.names)
                self.assertEqual({n for n in names if not n.startswith("_ucut") and not n.startswith("_UCUT")},
                                 OWN_NAMES)

    def test_same_export_twice_is_the_same_file(self):
        problem, spec = PAIRS[0]
        self.assertEqual(exported(problem, spec), exported(problem, spec))


@needs_ucutlass
class PipelineSources(unittest.TestCase):
    """Every pipeline problem (pipelines.py prepare's cases, each with its generated spec) exports a ModelNew that
    py_compile accepts and that binds module-level names starting with `_ucut` only, or is refused with X004 only (a
    shape its first stage cannot run: a transposed convolution of 3 input channels)."""

    def test_every_pipeline_case_exports_and_compiles(self):
        with tempfile.TemporaryDirectory() as tmp:
            pairs = prepared_pipeline_pairs(tmp)
            self.assertGreaterEqual(len(pairs), 60)
            exported = 0
            for problem, spec in pairs:
                with self.subTest(stem(problem)):
                    source = os.path.join(tmp, stem(problem) + ".py")
                    ok, diagnostics = kb_eval.export(UCUTLASS, problem, spec, source)
                    if not ok:
                        self.assertEqual({d.get("rule") for d in diagnostics}, {"X004"}, diagnostics)
                        continue
                    py_compile.compile(source, cfile=source + "c", doraise=True)
                    tree = ast.parse(open(source).read())
                    names = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets}
                    names |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
                    self.assertEqual({n for n in names if not n.lower().startswith("_ucut")}, {"ModelNew"})
                    self.assertIn("ucut_pipeline_api", assigned_literal(tree, "_UCUT_BINDING_SOURCE"))
                    exported += 1
            self.assertGreaterEqual(exported, 55)


class StandInExtension:
    """What load_inline returns in these tests: the kernel function checks its operands as the binding would (layouts
    by the spec's canonical config) and returns an empty meta tensor of the kernel's output shape."""

    def __init__(self, config, test):
        self.config, self.test, self.calls = config, test, 0

    def __getattr__(self, name):
        if not name.startswith("ucut_"):
            raise AttributeError(name)
        return self.call

    def call(self, a, b, *vectors, **keywords):
        self.calls += 1
        t = self.test
        op = self.config["op"]
        for x, operand in ((a, "A"), (b, "B")):
            layout = self.config[operand]["layout"]
            packed = {"row": x.is_contiguous(), "col": x.mT.is_contiguous(),
                      "channels_last": x.movedim(1, -1).is_contiguous()}[layout]
            t.assertTrue(packed, f"operand {operand} is not {layout}: shape {list(x.shape)} strides {x.stride()}")
        for v in vectors:
            t.assertEqual((v.dim(), v.is_contiguous()), (1, True))
        if op in ("gemm", "batched_gemm"):
            t.assertEqual(a.shape[-1], b.shape[-2])
            shape = list(a.shape[:-1]) + [b.shape[-1]]
        else:  # the output shape as PyTorch's own convolution makes it
            rank = a.dim() - 2
            x, w = torch.empty(a.shape, device="meta"), torch.empty(b.shape, device="meta")
            geometry = {k: keywords[k] for k in ("stride", "padding", "dilation")}
            if op.startswith("conv_transpose"):
                conv = getattr(F, f"conv_transpose{rank}d")
                shape = conv(x, w, output_padding=keywords["output_padding"], **geometry).shape
            else:
                conv = getattr(F, f"conv{rank}d")
                shape = conv(x, w, groups=a.shape[1] // b.shape[1], **geometry).shape
        return torch.empty(shape, device="meta")


@needs_ucutlass
@unittest.skipIf(torch is None, "torch is not installed")
class ModelNew(unittest.TestCase):
    def setUp(self):
        self.cutlass = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.cutlass, "include", "cutlass"))
        open(os.path.join(self.cutlass, "include", "cutlass", "cutlass.h"), "w").close()

    def execute(self, source, extension, env):
        ns = {}
        with mock.patch("torch.utils.cpp_extension.load_inline", return_value=extension) as build, \
                mock.patch.dict(os.environ, env):
            exec(compile(source, "model_new.py", "exec"), ns)
        return ns, build

    def test_parameters_glue_and_output_shape(self):
        for problem_path, spec in PAIRS:
            with self.subTest(stem(problem_path)):
                (problem,) = load(problem_path)
                config = json.loads(run_tool("emit", "--stage", "json", spec))
                extension = StandInExtension(config, self)
                ns, build = self.execute(exported(problem_path, spec), extension, {"CUTLASS_DIR": self.cutlass})
                kwargs = build.call_args.kwargs
                self.assertEqual(kwargs["extra_include_paths"][0], os.path.join(self.cutlass, "include"))
                self.assertTrue(kwargs["no_implicit_headers"])
                torch.manual_seed(42)
                ours = ns["ModelNew"]()
                torch.manual_seed(42)
                reference = suite.build_module(problem)
                # parameters() lists a module's own parameters before its submodules': pair them by value (equal
                # values mean the same draws from the seeded generator, so the same creation order).
                got, want = list(ours.parameters()), list(reference.parameters())
                self.assertEqual(sorted(p.shape for p in got), sorted(p.shape for p in want))
                for w in want:
                    match = [i for i, g in enumerate(got) if g.shape == w.shape and torch.equal(g, w)]
                    self.assertTrue(match, f"no parameter of ModelNew equals the reference's {list(w.shape)}")
                    got.pop(match[0])
                inputs = [torch.empty(x.shape, device="meta") for x in problem.inputs]
                with torch.no_grad():
                    out = ours(*inputs)
                self.assertEqual(list(out.shape), problem.output_shape)
                self.assertEqual(extension.calls, 1)

    def test_without_cutlass_dir_it_says_what_to_set(self):
        problem, spec = PAIRS[0]
        env = {k: v for k, v in os.environ.items() if k != "CUTLASS_DIR"}
        with mock.patch.dict(os.environ, env, clear=True):
            with self.assertRaisesRegex(RuntimeError, "set CUTLASS_DIR"):
                self.execute(exported(problem, spec), None, {})


def prepared_pipeline_pairs(tmp):
    """(problem file, spec) of every pipeline problem: pipelines.py prepare's cases, written under `tmp`."""
    with mock.patch("sys.stdout"):
        pipelines.prepare(argparse.Namespace(ucutlass=UCUTLASS, out=tmp, only=""))
    return kb_eval.default_pairs(os.path.join(tmp, "cases"), kb_eval.DEFAULT_SUITE)


class StandInPipeline:
    """load_inline's stand-in for a pipeline's binding: the function checks each tensor it is handed against the
    binding's own check_operand lines (shape and layout, in order) and returns an empty meta tensor of the output the
    binding allocates (y_, in the last stage's stored order)."""

    def __init__(self, binding, test):
        import re
        self.test, self.calls = test, 0
        self.operands = [(name, [int(x) for x in sizes.split(",") if x.strip()], layout) for name, sizes, layout in
                         re.findall(r'check_operand\(fn_, "(\w+)", \w+, [^{]*\{([^}]*)\}, Layout::(\w+),', binding)]
        self.out = [int(x) for x in re.search(r"at::Tensor y_ = at::empty\(\{([^}]*)\}", binding).group(1).split(",")]

    def __getattr__(self, name):
        if not name.startswith("ucut_"):
            raise AttributeError(name)
        return self.call

    def call(self, *tensors):
        self.calls += 1
        t = self.test
        t.assertEqual(len(tensors), len(self.operands))
        for x, (name, sizes, layout) in zip(tensors, self.operands):
            t.assertEqual(list(x.shape), sizes, name)
            packed = {"row": x.is_contiguous, "col": lambda: x.mT.is_contiguous(),
                      "channels_last": lambda: x.movedim(1, -1).is_contiguous()}[layout]()
            t.assertTrue(packed, f"{name} is not {layout}: shape {list(x.shape)} strides {x.stride()}")
        return torch.empty(self.out, device="meta")


@needs_ucutlass
@unittest.skipIf(torch is None, "torch is not installed")
class PipelineModelNew(unittest.TestCase):
    """Each exported pipeline ModelNew, executed with load_inline's stand-in: its parameters are chain.py's (so
    KernelBench's) in creation order — equal values after the same seed where the problem's parameters are small
    enough to draw twice here, equal shapes in order otherwise (the same modules in the same order draw the same
    values) —, forward hands the binding every tensor in the shape and layout it checks, and returns Model's output
    shape (on the meta device: no memory, no arithmetic)."""

    def test_parameters_glue_and_output_shape(self):
        cutlass = tempfile.mkdtemp()
        os.makedirs(os.path.join(cutlass, "include", "cutlass"))
        open(os.path.join(cutlass, "include", "cutlass", "cutlass.h"), "w").close()
        with tempfile.TemporaryDirectory() as tmp:
            for problem_path, spec in prepared_pipeline_pairs(tmp):
                source = os.path.join(tmp, stem(problem_path) + ".py")
                ok, _ = kb_eval.export(UCUTLASS, problem_path, spec, source)
                if not ok:
                    continue  # X004: PipelineSources checks the refusals
                with self.subTest(stem(problem_path)):
                    (problem,) = load(problem_path)
                    text = open(source).read()
                    extension = StandInPipeline(assigned_literal(ast.parse(text), "_UCUT_BINDING_SOURCE"), self)
                    ns = {}
                    with mock.patch("torch.utils.cpp_extension.load_inline", return_value=extension), \
                            mock.patch.dict(os.environ, {"CUTLASS_DIR": cutlass}):
                        exec(compile(text, source, "exec"), ns)
                    # Creation order: modules (and parameters) registered in it, named by the op they stand for.
                    with torch.device("meta"):
                        ours, reference = ns["ModelNew"](), suite.build_module(problem)
                    # (ModelNew leaves out the stateless steps: functions, poolings; a `param` is its own.)
                    self.assertEqual([type(m).__name__ for m in ours.children()],
                                     [type(m).__name__ for m in reference.steps
                                      if type(m).__name__ not in ("Unary", "Binary") and "Pool" not in type(m).__name__])
                    self.assertEqual(sorted(p.shape for p in ours.parameters()),
                                     sorted(p.shape for p in reference.parameters()))
                    if sum(p.numel() for p in reference.parameters()) < 5e7:
                        torch.manual_seed(42)
                        ours = ns["ModelNew"]()
                        torch.manual_seed(42)
                        reference = suite.build_module(problem)
                        got = list(ours.parameters())
                        for w in reference.parameters():  # equal values: the same draws, so the same order
                            match = [i for i, g in enumerate(got) if g.shape == w.shape and torch.equal(g, w)]
                            self.assertTrue(match, f"no parameter of ModelNew equals the reference's {list(w.shape)}")
                            got.pop(match[0])
                    inputs = [torch.empty(x.shape, device="meta") for x in problem.inputs]
                    with torch.no_grad():
                        out = ours(*inputs)
                    self.assertEqual(list(out.shape), problem.output_shape)
                    self.assertEqual(extension.calls, 1)


@needs_ucutlass
@unittest.skipIf(torch is None or shutil.which("c++") is None or cuda_include() is None,
                 "needs torch, a C++ compiler and CUDA's headers")
class BindingCompiles(unittest.TestCase):
    def test_gemm_and_convolution_bindings(self):
        flags = syntax_check_command() + ["-x", "c++", "-"]
        for problem, spec in PAIRS:
            if not stem(problem).startswith(("L2_001", "L2_012")):
                continue
            with self.subTest(stem(problem)):
                binding = assigned_literal(ast.parse(exported(problem, spec)), "_UCUT_BINDING_SOURCE")
                r = subprocess.run(flags, input=binding, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr[-3000:])

    def test_pipeline_bindings(self):
        """A GEMM → family pipeline's binding and a convolution → family one's."""
        flags = syntax_check_command() + ["-x", "c++", "-"]
        with tempfile.TemporaryDirectory() as tmp:
            for problem, spec in prepared_pipeline_pairs(tmp):
                if not stem(problem).startswith(("L2_033", "L2_017")):
                    continue
                with self.subTest(stem(problem)):
                    binding = assigned_literal(ast.parse(exported(problem, spec)), "_UCUT_BINDING_SOURCE")
                    self.assertIn("run_pipeline(fn_, api_, args_,", binding)
                    r = subprocess.run(flags, input=binding, capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, r.stderr[-3000:])


if __name__ == "__main__":
    unittest.main()
