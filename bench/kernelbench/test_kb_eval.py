"""kb_eval.py without a GPU: pairs, the KernelBench import (a stand-in checkout, stand-ins for missing modules),
the per-problem worker processes (a crash, a hang, an answer), the result entries and the report, and a whole run
against a stand-in KernelBench whose build_compile_cache and eval_kernel_against_ref answer without compiling
(that run needs the ucutlass binary, and torch for its eval stage)."""
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

import kb_eval
import kb_protocol
import results
from testutil import ROOT, UCUTLASS, needs_ucutlass

HAVE_TORCH = importlib.util.find_spec("torch") is not None

L1_001 = os.path.join(ROOT, "suites", "kernelbench", "level1", "L1_001_square_matmul.toml")
L1_002 = os.path.join(ROOT, "suites", "kernelbench", "level1", "L1_002_matmul.toml")
L1_017 = os.path.join(ROOT, "suites", "kernelbench", "level1", "L1_017_matmul_transposed_b.toml")
IMPL = os.path.join(ROOT, "bench", "kernelbench", "impl")

# A stand-in KernelBench checkout: its package imports what the real one imports for LLM clients, and its two
# functions answer without compiling (the compile stand-in still executes nothing but checks the source parses).
FAKE_INIT = "from . import utils\n"
FAKE_UTILS = "from dotenv import load_dotenv\nfrom openai import OpenAI\nfrom litellm import completion\n"
FAKE_EVAL = textwrap.dedent('''
    from pydantic import BaseModel

    def get_tolerance_for_precision(precision):
        return {"fp32": 1e-4, "torch.float32": 1e-4, "float32": 1e-4}.get(str(precision), 1e-2)

    class _Torch:  # the stand-in's torch: allclose on numbers, in KernelBench's form
        @staticmethod
        def allclose(output, output_new, atol, rtol):
            return abs(output - output_new) <= atol + rtol * abs(output_new)

    torch = _Torch()

    def run_and_check_correctness(differences, precision):
        # KernelBench's check: its own module-level function, looked up when called; every trial compared
        # (pass_count == trials), each through the module's torch.allclose.
        tolerance = get_tolerance_for_precision(precision)
        passes = [torch.allclose(d, 0.0, atol=tolerance, rtol=tolerance) for d in differences]
        return all(passes)

    class KernelExecResult(BaseModel):
        compiled: bool = False
        correctness: bool = False
        metadata: dict = {}
        runtime: float = -1.0
        runtime_stats: dict = {}
        ref_runtime: float = -1.0
        ref_runtime_stats: dict = {}

    def build_compile_cache(custom_model_src, verbose=False, build_dir=None):
        compile(custom_model_src, "<custom>", "exec")
        if "L1_002_matmul" in custom_model_src:
            return False, "nvcc: error", "compilation failed (stand-in)"
        return True, "built", None

    def eval_kernel_against_ref(original_model_src, custom_model_src, seed_num=42, num_correct_trials=1,
                                num_perf_trials=10, measure_performance=False, build_dir=None, device=None,
                                precision=None):
        assert "class Model" in original_model_src and "class ModelNew" in custom_model_src
        # every trial's outputs 1e-5 apart: within both tolerances, compared as KernelBench compares
        correct = run_and_check_correctness([1e-5] * num_correct_trials, "float32")
        return KernelExecResult(compiled=True, correctness=correct, metadata={"hardware": "stand-in", "error": ValueError("x")},
                                runtime=2.0, runtime_stats={"mean": 2.0}, ref_runtime=3.0,
                                ref_runtime_stats={"mean": 3.0})
''')


def fake_checkout(root):
    pkg = os.path.join(root, "src", "kernelbench")
    os.makedirs(pkg)
    for name, text in (("__init__.py", FAKE_INIT), ("utils.py", FAKE_UTILS), ("eval.py", FAKE_EVAL)):
        with open(os.path.join(pkg, name), "w") as f:
            f.write(text)
    level1 = os.path.join(root, "KernelBench", "level1")
    os.makedirs(level1)
    for name in ("1_Square_matrix_multiplication_.py", "2_Standard_matrix_multiplication_.py",
                 "17_Matmul_with_transposed_B.py"):
        with open(os.path.join(level1, name), "w") as f:
            f.write("class Model:\n    pass\n")
    with open(os.path.join(root, "COMMIT"), "w") as f:
        f.write("fake123\n")
    return root


