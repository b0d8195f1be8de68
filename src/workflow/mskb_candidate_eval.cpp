// workflow/mskb_candidate_eval.cpp — see mskb_candidate_eval.h.
#include "workflow/mskb_candidate_eval.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "build/nvcc.h"
#include "build/toolchain.h"
#include "engine/cudamaster/attempts.h"
#include "eval/flags.h"
#include "mskb/signature.h"
#include "support/files.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;
namespace cm = engine::cudamaster;

/// At most this many failing cases are listed for Debug.
constexpr int kListedCases = 5;

std::string role_key(mskb::Role role) { return std::string(enum_name(role)); }

/// nvcc's error lines of a build report after `first_error`: its header (the file's path and the cache's log
/// path), the first error again and nvcc's count of errors (which names the cache's scratch file) left out.
std::string further_errors(const std::string& build_error, const std::string& first_error) {
  std::istringstream in(build_error);
  std::string line, out;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::string trimmed = line.substr(std::min(line.find_first_not_of(" \t"), line.size()));
    if ((!first_error.empty() && first_error.starts_with(trimmed)) ||
        trimmed.find("detected in the compilation of") != std::string::npos)
      continue;
    out += line + "\n";
  }
  return out;
}

bool is_interface_refusal(const std::string& first_error) {
  return first_error.find(mskb::kRuleLauncherSignature) != std::string::npos ||
         first_error.find(mskb::kRuleLauncherMissing) != std::string::npos;
}

/// A failed build as an evaluation: the interface check's refusal, or nvcc's errors.
cm::Evaluation build_failure(const std::string& first_error, const std::string& build_error) {
  cm::Evaluation e;
  e.verdict = is_interface_refusal(first_error) ? cm::Verdict::interface : cm::Verdict::build;
  e.error = first_error.empty() ? build_error : first_error + "\n" + further_errors(build_error, first_error);
  return e;
}

std::string flag_names(const std::vector<FlagId>& flags) {
  std::string out;
  for (FlagId f : flags)
    out += (out.empty() ? "" : ", ") + std::string(enum_name(f)) + " (" + std::string(flag_meaning(f)) + ")";
  return out;
}

}  // namespace

cm::Evaluation evaluation_of(const MskbPairReport& r, mskb::Role role) {
  const std::string key = role_key(role);
  if (auto b = r.build_errors.find(key); b != r.build_errors.end()) {
    auto first = r.build_first_errors.find(key);
    cm::Evaluation e = build_failure(first == r.build_first_errors.end() ? "" : first->second, b->second);
    e.report_json = nlohmann::json(r).dump();
    return e;
  }
  cm::Evaluation e;
  e.gpu = r.gpu_name;
  e.report_json = nlohmann::json(r).dump();
  if (pair_needs_gpu(r)) {
    e.verdict = cm::Verdict::needs_gpu;
    e.error = r.run_error;
    return e;
  }
  if (!r.run_error.empty()) {
    e.verdict = cm::Verdict::run;
    e.error = "the MSKB worker could not run it: " + r.run_error;
    return e;
  }
  // The worst kind of failure any case shows decides the verdict; Debug sees the first few cases of that
  // kind.
  std::vector<std::string> runs, wrongs, flagged;
  for (const MskbCaseRow& row : r.cases) {
    auto it = row.impls.find(key);
    if (it == row.impls.end()) {
      runs.push_back(fmt::format("case {}: not run", row.label));
      continue;
    }
    const MskbImplResult& m = it->second;
    for (FlagId f : m.flags)
      if (std::find(e.flags.begin(), e.flags.end(), f) == e.flags.end()) e.flags.push_back(f);
    e.run_seconds += m.seconds;
    if (m.status != mskb::Status::ok && m.status != mskb::Status::wrong)
      runs.push_back(fmt::format("case {}: {}: {}", row.label, enum_name(m.status), m.error));
    else if (!m.correct)
      wrongs.push_back(fmt::format("case {}: wrong result: {}", row.label, m.error));
    else if (!none_disqualifies(m.flags)) {
      std::string evidence = flag_names(m.flags);
      if (std::find(m.flags.begin(), m.flags.end(), FlagId::faster_than_sol) != m.flags.end())
        evidence += fmt::format("; GPU time {:.4g} ms against the case's physical floor {:.4g} ms", m.gpu_ms,
                                row.sol_floor_ms);
      flagged.push_back(fmt::format("case {}: flagged {}", row.label, evidence));
    }
  }
  for (const auto& [id, reason] : r.source_flags)
    flagged.insert(flagged.begin(), fmt::format("source flagged {}: {}", enum_name(id), reason));
  const std::vector<std::string>* shown = !runs.empty() ? &runs : !wrongs.empty() ? &wrongs : &flagged;
  e.verdict = !runs.empty()      ? cm::Verdict::run
              : !wrongs.empty()  ? cm::Verdict::verify
              : !flagged.empty() ? cm::Verdict::integrity
                                 : cm::Verdict::ok;
  for (size_t i = 0; i < shown->size() && i < kListedCases; ++i) e.error += (*shown)[i] + "\n";
  if (shown->size() > kListedCases)
    e.error += fmt::format("… and {} more cases like these\n", shown->size() - kListedCases);
  if (e.verdict == cm::Verdict::integrity || e.verdict == cm::Verdict::ok) {
    const MskbCaseRow& largest = r.cases.back();
    if (auto it = largest.impls.find(key); it != largest.impls.end()) e.time_ms = it->second.gpu_ms;
  }
  if (e.verdict == cm::Verdict::ok) {
    auto score = r.kernel.find(key);
    e.score = role == mskb::Role::naive ? 1.0 : score == r.kernel.end() ? 0.0 : score->second.weighted;
  }
  return e;
}

