// tests/unit/agent/model_tools_test.cpp — agent/model_tools.h: the tool table as a model's function calls,
// and refused calls answered as error replies the model can read.
#include "agent/model_tools.h"

#include <gtest/gtest.h>

#include "../test_paths.h"
#include "support/files.h"

namespace ucut::agent {
namespace {

ToolContext context() {
  ToolContext ctx;
  ctx.suites_dir = ucut::test_paths::source_dir() + "/suites";
  ctx.profile.measure.worker = "/nonexistent/ucutlass-worker";
  return ctx;
}

TEST(ModelTools, EveryRowOfTheTableIsAFunctionSpec) {
  std::vector<llm::ToolSpec> specs = model_tool_specs();
  ASSERT_EQ(specs.size(), tools().size());
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(specs[i].name, tools()[i].name);
    EXPECT_EQ(specs[i].parameters, tools()[i].input_schema);
    EXPECT_NE(model_tools_text().find("- `" + specs[i].name + "`: "), std::string::npos);
  }
}

TEST(ModelTools, RefusedCallsAreErrorRepliesNotExceptions) {
  mantis::ToolReply unknown = call_tool_for_model("compile_fast", {}, context());
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("unknown tool `compile_fast`"), std::string::npos) << unknown.text;
  mantis::ToolReply bad = call_tool_for_model("check", {{"spec", 3}}, context());
  EXPECT_TRUE(bad.is_error);
  EXPECT_NE(bad.text.find("tool `check`"), std::string::npos) << bad.text;
  std::string spec = *read_file(ucut::test_paths::source_dir() + "/examples/gemm_tf32.ucut");
  mantis::ToolReply ok = call_tool_for_model("check", {{"spec", spec}}, context());
  EXPECT_FALSE(ok.is_error) << ok.text;
  EXPECT_NE(ok.text.find("config_hash"), std::string::npos);
}

}  // namespace
}  // namespace ucut::agent
