// workflow/best_specs.cpp
#include "workflow/best_specs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "store/workspace.h"
#include "support/files.h"

namespace ucut {
namespace {

void write_or_throw(const std::filesystem::path& path, const std::string& text) {
  if (!write_file(path.string(), text)) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

/// One problem's conditions in one workspace: where its first counting attempt was found, for the error
/// message.
struct Conditions {
  std::string workspace, problem;
  double tolerance = 0;
  std::string inputs;  // the problem's draws as stored ("signed", or "a=rand b=param ...")
};

// Inputs are drawn signed, or each problem its framework's way (which differs between problems).
std::string input_mode(const std::string& inputs) { return inputs == "signed" ? "signed" : "framework"; }

/// Throws unless `c` was verified as `first` was: the same tolerance and input mode, and for the same problem
/// the same draws (its times in two workspaces would not measure the same thing otherwise).
void require_same(const Conditions& first, const Conditions& c) {
  bool same = first.tolerance == c.tolerance && input_mode(first.inputs) == input_mode(c.inputs);
  if (same && first.problem == c.problem) same = first.inputs == c.inputs;
  if (!same)
    throw MixedConditionsError(
        fmt::format("{} ({}: tolerance {:g}, inputs {}) and {} ({}: tolerance {:g}, inputs {}) were verified "
                    "under different "
                    "conditions; take the best of workspaces of one tolerance and one input draw at a time",
                    first.workspace, first.problem, first.tolerance, first.inputs, c.workspace, c.problem,
                    c.tolerance, c.inputs));
}

}  // namespace

BestSpecs write_best_specs(const std::vector<std::string>& workspaces, const std::string& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, store::AttemptRow> best;  // problem → its fastest counting attempt so far
  std::map<std::string, std::string> best_in;     // problem → the workspace that attempt is in
  std::map<std::string, Conditions> seen;  // problem → its conditions where first found with an attempt
  std::vector<std::string> all;            // every problem of every workspace
  std::optional<Conditions> first;
  for (const std::string& path : workspaces) {
    store::Workspace ws = store::Workspace::open_read_only(path);
    for (const store::ProblemRow& p : ws.problems()) {
      all.push_back(p.id);
      auto attempt = ws.best_attempt(p.id);
      if (!attempt) continue;
      Conditions c{path, p.id, p.tolerance, p.inputs};
      require_same(first.value_or(c), c);
      if (auto it = seen.find(p.id); it != seen.end()) require_same(it->second, c);
      first = first.value_or(c);
      seen.emplace(p.id, c);
      if (!best.contains(p.id) || *attempt->time_ms < *best[p.id].time_ms) {
        best[p.id] = std::move(*attempt);
        best_in[p.id] = path;
      }
    }
  }
  fs::create_directories(dir);
  BestSpecs out;
  nlohmann::json provenance = nlohmann::json::object();
  for (const auto& [problem, a] : best) {
    // The attempt's text verbatim: the build cache keys on the emitted code, which embeds the spec, so the kernel
    // the optimize run built is the one measured here (a comment added to the text would build it again).
    write_or_throw(fs::path(dir) / (problem + ".ucut"), a.spec);
    provenance[problem] = {
        {"workspace", best_in[problem]}, {"attempt", a.id},   {"time_ms", *a.time_ms},
        {"gpu", a.measured_on()},        {"date", a.created}, {"precision_change", a.precision_change}};
    out.best[problem] = {best_in[problem], a.id, *a.time_ms};
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  for (const std::string& problem : all)
    if (!best.contains(problem)) out.none.push_back(problem);
  if (first) {
    out.tolerance = first->tolerance;
    out.inputs = input_mode(first->inputs);
  }
  write_or_throw(fs::path(dir) / "provenance.json",
                 nlohmann::json{{"workspaces", workspaces}, {"best", provenance}}.dump(1) + "\n");
  return out;
}

}  // namespace ucut
