// workflow/profile_corpus.cpp — see profile_corpus.h.
#include "workflow/profile_corpus.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>
#include <variant>

#include "engine/profile/metrics.h"
#include "engine/search/seed_spec.h"
#include "support/files.h"
#include "suite/problem_file.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

std::string resolved(const fs::path& dir, const std::string& p) {
  return fs::path(p).is_absolute() ? p : (dir / p).lexically_normal().string();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string spec_label(const CorpusPair& p) {
  std::string tol = p.tolerance ? fmt::format(" at tolerance {:g}", *p.tolerance) : "";
  return (p.spec.empty() ? "the generated seed" : p.spec) + tol;
}

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "n/a"; }

/// A pair's problem and spec (read, or generated from a suite problem), or why there are none.
struct Loaded {
  Problem problem;
  SourceFile spec;
};
std::variant<Loaded, std::string> load_pair(const CorpusPair& pair) {
  std::optional<Problem> problem;
  if (pair.spec.empty() || pair.tolerance) {  // a suite problem, lowered as optimize lowers it
    auto lowered = lower_problem_file(pair.problem, pair.tolerance);
    if (const auto* why = std::get_if<std::string>(&lowered)) return first_line(*why);
    const LoweredProblem& low = std::get<LoweredProblem>(lowered);
    if (pair.spec.empty()) {  // the problem's generated starting spec
      auto seed = search::seed_spec(low.checked, low.problem);
      if (const auto* why = std::get_if<std::string>(&seed)) return "no generated spec: " + first_line(*why);
      return Loaded{low.problem, SourceFile(low.checked.problem.stem + ".seed.ucut", std::get<search::SeedSpec>(seed).spec)};
    }
    problem = low.problem;
  } else {
    std::string error;
    problem = load_problem_or_suite(pair.problem, &error);
    if (!problem) return first_line(error);
  }
  auto text = read_file(pair.spec);
  if (!text) return fmt::format("cannot read spec {}", pair.spec);
  return Loaded{*problem, SourceFile(pair.spec, *text)};
}

/// Profiles one pair: the classified kernel, or why there is none.
CorpusEntry profile_pair(const CorpusPair& pair, const std::variant<Loaded, std::string>& loaded,
                         const ProfileOptions& opts) {
  CorpusEntry e{pair, std::nullopt, ""};
  if (const auto* why = std::get_if<std::string>(&loaded)) {
    e.skipped = *why;
    return e;
  }
  const Loaded& l = std::get<Loaded>(loaded);
  ProfileReport r = profile_spec(l.spec, l.problem, opts);
  if (r.stopped_at != MeasureStep::none)
    e.skipped = fmt::format("stopped at {}: {}", enum_name(r.stopped_at), first_line(r.message));
  else if (!r.counters())
    e.skipped = r.filtered.degraded.value_or("no counters");
  else
    e.kernel = r.kernels[r.classified];
  return e;
}

}  // namespace

std::optional<CorpusManifest> load_corpus_manifest(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = fmt::format("{}: {}", path, why);
    return std::nullopt;
  };
  auto text = read_file(path);
  if (!text) return fail("cannot read the corpus manifest");
  toml::table t;
  try {
    t = toml::parse(*text, path);
  } catch (const toml::parse_error& e) {
    return fail(fmt::format("not valid TOML: {}", e.description()));
  }
  CorpusManifest m;
  m.name = fs::path(path).stem().string();
  if (t.contains("name")) {
    auto name = t["name"].value<std::string>();
    if (!name || name->empty()) return fail("field `name` must be a non-empty string (the corpus's name)");
    m.name = *name;
  }
  const toml::array* pairs = t["pair"].as_array();
  if (!pairs || pairs->empty() || !pairs->is_array_of_tables())
    return fail("no [[pair]] tables: add one per profile, with `spec = \"...\"` and `problem = \"...\"`");
  fs::path dir = fs::path(path).parent_path();
  for (size_t i = 0; i < pairs->size(); ++i) {
    const toml::table& p = *pairs->get(i)->as_table();
    auto spec = p["spec"].value<std::string>();
    auto problem = p["problem"].value<std::string>();
    if (!problem || (p.contains("spec") && (!spec || spec->empty())))
      return fail(fmt::format("pair {}: field `{}` is missing or not a string (a path, relative to the manifest)",
                              i + 1, problem ? "spec" : "problem"));
    std::optional<double> tolerance;
    if (p.contains("tolerance")) {
      tolerance = p["tolerance"].value<double>();
      if (!tolerance || *tolerance <= 0)
        return fail(fmt::format("pair {}: field `tolerance` must be a positive number (atol = rtol, e.g. 1e-2)", i + 1));
    }
    m.pairs.push_back({spec ? resolved(dir, *spec) : "", resolved(dir, *problem), tolerance});
  }
  return m;
}

int CorpusResult::profiled() const {
  int n = 0;
  for (const CorpusEntry& e : entries) n += e.kernel.has_value();
  return n;
}

CorpusResult record_corpus(const CorpusManifest& m, const ProfileOptions& opts,
                           const std::function<void(const std::string&)>& progress) {
  CorpusResult out;
  std::vector<std::variant<Loaded, std::string>> loaded;
  for (const CorpusPair& pair : m.pairs) loaded.push_back(load_pair(pair));
  std::vector<SourceFile> specs;
  for (const auto& l : loaded)
    if (const auto* pair = std::get_if<Loaded>(&l)) specs.push_back(pair->spec);
  if (progress) progress(fmt::format("building {} kernels, {} at a time", specs.size(), opts.measure.jobs));
  prebuild_specs(specs, opts.measure);
  std::vector<profile::KernelProfile> kernels;
  for (size_t i = 0; i < m.pairs.size(); ++i) {
    const CorpusPair& pair = m.pairs[i];
    CorpusEntry e = profile_pair(pair, loaded[i], opts);
    if (e.kernel) {
      kernels.push_back(*e.kernel);
      if (progress)
        progress(fmt::format("profiled {} on {}: {} (SM {}, DRAM {}, Memory {})", spec_label(pair), pair.problem,
                             short_kernel_name(e.kernel->kernel), pct(profile::sm_pct(*e.kernel)),
                             pct(profile::dram_pct(*e.kernel)), pct(profile::memory_pct(*e.kernel))));
    } else if (progress) {
      progress(fmt::format("skipped  {} on {}: {}", spec_label(pair), pair.problem, e.skipped));
    }
    out.entries.push_back(std::move(e));
  }
  out.thresholds = profile::learn_thresholds(kernels, m.name);
  return out;
}

}  // namespace ucut
