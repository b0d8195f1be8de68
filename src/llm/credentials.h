// llm/credentials.h — the API key: read only from an environment variable or a private key file, kept in a
// type that never prints it, and redact(), which every string leaving the client goes through (servers echo
// headers).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ucut::llm {

inline constexpr const char* kDefaultKeyEnv = "UCUT_LLM_API_KEY";
inline constexpr const char* kFallbackKeyEnv = "OPENAI_API_KEY";

/// Where the key comes from. A key file, when set, is the only source; otherwise `env_var`, and when that is
/// the default and unset, OPENAI_API_KEY.
struct KeySource {
  std::string env_var = kDefaultKeyEnv;
  std::string file;  ///< "" = none
};

/// A secret. No operator<<, no to_json: reveal() is called once, to build the Authorization header.
class ApiKey {
 public:
  explicit ApiKey(std::string value) : value_(std::move(value)) {}
  const std::string& reveal() const { return value_; }

 private:
  std::string value_;
};

struct KeyLookup {
  std::optional<ApiKey> key;  ///< nullopt: no key (fine for local servers) or an error
  std::string origin;         ///< "environment variable X" / "key file P": where it came from, never what
  std::string error;          ///< why the configured source is unusable ("" = none)
};

/// Looks the key up. An unset or empty variable is no key; an unreadable key file, an empty one, or one that
/// group or others can access, is an error naming the path and the fix.
KeyLookup load_api_key(const KeySource& source);

/// `text` with every occurrence of `secret` replaced by "[REDACTED]", and the token after any "Bearer " too.
/// An empty secret only does the latter.
std::string redact(std::string_view text, std::string_view secret);

}  // namespace ucut::llm
