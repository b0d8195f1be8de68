// tests/unit/cli/progress_lines_test.cpp — long commands show a status line on stderr when it is a terminal
// (here a pseudo-terminal) and nothing of it when stderr is a pipe or the output is --json: `suite check`,
// `build` and `bench kernelbench` (a seeded build cache and a worker script that finds no GPU stand in for
// nvcc and the device). Run as the binary.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <regex>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using profile::testing::source_path;

constexpr const char* kErase = "\r\x1b[K";
constexpr const char* kSpec = "bench/kernelbench/impl/L1_001_square_matmul.ucut";
constexpr const char* kSuiteProblem = "suites/kernelbench/level1/L1_001_square_matmul.toml";

struct Seen {
  int exit_code = -1;
  std::string terminal;  // what stderr wrote
};

/// Runs `ucutlass args` with stderr on a pseudo-terminal (TERM=xterm) and stdout on /dev/null.
Seen on_terminal(const std::vector<std::string>& args) {
  std::vector<std::string> words = {ucut::test_paths::cli_path()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = {"TERM=xterm",
                                  "PATH=" + std::string(getenv("PATH") ? getenv("PATH") : "/usr/bin")};
  if (const char* home = getenv("HOME")) env.push_back(std::string("HOME=") + home);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int null = open("/dev/null", O_WRONLY);
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    dup2(null, STDOUT_FILENO);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(null);
  Seen seen;
  if (pid < 0) return seen;
  char buf[4096];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n > 0)
      seen.terminal.append(buf, static_cast<size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else
      break;  // EIO once the child and its terminal are gone
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  seen.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return seen;
}

ProcessResult piped(std::vector<std::string> args) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
  ProcessOptions o = ProcessOptions::with_timeout(120);
  o.extra_env.push_back("TERM=xterm");
  return run_process(args, o);
}

/// The last status line drawn (after the last erase that starts one).
std::string last_status(const std::string& terminal) {
  std::string last;
  for (size_t at = terminal.find(kErase); at != std::string::npos; at = terminal.find(kErase, at + 1)) {
    size_t end = terminal.find_first_of("\r\n", at + 4);
    std::string line = terminal.substr(at + 4, end == std::string::npos ? std::string::npos : end - at - 4);
    if (!line.empty()) last = line;
  }
  return last;
}

TEST(ProgressLines, SuiteCheckCountsTheFilesOnATerminalOnly) {
  std::string suite = source_path("suites/kernelbench");
  Seen tty = on_terminal({"suite", "check", suite});
  EXPECT_EQ(tty.exit_code, 0) << tty.terminal;
  EXPECT_TRUE(std::regex_search(last_status(tty.terminal),
                                std::regex(R"(^checking \[(\d+)/\1\] \(\d+:\d\d elapsed\)$)")))
      << last_status(tty.terminal);
  EXPECT_TRUE(tty.terminal.ends_with(kErase)) << "the status line is erased before the table";
  ProcessResult pipe = piped({"suite", "check", suite});
  EXPECT_EQ(pipe.exit_code, 0);
  EXPECT_EQ(pipe.err, "");
  Seen json = on_terminal({"suite", "check", suite, "--json"});
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_EQ(json.terminal, "");
}

TEST(ProgressLines, BuildAndBenchCountTheirWorkOnATerminalOnly) {
  ucut::testing::TempDir dir{"ucut-progress"};
  std::string cache = dir.file("cache");
  if (!profile::testing::seed_build_cache(cache, kSpec))
    GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
  std::vector<std::string> build = {"build", source_path(kSpec), "--cache-dir", cache};
  Seen tty = on_terminal(build);
  EXPECT_EQ(tty.exit_code, 0) << tty.terminal;
  EXPECT_TRUE(last_status(tty.terminal).starts_with("building [1/1] (")) << tty.terminal;
  ProcessResult pipe = piped(build);
  EXPECT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_EQ(pipe.err.find("building ["), std::string::npos) << pipe.err;

  std::string worker = profile::testing::worker_without_gpu(dir.path());
  std::vector<std::string> bench = {"bench", "kernelbench", "--impl", source_path("bench/kernelbench/impl")};
  bench.insert(bench.end(), {"--suite", source_path(kSuiteProblem), "--no-torch", "--cache-dir", cache});
  bench.insert(bench.end(), {"--worker", worker, "--out", dir.file("out")});
  tty = on_terminal(bench);
  EXPECT_EQ(tty.exit_code, 4) << tty.terminal;  // built; measuring needs a GPU
  EXPECT_NE(tty.terminal.find("building [1/1] ("), std::string::npos) << tty.terminal;
  EXPECT_NE(tty.terminal.find("measuring [1/1] ("), std::string::npos) << tty.terminal;
  pipe = piped(bench);
  EXPECT_EQ(pipe.exit_code, 4) << pipe.err;
  EXPECT_EQ(pipe.err.find(kErase), std::string::npos) << pipe.err;
  EXPECT_EQ(pipe.err.find("measuring ["), std::string::npos) << pipe.err;
}

}  // namespace
}  // namespace ucut
