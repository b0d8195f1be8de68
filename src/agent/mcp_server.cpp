// agent/mcp_server.cpp — see mcp_server.h. The MCP facts it follows: shared/facts/agents.md §4–6.
#include "agent/mcp_server.h"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/mcp_resources.h"
#include "support/version.h"

namespace ucut::agent {
namespace {

using nlohmann::json;

// JSON-RPC 2.0 and MCP error codes.
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601,
              kInvalidParams = -32602, kInternalError = -32603, kResourceNotFound = -32002;

/// An error to answer with, thrown by a method's handler.
struct RpcError {
  int code;
  std::string message;
};

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string error_line(const json& id, int code, const std::string& message) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

constexpr const char* kInstructions =
    "μCUTLASS compiles small kernel specs (the .ucut DSL) into CUTLASS C++ GEMM and convolution kernels. "
    "Read the resource ucutlass://docs/dsl-guide.md (and ucutlass://docs/grammar.ebnf) before writing a "
    "spec. Then: `check` a spec and fix every diagnostic (each has a rule id, line:col and a hint); "
    "`problem` lists the suite's problems and describes one; `sol` gives a problem's speed-of-light "
    "bound; `run` builds, verifies and times a spec on a problem and `profile` names its bottleneck (both"
    " need a GPU and say so when there is none); `lessons` reads what earlier optimization runs learned. "
    "A tool's failure comes back as isError with the reason in words.";

json initialize(const json& params) {
  std::string asked = params.is_object() ? params.value("protocolVersion", "") : "";
  std::string version(kProtocolVersions[0]);
  for (std::string_view v : kProtocolVersions)
    if (v == asked) version = asked;
  std::string commit(build_commit());
  return {{"protocolVersion", version},
          {"capabilities", {{"tools", json::object()}, {"resources", json::object()}}},
          {"serverInfo",
           {{"name", "ucutlass"},
            {"title", "μCUTLASS"},
            {"version", commit.empty() ? UCUTLASS_VERSION : fmt::format("{}+{}", UCUTLASS_VERSION, commit)}}},
          {"instructions", kInstructions}};
}

json list_tools() {
  json list = json::array();
  for (const ToolInfo& t : tools())
    list.push_back({{"name", t.name},
                    {"title", t.title},
                    {"description", t.description},
                    {"inputSchema", t.input_schema}});
  return {{"tools", list}};
}

json call(const json& params, const ToolContext& ctx) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
    throw RpcError{kInvalidParams, "tools/call needs params {name: string, arguments?: object}"};
  json args = params.value("arguments", json::object());
  if (args.is_null()) args = json::object();
  if (!args.is_object()) throw RpcError{kInvalidParams, "tools/call: `arguments` must be an object"};
  ToolResult r;
  try {
    r = call_tool(params["name"].get<std::string>(), args, ctx);
  } catch (const ToolCallError& e) {
    throw RpcError{kInvalidParams, e.what()};
  }
  json out = {{"content", json::array({{{"type", "text"}, {"text", r.text}}})}, {"isError", r.is_error}};
  if (r.structured.is_object()) out["structuredContent"] = r.structured;
  return out;
}

json list_resources() {
  json list = json::array();
  for (const Resource& r : resources())
    list.push_back({{"uri", r.uri},
                    {"name", r.name},
                    {"title", r.title},
                    {"description", r.description},
                    {"mimeType", r.mime_type},
                    {"size", r.text.size()}});
  return {{"resources", list}};
}

json read_resource(const json& params) {
  if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string())
    throw RpcError{kInvalidParams, "resources/read needs params {uri: string}"};
  std::string uri = params["uri"].get<std::string>();
  for (const Resource& r : resources())
    if (r.uri == uri)
      return {{"contents", json::array({{{"uri", r.uri}, {"mimeType", r.mime_type}, {"text", r.text}}})}};
  throw RpcError{kResourceNotFound, fmt::format("resource not found: {}", uri)};
}

/// The result of `method`; throws RpcError.
json dispatch(const std::string& method, const json& params, const ToolContext& ctx) {
  if (method == "initialize") return initialize(params);
  if (method == "ping") return json::object();
  if (method == "tools/list") return list_tools();
  if (method == "tools/call") return call(params, ctx);
  if (method == "resources/list") return list_resources();
  if (method == "resources/read") return read_resource(params);
  if (method == "resources/templates/list") return {{"resourceTemplates", json::array()}};
  throw RpcError{kMethodNotFound, fmt::format("method not found: {}", method)};
}

}  // namespace

std::optional<std::string> McpServer::handle_line(std::string_view line) {
  json msg;
  try {
    msg = json::parse(line);  // rejects bytes that are not UTF-8 inside strings, too
  } catch (const json::exception& e) {
    return error_line(nullptr, kParseError, fmt::format("parse error: {}", e.what()));
  }
  if (!msg.is_object())
    return error_line(nullptr, kInvalidRequest, "invalid request: a message is one JSON object (no batches)");
  // The id, echoed verbatim when it is one a request may carry (a string or an integer).
  auto id_it = msg.find("id");
  bool has_id = id_it != msg.end();
  json id = has_id && (id_it->is_string() || id_it->is_number_integer()) ? *id_it : json(nullptr);
  auto method_it = msg.find("method");
  bool valid = msg.value("jsonrpc", json()) == "2.0" && method_it != msg.end() && method_it->is_string() &&
               (!has_id || !id.is_null()) && (!msg.contains("params") || msg["params"].is_object());
  if (!valid) {
    if (!has_id && method_it != msg.end() && msg.value("jsonrpc", json()) == "2.0") return std::nullopt;
    return error_line(
        id, kInvalidRequest,
        "invalid request: need {jsonrpc: \"2.0\", id: string|integer, method: string, params?: object}");
  }
  std::string method = method_it->get<std::string>();
  if (!has_id) {
    // A notification (notifications/initialized, notifications/cancelled, ...): nothing is answered.
    if (method != "notifications/initialized") std::cerr << "ucutlass mcp: notification " << method << "\n";
    return std::nullopt;
  }
  json params = msg.value("params", json::object());
  try {
    return dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", dispatch(method, params, ctx_)}});
  } catch (const RpcError& e) {
    return error_line(id, e.code, e.message);
  } catch (const std::exception& e) {
    std::cerr << "ucutlass mcp: " << method << " failed: " << e.what() << "\n";
    return error_line(id, kInternalError, fmt::format("internal error in {}: {}", method, e.what()));
  } catch (...) {
    return error_line(id, kInternalError, fmt::format("internal error in {}", method));
  }
}

void serve(McpServer& server, std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (auto answer = server.handle_line(line)) {
      out << *answer << '\n';
      out.flush();
    }
  }
}

}  // namespace ucut::agent