MskbCandidateEvaluator::MskbCandidateEvaluator(const mskb::Task& t, mskb::Precision p,
                                               MskbCandidateEvalOptions o)
    : task_(t), precision_(p), o_(std::move(o)) {
  std::string error;
  std::optional<Toolchain> tc = find_toolchain(o_.bench.cutlass_dir, &error);
  if (!tc) throw std::runtime_error(error);
  cache_.emplace(o_.bench.cache_dir.empty() ? default_cache_dir() : o_.bench.cache_dir, *tc);
  table_ = sol::load_default_gpu_table(&error);
  gpu_ = table_ ? table_->find(o_.bench.gpu) : nullptr;
  std::string naive = mskb::launcher_sources(t, p, o_.bench.suite_dir, "").front().path;
  std::optional<std::string> code = read_file(naive);
  if (!code)
    throw std::runtime_error(
        fmt::format("the naive launcher {} cannot be read (--suite names the MSKB launcher folder)", naive));
  naive_code_ = *code;
}

std::string MskbCandidateEvaluator::arch() const {
  size_t at = o_.bench.gencode.find("code=");
  return at == std::string::npos ? o_.bench.gencode : o_.bench.gencode.substr(at + 5);
}

std::vector<std::string> MskbCandidateEvaluator::default_flags() const {
  std::vector<std::string> out;
  for (const std::string& f : nvcc_flags(cache_->toolchain(), o_.bench.gencode))
    if (!f.starts_with("-I"))
      out.push_back(f);  // include paths differ by machine and say nothing to the Compiler
  return out;
}

mskb::LauncherSource MskbCandidateEvaluator::source_of(const cm::Candidate& c) const {
  std::string name = mskb::launcher_name(task_, precision_);
  if (c.naive) return mskb::launcher_sources(task_, precision_, o_.bench.suite_dir, "").front();
  fs::path file = fs::path(o_.work_dir) / cm::candidate_hash(c).substr(0, 16) / (name + ".cu");
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec || !write_file(file.string(), c.code))
    throw std::runtime_error(
        fmt::format("cannot write the candidate {} (check that the work folder {} is writable)",
                    file.string(), o_.work_dir));
  return {mskb::Role::candidate, file.string(), name + "_optimized", c.flags};
}

cm::Evaluation MskbCandidateEvaluator::evaluate(const cm::Candidate& c) {
  mskb::LauncherSource source = source_of(c);
  double build_seconds = 0;
  if (!c.naive) {
    // The candidate alone first: an interface refusal or a compile error needs neither the suite's launchers
    // nor a GPU.
    std::vector<mskb::LauncherBuild> b =
        mskb::build_launchers(*cache_, task_, precision_, {source}, o_.bench.gencode, 1);
    build_seconds = b.front().seconds;
    if (!b.front().ok) {
      cm::Evaluation e = build_failure(b.front().first_error, b.front().error);
      e.build_seconds = build_seconds;
      return e;
    }
  }
  std::vector<mskb::LauncherSource> sources =
      mskb::launcher_sources(task_, precision_, o_.bench.suite_dir, "");
  if (!c.naive) sources.push_back(source);
  MskbPairReport r =
      measure_mskb_pair(task_, precision_, sources, o_.bench, *cache_, table_ ? &*table_ : nullptr, gpu_);
  cm::Evaluation e = evaluation_of(r, c.naive ? mskb::Role::naive : mskb::Role::candidate);
  e.build_seconds = build_seconds;
  if (!c.naive && r.build_errors.count(role_key(mskb::Role::naive)))
    throw std::runtime_error("the suite's naive launcher does not build: " +
                             r.build_errors.at(role_key(mskb::Role::naive)));
  measured_[cm::candidate_hash(c)] = std::move(r);
  return e;
}

cm::ProfileResult MskbCandidateEvaluator::profile(const cm::Candidate& c) {
  mskb::LauncherSource source = source_of(c);
  std::vector<mskb::LauncherBuild> b =
      mskb::build_launchers(*cache_, task_, precision_, {source}, o_.bench.gencode, 1);
  int largest = static_cast<int>(task_.cases.size()) - 1;
  MskbProfileContext context;
  if (auto m = measured_.find(cm::candidate_hash(c)); m != measured_.end() && !m->second.cases.empty()) {
    const MskbCaseRow& row = m->second.cases.back();
    context.sol_ms = row.sol_ms;
    if (auto it = row.impls.find(role_key(source.role)); it != row.impls.end() && it->second.ok())
      context.measured_ms = it->second.gpu_ms;
    if (gpu_ && gpu_->bandwidth_tbs > 0) {
      double peak =
          gpu_->peak_tflops(precision_ == mskb::Precision::fp32 ? sol::Precision::tf32 : sol::Precision::bf16)
              .value_or(0);
      bool compute = peak > 0 && row.flops / (peak * 1e12) > row.bytes / (gpu_->bandwidth_tbs * 1e12);
      context.roofline_bound = compute ? sol::BoundKind::compute : sol::BoundKind::memory;
    }
  }
  if (!b.front().ok) {
    cm::ProfileResult none;
    none.kernel = source.symbol;
    none.filtered = profile::degraded(
        {source.symbol, "the launcher did not build for profiling: " + b.front().first_error, {}, {}, {}},
        o_.profile.thresholds);
    return none;
  }
  MskbProfileOptions po = o_.profile;
  if (po.worker.empty()) po.worker = o_.bench.worker;
  return profile_mskb_launcher(task_, precision_, b.front().library, source.role, largest, context, po);
}

}  // namespace ucut
