"""Per-problem result files of the KernelBench scripts: `<out>/problems/<stem>.json`, each written (atomically) as
soon as its problem is done, so a killed run keeps what it finished and `--skip-done` resumes it. Pure Python."""
import json
import math
import os
import sys

import suite

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ucut_bench import utc_now  # noqa: E402


def stem_of(path):
    return os.path.splitext(os.path.basename(path))[0]


def entry_path(out, stem):
    return os.path.join(out, "problems", f"{stem}.json")


def describe(problem):
    """The problem's own fields every result entry repeats."""
    return {"problem": problem.stem, "path": problem.path, "title": problem.title, "family": problem.family,
            "precision": problem.precision, "tolerance": problem.tolerance, "weak_check": problem.weak_check,
            "kernelbench": problem.kernelbench, "input_shapes": [x.shape for x in problem.inputs],
            "output_shape": problem.output_shape}


def write_entry(out, stem, entry):
    path = entry_path(out, stem)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_json(path, entry)


def read_entry(out, stem):
    """The problem's entry, or None when it has none."""
    try:
        return read_json(entry_path(out, stem))
    except FileNotFoundError:
        return None


def is_done(out, stem):
    """True when the problem has a result that a rerun would not change: any entry but one that ran out of GPU
    memory (likely because other problems held memory at the time) or one for a file that did not load then."""
    entry = read_entry(out, stem)
    return entry is not None and not entry.get("oom") and entry.get("stage") != "load"


def number(x):
    """A float for JSON: NaN and infinities as text, which strict JSON readers accept."""
    return x if math.isfinite(x) else str(x)


def read_json(path):
    with open(path) as f:
        return json.load(f)


def write_json(path, data):
    """Writes data to path atomically (a reader never sees half a file)."""
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(path + ".tmp", path)


def select(paths, only, out):
    """The problem files under `paths` whose name contains one of the comma-separated substrings `only` (all when
    empty), as (path, Problem) pairs; a file that does not load gets its error entry now and None for Problem."""
    chosen = []
    for path in suite.find_problems(paths):
        stem = stem_of(path)
        if only and not any(s in stem for s in only.split(",")):
            continue
        try:
            chosen.append((path, suite.load_problem(path)))
        except suite.ProblemError as e:
            write_entry(out, stem, {"problem": stem, "path": path, "stage": "load", "error": str(e),
                                    "measured_at": utc_now()})
            chosen.append((path, None))
    return chosen


def todo(chosen, out, skip_done):
    """The loadable problems to run: all of them, or with skip_done those without a finished entry."""
    return [(path, p) for path, p in chosen if p is not None and not (skip_done and is_done(out, p.stem))]


def collect(out, chosen):
    """The entries of the chosen problems, and the names of those that have none yet."""
    entries, missing = [], []
    for path, _ in chosen:
        entry = read_entry(out, stem_of(path))
        if entry is None:
            missing.append(stem_of(path))
        else:
            entries.append(entry)
    return entries, missing


def md_cell(text):
    """Text for a Markdown table cell: one line, pipes escaped."""
    return str(text).splitlines()[0].replace("|", "\\|") if text else ""
