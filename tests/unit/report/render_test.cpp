// tests/unit/report/render_test.cpp — the three renderings of a report (report/html.h, markdown.h, json.h):
// the page is deterministic, self-contained, escaped and has one <svg> per chart; Markdown and JSON agree
// with it; a run's model calls are one sentence under the runs, absent when no run called a model.
#include <gtest/gtest.h>

#include "report/format.h"
#include "report/html.h"
#include "report/json.h"
#include "report/markdown.h"
#include "report_fixture.h"

namespace ucut::report {
namespace {

using testing::TempDir;

RooflineGpu test_gpu() { return {"testgpu", "Test GPU <1>", 100, 200, 1}; }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

WorkspaceReport suite_report(const std::string& file) {
  store::Workspace ws = store::Workspace::open(file);
  testing::suite_workspace(ws);
  return build_report(ws, test_gpu());
}

TEST(ReportHtml, DeterministicAndSelfContained) {
  TempDir dir;
  WorkspaceReport r = suite_report(dir.file("w.db"));
  std::string page = render_html(r);
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  EXPECT_EQ(page, render_html(build_report(ws, test_gpu())));
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<style>"), std::string::npos);
  EXPECT_NE(page.find("Test GPU &lt;1&gt;"), std::string::npos);
  EXPECT_NE(page.find("unfinished"), std::string::npos);
}

TEST(ReportHtml, OneSvgPerChart) {
  TempDir dir;
  std::string page = render_html(suite_report(dir.file("w.db")));
  // fast_p, attempt-fast_p, Pareto frontier, roofline.
  EXPECT_EQ(count(page, "<svg"), 4u);
  EXPECT_EQ(count(page, "</svg>"), 4u);
  EXPECT_NE(page.find("TF32 roof 100 TFLOP/s"), std::string::npos);
  EXPECT_NE(page.find("FP16 roof 200 TFLOP/s"), std::string::npos);

  // Without data every chart is still there, saying so.
  store::Workspace empty = store::Workspace::open(dir.file("empty.db"));
  std::string blank = render_html(build_report(empty, std::nullopt));
  EXPECT_EQ(count(blank, "<svg"), 4u);
  EXPECT_NE(blank.find("No GPU given"), std::string::npos);
}

TEST(ReportHtml, EscapesProblemIds) {
  TempDir dir;
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  ws.upsert_problem(testing::problem("bad<&>id", 2.0));
  int64_t run = ws.begin_run({});
  testing::add_attempt(ws, run, "bad<&>id", store::AttemptStatus::measured, 1.0, false, 10, 1, 0, "seed");
  std::string page = render_html(build_report(ws, test_gpu()));
  EXPECT_EQ(page.find("bad<&>id"), std::string::npos);
  EXPECT_NE(page.find("bad&lt;&amp;&gt;id"), std::string::npos);
}

TEST(ReportMarkdownJson, CarryTheSameFigures) {
  TempDir dir;
  WorkspaceReport r = suite_report(dir.file("w.db"));
  std::string md = render_markdown(r);
  nlohmann::json j = report_json(r);
  EXPECT_DOUBLE_EQ(j["summary"]["geomean_filtered"].get<double>(), r.geomean_filtered);
  EXPECT_DOUBLE_EQ(j["summary"]["geomean_unfiltered"].get<double>(), r.geomean_unfiltered);
  EXPECT_NE(md.find("**" + times_text(r.geomean_filtered) + "** integrity-filtered"), std::string::npos);
  EXPECT_NE(render_html(r).find("<b>" + times_text(r.geomean_filtered) + "</b>"), std::string::npos);
  EXPECT_NE(md.find("| 1.5 | 33% | 33% |"), std::string::npos);
  EXPECT_NE(md.find("Without a baseline (left out of the speedup statistics): D."), std::string::npos);
  EXPECT_NE(md.find("memory_bandwidth (roofline, it 1) → compute (ncu, it 3)"), std::string::npos);

  EXPECT_EQ(j["summary"]["no_baseline"], nlohmann::json::array({"D"}));
  EXPECT_EQ(j["summary"]["fast_p"].size(), 5u);
  EXPECT_EQ(j["summary"]["time"]["kernels_built"], 3);
  EXPECT_EQ(j["problems"].size(), 4u);
  EXPECT_EQ(j["problems"][0]["attempts"]["pending"], 1);
  EXPECT_EQ(j["problems"][0]["best_including_flagged_ms"], 0.5);
  EXPECT_TRUE(j["problems"][2]["best_ms"].is_null());
  EXPECT_EQ(j["problems"][0]["bottleneck_last"]["source"], "ncu");
  EXPECT_EQ(j["grid"]["budget"], 3);
  EXPECT_EQ(j["runs"][1]["finished"], "unfinished");
  EXPECT_EQ(j["gpu"]["key"], "testgpu");
}

TEST(ReportMarkdownJson, PipesInCellsAreEscaped) {
  TempDir dir;
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  store::RunRow run;
  run.command = "ucutlass optimize a | tee log";
  ws.begin_run(run);
  EXPECT_NE(render_markdown(build_report(ws, std::nullopt)).find("a \\| tee log"), std::string::npos);
}

TEST(ReportMarkdownJson, ModelCallsPerRunOnlyWhenARunCalledAModel) {
  TempDir dir;
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  testing::suite_workspace(ws);
  std::string none = render_markdown(build_report(ws, test_gpu()));
  EXPECT_EQ(none.find("Model calls"), std::string::npos);
  for (int seq = 0; seq < 2; ++seq) {
    store::LlmCallRow c;
    c.run_id = 2;
    c.problem_id = "A";
    c.role = "nominate";
    c.seq = seq;
    c.request_json = R"({"model":"m"})";
    c = ws.claim_llm_call(c);
    c.status = seq == 0 ? store::LlmCallStatus::ok : store::LlmCallStatus::failed;
    c.prompt_tokens = seq == 0 ? 4500 : 0;
    c.completion_tokens = seq == 0 ? 800 : 0;
    c.cost_usd = seq == 0 ? 0.0123 : 0;
    ws.finish_llm_call(c);
  }
  WorkspaceReport r = build_report(ws, test_gpu());
  const std::string sentence =
      "Model calls: run 2: 2 calls (1 failed), 4500 prompt + 800 completion tokens, $0.0123.";
  EXPECT_NE(render_markdown(r).find(sentence), std::string::npos) << render_markdown(r);
  EXPECT_NE(render_html(r).find(sentence), std::string::npos);
  nlohmann::json j = report_json(r);
  EXPECT_EQ(j["runs"][0]["model_calls"]["calls"], 0);
  EXPECT_EQ(j["runs"][1]["model_calls"]["calls"], 2);
  EXPECT_EQ(j["runs"][1]["model_calls"]["failed"], 1);
  EXPECT_EQ(j["runs"][1]["model_calls"]["prompt_tokens"], 4500);
}

}  // namespace
}  // namespace ucut::report
