// workflow/mskb_bench.cpp — see mskb_bench.h.
#include "workflow/mskb_bench.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "build/cache.h"
#include "build/toolchain.h"
#include "eval/integrity.h"
#include "eval/library_calls.h"
#include "mskb/runner.h"
#include "mskb/signature.h"
#include "sol/gpu_table.h"
#include "support/files.h"
#include "support/markdown_cell.h"
#include "workflow/mskb_floor.h"

namespace ucut {

using namespace mskb;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MskbImplResult, status, correct, reverify, compat_checked,
                                                compat_correct, flags, gpu_ms, wall_ms, compat_ms, gpu_cv,
                                                compat_calls, seconds, reference_kind, gpu_timer, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MskbCaseRow, label, complexity, flops, bytes, sol_ms,
                                                sol_floor_ms, sol_eff_ms, latency_bound, impls)

namespace mskb {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PairScore, weighted, log_geometric, cases, failed)
void to_json(nlohmann::json& j, const SuiteScore& v) {
  auto opt = [](const std::optional<double>& x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
  j = {{"pairs", v.pairs},
       {"failed_pairs", v.failed_pairs},
       {"geomean", opt(v.geomean)},
       {"geomean_weighted", opt(v.geomean_weighted)},
       {"success", v.success},
       {"success_taus", kSuccessTaus}};
}
}  // namespace mskb

namespace {

/// The library an exported library call names in its `// library: NAME` line (export/mskb_map_launcher.cpp), or "".
std::string library_label(const std::string& code) {
  static const std::regex line(R"((^|\n)// library: (\w+))");
  std::smatch m;
  return std::regex_search(code, m, line) ? m[2].str() : "";
}

/// The candidate's static flags as a JSON object: flag name → reason.
nlohmann::json source_flags_json(const std::map<FlagId, std::string>& flags) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [id, reason] : flags) j[std::string(enum_name(id))] = reason;
  return j;
}

}  // namespace

void to_json(nlohmann::json& j, const MskbPairReport& v) {
  j = {{"task", v.task},
       {"name", v.name},
       {"category", v.category},
       {"vendor", v.vendor},
       {"gpu", v.gpu_name},
       {"driver", v.driver_version},
       {"runtime", v.runtime_version},
       {"date", v.date},
       {"precision", v.precision},
       {"build_errors", v.build_errors},
       {"build_first_errors", v.build_first_errors},
       {"source_flags", source_flags_json(v.source_flags)},
       {"cases", v.cases},
       {"run_error", v.run_error},
       {"kernel", v.kernel},
       {"compat", v.compat},
       {"sol_gpu", v.sol_gpu},
       {"latency_floor_ms", v.latency_floor_ms},
       {"floor_source", v.floor_source}};
  if (v.candidate_vs_vendor) j["candidate_vs_vendor"] = *v.candidate_vs_vendor;
  if (!v.candidate_library.empty()) j["candidate_library"] = v.candidate_library;
}

void from_json(const nlohmann::json& j, MskbPairReport& v) {
  v.task = j.at("task");
  v.name = j.at("name");
  v.category = j.value("category", "");
  v.vendor = j.value("vendor", "");
  v.gpu_name = j.value("gpu", "");
  v.driver_version = j.value("driver", "");
  v.runtime_version = j.value("runtime", "");
  v.date = j.value("date", "");
  v.precision = j.at("precision");
  v.build_errors = j.value("build_errors", std::map<std::string, std::string>{});
  v.build_first_errors = j.value("build_first_errors", std::map<std::string, std::string>{});
  v.source_flags.clear();
  if (j.contains("source_flags"))
    for (const auto& [id, reason] : j.at("source_flags").items())
      v.source_flags[enum_from_json<FlagId>(nlohmann::json(id))] = reason.get<std::string>();
  v.candidate_library = j.value("candidate_library", "");
  v.cases = j.at("cases");
  v.run_error = j.value("run_error", "");
  v.sol_gpu = j.value("sol_gpu", std::string());  // absent before 2026-12-07
  v.latency_floor_ms = j.value("latency_floor_ms", 0.0);
  v.floor_source = j.value("floor_source", "");
  v.kernel = j.value("kernel", std::map<std::string, PairScore>{});
  v.compat = j.value("compat", std::map<std::string, PairScore>{});
  if (j.contains("candidate_vs_vendor")) v.candidate_vs_vendor = j.at("candidate_vs_vendor").get<PairScore>();
}

