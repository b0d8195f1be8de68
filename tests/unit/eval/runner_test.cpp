// tests/unit/eval/runner_test.cpp — eval/runner.h with fake workers: small Python scripts invoked as the
// real one is (`WORKER REQUEST.json RESPONSE.json`), rewriting RESPONSE after every shape. Each fake
// decides what to do from the shape's label: answer, hang, crash, report a fatal error, lose the context.
#include "eval/runner.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace ucut {
namespace {

std::string python() {
  for (const char* p : {"/usr/bin/python3", "/usr/local/bin/python3"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

// Labels: "ok" answers; "hang" sleeps forever; "vendor-hang" reports the cudnn phase, then sleeps forever unless the
// request leaves the vendor baseline out; "candidate-hang" reports the candidate phase, then sleeps forever; "crash" dies by SIGSEGV; "quit" exits 0 silently;
// "lost" answers cuda_error then reports a lost context (exit 4), as the real worker does;
// "stderr-crash" writes to stderr, then crashes. A "fatal" request (kernel_path) exits 3 before any shape.
constexpr const char* kFakeWorker = R"PY(
import json, os, signal, sys, time
req_path, resp_path = sys.argv[1], sys.argv[2]
req = json.load(open(req_path))
with open(LOG, "a") as log:
    log.write(" ".join(s["label"] for s in req.get("shapes", [])) + "\n")
with open(LOG + ".dirs", "a") as log:
    log.write(os.path.dirname(os.path.abspath(req_path)) + "\n")

resp = {"gpu_name": "Fake GPU", "gpu_uuid": "GPU-fake", "sm_count": 132, "l2_bytes": 52428800,
        "kernel_name": "fake_kernel", "shapes": []}

def write():
    tmp = resp_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(resp, f)
    os.rename(tmp, resp_path)

if req.get("kernel_path") == "fatal":
    resp = {"fatal_error": "timing needs a CUDA GPU, and none is usable here: no devices"}
    write()
    sys.exit(3)
if req.get("kernel_path") == "garbage":
    open(resp_path, "w").write("{ not json")
    sys.exit(0)
if req.get("kernel_path") == "silent":
    sys.exit(7)
if req.get("mode") == "calibrate":
    resp["calibration"] = {"copy_tbs": 4.0, "method": "fake"}
    write()
    sys.exit(0)

for s in req["shapes"]:
    label = s["label"]
    if label == "hang":
        time.sleep(1000)
    if label in ("vendor-hang", "candidate-hang"):
        phase = "cudnn" if label == "vendor-hang" else "candidate"
        if label == "candidate-hang" or req.get("time_cublas", True):
            sys.stderr.write("[ucutlass-worker] %dx%dx%d: reference (0.1 s)\n" % (s["m"], s["n"], s["k"]))
            sys.stderr.write("[ucutlass-worker] %dx%dx%d: %s (0.2 s)\n" % (s["m"], s["n"], s["k"], phase))
            sys.stderr.flush()
            time.sleep(1000)
    if label == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if label == "stderr-crash":
        sys.stderr.write("illegal memory access in the fake kernel\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if label == "quit":
        sys.exit(0)
    result = {"shape": s, "status": "ok", "reference_kind": "cpu-f64",
              "error": "pid %d" % os.getpid(),
              "verify": {"checked": s["m"] * s["n"], "pass": True, "max_rel_err": "inf" if label == "inf" else 0.001},
              "candidate": {"measured": True, "event_ms": {"n": req["trials"], "median": 0.5},
                            "wall_ms": {"n": req["trials"], "median": 0.52}}}
    if label == "lost":
        result["status"] = "cuda_error"
        result["error"] = "an illegal memory access was encountered"
    resp["shapes"].append(result)
    write()
    if label == "lost":
        resp["fatal_error"] = "the CUDA context was lost; the remaining shapes need a fresh worker"
        write()
        sys.exit(4)
write()
)PY";

class Runner : public ::testing::Test {
 protected:
  void SetUp() override {
    if (python().empty()) GTEST_SKIP() << "python3 is needed for the fake workers";
    char tmpl[] = "/tmp/ucut-runner-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    worker_ = dir_ + "/fake-worker";
    log_ = dir_ + "/invocations.log";
    std::ofstream(worker_) << "#!" << python() << "\nLOG = " << '"' << log_ << '"' << kFakeWorker;
    chmod(worker_.c_str(), 0755);
    fs::create_directories(dir_ + "/scratch");
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  static WorkerRequest request(const std::vector<std::string>& labels) {
    WorkerRequest r;
    r.trials = 7;
    int64_t i = 1;
    for (const std::string& l : labels) {
      GemmShape s;
      s.m = 64 * i, s.n = 32 * i, s.k = 16 * i;
      s.label = l;
      r.shapes.push_back(s);
      ++i;
    }
    return r;
  }

  RunnerOptions options(double seconds_per_shape = 2) const {
    RunnerOptions o;
    o.worker = worker_;
    o.seconds_per_shape = seconds_per_shape;
    o.scratch_dir = dir_ + "/scratch";
    return o;
  }

  /// One line per worker started: the labels of the shapes it was asked for.
  std::vector<std::string> invocations() const {
    std::ifstream in(log_);
    std::vector<std::string> v;
    for (std::string line; std::getline(in, line);) v.push_back(line);
    return v;
  }

  std::string dir_, worker_, log_;
};

void expect_shapes(const WorkerResponse& r, const std::vector<std::string>& labels,
                   const std::vector<std::string>& statuses) {
  ASSERT_EQ(r.shapes.size(), labels.size()) << r.fatal_error;
  for (size_t i = 0; i < labels.size(); ++i) {
    EXPECT_EQ(r.shapes[i].shape.label, labels[i]) << i;
    EXPECT_EQ(r.shapes[i].shape.m, 64 * static_cast<int64_t>(i + 1)) << i;  // the request's shape, in order
    EXPECT_EQ(enum_name(r.shapes[i].status), statuses[i]) << i << ": " << r.shapes[i].error;
  }
}

TEST_F(Runner, AnswersEveryShapeInOrder) {
  WorkerResponse r = run_worker(request({"a", "b", "c"}), options());
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"a", "b", "c"}, {"ok", "ok", "ok"});
  EXPECT_EQ(r.gpu_name, "Fake GPU");
  EXPECT_EQ(r.sm_count, 132);
  EXPECT_EQ(r.kernel_name, "fake_kernel");
  EXPECT_TRUE(r.shapes[1].verify.pass);
  EXPECT_EQ(r.shapes[1].verify.checked, 128u * 64u);
  EXPECT_EQ(r.shapes[2].candidate.event_ms.n, 7);  // the request's fields reach the worker
  EXPECT_EQ(r.shapes[2].candidate.event_ms.median, 0.5);
  EXPECT_EQ(invocations(), std::vector<std::string>{"a b c"});
  // The request file carries the whole request.
  std::ifstream req(dir_ + "/scratch/request-0.json");
  ASSERT_TRUE(req);
  std::stringstream ss;
  ss << req.rdbuf();
  WorkerRequest back = nlohmann::json::parse(ss.str()).get<WorkerRequest>();
  EXPECT_EQ(back.trials, 7);
  EXPECT_EQ(back.shapes.size(), 3u);
}

TEST_F(Runner, InfiniteErrorsFromTheWorkerStayInfinite) {
  WorkerResponse r = run_worker(request({"inf"}), options());
  ASSERT_EQ(r.shapes.size(), 1u) << r.fatal_error;
  EXPECT_EQ(r.shapes[0].verify.max_rel_err, INFINITY);
}

TEST_F(Runner, HangCostsOnlyTheShapeInFlight) {
  auto start = std::chrono::steady_clock::now();
  WorkerResponse r = run_worker(request({"a", "hang", "c"}), options(2));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"a", "hang", "c"}, {"ok", "timed_out", "ok"});
  EXPECT_NE(r.shapes[1].error.find("timed out"), std::string::npos) << r.shapes[1].error;
  // The deadline is a fixed 60 s start-up allowance plus seconds_per_shape per shape left (3 here):
  // the hang is cut there, not after the fake's 1000 s sleep.
  EXPECT_LT(took, 60 + 2 * 3 + 60) << "the hung worker was not killed at its deadline";
  // A fresh worker measured only what was left.
  EXPECT_EQ(invocations(), (std::vector<std::string>{"a hang c", "c"}));
  EXPECT_NE(r.shapes[0].error, r.shapes[2].error);  // answered by different processes
  EXPECT_EQ(r.gpu_name, "Fake GPU");
}

TEST_F(Runner, AHungVendorBaselineCostsOnlyTheBaseline) {
  WorkerResponse r = run_worker(request({"a", "vendor-hang", "c"}), options(2));
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"a", "vendor-hang", "c"}, {"ok", "ok", "ok"});
  EXPECT_TRUE(r.shapes[1].candidate.measured);
  EXPECT_NE(r.shapes[1].cublas_error.find("the cudnn baseline timed out"), std::string::npos) << r.shapes[1].cublas_error;
  EXPECT_EQ(r.shapes[0].cublas_error, "");
  EXPECT_EQ(r.shapes[2].cublas_error, "");
  // The hung shape again, alone and without the baseline; then the rest with it.
  EXPECT_EQ(invocations(), (std::vector<std::string>{"a vendor-hang c", "vendor-hang", "c"}));
  std::ifstream retry(dir_ + "/scratch/request-1.json"), rest(dir_ + "/scratch/request-2.json");
  ASSERT_TRUE(retry && rest);
  std::stringstream a, b;
  a << retry.rdbuf();
  b << rest.rdbuf();
  EXPECT_FALSE(nlohmann::json::parse(a.str()).get<WorkerRequest>().time_cublas);
  EXPECT_TRUE(nlohmann::json::parse(b.str()).get<WorkerRequest>().time_cublas);
}

