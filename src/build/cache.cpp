// build/cache.cpp — KernelCache: lookup, build into a private directory, publish by rename.
#include "build/cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "build/nvcc.h"
#include "support/sha256.h"
#include "support/subprocess.h"

namespace fs = std::filesystem;

namespace ucut {

std::string default_cache_dir() {
  if (const char* d = std::getenv("UCUT_CACHE_DIR")) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME")) return std::string(x) + "/ucutlass";
  if (const char* h = std::getenv("HOME")) return std::string(h) + "/.cache/ucutlass";
  return ".ucutlass-cache";
}

int default_build_jobs() {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double gb = static_cast<double>(pages) * static_cast<double>(page) / 1e9;
  int by_memory = std::max(1, static_cast<int>(gb / 3.5));
  return std::max(1, std::min(static_cast<int>(cores), by_memory));
}

KernelCache::KernelCache(std::string dir, Toolchain toolchain) : dir_(std::move(dir)), toolchain_(std::move(toolchain)) {}

std::string KernelCache::key(const EmittedKernel& k) const {
  std::string flags;
  for (const std::string& f : nvcc_flags(toolchain_, k.gencode))
    if (f.rfind("-I", 0) != 0) flags += f + " ";  // include paths vary by machine; the CUTLASS version is keyed below
  for (const std::string& f : k.extra_flags) flags += f + " ";
  std::string libraries;
  for (const std::string& l : k.libraries) libraries += "-l" + l + " ";
  return sha256_hex(fmt::format("{}\n--nvcc {}\n--flags {}{}\n--cutlass {}\n", k.code, toolchain_.nvcc_version, flags,
                                libraries, toolchain_.cutlass_version));
}

BuildResult KernelCache::build(const EmittedKernel& k, double timeout_s) const {
  BuildResult r;
  r.key = key(k);
  fs::path entry = fs::path(dir_) / r.key.substr(0, 2) / r.key;
  r.library = (entry / "kernel.so").string();
  r.log_path = (entry / "build.log").string();
  std::error_code ec;
  if (fs::is_regular_file(r.library, ec)) {
    r.ok = r.cached = true;
    return r;
  }
  fs::path tmp = entry.string() + fmt::format(".tmp.{}.{}", getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()));
  fs::create_directories(tmp, ec);
  if (ec) {
    r.error = fmt::format("cannot create cache directory {}: {}", tmp.string(), ec.message());
    return r;
  }
  { std::ofstream(tmp / "kernel.cu") << k.code; }
  ProcessResult p = run_process(nvcc_command(toolchain_, k.gencode, (tmp / "kernel.cu").string(),
                                             (tmp / "kernel.so").string(), k.libraries, k.extra_flags),
                                ProcessOptions::with_timeout(timeout_s));
  r.seconds = p.seconds;
  std::string extra;
  for (const std::string& f : k.extra_flags) extra += " " + f;
  std::string log = fmt::format("$ nvcc ...{} ({})\n{}{}", extra, p.describe(), p.out, p.err);
  { std::ofstream(tmp / "build.log") << log; }
  nlohmann::json meta = {{"key", r.key},           {"namespace", k.kernel_namespace}, {"config_hash", k.config_hash},
                         {"gencode", k.gencode},    {"nvcc", toolchain_.nvcc_version}, {"cutlass", toolchain_.cutlass_version},
                         {"seconds", p.seconds},    {"ok", p.ok()}};
  { std::ofstream(tmp / "meta.json") << meta.dump(2) << "\n"; }
  if (!p.ok()) {
    // Only an nvcc that ran and exited with an error rejected the code; one that could not start, timed out
    // or was killed (e.g. out of memory) says nothing about the config.
    bool rejected = p.started && !p.timed_out && p.signal == 0;
    r.error = rejected ? summarize_nvcc_failure(p.out + p.err) : fmt::format("nvcc {}", p.describe());
    // Keep the failed build for inspection beside the entry, never as the entry.
    fs::path failed = entry.string() + ".failed";
    fs::remove_all(failed, ec);
    fs::rename(tmp, failed, ec);
    r.log_path = (failed / "build.log").string();
    return r;
  }
  fs::create_directories(entry.parent_path(), ec);
  fs::rename(tmp, entry, ec);
  if (ec) fs::remove_all(tmp, ec);  // another process published the same key first: theirs is identical
  r.ok = fs::is_regular_file(r.library, ec);
  if (!r.ok) r.error = "the build finished but " + r.library + " is missing";
  return r;
}

std::vector<BuildResult> KernelCache::build_all(const std::vector<EmittedKernel>& ks, int jobs,
                                                double timeout_s, Progress* progress,
                                                const std::vector<std::string>& labels) const {
  std::vector<BuildResult> results(ks.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  auto label = [&](size_t i) { return i < labels.size() ? labels[i] : ks[i].kernel_namespace; };
  if (progress) progress->stage("building", ks.size());
  for (int j = 0; j < std::max(1, jobs); ++j)
    workers.emplace_back([&] {
      for (size_t i = next++; i < ks.size(); i = next++) {
        if (progress) progress->start(label(i));
        results[i] = build(ks[i], timeout_s);
        if (progress) progress->finish(label(i));
      }
    });
  for (std::thread& t : workers) t.join();
  return results;
}

}  // namespace ucut
