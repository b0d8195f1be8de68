// llm/config.cpp — reading LlmConfig from TOML.
#include "llm/config.h"

#include <fmt/format.h>

#include <cmath>

namespace ucut::llm {

namespace {

constexpr std::string_view kKeys[] = {
    "base_url",    "model",        "temperature", "max_tokens",         "timeout_s",           "stream",
    "api_key_env", "api_key_file", "max_retries", "usd_per_mtok_input", "usd_per_mtok_output", "api_key"};

struct Reader {
  const std::string& path;
  std::string_view where;
  std::string* error;

  bool fail(const toml::node& n, std::string_view key, const std::string& what) {
    if (error)
      *error = fmt::format("{}:{}:{}: `{}.{}` {}", path, n.source().begin.line, n.source().begin.column,
                           where, key, what);
    return false;
  }
  bool string(const toml::node& n, std::string_view key, std::string& out) {
    if (!n.is_string()) return fail(n, key, "must be a string; write it in quotes");
    out = *n.value<std::string>();
    return true;
  }
  bool number(const toml::node& n, std::string_view key, double lo, double hi, double& out) {
    if (!n.is_number()) return fail(n, key, fmt::format("must be a number between {} and {}", lo, hi));
    double v = *n.value<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
      return fail(n, key, fmt::format("is {}; it must be between {} and {}", v, lo, hi));
    out = v;
    return true;
  }
  bool integer(const toml::node& n, std::string_view key, int64_t lo, int64_t hi, int64_t& out) {
    if (!n.is_integer()) return fail(n, key, fmt::format("must be an integer between {} and {}", lo, hi));
    int64_t v = *n.value<int64_t>();
    if (v < lo || v > hi) return fail(n, key, fmt::format("is {}; it must be between {} and {}", v, lo, hi));
    out = v;
    return true;
  }
};

}  // namespace

std::optional<LlmConfig> read_llm_config(const toml::table& table, const std::string& path,
                                         std::string_view where, std::string* error) {
  LlmConfig c;
  Reader r{path, where, error};
  for (const auto& [k, node] : table) {
    std::string_view key = k.str();
    bool ok = true;
    double d = 0;
    int64_t i = 0;
    if (key == "api_key") {
      ok = r.fail(node, key,
                  "is not read: a key never goes in a config file; set the environment variable named by "
                  "`api_key_env` (default UCUT_LLM_API_KEY) or point `api_key_file` at a file with mode 600");
    } else if (key == "base_url") {
      ok = r.string(node, key, c.base_url);
      if (ok && c.base_url.rfind("http://", 0) != 0 && c.base_url.rfind("https://", 0) != 0)
        ok = r.fail(node, key, "must start with http:// or https:// (e.g. \"http://localhost:8000/v1\")");
      while (ok && !c.base_url.empty() && c.base_url.back() == '/') c.base_url.pop_back();
    } else if (key == "model") {
      ok = r.string(node, key, c.model);
    } else if (key == "temperature") {
      ok = r.number(node, key, 0, 2, d);
      c.temperature = d;
    } else if (key == "max_tokens") {
      ok = r.integer(node, key, 1, 10'000'000, i);
      c.max_tokens = static_cast<int>(i);
    } else if (key == "timeout_s") {
      ok = r.number(node, key, 0.001, 86400, c.timeout_s);
    } else if (key == "stream") {
      if (!node.is_boolean())
        ok = r.fail(node, key, "must be true or false");
      else
        c.stream = *node.value<bool>();
    } else if (key == "api_key_env") {
      ok = r.string(node, key, c.api_key_env);
      if (ok && c.api_key_env.empty()) ok = r.fail(node, key, "is empty; name an environment variable");
    } else if (key == "api_key_file") {
      ok = r.string(node, key, c.api_key_file);
    } else if (key == "max_retries") {
      ok = r.integer(node, key, 0, 100, i);
      c.max_retries = static_cast<int>(i);
    } else if (key == "usd_per_mtok_input") {
      ok = r.number(node, key, 0, 1e6, c.usd_per_mtok_input);
    } else if (key == "usd_per_mtok_output") {
      ok = r.number(node, key, 0, 1e6, c.usd_per_mtok_output);
    } else {
      std::string known;
      for (std::string_view kk : kKeys)
        if (kk != "api_key") known += (known.empty() ? "" : ", ") + std::string(kk);
      ok = r.fail(node, key, fmt::format("is not a setting; the settings are {}", known));
    }
    if (!ok) return std::nullopt;
  }
  return c;
}

std::optional<LlmConfig> load_llm_config(const std::string& path, std::string_view where, bool required,
                                         std::string* error) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    if (error)
      *error =
          fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column, e.description());
    return std::nullopt;
  }
  const toml::node* node = root.at_path(where).node();
  if (!node) {
    if (!required) return LlmConfig{};
    if (error)
      *error = fmt::format("{}: no `[{}]` table; add one with at least `model = \"...\"`", path, where);
    return std::nullopt;
  }
  const toml::table* t = node->as_table();
  if (!t) {
    if (error)
      *error = fmt::format("{}:{}:{}: `{}` must be a table `[{}]`", path, node->source().begin.line,
                           node->source().begin.column, where, where);
    return std::nullopt;
  }
  return read_llm_config(*t, path, where, error);
}

}  // namespace ucut::llm