TEST_F(Runner, AHungCandidateIsNotRetried) {
  WorkerResponse r = run_worker(request({"candidate-hang", "b"}), options(2));
  expect_shapes(r, {"candidate-hang", "b"}, {"timed_out", "ok"});
  EXPECT_EQ(invocations(), (std::vector<std::string>{"candidate-hang b", "b"}));
}

TEST_F(Runner, CrashCostsOnlyTheShapeInFlight) {
  WorkerResponse r = run_worker(request({"a", "crash", "c"}), options());
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"a", "crash", "c"}, {"ok", "crashed", "ok"});
  EXPECT_NE(r.shapes[1].error.find("killed by signal 11"), std::string::npos) << r.shapes[1].error;
  EXPECT_EQ(invocations(), (std::vector<std::string>{"a crash c", "c"}));
  // The restart's request holds only the shapes left.
  std::ifstream req(dir_ + "/scratch/request-1.json");
  ASSERT_TRUE(req);
  std::stringstream ss;
  ss << req.rdbuf();
  WorkerRequest second = nlohmann::json::parse(ss.str()).get<WorkerRequest>();
  ASSERT_EQ(second.shapes.size(), 1u);
  EXPECT_EQ(second.shapes[0].label, "c");
  EXPECT_EQ(second.trials, 7);
}

