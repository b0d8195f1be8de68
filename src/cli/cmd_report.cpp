// cli/cmd_report.cpp — `ucutlass report WORKSPACE... [-o DIR] [--gpu KEY]`: an optimization workspace as a
// self-contained HTML page, a Markdown summary and JSON (report/), written to DIR; prints the Markdown. Several
// workspaces are repeats of one configuration: each gets its report in DIR/repeat-<i>-<name>/, and DIR gets
// repeats.md/.json, their spread (report/repeats.h).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/io.h"
#include "report/html.h"
#include "report/json.h"
#include "report/markdown.h"
#include "report/repeats.h"
#include "store/error.h"
#include "store/workspace.h"
#include "support/error.h"

namespace ucut::cli {
namespace {

namespace fs = std::filesystem;

int error(const std::string& message, int code) {
  std::cerr << "ucutlass report: " << message << "\n";
  return code;
}

bool make_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) error(fmt::format("cannot create '{}': {}", dir.string(), ec.message()), kIoError);
  return !ec;
}

/// The three report files of `r` (`md` its Markdown) in `out`; false (said on stderr) when one cannot be written.
bool write_report(const report::WorkspaceReport& r, const std::string& md, const fs::path& out) {
  return make_dir(out) && write_text((out / "report.html").string(), report::render_html(r)) &&
         write_text((out / "report.md").string(), md) &&
         write_text((out / "report.json").string(), report::report_json(r).dump(2) + "\n");
}

int run_report(const std::vector<std::string>& paths, std::string dir, const std::string& gpu_key) {
  // Read only: a committed workspace stays byte for byte as it is (an older schema is migrated in memory).
  std::vector<store::Workspace> workspaces;
  for (const std::string& path : paths) {
    try {
      workspaces.push_back(store::Workspace::open_read_only(path));
    } catch (const store::WorkspaceError& e) {
      return error(e.what(), kIoError);
    }
  }
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) return error(err, kIoError);
  const sol::GpuSpec* gpu = table->find(gpu_key);
  if (!gpu) return error(fmt::format("unknown GPU `{}` (see 'ucutlass sol --gpus')", gpu_key), kUsage);
  if (dir.empty()) dir = fs::absolute(paths.front()).parent_path().string();
  fs::path out(dir);

  std::vector<std::pair<std::string, report::WorkspaceReport>> reports;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    try {
      reports.emplace_back(path, report::build_report(workspaces[i], report::roofline_gpu(*gpu)));
    } catch (const InternalError&) {
      throw;  // a bug, not this command's failure: main says so (exit 70)
    } catch (const std::exception& e) {
      return error(fmt::format("{}: {}", path, e.what()), kIoError);
    }
  }
  if (reports.size() == 1) {
    std::string md = report::render_markdown(reports.front().second);
    if (!write_report(reports.front().second, md, out)) return kIoError;
    std::cout << md << fmt::format("\nwrote {}/report.html, report.md, report.json\n", out.string());
    return kOk;
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    fs::path sub = out / fmt::format("repeat-{}-{}", i + 1, fs::path(reports[i].first).stem().string());
    if (!write_report(reports[i].second, report::render_markdown(reports[i].second), sub)) return kIoError;
  }
  report::RepeatSummary s = report::summarize_repeats(reports);
  std::string md = report::repeats_markdown(s);
  if (!write_text((out / "repeats.md").string(), md) ||
      !write_text((out / "repeats.json").string(), report::repeats_json(s).dump(2) + "\n"))
    return kIoError;
  std::cout << md
            << fmt::format("\nwrote {0}/repeats.md, repeats.json and each repeat's report in {0}/repeat-<i>-<name>/\n",
                           out.string());
  return kOk;
}

}  // namespace

Command report_command() {
  return {"report", "an optimization workspace as an HTML page, a Markdown summary and JSON; several: their spread",
          [](CLI::App& sub) -> std::function<int()> {
            auto paths = std::make_shared<std::vector<std::string>>();
            auto dir = std::make_shared<std::string>();
            auto gpu = std::make_shared<std::string>("h200");
            sub.add_option("workspaces", *paths,
                           "the workspace file; several: repeats of one configuration (e.g. another --seed each), "
                           "reported one by one and with their spread (mean, standard deviation, coefficient of "
                           "variation) in repeats.md/.json")
                ->required();
            sub.add_option("-o,--out", *dir,
                           "folder for report.html, report.md, report.json (default: the first workspace's)");
            sub.add_option("--gpu", *gpu, "GPU whose roofs the roofline draws (a key of data/gpus.toml)")
                ->capture_default_str();
            return [=]() { return run_report(*paths, *dir, *gpu); };
          }};
}

}  // namespace ucut::cli
