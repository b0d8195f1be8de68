// agent/mcp_server.h — `ucutlass mcp`: a Model Context Protocol server (revision 2025-11-25, the `initialize`
// handshake) serving the tool table (agent/tools.h) and the DSL's docs as resources. JSON-RPC 2.0 messages,
// one a line (stdio framing); handle_line answers one line, serve loops over streams.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "agent/tools.h"

namespace ucut::agent {

/// The protocol revisions the server speaks, newest first; an initialize asking for another gets the first.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};

class McpServer {
 public:
  explicit McpServer(ToolContext ctx) : ctx_(std::move(ctx)) {}

  /// The answer to one line (one JSON-RPC message, without its newline): a response on one line, or nullopt
  /// for a notification. Never throws: a bad message gets its JSON-RPC error, a tool's exception -32603.
  std::optional<std::string> handle_line(std::string_view line);

 private:
  ToolContext ctx_;
};

/// Reads lines from `in` until it closes and writes each answer to `out` with a newline, flushed; empty lines
/// are skipped. Logs go to stderr.
void serve(McpServer& server, std::istream& in, std::ostream& out);

}  // namespace ucut::agent
