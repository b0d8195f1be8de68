"""bench/family_torch without a GPU: every family spec of examples/mskb/ (map, reduce, rownorm, scan), in both
precisions, has a task in tasks.py (the GPU check runs them all), whose FP64 reference and eager expression agree on
small CPU tensors; and, with torch's headers, CUDA's and a C++
compiler, the binding `ucutlass export --torch` writes for four specs that cover its cases (a slice's caller
tensor, a renamed scalar, broadcast inputs with required scalars, a column-major output) compiles (syntax only:
linking needs PyTorch's build, which the GPU run does; each compile of torch's headers takes ~20 s)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples", "mskb")
UCUTLASS = os.environ.get("UCUTLASS", os.path.join(ROOT, "build", "ucutlass"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from torch_headers import cuda_include, syntax_check_command  # noqa: E402

FAMILY_OP = re.compile(r"^\s*(map|reduce|rownorm|scan)\(", re.M)

try:
    import torch  # noqa: F401
except ImportError:
    torch = None


def family_specs():
    """The stems of examples/mskb/ specs whose operator is a family's."""
    out = []
    for f in sorted(os.listdir(EXAMPLES)):
        if f.endswith(".ucut"):
            with open(os.path.join(EXAMPLES, f)) as spec:
                if FAMILY_OP.search(spec.read()):
                    out.append(f[:-5])
    return out


@unittest.skipIf(torch is None, "needs torch (tasks.py builds its tensors with it)")
class EveryFamilySpecHasATask(unittest.TestCase):
    def test_tasks_cover_the_examples(self):
        sys.path.insert(0, HERE)
        import tasks
        stems = family_specs()
        self.assertGreater(len(stems), 40)
        for stem in stems:
            task = stem[:-5] if stem.endswith("_bf16") else stem
            self.assertIn(task, tasks.TASKS, f"examples/mskb/{stem}.ucut has no task in bench/family_torch/tasks.py")
        for task in tasks.TASKS:
            for stem in (task, task + "_bf16"):
                self.assertIn(stem, stems, f"tasks.py's {task} has no examples/mskb/{stem}.ucut")


@unittest.skipIf(torch is None, "needs torch")
class TasksAgree(unittest.TestCase):
    """On small CPU tensors, each task's FP64 reference and its eager expression agree (the two tables describe one
    computation), in both precisions, and the outputs have the shapes the specs store."""

    def test_reference_and_eager_agree(self):
        sys.path.insert(0, HERE)
        import tasks
        saved = tasks.DEVICE, tasks.MAP_N, tasks.ROWS, tasks.COLS, tasks.NORM_N
        tasks.DEVICE, tasks.MAP_N, tasks.ROWS, tasks.COLS, tasks.NORM_N = "cpu", 1000, 64, 32, 128
        try:
            for name, (make, reference, eager) in tasks.TASKS.items():
                for dtype in (torch.float32, torch.bfloat16):
                    with self.subTest(name, dtype=dtype):
                        gen = torch.Generator()
                        gen.manual_seed(7)
                        tensors, scalars = make(dtype, gen)
                        want, got = reference(tensors, scalars), eager(tensors, scalars)
                        self.assertEqual(list(got.shape), list(want.shape))
                        self.assertLessEqual(tasks.rel_error(got, want), tasks.tolerance(dtype))
        finally:
            tasks.DEVICE, tasks.MAP_N, tasks.ROWS, tasks.COLS, tasks.NORM_N = saved


@unittest.skipIf(torch is None or shutil.which("c++") is None or cuda_include() is None
                 or not os.access(UCUTLASS, os.X_OK), "needs torch, a C++ compiler, CUDA's headers and ucutlass")
class BindingCompiles(unittest.TestCase):
    def test_one_binding_of_each_kind(self):
        flags = syntax_check_command()
        with tempfile.TemporaryDirectory() as work:
            for stem in ("silu_and_mul_bf16", "selu", "batch_norm", "matrix_transpose_bf16"):
                with self.subTest(stem):
                    folder = os.path.join(work, stem)
                    r = subprocess.run([UCUTLASS, "export", "--torch", os.path.join(EXAMPLES, stem + ".ucut"), "-o",
                                        folder], capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    binding = os.path.join(folder, f"ucut_{stem}_binding.cpp")
                    r = subprocess.run(flags + [binding], capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, r.stderr[-3000:])


if __name__ == "__main__":
    unittest.main()
