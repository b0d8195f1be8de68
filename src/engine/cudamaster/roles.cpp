// engine/cudamaster/roles.cpp — see roles.h.
#include "engine/cudamaster/roles.h"

#include <fmt/format.h>

namespace ucut::engine::cudamaster {
namespace {

/// The reply's text, or why there is none: a refusal or a call that failed.
void read_reply(const LedgerReply& r, const char* role, RoleAnswer& a, std::string* text) {
  a.tokens += r.tokens;
  ++a.calls;
  if (!r.ok())
    a.call_error = fmt::format("the {} call failed: {}", role, r.error);
  else if (r.response->refusal)
    a.failure = fmt::format("the {} refused: {}", role, *r.response->refusal);
  else
    *text = r.response->message.content.value_or("");
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::optional<std::string> fenced_code(const std::string& text) {
  std::optional<std::string> first;
  for (size_t open = text.find("```"); open != std::string::npos;) {
    size_t eol = text.find('\n', open);
    if (eol == std::string::npos) break;
    std::string tag = trim(text.substr(open + 3, eol - open - 3));
    size_t close = text.find("\n```", eol);
    if (close == std::string::npos) break;
    std::string body = text.substr(eol + 1, close - eol);
    if (tag == "cuda" || tag == "cu" || tag == "cpp" || tag == "c++" || tag == "c") return body;
    if (!first) first = body;
    size_t after = text.find('\n', close + 4);
    open = after == std::string::npos ? std::string::npos : text.find("```", after);
  }
  return first;
}

Roles::Roles(ModelLedger& ledger, const llm::PromptPack& pack, CallSite site, int json_repairs,
             int code_repairs)
    : ledger_(ledger),
      pack_(pack),
      site_(std::move(site)),
      json_repairs_(json_repairs),
      code_repairs_(code_repairs) {}

LedgerReply Roles::call(const char* role, const std::vector<llm::Message>& messages) {
  CallSite site = site_;
  site.role = role;
  llm::ChatRequest request;
  request.messages = messages;
  LedgerReply r = ledger_.call(site, next_seq_[role], request);
  next_seq_[role] = r.seq + 1;
  return r;
}

RoleAnswer Roles::ask_text(const char* role, const std::string& prompt) {
  RoleAnswer a;
  read_reply(call(role, {llm::Message::user(prompt)}), role, a, &a.text);
  if (a.call_error.empty() && a.failure.empty() && trim(a.text).empty())
    a.failure = fmt::format("the {} answered nothing", role);
  return a;
}

RoleAnswer Roles::plan(const PlannerSlots& s) {
  return ask_text(kPlanner, pack_.render("planner.md", {{"task", s.task},
                                                        {"code", s.code},
                                                        {"profile", s.profile},
                                                        {"former_plans", s.former_plans},
                                                        {"gpu", s.gpu}}));
}

RoleAnswer Roles::debug(const DebugSlots& s) {
  return ask_text(kDebug, pack_.render("debug.md", {{"task", s.task},
                                                    {"code", s.code},
                                                    {"stage", s.stage},
                                                    {"error", s.error},
                                                    {"attempt", s.attempt}}));
}

RoleAnswer Roles::code(const CoderSlots& s) {
  RoleAnswer a;
  std::vector<llm::Message> messages = {
      llm::Message::user(pack_.render("coder.md", {{"task", s.task},
                                                   {"signature", s.signature},
                                                   {"code", s.code},
                                                   {"scheme", s.scheme},
                                                   {"fix", s.fix}}))};
  for (int round = 0;; ++round) {
    std::string text;
    read_reply(call(kCoder, messages), kCoder, a, &text);
    if (!a.call_error.empty() || !a.failure.empty()) return a;
    if (std::optional<std::string> file = fenced_code(text); file && !trim(*file).empty()) {
      a.text = *file;
      return a;
    }
    if (round >= code_repairs_) {
      a.failure = "the coder's answer holds no fenced file";
      return a;
    }
    messages.push_back({llm::Role::kAssistant, text, {}, {}});
    messages.push_back(
        llm::Message::user("That answer cannot be used: it holds no fenced ```cuda block. Answer with the "
                           "whole file in one fenced "
                           "```cuda block."));
  }
}

RoleAnswer Roles::compile(const CompilerSlots& s, const std::vector<std::string>& defaults) {
  CallSite site = site_;
  site.role = kCompiler;
  std::vector<llm::Message> messages = {
      llm::Message::user(pack_.render("compiler.md", {{"arch", s.arch},
                                                      {"code", s.code},
                                                      {"default_flags", s.default_flags},
                                                      {"allowed", allowed_compiler_flags()}}))};
  JsonReply r = ask_json(ledger_, site, messages, pack_.schemas.at("schemas/compiler.schema.json"),
                         json_repairs_, next_seq_[kCompiler]);
  next_seq_[kCompiler] = r.next_seq;
  RoleAnswer a;
  a.tokens = r.tokens;
  a.calls = r.calls;
  if (!r.value) {
    (r.call_failed ? a.call_error : a.failure) = r.error;
    return a;
  }
  a.flags = choose_compiler_flags((*r.value)["flags"].get<std::vector<std::string>>(), defaults);
  a.reason = (*r.value)["reason"].get<std::string>();
  return a;
}

}  // namespace ucut::engine::cudamaster