TEST_F(Runner, CrashReportCarriesTheWorkersStderr) {
  WorkerResponse r = run_worker(request({"a", "stderr-crash"}), options());
  expect_shapes(r, {"a", "stderr-crash"}, {"ok", "crashed"});
  EXPECT_NE(r.shapes[1].error.find("illegal memory access in the fake kernel"), std::string::npos) << r.shapes[1].error;
}

TEST_F(Runner, SeveralCrashesEachCostOneShape) {
  WorkerResponse r = run_worker(request({"crash", "b", "crash", "crash", "e"}), options());
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"crash", "b", "crash", "crash", "e"}, {"crashed", "ok", "crashed", "crashed", "ok"});
}

TEST_F(Runner, CrashOnTheFirstShapeCostsOnlyThatShape) {
  // The worker writes its response only after a shape, so a crash on the first leaves no file at all.
  WorkerResponse r = run_worker(request({"crash", "b", "c"}), options());
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"crash", "b", "c"}, {"crashed", "ok", "ok"});
  EXPECT_EQ(r.gpu_name, "Fake GPU");
}

TEST_F(Runner, HangOnTheFirstShapeCostsOnlyThatShape) {
  auto start = std::chrono::steady_clock::now();
  WorkerResponse r = run_worker(request({"hang", "b"}), options(2));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.fatal_error, "");
  expect_shapes(r, {"hang", "b"}, {"timed_out", "ok"});
  EXPECT_LT(took, 60 + 2 * 2 + 60);
  EXPECT_EQ(invocations(), (std::vector<std::string>{"hang b", "b"}));
}

TEST_F(Runner, LostContextRestartsWithoutInventingALostShape) {
  WorkerResponse r = run_worker(request({"a", "lost", "c", "d"}), options());
  expect_shapes(r, {"a", "lost", "c", "d"}, {"ok", "cuda_error", "ok", "ok"});
  EXPECT_EQ(r.fatal_error, "");
  EXPECT_EQ(invocations(), (std::vector<std::string>{"a lost c d", "c d"}));
}

