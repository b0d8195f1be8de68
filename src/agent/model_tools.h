// agent/model_tools.h — the tool table (agent/tools.h) as a language model's function calls: the specs sent
// with every request of the in-prompt controller (engine/mantis/in_prompt.h), the answer to a call, and the
// list the controller prompt shows. The same rows the MCP server serves; only `run` and `profile` are
// answered by the controller itself (they claim attempts and use the engine's executor).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/tools.h"
#include "engine/mantis/in_prompt.h"
#include "llm/chat.h"

namespace ucut::agent {

/// Every tool of the table as a function spec: name, description, input schema.
std::vector<llm::ToolSpec> model_tool_specs();

/// Tool `name` answered for a model: a call the table refuses (no such tool, arguments that break the schema)
/// is an error reply the model reads and can correct, never an exception.
mantis::ToolReply call_tool_for_model(const std::string& name, const nlohmann::json& arguments,
                                      const ToolContext& ctx);

/// One line per tool, "- `name`: its title", for the controller prompt's {{tools}} slot.
std::string model_tools_text();

}  // namespace ucut::agent
