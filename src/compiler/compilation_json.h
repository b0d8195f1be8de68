// compiler/compilation_json.h — a compilation as the tool-mode answer (docs/dsl-guide.md, "Answers in JSON"):
// what `ucutlass check --json` and `compile --json` print and what the agent tools (agent/tools.h) return.
#pragma once

#include <nlohmann/json.hpp>

#include "compiler/pipeline.h"
#include "support/source.h"

namespace ucut {

/// {ok, diagnostics, more_errors} and, once the spec checks clean, {namespace, config_hash}; {code} when
/// `include_code` and the spec was emitted.
nlohmann::json compilation_json(const SourceFile& src, const Compilation& c, bool include_code);

}  // namespace ucut
