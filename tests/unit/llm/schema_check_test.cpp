// tests/unit/llm/schema_check_test.cpp — the tool arguments' schema subset (llm/schema_check.h).
#include "llm/schema_check.h"

#include <gtest/gtest.h>

namespace ucut::llm {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({"type": "object", "properties": {
  "spec": {"type": "string"}, "trials": {"type": "integer", "minimum": 1},
  "mode": {"type": "string", "enum": ["a", "b"]}, "code": {"type": "boolean"}},
  "required": ["spec"], "additionalProperties": false})");

TEST(SchemaCheck, AcceptsConformingArguments) {
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}}), std::nullopt);
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 3}, {"mode", "b"}, {"code", true}}),
            std::nullopt);
  EXPECT_EQ(schema_violation(kSchema, {{"spec", "x"}, {"trials", 3.0}}), std::nullopt);  // 3.0 is an integer
}

TEST(SchemaCheck, NamesWhatIsWrong) {
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

TEST(SchemaCheck, OpenObjectsTakeAnyProperty) {
  json open = {{"type", "object"}, {"properties", {{"a", {{"type", "string"}}}}}};
  EXPECT_EQ(schema_violation(open, {{"b", 1}}), std::nullopt);
}

TEST(SchemaCheck, ArraysAndStringsAreCheckedItemByItem) {
  json answer = json::parse(R"({"type": "object", "properties": {
    "specs": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "minLength": 1}},
    "name": {"type": "string", "maxLength": 3},
    "rows": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}},
                                         "required": ["n"]}}},
    "required": ["specs"]})");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a", "b"}}, {"name", "µµµ"}, {"rows", {{{"n", 1}}}}}),
            std::nullopt);  // three characters, six bytes
  EXPECT_EQ(schema_violation(answer, {{"specs", json::array()}}), "`specs` must have at least 1 item");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a", "b", "c"}}}), "`specs` must have at most 2 items");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a", ""}}}), "`specs[1]` must not be empty");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a", 2}}}), "`specs[1]` must be a string");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a"}}, {"name", "abcd"}}),
            "`name` must be at most 3 characters long");
  EXPECT_EQ(schema_violation(answer, {{"specs", {"a"}}, {"rows", {{{"n", 1}}, json::object()}}}),
            "`rows[1]` lacks the required `n`");
}

}  // namespace
}  // namespace ucut::llm
