// support/subprocess.cpp — fork/exec with pipes, poll() with a deadline, and process-group kill.
#include "support/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>

namespace ucut {

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + error;
  if (idle_timed_out)
    return "timed out: no progress for too long, killed after " + std::to_string(static_cast<int>(seconds + 0.5)) + " s";
  if (timed_out) return "timed out after " + std::to_string(static_cast<int>(seconds + 0.5)) + " s";
  if (signal) return std::string("killed by signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

namespace {

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult r;
  auto start = std::chrono::steady_clock::now();
  int out_pipe[2], err_pipe[2], in_pipe[2];
  // Close-on-exec: a child forked meanwhile by another thread (build_all runs nvcc in parallel) must not
  // inherit these ends and hold this child's stdin or output open. dup2 onto 0/1/2 clears the flag.
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 || pipe2(in_pipe, O_CLOEXEC) != 0) {
    r.started = false;
    r.error = std::strerror(errno);
    return r;
  }
  // The child reports exec failure through this close-on-exec pipe.
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    r.started = false;
    r.error = std::strerror(errno);
    return r;
  }
  pid_t pid = fork();
  if (pid < 0) {
    r.started = false;
    r.error = std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);  // its own group: a timeout kills everything it started
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0]}) close(fd);
    for (const std::string& e : options.extra_env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    int e = errno;
    if (write(exec_pipe[1], &e, sizeof e) < 0) _exit(127);
    _exit(127);
  }
  setpgid(pid, pid);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  int exec_errno = 0;
  if (read(exec_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    close(exec_pipe[0]);
    waitpid(pid, nullptr, 0);
    for (int fd : {in_pipe[1], out_pipe[0], err_pipe[0]}) close(fd);
    r.started = false;
    r.error = argv[0] + ": " + std::strerror(exec_errno);
    return r;
  }
  close(exec_pipe[0]);

  int in_fd = in_pipe[1], out_fd = out_pipe[0], err_fd = err_pipe[0];
  std::string input = options.stdin_text.value_or("");
  size_t written = 0;
  if (input.empty()) close_fd(in_fd);
  fcntl(in_fd, F_SETFL, O_NONBLOCK);
  signal(SIGPIPE, SIG_IGN);
  char buf[65536];
  auto last_output = start;
  while (out_fd >= 0 || err_fd >= 0) {
    auto now = std::chrono::steady_clock::now();
    double elapsed = std::chrono::duration<double>(now - start).count();
    double idle = std::chrono::duration<double>(now - last_output).count();
    double left = 1e30;
    if (options.timeout_s > 0) left = options.timeout_s - elapsed;
    if (options.idle_timeout_s > 0) left = std::min(left, options.idle_timeout_s - idle);
    if (left <= 0) {
      r.timed_out = true;
      r.idle_timed_out = options.idle_timeout_s > 0 && idle >= options.idle_timeout_s;
      kill(-pid, SIGKILL);
      break;
    }
    int wait_ms = left >= 1e29 ? -1 : static_cast<int>(left * 1000) + 1;
    pollfd fds[3];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    if (poll(fds, n, wait_ms) < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in_fd) {
        ssize_t w = write(in_fd, input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == input.size()) close_fd(in_fd);
        continue;
      }
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      std::string& sink = fds[i].fd == out_fd ? r.out : r.err;
      if (got <= 0) {
        close_fd(fds[i].fd == out_fd ? out_fd : err_fd);
      } else {
        last_output = std::chrono::steady_clock::now();
        if (options.on_output) options.on_output(buf, static_cast<size_t>(got));
        if (sink.size() < options.max_output_bytes) sink.append(buf, static_cast<size_t>(got));
      }
    }
  }
  close_fd(in_fd);
  close_fd(out_fd);
  close_fd(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.timed_out) {
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  }
  return r;
}

}  // namespace ucut
