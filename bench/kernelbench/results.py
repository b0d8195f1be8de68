"""Per-problem result files of the KernelBench scripts: `<out>/problems/<stem>.json`, each written (atomically) as
soon as its problem is done, so a killed run keeps what it finished and `--skip-done` resumes it. Pure Python."""
import json
import math
import os

import suite


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
    memory (likely because other problems held memory at the time) or one for a file that did not load then (only
    runs from before `ucutlass suite check` read the files wrote those)."""
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


def select(paths, only, ucutlass=None):
    """The problems of the files under `paths` (suite.load_problems: checked by `ucutlass suite check`; a file with
    diagnostics raises suite.ProblemError) whose name contains one of the comma-separated substrings `only` (all
    when empty)."""
    return [p for p in suite.load_problems(paths, ucutlass)
            if not only or any(s in p.stem for s in only.split(","))]


def todo(chosen, out, skip_done):
    """The problems to run: all of them, or with skip_done those without a finished entry."""
    return [p for p in chosen if not (skip_done and is_done(out, p.stem))]


def collect(out, chosen):
    """The entries of the chosen problems, and the names of those that have none yet."""
    entries, missing = [], []
    for p in chosen:
        entry = read_entry(out, p.stem)
        if entry is None:
            missing.append(p.stem)
        else:
            entries.append(entry)
    return entries, missing


def md_cell(text):
    """Text for a Markdown table cell: one line, pipes escaped."""
    return str(text).splitlines()[0].replace("|", "\\|") if text else ""
