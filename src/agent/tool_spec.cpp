// agent/tool_spec.cpp — the `check` and `compile` tools: the compiler's tool-mode answer (compiler/
// compilation_json.h), as `ucutlass check --json` and `ucutlass compile --json` print it.
#include "agent/tool_handlers.h"
#include "compiler/compilation_json.h"

namespace ucut::agent {
namespace {

ToolResult compile_tool(const nlohmann::json& args, StopAfter stop, bool include_code) {
  SourceFile src("<spec>", args.at("spec").get<std::string>());
  Compilation c = compile_spec(src, stop);
  nlohmann::json j = compilation_json(src, c, include_code);
  if (!c.ok()) return error_result("the spec has errors:\n" + diagnostics_text(j), j);
  ToolResult r = ok_result(j);
  if (!j["diagnostics"].empty()) r.text = "ok, with warnings:\n" + diagnostics_text(j) + r.text;
  return r;
}

}  // namespace

ToolResult tool_check(const nlohmann::json& args, const ToolContext&) {
  return compile_tool(args, StopAfter::check, false);
}

ToolResult tool_compile(const nlohmann::json& args, const ToolContext&) {
  return compile_tool(args, StopAfter::emit, args.value("include_code", false));
}

}  // namespace ucut::agent
