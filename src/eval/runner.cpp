// eval/runner.cpp — the worker's supervisor.
#include "eval/runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/subprocess.h"

namespace fs = std::filesystem;

namespace ucut {

std::string find_beside_executable(const std::string& name, const char* env_var) {
  if (const char* w = std::getenv(env_var)) return w;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = self.parent_path() / name;
    if (fs::is_regular_file(beside, ec)) return beside.string();
  }
  return "";
}

std::string find_worker() { return find_beside_executable("ucutlass-worker", "UCUT_WORKER"); }

namespace {

std::string tail(const std::string& s, size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

std::optional<WorkerResponse> read_response(const fs::path& path, std::string* error) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return nlohmann::json::parse(ss.str()).get<WorkerResponse>();
  } catch (const std::exception& e) {
    *error = std::string("unreadable worker response: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace

WorkerResponse run_worker(const WorkerRequest& req, const RunnerOptions& opts) {
  WorkerResponse merged;
  if (opts.worker.empty()) {
    merged.fatal_error = "ucutlass-worker is not installed (it is built only where CMake finds a CUDA compiler)";
    return merged;
  }
  fs::path dir = opts.scratch_dir.empty()
                     ? fs::temp_directory_path() / fmt::format("ucutlass-run-{}-{}", getpid(), std::rand())
                     : fs::path(opts.scratch_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::vector<GemmShape> remaining = req.shapes;
  bool first = true;
  int attempt = 0;
  while (first || !remaining.empty()) {
    first = false;
    WorkerRequest part = req;
    part.shapes = remaining;
    fs::path req_path = dir / fmt::format("request-{}.json", attempt), resp_path = dir / fmt::format("response-{}.json", attempt);
    ++attempt;
    { std::ofstream(req_path) << nlohmann::json(part).dump(1); }
    // The worker prints a progress line per phase of every shape: a hung kernel is killed after
    // seconds_per_shape of silence, however many shapes are left.
    ProcessOptions po;
    po.idle_timeout_s = opts.seconds_per_shape;
    ProcessResult p = run_process({opts.worker, req_path.string(), resp_path.string()}, po);
    std::string parse_error;
    std::optional<WorkerResponse> got = read_response(resp_path, &parse_error);
    // Killed (crash or deadline) before its first answer: the first shape was in flight. It is recorded
    // below like any lost shape, and a fresh worker measures the rest.
    if (!got && parse_error.empty() && !remaining.empty() && (p.signal != 0 || p.timed_out)) got = WorkerResponse{};
    if (!got) {
      merged.fatal_error = fmt::format("the worker {} without an answer{}{}", p.describe(),
                                       parse_error.empty() ? "" : ": " + parse_error,
                                       p.err.empty() ? "" : "; stderr: " + tail(p.err, 2000));
      break;
    }
    std::vector<ShapeResult> answered = std::move(got->shapes);
    std::string fatal = got->fatal_error;
    if (merged.gpu_name.empty() || !got->gpu_name.empty()) {
      got->shapes.clear();
      got->fatal_error.clear();
      std::vector<ShapeResult> keep = std::move(merged.shapes);
      merged = std::move(*got);
      merged.shapes = std::move(keep);
    }
    for (ShapeResult& s : answered) merged.shapes.push_back(std::move(s));
    remaining.erase(remaining.begin(), remaining.begin() + static_cast<long>(std::min(answered.size(), remaining.size())));
    if (remaining.empty()) break;
    if (answered.empty() && !fatal.empty() && p.ok() == false && p.signal == 0 && !p.timed_out) {
      merged.fatal_error = fatal;  // nothing ran at all: no GPU, a library that does not load, a bad request
      break;
    }
    // The shape in flight died with the worker (crash, hang, or a lost CUDA context): record it, move on.
    bool lost_context = !fatal.empty() && answered.size() > 0 && !p.timed_out && p.signal == 0;
    if (!lost_context) {
      ShapeResult lost;
      lost.shape = remaining.front();
      lost.status = p.timed_out ? "timed_out" : "crashed";
      lost.error = fmt::format("the worker {} while measuring this shape{}", p.describe(),
                               p.err.empty() ? "" : "; stderr: " + tail(p.err, 2000));
      merged.shapes.push_back(lost);
      remaining.erase(remaining.begin());
    }
  }
  if (opts.scratch_dir.empty()) fs::remove_all(dir, ec);
  return merged;
}

}  // namespace ucut
