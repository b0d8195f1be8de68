// eval/runner.cpp — the worker's supervisor.
#include "eval/runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

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

/// The phase the worker last reported on stderr ("[ucutlass-worker] SHAPE: PHASE (T s)"), or "".
std::string last_phase(const std::string& err) {
  constexpr std::string_view kPrefix = "[ucutlass-worker] ";
  for (size_t end = err.size(); end > 0;) {
    size_t start = err.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string_view line = std::string_view(err).substr(start, end - start);
    end = start > 0 ? start - 1 : 0;
    if (!line.starts_with(kPrefix)) continue;
    size_t colon = line.rfind(": "), open = line.rfind(" (");
    if (colon == std::string_view::npos || open == std::string_view::npos || open < colon) return "";
    return std::string(line.substr(colon + 2, open - colon - 2));
  }
  return "";
}

/// The phases that time a vendor library (cuBLAS, cuDNN) beside the candidate.
bool vendor_phase(const std::string& phase) { return phase == "cublas" || phase == "cudnn" || phase == "cublas_grouped"; }

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
  // Set when the vendor baseline hung on the shape in flight (cudnnFind on a huge convolution can run for minutes):
  // that shape is measured again alone without it, so the candidate's results are not lost with the baseline.
  std::string vendor_hung;
  while (first || !remaining.empty()) {
    first = false;
    WorkerRequest part = req;
    part.shapes = remaining;
    if (!vendor_hung.empty()) {
      part.shapes.resize(1);
      part.time_cublas = false;
    }
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
    for (ShapeResult& s : answered) {
      if (!vendor_hung.empty()) s.cublas_error = std::exchange(vendor_hung, "");
      merged.shapes.push_back(std::move(s));
    }
    remaining.erase(remaining.begin(), remaining.begin() + static_cast<long>(std::min(answered.size(), remaining.size())));
    if (part.shapes.empty())
      merged.fatal_error = fatal;  // calibrate and probe ask for no shape: keep their error
    if (remaining.empty()) break;
    if (answered.size() >= part.shapes.size()) continue;  // a retry of one shape answered it: on to the rest
    if (answered.empty() && !fatal.empty() && p.ok() == false && p.signal == 0 && !p.timed_out) {
      merged.fatal_error = fatal;  // nothing ran at all: no GPU, a library that does not load, a bad request
      break;
    }
    // The shape in flight died with the worker (crash, hang, or a lost CUDA context): record it, move on.
    bool lost_context = !fatal.empty() && answered.size() > 0 && !p.timed_out && p.signal == 0;
    if (std::string phase = last_phase(p.err); !lost_context && p.timed_out && part.time_cublas && vendor_phase(phase)) {
      vendor_hung = fmt::format("the {} baseline {} on this shape; the shape was measured again without it", phase,
                                p.describe());
      continue;
    }
    if (!lost_context) {
      vendor_hung.clear();
      ShapeResult lost;
      lost.shape = remaining.front();
      lost.status = p.timed_out ? ShapeStatus::timed_out : ShapeStatus::crashed;
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
