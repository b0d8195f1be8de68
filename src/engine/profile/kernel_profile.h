// engine/profile/kernel_profile.h — the counters ncu reported for one profiled kernel launch.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ucut::profile {

struct KernelProfile {
  std::string kernel;  // ncu's "Kernel Name", as it printed it
  long id = -1;        // ncu's "ID": the index of the profiled launch
  std::string source;  // where the profile came from (task, file); set by whoever collected it
  std::map<std::string, double, std::less<>> metrics;  // raw ncu name → value; unparseable values left out

  std::optional<double> get(std::string_view name) const {
    auto it = metrics.find(name);
    if (it == metrics.end()) return std::nullopt;
    return it->second;
  }
};

}  // namespace ucut::profile
