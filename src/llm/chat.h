// llm/chat.h — the chat-completions data: messages, tool calls, tool specs, the request and the response, and
// their OpenAI-compatible JSON (shared/facts/agents.md §1–2). Tool-call arguments are kept as the raw string
// the model sent plus a parse of it: invalid JSON is surfaced for the caller to repair, never thrown.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucut::llm {

enum class Role { kSystem, kUser, kAssistant, kTool };

/// "system", "user", "assistant", "tool".
std::string_view role_name(Role role);
/// The role named `name`, or nullopt.
std::optional<Role> parse_role(std::string_view name);

/// One function call the model asked for.
struct ToolCall {
  std::string id;                                  ///< echoed back verbatim in the tool's reply
  std::string name;                                ///< as the model wrote it: may name no tool the caller has
  std::string arguments;                           ///< the raw JSON text the model sent
  std::optional<nlohmann::json> parsed_arguments;  ///< `arguments` parsed, when it is valid JSON
  std::string arguments_error;                     ///< why it is not ("" when parsed_arguments is set)

  /// Parses `arguments` into parsed_arguments, or sets arguments_error. Never throws.
  void parse_arguments();
  bool arguments_ok() const { return parsed_arguments.has_value(); }
};

struct Message {
  Role role = Role::kUser;
  std::optional<std::string> content;  ///< null for an assistant turn that only called tools
  std::vector<ToolCall> tool_calls;    ///< assistant turns only
  std::string tool_call_id;            ///< tool turns only: the call this answers

  static Message system(std::string text) { return {Role::kSystem, std::move(text), {}, {}}; }
  static Message user(std::string text) { return {Role::kUser, std::move(text), {}, {}}; }
  /// The reply to tool call `call_id`.
  static Message tool_result(std::string call_id, std::string text) {
    return {Role::kTool, std::move(text), {}, std::move(call_id)};
  }
};

/// A function the model may call.
struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters = nlohmann::json::object();  ///< a JSON Schema object
};

enum class ToolChoiceMode { kNone, kAuto, kRequired, kNamed };

struct ToolChoice {
  ToolChoiceMode mode = ToolChoiceMode::kAuto;
  std::string name;  ///< kNamed only
};

/// One call. Unset optional fields take the client's configured defaults (llm/config.h).
struct ChatRequest {
  std::string model;  ///< "" = the configured model
  std::vector<Message> messages;
  std::vector<ToolSpec> tools;
  std::optional<ToolChoice> tool_choice;  ///< unset = the server's default (auto when there are tools)
  std::optional<double> temperature;
  std::optional<int> max_tokens;
  std::optional<bool> stream;
  std::optional<nlohmann::json> response_format;  ///< e.g. {"type":"json_schema","json_schema":{...}}
};

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  bool reported = false;  ///< the server sent a usage object
};

struct ChatResponse {
  Message message;            ///< role assistant
  std::string finish_reason;  ///< stop | length | tool_calls | content_filter | ... ("" if none was sent)
  Usage usage;
  /// Set when the model refused: OpenAI's `message.refusal`, or finish_reason content_filter (then a fixed
  /// text).
  std::optional<std::string> refusal;
  std::string model;
  std::string id;

  /// The model called tools: decided on tool_calls being non-empty, never on finish_reason (agents.md §2).
  bool called_tools() const { return !message.tool_calls.empty(); }
};

/// The message as the API expects it in `messages`.
nlohmann::json message_to_json(const Message& m);
/// The request body. `stream` adds stream_options.include_usage.
nlohmann::json request_to_json(const ChatRequest& r);
/// The response as JSON, for records and logs (tool arguments raw, as received).
nlohmann::json response_to_json(const ChatResponse& r);
/// The response response_to_json recorded (a ledger's replay); nullopt with `error` set when `j` is not one.
std::optional<ChatResponse> response_from_json(const nlohmann::json& j, std::string* error);

/// Reads a non-streaming response body; nullopt with `error` set when it is not a chat completion.
std::optional<ChatResponse> parse_chat_response(const nlohmann::json& body, std::string* error);
/// Sets `refusal` from finish_reason content_filter when the message carried none.
void apply_content_filter(ChatResponse& r);

}  // namespace ucut::llm
