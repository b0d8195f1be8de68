// tests/unit/llm/config_test.cpp — reading [llm] from TOML, and what a bad value says.
#include "llm/config.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../temp_dir.h"

namespace ucut::llm {
namespace {

std::optional<LlmConfig> load(const std::string& text, std::string* error) {
  ucut::testing::TempDir dir("ucut-llm");
  std::string path = dir.file("agent.toml");
  std::ofstream(path) << text;
  std::optional<LlmConfig> c = load_llm_config(path, "llm", true, error);
  if (error) {
    size_t at = error->find(path);
    if (at != std::string::npos) error->replace(at, path.size(), "agent.toml");
  }
  return c;
}

TEST(LlmConfig, ReadsEverySetting) {
  std::string err;
  auto c = load(R"([llm]
base_url = "https://api.example.com/v1/"
model = "gpt-x"
temperature = 0.3
max_tokens = 2048
timeout_s = 30
stream = true
api_key_env = "MY_KEY"
api_key_file = "/home/me/.key"
max_retries = 5
usd_per_mtok_input = 2.5
usd_per_mtok_output = 10
)",
                &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->base_url, "https://api.example.com/v1");
  EXPECT_EQ(c->model, "gpt-x");
  EXPECT_EQ(c->temperature, 0.3);
  EXPECT_EQ(c->max_tokens, 2048);
  EXPECT_EQ(c->timeout_s, 30);
  EXPECT_TRUE(c->stream);
  EXPECT_EQ(c->api_key_env, "MY_KEY");
  EXPECT_EQ(c->api_key_file, "/home/me/.key");
  EXPECT_EQ(c->max_retries, 5);
  EXPECT_EQ(c->usd_per_mtok_output, 10);
}

TEST(LlmConfig, DefaultsWhenTheTableIsEmpty) {
  std::string err;
  auto c = load("[llm]\n", &err);
  ASSERT_TRUE(c) << err;
  EXPECT_EQ(c->base_url, "http://localhost:8000/v1");
  EXPECT_EQ(c->max_retries, 2);
  EXPECT_EQ(c->api_key_env, "UCUT_LLM_API_KEY");
  EXPECT_FALSE(c->stream);
}

TEST(LlmConfig, BadValuesNameFileLineKeyAndFix) {
  std::string err;
  EXPECT_FALSE(load("[llm]\nmodel = \"m\"\ntimeout_s = -1\n", &err));
  EXPECT_EQ(err, "agent.toml:3:13: `llm.timeout_s` is -1; it must be between 0.001 and 86400");
  EXPECT_FALSE(load("[llm]\nmodle = \"m\"\n", &err));
  EXPECT_NE(err.find("`llm.modle` is not a setting; the settings are base_url, model,"), std::string::npos)
      << err;
  EXPECT_FALSE(load("[llm]\napi_key = \"sk-x\"\n", &err));
  EXPECT_NE(err.find("never goes in a config file"), std::string::npos) << err;
  EXPECT_EQ(err.find("sk-x"), std::string::npos);
  EXPECT_FALSE(load("[llm]\nbase_url = \"localhost:8000\"\n", &err));
  EXPECT_NE(err.find("must start with http://"), std::string::npos) << err;
  EXPECT_FALSE(load("[llm]\nstream = \"yes\"\n", &err));
  EXPECT_NE(err.find("`llm.stream` must be true or false"), std::string::npos) << err;
  EXPECT_FALSE(load("[other]\n", &err));
  EXPECT_NE(err.find("no `[llm]` table"), std::string::npos) << err;
  EXPECT_FALSE(load("[llm\n", &err));
  EXPECT_EQ(err.rfind("agent.toml:1:", 0), 0u) << err;
}

}  // namespace
}  // namespace ucut::llm