namespace {

namespace fs = std::filesystem;


/// Sets each case row's SOL bounds from `gpu`'s peaks (none without a GPU entry).
void set_sol_bounds(std::vector<MskbCaseRow>& rows, Precision p, const sol::GpuSpec* gpu) {
  double peak = 0, floor_peak = 0, bw = 0;
  if (gpu) {
    peak = gpu->peak_tflops(p == Precision::fp32 ? sol::Precision::tf32 : sol::Precision::bf16).value_or(0);
    floor_peak = gpu->peak_tflops(sol::Precision::fp16).value_or(peak);
    bw = gpu->bandwidth_tbs;
  }
  for (MskbCaseRow& r : rows) {
    r.sol_ms = r.sol_floor_ms = 0;
    if (bw <= 0) continue;
    double mem_ms = r.bytes / (bw * 1e12) * 1e3;
    r.sol_ms = std::max(peak > 0 ? r.flops / (peak * 1e12) * 1e3 : 0, mem_ms);
    r.sol_floor_ms = std::max(floor_peak > 0 ? r.flops / (floor_peak * 1e12) * 1e3 : 0, mem_ms);
  }
}

/// The case rows of a pair with their work and SOL bounds (peaks from `gpu`).
std::vector<MskbCaseRow> case_rows(const Task& t, Precision p, const sol::GpuSpec* gpu) {
  std::vector<MskbCaseRow> rows;
  for (const Case& c : t.cases) {
    MskbCaseRow r;
    r.label = c.label();
    r.complexity = t.complexity(c);
    Work w = t.work(c, p == Precision::fp32 ? 4 : 2);
    r.flops = w.flops;
    r.bytes = w.bytes;
    rows.push_back(std::move(r));
  }
  set_sol_bounds(rows, p, gpu);
  return rows;
}

MskbImplResult impl_result(const ItemResult& it, const MskbCaseRow& row) {
  MskbImplResult r;
  r.status = it.status == Status::ok && !it.correct ? Status::wrong : it.status;
  r.correct = it.correct;
  r.reverify = it.reverify_correct;
  r.compat_checked = it.compat_checked;
  r.compat_correct = it.compat_correct;
  r.gpu_ms = it.gpu_ms.median;
  r.gpu_cv = it.gpu_ms.cv();
  r.wall_ms = it.wall_ms.median;
  r.compat_ms = it.compat_ms;
  r.compat_calls = it.compat_calls;
  r.seconds = it.seconds;
  r.reference_kind = it.reference_kind;
  r.gpu_timer = it.gpu_timer;
  r.error = it.error;
  if (it.status == Status::ok) {
    if (faster_than_sol(r.gpu_ms, row.sol_floor_ms, kBusyTimeSolFactor))
      r.flags.push_back(FlagId::faster_than_sol);
    if (it.input_mutated) r.flags.push_back(FlagId::input_mutated);
    if (it.output_input_independent) r.flags.push_back(FlagId::output_input_independent);
    if (it.role == Role::candidate && !it.library_kernels.empty()) r.flags.push_back(FlagId::library_kernels);
    if (!it.l2_persistence.empty()) r.flags.push_back(FlagId::l2_persistence);
    if (it.correct && !it.reverify_correct) r.flags.push_back(FlagId::reverify_failed);
  }
  for (const OutputResult& o : it.outputs)
    if (!o.pass && r.error.empty())
      r.error = !o.message.empty() ? o.message
                                   : fmt::format("{}: {} of {} elements wrong (worst [{}] = {} vs {}, |err| {:.3g}){}",
                                                 o.name, o.mismatches, o.checked, o.worst_index, o.worst_value,
                                                 o.worst_reference, o.max_abs_err,
                                                 o.nonfinite ? fmt::format(", {} NaN/Inf", o.nonfinite) : "");
  return r;
}

/// The key of `role` in the report's maps (their JSON objects' keys).
std::string key(Role role) { return std::string(enum_name(role)); }

PairScore pair_score(const MskbPairReport& p, Role role, Role base, bool compat) {
  return launcher_score(p, key(role), key(base), compat);
}

void score_pair_report(MskbPairReport& p, bool has_candidate) {
  for (Role role : {Role::vendor, Role::candidate}) {
    if (role == Role::vendor && p.vendor.empty()) continue;
    if (role == Role::candidate && !has_candidate) continue;
    p.kernel[key(role)] = pair_score(p, role, Role::naive, false);
    p.compat[key(role)] = pair_score(p, role, Role::naive, true);
  }
  if (has_candidate && !p.vendor.empty())
    p.candidate_vs_vendor = pair_score(p, Role::candidate, Role::vendor, false);
}

MskbPairReport run_pair(const Task& t, Precision prec, const std::vector<LauncherBuild>& builds,
                        const MskbBenchOptions& o, const sol::GpuTable* table, const sol::GpuSpec* gpu) {
  MskbPairReport p;
  p.task = t.name;
  p.name = launcher_name(t, prec);
  p.category = t.category;
  p.vendor = t.vendor;
  p.precision = prec;
  p.cases = case_rows(t, prec, gpu);
  p.sol_gpu = gpu ? gpu->name : "";
  MskbRequest req = o.knobs;
  req.task = t.name;
  req.precision = prec;
  std::vector<std::string> labels;  // per req.impls entry: its key in the report
  for (const LauncherBuild& b : builds) {
    const std::string label = source_label(b.source);
    if (b.source.role == Role::candidate) {
      for (const IntegrityFlag& f : library_call_flags(scan_source(b.code, SourceLanguage::cpp)))
        p.source_flags[f.id] = f.reason;
      p.candidate_library = library_label(b.code);
    }
    if (!b.ok) {
      p.build_errors[label] = b.error;
      p.build_first_errors[label] = b.first_error;
      MskbImplResult not_built;
      not_built.status = Status::not_built;
      not_built.error = b.error;
      for (MskbCaseRow& row : p.cases) row.impls[label] = not_built;
      continue;
    }
    req.impls.push_back({b.source.role, b.library});
    labels.push_back(label);
  }
  if (o.build_only || req.impls.empty()) return p;
  for (size_t c = 0; c < t.cases.size(); ++c)
    for (size_t i = 0; i < req.impls.size(); ++i) req.items.push_back({static_cast<int>(c), static_cast<int>(i)});
  RunnerOptions ro;
  ro.worker = o.worker.empty() ? find_mskb_worker() : o.worker;
  ro.echo_progress = o.verbose;
  MskbResponse resp = run_mskb_worker(req, ro);
  if (!resp.gpu_name.empty()) {
    p.gpu_name = resp.gpu_name;
    p.driver_version = resp.driver_version;
    p.runtime_version = resp.runtime_version;
    p.date = utc_now();
    // The bounds, and so faster_than_sol below, are the measuring GPU's, never another's.
    if (const sol::GpuSpec* measured = table ? table->find_device(resp.gpu_name) : nullptr) {
      set_sol_bounds(p.cases, prec, measured);
      p.sol_gpu = measured->name;
    }
  }
  if (!resp.fatal_error.empty() && resp.results.empty()) p.run_error = resp.fatal_error;
  for (const ItemResult& it : resp.results) {
    MskbCaseRow& row = p.cases.at(static_cast<size_t>(it.item.case_index));
    MskbImplResult& r = row.impls[labels.at(static_cast<size_t>(it.item.impl))] = impl_result(it, row);
    if (it.role == Role::candidate)
      for (const auto& [id, reason] : p.source_flags) r.flags.push_back(id);
  }
  return p;
}

void score_report(MskbBenchReport& r) {
  for (Role role : {Role::vendor, Role::candidate})
    for (const char* basis : {"kernel", "compat"}) {
      std::vector<PairScore> pairs;
      for (const MskbPairReport& p : r.pairs) {
        const auto& m = std::string(basis) == "kernel" ? p.kernel : p.compat;
        auto it = m.find(key(role));
        if (it != m.end()) pairs.push_back(it->second);
        else if (role == Role::candidate && !r.impl_dir.empty())
          pairs.push_back(PairScore{});  // missing: failed
      }
      if (!pairs.empty()) r.scores[key(role)][basis] = score_suite(pairs);
    }
}

}  // namespace

