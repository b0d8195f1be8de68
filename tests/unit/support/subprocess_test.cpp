// tests/unit/support/subprocess_test.cpp — support/subprocess.h: exit codes, captured output, stdin,
// signals, deadlines that kill the whole process group, exec failure and the environment.
#include "support/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

namespace ucut {
namespace {

ProcessResult sh(const std::string& script, const ProcessOptions& o = {}) {
  return run_process({"/bin/sh", "-c", script}, o);
}

/// True once `pid` is gone or a zombie waiting to be reaped by someone else; waits up to `seconds`.
bool process_ends(pid_t pid, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    size_t close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(Subprocess, ExitCode) {
  ProcessResult ok = sh("exit 0");
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.started);
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.signal, 0);
  EXPECT_FALSE(ok.timed_out);
  EXPECT_EQ(ok.describe(), "exit code 0");

  ProcessResult bad = sh("exit 42");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.started);
  EXPECT_EQ(bad.exit_code, 42);
  EXPECT_EQ(bad.signal, 0);
  EXPECT_EQ(bad.describe(), "exit code 42");
}

TEST(Subprocess, CapturesStdoutAndStderrSeparately) {
  ProcessResult r = sh("printf 'to out\\nline 2\\n'; printf 'to err' >&2; exit 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "to out\nline 2\n");
  EXPECT_EQ(r.err, "to err");
}

TEST(Subprocess, CapturesLargeOutputOnBothStreams) {
  // More than a pipe buffer on each stream at once: the parent must drain both while the child writes.
  ProcessResult r = sh("head -c 1000000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2");
  ASSERT_TRUE(r.ok()) << r.describe() << r.err.substr(0, 200);
  EXPECT_EQ(r.out.size(), 1000000u);
  EXPECT_EQ(r.err.size(), 300000u);
  EXPECT_EQ(r.out.find_first_not_of('a'), std::string::npos);
  EXPECT_EQ(r.err.find_first_not_of('b'), std::string::npos);
}

TEST(Subprocess, ArgumentsArePassedVerbatim) {
  ProcessResult r = run_process({"/bin/sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "", "$HOME", "*"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "a b||$HOME|*|");
}

TEST(Subprocess, SearchesPath) {
  ProcessResult r = run_process({"sh", "-c", "echo found"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "found\n");
}

TEST(Subprocess, StdinIsDeliveredAndClosed) {
  ProcessResult r = run_process({"cat"}, {.stdin_text = std::string("hello\nworld")});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "hello\nworld");
}

TEST(Subprocess, LargeStdinIsDeliveredWithoutDeadlock) {
  // cat echoes as it reads: the parent must read stdout while it still writes stdin.
  std::string input;
  for (int i = 0; input.size() < 3'000'000; ++i) input += std::to_string(i) + "\n";
  ProcessResult r = run_process({"cat"}, {.timeout_s = 120, .stdin_text = input});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out.size(), input.size());
  EXPECT_TRUE(r.out == input);
}

TEST(Subprocess, NoStdinMeansEndOfFile) {
  // Without stdin_text the child's stdin is at EOF at once (cat must not wait for input).
  ProcessResult r = run_process({"cat"}, {.timeout_s = 60});
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "");
}

TEST(Subprocess, KilledBySignal) {
  ProcessResult r = sh("ulimit -c 0; kill -SEGV $$");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.started);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, SIGSEGV);
  std::string d = r.describe();
  EXPECT_NE(d.find("killed by"), std::string::npos) << d;
  EXPECT_NE(d.find(std::to_string(SIGSEGV)), std::string::npos) << d;
  EXPECT_NE(d.find(strsignal(SIGSEGV)), std::string::npos) << d;

  ProcessResult k = sh("kill -KILL $$");
  EXPECT_EQ(k.signal, SIGKILL);
  EXPECT_FALSE(k.ok());
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  // The child starts a grandchild in the background and waits: killing only the child would leave the
  // grandchild holding stdout open, and run_process blocked until it ends 100 s later.
  char dir_template[] = "/tmp/ucut-subprocess-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  std::string pidfile = std::string(dir_template) + "/sleep.pid";
  auto start = std::chrono::steady_clock::now();
  ProcessResult r = sh("sleep 100 & echo $! > " + pidfile + "; echo started; wait", {.timeout_s = 1.5});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.started);
  EXPECT_LT(took, 30.0);  // the deadline, plus generous slack for a loaded machine; far below the sleep
  EXPECT_GE(took, 1.4);
  EXPECT_GE(r.seconds, 1.4);
  EXPECT_EQ(r.out, "started\n");  // output before the deadline is kept
  EXPECT_NE(r.describe().find("timed out"), std::string::npos) << r.describe();

  std::ifstream in(pidfile);
  pid_t grandchild = 0;
  ASSERT_TRUE(in >> grandchild) << "no pid file";
  EXPECT_TRUE(process_ends(grandchild, 10)) << "the background sleep " << grandchild << " survived the timeout";
  kill(grandchild, SIGKILL);  // in case the assertion above failed: leave nothing behind
  std::remove(pidfile.c_str());
  rmdir(dir_template);
}

