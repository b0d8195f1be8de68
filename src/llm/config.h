// llm/config.h — the client's settings (server, model, sampling, timeout, key source, retries, prices) and
// reading them from a TOML table, e.g. `[llm]` in a project file. A bad value is an error naming the file,
// the line, the key and the fix.
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <string_view>

namespace ucut::llm {

struct LlmConfig {
  std::string base_url = "http://localhost:8000/v1";  ///< POSTs go to base_url + "/chat/completions"
  std::string model;                                  ///< required to call
  std::optional<double> temperature;                  ///< unset = the server's default
  std::optional<int> max_tokens;                      ///< unset = the server's default
  double timeout_s = 600;                             ///< per call (each attempt), connection to last byte
  bool stream = false;
  std::string api_key_env = "UCUT_LLM_API_KEY";  ///< also OPENAI_API_KEY when this is the default and unset
  std::string api_key_file;                      ///< "" = none; when set, the only source of the key
  int max_retries = 2;
  double usd_per_mtok_input = 0;   ///< price per million prompt tokens
  double usd_per_mtok_output = 0;  ///< price per million completion tokens
};

/// Reads `table` (found at `where`, e.g. "llm", in file `path`) over the defaults. nullopt with `error` set
/// to "PATH:LINE:COL: `llm.KEY` ...; fix" on the first bad or unknown key.
std::optional<LlmConfig> read_llm_config(const toml::table& table, const std::string& path,
                                         std::string_view where, std::string* error);

/// Parses the TOML file `path` and reads its table `where` (absent = all defaults, unless `required`).
std::optional<LlmConfig> load_llm_config(const std::string& path, std::string_view where, bool required,
                                         std::string* error);

}  // namespace ucut::llm
