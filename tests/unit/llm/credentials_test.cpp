// tests/unit/llm/credentials_test.cpp — the key from the environment or a private file; redaction.
#include "llm/credentials.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "../temp_dir.h"

namespace ucut::llm {
namespace {

/// Sets or unsets variables for one test and restores them after.
class EnvGuard {
 public:
  void set(const char* name, const char* value) {
    const char* old = getenv(name);
    saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~EnvGuard() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
      if (it->second)
        setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        unsetenv(it->first.c_str());
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(LlmCredentials, FromTheDefaultVariableThenOpenAiApiKey) {
  EnvGuard env;
  env.set("UCUT_LLM_API_KEY", "sk-ucut");
  env.set("OPENAI_API_KEY", "sk-openai");
  KeyLookup k = load_api_key({});
  ASSERT_TRUE(k.key);
  EXPECT_EQ(k.key->reveal(), "sk-ucut");
  EXPECT_EQ(k.origin, "environment variable UCUT_LLM_API_KEY");
  env.set("UCUT_LLM_API_KEY", "");
  k = load_api_key({});
  ASSERT_TRUE(k.key);
  EXPECT_EQ(k.key->reveal(), "sk-openai");
  // A named variable has no fallback.
  k = load_api_key({"UCUT_TEST_NO_SUCH_VAR", ""});
  EXPECT_FALSE(k.key);
  EXPECT_TRUE(k.error.empty());
  env.set("OPENAI_API_KEY", nullptr);
  k = load_api_key({});
  EXPECT_FALSE(k.key);  // no key: fine for a local server
  EXPECT_TRUE(k.error.empty());
}

TEST(LlmCredentials, FromAPrivateFileFirstLineTrimmed) {
  ucut::testing::TempDir dir("ucut-llm");
  std::string path = dir.file("key");
  std::ofstream(path) << "  sk-file-key \nsecond line\n";
  chmod(path.c_str(), 0600);
  EnvGuard env;
  env.set("UCUT_LLM_API_KEY", "sk-env");
  KeyLookup k = load_api_key({"UCUT_LLM_API_KEY", path});
  ASSERT_TRUE(k.key) << k.error;
  EXPECT_EQ(k.key->reveal(), "sk-file-key");
  EXPECT_EQ(k.origin, "key file " + path);
}

TEST(LlmCredentials, RefusesAFileOthersCanReadNamingPathAndFix) {
  ucut::testing::TempDir dir("ucut-llm");
  std::string path = dir.file("key");
  std::ofstream(path) << "sk-secret-in-file\n";
  chmod(path.c_str(), 0644);
  KeyLookup k = load_api_key({"", path});
  EXPECT_FALSE(k.key);
  EXPECT_NE(k.error.find(path), std::string::npos) << k.error;
  EXPECT_NE(k.error.find("chmod 600 " + path), std::string::npos) << k.error;
  EXPECT_NE(k.error.find("0644"), std::string::npos) << k.error;
  EXPECT_EQ(k.error.find("sk-secret-in-file"), std::string::npos);
  chmod(path.c_str(), 0640);
  EXPECT_FALSE(load_api_key({"", path}).key);
}

TEST(LlmCredentials, MissingOrEmptyFileIsAnError) {
  ucut::testing::TempDir dir("ucut-llm");
  KeyLookup k = load_api_key({"", dir.file("absent")});
  EXPECT_FALSE(k.key);
  EXPECT_NE(k.error.find(dir.file("absent")), std::string::npos);
  EXPECT_NE(k.error.find("No such file"), std::string::npos) << k.error;
  std::string empty = dir.file("empty");
  std::ofstream(empty) << "\n";
  chmod(empty.c_str(), 0600);
  k = load_api_key({"", empty});
  EXPECT_NE(k.error.find("is empty"), std::string::npos) << k.error;
}

TEST(LlmCredentials, RedactRemovesTheSecretAndBearerTokens) {
  EXPECT_EQ(redact("key sk-abc in sk-abc!", "sk-abc"), "key [REDACTED] in [REDACTED]!");
  EXPECT_EQ(redact("got header Authorization: Bearer other-token, bye", ""),
            "got header Authorization: Bearer [REDACTED], bye");
  EXPECT_EQ(redact(R"({"auth":"bearer xyz"})", "zzz"), R"({"auth":"bearer [REDACTED]"})");
  EXPECT_EQ(redact("nothing here", "sk-abc"), "nothing here");
  EXPECT_EQ(redact("sk-abcsk-abc", "sk-abc"), "[REDACTED][REDACTED]");
}

}  // namespace
}  // namespace ucut::llm