TEST(Subprocess, TimeoutWhenTheChildExitsButItsBackgroundJobKeepsTheOutputOpen) {
  auto start = std::chrono::steady_clock::now();
  ProcessResult r = sh("sleep 100 & echo bye", {.timeout_s = 1.5});
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 30.0);
  EXPECT_EQ(r.out, "bye\n");
}

TEST(Subprocess, FinishesBeforeTheDeadline) {
  ProcessResult r = sh("echo quick", {.timeout_s = 60});
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(r.seconds, 30.0);
}

TEST(Subprocess, MissingExecutable) {
  ProcessResult r = run_process({"/nonexistent/ucut-no-such-binary", "--version"});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("ucut-no-such-binary"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(std::strerror(ENOENT)), std::string::npos) << r.error;
  EXPECT_NE(r.describe().find("could not start"), std::string::npos) << r.describe();

  ProcessResult p = run_process({"ucut-no-such-binary-in-path"});
  EXPECT_FALSE(p.started);
}

TEST(Subprocess, NotExecutable) {
  char path[] = "/tmp/ucut-noexec-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ProcessResult r = run_process({path});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find(std::strerror(EACCES)), std::string::npos) << r.error;
  unlink(path);
}

TEST(Subprocess, ExtraEnvIsVisibleToTheChild) {
  ProcessResult r = sh("printf '%s/%s' \"$UCUT_TEST_A\" \"$UCUT_TEST_B\"",
                       {.extra_env = {"UCUT_TEST_A=one two", "UCUT_TEST_B=x=y"}});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "one two/x=y");
  // ... and only to the child.
  EXPECT_EQ(getenv("UCUT_TEST_A"), nullptr);
  // The rest of the environment is inherited.
  ProcessResult path = sh("printf '%s' \"$PATH\"");
  ASSERT_NE(getenv("PATH"), nullptr);
  EXPECT_EQ(path.out, getenv("PATH"));
}

TEST(Subprocess, ExtraEnvOverridesTheInheritedValue) {
  setenv("UCUT_TEST_OVERRIDE", "parent", 1);
  ProcessResult r = sh("printf '%s' \"$UCUT_TEST_OVERRIDE\"", {.extra_env = {"UCUT_TEST_OVERRIDE=child"}});
  unsetenv("UCUT_TEST_OVERRIDE");
  EXPECT_EQ(r.out, "child");
}

TEST(Subprocess, OutputBeyondTheLimitIsTruncated) {
  ProcessResult r = sh("head -c 2000000 /dev/zero", {.max_output_bytes = 100000});
  EXPECT_TRUE(r.ok()) << r.describe();  // the child is drained, not blocked
  EXPECT_GE(r.out.size(), 100000u);
  EXPECT_LT(r.out.size(), 2000000u);
}

TEST(Subprocess, OnOutputSeesEveryChunkWhileTheChildRuns) {
  std::string seen;
  bool seen_before_exit = false;
  ProcessOptions o;
  o.timeout_s = 60;
  // The child waits for a file that only on_output creates: the first line must arrive while it still runs.
  std::string flag = "/tmp/ucut-on-output-" + std::to_string(getpid());
  o.on_output = [&](const char* data, size_t size) {
    seen.append(data, size);
    if (!seen_before_exit) std::ofstream(flag) << "x";
    seen_before_exit = true;
  };
  ProcessResult r = sh("echo first; while [ ! -f " + flag + " ]; do sleep 0.05; done; echo second >&2", o);
  std::remove(flag.c_str());
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(seen, "first\nsecond\n");
  EXPECT_EQ(r.out, "first\n");
  EXPECT_EQ(r.err, "second\n");
}

/// The descriptors open in a child shell (listed by one of its children).
std::set<std::string> child_fds() {
  ProcessResult r = run_process({"/bin/sh", "-c", "ls /proc/$$/fd"}, {.timeout_s = 60});
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  std::set<std::string> fds;
  std::istringstream in(r.out);
  for (std::string fd; in >> fd;) fds.insert(fd);
  return fds;
}

TEST(Subprocess, ConcurrentCallsDoNotLeakPipesIntoEachOther) {
  // Two threads run children at once (as build_all does with nvcc). A child must inherit only its own
  // stdin/stdout/stderr: a pipe end of the other thread's child held open by a long-lived process keeps
  // that child's stdin or output from reaching EOF until the unrelated process ends.
  std::set<std::string> baseline = child_fds();
  ASSERT_TRUE(baseline.count("0") && baseline.count("1") && baseline.count("2"));
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop) run_process({"cat"}, {.timeout_s = 60, .stdin_text = std::string(200000, 'x')});
  });
  int leaks = 0;
  std::string example;
  for (int i = 0; i < 60; ++i)
    for (const std::string& fd : child_fds())
      if (!baseline.count(fd)) {
        ++leaks;
        example += fd + " ";
      }
  stop = true;
  churn.join();
  EXPECT_EQ(leaks, 0) << "children saw descriptors beyond their own: " << example;
}

}  // namespace
}  // namespace ucut