class Isolated(unittest.TestCase):
    """A temporary folder; sys.modules and sys.path restored after each test (the stand-in package is imported)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        modules = mock.patch.dict(sys.modules)
        modules.start()
        self.addCleanup(modules.stop)
        path = list(sys.path)
        self.addCleanup(lambda: sys.path.__setitem__(slice(None), path))


class Pairs(Isolated):
    def test_every_impl_spec_finds_its_suite_problem(self):
        pairs = kb_eval.default_pairs(IMPL, kb_eval.DEFAULT_SUITE)
        self.assertEqual(len(pairs), len([f for f in os.listdir(IMPL) if f.endswith(".ucut")]))
        for problem, spec in pairs:
            self.assertEqual(os.path.basename(problem)[:-5], os.path.basename(spec)[:-5])
            self.assertTrue(os.path.isfile(problem))

    def test_a_spec_without_a_problem_is_an_error(self):
        with open(os.path.join(self.tmp, "L9_999_nothing.ucut"), "w") as f:
            f.write("")
        with self.assertRaisesRegex(kb_eval.KbEvalError, "no suite problem L9_999_nothing.toml"):
            kb_eval.default_pairs(self.tmp, kb_eval.DEFAULT_SUITE)

    def test_pair_and_only(self):
        self.assertEqual(kb_eval.parse_pair("a.toml=b.ucut"), ("a.toml", "b.ucut"))
        with self.assertRaises(kb_eval.KbEvalError):
            kb_eval.parse_pair("a.toml")
        pairs = [("s/L1_001_x.toml", "a"), ("s/L2_012_y.toml", "b")]
        self.assertEqual(kb_eval.select(pairs, "L2_"), pairs[1:])
        self.assertEqual(kb_eval.select(pairs, ""), pairs)
        self.assertEqual(kb_eval.select(pairs, "L1_,L2_"), pairs)

    def test_reference_source_is_the_kernelbench_file(self):
        root = fake_checkout(self.tmp)
        problem = mock.Mock(path="p.toml", kernelbench={"level": 1, "file": "1_Square_matrix_multiplication_.py"})
        self.assertTrue(kb_eval.reference_source(root, problem).endswith("level1/1_Square_matrix_multiplication_.py"))
        problem.kernelbench = {"level": 1, "file": "nope.py"}
        with self.assertRaisesRegex(kb_eval.KbEvalError, "not in the KernelBench checkout"):
            kb_eval.reference_source(root, problem)
        problem.kernelbench = None
        with self.assertRaisesRegex(kb_eval.KbEvalError, r"no \[kernelbench\]"):
            kb_eval.reference_source(root, problem)


class KernelBenchImport(Isolated):
    def test_stand_ins_only_for_missing_modules(self):
        installed = kb_eval.install_stand_ins(find=lambda name: None if name in ("openai", "pydantic") else object())
        self.assertEqual(sorted(installed), ["openai", "pydantic"])
        self.assertTrue(sys.modules["openai"].__ucut_stand_in__)
        with self.assertRaisesRegex(RuntimeError, "stand-in"):
            sys.modules["openai"].OpenAI()

    def test_base_model_stand_in_copies_defaults(self):
        class Result(kb_eval._BaseModel):
            compiled: bool = False
            metadata: dict = {}

        a, b = Result(compiled=True), Result()
        a.metadata["x"] = 1
        self.assertEqual(a.model_dump(), {"compiled": True, "metadata": {"x": 1}})
        self.assertEqual(b.model_dump(), {"compiled": False, "metadata": {}})

    def test_imports_eval_from_the_checkout(self):
        root = fake_checkout(self.tmp)
        for name in ("dotenv", "openai", "litellm", "pydantic", "kernelbench", "kernelbench.eval", "kernelbench.utils"):
            sys.modules.pop(name, None)
        with mock.patch.object(kb_eval.importlib.util, "find_spec", lambda name: None):
            module, stand_ins = kb_eval.import_kernelbench(root)
        self.assertTrue({"dotenv", "litellm", "openai", "pydantic"} <= set(stand_ins))
        self.assertTrue(hasattr(module, "eval_kernel_against_ref"))
        self.assertEqual(kb_eval.checkout_commit(root), "fake123")

    def test_a_folder_without_kernelbench_is_an_error(self):
        with self.assertRaisesRegex(kb_eval.KbEvalError, "no src/kernelbench/eval.py"):
            kb_eval.import_kernelbench(self.tmp)

    def test_call_supported_drops_unknown_keywords(self):
        def f(a, b=2):
            return a + b

        self.assertEqual(kb_eval.call_supported(f, a=1, b=3, timing_method="x"), (4, ["timing_method"]))
        self.assertEqual(kb_eval.call_supported(lambda **kw: kw, a=1), ({"a": 1}, []))


class TolerancePatch(Isolated):
    """The paper protocol replaces KernelBench's float32 tolerance in the imported module, and that changes the
    verdict of KernelBench's own check; outside the block the module is as it was."""

    def kb(self):
        root = fake_checkout(self.tmp)
        for name in ("kernelbench", "kernelbench.eval", "kernelbench.utils"):
            sys.modules.pop(name, None)
        module, _ = kb_eval.import_kernelbench(root)
        return module

    def test_the_patch_changes_the_verdict_for_float32_only(self):
        kb = self.kb()
        self.assertFalse(kb.run_and_check_correctness([1e-3], "float32"))
        with kb_protocol.float32_tolerance(kb, 1e-2) as default:
            self.assertEqual(default, 1e-4)
            self.assertTrue(kb.run_and_check_correctness([1e-3], "float32"))
            self.assertEqual(kb.get_tolerance_for_precision("bfloat16"), 1e-2)  # unchanged: not float32
            self.assertFalse(kb.run_and_check_correctness([2e-2], "float32"))
        self.assertFalse(kb.run_and_check_correctness([1e-3], "float32"))

    def test_one_eval_gives_the_paper_verdict_timed_and_the_default_from_its_comparisons(self):
        kb = self.kb()
        calls = []

        def evaluate(differences):
            def one(measure_performance):
                calls.append((measure_performance, kb.get_tolerance_for_precision("float32")))
                return {"correctness": kb.run_and_check_correctness(differences, "float32")}
            return one

        def verdicts(differences):
            calls.clear()
            v = kb_protocol.two_verdicts(kb, evaluate(differences), "float32")
            self.assertEqual(calls, [(True, 1e-2)])  # one eval, timed, at the paper's tolerance
            self.assertEqual((v["paper"]["float32_tolerance"], v["default"]["float32_tolerance"]), (1e-2, 1e-4))
            return v["paper"]["result"]["correctness"], v["default"]["result"]

        paper, default = verdicts([1e-5, 1e-3, 1e-5])  # one trial of three within 1e-2 but not 1e-4
        self.assertEqual((paper, default["correctness"], default["comparisons"]), (True, False, "(2 / 3)"))
        paper, default = verdicts([1e-5, 1e-5])
        self.assertEqual((paper, default["correctness"], default["comparisons"]), (True, True, "(2 / 2)"))
        paper, default = verdicts([5e-2, 1e-5])  # fails the paper's: fails the default, whatever else passed
        self.assertEqual((paper, default["correctness"]), (False, False))
        self.assertIn("failed at the paper tolerance", default["reason"])
        paper, default = verdicts([])  # nothing compared: no default pass on no evidence
        self.assertEqual((paper, default["correctness"]), (True, False))
        self.assertIsInstance(kb.torch, type(kb.torch))
        self.assertNotIsInstance(kb.torch, kb_protocol.StrictComparisons)  # the module's torch is back

    def test_the_strict_comparisons_answer_as_torch_does(self):
        kb = self.kb()
        with kb_protocol.strict_comparisons(kb, 1e-4) as strict:
            self.assertTrue(kb.torch.allclose(1e-3, 0.0, atol=1e-2, rtol=1e-2))  # KernelBench's answer, unchanged
            self.assertFalse(kb.torch.allclose(5e-2, 0.0, atol=1e-2, rtol=1e-2))
            self.assertEqual((strict.compared, strict.passed), (2, 0))
            self.assertTrue(kb.torch.allclose(1e-5, 0.0, atol=1e-2, rtol=1e-2))
            self.assertEqual((strict.compared, strict.passed), (3, 1))