std::vector<const Task*> selected_tasks(const MskbBenchOptions& o, std::string* error) {
  std::vector<const Task*> out;
  if (o.tasks.empty()) {
    for (const Task& t : all_tasks()) out.push_back(&t);
    return out;
  }
  for (const std::string& name : o.tasks) {
    const Task* t = find_task(name);
    if (!t) {
      *error = "no MSKB task called " + name + " ('ucutlass mskb list' prints them)";
      return {};
    }
    out.push_back(t);
  }
  return out;
}

PairScore launcher_score(const MskbPairReport& p, const std::string& label, const std::string& base, bool compat) {
  std::vector<CaseOutcome> cases;
  for (const MskbCaseRow& row : p.cases) {
    CaseOutcome c;
    c.complexity = row.complexity;
    auto r = row.impls.find(label), b = row.impls.find(base);
    if (r != row.impls.end() && b != row.impls.end() && r->second.ok() && b->second.ok()) {
      double tr = compat ? r->second.compat_ms : r->second.gpu_ms, tb = compat ? b->second.compat_ms : b->second.gpu_ms;
      c.ok = tr > 0 && tb > 0;
      c.speedup = c.ok ? tb / tr : 0;
    }
    cases.push_back(c);
  }
  return score_pair(cases);
}

MskbPairReport measure_mskb_pair(const Task& t, Precision prec, const std::vector<LauncherSource>& sources,
                                 const MskbBenchOptions& o, const KernelCache& cache,
                                 const sol::GpuTable* table, const sol::GpuSpec* fallback) {
  std::vector<LauncherBuild> builds =
      build_launchers(cache, t, prec, sources, o.gencode, o.jobs > 0 ? o.jobs : default_build_jobs());
  std::cerr << fmt::format("mskb: {} ({} launchers built{})\n", launcher_name(t, prec), builds.size(),
                           o.build_only ? "" : ", measuring");
  MskbPairReport p = run_pair(t, prec, builds, o, table, fallback);
  bool has_candidate = std::any_of(sources.begin(), sources.end(),
                                   [](const LauncherSource& s) { return s.role == Role::candidate; });
  if (!o.build_only) score_pair_report(p, has_candidate);
  return p;
}

