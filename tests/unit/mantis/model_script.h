// tests/unit/mantis/model_script.h — scripted model turns for the tests of a MANTIS iteration asked of a
// model (engine/mantis/model_phases.h) against the loopback server (tests/unit/llm/fake_server.h): one valid
// answer per phase, each with its own token counts, and specs of L1_001 that check, differ from its seed and
// from each other. Header-only: the unit-test target globs only *_test.cpp.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../export/export_cases.h"
#include "support/files.h"

namespace ucut::mantis::testing {

using nlohmann::json;

/// A chat completion answering `content`, with the token counts the server reports.
inline json completion(const std::string& content, int prompt = 100, int completion = 20) {
  return {{"id", "chatcmpl-1"},
          {"object", "chat.completion"},
          {"model", "test-model"},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", content}}},
             {"finish_reason", "stop"}}}},
          {"usage", {{"prompt_tokens", prompt}, {"completion_tokens", completion}}}};
}

/// A turn of the fake server answering `answer` (a JSON object, or raw text) with `prompt` + `completion`
/// tokens.
inline json turn(const json& answer, int prompt = 100, int completion = 20) {
  return {{"status", 200},
          {"json", ::ucut::mantis::testing::completion(
                       answer.is_string() ? answer.get<std::string>() : answer.dump(), prompt, completion)}};
}

/// L1_001's seed spec with another threadblock shape (`128, 64, 32`, ...): checks clean unless the shape is
/// invalid.
inline std::string tile_spec(const std::string& shape) {
  std::string seed =
      read_file((golden::source_dir() / "bench/kernelbench/impl/L1_001_square_matmul.ucut").string()).value();
  const std::string from = "with_threadblockshape(128, 128, 32)";
  return seed.replace(seed.find(from), from.size(), "with_threadblockshape(" + shape + ")");
}

inline json measure_answer(bool profile = false) {
  return {{"profile", profile}, {"reason", profile ? "a new best" : "nothing new to profile"}};
}
inline json analyze_answer() {
  return {{"bottleneck", "compute"},
          {"evidence", {"the gap to TF32 is 3.4", "3xTF32 triples the math"}},
          {"headroom", "wide"}};
}
inline json hypothesis(const std::string& change, double speedup) {
  return {{"change", change},
          {"causal_link", change + " keeps the tensor cores busier"},
          {"predicted_speedup", speedup},
          {"risk_impl", 1.1},
          {"risk_perf", 1.3}};
}
inline json nominate_answer() {
  return {{"hypotheses",
           {hypothesis("narrower tiles", 1.2), hypothesis("shorter K tile", 1.1),
            hypothesis("wider tiles", 1.4)}}};
}
inline json triage_answer(std::vector<int> keep) { return {{"keep", keep}, {"override_reason", ""}}; }
inline json implement_answer(const std::vector<std::string>& specs) {
  return {{"specs", specs}, {"notes", "tile shapes"}};
}
inline json summarize_answer(const std::vector<int>& hypotheses) {
  json lessons = json::array();
  for (int h : hypotheses)
    lessons.push_back({{"hypothesis", h}, {"text", "hypothesis " + std::to_string(h) + " taught something"}});
  return {{"lessons", lessons}};
}

}  // namespace ucut::mantis::testing