class Precision(unittest.TestCase):
    def test_operand_precision_from_the_export_diagnostics(self):
        x005 = {"rule": "X005", "message": "kernel `k` multiplies in bf16 (operands converted from f32) but suite "
                                           "problem P states exact f32: ..."}
        self.assertEqual(kb_eval.operand_precision("f32", [x005]), ("bf16", True))
        tf32 = {"rule": "X005", "message": "kernel `k` multiplies in tf32 but suite problem P states exact f32"}
        self.assertEqual(kb_eval.operand_precision("f32", [{"rule": "X001"}, tf32]), ("tf32", True))
        self.assertEqual(kb_eval.operand_precision("f32", []), ("fp32", False))


class Denominator(unittest.TestCase):
    def test_every_suite_problem_without_an_entry_is_a_failure(self):
        stems = sorted(kb_eval.suite_files(kb_eval.DEFAULT_SUITE))
        self.assertEqual(len(stems), 152)
        entries = [{"problem": p, "stage": "done", "correctness": True} for p in stems[:3]]
        meta = {"suite_problems": stems, "impl": os.path.relpath(IMPL, ROOT)}
        all_entries = kb_eval.with_denominator(meta, entries)
        self.assertEqual(len(all_entries), 152)
        failed = [e for e in all_entries if not e["correctness"]]
        self.assertEqual(len(failed), 149)
        impl = {f[:-5] for f in os.listdir(IMPL) if f.endswith(".ucut")}
        for e in failed:
            self.assertEqual(e["error"], "not run (--time-limit or --only)" if e["problem"] in impl else "no spec")
        self.assertEqual(kb_eval.with_denominator({}, entries), entries)  # a --pair run: its pairs only


