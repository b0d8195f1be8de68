// workflow/mskb_profile.cpp — see mskb_profile.h.
#include "workflow/mskb_profile.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "engine/profile/classify.h"
#include "engine/profile/metrics.h"
#include "mskb/protocol.h"
#include "mskb/runner.h"
#include "mskb/signature.h"
#include "support/files.h"
#include "workflow/profile_spec.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;

/// The worker's answer, when it wrote one that reads.
std::optional<mskb::MskbResponse> read_response(const std::string& path) {
  auto text = read_file(path);
  if (!text) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  try {
    return j.get<mskb::MskbResponse>();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// Why there are no counters, in the words that say what to do.
std::string no_counters_reason(const profile::NcuOutcome& n, const std::optional<mskb::MskbResponse>& resp) {
  if (n.status == profile::NcuStatus::not_installed)
    return n.reason + "; counters need Nsight Compute (ncu on PATH) and an NVIDIA GPU";
  if (n.status != profile::NcuStatus::no_kernel && n.status != profile::NcuStatus::failed) return n.reason;
  if (resp && !resp->fatal_error.empty())
    return "the MSKB worker could not run the launcher under ncu: " + resp->fatal_error +
           (resp->gpu_name.empty() ? " (counters need an NVIDIA GPU)" : "");
  if (resp && !resp->results.empty() && resp->results.front().status != mskb::Status::ok)
    return fmt::format("the launcher did not run under ncu: {}: {}", enum_name(resp->results.front().status),
                       resp->results.front().error);
  return n.reason;
}

}  // namespace

engine::cudamaster::ProfileResult profile_mskb_launcher(const mskb::Task& t, mskb::Precision p,
                                                        const std::string& library, mskb::Role role,
                                                        int case_index, const MskbProfileContext& context,
                                                        const MskbProfileOptions& opts) {
  engine::cudamaster::ProfileResult r;
  std::string worker = opts.worker.empty() ? mskb::find_mskb_worker() : opts.worker;
  profile::NcuOutcome n;
  std::optional<mskb::MskbResponse> resp;
  std::error_code ec;
  std::string dir = (fs::temp_directory_path(ec) / "ucutlass-mskb-profile-XXXXXX").string();
  if (worker.empty()) {
    n.reason = "ucutlass-mskb-worker is not installed (it is built only where CMake finds a CUDA compiler)";
  } else if (ec || !::mkdtemp(dir.data())) {
    n.reason =
        "cannot create a scratch folder for the worker's request: check that TMPDIR (or /tmp) is writable";
  } else {
    mskb::MskbRequest req;
    req.task = t.name;
    req.precision = p;
    req.impls = {{role, library}};
    req.items = {{case_index, 0}};
    req.profile_only = true;
    std::string req_path = dir + "/request.json", resp_path = dir + "/response.json";
    { std::ofstream(req_path) << nlohmann::json(req).dump(1); }
    profile::NcuOptions no = worker_ncu_options(opts.ncu, opts.timeout_s);
    n = profile::run_ncu(no, {worker, req_path, resp_path});
    resp = read_response(resp_path);
    fs::remove_all(dir, ec);
  }
  r.seconds = n.seconds;
  std::string source = fmt::format("{} case {}", mskb::launcher_name(t, p),
                                   t.cases.at(static_cast<size_t>(case_index)).label());
  std::optional<double> measured_ms = context.measured_ms;
  if (n.ok()) {
    const profile::KernelProfile& k = n.kernels[profile::longest_kernel(n.kernels)];
    r.counters = k;
    r.counters->source = source;
    r.kernel = short_kernel_name(k.kernel);
    if (!measured_ms) {
      double ns = 0;
      for (const profile::KernelProfile& each : n.kernels)
        ns += each.get(profile::metric::duration).value_or(0);
      if (ns > 0) measured_ms = ns * 1e-6;
    }
    r.filtered = profile::filter(k, profile::classify(k, opts.thresholds));
    r.filtered.kernel = r.kernel;
    if (context.sol_ms > 0 && measured_ms && *measured_ms > 0)
      r.filtered.sol_pct = 100 * context.sol_ms / *measured_ms;
    return r;
  }
  profile::DegradedInput in;
  in.kernel = r.kernel = mskb::launcher_name(t, p) + (role == mskb::Role::naive ? "" : "_optimized");
  in.reason = no_counters_reason(n, resp);
  if (measured_ms) in.duration_ns = *measured_ms * 1e6;
  if (context.sol_ms > 0 && measured_ms && *measured_ms > 0) in.sol_pct = 100 * context.sol_ms / *measured_ms;
  in.roofline_bound = context.roofline_bound;
  r.filtered = profile::degraded(in, opts.thresholds);
  return r;
}

}  // namespace ucut
