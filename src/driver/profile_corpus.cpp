// driver/profile_corpus.cpp — see profile_corpus.h.
#include "driver/profile_corpus.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>

#include "driver/problem_file.h"
#include "engine/profile/metrics.h"
#include "support/files.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

std::string resolved(const fs::path& dir, const std::string& p) {
  return fs::path(p).is_absolute() ? p : (dir / p).lexically_normal().string();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f}%", *v) : "n/a"; }

/// Profiles one pair: the classified kernel, or why there is none.
CorpusEntry profile_pair(const CorpusPair& pair, const ProfileOptions& opts) {
  CorpusEntry e{pair, std::nullopt, ""};
  std::string error;
  auto problem = load_problem_or_suite(pair.problem, &error);
  if (!problem) {
    e.skipped = first_line(error);
    return e;
  }
  auto text = read_file(pair.spec);
  if (!text) {
    e.skipped = fmt::format("cannot read spec {}", pair.spec);
    return e;
  }
  ProfileReport r = profile_spec(SourceFile(pair.spec, *text), *problem, opts);
  if (!r.stopped_at.empty())
    e.skipped = fmt::format("stopped at {}: {}", r.stopped_at, first_line(r.message));
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
    if (!spec || !problem)
      return fail(
          fmt::format("pair {}: field `{}` is missing or not a string (a path, relative to the manifest)",
                      i + 1, spec ? "problem" : "spec"));
    m.pairs.push_back({resolved(dir, *spec), resolved(dir, *problem)});
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
  std::vector<profile::KernelProfile> kernels;
  for (const CorpusPair& pair : m.pairs) {
    CorpusEntry e = profile_pair(pair, opts);
    if (e.kernel) {
      kernels.push_back(*e.kernel);
      if (progress)
        progress(fmt::format("profiled {} on {}: {} (SM {}, DRAM {}, Memory {})", pair.spec, pair.problem,
                             short_kernel_name(e.kernel->kernel), pct(profile::sm_pct(*e.kernel)),
                             pct(profile::dram_pct(*e.kernel)), pct(profile::memory_pct(*e.kernel))));
    } else if (progress) {
      progress(fmt::format("skipped  {} on {}: {}", pair.spec, pair.problem, e.skipped));
    }
    out.entries.push_back(std::move(e));
  }
  out.thresholds = profile::learn_thresholds(kernels, m.name);
  return out;
}

}  // namespace ucut
