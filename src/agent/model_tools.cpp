// agent/model_tools.cpp — see model_tools.h.
#include "agent/model_tools.h"

#include <fmt/format.h>

namespace ucut::agent {

std::vector<llm::ToolSpec> model_tool_specs() {
  std::vector<llm::ToolSpec> specs;
  for (const ToolInfo& t : tools()) specs.push_back({t.name, t.description, t.input_schema});
  return specs;
}

mantis::ToolReply call_tool_for_model(const std::string& name, const nlohmann::json& arguments,
                                      const ToolContext& ctx) {
  try {
    ToolResult r = call_tool(name, arguments, ctx);
    return {r.is_error, r.text};
  } catch (const ToolCallError& e) {
    return {true, e.what()};
  }
}

std::string model_tools_text() {
  std::string text;
  for (const ToolInfo& t : tools()) text += fmt::format("- `{}`: {}\n", t.name, t.title);
  return text;
}

}  // namespace ucut::agent
