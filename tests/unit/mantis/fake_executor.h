// tests/unit/mantis/fake_executor.h — an Executor for CPU tests of the engine: every spec that checks is
// "measured" at a time derived from its config hash (deterministic, different per config), and the executor
// counts how often each config was measured, so tests can prove nothing is measured twice. It can be told to die
// in the middle of an attempt (as a killed run does) or to have no GPU. It has no profiler unless a test gives it a
// canned profile, and counts what it profiled. Header-only: the unit-test target globs only *_test.cpp.
#pragma once

#include <signal.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/executor.h"

namespace ucut::mantis::testing {

struct FakeExecutor : engine::Executor {
  std::map<std::string, int>* measured;  // by config hash; shared across executors to span a "restart"
  int die_after = -1;                    // measure calls before it throws (simulated kill), -1: never
  int slow_from = -1;                    // measure calls from this one on take 10 ms (the best stays), -1: never
  bool no_gpu = false;
  int calls = 0;
  size_t prebuilt = 0;
  std::vector<std::pair<char, std::string>> events;  // ('b', config hash) per prebuilt spec, ('m', hash) per measure
  std::optional<engine::ProfileOutcome> canned_profile;  // what profile() answers; unset: no counters
  std::map<std::string, int> profiled;                   // profile() calls by config hash

  explicit FakeExecutor(std::map<std::string, int>* counts) : measured(counts) {}

  /// 1 to 2 ms, from the hash: a stable, config-dependent time.
  static double time_of(const std::string& hash) {
    return 1.0 + static_cast<double>(std::stoul(hash.substr(0, 4), nullptr, 16)) / 65536.0;
  }

  void prebuild(const std::vector<std::string>& specs) override {
    prebuilt += specs.size();
    for (const std::string& s : specs) events.push_back({'b', engine::spec_config_hash(s)});
  }

  engine::CandidateOutcome measure(const std::string& spec, const Problem&) override {
    if (die_after >= 0 && calls >= die_after) throw std::runtime_error("killed");
    ++calls;
    engine::CandidateOutcome o;
    o.config_hash = engine::spec_config_hash(spec);
    events.push_back({'m', o.config_hash});
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
    o.time_ms = slow_from >= 0 && calls > slow_from ? 10.0 : time_of(o.config_hash);
    o.run_seconds = 0.5;
    o.build_seconds = 2;
    return o;
  }

  std::string timing_unavailable() override { return no_gpu ? "no CUDA device" : ""; }

  engine::ProfileOutcome profile(const std::string& spec, const Problem&, std::optional<double>) override {
    ++profiled[engine::spec_config_hash(spec)];
    if (canned_profile) return *canned_profile;
    engine::ProfileOutcome o;
    o.reason = "the fake executor has no profiler";
    return o;
  }
};

/// A FakeExecutor whose process kills itself (SIGKILL) at its `kill_at`-th measurement, the attempt claimed:
/// a run killed mid-measurement, for the resume tests (run it in a forked child).
struct SelfKilling : FakeExecutor {
  int kill_at;
  SelfKilling(std::map<std::string, int>* counts, int kill_at) : FakeExecutor(counts), kill_at(kill_at) {}
  engine::CandidateOutcome measure(const std::string& spec, const Problem& problem) override {
    if (calls + 1 == kill_at) raise(SIGKILL);
    return FakeExecutor::measure(spec, problem);
  }
};

}  // namespace ucut::mantis::testing
