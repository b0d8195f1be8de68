// agent/tool_handlers.h — the handlers of the tool table (agent/tools.def) and what they share; one file per
// kind of tool: tool_spec.cpp (check, compile), tool_problem.cpp (sol, problem), tool_gpu.cpp (run, profile),
// tool_lessons.cpp. Arguments arrive checked against the tool's schema.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "agent/tools.h"

namespace ucut::agent {

#define UCUT_TOOL(name, title, handler, description, schema) \
  ToolResult handler(const nlohmann::json& args, const ToolContext& ctx);
#include "agent/tools.def"
#undef UCUT_TOOL

/// A successful answer: `structured` and its JSON as the text.
ToolResult ok_result(nlohmann::json structured);
/// The tool's own failure: `text` for the model, `structured` {error: text} unless given.
ToolResult error_result(std::string text, nlohmann::json structured = nullptr);

/// A compilation_json answer's diagnostics in words, one a line: `line:col rule: message (hint)`.
std::string diagnostics_text(const nlohmann::json& compilation);

/// The problem argument of sol, run and profile as a file path: a path that exists, a suite problem name
/// (under ctx.suites_dir or the default suites folder), or problem TOML text (written to a temporary file
/// removed with the last copy of the pointer). nullptr with `error` saying why.
using ProblemPath = std::shared_ptr<const std::string>;
ProblemPath resolve_problem(const std::string& arg, const ToolContext& ctx, std::string* error);

}  // namespace ucut::agent
