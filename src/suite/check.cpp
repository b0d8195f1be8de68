// suite/check.cpp — see check.h.
#include "suite/check.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "suite/analyze.h"
#include "suite/parse.h"

namespace ucut::suite {

std::vector<std::string> problem_files(const std::vector<std::string>& paths, std::vector<std::string>* missing) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().extension() == ".toml") out.push_back(e.path().string());
    } else if (fs::is_regular_file(p, ec)) {
      out.push_back(p);
    } else {
      missing->push_back(p);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<Checked> check_problem(const SourceFile& src, DiagEngine& diags) {
  auto problem = parse_problem(src, diags);
  if (!problem || diags.has_errors()) return std::nullopt;
  auto analysis = analyze(*problem, diags);
  if (!analysis || diags.has_errors()) return std::nullopt;
  return Checked{std::move(*problem), std::move(*analysis)};
}

std::optional<FileCheck> check_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = std::string("cannot read ") + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  FileCheck f{SourceFile(path, text.str()), DiagEngine{}, std::nullopt};
  f.checked = check_problem(f.src, f.diags);
  return f;
}

}  // namespace ucut::suite
