// workflow/suite_bench_markdown.cpp — the Markdown page of a `bench kernelbench` report (suite_bench.h): a
// short header, the provenance of each run (when it measured, its PyTorch sessions and their commands) in a
// collapsed table, one row per problem, the scores.
#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "workflow/suite_bench.h"
#include "support/markdown_cell.h"

namespace ucut {
namespace {

std::string opt_ms(const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : "—"; }

std::string ratio(const std::optional<double>& base, double ours) {
  return base && ours > 0 ? fmt::format("{:.2f}", *base / ours) : "—";
}

std::string score_line(const char* name, const std::optional<suite::Score>& timed) {
  if (!timed)
    return fmt::format("| {} | — | — | not timed (torch.compile switched off or unavailable) | — |\n", name);
  const suite::Score& s = *timed;
  std::string fast;
  for (size_t i = 0; i < suite::kFastP.size(); ++i)
    fast += fmt::format("{}fast_{} {:.3f}", i ? ", " : "", suite::kFastP[i], s.fast_p[i]);
  return fmt::format("| {} | {} | {} | {} | {} |\n", name, s.problems, s.correct, fast,
                     s.geomean ? fmt::format("{:.3f}", *s.geomean) : "—");
}

/// `key` of the PyTorch script's metadata as text ("—" when it did not record it).
std::string field(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "—";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

std::string on_off(const nlohmann::json& env, const char* key) {
  if (!env.is_object() || !env.contains(key) || !env[key].is_boolean()) return "—";
  return env[key].get<bool>() ? "on" : "off";
}

/// The PyTorch sessions of a run's metadata: an object per session; a combined run holds an array of its
/// runs'.
void sessions(const nlohmann::json& meta, std::vector<const nlohmann::json*>& out) {
  if (meta.is_array())
    for (const nlohmann::json& m : meta) sessions(m, out);
  else if (meta.is_object())
    out.push_back(&meta);
}

/// One session's row after the run's columns: when it started, which PyTorch, how it timed, which problems
/// (the problem files of its command, by name), and the command with those files counted instead of listed.
std::string session_cells(const nlohmann::json& s) {
  std::vector<std::string> problems, command;
  size_t files_at = 0;  // where the problem files were in the command
  std::istringstream words(field(s, "command"));
  for (std::string w; words >> w;) {
    if (!w.ends_with(".toml")) {
      command.push_back(w);
      continue;
    }
    if (problems.empty()) files_at = command.size();
    problems.push_back(std::filesystem::path(w).stem().string());
  }
  if (!problems.empty())
    command.insert(command.begin() + files_at,
                   fmt::format("<{} problem file{}>", problems.size(), problems.size() == 1 ? "" : "s"));
  const nlohmann::json env = s.value("environment", nlohmann::json::object());
  std::string torch = fmt::format("torch {}, CUDA {}, cuDNN {}; TF32: matmul {}, cuDNN {}",
                                  field(env, "torch"), field(env, "cuda"), field(env, "cudnn"),
                                  on_off(env, "cuda_matmul_allow_tf32"), on_off(env, "cudnn_allow_tf32"));
  std::string timed = fmt::format("{}, {} trials after {} warm-up",
                                  s.value("compile", false) ? "eager and torch.compile" : "eager",
                                  field(s, "trials"), field(s, "warmup"));
  return fmt::format("{} | {} | {} | {}: {} | `{}` |", markdown_cell(field(s, "started")), markdown_cell(torch), markdown_cell(timed),
                     problems.size(), markdown_cell(fmt::format("{}", fmt::join(problems, ", "))),
                     markdown_cell(fmt::format("{}", fmt::join(command, " "))));
}

/// The collapsed provenance section: per run, when it measured and how many problems, and one row per PyTorch
/// session that timed its problems; the rows that newer runs replaced.
std::string provenance(const SuiteBenchReport& r) {
  struct Run {
    std::string measured;
    const nlohmann::json* torch;
  };
  std::vector<Run> runs;
  if (r.parts.empty())
    runs.push_back({fmt::format("{} ({} problems{})", r.date, r.rows.size(),
                                r.commit.empty() ? "" : ", ucutlass " + r.commit),
                    &r.torch_meta});
  for (size_t i = 0; i < r.parts.size(); ++i)
    runs.push_back(
        {r.parts[i], r.torch_meta.is_array() && i < r.torch_meta.size() ? &r.torch_meta[i] : nullptr});
  std::string rows;
  size_t count = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<const nlohmann::json*> found;
    if (runs[i].torch) sessions(*runs[i].torch, found);
    std::string run = fmt::format("| {} | {} | ", i + 1, markdown_cell(runs[i].measured));
    if (found.empty()) rows += run + "not timed | — | — | — | — |\n";
    for (size_t k = 0; k < found.size(); ++k) rows += (k ? "| | | " : run) + session_cells(*found[k]) + "\n";
    count += found.size();
  }
  std::string md =
      fmt::format("<details><summary>Provenance: {} run{}, {} PyTorch session{}{}</summary>\n\n", runs.size(),
                  runs.size() == 1 ? "" : "s", count, count == 1 ? "" : "s",
                  r.replaced.empty() ? ""
                                     : fmt::format("; {} row{} replaced by newer runs", r.replaced.size(),
                                                   r.replaced.size() == 1 ? "" : "s"));
  md +=
      "| run | measured | PyTorch started | PyTorch | timed | problems timed | PyTorch command |\n"
      "|---|---|---|---|---|---|---|\n" +
      rows;
  if (!r.replaced.empty()) {
    md +=
        "\nRows of older runs replaced by a newer run's measurement of the same problem (--newest-wins):\n\n";
    for (const std::string& line : r.replaced) md += fmt::format("- {}\n", line);
  }
  return md + "\n</details>\n\n";
}

/// The page's first sentence on precision: how many measured kernels multiply in lower precision (bf16, TF32)
/// than the problem states, against PyTorch at the problem's own precision (FP32 for KernelBench).
std::string precision_sentence(const SuiteBenchReport& r) {
  int measured = 0, changed = 0;
  for (const SuiteBenchRow& row : r.rows) {
    if (row.status != SuiteRowStatus::measured) continue;
    ++measured;
    if (row.precision_change) ++changed;
  }
  if (changed == 0)
    return fmt::format("All {} measured problems use the operand precision their problem states.\n\n",
                       measured);
  return fmt::format(
      "**{} of {} measured problems use bf16 or TF32 operands against FP32 eager** (a labelled precision "
      "change, "
      "verified at the tolerance below).\n\n",
      changed, measured);
}

}  // namespace

std::string suite_bench_markdown(const SuiteBenchReport& r, const std::string& command) {
  std::string md = fmt::format("# μCUTLASS kernels on the KernelBench-derived suite ({})\n\n", r.date);
  md += precision_sentence(r);
  md += fmt::format("GPU {}, driver {}", r.gpu_name.empty() ? "none" : r.gpu_name, r.driver_version);
  if (r.parts.empty())
    md += "; PyTorch timed in the same run (provenance below)";
  else
    md += fmt::format(
        ". Combined from {} run{}; each problem's kernel and PyTorch were timed side by side in one of "
        "them (provenance below)",
        r.parts.size(), r.parts.size() == 1 ? "" : "s");
  if (!r.replaced.empty())
    md += fmt::format(
        ". {} row{} of older runs gave way to a newer run's measurement of the same problem "
        "(--newest-wins, listed below)",
        r.replaced.size(), r.replaced.size() == 1 ? "" : "s");
  md += fmt::format(
      ". Our kernels: the harness (FP64 reference, cold L2, CUDA events, median); PyTorch: "
      "bench/kernelbench/baseline.py (KernelBench's recipe, median), after our kernels, in another process, "
      "on its own draws of the same input distributions. Speedup = PyTorch time / ours. "
      "Problems without an implementation or a correct result count as failures in fast_p. Filtered: "
      "results with a disqualifying integrity flag and results on problems with a weak correctness check "
      "count as failures too; the denominator stays.\nVerified at: {}.\nCommand: `{}`\n\n",
      r.conditions, command);
  md += provenance(r);
  if (!r.torch_error.empty()) md += fmt::format("PyTorch times: none — {}\n\n", r.torch_error);
  md +=
      "| problem | family | status | correct | ours ms | eager ms | vs eager | compile ms | vs compile "
      "| % SOL tf32 | % SOL fp16 | vs vendor | flags / weak check / detail |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SuiteBenchRow& row : r.rows) {
    std::string notes = join_enum_names(row.flags, ", ");
    if (!row.weak_check.empty())
      notes += fmt::format("{}weak: {}", notes.empty() ? "" : "; ", fmt::join(row.weak_check, ", "));
    if (!row.detail.empty()) notes += fmt::format("{}{}", notes.empty() ? "" : "; ", row.detail);
    bool m = row.status == SuiteRowStatus::measured;
    md += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", row.problem, row.family,
        enum_name(row.status), m ? (row.correct ? "yes" : "**no**") : "—",
        m ? fmt::format("{:.3f}", row.ours_ms) : "—", opt_ms(row.eager_ms),
        m ? ratio(row.eager_ms, row.ours_ms) : "—", opt_ms(row.compile_ms),
        m ? ratio(row.compile_ms, row.ours_ms) : "—", m ? fmt::format("{:.1f}", row.pct_sol_tf32) : "—",
        m ? fmt::format("{:.1f}", row.pct_sol_fp16) : "—",
        m && row.vs_vendor > 0 ? fmt::format("{:.2f} ({})", row.vs_vendor, enum_name(row.vendor)) : "—",
        notes);
  }
  md += "\n| score | problems | correct | fast_p | geomean speedup (correct) |\n|---|---|---|---|---|\n";
  md += score_line("vs eager", r.eager);
  md += score_line("vs torch.compile", r.compile);
  md += score_line("vs eager, filtered", r.eager_filtered);
  md += score_line("vs torch.compile, filtered", r.compile_filtered);
  return md;
}

}  // namespace ucut
