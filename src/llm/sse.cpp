// llm/sse.cpp — the incremental SSE parser and the chunk accumulator.
#include "llm/sse.h"

#include <fmt/format.h>

namespace ucut::llm {

using nlohmann::json;

void SseParser::feed(std::string_view bytes, const OnEvent& on_event) {
  for (char c : bytes) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;  // the LF of a CRLF split across feeds (or not)
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      line(line_, on_event);
      line_.clear();
    } else {
      line_.push_back(c);
    }
  }
}

void SseParser::finish(const OnEvent& on_event) {
  if (!line_.empty()) line(line_, on_event);
  line_.clear();
  after_cr_ = false;
  if (has_data_) line("", on_event);
}

void SseParser::line(std::string_view l, const OnEvent& on_event) {
  if (l.empty()) {  // the event ends
    if (has_data_) {
      std::string data = std::move(data_);
      data_.clear();
      has_data_ = false;
      on_event(data);
    }
    return;
  }
  if (l.front() == ':') return;  // a comment (keep-alive)
  size_t colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : l.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field != "data") return;
  if (has_data_) data_.push_back('\n');
  data_.append(value);
  has_data_ = true;
}

bool StreamAccumulator::add(const std::string& data) {
  if (error_) return false;
  if (done_) return true;  // anything after [DONE] is ignored
  if (data == "[DONE]") {
    done_ = true;
    return true;
  }
  json chunk = json::parse(data, nullptr, /*allow_exceptions=*/false);
  auto malformed = [&](std::string why) {
    LlmError e;
    e.kind = ErrorKind::kMalformedResponse;
    e.http_status = 200;
    e.detail = fmt::format("stream event {}: {}", why, data.substr(0, 200));
    error_ = std::move(e);
    return false;
  };
  if (chunk.is_discarded()) return malformed("is not JSON");
  if (!chunk.is_object()) return malformed("is not a JSON object");
  if (auto err = chunk.find("error"); err != chunk.end() && !err->is_null()) {
    error_ = classify_error_object(200, *err);
    error_->http_status = 200;
    error_->detail = "the server reported an error inside the stream, after HTTP 200";
    return false;
  }
  if (auto id = chunk.find("id"); id != chunk.end() && id->is_string() && r_.id.empty()) r_.id = *id;
  if (auto m = chunk.find("model"); m != chunk.end() && m->is_string() && r_.model.empty()) r_.model = *m;
  if (auto u = chunk.find("usage"); u != chunk.end() && u->is_object()) {
    r_.usage.reported = true;
    if (auto p = u->find("prompt_tokens"); p != u->end() && p->is_number_integer())
      r_.usage.prompt_tokens = *p;
    if (auto c = u->find("completion_tokens"); c != u->end() && c->is_number_integer())
      r_.usage.completion_tokens = *c;
  }
  auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array()) return true;  // e.g. a usage-only chunk without choices
  for (const json& choice : *choices) {
    if (!choice.is_object()) return malformed("has a choice that is not an object");
    if (auto idx = choice.find("index"); idx != choice.end() && idx->is_number_integer() && *idx != 0)
      continue;
    if (auto fr = choice.find("finish_reason"); fr != choice.end() && fr->is_string()) r_.finish_reason = *fr;
    auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object()) continue;
    if (auto c = delta->find("content"); c != delta->end() && c->is_string()) {
      content_ += c->get<std::string>();
      has_content_ = true;
    }
    if (auto ref = delta->find("refusal"); ref != delta->end() && ref->is_string())
      refusal_ += ref->get<std::string>();
    auto calls = delta->find("tool_calls");
    if (calls == delta->end() || !calls->is_array()) continue;
    for (const json& tc : *calls) {
      if (!tc.is_object()) return malformed("has a tool-call delta that is not an object");
      auto idx = tc.find("index");
      // Servers that send whole calls without an index: each is a new call.
      int index =
          idx != tc.end() && idx->is_number_integer() ? idx->get<int>() : static_cast<int>(calls_.size());
      PartialCall& p = calls_[index];
      if (auto id = tc.find("id"); id != tc.end() && id->is_string() && p.id.empty()) p.id = *id;
      if (auto fn = tc.find("function"); fn != tc.end() && fn->is_object()) {
        if (auto n = fn->find("name"); n != fn->end() && n->is_string()) {
          if (p.name.empty())
            p.name = *n;
          else if (*n != p.name)
            p.name += n->get<std::string>();  // a name split in fragments
        }
        if (auto a = fn->find("arguments"); a != fn->end()) {
          if (a->is_string())
            p.arguments += a->get<std::string>();
          else if (!a->is_null())
            p.arguments += a->dump();
        }
      }
    }
  }
  return true;
}

ChatResponse StreamAccumulator::response() const {
  ChatResponse r = r_;
  r.message.role = Role::kAssistant;
  if (has_content_) r.message.content = content_;
  if (!refusal_.empty()) r.refusal = refusal_;
  for (const auto& [index, p] : calls_) {
    ToolCall c;
    c.id = p.id;
    c.name = p.name;
    c.arguments = p.arguments;
    c.parse_arguments();
    r.message.tool_calls.push_back(std::move(c));
  }
  apply_content_filter(r);
  return r;
}

}  // namespace ucut::llm