bool pair_needs_gpu(const MskbPairReport& p) { return !p.run_error.empty() && p.gpu_name.empty(); }

MskbBenchReport bench_mskb(const MskbBenchOptions& o) {
  MskbBenchReport report;
  report.date = utc_now();
  report.impl_dir = o.impl_dir;
  std::string error;
  std::vector<const Task*> tasks = selected_tasks(o, &error);
  if (tasks.empty()) throw std::invalid_argument(error);
  auto table = sol::load_default_gpu_table(&error);
  const sol::GpuSpec* gpu = table ? table->find(o.gpu) : nullptr;
  MskbFloorSource floors(o, table ? &*table : nullptr, gpu);
  auto tc = find_toolchain(o.cutlass_dir, &error);
  if (!tc) throw std::runtime_error(error);
  KernelCache cache(o.cache_dir.empty() ? default_cache_dir() : o.cache_dir, *tc);
  fs::path pairs_dir = fs::path(o.out_dir) / "pairs";
  fs::create_directories(pairs_dir);
  auto started = std::chrono::steady_clock::now();
  for (const Task* t : tasks)
    for (Precision prec : o.precisions) {
      fs::path saved = pairs_dir / (launcher_name(*t, prec) + ".json");
      if (o.resume && fs::exists(saved)) {
        try {
          std::ifstream in(saved);
          report.pairs.push_back(nlohmann::json::parse(in).get<MskbPairReport>());
          floors.apply(report.pairs.back());  // pairs written before the floor existed get it too
          const MskbPairReport& back = report.pairs.back();
          if (report.gpu_name.empty() && !back.gpu_name.empty()) {
            report.gpu_name = back.gpu_name;
            report.driver_version = back.driver_version;
            report.runtime_version = back.runtime_version;
          }
          std::cerr << fmt::format("mskb: {} resumed from {}\n", launcher_name(*t, prec), saved.string());
          continue;
        } catch (const std::exception& e) {
          std::cerr << fmt::format("mskb: {} is unreadable ({}); measuring again\n", saved.string(), e.what());
        }
      }
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (o.time_limit_s > 0 && elapsed > o.time_limit_s) continue;
      std::vector<LauncherSource> sources = launcher_sources(*t, prec, o.suite_dir, o.impl_dir);
      MskbPairReport p = measure_mskb_pair(*t, prec, sources, o, cache, table ? &*table : nullptr, gpu);
      floors.apply(p);
      if (!p.gpu_name.empty()) {
        report.gpu_name = p.gpu_name;
        report.driver_version = p.driver_version;
        report.runtime_version = p.runtime_version;
        p.date = report.date;
      }
      report.needs_gpu |= pair_needs_gpu(p);
      // Unsaved, the pair stays in this report; only a later --resume measures it again.
      if (!o.build_only && p.run_error.empty() && !write_file(saved.string(), nlohmann::json(p).dump(1) + "\n"))
        std::cerr << fmt::format("mskb: cannot write {}; --resume will measure {} again\n", saved.string(),
                                 launcher_name(*t, prec));
      report.pairs.push_back(std::move(p));
      if (report.needs_gpu && !o.build_only) std::cerr << "mskb: no GPU here; the remaining pairs are only built\n";
    }
  std::set<std::string> sol_gpus;
  for (const MskbPairReport& p : report.pairs)
    if (!p.sol_gpu.empty()) sol_gpus.insert(p.sol_gpu);
  report.sol_gpu = fmt::format("{}", fmt::join(sol_gpus, ", "));
  report.build_only = o.build_only;
  if (!o.build_only) score_report(report);
  return report;
}