class Workers(Isolated):
    def run_with(self, script, timeout=30):
        with mock.patch.object(kb_eval, "worker_command", lambda stage, job: [sys.executable, "-c", script, job]):
            return kb_eval.run_worker("compile", {"x": 1}, self.tmp, "p", timeout)

    def test_an_answer(self):
        answer = self.run_with("import json, sys; json.dump({'compiled': True}, open(sys.argv[1] + '.result.json', 'w'))")
        self.assertTrue(answer["compiled"])
        self.assertIn("seconds", answer)
        self.assertEqual(results.read_json(os.path.join(self.tmp, "jobs", "p.compile.json")), {"x": 1})

    def test_a_crash_is_an_error_with_the_log(self):
        answer = self.run_with("import sys; print('boom'); sys.exit(3)")
        self.assertIn("exited with code 3 without an answer: boom", answer["error"])
        self.assertIn("boom", answer["log_tail"])

    def test_a_hang_times_out(self):
        answer = self.run_with("import time; time.sleep(30)", timeout=1)
        self.assertIn("timed out after 1 s", answer["error"])

    def test_finish_eval(self):
        entry = kb_eval.finish_eval({"stage": "eval"}, {"result": {"compiled": True, "correctness": True,
                                                                   "runtime": 2.0, "ref_runtime": 3.0, "metadata": {}},
                                                        "stand_ins": ["openai"]})
        self.assertEqual((entry["stage"], entry["speedup"], entry["stand_ins"]), ("done", 1.5, ["openai"]))
        entry = kb_eval.finish_eval({"stage": "eval"}, {"result": {"compiled": True, "correctness": False,
                                                                   "runtime": -1.0, "ref_runtime": -1.0}})
        self.assertEqual((entry["runtime_ms"], entry.get("speedup")), (None, None))
        verdicts = {"paper": {"float32_tolerance": 1e-2, "result": {"correctness": True}},
                    "default": {"float32_tolerance": 1e-4, "result": {"correctness": False}}}
        beside = {"compile": {"mean": 1.0}, "interleaved": {"eager": {"mean": 3.3}, "ours": {"mean": 2.2},
                                                            "compile": {"mean": 1.1}}}
        entry = kb_eval.finish_eval({"stage": "eval"}, {"result": {"compiled": True, "correctness": True,
                                                                   "runtime": 2.0, "ref_runtime": 3.0},
                                                        "verdicts": verdicts, "beside": beside})
        self.assertEqual((entry["verdicts"]["paper"]["correct"], entry["verdicts"]["default"]["correct"]),
                         (True, False))
        self.assertEqual((entry["speedup"], entry["compile_ms"], entry["speedup_vs_compile"]), (1.5, 1.0, 0.5))
        self.assertEqual((entry["interleaved_speedup"], entry["interleaved_speedup_vs_compile"]), (1.5, 0.5))
        entry = kb_eval.finish_eval({"stage": "eval"}, {"result": None})
        self.assertEqual(entry["stage"], "eval")
        self.assertIn("returned None", entry["error"])