TEST_F(Runner, SilentExitCostsTheNextShape) {
  WorkerResponse r = run_worker(request({"a", "quit", "c"}), options());
  expect_shapes(r, {"a", "quit", "c"}, {"ok", "crashed", "ok"});
  EXPECT_NE(r.shapes[1].error.find("exit code 0"), std::string::npos) << r.shapes[1].error;
}

TEST_F(Runner, FatalErrorBeforeAnyShapeEndsTheRun) {
  WorkerRequest req = request({"a", "b", "c"});
  req.kernel_path = "fatal";
  WorkerResponse r = run_worker(req, options());
  EXPECT_NE(r.fatal_error.find("timing needs a CUDA GPU"), std::string::npos) << r.fatal_error;
  EXPECT_TRUE(r.shapes.empty());
  EXPECT_EQ(invocations().size(), 1u);  // not retried shape by shape
}

TEST_F(Runner, UnreadableResponseIsFatal) {
  WorkerRequest req = request({"a"});
  req.kernel_path = "garbage";
  WorkerResponse r = run_worker(req, options());
  EXPECT_NE(r.fatal_error.find("unreadable worker response"), std::string::npos) << r.fatal_error;
  EXPECT_TRUE(r.shapes.empty());
}

TEST_F(Runner, NoResponseAfterANormalExitIsFatal) {
  WorkerRequest req = request({"a", "b"});
  req.kernel_path = "silent";
  WorkerResponse r = run_worker(req, options());
  EXPECT_NE(r.fatal_error.find("exit code 7"), std::string::npos) << r.fatal_error;
  EXPECT_TRUE(r.shapes.empty());
  EXPECT_EQ(invocations().size(), 1u);
}

TEST_F(Runner, CalibrateModeRunsOnce) {
  WorkerRequest req;
  req.mode = WorkerMode::calibrate;
  WorkerResponse r = run_worker(req, options());
  EXPECT_EQ(r.fatal_error, "");
  EXPECT_EQ(r.calibration.value("method", ""), "fake");
  EXPECT_EQ(invocations().size(), 1u);
}

TEST_F(Runner, DefaultScratchDirectoryIsRemoved) {
  RunnerOptions o = options();
  o.scratch_dir = "";
  WorkerResponse r = run_worker(request({"a"}), o);
  ASSERT_EQ(r.shapes.size(), 1u) << r.fatal_error;
  // The fake logged where its request lived: a fresh directory, gone afterwards.
  std::ifstream dirs(log_ + ".dirs");
  std::string used;
  ASSERT_TRUE(std::getline(dirs, used));
  EXPECT_NE(fs::path(used), fs::path(dir_ + "/scratch"));
  EXPECT_FALSE(fs::exists(used)) << used;
}

TEST(RunnerNoWorker, EmptyWorkerPathIsFatal) {
  WorkerRequest req;
  req.shapes.resize(2);
  RunnerOptions o;
  o.worker = "";
  WorkerResponse r = run_worker(req, o);
  EXPECT_NE(r.fatal_error.find("ucutlass-worker"), std::string::npos) << r.fatal_error;
  EXPECT_TRUE(r.shapes.empty());
}

TEST(RunnerNoWorker, MissingWorkerBinaryIsFatal) {
  WorkerRequest req;
  req.shapes.resize(2);
  RunnerOptions o;
  o.worker = "/nonexistent/ucutlass-worker";
  char tmpl[] = "/tmp/ucut-runner-missing-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  o.scratch_dir = tmpl;
  WorkerResponse r = run_worker(req, o);
  EXPECT_NE(r.fatal_error.find("could not start"), std::string::npos) << r.fatal_error;
  EXPECT_TRUE(r.shapes.empty());
  std::error_code ec;
  fs::remove_all(tmpl, ec);
}

TEST(RunnerNoWorker, FindWorkerHonoursTheEnvironment) {
  const char* before = getenv("UCUT_WORKER");
  std::string saved = before ? before : "";
  setenv("UCUT_WORKER", "/some/where/ucutlass-worker", 1);
  EXPECT_EQ(find_worker(), "/some/where/ucutlass-worker");
  if (before)
    setenv("UCUT_WORKER", saved.c_str(), 1);
  else
    unsetenv("UCUT_WORKER");
}

}  // namespace
}  // namespace ucut