nlohmann::json mskb_bench_json(const MskbBenchReport& r) {
  return {{"gpu", r.gpu_name},   {"driver", r.driver_version}, {"runtime", r.runtime_version}, {"date", r.date},
          {"impl_dir", r.impl_dir}, {"sol_gpu", r.sol_gpu},    {"needs_gpu", r.needs_gpu},    {"build_only", r.build_only}, {"pairs", r.pairs},
          {"scores", r.scores}};
}

namespace {

std::string fmt_score(const std::map<std::string, PairScore>& m, const std::string& role) {
  auto it = m.find(role);
  if (it == m.end()) return "—";
  const PairScore& s = it->second;
  return s.failed ? fmt::format("P {:.2f}, {} of {} failed", s.weighted, s.failed, s.cases)
                  : fmt::format("P {:.2f}, G {:.2f}", s.weighted, s.log_geometric);
}

std::string pct_sol(const MskbPairReport& p, Role role) {
  // The largest case's share of its bound (t_SOL_eff with a latency floor, else t_SOL): the case where launch
  // overhead matters least.
  if (p.cases.empty()) return "—";
  const MskbCaseRow& big = p.cases.back();
  auto it = big.impls.find(key(role));
  double bound = big.sol_eff_ms > 0 ? big.sol_eff_ms : big.sol_ms;
  if (it == big.impls.end() || !it->second.ok() || bound <= 0) return "—";
  return fmt::format("{:.1f}%{}", 100 * bound / it->second.gpu_ms,
                     big.latency_bound ? " (latency-bound)" : "");
}

/// The pair's latency floor and how many of its cases are below it.
std::string floor_cell(const MskbPairReport& p) {
  if (p.latency_floor_ms <= 0) return "—";
  auto below =
      std::count_if(p.cases.begin(), p.cases.end(), [](const MskbCaseRow& r) { return r.latency_bound; });
  return fmt::format("{:.3g} µs ({} of {} cases latency-bound)", 1e3 * p.latency_floor_ms, below,
                     p.cases.size());
}

/// The header's lines on the bound % SOL is measured against: each distinct floor source of the pairs.
std::string bound_lines(const MskbBenchReport& r) {
  std::set<std::string> with, without;
  for (const MskbPairReport& p : r.pairs) (p.latency_floor_ms > 0 ? with : without).insert(p.floor_source);
  std::string md = fmt::format(
      "- SOL: the datasheet bound{} (least bytes over the DRAM bandwidth, least FLOPs over the tensor peak); "
      "it is also the integrity floor (faster_than_sol)\n",
      r.sol_gpu.empty() ? "" : " of " + r.sol_gpu);
  for (const std::string& s : with)
    md += "- % SOL against t_SOL_eff = max(t_SOL, t_floor), the latency floor measured by " + s +
          "; a case whose t_SOL is below t_floor is latency-bound\n";
  for (const std::string& s : without)
    md += fmt::format("- % SOL against the datasheet t_SOL alone{}: no latency floor ({})\n",
                      with.empty() ? "" : " for the other pairs", s.empty() ? "none known" : s);
  return md;
}

}  // namespace

