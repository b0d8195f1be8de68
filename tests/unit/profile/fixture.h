// tests/unit/profile/fixture.h — helpers shared by the profile tests: the fixture CSV and synthetic profiles.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "../test_paths.h"
#include "engine/profile/kernel_profile.h"
#include "engine/profile/metrics.h"

namespace ucut::profile::testing {

inline std::string fixture_path(const std::string& name) {
  return ucut::test_paths::source_dir() + "/tests/unit/profile/testdata/" + name;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(fixture_path(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A synthetic profile with only the Speed-of-Light numbers (negative: left out).
inline KernelProfile sol_profile(std::string name, double sm, double dram, double mem) {
  KernelProfile p;
  p.kernel = std::move(name);
  p.source = "synthetic test profile";
  if (sm >= 0) p.metrics[std::string(metric::sm_throughput)] = sm;
  if (dram >= 0) p.metrics[std::string(metric::dram_throughput)] = dram;
  if (mem >= 0) p.metrics[std::string(metric::memory_throughput)] = mem;
  return p;
}

}  // namespace ucut::profile::testing
