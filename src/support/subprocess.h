// support/subprocess.h — runs a child process with a deadline and captures its output. Used for nvcc
// (build/) and for the GPU worker (eval/): a hung or crashing child is reported, never inherited.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ucut {

struct ProcessResult {
  int exit_code = -1;     // valid when !signaled && !timed_out
  int signal = 0;         // the signal that ended it, if any
  bool timed_out = false; // killed (with its whole process group) at a deadline
  bool idle_timed_out = false;  // ...the idle deadline: no output for idle_timeout_s
  bool started = true;    // false when exec failed (error says why)
  double seconds = 0;
  std::string out, err;
  std::string error;

  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  /// "exit code 2", "killed by SIGSEGV", "timed out after 30 s", "could not start: ..."
  std::string describe() const;
};

struct ProcessOptions {
  static ProcessOptions with_timeout(double seconds) {
    ProcessOptions o;
    o.timeout_s = seconds;
    return o;
  }
  double timeout_s = 0;                    // 0: no deadline
  double idle_timeout_s = 0;               // kill when the child writes nothing for this long (0: never)
  std::optional<std::string> stdin_text;   // written to the child's stdin, then closed
  std::vector<std::string> extra_env;      // "NAME=value" entries added to the environment
  size_t max_output_bytes = 64 << 20;      // beyond this, output is truncated (a runaway child cannot OOM us)
  std::function<void(const char* data, size_t size)> on_output;  // sees every chunk of stdout and stderr as it comes
};

/// Runs argv[0] (searched in PATH) with argv; blocks until it ends or the deadline passes.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace ucut