std::string mskb_bench_markdown(const MskbBenchReport& r, const std::string& command) {
  std::string md = fmt::format("# MSKB: {}\n\n", r.impl_dir.empty() ? "naive vs vendor" : "candidates from " + r.impl_dir);
  std::string first, last;
  for (const MskbPairReport& p : r.pairs)
    if (!p.date.empty()) {
      first = first.empty() ? p.date : std::min(first, p.date);
      last = std::max(last, p.date);
    }
  md += fmt::format("- GPU: {} (driver {}, CUDA runtime {})\n- report written: {}{}\n- command: `{}`\n",
                    r.gpu_name.empty() ? "none" : r.gpu_name, r.driver_version, r.runtime_version, r.date,
                    first.empty() ? "" : fmt::format("; pairs measured {} to {} (resumed runs: see each pair's date)", first, last),
                    command);
  md += "- timing: GPU busy time per call (CUPTI: kernels, copies and sets the launcher enqueues), cold L2, median; "
        "MSKB-compatible: back-to-back launch+synchronize calls, warm L2, mean\n";
  md += bound_lines(r);
  md += "- scores vs the naive launcher: P = complexity-weighted mean speedup (the paper's), G = log2(T)-weighted "
        "geometric mean (0 when a case failed); success(τ) = share of all pairs correct on every case with P > τ\n\n";
  if (r.build_only) md += "**Build only (--build-only): launchers were built and SOL bounds computed; nothing was timed.**\n\n";
  else if (r.needs_gpu) md += "**No GPU answered: launchers were built and SOL bounds computed; nothing was timed.**\n\n";
  md += "## Scores\n\n| launcher | timing | pairs | failed pairs | geomean G | geomean P | success τ=0 | τ=1 | τ=2 | τ=8 |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [role, by_basis] : r.scores)
    for (const auto& [basis, s] : by_basis)
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {:.0f}% | {:.0f}% | {:.0f}% | {:.0f}% |\n", role,
                        basis == "kernel" ? "GPU busy" : "MSKB-compatible", s.pairs, s.failed_pairs,
                        s.geomean ? fmt::format("{:.2f}", *s.geomean) : "—",
                        s.geomean_weighted ? fmt::format("{:.2f}", *s.geomean_weighted) : "—", 100 * s.success[0],
                        100 * s.success[1], 100 * s.success[2], 100 * s.success[3]);
  bool eff = std::any_of(r.pairs.begin(), r.pairs.end(),
                         [](const MskbPairReport& p) { return p.latency_floor_ms > 0; });
  std::string pct = eff ? "% SOL_eff" : "% SOL";
  md += fmt::format(
      "\n## Pairs\n\n| task | precision | category | cases | vendor | vendor vs naive (GPU busy) | vendor vs "
      "naive (MSKB-compatible) | SOL of the largest case | latency floor | vendor {} (largest case) |",
      pct);
  bool cand = !r.impl_dir.empty();
  if (cand) md += fmt::format(" candidate vs naive | candidate vs vendor | candidate {} |", pct);
  md += " notes |\n|---|---|---|---|---|---|---|---|---|---|";
  if (cand) md += "---|---|---|";
  md += "---|\n";
  for (const MskbPairReport& p : r.pairs) {
    std::string notes = p.run_error;
    for (const auto& [role, e] : p.build_errors) {
      auto first = p.build_first_errors.find(role);
      notes += first == p.build_first_errors.end() || first->second.empty()
                   ? fmt::format("{} not built; ", role)
                   : fmt::format("{} not built: `{}`; ", role, markdown_code_cell(first->second));
    }
    for (const auto& [id, reason] : p.source_flags)
      notes += fmt::format("candidate flagged {}: {}; ", enum_name(id), reason);
    if (!p.candidate_library.empty())
      notes += fmt::format("candidate is a library call (library: {}); ", p.candidate_library);
    int wrong_naive = 0;
    for (const MskbCaseRow& row : p.cases) {
      auto n = row.impls.find(key(Role::naive));
      if (n != row.impls.end() && !n->second.ok()) ++wrong_naive;
    }
    if (wrong_naive) notes += fmt::format("naive failed on {} cases; ", wrong_naive);
    std::string sol = p.cases.empty() || p.cases.back().sol_ms <= 0 ? "—" : fmt::format("{:.3g} µs", 1e3 * p.cases.back().sol_ms);
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |", p.task,
                      precision_name(p.precision), p.category, p.cases.size(),
                      p.vendor.empty() ? "— (CPU FP64 reference)" : p.vendor,
                      fmt_score(p.kernel, key(Role::vendor)), fmt_score(p.compat, key(Role::vendor)), sol,
                      floor_cell(p), pct_sol(p, Role::vendor));
    if (cand) {
      std::string vs_vendor = p.candidate_vs_vendor ? fmt_score({{"x", *p.candidate_vs_vendor}}, "x") : "—";
      md += fmt::format(" {} | {} | {} |", fmt_score(p.kernel, key(Role::candidate)), vs_vendor,
                        pct_sol(p, Role::candidate));
    }
    md += fmt::format(" {} |\n", notes);
  }
  return md;
}

}  // namespace ucut
