// cli/parse_errors.cpp — see parse_errors.h: CLI11's refusals mapped into the exit-code table, said in our
// words.
#include "cli/parse_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cli/exit_codes.h"
#include "support/suggest.h"

namespace ucut::cli {
namespace {

/// How far the words of `args` name (sub)commands: the deepest one reached, its full name, and the word after
/// it when that should have been one of its subcommands and is none of them.
struct Reached {
  CLI::App* app = nullptr;
  std::string path = "ucutlass";
  size_t next = 0;  // the index in args after the command's words
  std::string unknown;
};

Reached walk(CLI::App& app, const std::vector<std::string>& args) {
  Reached r;
  r.app = &app;
  for (; r.next < args.size(); ++r.next) {
    const std::string& word = args[r.next];
    if (word.empty() || word[0] == '-') break;
    std::vector<CLI::App*> subs = r.app->get_subcommands({});
    if (subs.empty()) break;
    auto named = std::find_if(subs.begin(), subs.end(), [&](CLI::App* s) { return s->check_name(word); });
    if (named == subs.end()) {
      r.unknown = word;
      break;
    }
    r.app = *named;
    r.path += " " + r.app->get_name();
  }
  return r;
}

std::string nearest(std::string_view word, const std::vector<std::string>& names) {
  std::vector<std::string_view> views(names.begin(), names.end());
  auto best = closest_name(word, views);
  return best ? fmt::format(", did you mean '{}'?", *best) : "";
}

/// The first word after the command that looks like a long option and is not one of its options, with the
/// nearest of its options; "" when every option is known.
std::string unknown_option(const Reached& r, const std::vector<std::string>& args) {
  for (size_t i = r.next; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (!args[i].starts_with("--") || args[i].size() < 3) continue;
    std::string name = args[i].substr(0, args[i].find('='));
    if (r.app->get_option_no_throw(name)) continue;
    std::vector<std::string> known;
    for (const CLI::Option* o : r.app->get_options())
      for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
    return fmt::format("unknown option '{}'{}", name, nearest(name, known));
  }
  return "";
}

}  // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& e, const std::vector<std::string>& args,
                       std::ostream& out, std::ostream& err) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --help-all, --version
    app.exit(e, out, err);
    return kOk;
  }
  Reached r = walk(app, args);
  std::vector<std::string> commands;
  for (CLI::App* s : r.app->get_subcommands({})) commands.push_back(s->get_name());
  if (!r.unknown.empty()) {
    err << fmt::format("{}: unknown command '{}'{}\nRun '{} --help' for the list.\n", r.path, r.unknown,
                       nearest(r.unknown, commands), r.path);
    return kUsage;
  }
  auto is = [&](CLI::ExitCodes kind) { return e.get_exit_code() == static_cast<int>(kind); };  // names vary
  std::string what = is(CLI::ExitCodes::ExtrasError) ? unknown_option(r, args) : "";
  if (is(CLI::ExitCodes::RequiredError) && !commands.empty() && r.app->get_subcommands().empty())
    what = fmt::format("a command is required: {}", fmt::join(commands, ", "));
  if (what.empty()) {  // CLI11's own words, in the lower case of ours
    what = e.what();
    if (!what.empty() && std::isupper(static_cast<unsigned char>(what[0])))
      what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  }
  err << fmt::format("{}: {}\nRun '{} --help' for {}.\n", r.path, what, r.path,
                     commands.empty() ? "its options" : "the list");
  return kUsage;
}

}  // namespace ucut::cli
