// problem/read.h — problem files (TOML, docs/problems.md) in, a Problem out. Every mistake is a diagnostic with a
// rule id at its place in the file: the format's own (H001-H007, support/rules.def) and, inside the spec fragments
// `a`, `b`, `d`, `math` and `epilogue`, the DSL's (P0xx, L0xx), since those are spec syntax lowered as a spec is.
// A pipeline problem (`op = "pipeline"`) takes its semantics from a pipeline spec (problem/read_pipeline.h).
#pragma once

#include <optional>
#include <string>

#include "problem/problem.h"
#include "support/diag.h"
#include "support/source.h"

namespace ucut {

/// Reads `src` (its name is the file's path, against which a pipeline's `semantics` is resolved). The problem when
/// no error was reported. `semantics`: a pipeline problem's spec held in memory instead of the file it names.
std::optional<Problem> read_problem(const SourceFile& src, DiagEngine& diags, const SourceFile* semantics = nullptr);

/// Reads the file at `path`; nullopt with `error` set to why: it cannot be read (missing, a directory), or its
/// diagnostics rendered as text.
std::optional<Problem> load_problem(const std::string& path, std::string* error);

}  // namespace ucut
