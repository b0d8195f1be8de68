// tests/unit/agent/tools_test.cpp — the tool table (agent/tools.h) on real specs and suite problems.
#include "agent/tools.h"

#include <gtest/gtest.h>

#include <set>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "store/workspace.h"
#include "support/files.h"

namespace ucut::agent {
namespace {

using nlohmann::json;

ToolContext context() {
  ToolContext ctx;
  ctx.suites_dir = ucut::test_paths::source_dir() + "/suites";
  ctx.profile.measure.worker = "/nonexistent/ucutlass-worker";  // no GPU tools here, whatever the machine has
  ctx.profile.ncu = "/nonexistent/ncu";
  return ctx;
}

std::string example(const std::string& name) {
  return *read_file(ucut::test_paths::source_dir() + "/examples/" + name);
}

/// gemm_tf32 with a threadblock tile no MMA divides.
std::string broken_spec() {
  std::string s = example("gemm_tf32.ucut");
  s.replace(s.find("with_threadblockshape(128, 128, 32)"), 35, "with_threadblockshape(100, 128, 32)");
  return s;
}

TEST(AgentTools, EveryToolIsDescribedWithAnObjectSchema) {
  std::set<std::string> names;
  for (const ToolInfo& t : tools()) {
    names.insert(t.name);
    EXPECT_FALSE(t.description.empty()) << t.name;
    EXPECT_FALSE(t.title.empty()) << t.name;
    EXPECT_EQ(t.input_schema.value("type", ""), "object") << t.name;
    EXPECT_EQ(t.input_schema.value("additionalProperties", true), false) << t.name;
  }
  EXPECT_EQ(names,
            (std::set<std::string>{"check", "compile", "sol", "problem", "run", "profile", "lessons"}));
}

TEST(AgentTools, CheckAnswersCleanForAValidExample) {
  ToolResult r = call_tool("check", {{"spec", example("gemm_tf32.ucut")}}, context());
  EXPECT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured["ok"], true);
  EXPECT_TRUE(r.structured.contains("config_hash"));
  EXPECT_FALSE(r.structured.contains("code"));
}

TEST(AgentTools, CheckNamesTheRuleOfAnError) {
  ToolResult r = call_tool("check", {{"spec", broken_spec()}}, context());
  ASSERT_TRUE(r.is_error);
  EXPECT_EQ(r.structured["ok"], false);
  ASSERT_FALSE(r.structured["diagnostics"].empty());
  std::string rule = r.structured["diagnostics"][0]["rule"];
  EXPECT_NE(r.text.find(rule + ":"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("4:"), std::string::npos) << r.text;  // line:col of the tile
}

TEST(AgentTools, CompileReturnsCodeWhenAsked) {
  ToolResult r =
      call_tool("compile", {{"spec", example("gemm_tf32.ucut")}, {"include_code", true}}, context());
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.structured["code"].get<std::string>().find("cutlass"), std::string::npos);
  ToolResult plain = call_tool("compile", {{"spec", example("gemm_tf32.ucut")}}, context());
  EXPECT_FALSE(plain.structured.contains("code"));
  EXPECT_TRUE(call_tool("compile", {{"spec", broken_spec()}}, context()).is_error);
}

TEST(AgentTools, SolOfASuiteProblemByName) {
  ToolResult r = call_tool("sol", {{"problem", "L1_001_square_matmul"}, {"gpu", "h100_sxm"}}, context());
  ASSERT_FALSE(r.is_error) << r.text;
  EXPECT_NE(r.text.find("L1_001_square_matmul"), std::string::npos);
  EXPECT_TRUE(call_tool("sol", {{"problem", "L1_999_nothing"}}, context()).is_error);
  EXPECT_TRUE(call_tool("sol", {{"problem", "L1_001_square_matmul"}, {"gpu", "nogpu"}}, context()).is_error);
}

TEST(AgentTools, SolOfProblemText) {
  std::string text =
      *read_file(ucut::test_paths::source_dir() + "/suites/kernelbench/level1/L1_001_square_matmul.toml");
  ToolResult r = call_tool("sol", {{"problem", text}}, context());
  EXPECT_FALSE(r.is_error) << r.text;
}

TEST(AgentTools, SolOfAProblemFileWhosePathHasAnEqualsSign) {
  // A path is read as a path before anything with `=` in it is taken for TOML text.
  ucut::testing::TempDir dir("ucut-tools-path");
  std::string path = dir.file("shape=4096.toml");
  std::filesystem::copy_file(
      ucut::test_paths::source_dir() + "/suites/kernelbench/level1/L1_001_square_matmul.toml", path);
  ToolResult r = call_tool("sol", {{"problem", path}}, context());
  EXPECT_FALSE(r.is_error) << r.text;
  EXPECT_EQ(r.structured["problem"], "shape=4096") << r.text;  // the file's own name, not a temporary copy's
}

TEST(AgentTools, ProblemListsAndDescribes) {
  ToolResult list = call_tool("problem", json::object(), context());
  ASSERT_FALSE(list.is_error) << list.text;
  bool found = false;
  for (const json& p : list.structured["problems"])
    if (p["name"] == "L1_001_square_matmul") found = !p["family"].get<std::string>().empty();
  EXPECT_TRUE(found);
  ToolResult one = call_tool("problem", {{"name", "L1_001_square_matmul"}}, context());
  ASSERT_FALSE(one.is_error) << one.text;
  EXPECT_EQ(one.structured["problem"], "L1_001_square_matmul");
  EXPECT_GT(one.structured["flops"].get<double>(), 0);
  EXPECT_TRUE(one.structured.contains("tolerance"));
  EXPECT_TRUE(call_tool("problem", {{"name", "nope"}}, context()).is_error);
}

TEST(AgentTools, RunAndProfileWithoutAGpuAreCleanErrors) {
  json args = {{"spec", example("gemm_tf32.ucut")}, {"problem", "L1_001_square_matmul"}, {"trials", 5}};
  ToolResult r = call_tool("run", args, context());
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("cannot time a kernel on this machine"), std::string::npos) << r.text;
  args.erase("trials");
  ToolResult p = call_tool("profile", args, context());
  EXPECT_TRUE(p.is_error);
  EXPECT_NE(p.text.find("cannot profile a kernel on this machine"), std::string::npos) << p.text;
  // A spec with errors is answered before the GPU is looked for.
  ToolResult bad =
      call_tool("run", {{"spec", broken_spec()}, {"problem", "L1_001_square_matmul"}}, context());
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.structured["ok"], false);
}

