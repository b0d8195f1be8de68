// agent/tool_lessons.cpp — the `lessons` tool: the lessons an optimization run stored in its workspace
// (store/workspace.h), read without changing the file.
#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "agent/tool_handlers.h"
#include "store/error.h"
#include "store/workspace.h"

namespace ucut::agent {
namespace {

nlohmann::json lesson_json(const store::LessonRow& l) {
  nlohmann::json move = nlohmann::json::parse(l.move_json, nullptr, false);
  return {{"id", l.id},
          {"family", l.family},
          {"shape_class", l.shape_class},
          {"arch", l.arch},
          {"move", move.is_discarded() ? nlohmann::json(l.move_json) : move},
          {"text", l.text},
          {"expected_speedup", l.expected_speedup},
          {"measured_speedup", l.measured_speedup},
          {"problem", l.problem_id},
          {"run", l.run_id},
          {"created", l.created}};
}

}  // namespace

ToolResult tool_lessons(const nlohmann::json& args, const ToolContext&) {
  std::string path = args.at("workspace").get<std::string>();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return error_result(fmt::format("no workspace file at {}", path));
  constexpr size_t kLimit = 1000;
  try {
    store::Workspace ws = store::Workspace::open_read_only(path);
    std::set<std::string> families;
    if (args.contains("family"))
      families.insert(args.at("family").get<std::string>());
    else
      for (const store::ProblemRow& p : ws.problems()) families.insert(p.family);
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& f : families)
      for (const store::LessonRow& l : ws.lessons(f, "", "", kLimit)) list.push_back(lesson_json(l));
    return ok_result({{"workspace", path}, {"families", families}, {"lessons", list}});
  } catch (const store::WorkspaceError& e) {
    return error_result(fmt::format("cannot read workspace {}: {}", path, e.what()));
  }
}

}  // namespace ucut::agent
