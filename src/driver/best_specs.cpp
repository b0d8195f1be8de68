// driver/best_specs.cpp
#include "driver/best_specs.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "store/workspace.h"

namespace ucut {

BestSpecs write_best_specs(const std::string& workspace, const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_regular_file(workspace)) throw std::runtime_error(fmt::format("no workspace file {}", workspace));
  store::Workspace ws = store::Workspace::open(workspace);
  fs::create_directories(dir);
  BestSpecs out;
  for (const store::ProblemRow& p : ws.problems()) {
    auto best = ws.best_attempt(p.id);
    if (!best) {
      out.none.push_back(p.id);
      continue;
    }
    fs::path path = fs::path(dir) / (p.id + ".ucut");
    std::ofstream f(path, std::ios::binary);
    f << fmt::format("# The best of {} for {}: attempt {} ({:.4g} ms when it was measured).\n", workspace, p.id,
                     best->id, *best->time_ms)
      << best->spec;
    if (!f) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
    out.attempt[p.id] = best->id;
    // Inputs are drawn signed, or each problem its framework's way (which differs between problems).
    std::string inputs = p.inputs == "signed" ? "signed" : "framework";
    if ((out.tolerance && *out.tolerance != p.tolerance) || (out.inputs && *out.inputs != inputs))
      throw std::runtime_error(fmt::format(
          "{}: its problems were verified under different conditions (tolerance {:g} on {} inputs, and {:g} on {} "
          "inputs for {}); measure one set at a time",
          workspace, *out.tolerance, *out.inputs, p.tolerance, inputs, p.id));
    out.tolerance = p.tolerance;
    out.inputs = inputs;
  }
  return out;
}

}  // namespace ucut
