// tests/unit/eval/output_checks_test.cpp — per-output verification (eval/protocol.h OutputCheck): it survives the
// worker's JSON, and `ucutlass run`'s text report (workflow/measure.h) lists every output of a shape with more than
// D — aux_store tensors and reduction vectors — with its errors, naming the one that failed.
#include <gtest/gtest.h>

#include <string>

#include "eval/protocol.h"
#include "workflow/measure.h"

namespace ucut {
namespace {

Comparison passed(double max_rel, double rel_l2) {
  Comparison c;
  c.checked = 128;
  c.max_rel_err = max_rel;
  c.rel_l2 = rel_l2;
  c.pass = true;
  return c;
}

ShapeResult with_outputs() {
  ShapeResult r;
  r.shape.m = 128, r.shape.n = 256, r.shape.k = 128, r.shape.label = "small";
  r.outputs = {{"D", EpiKind::store, passed(3.1e-3, 1.2e-3)}, {"R", EpiKind::row_max, passed(2.5e-7, 1e-7)}};
  r.verify = merge(r.outputs[0].verify, r.outputs[1].verify);
  return r;
}

TEST(OutputChecks, SurviveJson) {
  ShapeResult r = with_outputs();
  ShapeResult back = nlohmann::json::parse(nlohmann::json(r).dump()).get<ShapeResult>();
  ASSERT_EQ(back.outputs.size(), 2u);
  EXPECT_EQ(back.outputs[1].name, "R");
  EXPECT_EQ(back.outputs[1].stage, EpiKind::row_max);
  EXPECT_DOUBLE_EQ(back.outputs[1].verify.max_rel_err, 2.5e-7);
  EXPECT_TRUE(back.outputs[1].verify.pass);
  nlohmann::json old = r;
  old.erase("outputs");  // a response from before per-output checks
  EXPECT_TRUE(old.get<ShapeResult>().outputs.empty());
}

TEST(OutputChecks, ReportListsEveryOutputOfAShapeWithMoreThanD) {
  MeasureReport m;
  ShapeReport s;
  s.result = with_outputs();
  s.result.outputs[1].verify.pass = false;
  s.result.outputs[1].verify.mismatches = 3;
  s.result.outputs[1].verify.max_rel_err = 0.5;
  m.shapes.push_back(s);
  std::string text = report_text(m);
  EXPECT_NE(text.find("128x256x128 (small) outputs: D (store) pass max_rel 3.10e-03 rel_l2 1.20e-03; "
                      "R (row_max) FAIL max_rel 5.00e-01 rel_l2 1.00e-07 (3 of 128 outside tolerance)"),
            std::string::npos)
      << text;
  // A shape whose only output is D has no such line.
  m.shapes[0].result.outputs.resize(1);
  EXPECT_EQ(report_text(m).find("outputs:"), std::string::npos) << report_text(m);
}

}  // namespace
}  // namespace ucut
