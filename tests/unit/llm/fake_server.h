// tests/unit/llm/fake_server.h — the scripted OpenAI-compatible server (fake_openai_server.py) as a test
// resource: started on a script of turns, its requests read back, killed and reaped when the object goes.
// Header-only: the unit-test target globs only *_test.cpp.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "../temp_dir.h"
#include "../test_paths.h"

namespace ucut::testing {

class FakeOpenAiServer {
 public:
  FakeOpenAiServer() = default;
  FakeOpenAiServer(const FakeOpenAiServer&) = delete;
  FakeOpenAiServer& operator=(const FakeOpenAiServer&) = delete;
  ~FakeOpenAiServer() { stop(); }

  /// Starts serving `script` (fake_openai_server.py's format); throws if the server does not print its port
  /// within 10 s (a test never hangs on it).
  void start(const nlohmann::json& script) {
    stop();
    std::ofstream(dir_.file("script.json")) << script.dump();
    log_ = dir_.file("requests.jsonl");
    std::ofstream(log_).close();
    std::string server = ucut::test_paths::source_dir() + "/tests/unit/llm/fake_openai_server.py";
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::string s = dir_.file("script.json");
      execlp("python3", "python3", server.c_str(), s.c_str(), log_.c_str(), (char*)nullptr);
      _exit(127);
    }
    close(fds[1]);
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (line.find('\n') == std::string::npos) {
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
              .count());
      pollfd p{fds[0], POLLIN, 0};
      if (left <= 0 || poll(&p, 1, left) <= 0) break;
      char buf[64];
      ssize_t n = read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    if (line.find('\n') == std::string::npos) {
      stop();
      throw std::runtime_error("the fake OpenAI server did not print its port within 10 s");
    }
    port_ = std::stoi(line);
  }

  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

  int port() const { return port_; }
  /// The base URL a client is configured with.
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

  /// Every request served so far: {"path", "headers", "body"} each.
  std::vector<nlohmann::json> requests() const {
    std::vector<nlohmann::json> out;
    std::ifstream in(log_);
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }

  /// A file in the server's scratch folder (for a test's own files, e.g. a config).
  std::string file(const std::string& name) const { return dir_.file(name); }

 private:
  TempDir dir_{"ucut-fake-llm"};
  std::string log_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace ucut::testing
