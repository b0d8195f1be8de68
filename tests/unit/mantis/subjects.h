// tests/unit/mantis/subjects.h — the MANTIS subject the engine tests work on: L1_001 (4096³ FP32 GEMM) lowered
// from the suite, with its hand-written starting spec. Header-only: the unit-test target globs only *_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "../export/export_cases.h"
#include "engine/mantis/loop.h"
#include "suite/lower.h"
#include "support/files.h"

namespace ucut::mantis::testing {

/// L1_001 with the roofline class `bottleneck` ("unknown" lets every move family apply).
inline Subject square_matmul(const std::string& bottleneck) {
  auto checked = golden::load_suite_problem("suites/kernelbench/level1/L1_001_square_matmul.toml");
  EXPECT_TRUE(checked);
  auto lowered = suite::lower_to_problem(*checked);
  EXPECT_TRUE(std::holds_alternative<Problem>(lowered)) << std::get<std::string>(lowered);
  Subject s;
  s.harness = std::get<Problem>(lowered);
  s.seed_spec = read_file((golden::source_dir() / "bench/kernelbench/impl/L1_001_square_matmul.ucut").string()).value();
  s.row.id = "L1_001_square_matmul";
  s.row.family = "gemm";
  s.row.shape_class = "square-large";
  s.row.sol_tf32_ms = 0.3;
  s.row.sol_fp16_ms = 0.15;
  s.roofline_bottleneck = enum_value<sol::Bottleneck>(bottleneck);
  return s;
}

}  // namespace ucut::mantis::testing
