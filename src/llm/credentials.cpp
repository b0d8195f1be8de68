// llm/credentials.cpp — the key lookup and redaction.
#include "llm/credentials.h"

#include <fmt/format.h>
#include <strings.h>
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace ucut::llm {

namespace {

std::string trim(std::string s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::optional<std::string> env(const std::string& name) {
  const char* v = name.empty() ? nullptr : std::getenv(name.c_str());
  if (!v) return std::nullopt;
  std::string s = trim(v);
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

KeyLookup load_api_key(const KeySource& source) {
  KeyLookup out;
  if (!source.file.empty()) {
    const std::string& path = source.file;
    out.origin = "key file " + path;
    struct stat st = {};
    if (stat(path.c_str(), &st) != 0) {
      out.error = fmt::format("cannot read the API key file {}: {}", path, std::strerror(errno));
      return out;
    }
    if (!S_ISREG(st.st_mode)) {
      out.error = fmt::format("the API key file {} is not a regular file", path);
      return out;
    }
    if (st.st_mode & 077) {
      out.error = fmt::format(
          "the API key file {} can be read by group or others (mode {:04o}); make it private "
          "with `chmod 600 {}`",
          path, st.st_mode & 07777, path);
      return out;
    }
    std::ifstream in(path);
    if (!in.is_open()) {
      out.error = fmt::format("cannot read the API key file {}: {}", path, std::strerror(errno));
      return out;
    }
    std::string line;
    std::getline(in, line);
    line = trim(line);
    if (line.empty()) {
      out.error = fmt::format("the API key file {} is empty: put the key on its first line", path);
      return out;
    }
    out.key.emplace(std::move(line));
    return out;
  }
  std::string name = source.env_var.empty() ? kDefaultKeyEnv : source.env_var;
  if (auto v = env(name)) {
    out.origin = "environment variable " + name;
    out.key.emplace(std::move(*v));
    return out;
  }
  if (name == kDefaultKeyEnv)
    if (auto v = env(kFallbackKeyEnv)) {
      out.origin = std::string("environment variable ") + kFallbackKeyEnv;
      out.key.emplace(std::move(*v));
      return out;
    }
  return out;  // no key: no Authorization header
}

std::string redact(std::string_view text, std::string_view secret) {
  static constexpr std::string_view kMask = "[REDACTED]";
  std::string s(text);
  if (!secret.empty())
    for (size_t at = s.find(secret); at != std::string::npos; at = s.find(secret, at + kMask.size()))
      s.replace(at, secret.size(), kMask);
  // Any bearer token, ours or not, whatever its case ("bearer", "BEARER").
  for (size_t at = 0; at + 7 <= s.size(); ++at) {
    if (strncasecmp(s.c_str() + at, "bearer ", 7) != 0) continue;
    size_t b = at + 7;
    while (b < s.size() && s[b] == ' ') ++b;
    size_t e = b;
    while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e])) && s[e] != '"' && s[e] != '\'' &&
           s[e] != ',' && s[e] != '}')
      ++e;
    if (e > b && s.compare(b, e - b, kMask) != 0) s.replace(b, e - b, kMask);
    at = b;
  }
  return s;
}

}  // namespace ucut::llm
