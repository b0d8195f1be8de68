"""planted.py's judgement of its own floor: an honest fixture passes only when the empty launch that floors the
wall-clock off-stream check times below the kernel on every shape (the H100 run of 2026-12-06 had it at 0.55 ms
against a 0.05 ms kernel: the check was blind)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import planted  # noqa: E402


def report(*shapes):
    """A `ucutlass run --json` report with one shape per (label, empty launch ms, kernel wall ms)."""
    return {"shapes": [{"result": {"shape": {"label": label}, "integrity": {"empty_launch_wall_ms": empty},
                                   "candidate": {"wall_ms": {"median": wall}}}, "flags": []}
                       for label, empty, wall in shapes]}


class FloorVerdict(unittest.TestCase):
    honest = planted.EXPECTED["honest_naive"]

    def test_an_empty_launch_slower_than_the_kernel_fails_the_harness(self):
        r = report(("checked", 0.547, 18.57), ("small", 0.551, 0.0526))  # the measured H100 values
        self.assertIs(planted.floor_verdict(self.honest, r), False)
        self.assertIn("FAILED", planted.fmt_floor(False, r))

    def test_a_floor_below_the_kernel_on_every_shape_passes(self):
        r = report(("checked", 0.012, 18.57), ("small", 0.011, 0.0526))
        self.assertIs(planted.floor_verdict(self.honest, r), True)
        self.assertNotIn("FAILED", planted.fmt_floor(True, r))

    def test_no_shape_measured_fails(self):
        self.assertIs(planted.floor_verdict(self.honest, {"shapes": []}), False)

    def test_only_honest_fixtures_are_judged(self):
        # writes_nothing launches nothing: its wall (a bare synchronize) is below any launch, legitimately
        r = report(("checked", 0.012, 0.0015), ("small", 0.011, 0.0016))
        self.assertIsNone(planted.floor_verdict(planted.EXPECTED["writes_nothing"], r))
        self.assertEqual(planted.fmt_floor(None, r), "")

    def test_every_honest_fixture_is_judged(self):
        honest = [n for n, e in planted.EXPECTED.items() if not any(e[label] for label in planted.LABELS)]
        self.assertEqual(sorted(honest), ["f32_as_fp16_framework", "f32_honest", "honest_naive"])


if __name__ == "__main__":
    unittest.main()
