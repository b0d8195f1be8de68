// mskb/runner.cpp
#include "mskb/runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "eval/runner.h"
#include "support/subprocess.h"

namespace fs = std::filesystem;

namespace ucut::mskb {

std::string find_mskb_worker() { return find_beside_executable("ucutlass-mskb-worker", "UCUT_MSKB_WORKER"); }

namespace {

std::string tail(const std::string& s, size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

std::optional<MskbResponse> read_response(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return nlohmann::json::parse(ss.str()).get<MskbResponse>();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

MskbResponse run_mskb_worker(const MskbRequest& req, const RunnerOptions& opts) {
  MskbResponse merged;
  if (opts.worker.empty()) {
    merged.fatal_error = "ucutlass-mskb-worker is not installed (it is built only where CMake finds a CUDA compiler)";
    return merged;
  }
  fs::path dir = fs::temp_directory_path() / fmt::format("ucutlass-mskb-{}-{}", getpid(), std::rand());
  std::error_code ec;
  fs::create_directories(dir, ec);
  MskbRequest part = req;
  for (int attempt = 0; !part.items.empty(); ++attempt) {
    fs::path req_path = dir / fmt::format("request-{}.json", attempt), resp_path = dir / fmt::format("response-{}.json", attempt);
    { std::ofstream(req_path) << nlohmann::json(part).dump(1); }
    ProcessOptions po;
    po.idle_timeout_s = opts.idle_seconds;
    if (opts.echo_progress) po.on_output = [](const char* data, size_t size) { std::fwrite(data, 1, size, stderr); };
    ProcessResult p = run_process({opts.worker, req_path.string(), resp_path.string()}, po);
    std::optional<MskbResponse> got = read_response(resp_path);
    bool died = p.signal != 0 || p.timed_out;
    if (!got && !died) {
      merged.fatal_error = fmt::format("the MSKB worker {} without an answer{}", p.describe(),
                                       p.err.empty() ? "" : "; stderr: " + tail(p.err, 2000));
      break;
    }
    if (!got) got = MskbResponse{};
    if (!got->gpu_name.empty()) {
      merged.gpu_name = got->gpu_name;
      merged.driver_version = got->driver_version;
      merged.runtime_version = got->runtime_version;
      merged.sm_count = got->sm_count;
      merged.l2_bytes = got->l2_bytes;
    }
    size_t answered = std::min(got->results.size(), part.items.size());
    for (size_t i = 0; i < answered; ++i) merged.results.push_back(got->results[i]);
    part.items.erase(part.items.begin(), part.items.begin() + static_cast<long>(answered));
    if (part.items.empty()) break;
    bool lost_context = !got->fatal_error.empty() && !died && answered > 0;
    if (!died && !lost_context) {  // nothing could run at all: no GPU, a bad request
      merged.fatal_error = got->fatal_error.empty() ? fmt::format("the MSKB worker {}", p.describe()) : got->fatal_error;
      break;
    }
    if (died) {  // the item in flight died with the worker
      ItemResult lost;
      lost.item = part.items.front();
      lost.role = req.impls.at(static_cast<size_t>(lost.item.impl)).role;
      lost.status = p.timed_out ? Status::timed_out : Status::crashed;
      lost.error = fmt::format("the worker {} while running this launcher{}", p.describe(),
                               p.err.empty() ? "" : "; stderr: " + tail(p.err, 2000));
      merged.results.push_back(lost);
      part.items.erase(part.items.begin());
    }
  }
  fs::remove_all(dir, ec);
  return merged;
}

}  // namespace ucut::mskb