TEST(AgentTools, LessonsOfAMissingWorkspaceNameThePath) {
  ToolResult r = call_tool("lessons", {{"workspace", "/nonexistent/ws.db"}}, context());
  EXPECT_TRUE(r.is_error);
  EXPECT_NE(r.text.find("/nonexistent/ws.db"), std::string::npos);
  testing::TempDir dir;
  ASSERT_TRUE(write_file(dir.file("junk.db"), "not a database"));
  ToolResult junk = call_tool("lessons", {{"workspace", dir.file("junk.db")}}, context());
  EXPECT_TRUE(junk.is_error);
  EXPECT_NE(junk.text.find(dir.file("junk.db")), std::string::npos) << junk.text;
}

TEST(AgentTools, LessonsOfAWorkspace) {
  testing::TempDir dir;
  {
    store::Workspace ws = store::Workspace::open(dir.file("w.db"));
    store::ProblemRow p;
    p.id = "L1_001_square_matmul";
    p.family = "gemm";
    ws.upsert_problem(p);
    store::RunRow run;
    run.command = "ucutlass optimize";
    store::LessonRow l;
    l.run_id = ws.begin_run(run);
    l.family = "gemm";
    l.text = "a 128x256 tile was 1.2x faster, as expected";
    l.move_json = R"({"tile": [128, 256, 64]})";
    l.problem_id = p.id;
    ws.add_lesson(l);
  }
  ToolResult all = call_tool("lessons", {{"workspace", dir.file("w.db")}}, context());
  ASSERT_FALSE(all.is_error) << all.text;
  ASSERT_EQ(all.structured["lessons"].size(), 1u);
  EXPECT_EQ(all.structured["lessons"][0]["move"]["tile"][1], 256);
  ToolResult conv = call_tool("lessons", {{"workspace", dir.file("w.db")}, {"family", "conv"}}, context());
  EXPECT_TRUE(conv.structured["lessons"].empty());
}

TEST(AgentTools, UnknownToolsAndBadArgumentsAreCallErrors) {
  EXPECT_THROW(call_tool("nope", json::object(), context()), ToolCallError);
  EXPECT_THROW(call_tool("check", json::object(), context()), ToolCallError);
  EXPECT_THROW(call_tool("check", {{"spec", 3}}, context()), ToolCallError);
  EXPECT_THROW(call_tool("check", {{"spec", "x"}, {"extra", 1}}, context()), ToolCallError);
  EXPECT_THROW(call_tool("run", {{"spec", "x"}, {"problem", "p"}, {"trials", 0}}, context()), ToolCallError);
}

}  // namespace
}  // namespace ucut::agent
