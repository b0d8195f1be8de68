// cli/cmd_report.cpp — `ucutlass report WORKSPACE [-o DIR] [--gpu KEY]`: an optimization workspace as a
// self-contained HTML page, a Markdown summary and JSON (report/), written to DIR; prints the Markdown.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "report/html.h"
#include "report/json.h"
#include "report/markdown.h"
#include "store/error.h"

namespace ucut::cli {
namespace {

namespace fs = std::filesystem;

int error(const std::string& message, int code) {
  std::cerr << "ucutlass report: " << message << "\n";
  return code;
}

/// Empty when `path` is a workspace file; else why not. Opens it without creating or changing anything.
std::string not_a_workspace(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return fmt::format("no workspace '{}': no such file", path);
  if (!fs::is_regular_file(path, ec)) return fmt::format("'{}' is not a file", path);
  try {
    store::Db db = store::Db::open(path, false);
    store::Statement s(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
    if (!s.step()) return fmt::format("'{}' is an SQLite file but not a μCUTLASS workspace", path);
  } catch (const store::WorkspaceError& e) {
    return fmt::format("'{}' is not a μCUTLASS workspace: {}", path, e.what());
  }
  return {};
}

int run_report(const std::string& path, std::string dir, const std::string& gpu_key) {
  if (std::string why = not_a_workspace(path); !why.empty()) return error(why, kIoError);
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) return error(err, kIoError);
  const sol::GpuSpec* gpu = table->find(gpu_key);
  if (!gpu) return error(fmt::format("unknown GPU `{}` (see 'ucutlass sol --gpus')", gpu_key), kUsage);
  if (dir.empty()) dir = fs::absolute(path).parent_path().string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return error(fmt::format("cannot create '{}': {}", dir, ec.message()), kIoError);

  report::WorkspaceReport r;
  try {
    store::Workspace ws = store::Workspace::open(path);
    r = report::build_report(ws, report::roofline_gpu(*gpu));
  } catch (const std::exception& e) {
    return error(e.what(), kIoError);
  }
  std::string md = report::render_markdown(r);
  fs::path out(dir);
  if (!write_text((out / "report.html").string(), report::render_html(r)) ||
      !write_text((out / "report.md").string(), md) ||
      !write_text((out / "report.json").string(), report::report_json(r).dump(2) + "\n"))
    return kIoError;
  std::cout << md << fmt::format("\nwrote {}/report.html, report.md, report.json\n", out.string());
  return kOk;
}

}  // namespace

Command report_command() {
  return {"report", "an optimization workspace as an HTML page, a Markdown summary and JSON",
          [](CLI::App& sub) -> std::function<int()> {
            auto path = std::make_shared<std::string>();
            auto dir = std::make_shared<std::string>();
            auto gpu = std::make_shared<std::string>("h200");
            sub.add_option("workspace", *path, "the workspace file")->required();
            sub.add_option("-o,--out", *dir, "folder for report.html, report.md, report.json (default: the workspace's)");
            sub.add_option("--gpu", *gpu, "GPU whose roofs the roofline draws (a key of data/gpus.toml)")
                ->capture_default_str();
            return [=]() { return run_report(*path, *dir, *gpu); };
          }};
}

}  // namespace ucut::cli
