// agent/tool_problem.cpp — the `sol` and `problem` tools and the problem argument the GPU tools share: a
// suite problem by name (suite/find_problem.h), a problem file, or problem TOML text.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "agent/tool_handlers.h"
#include "sol/gpu_table.h"
#include "suite/check.h"
#include "suite/find_problem.h"
#include "suite/report.h"
#include "support/files.h"
#include "workflow/sol_query.h"

namespace ucut::agent {
namespace {

namespace fs = std::filesystem;

std::string suites_dir(const ToolContext& ctx) {
  return ctx.suites_dir.empty() ? suite::default_suite_dir() : ctx.suites_dir;
}

std::string no_suites_text() {
  std::string looked;
  for (const std::string& d : suite::suite_dir_candidates()) looked += "\n  " + d;
  return "no suites folder found; looked in:" + looked +
         "\nstart the server with --suites DIR or set UCUT_SUITES_DIR";
}

}  // namespace

ProblemPath resolve_problem(const std::string& arg, const ToolContext& ctx, std::string* error) {
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) return std::make_shared<const std::string>(arg);  // a path, even with `=`
  if (arg.find('\n') != std::string::npos || arg.find('=') != std::string::npos) {
    static std::atomic<int> counter{0};
    fs::path tmp = fs::temp_directory_path() /
                   fmt::format("ucutlass-mcp-{}-{}.toml", static_cast<long>(getpid()), counter++);
    if (!write_file(tmp.string(), arg)) {
      *error = fmt::format("cannot write the problem text to {}", tmp.string());
      return nullptr;
    }
    return ProblemPath(new std::string(tmp.string()), [](const std::string* p) {
      std::error_code ec;
      fs::remove(*p, ec);
      delete p;
    });
  }
  std::string dir = suites_dir(ctx);
  if (dir.empty()) {
    *error = fmt::format("`{}` is no file and no suite problem: {}", arg, no_suites_text());
    return nullptr;
  }
  if (auto path = suite::find_suite_problem(dir, arg)) return std::make_shared<const std::string>(*path);
  *error = fmt::format(
      "no problem `{}`: no such file, and no suite problem of that name under {} (call the "
      "`problem` tool without arguments to list them)",
      arg, dir);
  return nullptr;
}

ToolResult tool_sol(const nlohmann::json& args, const ToolContext& ctx) {
  std::string error;
  ProblemPath path = resolve_problem(args.at("problem").get<std::string>(), ctx, &error);
  if (!path) return error_result(error);
  SolQuery q;
  q.problem = *path;
  q.gpu = args.value("gpu", ctx.profile.measure.gpu);
  SolAnswer a = sol_of_problem(q);
  if (!a.report) return error_result(a.error);
  return ok_result(sol::sol_json(*a.report));
}

ToolResult tool_problem(const nlohmann::json& args, const ToolContext& ctx) {
  std::string dir = suites_dir(ctx);
  if (!args.contains("name")) {
    if (dir.empty()) return error_result(no_suites_text());
    std::vector<std::string> missing;
    nlohmann::json list = nlohmann::json::array();
    size_t failed = 0;
    for (const std::string& path : suite::problem_files({dir}, &missing)) {
      std::string err;
      auto f = suite::check_file(path, &err);
      if (!f || !f->checked) {
        ++failed;  // not a suite problem (or one with errors): `ucutlass suite check` says why
        continue;
      }
      list.push_back({{"name", f->checked->problem.stem},
                      {"family", f->checked->problem.family},
                      {"title", f->checked->problem.title}});
    }
    return ok_result({{"suites_dir", dir}, {"problems", list}, {"unreadable_files", failed}});
  }
  std::string name = args.at("name").get<std::string>(), error;
  ProblemPath path = resolve_problem(name, ctx, &error);
  if (!path) return error_result(error);
  auto f = suite::check_file(*path, &error);
  if (!f) return error_result(error);
  if (!f->checked)
    return error_result(fmt::format(
        "`{}` is not a suite problem without errors (`ucutlass suite check {}` says why)", name, *path));
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) return error_result(err);
  const sol::GpuSpec* gpu = table->find(ctx.profile.measure.gpu);
  if (!gpu) return error_result(fmt::format("unknown GPU `{}` (the server's --gpu)", ctx.profile.measure.gpu));
  nlohmann::json j = suite::to_json({*f->checked}, *gpu);
  nlohmann::json p = j["problems"][0];
  p["sol_gpu"] = j["gpu"];
  return ok_result(p);
}

}  // namespace ucut::agent
