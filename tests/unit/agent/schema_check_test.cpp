// tests/unit/agent/schema_check_test.cpp — the tool arguments' schema subset (agent/schema_check.h).
#include "agent/schema_check.h"

#include <gtest/gtest.h>

namespace ucut::agent {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({"type": "object", "properties": {
  "spec": {"type": "string"}, "trials": {"type": "integer", "minimum": 1},
  "mode": {"type": "string", "enum": ["a", "b"]}, "code": {"type": "boolean"}},
  "required": ["spec"], "additionalProperties": false})");

TEST(AgentToolsSchema, AcceptsConformingArguments) {
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}}), std::nullopt);
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 3}, {"mode", "b"}, {"code", true}}),
            std::nullopt);
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 3.0}}), std::nullopt);  // 3.0 is an integer
}

TEST(AgentToolsSchema, NamesWhatIsWrong) {
  EXPECT_EQ(schema_violation(kSchema, json::object()), "the arguments lack the required `spec`");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", 1}}), "`spec` must be a string");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 2.5}}), "`trials` must be an integer");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 0}}), "`trials` must be at least 1");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"mode", "c"}}), "`mode` must be one of [\"a\",\"b\"]");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"code", "yes"}}), "`code` must be a boolean");
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"extra", 1}}),
            "unknown argument `extra`; the tool takes code, mode, spec, trials");
  EXPECT_EQ(schema_violation(kSchema, json::array()), "the arguments must be an object");
}

TEST(AgentToolsSchema, OpenObjectsTakeAnyProperty) {
  json open = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}};
  EXPECT_EQ(schema_violation(open, {{"b", 1}}), std::nullopt);
}

}  // namespace
}  // namespace ucut::agent
