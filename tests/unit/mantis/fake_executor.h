// tests/unit/mantis/fake_executor.h — an Executor for CPU tests of the engine: every spec that checks is
// "measured" at a time derived from its config hash (deterministic, different per config), and the executor
// counts how often each config was measured, so tests can prove nothing is measured twice. It can be told to die
// in the middle of an attempt (as a killed run does) or to have no GPU. Header-only: the unit-test target globs
// only *_test.cpp.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "engine/executor.h"

namespace ucut::mantis::testing {

struct FakeExecutor : engine::Executor {
  std::map<std::string, int>* measured;  // by config hash; shared across executors to span a "restart"
  int die_after = -1;                    // measure calls before it throws (simulated kill), -1: never
  bool no_gpu = false;
  int calls = 0;
  size_t prebuilt = 0;

  explicit FakeExecutor(std::map<std::string, int>* counts) : measured(counts) {}

  /// 1 to 2 ms, from the hash: a stable, config-dependent time.
  static double time_of(const std::string& hash) {
    return 1.0 + static_cast<double>(std::stoul(hash.substr(0, 4), nullptr, 16)) / 65536.0;
  }

  void prebuild(const std::vector<std::string>& specs) override { prebuilt += specs.size(); }

  engine::CandidateOutcome measure(const std::string& spec, const Problem&) override {
    if (die_after >= 0 && calls >= die_after) throw std::runtime_error("killed");
    ++calls;
    engine::CandidateOutcome o;
    o.config_hash = engine::spec_config_hash(spec);
    if (no_gpu) {
      o.needs_gpu = true;
      o.error = "no CUDA device";
      return o;
    }
    if (o.config_hash.empty()) {
      o.status = store::AttemptStatus::check_failed;
      o.error = "does not check";
      return o;
    }
    ++(*measured)[o.config_hash];
    o.status = store::AttemptStatus::measured;
    o.correct = true;
    o.time_ms = time_of(o.config_hash);
    o.run_seconds = 0.5;
    o.build_seconds = 2;
    return o;
  }
};

}  // namespace ucut::mantis::testing
