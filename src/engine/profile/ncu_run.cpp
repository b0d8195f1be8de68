// engine/profile/ncu_run.cpp — the ncu command line, the run, and the reading of its failures.
#include "engine/profile/ncu_run.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "engine/profile/metrics.h"
#include "engine/profile/ncu_csv.h"
#include "support/error.h"
#include "support/subprocess.h"

namespace ucut::profile {
namespace {

// The first line of `text` containing `needle`, trimmed; empty when none does.
std::string line_with(const std::string& text, std::string_view needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  size_t begin = text.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = text.find('\n', at);
  std::string line = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

NcuOutcome fail(NcuStatus s, std::string reason, double seconds) {
  NcuOutcome o;
  o.status = s;
  o.reason = std::move(reason);
  o.seconds = seconds;
  return o;
}

}  // namespace

std::string find_ncu() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty()) candidates.push_back(dir + "/ncu");
  }
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(std::string(home) + "/bin/ncu");
  candidates.push_back("/usr/local/cuda/bin/ncu");
  for (const std::string& c : candidates)
    if (::access(c.c_str(), X_OK) == 0) return c;
  return "ncu";
}

std::vector<std::string> ncu_argv(const NcuOptions& o, const std::vector<std::string>& command) {
  std::vector<std::string> argv = {o.ncu_path,           "--csv", "--page",          "raw",
                                   "--print-units",      "base",  "--metrics",       metrics_argument(),
                                   "--clock-control",    "none",  "--cache-control", "all",
                                   "--target-processes", "all"};
  if (!o.from_start) argv.insert(argv.end(), {"--profile-from-start", "off"});
  if (!o.kernel_regex.empty()) {
    argv.push_back("-k");
    argv.push_back("regex:" + o.kernel_regex);
  }
  argv.insert(argv.end(), {"--launch-skip", std::to_string(o.launch_skip), "--launch-count",
                           std::to_string(o.launch_count)});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::string_view ncu_status_name(NcuStatus s) {
  switch (s) {
    case NcuStatus::ok:
      return "ok";
    case NcuStatus::not_installed:
      return "not_installed";
    case NcuStatus::no_permission:
      return "no_permission";
    case NcuStatus::library_not_loaded:
      return "library_not_loaded";
    case NcuStatus::timed_out:
      return "timed_out";
    case NcuStatus::no_kernel:
      return "no_kernel";
    case NcuStatus::failed:
      return "failed";
  }
  UC_UNREACHABLE() << "NcuStatus " << static_cast<int>(s);
}

NcuOutcome run_ncu(const NcuOptions& o, const std::vector<std::string>& command) {
  ProcessOptions po = ProcessOptions::with_timeout(o.timeout_s);
  po.extra_env = o.extra_env;
  ProcessResult r = run_process(ncu_argv(o, command), po);
  const double s = r.seconds;
  if (!r.started)
    return fail(NcuStatus::not_installed,
                fmt::format("ncu could not be started as '{}': {}", o.ncu_path, r.error), s);
  const std::string all = r.out + "\n" + r.err;
  if (all.find("ERR_NVGPUCTRPERM") != std::string::npos)
    return fail(
        NcuStatus::no_permission,
        "no permission to read GPU performance counters (ERR_NVGPUCTRPERM): run as root, load the driver "
        "with NVreg_RestrictProfilingOnlyAdminUsers=0, or give the container SYS_ADMIN",
        s);
  if (all.find("LibraryNotLoaded") != std::string::npos)
    return fail(
        NcuStatus::library_not_loaded,
        "ncu could not load its profiling library (LibraryNotLoaded), as in some sandboxed runtimes: " +
            line_with(all, "LibraryNotLoaded"),
        s);
  if (r.timed_out)
    return fail(NcuStatus::timed_out,
                fmt::format("ncu {} (each kernel is replayed once per metric pass)", r.describe()), s);

  NcuCsv csv = parse_ncu_csv(r.out);
  if (csv.kernels.empty()) {
    std::string error = line_with(all, "==ERROR==");
    if (!error.empty() || !r.ok())
      return fail(NcuStatus::failed,
                  fmt::format("ncu failed ({}){}", r.describe(), error.empty() ? "" : ": " + error), s);
    return fail(NcuStatus::no_kernel,
                fmt::format("no kernel matched {} (launch-skip {}, launch-count {}{})",
                            o.kernel_regex.empty() ? "any name" : "regex:" + o.kernel_regex, o.launch_skip,
                            o.launch_count, o.from_start ? "" : ", between cudaProfilerStart and cudaProfilerStop"),
                s);
  }
  NcuOutcome out;
  out.status = NcuStatus::ok;
  out.kernels = std::move(csv.kernels);
  out.seconds = s;
  if (!r.ok()) out.reason = fmt::format("profiled, but the command ended with {}", r.describe());
  return out;
}

size_t longest_kernel(const std::vector<KernelProfile>& kernels) {
  size_t best = 0;
  for (size_t i = 1; i < kernels.size(); ++i)
    if (kernels[i].get(metric::duration).value_or(0) > kernels[best].get(metric::duration).value_or(0))
      best = i;
  return best;
}

}  // namespace ucut::profile
