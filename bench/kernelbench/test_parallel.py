"""baseline.py --jobs: the worker processes' bookkeeping, with a stand-in `measure` module (no torch, no GPU) whose
workers write entries, and die on the problems named `crash`: every problem gets an entry, a dead worker's problem
says so, and the run finishes."""
import contextlib
import io
import os
import shutil
import sys
import tempfile
import textwrap
import unittest

import baseline
import results
from testutil import problem

FAKE_MEASURE = '''
import os
import results


def worker_loop(tasks, reports, opts):
    while (problem := tasks.get()) is not None:
        reports.send(("start", problem.stem))
        if "crash" in problem.stem:
            os._exit(3)
        results.write_entry(opts["out"], problem.stem, {"problem": problem.stem, "pid": os.getpid()})
        reports.send(("done", problem.stem, problem.stem + " ok"))
'''


class Parallel(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        fake = os.path.join(self.tmp, "fake")
        os.makedirs(fake)
        with open(os.path.join(fake, "measure.py"), "w") as f:
            f.write(textwrap.dedent(FAKE_MEASURE))
        sys.path.insert(0, fake)  # spawned workers get this sys.path too
        self.addCleanup(sys.path.remove, fake)
        self.assertNotIn("measure", sys.modules)
        self.addCleanup(sys.modules.pop, "measure", None)

    def test_every_problem_gets_an_entry_and_dead_workers_are_replaced(self):
        names = ["a", "b", "crash1", "c", "d", "crash2", "e"]
        out = os.path.join(self.tmp, "out")
        todo = [problem(name) for name in names]
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            baseline.run_parallel(todo, {"out": out}, 3)
        self.assertIn("crash1  ERROR: the worker process died (exit code 3)", printed.getvalue())
        for name in names:
            entry = results.read_entry(out, name)
            self.assertIsNotNone(entry, name)
            if name.startswith("crash"):
                self.assertEqual(entry["error"], "the worker process died (exit code 3)")
                self.assertEqual(entry["stage"], "worker")
            else:
                self.assertNotIn("error", entry)


if __name__ == "__main__":
    unittest.main()