class Report(Isolated):
    def test_markdown_has_the_run_and_every_problem(self):
        meta = {"environment": {"gpu": "NVIDIA H200", "driver": "580.1", "torch": "2.11.0", "cuda": "13.0",
                                "cudnn": 91900, "nvcc": "Build cuda_13.0"},
                "kernelbench_commit": "423217d", "command": "kb_eval.py --out x", "started": "2026-12-01T00:00:00Z",
                "trials": 100, "correct_trials": 5}
        entries = [{"problem": "L1_001", "spec": "impl/L1_001.ucut", "stage": "done", "compiled": True,
                    "correctness": True, "runtime_ms": 2.0, "ref_runtime_ms": 3.0, "speedup": 1.5},
                   {"problem": "L2_012", "spec": "impl/L2_012.ucut", "stage": "compile", "compiled": False,
                    "correctness": False, "error": "nvcc | failed", "stand_ins": ["litellm"],
                    "operand_precision": "bf16"}]
        md = kb_eval.render_markdown(meta, entries)
        for text in ("NVIDIA H200", "driver 580.1", "torch 2.11.0", "CUDA 13.0", "423217d", "`kb_eval.py --out x`",
                     "2026-12-01", "| L1_001 | L1_001.ucut | - | yes | yes | no | 2 | 3 | 1.50x |",
                     "stopped at compile: nvcc \\| failed", "1 of 2 correct at the paper's",
                     "**1 of the 1 problems with a kernel use bf16 or TF32 operands against FP32 eager.**", "litellm"):
            self.assertIn(text, md)

    def test_report_reads_the_entries(self):
        results.write_json(os.path.join(self.tmp, "environment.json"), {"command": "c"})
        results.write_entry(self.tmp, "L1_001", {"problem": "L1_001", "stage": "done", "correctness": True})
        entries = kb_eval.report(self.tmp)
        self.assertEqual(len(entries), 1)
        self.assertEqual(results.read_json(os.path.join(self.tmp, "kb_eval.json"))["command"], "c")
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "kb_eval.md")))


@needs_ucutlass
class WholeRun(Isolated):
    """Three pairs against the stand-in checkout: one that passes (its eval stage needs torch, and without it stops
    there with the worker's error), one the export refuses (X003), one whose compile fails; each problem's entry says
    how far it got, and the report lists all three."""

    def test_three_pairs(self):
        root = fake_checkout(os.path.join(self.tmp, "kb"))
        out = os.path.join(self.tmp, "out")
        argv = ["--kernelbench", root, "--out", out, "--ucutlass", UCUTLASS, "--jobs", "2", "--trials", "3"]
        for problem, spec in ((L1_001, "L1_001_square_matmul"), (L1_017, "L1_001_square_matmul"),
                              (L1_002, "L1_002_matmul")):
            argv += ["--pair", f"{problem}={os.path.join(IMPL, spec + '.ucut')}"]
        self.assertEqual(kb_eval.main(argv), 0)
        refused = results.read_entry(out, "L1_017_matmul_transposed_b")
        self.assertEqual((refused["stage"], refused["compiled"]), ("export", False))
        self.assertIn("X003", refused["error"])
        failed = results.read_entry(out, "L1_002_matmul")
        self.assertEqual((failed["stage"], failed["compiled"]), ("compile", False))
        self.assertIn("stand-in", failed["error"])
        self.assertTrue(os.path.isfile(os.path.join(out, "sources", "L1_002_matmul.py")))
        self.assertTrue(os.path.isfile(os.path.join(out, "logs", "L1_002_matmul.compile.log")))
        passed = results.read_entry(out, "L1_001_square_matmul")
        self.assertTrue(passed["compiled"])
        with open(os.path.join(out, "kb_eval.md")) as f:
            md = f.read()
        self.assertIn("fake123", md)
        self.assertEqual(len(results.read_json(os.path.join(out, "kb_eval.json"))["problems"]), 3)
        if HAVE_TORCH:
            self.assertEqual((passed["stage"], passed["correctness"], passed["speedup"]), ("done", True, 1.5))
            self.assertIn("timing_method", passed["dropped_arguments"])
            self.assertEqual(passed["metadata"]["error"], "x")
            self.assertIn("| L1_001_square_matmul | L1_001_square_matmul.ucut | fp32 | yes | yes | yes | 2 | 3 | 1.50x |",
                          md)
        else:
            self.assertEqual(passed["stage"], "eval")
            self.assertIn("torch", passed["log_tail"])
        # --skip-done: every pair has an entry, so nothing runs again.
        with mock.patch.object(kb_eval, "run_worker", side_effect=AssertionError("ran a worker")):
            self.assertEqual(kb_eval.main(argv + ["--skip-done"]), 0)


if __name__ == "__main__":
    unittest.main()
