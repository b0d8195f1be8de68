// llm/chat.cpp — chat-completions JSON: requests out, responses in.
#include "llm/chat.h"

#include <fmt/format.h>

namespace ucut::llm {

using nlohmann::json;

std::string_view role_name(Role role) {
  switch (role) {
    case Role::kSystem:
      return "system";
    case Role::kUser:
      return "user";
    case Role::kAssistant:
      return "assistant";
    case Role::kTool:
      return "tool";
  }
  return "user";
}

std::optional<Role> parse_role(std::string_view name) {
  for (Role r : {Role::kSystem, Role::kUser, Role::kAssistant, Role::kTool})
    if (role_name(r) == name) return r;
  return std::nullopt;
}

void ToolCall::parse_arguments() {
  parsed_arguments.reset();
  arguments_error.clear();
  // An empty string is what a call with no arguments streams as; treat it as {}.
  if (arguments.find_first_not_of(" \t\r\n") == std::string::npos) {
    parsed_arguments = json::object();
    return;
  }
  json j;
  try {
    j = json::parse(arguments);
  } catch (const json::parse_error& e) {
    arguments_error = fmt::format("arguments are not valid JSON: {}", e.what());
    return;
  }
  if (!j.is_object()) {
    arguments_error = fmt::format("arguments must be a JSON object, got {}", j.type_name());
    return;
  }
  parsed_arguments = std::move(j);
}

json message_to_json(const Message& m) {
  json j = {{"role", role_name(m.role)}};
  j["content"] = m.content ? json(*m.content) : json(nullptr);
  if (!m.tool_calls.empty()) {
    json calls = json::array();
    for (const ToolCall& c : m.tool_calls)
      calls.push_back(
          {{"id", c.id}, {"type", "function"}, {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
    j["tool_calls"] = std::move(calls);
  }
  if (m.role == Role::kTool) j["tool_call_id"] = m.tool_call_id;
  return j;
}

json request_to_json(const ChatRequest& r) {
  json j = {{"model", r.model}, {"messages", json::array()}};
  for (const Message& m : r.messages) j["messages"].push_back(message_to_json(m));
  if (!r.tools.empty()) {
    json tools = json::array();
    for (const ToolSpec& t : r.tools)
      tools.push_back(
          {{"type", "function"},
           {"function", {{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}}}});
    j["tools"] = std::move(tools);
  }
  if (r.tool_choice) {
    switch (r.tool_choice->mode) {
      case ToolChoiceMode::kNone:
        j["tool_choice"] = "none";
        break;
      case ToolChoiceMode::kAuto:
        j["tool_choice"] = "auto";
        break;
      case ToolChoiceMode::kRequired:
        j["tool_choice"] = "required";
        break;
      case ToolChoiceMode::kNamed:
        j["tool_choice"] = {{"type", "function"}, {"function", {{"name", r.tool_choice->name}}}};
        break;
    }
  }
  if (r.temperature) j["temperature"] = *r.temperature;
  if (r.max_tokens) j["max_tokens"] = *r.max_tokens;
  if (r.stream.value_or(false)) {
    j["stream"] = true;
    j["stream_options"] = {{"include_usage", true}};
  }
  if (r.response_format) j["response_format"] = *r.response_format;
  return j;
}

json response_to_json(const ChatResponse& r) {
  json j = {{"id", r.id},
            {"model", r.model},
            {"finish_reason", r.finish_reason},
            {"message", message_to_json(r.message)},
            {"usage",
             {{"prompt_tokens", r.usage.prompt_tokens}, {"completion_tokens", r.usage.completion_tokens}}}};
  if (r.refusal) j["refusal"] = *r.refusal;
  return j;
}

std::optional<ChatResponse> response_from_json(const json& j, std::string* error) {
  if (!j.is_object() || !j.contains("message")) {
    if (error) *error = "the recorded response has no `message`";
    return std::nullopt;
  }
  json message = j["message"];
  if (j.contains("refusal")) message["refusal"] = j["refusal"];
  json body = {
      {"id", j.value("id", "")},
      {"model", j.value("model", "")},
      {"choices", json::array({{{"message", message}, {"finish_reason", j.value("finish_reason", "")}}})}};
  if (j.contains("usage")) body["usage"] = j["usage"];
  return parse_chat_response(body, error);
}

void apply_content_filter(ChatResponse& r) {
  if (r.finish_reason == "content_filter" && !r.refusal)
    r.refusal = "the server's content filter stopped the answer (finish_reason content_filter)";
}

namespace {

std::string string_or_empty(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::optional<ChatResponse> parse_chat_response(const json& body, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<ChatResponse> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (!body.is_object())
    return fail(fmt::format("the response is a JSON {}, not an object", body.type_name()));
  auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array() || choices->empty())
    return fail("the response has no `choices`");
  const json& choice = (*choices)[0];
  auto msg = choice.is_object() ? choice.find("message") : choice.end();
  if (!choice.is_object() || msg == choice.end() || !msg->is_object())
    return fail("the response's first choice has no `message` object");

  ChatResponse r;
  r.id = string_or_empty(body, "id");
  r.model = string_or_empty(body, "model");
  r.finish_reason = string_or_empty(choice, "finish_reason");
  r.message.role = Role::kAssistant;
  if (auto c = msg->find("content"); c != msg->end() && c->is_string())
    r.message.content = c->get<std::string>();
  if (auto ref = msg->find("refusal");
      ref != msg->end() && ref->is_string() && !ref->get<std::string>().empty())
    r.refusal = ref->get<std::string>();
  if (auto calls = msg->find("tool_calls"); calls != msg->end() && calls->is_array()) {
    for (const json& c : *calls) {
      if (!c.is_object()) return fail("a `tool_calls` entry is not an object");
      auto fn = c.find("function");
      if (fn == c.end() || !fn->is_object()) return fail("a `tool_calls` entry has no `function` object");
      ToolCall call;
      call.id = string_or_empty(c, "id");
      call.name = string_or_empty(*fn, "name");
      if (auto a = fn->find("arguments"); a != fn->end())
        call.arguments = a->is_string() ? a->get<std::string>() : a->dump();  // some servers send an object
      call.parse_arguments();
      r.message.tool_calls.push_back(std::move(call));
    }
  }
  if (auto u = body.find("usage"); u != body.end() && u->is_object()) {
    r.usage.reported = true;
    if (auto p = u->find("prompt_tokens"); p != u->end() && p->is_number_integer())
      r.usage.prompt_tokens = *p;
    if (auto c = u->find("completion_tokens"); c != u->end() && c->is_number_integer())
      r.usage.completion_tokens = *c;
  }
  apply_content_filter(r);
  return r;
}

}  // namespace ucut::llm
