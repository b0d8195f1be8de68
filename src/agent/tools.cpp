// agent/tools.cpp — the table (agent/tools.def), argument checking and the answers the handlers share.
#include "agent/tools.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "llm/schema_check.h"
#include "agent/tool_handlers.h"

namespace ucut::agent {
namespace {

using Handler = ToolResult (*)(const nlohmann::json&, const ToolContext&);

struct Row {
  ToolInfo info;
  Handler handler;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = [] {
    std::vector<Row> t;
#define UCUT_TOOL(name, title, handler, description, schema) \
  t.push_back({{#name, title, description, nlohmann::json::parse(schema)}, &handler});
#include "agent/tools.def"
#undef UCUT_TOOL
    return t;
  }();
  return table;
}

}  // namespace

const std::vector<ToolInfo>& tools() {
  static const std::vector<ToolInfo> list = [] {
    std::vector<ToolInfo> l;
    for (const Row& r : rows()) l.push_back(r.info);
    return l;
  }();
  return list;
}

ToolResult call_tool(std::string_view name, const nlohmann::json& arguments, const ToolContext& ctx) {
  for (const Row& r : rows()) {
    if (r.info.name != name) continue;
    if (auto why = llm::schema_violation(r.info.input_schema, arguments))
      throw ToolCallError(fmt::format("tool `{}`: {}", name, *why));
    return r.handler(arguments, ctx);
  }
  std::vector<std::string> names;
  for (const Row& r : rows()) names.push_back(r.info.name);
  throw ToolCallError(fmt::format("unknown tool `{}`; the tools are {}", name, fmt::join(names, ", ")));
}

ToolResult ok_result(nlohmann::json structured) {
  ToolResult r;
  r.text = structured.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  r.structured = std::move(structured);
  return r;
}

ToolResult error_result(std::string text, nlohmann::json structured) {
  ToolResult r;
  r.is_error = true;
  r.structured = structured.is_null() ? nlohmann::json{{"error", text}} : std::move(structured);
  r.text = std::move(text);
  return r;
}

std::string diagnostics_text(const nlohmann::json& compilation) {
  std::string out;
  for (const auto& d : compilation.value("diagnostics", nlohmann::json::array())) {
    out += fmt::format("{}:{} {}: {}", d.value("line", 0), d.value("col", 0), d.value("rule", ""),
                       d.value("message", ""));
    if (std::string hint = d.value("hint", ""); !hint.empty()) out += fmt::format(" ({})", hint);
    out += "\n";
  }
  if (int64_t more = compilation.value("more_errors", int64_t{0}); more > 0)
    out += fmt::format("... and {} more errors\n", more);
  return out;
}

}  // namespace ucut::agent
