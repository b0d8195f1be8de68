// cli/cmd_llm.cpp — `ucutlass llm ping`: is the configured model endpoint reachable, and can its model call a
// tool? One chat call and, with --tools, one call in which the model must call the `check` tool
// (agent/tools.h) with arguments its schema accepts; each with what it cost. The key is never printed
// (llm/credentials.h).
#include <fmt/format.h>

#include <iostream>

#include "llm/schema_check.h"
#include "agent/tools.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "llm/client.h"
#include "support/embedded.h"

namespace ucut::cli {
namespace {

struct PingOptions {
  std::string config, table = "llm", base_url, model;
  bool tools = false, json = false;
};

/// The call's outcome as the report shows it: ok, the record, and the reply or the error.
nlohmann::json outcome(const llm::CallResult& r) {
  nlohmann::json j = {{"ok", r.ok()}, {"record", r.record.to_json()}};
  if (r.error) j["error"] = r.error->message();
  if (r.response) {
    j["model"] = r.response->model;
    j["finish_reason"] = r.response->finish_reason;
    j["reply"] = r.response->message.content.value_or("");
    if (r.response->refusal) j["refusal"] = *r.response->refusal;
  }
  return j;
}

nlohmann::json chat_check(llm::Client& client) {
  llm::ChatRequest req;
  req.messages = {llm::Message::system("You answer connectivity checks tersely."),
                  llm::Message::user("Reply with the single word: ok")};
  if (!client.config().max_tokens) req.max_tokens = 16;
  if (!client.config().temperature) req.temperature = 0;
  llm::CallResult r = client.complete(req);
  nlohmann::json j = outcome(r);
  if (r.ok() && r.response->refusal) {
    j["ok"] = false;
    j["error"] = "the model refused: " + *r.response->refusal;
  }
  return j;
}

/// The model must call `check` on an example spec, with arguments the tool's schema accepts.
nlohmann::json tool_check(llm::Client& client) {
  const agent::ToolInfo& check = *std::find_if(agent::tools().begin(), agent::tools().end(),
                                               [](const agent::ToolInfo& t) { return t.name == "check"; });
  llm::ChatRequest req;
  req.tools = {{check.name, check.description, check.input_schema}};
  req.tool_choice = llm::ToolChoice{llm::ToolChoiceMode::kRequired, ""};
  req.messages = {llm::Message::user(fmt::format("Check this μCUTLASS spec with the check tool:\n\n{}",
                                                 *embedded_path("examples/gemm_bias_relu.ucut")))};
  if (!client.config().temperature) req.temperature = 0;
  llm::CallResult r = client.complete(req);
  nlohmann::json j = outcome(r);
  if (!r.ok()) return j;
  std::string problem;
  if (!r.response->called_tools()) {
    problem = "the model called no tool (the server may need tool calling switched on: docs/agents.md)";
  } else {
    const llm::ToolCall& call = r.response->message.tool_calls.front();
    j["tool"] = call.name;
    j["arguments"] = call.arguments;
    if (call.name != check.name)
      problem = fmt::format("the model called `{}`, a tool it was not offered", call.name);
    else if (!call.arguments_ok())
      problem = "the arguments are not a JSON object: " + call.arguments_error;
    else if (auto v = llm::schema_violation(check.input_schema, *call.parsed_arguments))
      problem = "the arguments break the tool's schema: " + *v;
  }
  if (!problem.empty()) {
    j["ok"] = false;
    j["error"] = problem;
  }
  return j;
}

std::string summary(const nlohmann::json& j) {
  const nlohmann::json& rec = j["record"];
  std::string cost =
      fmt::format("{} attempt{}, {} + {} tokens, ${:.6f}, {:.2f} s", rec.value("attempts", 0),
                  rec.value("attempts", 0) == 1 ? "" : "s", rec.value("prompt_tokens", 0),
                  rec.value("completion_tokens", 0), rec.value("cost_usd", 0.0), rec.value("wall_s", 0.0));
  if (!j["ok"].get<bool>()) return fmt::format("FAILED: {} ({})", j.value("error", ""), cost);
  if (j.contains("tool"))
    return fmt::format("ok: {}({}) ({})", j["tool"].get<std::string>(), j["arguments"].get<std::string>(),
                       cost);
  return fmt::format("ok: \"{}\" ({}; {})", j.value("reply", ""), j.value("finish_reason", ""), cost);
}

int ping(const PingOptions& o) {
  llm::LlmConfig config;
  if (!o.config.empty()) {
    std::string error;
    std::optional<llm::LlmConfig> read = llm::load_llm_config(o.config, o.table, true, &error);
    if (!read) {
      std::cerr << "ucutlass llm ping: " << error << "\n";
      return kUsage;
    }
    config = *read;
  }
  if (!o.base_url.empty()) config.base_url = o.base_url;
  if (!o.model.empty()) config.model = o.model;
  if (config.model.empty()) {
    std::cerr << "ucutlass llm ping: no model: set `model` in the [" << o.table
              << "] table of --config, or pass --model\n";
    return kUsage;
  }
  std::optional<llm::Client> client;
  try {
    client.emplace(config);
  } catch (const llm::SetupError& e) {
    std::cerr << "ucutlass llm ping: " << e.what() << "\n";
    return kUsage;
  }
  nlohmann::json report = {{"endpoint", client->endpoint()},
                           {"model", config.model},
                           {"key", client->key_origin().empty() ? "none" : client->key_origin()},
                           {"chat", chat_check(*client)}};
  if (o.tools) report["tools"] = tool_check(*client);
  bool ok = report["chat"]["ok"].get<bool>() && (!o.tools || report["tools"]["ok"].get<bool>());
  report["ok"] = ok;
  if (o.json) {
    std::cout << json_text(report);
  } else {
    std::cout << "endpoint  " << report["endpoint"].get<std::string>() << " (model " << config.model
              << "; key: " << report["key"].get<std::string>() << ")\n";
    std::cout << "chat      " << summary(report["chat"]) << "\n";
    if (o.tools) std::cout << "tools     " << summary(report["tools"]) << "\n";
  }
  return ok ? kOk : kRunFailed;
}

}  // namespace

Command llm_command() {
  return {
      "llm", "check a model endpoint for the agents: `llm ping` (docs/agents.md)", [](CLI::App& sub) {
        auto o = std::make_shared<PingOptions>();
        sub.require_subcommand(1);
        CLI::App* p = sub.add_subcommand(
            "ping",
            "one chat call (and with --tools one tool call) to the configured endpoint, with its cost");
        p->add_option("--config", o->config,
                      "a TOML file whose [llm] table configures the client: base_url, model, temperature, "
                      "max_tokens, timeout_s, stream, api_key_env, api_key_file, max_retries, "
                      "usd_per_mtok_input, usd_per_mtok_output (docs/agents.md)");
        p->add_option("--table", o->table, "the table of --config to read (default llm)");
        p->add_option(
            "--base-url", o->base_url,
            "the server's OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (over --config)");
        p->add_option("--model", o->model, "the model id the server serves (over --config)");
        p->add_flag("--tools", o->tools,
                    "also ask the model to call the `check` tool: its call must name it and pass arguments "
                    "its schema accepts");
        p->add_flag("--json", o->json, "answer as JSON: endpoint, model, key origin, each call's outcome");
        p->footer(
            "The API key comes from $UCUT_LLM_API_KEY (else $OPENAI_API_KEY) or api_key_file, never from "
            "the command line, and is never printed.\nExit 0 when every call succeeded, 5 when one failed, "
            "2 for a bad configuration.");
        return [o]() -> int { return ping(*o); };
      }};
}

}  // namespace ucut::cli
