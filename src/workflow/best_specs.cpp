// workflow/best_specs.cpp
#include "workflow/best_specs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>

#include "store/workspace.h"
#include "support/files.h"

namespace ucut {
namespace {

void write_or_throw(const std::filesystem::path& path, const std::string& text) {
  if (!write_file(path.string(), text)) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

}  // namespace

BestSpecs write_best_specs(const std::string& workspace, const std::string& dir) {
  namespace fs = std::filesystem;
  store::Workspace ws = store::Workspace::open_read_only(workspace);
  fs::create_directories(dir);
  BestSpecs out;
  nlohmann::json provenance = nlohmann::json::object();
  for (const store::ProblemRow& p : ws.problems()) {
    auto best = ws.best_attempt(p.id);
    if (!best) {
      out.none.push_back(p.id);
      continue;
    }
    // The attempt's text verbatim: the build cache keys on the emitted code, which embeds the spec, so the kernel
    // the optimize run built is the one measured here (a comment added to the text would build it again).
    write_or_throw(fs::path(dir) / (p.id + ".ucut"), best->spec);
    provenance[p.id] = {{"attempt", best->id}, {"time_ms", *best->time_ms}};
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
  write_or_throw(fs::path(dir) / "provenance.json",
             nlohmann::json{{"workspace", workspace}, {"best", provenance}}.dump(1) + "\n");
  return out;
}

}  // namespace ucut
