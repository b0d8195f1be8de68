// agent/tools.h — the one tool table μCUTLASS serves to agents: over MCP (agent/mcp_server.h) and to an LLM's
// function calls. One row per tool (agent/tools.def): name, title, description written for a model, input
// JSON Schema, handler. The handlers call the same library code as the CLI's subcommands.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "workflow/profile_spec.h"

namespace ucut::agent {

/// What the CLI's options would carry: build cache, CUTLASS, worker, the GPU for SOL bounds, ncu and timeouts
/// (as `profile` takes them; `run` uses their measure part, trials set per call), where the suites are.
/// Defaults as the CLI's.
struct ToolContext {
  ProfileOptions profile;
  std::string suites_dir;  // "": suite::default_suite_dir()
};

/// One row of the table, as tools/list shows it.
struct ToolInfo {
  std::string name, title, description;
  nlohmann::json input_schema;  // always {"type":"object",...}
};

/// A tool's answer. `is_error` marks the tool's own failure (a spec with errors, no GPU): a normal answer the
/// model reads. `structured` is a JSON object; `text` is for the model (the JSON, or the errors in words).
struct ToolResult {
  bool is_error = false;
  nlohmann::json structured = nlohmann::json::object();
  std::string text;
};

/// The call itself is wrong: no such tool, or arguments that break its input schema (MCP: -32602).
struct ToolCallError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Every tool, in table order.
const std::vector<ToolInfo>& tools();

/// Runs tool `name`. Throws ToolCallError for an unknown tool or arguments that break its schema; any other
/// exception is a bug of the tool.
ToolResult call_tool(std::string_view name, const nlohmann::json& arguments, const ToolContext& ctx);

}  // namespace ucut::agent
